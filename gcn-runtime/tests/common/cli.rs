//! What the `gcnrun` CLI tests share: a fresh directory per test, running
//! gcnrun in it, and checking its exit status and standard error.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for one test's files, under `group`.
pub fn workdir_in(group: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a run printed and returned.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs gcnrun in `dir`.
pub fn gcnrun(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnrun"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("gcnrun prints UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Asserts the exit status and that standard error holds every part.
#[track_caller]
pub fn expect(out: &Output, code: i32, parts: &[&str]) {
    assert_eq!(out.code, code, "exit status; stderr:\n{}", out.stderr);
    for p in parts {
        assert!(
            out.stderr.contains(p),
            "stderr lacks `{p}`:\n{}",
            out.stderr
        );
    }
}

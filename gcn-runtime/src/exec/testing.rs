//! Running instruction snippets for the semantic tests of every family.
//!
//! [`run`] assembles a few lines of CLRX source for a GCN version (an
//! `s_endpgm` is appended), runs them as one wave with 256 VGPRs, all SGPRs,
//! EXEC all ones (unless the setup changes it), a 64 KiB LDS and a fresh
//! device memory, and returns the final wave.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

use super::tier::TierMode;
use super::{predecode_waves, run_wave, Decoded, Env, Fault, Step, Wave, WAVE_SIZE};
use crate::memory::Memory;

/// The outcome of a snippet: the wave after `s_endpgm` (or the fault) and
/// the memory it ran against.
#[allow(dead_code)] // `lds` is read by the DS tests.
pub struct Snippet {
    /// Final wave state.
    pub wave: Wave,
    /// The fault, if the snippet stopped with one.
    pub fault: Option<Fault>,
    /// The LDS after the run.
    pub lds: Vec<u8>,
}

/// Assembles `source` for `version` and runs it; `setup` prepares the wave
/// (registers, EXEC, MODE) and may allocate memory in `memory`.
pub fn run_with(
    version: GcnVersion,
    source: &str,
    memory: &Memory,
    setup: impl FnOnce(&mut Wave),
) -> Snippet {
    run_env(version, source, memory, 64 * 1024, (0, 0), setup)
}

/// [`run_with`] with an LDS of `lds_size` bytes and private memory
/// `scratch` (device address, bytes per wave).
pub fn run_env(
    version: GcnVersion,
    source: &str,
    memory: &Memory,
    lds_size: usize,
    scratch: (u64, u64),
    setup: impl FnOnce(&mut Wave),
) -> Snippet {
    run_env_waves(version, false, source, memory, lds_size, scratch, setup)
}

/// [`run_env`] as a wave of 32 lanes (`wave32`: GCN 1.5 and later; the
/// source is assembled with `--wave32`, EXEC starts as 32 ones) or 64.
pub fn run_env_waves(
    version: GcnVersion,
    wave32: bool,
    source: &str,
    memory: &Memory,
    lds_size: usize,
    scratch: (u64, u64),
    setup: impl FnOnce(&mut Wave),
) -> Snippet {
    let ops = ops_of_waves(version, wave32, source);
    let mut wave = snippet_wave(version, wave32);
    setup(&mut wave);
    #[cfg(feature = "jit")]
    let before = wave.clone();
    let snippet = run_ops(
        &ops,
        version,
        wave,
        memory,
        lds_size,
        scratch,
        TierMode::Off,
    );
    #[cfg(feature = "jit")]
    if super::tier::pure_alu(&ops) {
        // Every snippet of ALU code runs again with each of its blocks
        // compiled: the tier must leave the wave exactly as the interpreter.
        let tiered = run_ops(
            &ops,
            version,
            before,
            memory,
            lds_size,
            scratch,
            TierMode::Eager,
        );
        super::tier::assert_same(source, &snippet.wave, &tiered.wave);
        assert_eq!(
            snippet.fault.as_ref().map(|f| format!("{f:?}")),
            tiered.fault.as_ref().map(|f| format!("{f:?}")),
            "the compiled tier faults differently on\n{source}"
        );
    }
    snippet
}

/// The wave a snippet starts from: 256 VGPRs, all SGPRs, every lane of
/// the wave size on, round to nearest with denormals kept.
pub fn snippet_wave(version: GcnVersion, wave32: bool) -> Wave {
    let mut wave = Wave::new(256, super::general_sgprs(version).max(104));
    wave.set_wave32(wave32);
    wave.set_exec(u64::MAX);
    wave.mode = 0xf0;
    wave
}

/// Runs `wave` through `ops` until `s_endpgm` or a fault.
pub fn run_ops(
    ops: &Decoded,
    version: GcnVersion,
    mut wave: Wave,
    memory: &Memory,
    lds_size: usize,
    scratch: (u64, u64),
    tier: TierMode,
) -> Snippet {
    let mut lds = vec![0u8; lds_size];
    let view = memory.view();
    let mut env = Env {
        mem: &view,
        lds: &mut lds,
        version,
        code_base: 0x1000,
        scratch,
        log: None,
        hostcall: None,
        tier,
    };
    let mut fault = None;
    loop {
        match run_wave(&mut wave, ops, &mut env) {
            Ok(Step::End) => break,
            Ok(_) => continue,
            Err(f) => {
                fault = Some(f);
                break;
            }
        }
    }
    Snippet { wave, fault, lds }
}

/// `source` with an `s_endpgm` appended, assembled for `version` and
/// pre-decoded.
pub fn ops_of(version: GcnVersion, source: &str) -> Decoded {
    ops_of_waves(version, false, source)
}

/// [`ops_of`] for waves of 32 lanes (`wave32`) or 64.
pub fn ops_of_waves(version: GcnVersion, wave32: bool, source: &str) -> Decoded {
    let options = AssembleOptions {
        version: Some(version),
        wave32,
        ..AssembleOptions::default()
    };
    let text = format!("{source}\ns_endpgm\n");
    let assembly = match assemble(&text, &options) {
        Ok(a) => a,
        Err(e) => panic!("snippet does not assemble for {version}:\n{text}\n{e:?}"),
    };
    let words = gcn_asm::decode::words_from_bytes(assembly.text());
    predecode_waves(&words, version, wave32)
}

/// [`run_with`] on a fresh memory, panicking on a fault.
pub fn run(version: GcnVersion, source: &str, setup: impl FnOnce(&mut Wave)) -> Wave {
    let memory = Memory::default();
    let s = run_with(version, source, &memory, setup);
    if let Some(f) = s.fault {
        panic!("snippet faulted on {version}: {f:?}\n{source}");
    }
    s.wave
}

/// [`run`] as a wave of 32 lanes: EXEC is 32 ones, lane masks one SGPR.
pub fn run_wave32(version: GcnVersion, source: &str, setup: impl FnOnce(&mut Wave)) -> Wave {
    let memory = Memory::default();
    let s = run_env_waves(version, true, source, &memory, 64 * 1024, (0, 0), setup);
    if let Some(f) = s.fault {
        panic!("wave32 snippet faulted on {version}: {f:?}\n{source}");
    }
    s.wave
}

/// The versions a mnemonic exists on.
pub fn versions_with(mnemonic: &str) -> Vec<GcnVersion> {
    [
        GcnVersion::Gcn1_0,
        GcnVersion::Gcn1_1,
        GcnVersion::Gcn1_2,
        GcnVersion::Gcn1_4,
    ]
    .into_iter()
    .filter(|&v| gcn_asm::isa::lookup(mnemonic, v).is_some())
    .collect()
}

/// 64 lanes of `f(lane)`.
pub fn lanes(f: impl Fn(u32) -> u32) -> [u32; WAVE_SIZE] {
    std::array::from_fn(|l| f(l as u32))
}

/// Four dwords per lane: `0x80ff7f81, 0x11223344, 0x55667788, 0x99aabbcc + lane`
/// (the memory tests' buffer contents).
pub fn pattern() -> Vec<u32> {
    (0..64u32)
        .flat_map(|l| [0x80ff_7f81, 0x1122_3344, 0x5566_7788, 0x99aa_bbcc + l])
        .collect()
}

/// A small deterministic generator (xorshift64*) for the randomised tests.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// 32 random bits.
    pub fn word(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    /// A number below `n` (not 0).
    pub fn below(&mut self, n: u64) -> usize {
        (self.next() % n) as usize
    }
}

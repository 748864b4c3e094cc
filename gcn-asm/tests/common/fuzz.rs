//! The time-boxed fuzzing harness of issue 23 ("fuzz every input
//! surface"), shared by the fuzz tests of gcn-asm, gcn-runtime and
//! gcn-macros (they include this file with `#[path]`).
//!
//! A seeded xorshift generator makes inputs; each input runs on a worker
//! thread under `catch_unwind` (a panic fails the test with the input
//! printed) and a watchdog (a case that does not finish in time fails the
//! test with the input printed); a counting allocator bounds the memory
//! one case may hold live on the worker thread. Each campaign runs for
//! `GCN_FUZZ_SECONDS` seconds (default [`DEFAULT_SECONDS`]: the bounded
//! run of `cargo test`); `GCN_FUZZ_SEED` picks another sequence of
//! inputs. A failure names the seed and the case's index, and
//! `GCN_FUZZ_CASE=N` reruns exactly that case (printing it).

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Seconds per campaign when `GCN_FUZZ_SECONDS` is not set: every surface
/// together stays within a few tens of seconds of a debug `cargo test`.
pub const DEFAULT_SECONDS: f64 = 2.0;

/// Live bytes one case may hold on its worker thread before it counts as
/// unbounded memory (reported with the input). The assembler allows 256 MiB
/// per `.skip`/`.fill` (held twice while the output is built), so 1 GiB.
pub const SOFT_LIMIT: usize = 1 << 30;
/// Live bytes past which the case is stopped at once (the process aborts
/// naming the seed and case; `GCN_FUZZ_CASE` reproduces it).
pub const HARD_LIMIT: usize = 4 << 30;

/// xorshift64*: small, fast, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15 | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// True once in `n` times.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.next().is_multiple_of(n.max(1))
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A 32-bit value biased to the edges (0, 1, all ones, sign bits,
    /// powers of two) half of the time.
    pub fn nasty_u32(&mut self) -> u32 {
        match self.below(8) {
            0 => 0,
            1 => u32::MAX,
            2 => 0x8000_0000,
            3 => 0x7fff_ffff,
            4 => 1 << self.below(32),
            5 => self.u32() & 0xff,
            _ => self.u32(),
        }
    }
}

/// Numbers that break careless arithmetic, as source text.
pub const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "0xffffffffffffffff",
    "-9223372036854775808",
    "1e308",
    "-1e308",
    "1e-308",
    "3.4e39",
    "0x1p128",
    "nan",
    "inf",
];

/// Non-ASCII and control text worth inserting anywhere.
pub const ODD_TEXT: &[&str] = &[
    "é", "€", "𝕏", "\u{0}", "\u{7f}", "\r", "\t", "\u{feff}", "\u{202e}", "\\", "\"", "'", "#",
    "\n", ";", ":", ",", "(", ")", "[", "]", "\\@", "\\(",
];

fn env_f64(name: &str) -> Option<f64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// The time box of one campaign.
pub fn seconds() -> f64 {
    env_f64("GCN_FUZZ_SECONDS").unwrap_or(DEFAULT_SECONDS)
}

pub fn seed() -> u64 {
    std::env::var("GCN_FUZZ_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0x5eed_2023)
}

// ---- memory bound ----

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static LIMITED: Cell<bool> = const { Cell::new(false) };
}

/// The seed and case index of the case running now (for the hard limit's
/// message).
static CURRENT_SEED: AtomicU64 = AtomicU64::new(0);
static CURRENT_CASE: AtomicU64 = AtomicU64::new(0);

/// The system allocator, counting the live bytes of each thread (a fuzz
/// test installs it with `#[global_allocator]`).
pub struct Counting;

fn account(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
        if delta > 0 && now > HARD_LIMIT as isize && LIMITED.try_with(Cell::get).unwrap_or(false) {
            let _ = LIMITED.try_with(|l| l.set(false));
            eprintln!(
                "fuzz: a case holds more than {} MiB live; rerun it with GCN_FUZZ_SEED={} GCN_FUZZ_CASE={}",
                HARD_LIMIT >> 20,
                CURRENT_SEED.load(Ordering::Relaxed),
                CURRENT_CASE.load(Ordering::Relaxed)
            );
            std::process::abort();
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            account(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            account(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        account(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            account(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Runs `f` and returns its result and the most bytes it held live on
/// this thread at once (0 unless [`Counting`] is the global allocator).
fn measured<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    LIMITED.with(|l| l.set(true));
    let r = f();
    LIMITED.with(|l| l.set(false));
    let peak = PEAK.with(Cell::get);
    (r, (peak - base).max(0) as usize)
}

// ---- the campaign ----

/// What one check says of an input.
pub enum Verdict {
    /// Accepted.
    Ok,
    /// Rejected with a well-formed error.
    Rejected,
}

/// A broken promise (other than a panic, a hang or unbounded memory).
pub type Violation = String;

/// What a campaign did.
#[derive(Debug, Default)]
pub struct Report {
    pub inputs: u64,
    pub accepted: u64,
    pub rejected: u64,
    pub seconds: f64,
    /// The slowest case: (seconds, case index).
    pub slowest: (f64, u64),
}

type Outcome = Result<(Result<Verdict, Violation>, usize), String>;

/// Fuzzes one surface for [`seconds()`]: `generate` makes input `n` from
/// the generator, `check` runs it (on a worker thread, under
/// `catch_unwind`, a watchdog of `watchdog` and the memory bound) and says
/// whether the promise held. Panics (failing the test) with the input on
/// the first broken promise; prints and returns the figures otherwise.
pub fn campaign<I, G, C>(name: &str, watchdog: Duration, mut generate: G, check: C) -> Report
where
    I: Debug + Send + Sync + 'static,
    G: FnMut(&mut Rng) -> I,
    C: Fn(&I) -> Result<Verdict, Violation> + Send + 'static,
{
    let seed = seed();
    let only = env_f64("GCN_FUZZ_CASE").map(|c| c as u64);
    let budget = Duration::from_secs_f64(seconds().max(0.0));
    let (to_worker, inbox) = mpsc::channel::<(u64, Arc<I>)>();
    let (to_main, results) = mpsc::channel::<Outcome>();
    std::thread::Builder::new()
        .name(format!("fuzz-{name}"))
        .stack_size(64 << 20)
        .spawn(move || {
            for (case, input) in inbox {
                CURRENT_SEED.store(seed, Ordering::Relaxed);
                CURRENT_CASE.store(case, Ordering::Relaxed);
                let outcome = catch_unwind(AssertUnwindSafe(|| measured(|| check(&input))))
                    .map_err(|p| {
                        p.downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "(a non-string panic)".into())
                    });
                drop(input);
                if to_main.send(outcome).is_err() {
                    break;
                }
            }
        })
        .expect("the worker thread starts");
    let mut rng = Rng::new(seed);
    let mut report = Report::default();
    let start = Instant::now();
    let mut case = 0u64;
    loop {
        if only.is_none() && start.elapsed() >= budget && report.inputs > 0 {
            break;
        }
        let input = Arc::new(generate(&mut rng));
        let this = case;
        case += 1;
        match only {
            Some(n) if n != this => continue,
            Some(_) => println!("{name}: case {this}: {input:#?}"),
            None => {}
        }
        let fail = |why: &str| -> ! {
            panic!(
                "{name}: {why}\n  seed {seed}, case {this} (rerun: GCN_FUZZ_SEED={seed} GCN_FUZZ_CASE={this})\n  input: {input:?}"
            )
        };
        to_worker
            .send((this, Arc::clone(&input)))
            .unwrap_or_else(|_| fail("the worker thread is gone"));
        let sent = Instant::now();
        let result = results.recv_timeout(watchdog);
        let took = sent.elapsed().as_secs_f64();
        if took > report.slowest.0 {
            report.slowest = (took, this);
        }
        match result {
            Ok(Ok((Ok(verdict), peak))) => {
                if peak > SOFT_LIMIT {
                    fail(&format!(
                        "held {} MiB live (bound: {} MiB)",
                        peak >> 20,
                        SOFT_LIMIT >> 20
                    ));
                }
                match verdict {
                    Verdict::Ok => report.accepted += 1,
                    Verdict::Rejected => report.rejected += 1,
                }
            }
            Ok(Ok((Err(violation), _))) => fail(&violation),
            Ok(Err(panic)) => fail(&format!("panicked: {panic}")),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                fail(&format!("did not finish within {watchdog:?} (a hang)"))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => fail("the worker thread died"),
        }
        report.inputs += 1;
        if only.is_some() {
            break;
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    println!(
        "fuzz {name}: {} inputs ({} accepted, {} rejected) in {:.1} s, seed {seed}; slowest case {} ({:.2} s)",
        report.inputs, report.accepted, report.rejected, report.seconds, report.slowest.1, report.slowest.0
    );
    report
}

// ---- text mutation ----

/// Character boundaries of `s` (0 and `s.len()` included).
fn boundaries(s: &str) -> Vec<usize> {
    s.char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(s.len()))
        .collect()
}

/// Replaces a run of decimal or hex digits with an extreme number.
fn replace_number(rng: &mut Rng, text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let starts: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()))
        .collect();
    if starts.is_empty() {
        return None;
    }
    let start = *rng.pick(&starts);
    let mut end = start;
    while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'.') {
        end += 1;
    }
    Some(format!(
        "{}{}{}",
        &text[..start],
        rng.pick(EXTREMES),
        &text[end..]
    ))
}

/// One random edit of source text: byte flips (kept valid UTF-8), odd
/// characters inserted, truncation, lines duplicated, deleted, swapped or
/// spliced from `corpus`, numbers replaced by extreme values, tokens from
/// `tokens` inserted.
pub fn mutate_text(rng: &mut Rng, text: &str, corpus: &[&str], tokens: &[&str]) -> String {
    let b = boundaries(text);
    let at = *rng.pick(&b);
    let mut lines: Vec<&str> = text.split('\n').collect();
    match rng.below(11) {
        0 => {
            // Flip a bit of an ASCII byte (invalid UTF-8 cannot reach the
            // assembler's &str).
            let mut bytes = text.as_bytes().to_vec();
            if !bytes.is_empty() {
                let i = rng.below(bytes.len());
                if bytes[i].is_ascii() {
                    bytes[i] ^= 1 << rng.below(7);
                }
            }
            String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
        }
        1 => format!("{}{}{}", &text[..at], rng.pick(ODD_TEXT), &text[at..]),
        2 => text[..at].to_string(),
        3 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            let line = lines[i];
            lines.insert(i, line);
            lines.join("\n")
        }
        4 if !lines.is_empty() => {
            lines.remove(rng.below(lines.len()));
            lines.join("\n")
        }
        5 if lines.len() > 1 => {
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(i, j);
            lines.join("\n")
        }
        6 | 7 if !corpus.is_empty() => {
            let donor = rng.pick(corpus);
            let donor_lines: Vec<&str> = donor.split('\n').collect();
            let from = rng.below(donor_lines.len());
            let n = 1 + rng.below(4);
            let spliced = &donor_lines[from..(from + n).min(donor_lines.len())];
            let i = rng.below(lines.len() + 1);
            lines.splice(i..i, spliced.iter().copied());
            lines.join("\n")
        }
        8 => replace_number(rng, text).unwrap_or_else(|| text.to_string()),
        9 if !tokens.is_empty() => format!("{} {} {}", &text[..at], rng.pick(tokens), &text[at..]),
        _ => {
            // Delete a short span.
            let j = b
                .iter()
                .copied()
                .filter(|&j| j >= at)
                .take(1 + rng.below(8))
                .last();
            format!("{}{}", &text[..at], &text[j.unwrap_or(at)..])
        }
    }
}

/// Mutates `seed` 1..=`max_edits` times.
pub fn mutated_text(
    rng: &mut Rng,
    seed: &str,
    corpus: &[&str],
    tokens: &[&str],
    max_edits: usize,
) -> String {
    let mut text = seed.to_string();
    for _ in 0..1 + rng.below(max_edits) {
        text = mutate_text(rng, &text, corpus, tokens);
        if text.len() > 1 << 16 {
            text.truncate(
                boundaries(&text)
                    .into_iter()
                    .rfind(|&i| i <= 1 << 16)
                    .unwrap_or(0),
            );
        }
    }
    text
}

// ---- binary mutation ----

/// One random edit of a binary: a byte replaced, a bit flipped, an aligned
/// 32-bit field set to a nasty value (at `hot` offsets, where the records
/// and headers are, half of the time), a truncation or an insertion.
pub fn mutate_bytes(rng: &mut Rng, bytes: &mut Vec<u8>, hot: &[usize]) {
    if bytes.is_empty() {
        bytes.push(rng.u32() as u8);
        return;
    }
    let n = bytes.len();
    let at = if !hot.is_empty() && rng.one_in(2) {
        (*rng.pick(hot) + rng.below(16)).min(n - 1)
    } else {
        rng.below(n)
    };
    match rng.below(6) {
        0 => bytes[at] = rng.u32() as u8,
        1 => bytes[at] ^= 1 << rng.below(8),
        2 | 3 => {
            let at = at & !3;
            let v = rng.nasty_u32();
            for (k, b) in v.to_le_bytes().into_iter().enumerate() {
                if let Some(slot) = bytes.get_mut(at + k) {
                    *slot = b;
                }
            }
        }
        4 => bytes.truncate(at),
        _ => {
            let extra: Vec<u8> = (0..1 + rng.below(8)).map(|_| rng.u32() as u8).collect();
            bytes.splice(at..at, extra);
        }
    }
}

//! Random instruction words and random kernels never panic the emulator:
//! every outcome is a clean end or a fault.

// Inside the crate: the interpreter's entry points are not public.
use super::{predecode, run_wave, Env, Step, Wave};
use crate::Memory;
use gcn_asm::GcnVersion;
use proptest::prelude::*;

fn run_words(words: &[u32], version: GcnVersion, vgprs: u16, seed: u32) {
    let memory = Memory::default();
    let buffer = memory.buffer_zeroed::<u32>(1024).unwrap();
    let ops = predecode(words, version);
    let mut wave = Wave::new(vgprs, 104);
    wave.set_exec(u64::from(seed) | (u64::from(seed.rotate_left(7)) << 32));
    // Point a few SGPRs at real memory so that loads and stores reach it.
    for pair in (0..16).step_by(2) {
        wave.set_s64(pair, buffer.ptr().0);
    }
    wave.sgpr[18] = 0x1000;
    wave.budget = 10_000;
    for (r, row) in wave.vgpr.iter_mut().enumerate() {
        for (lane, v) in row.iter_mut().enumerate() {
            *v = seed
                .wrapping_mul(r as u32 + 1)
                .wrapping_add(lane as u32 * 4)
                & 0xfff;
        }
    }
    let view = memory.view();
    let mut lds = vec![0u8; 4096];
    let mut env = Env {
        mem: &view,
        lds: &mut lds,
        version,
        code_base: 0x1000,
        scratch: (buffer.ptr().0, 1024),
        log: None,
        hostcall: None,
        tier: super::tier::TierMode::Off,
    };
    for _ in 0..8 {
        match run_wave(&mut wave, &ops, &mut env) {
            Ok(Step::End) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

fn version() -> impl Strategy<Value = GcnVersion> {
    prop_oneof![
        Just(GcnVersion::Gcn1_0),
        Just(GcnVersion::Gcn1_1),
        Just(GcnVersion::Gcn1_2),
        Just(GcnVersion::Gcn1_4),
        Just(GcnVersion::Gcn1_4_1),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_words_never_panic(
        words in proptest::collection::vec(any::<u32>(), 1..24),
        v in version(),
        vgprs in 1u16..=64,
        seed in any::<u32>(),
    ) {
        run_words(&words, v, vgprs * 4, seed);
    }

    /// Words of the vector and memory families (top bits chosen so the
    /// decoder accepts more of them).
    #[test]
    fn random_family_words_never_panic(
        raw in proptest::collection::vec((any::<u32>(), 0usize..8), 1..16),
        v in version(),
        seed in any::<u32>(),
    ) {
        const TOPS: [u32; 8] = [0x0000_0000, 0x7e00_0000, 0x7c00_0000, 0xd000_0000,
                                0xd800_0000, 0xdc00_0000, 0xe000_0000, 0xbe80_0000];
        let words: Vec<u32> = raw
            .iter()
            .map(|&(w, t)| TOPS[t] | (w & if t == 0 { 0x7fff_ffff } else { 0x03ff_ffff }))
            .collect();
        run_words(&words, v, 32, seed);
    }
}

//! Fused regions (`lower::fused`) against the interpreter: a vector add
//! with NaN and denormal inputs, stores that overlap the region's loads,
//! an address read from memory, lanes the proof of density must reject
//! (not affine at the region's entry, carries that differ across the
//! wave), each run interpreted and with every block compiled, unchecked
//! and with every check at `Warn`.

use std::sync::atomic::Ordering::Relaxed;

use gcn_asm::GcnVersion;

use super::lower::fused::FUSED_RAN;
use super::tests_memory::interpreted_and_compiled;

/// Work-items of each test (four groups of 256).
const ITEMS: u32 = 1024;

/// A GCN 1.2 kernel `k(in, out)` whose body is `body`, after the
/// arguments' loads: `s[8:9]` holds `in`, `s[10:11]` `out`, `v0` the
/// work-item's global id.
fn kernel(body: &str) -> String {
    format!(
        ".gallium
.gpu tonga
.kernel k
    .args
        .arg in, global, 8
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
        .sgprsnum 32
        .vgprsnum 24
.text
k:
    s_load_dwordx4 s[8:11], s[0:1], 0x24
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s2, s4, 8
    v_add_u32 v0, vcc, s2, v0
{body}
    s_endpgm
"
    )
}

/// Runs `body` over `values` (in) and `out_len` zeroed dwords (out) as
/// [`interpreted_and_compiled`] does; returns the fault, if any, and
/// whether a fused pass ran.
fn run(what: &str, body: &str, values: &[u32], out_len: usize) -> (Option<String>, bool) {
    let before = FUSED_RAN.load(Relaxed);
    let (fault, _) = interpreted_and_compiled(
        what,
        &kernel(body),
        GcnVersion::Gcn1_2,
        values,
        false,
        out_len,
        ITEMS,
    );
    (fault, FUSED_RAN.load(Relaxed) > before)
}

/// Input words with every kind of f32 among them: normal numbers,
/// denormals of both signs, zeros, infinities, quiet and signalling NaNs.
fn floats(n: usize) -> Vec<u32> {
    let special = [
        0x0000_0001,
        0x8000_0010,
        0x007f_ffff,
        0x0000_0000,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0001,
        0x7f80_0001,
        0xffa0_0000,
    ];
    (0..n as u32)
        .map(|i| {
            if i % 7 == 3 {
                special[(i as usize / 7) % special.len()]
            } else {
                // Numbers of moderate size, both signs.
                let x = i.wrapping_mul(0x9e37_79b9);
                (x & 0x807f_ffff) | (((x >> 8) % 60 + 100) << 23)
            }
        })
        .collect()
}

/// `out[i] = in[i] + in[i + ITEMS]`: two loads, an f32 add (denormals
/// flushed, NaNs quieted, the exact pass where one is NaN) and a store in
/// one fused pass, with the interpreter's words.
#[test]
fn a_vector_add_runs_fused_as_interpreted() {
    let body = format!(
        "    v_lshlrev_b32 v0, 2, v0
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v1, v[4:5]
    v_add_u32 v4, vcc, {bytes}, v4
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]
    s_waitcnt vmcnt(0)
    v_add_f32 v1, v1, v2
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_store_dword v[4:5], v1",
        bytes = 4 * ITEMS
    );
    let (fault, fused) = run(
        "vector add",
        &body,
        &floats(2 * ITEMS as usize),
        ITEMS as usize,
    );
    assert_eq!(fault, None);
    assert!(fused, "no fused pass ran");
}

/// A store whose bytes the region's loads read too — in place, and one
/// lane along (`out[i + 1] = out[i] + in[i]`): every lane's load comes
/// before any lane's store, as in the interpreter. (In place, the region
/// runs fused, storing pass by pass; one lane along, a pass's store would
/// reach the next pass's load, and the proof sends the region to its
/// ordinary form.)
#[test]
fn stores_over_the_regions_loads_run_fused_as_interpreted() {
    for (what, along) in [("in place", 0), ("one lane along", 4)] {
        let body = format!(
            "    v_lshlrev_b32 v0, 2, v0
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v1, v[4:5]
    v_mov_b32 v7, s9
    v_add_u32 v6, vcc, s8, v0
    v_addc_u32 v7, vcc, v7, 0, vcc
    flat_load_dword v2, v[6:7]
    s_waitcnt vmcnt(0)
    v_add_u32 v1, vcc, v1, v2
    v_add_u32 v4, vcc, {along}, v4
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_store_dword v[4:5], v1"
        );
        let values: Vec<u32> = (0..ITEMS).map(|i| i * 3 + 1).collect();
        // `out` is zeroed by the harness: fill it with something first.
        let fill = format!(
            "    v_lshlrev_b32 v8, 2, v0
    v_mov_b32 v9, s11
    v_add_u32 v8, vcc, s10, v8
    v_addc_u32 v9, vcc, v9, 0, vcc
    v_mul_lo_u32 v10, v0, 7
    flat_store_dword v[8:9], v10
    s_waitcnt vmcnt(0)
    s_barrier
    s_mov_b32 s3, 0
{body}"
        );
        let (fault, fused) = run(what, &fill, &values, ITEMS as usize + 1);
        assert_eq!(fault, None, "{what}");
        assert!(fused, "{what}: no fused pass ran");
    }
}

/// A store wider than the region's load (`dwordx2` over `dword`): from
/// another buffer the region runs fused, storing pass by pass; over the
/// bytes it loads (`out[2i], out[2i + 1] = out[i], out[i] + 1`), a pass's
/// store would reach a later pass's load, and the region runs in its
/// ordinary form — both as interpreted.
#[test]
fn a_wider_store_over_the_regions_load_runs_as_interpreted() {
    for (what, load_base) in [("apart", "s9"), ("overlapping", "s11")] {
        let low = if load_base == "s9" { "s8" } else { "s10" };
        let body = format!(
            "    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v5, {load_base}
    v_add_u32 v4, vcc, {low}, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]
    v_lshlrev_b32 v1, 3, v0
    v_mov_b32 v7, s11
    v_add_u32 v6, vcc, s10, v1
    v_addc_u32 v7, vcc, v7, 0, vcc
    s_waitcnt vmcnt(0)
    v_add_u32 v3, vcc, 1, v2
    flat_store_dwordx2 v[6:7], v[2:3]"
        );
        let values: Vec<u32> = (0..ITEMS).map(|i| i * 3 + 1).collect();
        let (fault, fused) = run(what, &body, &values, 2 * ITEMS as usize);
        assert_eq!(fault, None, "{what}");
        if what == "apart" {
            assert!(fused, "{what}: no fused pass ran");
        }
    }
}

/// An address read from memory (`out[i] = in[in[i]]`): the region ends
/// before the access whose address a load of the region made. (The row
/// the load writes holds dense ids at the region's entry, which a region
/// that ran on would take for the address.)
#[test]
fn an_address_loaded_in_the_region_runs_as_interpreted() {
    let body = "    v_mov_b32 v1, v0
    s_mov_b32 s3, 0
    v_lshlrev_b32 v0, 2, v0
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v1, v[4:5]
    s_waitcnt vmcnt(0)
    v_lshlrev_b32 v1, 2, v1
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    s_waitcnt vmcnt(0)
    flat_store_dword v[4:5], v2";
    // A permutation of the items, so that the gathered loads are apart.
    let values: Vec<u32> = (0..ITEMS).map(|i| (i * 37 + 11) % ITEMS).collect();
    let (fault, _) = run("gather", body, &values, ITEMS as usize);
    assert_eq!(fault, None);
}

/// Lanes the proof must reject run as interpreted: work-item ids in
/// another order at the region's entry (not affine); a borrow and a carry
/// that differ across the wave, made into high address words (a fault,
/// the interpreter's, where lane 0's address alone looks dense).
#[test]
fn lanes_the_proof_rejects_run_as_interpreted() {
    let region = "    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    s_waitcnt vmcnt(0)
    flat_store_dword v[4:5], v2";
    let values: Vec<u32> = (0..ITEMS).map(|i| i ^ 0x5a5a).collect();
    // Work-items 2 and 3 of every four swapped, then a scalar
    // instruction: the region starts with a row that is not `b + l * s`
    // though lanes 0 and 1 are.
    // (The store's address from the ids in order, in v7.)
    let swapped = format!(
        "    v_mov_b32 v7, v0\n    v_lshrrev_b32 v6, 1, v0\n    v_and_b32 v6, 1, v6\n    \
         v_xor_b32 v0, v0, v6\n    s_mov_b32 s3, 0\n{}",
        region.replace("s10, v1", "s10, v8").replace(
            "    v_mov_b32 v5, s11",
            "    v_lshlrev_b32 v8, 2, v7\n    v_mov_b32 v5, s11"
        )
    );
    let (fault, _) = run("swapped", &swapped, &values, ITEMS as usize);
    assert_eq!(fault, None);
    // The same with a dense order: it fuses (the proof is not what
    // rejected the swapped lanes' region's fusion at translation).
    let dense = format!("    v_xor_b32 v0, 0, v0\n    s_mov_b32 s3, 0\n{region}");
    let (fault, fused) = run("dense", &dense, &values, ITEMS as usize);
    assert_eq!(fault, None);
    assert!(fused, "the dense order did not fuse");
    // Group 0's work-items 0-31 borrow in `4 i - 128` and carry it back
    // into a high word one below `in`'s: lanes 32-63 fault, though lane 0's
    // address (and the stride from it) is `in`'s.
    let borrow = "    s_add_u32 s12, s8, 0x80
    s_sub_u32 s13, s9, 1
    v_lshlrev_b32 v1, 2, v0
    v_subrev_u32 v1, vcc, 0x80, v1
    v_mov_b32 v5, s13
    v_add_u32 v4, vcc, s12, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]";
    let (fault, _) = run("borrow", borrow, &values, ITEMS as usize);
    assert!(fault.is_some(), "the borrowed addresses did not fault");
    // Work-items 32 on carry out of `4 i - 128` into the high word: they
    // fault, though lane 0's address is `in`'s.
    let carry = "    s_add_u32 s12, s8, 0x80
    v_lshlrev_b32 v1, 2, v0
    v_add_u32 v1, vcc, 0xffffff80, v1
    v_mov_b32 v5, s9
    v_addc_u32 v5, vcc, v5, 0, vcc
    v_add_u32 v4, vcc, s12, v1
    flat_load_dword v2, v[4:5]";
    let (fault, _) = run("carry", carry, &values, ITEMS as usize);
    assert!(fault.is_some(), "the carried addresses did not fault");
    // The same borrow made before the region: the row it starts with is
    // `b + l * s` modulo 2^32 only.
    let wrapped = "    s_add_u32 s12, s8, 0x80
    s_sub_u32 s13, s9, 1
    v_lshlrev_b32 v1, 2, v0
    v_subrev_u32 v1, vcc, 0x80, v1
    s_mov_b32 s3, 0
    v_mov_b32 v5, s13
    v_add_u32 v4, vcc, s12, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]";
    let (fault, _) = run("wrapped", wrapped, &values, ITEMS as usize);
    assert!(fault.is_some(), "the wrapped row's addresses did not fault");
    // High words `in`'s plus the lane: lane 0's address is `in`'s, the
    // low words dense.
    let high = "    v_sub_u32 v6, vcc, v0, s2
    v_lshlrev_b32 v1, 2, v0
    v_add_u32 v4, vcc, s8, v1
    v_mov_b32 v5, s9
    v_addc_u32 v5, vcc, v5, v6, vcc
    flat_load_dword v2, v[4:5]";
    let (fault, _) = run("high words apart", high, &values, ITEMS as usize);
    assert!(fault.is_some(), "the high words apart did not fault");
    // A carry into the high word from a lane mask made before the region,
    // set for the wave's lanes 32-63 only.
    let mask = "    v_sub_u32 v6, vcc, v0, s2
    v_cmp_le_u32 vcc, 32, v6
    s_mov_b32 s3, 0
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v5, s9
    v_addc_u32 v5, vcc, v5, 0, vcc
    v_add_u32 v4, vcc, s8, v1
    flat_load_dword v2, v[4:5]";
    let (fault, _) = run("carry mask", mask, &values, ITEMS as usize);
    assert!(fault.is_some(), "the carried high words did not fault");
    // A borrow out of every lane's low word, taken from the high word:
    // `in`'s high word less one.
    let borrowed = "    s_sub_u32 s12, 0, s8
    v_lshlrev_b32 v1, 2, v0
    v_subrev_u32 v4, vcc, s12, v1
    v_mov_b32 v5, s9
    v_subbrev_u32 v5, vcc, 0, v5, vcc
    flat_load_dword v2, v[4:5]";
    let (fault, _) = run("borrowed", borrowed, &values, ITEMS as usize);
    assert!(fault.is_some(), "the borrowed high words did not fault");
    // `4 (i + 2^30 - 16)`, by a multiply and by a shift: work-items 16 on
    // lose bit 32, which a carry puts back only for items 0-15.
    for scale in ["v_mul_lo_u32 v1, v1, 4", "v_lshlrev_b32 v1, 2, v1"] {
        let lost = format!(
            "    s_add_u32 s12, s8, 0x40
    s_sub_u32 s13, s9, 1
    v_add_u32 v1, vcc, 0x3ffffff0, v0
    {scale}
    v_mov_b32 v5, s13
    v_add_u32 v4, vcc, s12, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]"
        );
        let (fault, _) = run(scale, &lost, &values, ITEMS as usize);
        assert!(
            fault.is_some(),
            "{scale}: the wrapped addresses did not fault"
        );
    }
}

/// `out[i] = in[i] + 3` (one fused region) launched `launches` times on
/// one `Program`, every block compiled at once and every check on: each
/// launch reports nothing and writes the sums. Returns each block's count
/// of failed proofs after the last launch.
fn checked_add_launches(launches: u32) -> Vec<u32> {
    use crate::check::{CheckOptions, Level};
    use crate::exec::tier::TierMode;
    use crate::kernel::{ArgValue, Dispatch};
    use crate::{LaunchOptions, Memory, Program};
    let body = "    v_lshlrev_b32 v0, 2, v0
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v1, v[4:5]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    s_waitcnt vmcnt(0)
    v_add_u32 v1, vcc, 3, v1
    flat_store_dword v[4:5], v1";
    let binary = gcn_asm::assemble(&kernel(body), &gcn_asm::AssembleOptions::default())
        .expect("assembles")
        .gallium_bytes()
        .expect("gallium binary");
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, GcnVersion::Gcn1_2).expect("loads");
    let values: Vec<u32> = (0..ITEMS).map(|i| i * 5).collect();
    let input = memory.buffer_from_slice(&values).expect("buffer");
    let out = memory.buffer_zeroed::<u32>(ITEMS as usize).expect("buffer");
    let args = [ArgValue::Pointer(input.ptr()), ArgValue::Pointer(out.ptr())];
    let options = LaunchOptions {
        threads: Some(1),
        checks: CheckOptions::all(Level::Error),
        tier: TierMode::Eager,
        ..LaunchOptions::default()
    };
    let expected: Vec<u32> = values.iter().map(|v| v + 3).collect();
    for _ in 0..launches {
        program
            .launch("k", &args, &Dispatch::new_1d(ITEMS, 256), &options)
            .expect("runs with no report");
        assert_eq!(out.to_vec(), expected);
    }
    let entry = program.kernel("k").expect("kernel").offset;
    let ops = program.ops_waves(entry, false);
    ops.tier
        .blocks
        .iter()
        .map(|b| b.fused_misses.load(Relaxed))
        .collect()
}

/// With every check on, the waves that replay their block's checks run
/// the region fused (the hook lets every access be made inline), with no
/// report and the unchecked run's output.
#[test]
fn replayed_waves_run_fused_with_the_checks_on() {
    let before = FUSED_RAN.load(Relaxed);
    checked_add_launches(1);
    assert!(
        FUSED_RAN.load(Relaxed) > before,
        "no replayed wave ran fused"
    );
}

/// Launches of one program with every check on, more than
/// `MAX_FUSED_MISSES` of them: each has waves whose checks run in full (a
/// block's first wave in each piece of the launch records it), whose
/// accesses the hook refuses. Those refusals are no failed proofs of
/// density: the region stays fused, its miss count zero.
#[test]
fn waves_checked_in_full_do_not_turn_the_region_off() {
    let misses = checked_add_launches(super::enabled::MAX_FUSED_MISSES + 8);
    assert!(
        misses.iter().all(|&m| m == 0),
        "fused misses per block: {misses:?}"
    );
}

/// A region whose lanes are never dense (a stride of two dwords) stops
/// trying the proof after `MAX_FUSED_MISSES` failures: over 1024 waves
/// the proof runs far fewer times than there are waves, and every run
/// gives the interpreter's words.
#[test]
fn a_block_whose_proofs_fail_stops_trying() {
    use super::lower::fused::PROOFS_TRIED;
    let items = 64 * ITEMS;
    let body = "    v_lshlrev_b32 v1, 3, v0
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    s_waitcnt vmcnt(0)
    flat_store_dword v[4:5], v2";
    let values: Vec<u32> = (0..2 * items).map(|i| i ^ 0x3c3c).collect();
    let before = PROOFS_TRIED.load(Relaxed);
    let (fault, _) = interpreted_and_compiled(
        "strided",
        &kernel(body),
        GcnVersion::Gcn1_2,
        &values,
        false,
        items as usize,
        items,
    );
    assert_eq!(fault, None);
    let tried = PROOFS_TRIED.load(Relaxed) - before;
    assert!(
        (1..512).contains(&tried),
        "{tried} proofs tried over {} waves",
        items / 64
    );
}

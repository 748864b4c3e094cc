//! The compiled tier against the interpreter: random blocks.

use gcn_asm::GcnVersion;

use crate::exec::testing::{ops_of_waves, run_ops};
use crate::exec::tier::TierMode;
use crate::exec::Wave;
use crate::memory::Memory;

/// Runs `source` (an `s_endpgm` is appended) through the interpreter and
/// through the tier (every block compiled), from the wave `setup` makes;
/// panics unless both leave the same wave. Returns the instructions that
/// ran compiled.
fn same(version: GcnVersion, wave32: bool, source: &str, setup: impl Fn(&mut Wave)) -> u64 {
    let ops = ops_of_waves(version, wave32, source);
    let mut wave = Wave::new(256, crate::exec::general_sgprs(version).max(104));
    wave.set_wave32(wave32);
    wave.set_exec(u64::MAX);
    wave.mode = 0xf0;
    setup(&mut wave);
    let memory = Memory::default();
    let run = |tier| run_ops(&ops, version, wave.clone(), &memory, 1024, (0, 0), tier);
    let interpreted = run(TierMode::Off);
    let compiled = run(TierMode::Eager);
    assert!(interpreted.fault.is_none(), "{source}: {:?}", interpreted.fault);
    assert!(compiled.fault.is_none(), "{source}: {:?}", compiled.fault);
    super::assert_same(source, &interpreted.wave, &compiled.wave);
    compiled.wave.compiled_steps
}

#[test]
fn a_loop_runs_compiled_with_the_interpreters_results() {
    let source = "
    s_movk_i32 s8, 5
    v_mov_b32 v3, 0.5
loop:
    v_fma_f32 v1, v1, v3, v2
    v_fma_f32 v2, v2, v3, v1
    v_add_u32 v4, vcc, s8, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    s_sub_u32 s8, s8, 1
    s_cmp_lg_u32 s8, 0
    s_cbranch_scc1 loop";
    let compiled = same(GcnVersion::Gcn1_2, false, source, |w| {
        for l in 0..64 {
            w.vgpr[0][l] = (l as u32).wrapping_mul(0x0400_0001) | 0xf000_0000;
            w.vgpr[1][l] = (l as f32 * 0.25).to_bits();
            w.vgpr[2][l] = (1.0f32 - l as f32).to_bits();
        }
        w.sgpr[126] = 0x0f0f_f0f0; // EXEC with lanes off
        w.sgpr[127] = 0x8000_0001;
    });
    assert!(compiled >= 5 * 7, "the loop ran compiled ({compiled} instructions)");
}

//! FLAT/GLOBAL/SCRATCH tests: expected values computed by hand from
//! `GcnInstrsFlat.md`.

use gcn_asm::isa::Encoding;
use gcn_asm::GcnVersion;

use super::{PRIVATE_APERTURE, SHARED_APERTURE};
use crate::exec::ds::tests::assert_rows_covered;
use crate::exec::testing::{lanes, pattern, run_env, run_with, versions_with};

use crate::exec::{FaultKind, Wave, WAVE_SIZE};
use crate::memory::Memory;

/// Puts 64-bit per-lane values into VGPRs `r`, `r + 1`.
fn set64(w: &mut Wave, r: usize, f: impl Fn(u64) -> u64) {
    for l in 0..WAVE_SIZE {
        let v = f(l as u64);
        w.vgpr[r][l] = v as u32;
        w.vgpr[r + 1][l] = (v >> 32) as u32;
    }
}

#[test]
fn flat_loads_from_global_memory() {
    for v in versions_with("flat_load_dword") {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&pattern()).unwrap();
        let base = buf.ptr().0;
        let mut src = String::from(
            "flat_load_ubyte v10, v[0:1]\nflat_load_sbyte v11, v[0:1]\n\
             flat_load_ushort v12, v[2:3]\nflat_load_sshort v13, v[2:3]\n\
             flat_load_dword v14, v[2:3]\nflat_load_dwordx2 v[16:17], v[0:1]\n\
             flat_load_dwordx3 v[20:22], v[0:1]\nflat_load_dwordx4 v[24:27], v[0:1]\n",
        );
        if v.is_gcn14() {
            src += "flat_load_dword v15, v[0:1] offset:12\n\
                    flat_load_ubyte_d16 v30, v[0:1]\nflat_load_ubyte_d16_hi v31, v[0:1]\n\
                    flat_load_sbyte_d16 v32, v[0:1]\nflat_load_sbyte_d16_hi v33, v[0:1]\n\
                    flat_load_short_d16 v34, v[2:3]\nflat_load_short_d16_hi v35, v[2:3]\n";
        }
        let s = run_with(v, &src, &memory, |w| {
            set64(w, 0, |l| base + 16 * l);
            set64(w, 2, |l| base + 16 * l + 2);
            for r in 30..36 {
                w.vgpr[r] = [0xdead_beef; WAVE_SIZE];
            }
            w.vgpr[14] = [7; WAVE_SIZE];
            w.set_exec(!(1 << 4));
        });
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let w = &s.wave;
        for l in [0usize, 5, 63] {
            let lu = l as u32;
            assert_eq!(w.vgpr[10][l], 0x81, "{v}");
            assert_eq!(w.vgpr[11][l], 0xffff_ff81);
            assert_eq!(w.vgpr[12][l], 0x80ff);
            assert_eq!(w.vgpr[13][l], 0xffff_80ff);
            // Unaligned dword: bytes 2..6 = ff 80 44 33.
            assert_eq!(w.vgpr[14][l], 0x3344_80ff);
            assert_eq!((w.vgpr[16][l], w.vgpr[17][l]), (0x80ff_7f81, 0x1122_3344));
            assert_eq!(
                [20, 21, 22].map(|r| w.vgpr[r][l]),
                [0x80ff_7f81, 0x1122_3344, 0x5566_7788]
            );
            assert_eq!(
                [24, 25, 26, 27].map(|r| w.vgpr[r][l]),
                [0x80ff_7f81, 0x1122_3344, 0x5566_7788, 0x99aa_bbcc + lu]
            );
            if v.is_gcn14() {
                assert_eq!(w.vgpr[15][l], 0x99aa_bbcc + lu);
                assert_eq!(
                    (30..36).map(|r| w.vgpr[r][l]).collect::<Vec<_>>(),
                    [
                        0xdead_0081,
                        0x0081_beef,
                        0xdead_ff81,
                        0xff81_beef,
                        0xdead_80ff,
                        0x80ff_beef
                    ]
                );
            }
        }
        assert_eq!(w.vgpr[14][4], 7, "inactive lane written");
    }
}

#[test]
fn flat_and_global_stores() {
    for v in versions_with("flat_store_dword") {
        let memory = Memory::default();
        let out = memory.buffer_zeroed::<u32>(64 * 16).unwrap();
        let base = out.ptr().0;
        let mut src = String::from(
            "flat_store_dword v[0:1], v9\nflat_store_byte v[2:3], v10\n\
             flat_store_short v[4:5], v10\nflat_store_dwordx2 v[6:7], v[10:11]\n\
             s_waitcnt vmcnt(0)\n",
        );
        src += "flat_store_dwordx3 v[18:19], v[10:12]\nflat_store_dwordx4 v[22:23], v[10:13]\n";
        if v.is_gcn14() {
            src += "global_store_byte_d16_hi v14, v10, s[20:21] offset:-4\n\
                    global_store_short_d16_hi v[16:17], v10, off offset:2\n";
        }
        let s = run_with(v, &src, &memory, |w| {
            set64(w, 0, |l| base + 64 * l);
            set64(w, 2, |l| base + 64 * l + 5);
            set64(w, 4, |l| base + 64 * l + 6);
            set64(w, 6, |l| base + 64 * l + 8);
            set64(w, 18, |l| base + 64 * l + 16);
            set64(w, 22, |l| base + 64 * l + 32);
            w.vgpr[9] = lanes(|l| 0x1000 + l);
            w.vgpr[10] = [0x1234_5678; WAVE_SIZE];
            w.vgpr[11] = [0x9abc_def0; WAVE_SIZE];
            w.vgpr[12] = [0x0bad_f00d; WAVE_SIZE];
            w.vgpr[13] = [0xcafe_d00d; WAVE_SIZE];
            // GLOBAL with saddr: base + 0x34 + 64L - 4 (13-bit signed
            // offset) = dword 12 of the lane's block.
            w.set_s64(20, base + 0x34);
            w.vgpr[14] = lanes(|l| 64 * l);
            set64(w, 16, |l| base + 64 * l + 0x3c);
            w.set_exec(!(1 << 2));
        });
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let data = out.to_vec();
        for l in [0usize, 7] {
            let d = &data[16 * l..16 * l + 16];
            assert_eq!(d[0], 0x1000 + l as u32, "{v}");
            // Byte 5 = 0x78, short at 6 = 0x5678.
            assert_eq!(d[1], 0x5678_7800);
            assert_eq!((d[2], d[3]), (0x1234_5678, 0x9abc_def0));
            assert_eq!(&d[4..8], &[0x1234_5678, 0x9abc_def0, 0x0bad_f00d, 0]);
            assert_eq!(
                &d[8..12],
                &[0x1234_5678, 0x9abc_def0, 0x0bad_f00d, 0xcafe_d00d]
            );
            if v.is_gcn14() {
                // byte 0x34 at 0x30, 0x1234 at 0x3e.
                assert_eq!(d[12], 0x34, "{v}");
                assert_eq!(d[15], 0x1234_0000);
            }
        }
        assert!(data[32..48].iter().all(|&x| x == 0), "inactive lane stored");
    }
}

/// One atomic case: name, memory before, DATA (low), DATA (high: the
/// compare value of cmpswap), memory after.
const ATOMICS32: &[(&str, u32, u32, u32, u32)] = &[
    ("swap", 5, 9, 0, 9),
    ("cmpswap", 5, 9, 5, 9),
    ("cmpswap", 5, 9, 4, 5),
    ("add", u32::MAX, 2, 0, 1),
    ("sub", 1, 2, 0, u32::MAX),
    ("smin", u32::MAX, 3, 0, u32::MAX),
    ("umin", u32::MAX, 3, 0, 3),
    ("smax", u32::MAX, 3, 0, 3),
    ("umax", u32::MAX, 3, 0, u32::MAX),
    ("and", 0xf0f0, 0xff00, 0, 0xf000),
    ("or", 0xf0f0, 0xff00, 0, 0xfff0),
    ("xor", 0xf0f0, 0xff00, 0, 0x0ff0),
    ("inc", 6, 7, 0, 7),
    ("inc", 7, 7, 0, 0),
    ("dec", 7, 7, 0, 6),
    ("dec", 0, 7, 0, 7),
    ("dec", 8, 7, 0, 7),
    // 1.0 == 1.0 as floats; -0.0 == +0.0.
    ("fcmpswap", 0x8000_0000, 0x4000_0000, 0, 0x4000_0000),
    ("fmin", 0x4000_0000, 0xbf80_0000, 0, 0xbf80_0000),
    ("fmax", 0x4000_0000, 0xbf80_0000, 0, 0x4000_0000),
];

#[test]
fn flat_and_global_atomics_32() {
    let mut ran = 0;
    for &(name, before, lo, hi, after) in ATOMICS32 {
        let two = name.contains("cmpswap");
        for prefix in ["flat", "global"] {
            let mnemonic = format!("{prefix}_atomic_{name}");
            for v in versions_with(&mnemonic) {
                let memory = Memory::default();
                let buf = memory.buffer_from_slice(&[before; 64]).unwrap();
                let base = buf.ptr().0;
                let data = if two { "v[2:3]" } else { "v2" };
                // The non-returning form hits the next dword.
                let (addr, addr2, saddr) = if prefix == "flat" {
                    ("v[0:1]", "v[8:9]", "")
                } else {
                    ("v6", "v6", ", s[10:11]")
                };
                let offset = if prefix == "flat" { "" } else { " offset:4" };
                let src = format!(
                    "{mnemonic} v4, {addr}, {data}{saddr} glc\n\
                     {mnemonic} {addr2}, {data}{saddr}{offset}\n"
                );
                let s = run_with(v, &src, &memory, |w| {
                    set64(w, 0, |l| base + 8 * l);
                    set64(w, 8, |l| base + 8 * l + 4);
                    w.vgpr[6] = lanes(|l| 8 * l);
                    w.set_s64(10, base);
                    w.vgpr[2] = [lo; WAVE_SIZE];
                    w.vgpr[3] = [hi; WAVE_SIZE];
                    w.vgpr[4] = [0xdead; WAVE_SIZE];
                    w.set_exec(0b1011);
                });
                assert!(s.fault.is_none(), "{mnemonic} {v}: {:?}", s.fault);
                let mem = buf.to_vec();
                assert_eq!(mem[2], after, "{mnemonic} on {v}");
                assert_eq!(s.wave.vgpr[4][1], before, "{mnemonic} on {v} returns");
                assert_eq!(s.wave.vgpr[4][2], 0xdead);
                assert_eq!(mem[4], before, "inactive lane");
                assert_eq!(mem[3], after, "{mnemonic} on {v} without glc");
                ran += 1;
            }
        }
    }
    assert!(ran >= 60, "{ran}");
}

const ATOMICS64: &[(&str, u64, u64, u64, u64)] = &[
    ("swap_x2", 5, 1 << 40, 0, 1 << 40),
    ("cmpswap_x2", 1 << 33, 9, 1 << 33, 9),
    ("cmpswap_x2", 1 << 33, 9, 1, 1 << 33),
    ("add_x2", 0xffff_ffff, 1, 0, 1 << 32),
    ("sub_x2", 1 << 32, 1, 0, 0xffff_ffff),
    ("smin_x2", u64::MAX, 3, 0, u64::MAX),
    ("umin_x2", u64::MAX, 3, 0, 3),
    ("smax_x2", u64::MAX, 3, 0, 3),
    ("umax_x2", 1 << 63, 3, 0, 1 << 63),
    ("and_x2", 0xff << 32, 0xf0 << 32, 0, 0xf0 << 32),
    ("or_x2", 1 << 32, 1, 0, (1 << 32) | 1),
    ("xor_x2", 3 << 32, 1 << 32, 0, 2 << 32),
    ("inc_x2", 0xffff_ffff, u64::MAX, 0, 1 << 32),
    ("dec_x2", 0, 9, 0, 9),
    (
        "fmin_x2",
        0x4000_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0,
        0xbff0_0000_0000_0000,
    ),
    (
        "fmax_x2",
        0x4000_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0,
        0x4000_0000_0000_0000,
    ),
    (
        "fcmpswap_x2",
        0,
        0x4000_0000_0000_0000,
        1 << 63,
        0x4000_0000_0000_0000,
    ),
];

#[test]
fn flat_atomics_64() {
    let mut ran = 0;
    for &(name, before, lo, hi, after) in ATOMICS64 {
        let two = name.contains("cmpswap");
        let mnemonic = format!("flat_atomic_{name}");
        for v in versions_with(&mnemonic) {
            let memory = Memory::default();
            let buf = memory.buffer_from_slice(&[before; 64]).unwrap();
            let base = buf.ptr().0;
            let data = if two { "v[2:5]" } else { "v[2:3]" };
            let src = format!("{mnemonic} v[6:7], v[0:1], {data} glc");
            let s = run_with(v, &src, &memory, |w| {
                set64(w, 0, |l| base + 8 * l);
                set64(w, 2, |_| lo);
                set64(w, 4, |_| hi);
                w.set_exec(1 << 9);
            });
            assert!(s.fault.is_none(), "{mnemonic} {v}: {:?}", s.fault);
            assert_eq!(buf.to_vec()[9], after, "{mnemonic} on {v}");
            let ret = u64::from(s.wave.vgpr[6][9]) | (u64::from(s.wave.vgpr[7][9]) << 32);
            assert_eq!(ret, before, "{mnemonic} on {v} returns");
            ran += 1;
        }
    }
    assert!(ran >= 40, "{ran}");
}

#[test]
fn shared_aperture_reaches_lds() {
    for v in versions_with("flat_load_dword") {
        let memory = Memory::default();
        let s = run_with(
            v,
            "flat_store_dword v[0:1], v2\nflat_atomic_add v3, v[0:1], v2 glc\n\
             flat_load_dword v4, v[0:1]",
            &memory,
            |w| {
                set64(w, 0, |l| SHARED_APERTURE + 0x40 + 4 * l);
                w.vgpr[2] = lanes(|l| l + 1);
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        assert_eq!(s.wave.vgpr[3][3], 4);
        assert_eq!(s.wave.vgpr[4][3], 8);
        assert_eq!(&s.lds[0x40..0x44], &[2, 0, 0, 0]);
        // Past the LDS allocation (64 KiB): the hardware drops the access
        // (the read returns 0; the `oob` check reports it), no fault.
        let s = run_with(
            v,
            "flat_store_dword v[0:1], v2\nflat_load_dword v4, v[0:1]",
            &memory,
            |w| {
                set64(w, 0, |l| {
                    SHARED_APERTURE + if l == 6 { 0x1_0000 } else { 4 * l }
                });
                w.vgpr[2] = lanes(|l| l + 1);
                w.vgpr[4] = [0xdead; WAVE_SIZE];
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        assert_eq!(s.wave.vgpr[4][6], 0, "{v}");
        assert_eq!(s.wave.vgpr[4][7], 8, "{v}");
    }
}

#[test]
fn unmapped_global_address_faults_with_the_lane() {
    for v in versions_with("flat_load_dword") {
        let memory = Memory::default();
        let buf = memory.buffer_zeroed::<u32>(64).unwrap();
        let base = buf.ptr().0;
        let s = run_with(v, "flat_load_dwordx2 v[4:5], v[0:1]", &memory, |w| {
            // Lane 63's second dword is one past the end of the buffer's
            // (only) page; the lanes before it read the page's slack.
            set64(w, 0, |l| base + 3840 + 4 * l);
        });
        let f = s.fault.expect("fault");
        assert_eq!(f.lane, Some(63), "{v}");
        assert!(matches!(f.kind, FaultKind::Memory(m) if m.address == base + 4092 && m.size == 8));
    }
}

/// Dense (coalesced) accesses — EXEC full, lane `l` right after lane
/// `l - 1` — take the word-run path: the same values as the per-lane path,
/// for 1-4 dwords per lane, FLAT and GLOBAL; a run one lane past the end of
/// its allocation still faults naming that lane.
#[test]
fn dense_accesses_copy_word_runs() {
    let data: Vec<u32> = (0..256u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ i)
        .collect();
    for v in versions_with("flat_load_dword") {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&data).unwrap();
        let out = memory.buffer_zeroed::<u32>(256).unwrap();
        let (base, out_base) = (buf.ptr().0, out.ptr().0);
        let mut src = String::from(
            "flat_load_dword v10, v[0:1]
flat_load_dwordx2 v[12:13], v[2:3]
             flat_load_dwordx4 v[16:19], v[4:5]
flat_load_dwordx3 v[20:22], v[6:7]
             flat_store_dwordx4 v[8:9], v[16:19]
",
        );
        if v.is_gcn14() {
            src += "global_load_dwordx2 v[24:25], v26, s[0:1]
                    global_load_dword v27, v[0:1], off offset:4
";
        }
        let s = run_with(v, &src, &memory, |w| {
            set64(w, 0, |l| base + 4 * l);
            set64(w, 2, |l| base + 8 * l);
            set64(w, 4, |l| base + 16 * l);
            set64(w, 6, |l| base + 12 * l);
            set64(w, 8, |l| out_base + 16 * l);
            w.vgpr[26] = lanes(|l| 8 * l);
            w.set_s64(0, base);
        });
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let w = &s.wave;
        for l in 0..WAVE_SIZE {
            assert_eq!(w.vgpr[10][l], data[l], "{v} lane {l}");
            for k in 0..2 {
                assert_eq!(w.vgpr[12 + k][l], data[2 * l + k], "{v} lane {l}");
            }
            for k in 0..4 {
                assert_eq!(w.vgpr[16 + k][l], data[4 * l + k], "{v} lane {l}");
            }
            for k in 0..3 {
                assert_eq!(w.vgpr[20 + k][l], data[3 * l + k], "{v} lane {l}");
            }
            if v.is_gcn14() {
                for k in 0..2 {
                    assert_eq!(w.vgpr[24 + k][l], data[2 * l + k], "{v} lane {l}");
                }
                assert_eq!(w.vgpr[27][l], data[l + 1], "{v} lane {l}");
            }
        }
        assert_eq!(out.to_vec(), data, "{v}: dense dwordx4 store");
        if v.is_gcn14() {
            // Lane 0 of the offset:-4 load is one dword before the buffer.
            let s = run_with(
                v,
                "global_load_dword v27, v[0:1], off offset:-4",
                &memory,
                |w| {
                    set64(w, 0, |l| base + 4 * l);
                },
            );
            let f = s.fault.expect("a fault");
            assert_eq!(f.lane, Some(0), "{v}");
        }
        // A dense run one lane past the end of its allocation's page
        // (past the allocation's end, inside the page, it completes).
        let short = memory.buffer_zeroed::<u32>(63).unwrap();
        let short_base = short.ptr().0;
        for src in ["flat_load_dword v4, v[0:1]", "flat_store_dword v[0:1], v4"] {
            let s = run_with(v, src, &memory, |w| set64(w, 0, |l| short_base + 4 * l));
            assert!(s.fault.is_none(), "{v}: {src}: {:?}", s.fault);
            let s = run_with(v, src, &memory, |w| {
                set64(w, 0, |l| short_base + 3844 + 4 * l)
            });
            let f = s.fault.expect("a fault");
            assert_eq!(f.lane, Some(63), "{v}: {src}");
            assert!(
                matches!(f.kind, FaultKind::Memory(m) if m.address == short_base + 4096),
                "{v}: {src}: {:?}",
                f.kind
            );
        }
    }
}

#[test]
fn global_addressing_with_saddr_and_off() {
    let v = GcnVersion::Gcn1_4;
    let memory = Memory::default();
    let buf = memory.buffer_from_slice(&pattern()).unwrap();
    let base = buf.ptr().0;
    let s = run_with(
        v,
        "global_load_dword v4, v2, s[0:1] offset:-4\nglobal_load_dword v5, v[6:7], off offset:4095\n\
         global_load_ushort v8, v2, s[0:1] offset:2",
        &memory,
        |w| {
            w.set_s64(0, base + 4);
            w.vgpr[2] = lanes(|l| 16 * l + 8);
            set64(w, 6, |l| base + 16 * l + 4 - 4095);
        },
    );
    assert!(s.fault.is_none(), "{:?}", s.fault);
    let w = &s.wave;
    // base + 4 + 16L + 8 - 4 = dword 2 of the lane.
    assert_eq!(w.vgpr[4][3], 0x5566_7788);
    assert_eq!(w.vgpr[5][3], 0x1122_3344);
    // base + 16L + 14: the high short of dword 3.
    assert_eq!(w.vgpr[8][3], 0x99aa);
}

#[test]
fn global_vaddr_beside_an_sgpr_base_is_one_register() {
    // LLVM (gfx900) uses the kernel's last VGPR as the 32-bit offset of a
    // GLOBAL access with an SGPR base: no second register is touched, so a
    // kernel that allocates exactly v0..v5 runs.
    let v = GcnVersion::Gcn1_4;
    let memory = Memory::default();
    let buf = memory.buffer_from_slice(&pattern()).unwrap();
    let base = buf.ptr().0;
    let s = run_with(
        v,
        "global_load_dword v5, v5, s[0:1]
s_waitcnt vmcnt(0)
         global_store_dword v4, v5, s[0:1] offset:4",
        &memory,
        |w| {
            w.set_s64(0, base);
            w.vgpr[5] = lanes(|l| 16 * l);
            w.vgpr[4] = lanes(|l| 16 * l);
            w.vgpr.truncate(6);
            w.vgpr_limit = 6;
        },
    );
    assert!(s.fault.is_none(), "{:?}", s.fault);
    assert_eq!(s.wave.vgpr[5][3], pattern()[12]);
    assert_eq!(buf.to_vec()[13], pattern()[12]);
    // With `off` the address is a pair: v5 alone is past the allocation.
    let s = run_with(v, "global_load_dword v0, v[5:6], off", &memory, |w| {
        w.vgpr.truncate(6);
        w.vgpr_limit = 6;
    });
    let fault = s.fault.expect("v6 is not allocated");
    assert!(matches!(fault.kind, FaultKind::Register(_)), "{fault:?}");
}

/// A run with `per_wave` bytes of private memory allocated in `memory`.
fn with_scratch(
    version: GcnVersion,
    source: &str,
    memory: &Memory,
    per_wave: u64,
    setup: impl FnOnce(&mut Wave),
) -> (crate::exec::testing::Snippet, crate::memory::Buffer<u32>) {
    let scratch = memory
        .buffer_zeroed::<u32>((per_wave / 4) as usize)
        .unwrap();
    let s = run_env(
        version,
        source,
        memory,
        64 * 1024,
        (scratch.ptr().0, per_wave),
        setup,
    );
    (s, scratch)
}

#[test]
fn scratch_and_private_aperture_share_swizzled_private_memory_with_buffer_scratch() {
    let v = GcnVersion::Gcn1_4;
    let memory = Memory::default();
    // 64 lanes × 64 bytes.
    let per_wave = 64 * 64;
    let src = "scratch_store_dword v1, v2, off offset:8\n\
               scratch_store_dword off, v3, s8 offset:-4\n\
               scratch_load_dword v4, v1, off offset:8\n\
               flat_load_dword v5, v[6:7]\n\
               buffer_load_dword v9, v1, s[12:15], 0 offen offset:8\n\
               flat_store_short v[6:7], v3\n\
               scratch_load_ushort v10, off, s8 offset:-4\n\
               scratch_load_ubyte_d16_hi v11, off, s8 offset:-2";
    let scratch = memory
        .buffer_zeroed::<u32>((per_wave / 4) as usize)
        .unwrap();
    let base = scratch.ptr().0;
    let s = run_env(v, src, &memory, 64 * 1024, (base, per_wave), |w| {
        w.vgpr[1] = lanes(|l| 4 * (l % 2));
        w.vgpr[2] = lanes(|l| 0x500 + l);
        w.vgpr[3] = lanes(|l| 0xabcd_0000 + l);
        w.vgpr[11] = [0x1111_2222; WAVE_SIZE];
        w.set_s32(8, 0x14);
        // Private aperture offset 8 + 4 * (lane % 2).
        set64(w, 6, |l| PRIVATE_APERTURE + 8 + 4 * (l % 2));
        // The launcher's scratch descriptor (swizzled) with the words 2-3
        // LLVM writes: unlimited records, add_tid, index stride 64,
        // element size 4.
        let [d0, d1] = crate::launch::scratch_descriptor(base, per_wave as u32);
        w.set_s32(12, d0);
        w.set_s32(13, d1);
        w.set_s32(14, u32::MAX);
        w.set_s32(15, 1 << 23 | 3 << 21 | 1 << 19);
    });
    assert!(s.fault.is_none(), "{:?}", s.fault);
    let w = &s.wave;
    let mem = scratch.to_vec();
    for l in [0usize, 5, 63] {
        let lu = l as u32;
        // Swizzled: dword k of lane L is word 64 k + L.
        let slice: Vec<u32> = (0..16).map(|k| mem[64 * k + l]).collect();
        // Private offset 8 + 4 (L % 2): dword 2 + L % 2 of the lane's
        // slice, its low half then replaced by the flat short store.
        assert_eq!(slice[2 + l % 2], lu);
        // Private offset 0x14 - 4 = 16: dword 4.
        assert_eq!(slice[4], 0xabcd_0000 + lu);
        assert_eq!(w.vgpr[4][l], 0x500 + lu);
        assert_eq!(w.vgpr[5][l], 0x500 + lu);
        assert_eq!(
            w.vgpr[9][l],
            0x500 + lu,
            "buffer scratch sees the same bytes"
        );
        assert_eq!(w.vgpr[10][l], lu);
        assert_eq!(w.vgpr[11][l], 0x00cd_2222);
    }
}

#[test]
fn private_access_past_the_lane_slice_faults() {
    let v = GcnVersion::Gcn1_4;
    let memory = Memory::default();
    let (s, _scratch) = with_scratch(v, "scratch_load_dword v4, v1, off", &memory, 64 * 16, |w| {
        w.vgpr[1] = lanes(|l| if l == 9 { 14 } else { 0 });
    });
    let f = s.fault.expect("fault");
    assert_eq!(f.lane, Some(9));
    assert!(matches!(f.kind, FaultKind::Unsupported(m) if m.contains("private")));
    // Consecutive private offsets that, read as a 64-bit VADDR pair, would
    // be a global buffer's addresses: SCRATCH never takes the dense global
    // path, the offsets are past the lane's slice.
    let global = memory.buffer_zeroed::<u32>(64).unwrap();
    let base = global.ptr().0;
    let (s, _scratch) = with_scratch(v, "scratch_load_dword v4, v0, off", &memory, 64 * 16, |w| {
        set64(w, 0, |l| base + 4 * l);
    });
    let f = s.fault.expect("a private fault, not a global read");
    assert_eq!(f.lane, Some(0));
    assert!(matches!(f.kind, FaultKind::Unsupported(m) if m.contains("private")));
    // No scratch at all: any private access faults.
    let s = run_with(v, "scratch_load_dword v4, off, s0", &memory, |_| {});
    assert!(s.fault.is_some());
}

#[test]
fn lds_flag_and_tfe_on_atomics_stop_clearly() {
    let memory = Memory::default();
    let s = run_with(
        GcnVersion::Gcn1_4,
        "global_load_dword v1, v[2:3], off lds",
        &memory,
        |_| {},
    );
    assert!(matches!(
        s.fault.map(|f| f.kind),
        Some(FaultKind::Unsupported(m)) if m.contains("lds")
    ));
    for v in [GcnVersion::Gcn1_1, GcnVersion::Gcn1_2] {
        let buf = memory.buffer_from_slice(&[0x1234_5678u32; 64]).unwrap();
        let base = buf.ptr().0;
        // A load with tfe writes 0 (success) to the extra VGPR.
        let s = run_with(
            v,
            "flat_load_dword v[4:5], v[0:1] tfe\nflat_load_ushort v[6:7], v[0:1] tfe",
            &memory,
            |w| {
                set64(w, 0, |l| base + 4 * l);
                w.vgpr[5] = [9; WAVE_SIZE];
                w.vgpr[7] = [9; WAVE_SIZE];
                w.set_exec(!1);
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        assert_eq!((s.wave.vgpr[4][1], s.wave.vgpr[5][1]), (0x1234_5678, 0));
        assert_eq!((s.wave.vgpr[6][1], s.wave.vgpr[7][1]), (0x5678, 0));
        assert_eq!(s.wave.vgpr[5][0], 9, "inactive lane");
        let s = run_with(
            v,
            "flat_atomic_add v[4:5], v[0:1], v2 glc tfe",
            &memory,
            |w| {
                set64(w, 0, |l| base + 4 * l);
            },
        );
        assert!(matches!(
            s.fault.map(|f| f.kind),
            Some(FaultKind::Unsupported(m)) if m.contains("tfe")
        ));
    }
}

#[test]
fn every_flat_global_scratch_row_has_semantics() {
    assert_rows_covered(
        &[Encoding::Flat, Encoding::Global, Encoding::Scratch],
        &[],
        |_| false,
    );
}

/// GCN 1.5 and RDNA 2.
mod gfx10 {
    use super::*;
    use crate::descriptor::Gfx10BufferResource;
    use crate::exec::testing::run_env_waves;

    const GFX10: [GcnVersion; 3] = [GcnVersion::Gcn1_5, GcnVersion::Gcn1_5_1, GcnVersion::Rdna2];

    /// `global_*_dword_addtid`: SADDR + offset + 4 * lane, in wave64 and
    /// wave32 (lanes 0-31 only).
    #[test]
    fn global_addtid() {
        let v = GcnVersion::Rdna2;
        for wave32 in [false, true] {
            let memory = Memory::default();
            let data: Vec<u32> = (0..80).map(|i| 0x100 + i).collect();
            let buf = memory.buffer_from_slice(&data).unwrap();
            let out = memory.buffer_zeroed::<u32>(80).unwrap();
            let (src_base, dst_base) = (buf.ptr().0, out.ptr().0);
            let s = run_env_waves(
                v,
                wave32,
                "global_load_dword_addtid v4, s[0:1] offset:8\n\
                 global_store_dword_addtid v4, s[2:3] offset:4",
                &memory,
                64 * 1024,
                (0, 0),
                |w| {
                    w.set_s64(0, src_base);
                    w.set_s64(2, dst_base);
                    w.sgpr[127] = u32::MAX;
                    w.vgpr[4] = [7; WAVE_SIZE];
                },
            );
            assert!(s.fault.is_none(), "{v} wave32={wave32}: {:?}", s.fault);
            let n = if wave32 { 32 } else { 64 };
            let got = out.to_vec();
            assert_eq!(got[0], 0);
            for l in 0..64 {
                let want = if l < n { 0x102 + l as u32 } else { 0 };
                assert_eq!(got[l + 1], want, "wave32={wave32} lane {l}");
                let reg = if l < n { 0x102 + l as u32 } else { 7 };
                assert_eq!(s.wave.vgpr[4][l], reg, "wave32={wave32} lane {l}");
            }
        }
    }

    /// GLOBAL with an SGPR base and with `off` (the NULL SADDR), `dlc`. (A
    /// negative GCN 1.5 offset does not decode: gcn_asm reads CLRX's 11-bit
    /// unsigned field.)
    #[test]
    fn global_saddr_off_and_offsets() {
        for v in GFX10 {
            let memory = Memory::default();
            let buf = memory.buffer_from_slice(&pattern()).unwrap();
            let base = buf.ptr().0;
            let s = run_with(
                v,
                "global_load_dword v4, v2, s[0:1] offset:4\n\
                 global_load_dword v5, v[6:7], off offset:2047 dlc\n\
                 global_load_ushort v8, v2, s[0:1] offset:2 glc slc",
                &memory,
                |w| {
                    w.set_s64(0, base - 4);
                    w.vgpr[2] = lanes(|l| 16 * l + 8);
                    set64(w, 6, |l| base + 16 * l + 4 - 2047);
                },
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let w = &s.wave;
            assert_eq!(w.vgpr[4][3], 0x5566_7788, "{v}");
            assert_eq!(w.vgpr[5][3], 0x1122_3344, "{v}");
            assert_eq!(w.vgpr[8][3], 0x1122, "{v}");
        }
    }

    /// SCRATCH in wave32: the private dwords of the 32 lanes interleave
    /// (128 bytes per dword row), as the wave32 scratch V# (INDEX_STRIDE
    /// 32, ADD_TID) addresses them: buffer and SCRATCH accesses see the
    /// same bytes; wave64 keeps 256-byte rows.
    #[test]
    fn scratch_layout_follows_the_wave_size() {
        for v in GFX10 {
            for wave32 in [false, true] {
                let n: usize = if wave32 { 32 } else { 64 };
                let memory = Memory::default();
                let per_wave = 64 * 64;
                let scratch = memory.buffer_zeroed::<u32>(per_wave / 4).unwrap();
                let base = scratch.ptr().0;
                let s = run_env_waves(
                    v,
                    wave32,
                    "scratch_store_dword v1, v2, off offset:8\n\
                     scratch_store_dword off, v3, s8 offset:4\n\
                     buffer_load_dword v9, v1, s[12:15], 0 offen offset:8\n\
                     scratch_load_dword v10, off, s8 offset:4",
                    &memory,
                    64 * 1024,
                    (base, per_wave as u64),
                    |w| {
                        w.vgpr[1] = lanes(|l| 4 * (l % 2));
                        w.vgpr[2] = lanes(|l| 0x500 + l);
                        w.vgpr[3] = lanes(|l| 0xabcd_0000 + l);
                        w.vgpr[9] = [7; WAVE_SIZE];
                        w.set_s32(8, 0xc);
                        let d = Gfx10BufferResource::scratch(base, per_wave as u64, wave32)
                            .unwrap()
                            .to_words();
                        for (i, word) in d.into_iter().enumerate() {
                            w.set_s32(12 + i as u16, word);
                        }
                    },
                );
                assert!(s.fault.is_none(), "{v} wave32={wave32}: {:?}", s.fault);
                let mem = scratch.to_vec();
                for l in [0usize, 5, 31] {
                    let lu = l as u32;
                    let slice: Vec<u32> = (0..8).map(|k| mem[n * k + l]).collect();
                    assert_eq!(slice[2 + l % 2], 0x500 + lu, "{v} wave32={wave32} lane {l}");
                    assert_eq!(slice[4], 0xabcd_0000 + lu, "{v} wave32={wave32}");
                    assert_eq!(s.wave.vgpr[9][l], 0x500 + lu, "{v}: buffer scratch");
                    assert_eq!(s.wave.vgpr[10][l], 0xabcd_0000 + lu, "{v}");
                }
                if wave32 {
                    assert_eq!(s.wave.vgpr[9][40], 7, "{v}: lane 40 takes no part");
                }
            }
        }
    }

    /// FLAT in wave32: global stores touch lanes 0-31 only.
    #[test]
    fn flat_wave32() {
        for v in GFX10 {
            let memory = Memory::default();
            let out = memory.buffer_zeroed::<u32>(64).unwrap();
            let base = out.ptr().0;
            let s = run_env_waves(
                v,
                true,
                "flat_store_dword v[0:1], v2\nflat_load_dword v3, v[0:1] offset:0",
                &memory,
                64 * 1024,
                (0, 0),
                |w| {
                    set64(w, 0, |l| base + 4 * l);
                    w.vgpr[2] = lanes(|l| l + 1);
                    w.sgpr[127] = u32::MAX;
                },
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let want: Vec<u32> = (0..64).map(|l| if l < 32 { l + 1 } else { 0 }).collect();
            assert_eq!(out.to_vec(), want, "{v}");
            assert_eq!(s.wave.vgpr[3][31], 32, "{v}");
            assert_eq!(s.wave.vgpr[3][32], 0, "{v}");
        }
    }
}

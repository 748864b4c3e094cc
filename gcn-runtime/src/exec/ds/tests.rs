//! DS tests: expected values computed by hand from `GcnInstrsDs.md`.

use gcn_asm::isa::{Encoding, INSTRUCTIONS};
use gcn_asm::GcnVersion;

use crate::exec::testing::{lanes, run_with, versions_with, Snippet};
use crate::exec::{sreg, FaultKind, Wave, WAVE_SIZE};
use crate::memory::Memory;

/// Runs a DS snippet with M0 = -1 (no LDS limit), panicking on a fault.
fn ds(version: GcnVersion, source: &str, setup: impl FnOnce(&mut Wave)) -> Snippet {
    let memory = Memory::default();
    let s = run_with(version, source, &memory, |w| {
        w.set_s32(sreg::M0, u32::MAX);
        setup(w);
    });
    if let Some(f) = &s.fault {
        panic!("snippet faulted on {version}: {f:?}\n{source}");
    }
    s
}

fn dword(lds: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(lds[at..at + 4].try_into().unwrap())
}

const ALL: [GcnVersion; 4] = [
    GcnVersion::Gcn1_0,
    GcnVersion::Gcn1_1,
    GcnVersion::Gcn1_2,
    GcnVersion::Gcn1_4,
];

#[test]
fn reads_extend_and_align() {
    for v in versions_with("ds_read_b32") {
        let mut src = String::from(
            "ds_write_b32 v1, v2\nds_write_b32 v1, v3 offset:4\nds_write_b64 v1, v[4:5] offset:8\n\
             ds_read_u8 v10, v1\nds_read_i8 v11, v1\nds_read_i8 v12, v1 offset:1\n\
             ds_read_u16 v13, v1 offset:2\nds_read_i16 v14, v1 offset:2\n\
             ds_read_b64 v[16:17], v1 offset:8\nds_read_b32 v27, v1 offset:2\n\
             ds_read_u16 v28, v1 offset:3\n",
        );
        if v != GcnVersion::Gcn1_0 {
            src += "ds_read_b128 v[20:23], v1\nds_read_b96 v[24:26], v1 offset:4\n";
        }
        let s = ds(v, &src, |w| {
            w.vgpr[1] = lanes(|l| l * 16);
            w.vgpr[2] = [0x80ff_7f81; WAVE_SIZE];
            w.vgpr[3] = [0x1122_3344; WAVE_SIZE];
            w.vgpr[4] = [0x5566_7788; WAVE_SIZE];
            w.vgpr[5] = lanes(|l| 0x99aa_bbcc + l);
        });
        let w = &s.wave;
        for l in [0usize, 1, 63] {
            assert_eq!(w.vgpr[10][l], 0x81, "{v}");
            assert_eq!(w.vgpr[11][l], 0xffff_ff81, "{v}");
            assert_eq!(w.vgpr[12][l], 0x7f, "{v}");
            assert_eq!(w.vgpr[13][l], 0x80ff, "{v}");
            assert_eq!(w.vgpr[14][l], 0xffff_80ff, "{v}");
            assert_eq!(w.vgpr[16][l], 0x5566_7788);
            assert_eq!(w.vgpr[17][l], 0x99aa_bbcc + l as u32);
            if v.is_gcn14() {
                // Unaligned on GCN 1.4: bytes 2..6 = ff 80 44 33.
                assert_eq!(w.vgpr[27][l], 0x3344_80ff, "{v}");
                // Bytes 3..5 = 80 44.
                assert_eq!(w.vgpr[28][l], 0x4480, "{v}");
            } else {
                assert_eq!(w.vgpr[27][l], 0x80ff_7f81, "{v}");
                // Aligned down to byte 2.
                assert_eq!(w.vgpr[28][l], 0x80ff, "{v}");
            }
            if v != GcnVersion::Gcn1_0 {
                assert_eq!(
                    [20, 21, 22, 23].map(|r| w.vgpr[r][l]),
                    [
                        0x80ff_7f81,
                        0x1122_3344,
                        0x5566_7788,
                        0x99aa_bbcc + l as u32
                    ]
                );
                if v.is_gcn14() {
                    // Unaligned on GCN 1.4: offset 4 reads the lane's bytes
                    // 4..16.
                    assert_eq!(
                        [24, 25, 26].map(|r| w.vgpr[r][l]),
                        [0x1122_3344, 0x5566_7788, 0x99aa_bbcc + l as u32]
                    );
                } else {
                    // B96 aligns to 16 bytes: offset 4 reads from the
                    // lane's 0.
                    assert_eq!(
                        [24, 25, 26].map(|r| w.vgpr[r][l]),
                        [0x80ff_7f81, 0x1122_3344, 0x5566_7788]
                    );
                }
            }
        }
        assert_eq!(dword(&s.lds, 16 * 5 + 12), 0x99aa_bbcc + 5);
    }
}

#[test]
fn writes_of_bytes_shorts_and_wide() {
    for v in ALL {
        let mut src = String::from(
            "ds_write_b32 v1, v9\nds_write_b8 v1, v2 offset:1\nds_write_b16 v1, v2 offset:2\n",
        );
        if v != GcnVersion::Gcn1_0 {
            src += "ds_write_b96 v1, v[4:6] offset:16\nds_write_b128 v1, v[4:7] offset:32\n";
        }
        if v.is_gcn14() {
            src += "ds_write_b8_d16_hi v1, v2 offset:64\nds_write_b16_d16_hi v1, v2 offset:66\n";
        }
        let s = ds(v, &src, |w| {
            w.vgpr[1] = lanes(|l| l * 128);
            w.vgpr[9] = [0xaaaa_aaaa; WAVE_SIZE];
            w.vgpr[2] = [0x1234_5678; WAVE_SIZE];
            for k in 0..4 {
                w.vgpr[4 + k] = lanes(|l| l * 16 + k as u32);
            }
            // Lane 3 inactive: its bytes stay 0.
            w.set_exec(!(1 << 3));
        });
        for l in [0usize, 2, 63] {
            let b = l * 128;
            // Byte 1 = 0x78, short at 2 = 0x5678.
            assert_eq!(dword(&s.lds, b), 0x5678_78aa, "{v} lane {l}");
            if v != GcnVersion::Gcn1_0 {
                let want: Vec<u32> = (0..3).map(|k| l as u32 * 16 + k).collect();
                let got: Vec<u32> = (0..4).map(|k| dword(&s.lds, b + 16 + 4 * k)).collect();
                assert_eq!(&got[..3], &want[..]);
                assert_eq!(got[3], 0, "b96 writes three dwords");
                let got: Vec<u32> = (0..4).map(|k| dword(&s.lds, b + 32 + 4 * k)).collect();
                assert_eq!(got, (0..4).map(|k| l as u32 * 16 + k).collect::<Vec<_>>());
            }
            if v.is_gcn14() {
                // 0x34 at byte 64, 0x1234 at bytes 66-67.
                assert_eq!(dword(&s.lds, b + 64), 0x1234_0034);
            }
        }
        assert_eq!(dword(&s.lds, 3 * 128), 0, "{v}: inactive lane wrote");
    }
}

/// Dense DS accesses (EXEC full, each lane right after the one before)
/// copy one run of LDS bytes: the same values as lane by lane, for 1, 2
/// and 4 dwords per lane.
#[test]
fn dense_reads_and_writes() {
    for v in ALL {
        let mut src = String::from(
            "ds_write_b32 v1, v10\nds_write_b64 v2, v[12:13] offset:0x1000\n\
             ds_read_b32 v20, v1\nds_read_b64 v[22:23], v2 offset:0x1000\n",
        );
        if v != GcnVersion::Gcn1_0 {
            src += "ds_write_b128 v3, v[12:15] offset:0x2000\n\
                    ds_read_b128 v[24:27], v3 offset:0x2000\n";
        }
        let s = ds(v, &src, |w| {
            w.vgpr[1] = lanes(|l| 4 * l);
            w.vgpr[2] = lanes(|l| 8 * l);
            w.vgpr[3] = lanes(|l| 16 * l);
            w.vgpr[10] = lanes(|l| 3 * l + 1);
            for k in 0..4 {
                w.vgpr[12 + k] = lanes(|l| l * 16 + k as u32);
            }
        });
        for l in 0..WAVE_SIZE {
            let lu = l as u32;
            assert_eq!(dword(&s.lds, 4 * l), 3 * lu + 1, "{v} lane {l}");
            assert_eq!(s.wave.vgpr[20][l], 3 * lu + 1, "{v} lane {l}");
            for k in 0..2 {
                assert_eq!(dword(&s.lds, 0x1000 + 8 * l + 4 * k), lu * 16 + k as u32);
                assert_eq!(s.wave.vgpr[22 + k][l], lu * 16 + k as u32, "{v} lane {l}");
            }
            if v != GcnVersion::Gcn1_0 {
                for k in 0..4 {
                    assert_eq!(dword(&s.lds, 0x2000 + 16 * l + 4 * k), lu * 16 + k as u32);
                    assert_eq!(s.wave.vgpr[24 + k][l], lu * 16 + k as u32, "{v} lane {l}");
                }
            }
        }
    }
}

#[test]
fn d16_reads_keep_the_other_half() {
    let v = GcnVersion::Gcn1_4;
    let src = "ds_write_b32 v1, v2\n\
               ds_read_u8_d16 v10, v1\nds_read_u8_d16_hi v11, v1\n\
               ds_read_i8_d16 v12, v1\nds_read_i8_d16_hi v13, v1\n\
               ds_read_u16_d16 v14, v1 offset:2\nds_read_u16_d16_hi v15, v1 offset:2\n\
               ds_read_i8_d16 v16, v1 offset:1";
    let s = ds(v, src, |w| {
        w.vgpr[1] = lanes(|l| l * 4);
        w.vgpr[2] = [0x80ff_7f81; WAVE_SIZE];
        for r in 10..17 {
            w.vgpr[r] = [0xdead_beef; WAVE_SIZE];
        }
    });
    let got = (10..17).map(|r| s.wave.vgpr[r][7]).collect::<Vec<_>>();
    assert_eq!(
        got,
        [
            0xdead_0081,
            0x0081_beef,
            0xdead_ff81,
            0xff81_beef,
            0xdead_80ff,
            0x80ff_beef,
            0xdead_007f
        ]
    );
}

#[test]
fn two_address_forms() {
    for v in ALL {
        let src = "ds_write2_b32 v1, v2, v3 offset0:1 offset1:64\n\
                   ds_read2st64_b32 v[4:5], v1 offset0:0 offset1:1\n\
                   ds_read2_b32 v[6:7], v1 offset0:1 offset1:64\n\
                   ds_write2st64_b64 v8, v[10:11], v[12:13] offset0:2 offset1:3\n\
                   ds_read2_b64 v[14:17], v8 offset0:128 offset1:192\n\
                   ds_wrxchg2_rtn_b32 v[20:21], v1, v22, v23 offset0:1 offset1:64\n\
                   ds_read2_b32 v[24:25], v1 offset0:1 offset1:64";
        let s = ds(v, src, |w| {
            w.vgpr[1] = lanes(|l| l * 4);
            w.vgpr[2] = lanes(|l| 0x100 + l);
            w.vgpr[3] = lanes(|l| 0x200 + l);
            w.vgpr[8] = lanes(|l| 0x2000 + l * 8);
            w.vgpr[10] = lanes(|l| l);
            w.vgpr[11] = [0x1111; WAVE_SIZE];
            w.vgpr[12] = lanes(|l| 2 * l);
            w.vgpr[13] = [0x2222; WAVE_SIZE];
            w.vgpr[22] = [7; WAVE_SIZE];
            w.vgpr[23] = [9; WAVE_SIZE];
        });
        let w = &s.wave;
        for l in [5usize, 63] {
            let lu = l as u32;
            // The first write of lane L lands at 4L + 4: the st64 read at 4L
            // sees lane L - 1's value.
            assert_eq!(w.vgpr[4][l], 0x100 + lu - 1, "{v}");
            assert_eq!(w.vgpr[5][l], 0x200 + lu, "{v}");
            assert_eq!((w.vgpr[6][l], w.vgpr[7][l]), (0x100 + lu, 0x200 + lu));
            // 0x2000 + 8L + 2*512 = 0x2400 + 8L; 3*512 -> 0x2600 + 8L.
            assert_eq!(
                [14, 15, 16, 17].map(|r| w.vgpr[r][l]),
                [lu, 0x1111, 2 * lu, 0x2222]
            );
            assert_eq!((w.vgpr[24][l], w.vgpr[25][l]), (7, 9));
        }
        // Byte 256 is lane 0's second address and lane 63's first: lane 63
        // wrote last.
        assert_eq!((w.vgpr[4][0], w.vgpr[5][0]), (0, 0x13f), "{v}");
        assert_eq!((w.vgpr[6][0], w.vgpr[7][0]), (0x100, 0x13f));
        assert_eq!((w.vgpr[20][5], w.vgpr[21][5]), (0x105, 0x205));
        assert_eq!(dword(&s.lds, 0x2400 + 8 * 3), 3);
    }
}

/// One 32-bit atomic case: the instruction (rtn or not), LDS value before,
/// DATA0, DATA1, LDS value after.
struct Case32(&'static str, u32, u32, u32, u32);

const F1: u32 = 0x3f80_0000; // 1.0
const F2: u32 = 0x4000_0000; // 2.0
const FM1: u32 = 0xbf80_0000; // -1.0
const QNAN: u32 = 0x7fc0_0000;

const CASES32: &[Case32] = &[
    Case32("add_u32", 5, 7, 0, 12),
    Case32("add_u32", u32::MAX, 2, 0, 1),
    Case32("sub_u32", 5, 7, 0, 0xffff_fffe),
    Case32("rsub_u32", 5, 7, 0, 2),
    Case32("inc_u32", 5, 7, 0, 6),
    Case32("inc_u32", 7, 7, 0, 0),
    Case32("inc_u32", 9, 7, 0, 0),
    Case32("dec_u32", 5, 7, 0, 4),
    Case32("dec_u32", 0, 7, 0, 7),
    Case32("dec_u32", 9, 7, 0, 7),
    Case32("dec_u32", 7, 7, 0, 6),
    Case32("min_i32", 0xffff_fffe, 3, 0, 0xffff_fffe),
    Case32("min_u32", 0xffff_fffe, 3, 0, 3),
    Case32("max_i32", 0xffff_fffe, 3, 0, 3),
    Case32("max_u32", 0xffff_fffe, 3, 0, 0xffff_fffe),
    Case32("and_b32", 0xf0f0, 0xff00, 0, 0xf000),
    Case32("or_b32", 0xf0f0, 0xff00, 0, 0xfff0),
    Case32("xor_b32", 0xf0f0, 0xff00, 0, 0x0ff0),
    Case32("mskor_b32", 0xffff_0000, 0x00ff_00ff, 0x11, 0xff00_0011),
    // cmpst: DATA0 is the compare value, DATA1 the new value.
    Case32("cmpst_b32", 5, 5, 9, 9),
    Case32("cmpst_b32", 5, 4, 9, 5),
    Case32("cmpst_f32", 0, 0x8000_0000, F1, F1),
    Case32("cmpst_f32", QNAN, QNAN, F1, QNAN),
    Case32("min_f32", F2, FM1, 0, FM1),
    Case32("min_f32", QNAN, F2, 0, F2),
    Case32("min_f32", 0, 0x8000_0000, 0, 0x8000_0000),
    Case32("max_f32", F2, FM1, 0, F2),
    Case32("max_f32", 0x8000_0000, 0, 0, 0),
    Case32("max_f32", F1, QNAN, 0, F1),
];

fn with_rtn(name: &str) -> String {
    let (op, ty) = name.rsplit_once('_').unwrap();
    format!("{op}_rtn_{ty}")
}

#[test]
fn atomics_32() {
    let mut ran = 0;
    for case in CASES32 {
        let Case32(name, before, d0, d1, after) = *case;
        let two = name.starts_with("mskor") || name.starts_with("cmpst");
        for rtn in [false, true] {
            let mnemonic = if rtn {
                format!("ds_{}", with_rtn(name))
            } else {
                format!("ds_{name}")
            };
            for v in versions_with(&mnemonic) {
                let data = if two { "v2, v3" } else { "v2" };
                let dst = if rtn { "v4, " } else { "" };
                let src = format!(
                    "ds_write_b32 v1, v5 offset:8\n{mnemonic} {dst}v1, {data} offset:8\nds_read_b32 v6, v1 offset:8"
                );
                let s = ds(v, &src, |w| {
                    w.set_exec(1);
                    w.vgpr[1] = [0x38; WAVE_SIZE];
                    w.vgpr[5] = [before; WAVE_SIZE];
                    w.vgpr[2] = [d0; WAVE_SIZE];
                    w.vgpr[3] = [d1; WAVE_SIZE];
                    w.vgpr[4] = [0xdead; WAVE_SIZE];
                });
                assert_eq!(s.wave.vgpr[6][0], after, "{mnemonic} on {v}");
                ran += 1;
                if rtn {
                    assert_eq!(s.wave.vgpr[4][0], before, "{mnemonic} on {v} returns");
                    assert_eq!(s.wave.vgpr[4][1], 0xdead, "inactive lane written");
                }
            }
        }
    }
    assert_eq!(ran, CASES32.len() * 2 * 4);
}

#[test]
fn atomics_32_other_forms() {
    // wrxchg (rtn only), wrap (1.1+), add_f32 (1.2+).
    let cases: &[(&str, &str, u32, u32, u32, u32, u32)] = &[
        ("ds_wrxchg_rtn_b32", "v4, v1, v2", 5, 9, 0, 9, 5),
        ("ds_wrap_rtn_b32", "v4, v1, v2, v3", 5, 3, 10, 2, 5),
        ("ds_wrap_rtn_b32", "v4, v1, v2, v3", 2, 3, 10, 12, 2),
        (
            "ds_add_f32",
            "v1, v2",
            0x3fc0_0000,
            0x4010_0000,
            0,
            0x4070_0000,
            0xdead,
        ),
        (
            "ds_add_rtn_f32",
            "v4, v1, v2",
            0x3fc0_0000,
            0x4010_0000,
            0,
            0x4070_0000,
            0x3fc0_0000,
        ),
    ];
    for &(m, ops, before, d0, d1, after, ret) in cases {
        for v in versions_with(m) {
            let src = format!("ds_write_b32 v1, v5\n{m} {ops}\nds_read_b32 v6, v1");
            let s = ds(v, &src, |w| {
                w.vgpr[1] = [0x40; WAVE_SIZE];
                w.set_exec(1 << 9);
                w.vgpr[5] = [before; WAVE_SIZE];
                w.vgpr[2] = [d0; WAVE_SIZE];
                w.vgpr[3] = [d1; WAVE_SIZE];
                w.vgpr[4] = [0xdead; WAVE_SIZE];
            });
            assert_eq!(s.wave.vgpr[6][9], after, "{m} on {v}");
            assert_eq!(s.wave.vgpr[4][9], ret, "{m} on {v}");
        }
    }
}

struct Case64(&'static str, u64, u64, u64, u64);

const CASES64: &[Case64] = &[
    Case64("add_u64", 0xffff_ffff, 1, 0, 0x1_0000_0000),
    Case64("sub_u64", 0x1_0000_0000, 1, 0, 0xffff_ffff),
    Case64("rsub_u64", 1, 0x1_0000_0000, 0, 0xffff_ffff),
    Case64("inc_u64", 3, 3, 0, 0),
    Case64("inc_u64", 0xffff_ffff, u64::MAX, 0, 0x1_0000_0000),
    Case64("dec_u64", 0, 9, 0, 9),
    Case64("dec_u64", 0x1_0000_0000, u64::MAX, 0, 0xffff_ffff),
    Case64("min_i64", u64::MAX, 5, 0, u64::MAX),
    Case64("min_u64", u64::MAX, 5, 0, 5),
    Case64("max_i64", u64::MAX, 5, 0, 5),
    Case64("max_u64", 0x1_0000_0000, 0xffff_ffff, 0, 0x1_0000_0000),
    Case64(
        "and_b64",
        0xff00_0000_ff00,
        0xf0f0_0000_f0f0,
        0,
        0xf000_0000_f000,
    ),
    Case64("or_b64", 0xff00_0000_0000, 0x00ff, 0, 0xff00_0000_00ff),
    Case64("xor_b64", u64::MAX, 1 << 40, 0, u64::MAX ^ (1 << 40)),
    Case64(
        "mskor_b64",
        u64::MAX,
        0xffff_0000_0000,
        0x1234_0000_0000,
        0xffff_1234_ffff_ffff,
    ),
    Case64("cmpst_b64", 0x5_0000_0001, 0x5_0000_0001, 9, 9),
    Case64("cmpst_b64", 0x5_0000_0001, 0x1, 9, 0x5_0000_0001),
    // -0.0 == +0.0
    Case64(
        "cmpst_f64",
        1 << 63,
        0,
        0x3ff0_0000_0000_0000,
        0x3ff0_0000_0000_0000,
    ),
    Case64(
        "min_f64",
        0x4000_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0,
        0xbff0_0000_0000_0000,
    ),
    Case64(
        "max_f64",
        0x4000_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0,
        0x4000_0000_0000_0000,
    ),
];

#[test]
fn atomics_64() {
    for case in CASES64 {
        let Case64(name, before, d0, d1, after) = *case;
        let two = name.starts_with("mskor") || name.starts_with("cmpst");
        for rtn in [false, true] {
            let mnemonic = if rtn {
                format!("ds_{}", with_rtn(name))
            } else {
                format!("ds_{name}")
            };
            for v in versions_with(&mnemonic) {
                let data = if two { "v[2:3], v[8:9]" } else { "v[2:3]" };
                let dst = if rtn { "v[10:11], " } else { "" };
                let src = format!(
                    "ds_write_b64 v1, v[4:5]\n{mnemonic} {dst}v1, {data}\nds_read_b64 v[6:7], v1"
                );
                let s = ds(v, &src, |w| {
                    w.set_exec(1 << 63);
                    w.vgpr[1] = [0x80; WAVE_SIZE];
                    w.vgpr[4] = [before as u32; WAVE_SIZE];
                    w.vgpr[5] = [(before >> 32) as u32; WAVE_SIZE];
                    w.vgpr[2] = [d0 as u32; WAVE_SIZE];
                    w.vgpr[3] = [(d0 >> 32) as u32; WAVE_SIZE];
                    w.vgpr[8] = [d1 as u32; WAVE_SIZE];
                    w.vgpr[9] = [(d1 >> 32) as u32; WAVE_SIZE];
                });
                let got = u64::from(s.wave.vgpr[6][63]) | (u64::from(s.wave.vgpr[7][63]) << 32);
                assert_eq!(got, after, "{mnemonic} on {v}");
                if rtn {
                    let ret =
                        u64::from(s.wave.vgpr[10][63]) | (u64::from(s.wave.vgpr[11][63]) << 32);
                    assert_eq!(ret, before, "{mnemonic} on {v} returns");
                }
            }
        }
    }
    // wrxchg and wrxchg2 of 64-bit values.
    for v in ALL {
        let s = ds(
            v,
            "ds_write_b64 v1, v[4:5]\nds_wrxchg_rtn_b64 v[10:11], v1, v[2:3]\n\
             ds_wrxchg2st64_rtn_b64 v[12:15], v1, v[4:5], v[2:3] offset0:0 offset1:1\n\
             ds_read_b64 v[6:7], v1 offset:512",
            |w| {
                w.vgpr[1] = lanes(|l| l * 8);
                w.vgpr[4] = [1; WAVE_SIZE];
                w.vgpr[5] = [2; WAVE_SIZE];
                w.vgpr[2] = [3; WAVE_SIZE];
                w.vgpr[3] = [4; WAVE_SIZE];
            },
        );
        let w = &s.wave;
        assert_eq!((w.vgpr[10][5], w.vgpr[11][5]), (1, 2));
        // Old values: (3, 4) at +0 and zero at +512 (lane L + 64 writes none).
        assert_eq!([12, 13, 14, 15].map(|r| w.vgpr[r][5]), [3, 4, 0, 0]);
        assert_eq!((w.vgpr[6][5], w.vgpr[7][5]), (3, 4));
    }
}

#[test]
fn lanes_run_in_order_on_one_address() {
    for v in ALL {
        let s = ds(
            v,
            "ds_add_rtn_u32 v3, v1, v2\nds_write_b32 v1, v4 offset:4\nds_read_b32 v5, v1 offset:4",
            |w| {
                w.vgpr[1] = [0; WAVE_SIZE];
                w.vgpr[2] = [1; WAVE_SIZE];
                w.vgpr[4] = lanes(|l| l);
                w.set_exec(!(1u64 << 63));
            },
        );
        // Each lane sees the sum of the lanes before it.
        assert_eq!(s.wave.vgpr[3][10], 10);
        assert_eq!(s.wave.vgpr[3][62], 62);
        assert_eq!(dword(&s.lds, 0), 63);
        // The highest active lane's write wins.
        assert_eq!(s.wave.vgpr[5][0], 62);
    }
}

#[test]
fn m0_limits_lds_on_gcn_1_0_to_1_2_and_the_allocation_drops() {
    for v in ALL {
        let memory = Memory::default();
        let s = run_with(
            v,
            "s_mov_b32 m0, -1\nds_write_b32 v1, v2 offset:0x100\nds_write_b32 v1, v2 offset:0xfc\n\
             s_movk_i32 m0, 0x100\nds_write_b32 v1, v3 offset:0xfc\nds_write_b32 v1, v3 offset:0x104\n\
             ds_read_b32 v4, v1 offset:0xfc\nds_read_b32 v5, v1 offset:0x100\nds_read_b32 v6, v1 offset:0xfe",
            &memory,
            |w| {
                w.vgpr[1] = [0; WAVE_SIZE];
                w.vgpr[2] = [0x11; WAVE_SIZE];
                w.vgpr[3] = [0x22; WAVE_SIZE];
            },
        );
        assert!(s.fault.is_none());
        assert_eq!(s.wave.vgpr[4][0], 0x22, "{v}");
        if v.is_gcn14() {
            assert_eq!(dword(&s.lds, 0x104), 0x22);
            assert_eq!(s.wave.vgpr[5][0], 0x11);
        } else {
            // At/above M0: the write is dropped and the read returns 0.
            assert_eq!(dword(&s.lds, 0x104), 0, "{v}");
            assert_eq!(s.wave.vgpr[5][0], 0, "{v}");
            // Aligned down to 0xfc on GCN 1.0-1.2: inside.
            assert_eq!(s.wave.vgpr[6][0], 0x22, "{v}");
        }
        // Past the 64 KiB allocation: dropped as on hardware (the read
        // returns 0, the write does nothing; the `oob` check reports it).
        let s = run_with(
            v,
            "s_mov_b32 m0, -1\nds_write_b32 v1, v2\nds_read_b32 v4, v1",
            &memory,
            |w| {
                w.vgpr[1] = lanes(|l| if l == 5 { 0x10002 } else { 4 * l });
                w.vgpr[2] = lanes(|l| l + 1);
                w.vgpr[4] = [0xdead; WAVE_SIZE];
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        assert_eq!(s.wave.vgpr[4][5], 0, "{v}");
        assert_eq!(s.wave.vgpr[4][6], 7, "{v}");
        assert_eq!(s.lds.len(), 0x10000);
    }
}

#[test]
fn unaligned_ds_on_gcn_1_4_aligned_down_before() {
    // gfx9 runs in the UNALIGNED alignment mode (LLVM emits
    // `ds_read_b128 v[8:11], v16 offset:2`); GCN 1.1-1.2 align down (GCN
    // 1.0 has no B128).
    for v in [GcnVersion::Gcn1_1, GcnVersion::Gcn1_2, GcnVersion::Gcn1_4] {
        let memory = Memory::default();
        let s = run_with(
            v,
            "s_mov_b32 m0, -1\nds_write_b128 v1, v[4:7] offset:2\nds_read_b128 v[8:11], v1 offset:2\n\
             ds_read_b64 v[12:13], v1 offset:6\nds_read2_b32 v[14:15], v1 offset0:1 offset1:2\n\
             ds_write_b16 v1, v2 offset:21\nds_read_u16 v16, v1 offset:21",
            &memory,
            |w| {
                w.vgpr[1] = lanes(|l| 32 * l);
                w.vgpr[2] = [0xbeef; WAVE_SIZE];
                for k in 0..4 {
                    w.vgpr[4 + k] = lanes(|l| 0x0101_0101 * (4 * k as u32 + 1) + l);
                }
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let base = 32 * 3;
        let lane3: Vec<u32> = (0..4).map(|k| 0x0101_0101 * (4 * k + 1) + 3).collect();
        let bytes: Vec<u8> = lane3.iter().flat_map(|x| x.to_le_bytes()).collect();
        if v.is_gcn14() {
            assert_eq!(&s.lds[base + 2..base + 18], &bytes[..], "{v}");
            let read: Vec<u32> = (8..12).map(|r| s.wave.vgpr[r][3]).collect();
            assert_eq!(read, lane3, "{v}");
            // bytes 6..14 of the lane's block: written bytes 4..12.
            let q = u64::from_le_bytes(bytes[4..12].try_into().unwrap());
            assert_eq!(s.wave.vgpr[12][3], q as u32, "{v}");
            assert_eq!(s.wave.vgpr[13][3], (q >> 32) as u32, "{v}");
            // ds_read2_b32 at 4 and 8 past the unaligned base: bytes 2..6, 6..10.
            let d = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
            assert_eq!(s.wave.vgpr[14][3], d(2), "{v}");
            assert_eq!(s.wave.vgpr[15][3], d(6), "{v}");
            assert_eq!(s.wave.vgpr[16][3], 0xbeef, "{v}");
        } else {
            // Aligned down to the 16-byte block.
            assert_eq!(&s.lds[base..base + 16], &bytes[..], "{v}");
            let read: Vec<u32> = (8..12).map(|r| s.wave.vgpr[r][3]).collect();
            assert_eq!(read, lane3, "{v}");
            assert_eq!(s.wave.vgpr[12][3], lane3[0], "{v}");
        }
    }
}

#[test]
fn swizzle_modes() {
    for v in ALL {
        let s = ds(
            v,
            "ds_swizzle_b32 v3, v1 offset:0x801b\nds_swizzle_b32 v4, v1 offset:0x41f\n\
             ds_swizzle_b32 v5, v1 offset:0xa0",
            |w| {
                w.vgpr[1] = lanes(|l| 100 + l);
                w.set_exec(!(1u64 << 37));
            },
        );
        let w = &s.wave;
        for l in [0u32, 6, 33, 62] {
            let i = l as usize;
            assert_eq!(w.vgpr[3][i], 100 + (l & !3) + 3 - (l & 3), "{v} lane {l}");
            assert_eq!(w.vgpr[4][i], 100 + (l ^ 1));
            assert_eq!(
                w.vgpr[5][i],
                if l < 32 { 105 } else { 0 },
                "lane 37 inactive"
            );
        }
        // Lane 36 reads inactive lane 37.
        assert_eq!(w.vgpr[4][36], 0);
    }
}

#[test]
fn permutes() {
    for v in versions_with("ds_permute_b32") {
        let s = ds(
            v,
            "ds_bpermute_b32 v3, v1, v2\nds_permute_b32 v4, v1, v2\nds_bpermute_b32 v5, v6, v2 offset:4",
            |w| {
                w.vgpr[1] = lanes(|l| ((l + 1) % 64) * 4 + 256);
                w.vgpr[6] = lanes(|l| l * 4);
                w.vgpr[2] = lanes(|l| 1000 + l);
                w.vgpr[3] = [7; WAVE_SIZE];
                w.vgpr[4] = [7; WAVE_SIZE];
                w.set_exec(!(1u64 << 10));
            },
        );
        let w = &s.wave;
        assert_eq!(w.vgpr[3][0], 1001);
        assert_eq!(w.vgpr[3][63], 1000);
        assert_eq!(w.vgpr[3][9], 0, "reads inactive lane 10");
        assert_eq!(w.vgpr[3][10], 7, "inactive lane written");
        assert_eq!(w.vgpr[4][1], 1000);
        assert_eq!(w.vgpr[4][0], 1063);
        assert_eq!(w.vgpr[4][11], 0, "inactive lane 10 pushes nothing");
        assert_eq!(w.vgpr[5][20], 1021);
        assert_eq!(w.vgpr[5][63], 1000);
    }
}

#[test]
fn append_and_consume_count_active_lanes() {
    for v in ALL {
        let s = ds(
            v,
            "ds_write_b32 v1, v2 offset:0x20\ns_movk_i32 m0, 0x10\n\
             ds_append v3 offset:0x10\ns_mov_b64 exec, 0xf\nds_consume v4 offset:0x10\n\
             s_mov_b32 m0, -1\ns_mov_b64 exec, -1\nds_read_b32 v5, v1 offset:0x20",
            |w| {
                w.vgpr[1] = [0; WAVE_SIZE];
                w.vgpr[2] = [100; WAVE_SIZE];
                w.set_exec(0xff00);
            },
        );
        let w = &s.wave;
        assert_eq!(w.vgpr[3][8], 100);
        assert_eq!(w.vgpr[3][15], 100);
        assert_eq!(w.vgpr[4][0], 108);
        assert_eq!(w.vgpr[5][0], 104, "{v}");
    }
}

#[test]
fn addtid_forms() {
    let v = GcnVersion::Gcn1_4;
    let s = ds(
        v,
        "s_movk_i32 m0, 0x100\nds_write_addtid_b32 v2 offset:16\nds_read_addtid_b32 v3 offset:16",
        |w| w.vgpr[2] = lanes(|l| 3 * l),
    );
    assert_eq!(dword(&s.lds, 0x110 + 4 * 7), 21);
    assert_eq!(s.wave.vgpr[3][63], 189);
}

#[test]
fn src2_forms() {
    for v in ALL {
        let s = ds(
            v,
            "ds_write_b32 v1, v2\nds_write_b32 v1, v3 offset:8\nds_add_src2_u32 v1 offset:2\n\
             ds_read_b32 v4, v1\n\
             ds_write_b32 v5, v2\nds_write_b32 v5, v3 offset:12\nds_max_src2_u32 v6 offset:0x8000\n\
             ds_read_b32 v7, v5\n\
             ds_write_b64 v8, v[2:3]\nds_write_b64 v8, v[2:3] offset:8\nds_add_src2_u64 v8 offset:2\n\
             ds_read_b64 v[10:11], v8",
            |w| {
                w.set_exec(1);
                w.vgpr[1] = [0x40; WAVE_SIZE];
                w.vgpr[2] = [5; WAVE_SIZE];
                w.vgpr[3] = [7; WAVE_SIZE];
                w.vgpr[5] = [0x80; WAVE_SIZE];
                // A = 0x80, B = A + 3 * 4.
                w.vgpr[6] = [(3 << 17) | 0x80; WAVE_SIZE];
                w.vgpr[8] = [0x100; WAVE_SIZE];
            },
        );
        let w = &s.wave;
        assert_eq!(w.vgpr[4][0], 12, "{v}");
        assert_eq!(w.vgpr[7][0], 7, "{v}");
        assert_eq!((w.vgpr[10][0], w.vgpr[11][0]), (10, 14), "{v}");
    }
}

#[test]
fn gds_and_gws_stop_clearly() {
    let memory = Memory::default();
    let s = run_with(GcnVersion::Gcn1_2, "ds_add_u32 v1, v2 gds", &memory, |_| {});
    assert!(matches!(
        s.fault.map(|f| f.kind),
        Some(FaultKind::Unsupported(m)) if m.contains("GDS/GWS is not emulated") && m.contains("ds_add_u32")
    ));
    let s = run_with(GcnVersion::Gcn1_2, "ds_gws_init v1 gds", &memory, |_| {});
    assert!(matches!(
        s.fault.map(|f| f.kind),
        Some(FaultKind::Gap { instruction: "ds_gws_init", reason }) if reason.contains("GWS")
    ));
}

/// DS rows without semantics, with the reason.
const DS_OUT_OF_SCOPE: &[(&str, &str)] = &[
    ("ds_gws_init", "GDS/GWS is not emulated"),
    ("ds_gws_sema_v", "GDS/GWS is not emulated"),
    ("ds_gws_sema_br", "GDS/GWS is not emulated"),
    ("ds_gws_sema_p", "GDS/GWS is not emulated"),
    ("ds_gws_sema_release_all", "GDS/GWS is not emulated"),
    ("ds_gws_barrier", "GDS/GWS is not emulated"),
    (
        "ds_ordered_count",
        "GDS/GWS is not emulated (ordered count is a GDS operation)",
    ),
    ("ds_condxchg32_rtn_b64", "the docs give no Operation for it"),
    (
        "ds_condxchg32_rtn_b128",
        "the docs give no Operation for it",
    ),
];

/// Every row of `families` on every version has a handler, except the
/// listed ones.
pub(crate) fn assert_rows_covered(
    families: &[Encoding],
    out_of_scope: &[(&str, &str)],
    skip: impl Fn(&str) -> bool,
) {
    let mut missing = Vec::new();
    for version in crate::exec::EMULATED_VERSIONS {
        for row in INSTRUCTIONS.iter() {
            if !families.contains(&row.encoding) || row.opcode(version).is_none() {
                continue;
            }
            if out_of_scope.iter().any(|(m, _)| *m == row.mnemonic) || skip(row.mnemonic) {
                continue;
            }
            if crate::exec::handler(row, version).is_none() {
                missing.push(format!("{} ({version})", row.mnemonic));
            }
        }
    }
    assert!(missing.is_empty(), "rows without a handler: {missing:?}");
}

#[test]
fn every_ds_row_has_semantics() {
    assert_rows_covered(&[Encoding::Ds], DS_OUT_OF_SCOPE, |_| false);
}

/// GCN 1.5 and RDNA 2: DS in wave64 and wave32 (lanes 0-31 only), the
/// addtid forms (M0 still gives their base), GWS and ordered counts stop
/// as gaps.
#[test]
fn gfx10_ds_wave64_and_wave32() {
    use crate::exec::testing::run_env_waves;
    for v in [GcnVersion::Gcn1_5, GcnVersion::Gcn1_5_1, GcnVersion::Rdna2] {
        for wave32 in [false, true] {
            let memory = Memory::default();
            let s = run_env_waves(
                v,
                wave32,
                "ds_write_b32 v1, v2 offset:8\n\
                 ds_add_u32 v1, v2 offset:8\n\
                 ds_read_b32 v3, v1 offset:8\n\
                 s_movk_i32 m0, 0x400\n\
                 ds_write_addtid_b32 v2 offset:16\n\
                 ds_read_addtid_b32 v4 offset:16",
                &memory,
                64 * 1024,
                (0, 0),
                |w| {
                    w.sgpr[127] = u32::MAX;
                    w.vgpr[1] = lanes(|l| 4 * l);
                    w.vgpr[2] = lanes(|l| 3 * l + 1);
                    w.vgpr[3] = [9; WAVE_SIZE];
                    w.vgpr[4] = [9; WAVE_SIZE];
                },
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let n = if wave32 { 32 } else { 64 };
            for l in 0..64 {
                let lu = l as u32;
                let (mem, reg) = if l < n {
                    (2 * (3 * lu + 1), 2 * (3 * lu + 1))
                } else {
                    (0, 9)
                };
                assert_eq!(
                    dword(&s.lds, 8 + 4 * l),
                    mem,
                    "{v} wave32={wave32} lane {l}"
                );
                assert_eq!(s.wave.vgpr[3][l], reg, "{v} wave32={wave32} lane {l}");
                let at = dword(&s.lds, 0x410 + 4 * l);
                assert_eq!(at, if l < n { 3 * lu + 1 } else { 0 }, "{v}");
                let reg = if l < n { 3 * lu + 1 } else { 9 };
                assert_eq!(s.wave.vgpr[4][l], reg, "{v}");
            }
        }
        for src in [
            "ds_gws_init v1 offset:0 gds",
            "ds_ordered_count v1, v2 offset:0 gds",
        ] {
            let memory = Memory::default();
            let s = run_with(v, src, &memory, |_| {});
            assert!(
                matches!(s.fault.map(|f| f.kind), Some(FaultKind::Gap { .. })),
                "{v} `{src}`"
            );
        }
    }
}

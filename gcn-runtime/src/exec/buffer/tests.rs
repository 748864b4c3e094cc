//! MUBUF tests: expected values computed by hand from the buffer seeds
//! (addressing, range checking) and `GcnInstrsMubuf.md`.

use gcn_asm::isa::Encoding;
use gcn_asm::GcnVersion;

use crate::exec::ds::tests::assert_rows_covered;
use crate::exec::testing::{lanes, pattern, run_with, versions_with};
use crate::exec::{FaultKind, Wave, WAVE_SIZE};
use crate::memory::Memory;

/// Writes a buffer resource to `s[r:r+3]`.
fn desc(w: &mut Wave, r: u16, base: u64, stride: u32, num_records: u32, swizzle: bool, w3: u32) {
    w.set_s32(r, base as u32);
    w.set_s32(
        r + 1,
        ((base >> 32) as u32 & 0xffff) | (stride << 16) | (u32::from(swizzle) << 31),
    );
    w.set_s32(r + 2, num_records);
    w.set_s32(r + 3, w3);
}

/// ADD_TID_ENABLE in word 3.
const ADD_TID: u32 = 1 << 23;

const ALL: [GcnVersion; 4] = [
    GcnVersion::Gcn1_0,
    GcnVersion::Gcn1_1,
    GcnVersion::Gcn1_2,
    GcnVersion::Gcn1_4,
];

/// Dense accesses (EXEC full, each lane right after the one before, all
/// in range) take the one-check word-run path of the gather/scatter: the
/// values are those of the per-lane path, for 1, 2 and 4 dwords per lane.
#[test]
fn dense_loads_and_stores() {
    let data: Vec<u32> = (0..256u32)
        .map(|i| i.wrapping_mul(0x0101_0101) ^ 0x5a5a_0000)
        .collect();
    for v in ALL {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&data).unwrap();
        let out = memory.buffer_zeroed::<u32>(256).unwrap();
        let s = run_with(
            v,
            "buffer_load_dword v4, v1, s[8:11], 0 offen
             buffer_load_dwordx2 v[6:7], v2, s[8:11], 0 offen
             buffer_load_dwordx4 v[20:23], v3, s[8:11], 0 offen
             buffer_store_dwordx4 v[20:23], v3, s[12:15], 0 offen
",
            &memory,
            |w| {
                desc(w, 8, buf.ptr().0, 0, 1024, false, 0);
                desc(w, 12, out.ptr().0, 0, 1024, false, 0);
                w.vgpr[1] = lanes(|l| 4 * l);
                w.vgpr[2] = lanes(|l| 8 * l);
                w.vgpr[3] = lanes(|l| 16 * l);
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let w = &s.wave;
        for l in 0..WAVE_SIZE {
            assert_eq!(w.vgpr[4][l], data[l], "{v} lane {l}");
            assert_eq!([w.vgpr[6][l], w.vgpr[7][l]], [data[2 * l], data[2 * l + 1]]);
            assert_eq!(
                [20, 21, 22, 23].map(|r| w.vgpr[r][l]),
                [0, 1, 2, 3].map(|k| data[4 * l + k]),
                "{v} lane {l}"
            );
        }
        assert_eq!(out.to_vec(), data, "{v}");
    }
}

/// Stores in the UNALIGNED alignment mode (GCN 1.1 on, a linear buffer)
/// write where the address says; GCN 1.0 aligns down.
#[test]
fn unaligned_stores_from_gcn_1_1_on() {
    for v in ALL {
        let memory = Memory::default();
        let out = memory.buffer_zeroed::<u32>(256).unwrap();
        let s = run_with(
            v,
            "buffer_store_dwordx2 v[4:5], v1, s[12:15], 0 offen offset:3
             buffer_store_short v6, v1, s[12:15], 0 offen offset:13",
            &memory,
            |w| {
                desc(w, 12, out.ptr().0, 0, 1024, false, 0);
                w.vgpr[1] = [0; WAVE_SIZE];
                w.vgpr[4] = [0x4433_2211; WAVE_SIZE];
                w.vgpr[5] = [0x8877_6655; WAVE_SIZE];
                w.vgpr[6] = [0xbbaa; WAVE_SIZE];
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let bytes: Vec<u8> = out.to_vec()[..4]
            .iter()
            .flat_map(|d| d.to_le_bytes())
            .collect();
        let data = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];
        let mut want = [0u8; 16];
        if v == GcnVersion::Gcn1_0 {
            want[..8].copy_from_slice(&data);
            want[12..14].copy_from_slice(&[0xaa, 0xbb]);
        } else {
            want[3..11].copy_from_slice(&data);
            want[13..15].copy_from_slice(&[0xaa, 0xbb]);
        }
        assert_eq!(bytes, want, "{v}");
    }
}

#[test]
fn raw_loads_offsets_alignment_and_per_dword_range() {
    for v in ALL {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&pattern()).unwrap();
        let mut src = String::from(
            "buffer_load_dword v4, v1, s[8:11], s12 offen offset:4\n\
             buffer_load_dwordx2 v[6:7], v1, s[8:11], s12 offen\n\
             buffer_load_dwordx4 v[20:23], v1, s[8:11], s12 offen\n\
             buffer_load_ubyte v10, v1, s[8:11], s12 offen offset:4092\n\
             buffer_load_sbyte v11, v1, s[8:11], s12 offen offset:4092\n\
             buffer_load_ushort v12, v1, s[8:11], s12 offen offset:4094\n\
             buffer_load_sshort v13, v1, s[8:11], s12 offen offset:4094\n\
             buffer_load_ushort v14, v1, s[8:11], s12 offen offset:1\n\
             buffer_load_dword v15, v1, s[8:11], s12 offen offset:7\n\
             buffer_load_dword v16, s[8:11], 4 offset:8\n",
        );
        if v != GcnVersion::Gcn1_0 {
            src += "buffer_load_dwordx3 v[24:26], v1, s[8:11], s12 offen offset:4\n";
        }
        let s = run_with(v, &src, &memory, |w| {
            // Records up to byte 1024 - soffset: lane 63's last dword (at
            // 1008 + 12 = 1020 >= 1020) is out of range.
            desc(w, 8, buf.ptr().0, 0, 1024, false, 0);
            w.set_s32(12, 4);
            // Offsets 16L - 4096 + 4 wrap around 32 bits in the byte loads.
            w.vgpr[1] = lanes(|l| 16 * l);
            w.vgpr[15] = [7; WAVE_SIZE];
        });
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let w = &s.wave;
        for l in [0usize, 5, 63] {
            let lu = l as u32;
            // base + 4 + 16L + 4 = dword 2 of lane L.
            assert_eq!(w.vgpr[4][l], 0x5566_7788, "{v}");
            assert_eq!((w.vgpr[6][l], w.vgpr[7][l]), (0x1122_3344, 0x5566_7788));
            let x4 = [20, 21, 22, 23].map(|r| w.vgpr[r][l]);
            if l == 63 {
                // The dword at the lane's block + 16 is past the records.
                assert_eq!(x4, [0x1122_3344, 0x5566_7788, 0x99aa_bbcc + lu, 0], "{v}");
            } else {
                assert_eq!(
                    x4,
                    [0x1122_3344, 0x5566_7788, 0x99aa_bbcc + lu, 0x80ff_7f81]
                );
            }
            // Offset 4092 + 16L + 4 (soffset): lane L's dword 0 of block L
            // + 256... (only lanes below 0 would be in range): out of range.
            assert_eq!(w.vgpr[10][l], 0, "{v}");
            assert_eq!(w.vgpr[11][l], 0);
            assert_eq!(w.vgpr[12][l], 0);
            assert_eq!(w.vgpr[13][l], 0);
            if v == GcnVersion::Gcn1_0 {
                // A short at an odd address aligns down: the low half of
                // dword 1.
                assert_eq!(w.vgpr[14][l], 0x3344, "{v}");
                // A dword at +7 aligns down to +4 (dword 2).
                assert_eq!(w.vgpr[15][l], 0x5566_7788, "{v}");
            } else {
                // The UNALIGNED alignment mode: the short at the block's
                // bytes 5..7, the dword at its bytes 11..15.
                assert_eq!(w.vgpr[14][l], 0x2233, "{v}");
                let dword3 = 0x99aa_bbcc + lu;
                assert_eq!(w.vgpr[15][l], (dword3 << 8) | 0x55, "{v}");
            }
            // No VADDR: base + 4 + 8 = dword 3 of lane 0.
            assert_eq!(w.vgpr[16][l], 0x99aa_bbcc);
            if v != GcnVersion::Gcn1_0 {
                assert_eq!(
                    [24, 25, 26].map(|r| w.vgpr[r][l]),
                    [
                        0x5566_7788,
                        0x99aa_bbcc + lu,
                        if l == 63 { 0 } else { 0x80ff_7f81 }
                    ]
                );
            }
        }
    }
}

#[test]
fn byte_and_short_loads_extend() {
    for v in ALL {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&pattern()).unwrap();
        let mut src = String::from(
            "buffer_load_ubyte v10, v1, s[8:11], 0 offen\n\
             buffer_load_sbyte v11, v1, s[8:11], 0 offen\n\
             buffer_load_sbyte v12, v1, s[8:11], 0 offen offset:1\n\
             buffer_load_ushort v13, v1, s[8:11], 0 offen offset:2\n\
             buffer_load_sshort v14, v1, s[8:11], 0 offen offset:2\n",
        );
        if v.is_gcn14() {
            src += "buffer_load_ubyte_d16 v30, v1, s[8:11], 0 offen\n\
                    buffer_load_ubyte_d16_hi v31, v1, s[8:11], 0 offen\n\
                    buffer_load_sbyte_d16 v32, v1, s[8:11], 0 offen\n\
                    buffer_load_sbyte_d16_hi v33, v1, s[8:11], 0 offen\n\
                    buffer_load_short_d16 v34, v1, s[8:11], 0 offen offset:2\n\
                    buffer_load_short_d16_hi v35, v1, s[8:11], 0 offen offset:2\n";
        }
        let s = run_with(v, &src, &memory, |w| {
            desc(w, 8, buf.ptr().0, 0, u32::MAX, false, 0);
            w.vgpr[1] = lanes(|l| 16 * l);
            for r in 30..36 {
                w.vgpr[r] = [0xdead_beef; WAVE_SIZE];
            }
        });
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let w = &s.wave;
        assert_eq!(
            (10..15).map(|r| w.vgpr[r][9]).collect::<Vec<_>>(),
            [0x81, 0xffff_ff81, 0x7f, 0x80ff, 0xffff_80ff],
            "{v}"
        );
        if v.is_gcn14() {
            assert_eq!(
                (30..36).map(|r| w.vgpr[r][9]).collect::<Vec<_>>(),
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
}

#[test]
fn structured_buffers_index_stride_and_range() {
    for v in ALL {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&pattern()).unwrap();
        let s = run_with(
            v,
            "buffer_load_dword v4, v1, s[8:11], 0 idxen offset:8\n\
             buffer_load_dwordx2 v[6:7], v[1:2], s[8:11], 0 idxen offen offset:4\n\
             buffer_load_dword v5, s[12:15], 0 offset:4\n",
            &memory,
            |w| {
                // 16-byte records, 10 of them.
                desc(w, 8, buf.ptr().0, 16, 10, false, 0);
                // add_tid: the index is the lane.
                desc(w, 12, buf.ptr().0, 16, 10, false, ADD_TID);
                w.vgpr[1] = lanes(|l| l);
                w.vgpr[2] = lanes(|l| if l == 3 { 8 } else { 0 });
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let w = &s.wave;
        assert_eq!(w.vgpr[4][2], 0x5566_7788, "{v}");
        assert_eq!(w.vgpr[4][9], 0x5566_7788);
        assert_eq!(w.vgpr[4][10], 0, "index 10 >= 10 records");
        assert_eq!((w.vgpr[6][2], w.vgpr[7][2]), (0x1122_3344, 0x5566_7788));
        // Lane 3: offset 12 and 16: the second dword is past the stride.
        assert_eq!((w.vgpr[6][3], w.vgpr[7][3]), (0x99aa_bbcc + 3, 0), "{v}");
        assert_eq!(w.vgpr[5][7], 0x1122_3344);
        assert_eq!(w.vgpr[5][12], 0);
    }
}

#[test]
fn swizzled_addressing() {
    for v in ALL {
        let memory = Memory::default();
        let words: Vec<u32> = (0..1024).collect();
        let buf = memory.buffer_from_slice(&words).unwrap();
        let s = run_with(
            v,
            "buffer_load_dword v4, s[8:11], 0 offset:4\n\
             buffer_load_dword v5, v1, s[8:11], 0 offen offset:4",
            &memory,
            |w| {
                // ELEMSIZE field 1 (4 bytes), INDEXSTRIDE field 0 (8),
                // stride 16, add_tid.
                desc(w, 8, buf.ptr().0, 16, 64, true, ADD_TID | (1 << 19));
                w.vgpr[1] = [4; WAVE_SIZE];
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        // BUFOFFSET = off%4 + 4*(L%8) + 8*((L/8)*16 + (off/4)*4).
        let expect = |l: u32, off: u32| (4 * (l % 8) + 8 * ((l / 8) * 16 + (off / 4) * 4)) / 4;
        for l in [0u32, 9, 63] {
            assert_eq!(s.wave.vgpr[4][l as usize], expect(l, 4), "{v} lane {l}");
            assert_eq!(s.wave.vgpr[5][l as usize], expect(l, 8), "{v} lane {l}");
        }
        assert_eq!(s.wave.vgpr[4][9], 41);
    }
}

#[test]
fn addr64_adds_a_64_bit_vaddr_without_range_check() {
    for v in [GcnVersion::Gcn1_0, GcnVersion::Gcn1_1] {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&pattern()).unwrap();
        let s = run_with(
            v,
            "buffer_load_dword v4, v[2:3], s[8:11], s12 addr64 offset:4\n\
             buffer_store_dword v6, v[2:3], s[8:11], 0 addr64",
            &memory,
            |w| {
                // Zero records: addr64 ignores the range.
                desc(w, 8, 16, 0, 0, false, 0);
                w.set_s32(12, 4);
                for l in 0..WAVE_SIZE {
                    let a = buf.ptr().0 - 16 + 16 * l as u64;
                    w.vgpr[2][l] = a as u32;
                    w.vgpr[3][l] = (a >> 32) as u32;
                }
                w.vgpr[6] = lanes(|l| l);
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        assert_eq!(s.wave.vgpr[4][3], 0x5566_7788);
        assert_eq!(buf.to_vec()[4 * 7], 7);
    }
}

#[test]
fn stores_and_dropped_out_of_range_writes() {
    for v in ALL {
        let memory = Memory::default();
        let out = memory.buffer_zeroed::<u32>(64 * 4).unwrap();
        let mut src = String::from(
            "buffer_store_dwordx2 v[2:3], v1, s[8:11], 0 offen offset:8\n\
             buffer_store_byte v4, v1, s[8:11], 0 offen offset:1\n\
             buffer_store_short v4, v1, s[8:11], 0 offen offset:2\n\
             buffer_store_dword v5, v1, s[8:11], 0 offen offset:4\n",
        );
        if v.is_gcn14() {
            src += "buffer_store_byte_d16_hi v4, v1, s[8:11], 0 offen offset:0\n\
                    buffer_store_short_d16_hi v4, v1, s[8:11], 0 offen offset:6\n";
        }
        if v != GcnVersion::Gcn1_0 {
            src += "buffer_store_dwordx4 v[2:5], v6, s[8:11], 0 offen\n\
                    buffer_store_dwordx3 v[2:4], v7, s[8:11], 0 offen\n";
        }
        let s = run_with(v, &src, &memory, |w| {
            // Lane 63's block ends at 1024; records stop at 1020.
            desc(w, 8, out.ptr().0, 0, 1020, false, 0);
            w.vgpr[1] = lanes(|l| 16 * l);
            w.vgpr[2] = [0x1111_1111; WAVE_SIZE];
            w.vgpr[3] = [0x2222_2222; WAVE_SIZE];
            w.vgpr[4] = [0x1234_5678; WAVE_SIZE];
            w.vgpr[5] = lanes(|l| 0xa000 + l);
            // A second pass for lanes 0 and 1 only (1.1+): x4 to block 60,
            // x3 to block 61 (within the records).
            w.vgpr[6] = lanes(|_| 60 * 16);
            w.vgpr[7] = lanes(|_| 61 * 16);
            w.set_exec(!(1 << 4));
        });
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let d = out.to_vec();
        for l in [0usize, 5, 59] {
            let b = &d[4 * l..4 * l + 4];
            let lo = if v.is_gcn14() {
                0x5678_7834
            } else {
                0x5678_7800
            };
            assert_eq!(b[0], lo, "{v} lane {l}");
            assert_eq!(
                b[1],
                if v.is_gcn14() {
                    0x1234_0000 | (0xa000 + l as u32)
                } else {
                    0xa000 + l as u32
                }
            );
            assert_eq!((b[2], b[3]), (0x1111_1111, 0x2222_2222));
        }
        assert_eq!(&d[16..20], &[0; 4], "{v}: inactive lane 4 stored");
        if v == GcnVersion::Gcn1_0 {
            // Lane 63: dword 3 at 1020 is out of range (dropped).
            assert_eq!(&d[252..256], &[0x5678_7800, 0xa000 + 63, 0x1111_1111, 0]);
        } else {
            assert_eq!(
                &d[240..244],
                &[0x1111_1111, 0x2222_2222, 0x1234_5678, 0xa000 + 63]
            );
            // The x3 store keeps dword 3 (lane 61's x2 store).
            assert_eq!(
                &d[244..248],
                &[0x1111_1111, 0x2222_2222, 0x1234_5678, 0x2222_2222]
            );
        }
    }
}

const ATOMICS32: &[(&str, u32, u32, u32, u32)] = &[
    ("swap", 5, 9, 0, 9),
    // cmpswap: VDATA[0] is the new value, VDATA[1] the compare value.
    ("cmpswap", 5, 9, 5, 9),
    ("cmpswap", 5, 9, 4, 5),
    ("add", u32::MAX, 2, 0, 1),
    ("sub", 1, 2, 0, u32::MAX),
    ("rsub", 1, 2, 0, 1),
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
    ("fcmpswap", 0x8000_0000, 0x4000_0000, 0, 0x4000_0000),
    ("fmin", 0x4000_0000, 0xbf80_0000, 0, 0xbf80_0000),
    ("fmax", 0x4000_0000, 0xbf80_0000, 0, 0x4000_0000),
];

#[test]
fn atomics_32_return_with_glc() {
    let mut ran = 0;
    for &(name, before, lo, hi, after) in ATOMICS32 {
        let mnemonic = format!("buffer_atomic_{name}");
        let data = if name.contains("cmpswap") {
            "v[2:3]"
        } else {
            "v2"
        };
        for v in versions_with(&mnemonic) {
            let memory = Memory::default();
            let buf = memory.buffer_from_slice(&[before; 64]).unwrap();
            let src = format!(
                "{mnemonic} {data}, v1, s[8:11], 0 offen glc\n\
                 {mnemonic} v[4:5], v1, s[8:11], 0 offen offset:4\n\
                 {mnemonic} v[6:7], v1, s[8:11], 0 offen offset:256 glc"
            )
            .replace(
                "v[4:5]",
                if name.contains("cmpswap") {
                    "v[4:5]"
                } else {
                    "v4"
                },
            )
            .replace(
                "v[6:7]",
                if name.contains("cmpswap") {
                    "v[6:7]"
                } else {
                    "v6"
                },
            );
            let s = run_with(v, &src, &memory, |w| {
                desc(w, 8, buf.ptr().0, 0, 256, false, 0);
                w.vgpr[1] = lanes(|l| 8 * l);
                for r in [2, 4, 6] {
                    w.vgpr[r] = [lo; WAVE_SIZE];
                    w.vgpr[r + 1] = [hi; WAVE_SIZE];
                }
                w.set_exec(0b1010);
            });
            assert!(s.fault.is_none(), "{mnemonic} {v}: {:?}", s.fault);
            let m = buf.to_vec();
            assert_eq!(m[2], after, "{mnemonic} on {v}");
            assert_eq!(m[3], after, "{mnemonic} on {v} without glc");
            assert_eq!(s.wave.vgpr[2][1], before, "{mnemonic} on {v} returns");
            assert_eq!(s.wave.vgpr[2][0], lo, "inactive lane written");
            assert_eq!(s.wave.vgpr[4][1], lo, "returned without glc");
            // Out of range: nothing happens, 0 returned.
            assert_eq!(s.wave.vgpr[6][1], 0, "{mnemonic} on {v} out of range");
            ran += 1;
        }
    }
    assert!(ran >= 60, "{ran}");
}

#[test]
fn atomics_64() {
    let cases: &[(&str, u64, u64, u64, u64)] = &[
        ("swap_x2", 5, 1 << 40, 0, 1 << 40),
        ("cmpswap_x2", 1 << 33, 9, 1 << 33, 9),
        ("cmpswap_x2", 1 << 33, 9, 1, 1 << 33),
        ("add_x2", 0xffff_ffff, 1, 0, 1 << 32),
        ("sub_x2", 1 << 32, 1, 0, 0xffff_ffff),
        ("rsub_x2", 1, 1 << 32, 0, 0xffff_ffff),
        ("smin_x2", u64::MAX, 3, 0, u64::MAX),
        ("umax_x2", 1 << 63, 3, 0, 1 << 63),
        ("inc_x2", 0xffff_ffff, u64::MAX, 0, 1 << 32),
        ("dec_x2", 0, 9, 0, 9),
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
    let mut ran = 0;
    for &(name, before, lo, hi, after) in cases {
        let mnemonic = format!("buffer_atomic_{name}");
        let data = if name.contains("cmpswap") {
            "v[2:5]"
        } else {
            "v[2:3]"
        };
        for v in versions_with(&mnemonic) {
            let memory = Memory::default();
            let buf = memory.buffer_from_slice(&[before; 64]).unwrap();
            let src = format!("{mnemonic} {data}, v1, s[8:11], 0 offen glc");
            let s = run_with(v, &src, &memory, |w| {
                desc(w, 8, buf.ptr().0, 0, 512, false, 0);
                w.vgpr[1] = lanes(|l| 8 * l);
                for l in 0..WAVE_SIZE {
                    w.vgpr[2][l] = lo as u32;
                    w.vgpr[3][l] = (lo >> 32) as u32;
                    w.vgpr[4][l] = hi as u32;
                    w.vgpr[5][l] = (hi >> 32) as u32;
                }
                w.set_exec(1 << 7);
            });
            assert!(s.fault.is_none(), "{mnemonic} {v}: {:?}", s.fault);
            assert_eq!(buf.to_vec()[7], after, "{mnemonic} on {v}");
            let ret = u64::from(s.wave.vgpr[2][7]) | (u64::from(s.wave.vgpr[3][7]) << 32);
            assert_eq!(ret, before, "{mnemonic} on {v} returns");
            ran += 1;
        }
    }
    assert!(ran >= 25, "{ran}");
}

#[test]
fn lds_loads_tfe_and_store_lds_dword() {
    for v in ALL {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&pattern()).unwrap();
        let src = String::from(
            "s_movk_i32 m0, 0x100\n\
             buffer_load_dword v3, v1, s[8:11], 0 offen offset:8 lds\n\
             s_movk_i32 m0, 0x400\n\
             buffer_load_sbyte v3, v1, s[8:11], 0 offen offset:0 lds\n\
             buffer_load_dword v[4:5], v1, s[8:11], 0 offen tfe\n\
             buffer_load_ubyte v[6:7], v1, s[8:11], 0 offen tfe\n",
        );
        let s = run_with(v, &src, &memory, |w| {
            desc(w, 8, buf.ptr().0, 0, 1024, false, 0);
            w.vgpr[1] = lanes(|l| 16 * l);
            w.vgpr[3] = [7; WAVE_SIZE];
            w.vgpr[5] = [7; WAVE_SIZE];
            w.vgpr[7] = [7; WAVE_SIZE];
            w.set_exec(!1);
        });
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let lds = |at: usize| u32::from_le_bytes(s.lds[at..at + 4].try_into().unwrap());
        // M0 + OFFSET + 4 * lane.
        assert_eq!(lds(0x100 + 8 + 4 * 5), 0x5566_7788, "{v}");
        assert_eq!(lds(0x100 + 8), 0, "inactive lane");
        // The byte is zero-extended into LDS (seed).
        assert_eq!(lds(0x400 + 4 * 5), 0x81, "{v}");
        assert_eq!(s.wave.vgpr[3][5], 7, "lds loads leave VGPRs alone");
        assert_eq!((s.wave.vgpr[4][5], s.wave.vgpr[5][5]), (0x80ff_7f81, 0));
        assert_eq!((s.wave.vgpr[6][5], s.wave.vgpr[7][5]), (0x81, 0));
        assert_eq!(s.wave.vgpr[5][0], 7, "inactive lane's tfe VGPR");
    }
}

#[test]
fn store_lds_dword_moves_lds_to_memory() {
    for v in versions_with("buffer_store_lds_dword") {
        let memory = Memory::default();
        let out = memory.buffer_zeroed::<u32>(64).unwrap();
        let s = run_with(
            v,
            "s_mov_b32 m0, -1\nds_write_b32 v1, v2\n\
             s_movk_i32 m0, 0x200\nbuffer_store_lds_dword s[12:15], 0",
            &memory,
            |w| {
                // LDS 0x204 + 4L = 100 + L.
                w.vgpr[1] = lanes(|l| 0x204 + 4 * l);
                w.vgpr[2] = lanes(|l| 100 + l);
                // Stride 4, add_tid: lane L stores its LDS dword
                // 0x200 + 4L (lane L - 1's value) at 4L.
                desc(w, 12, out.ptr().0, 4, 64, false, ADD_TID);
                w.set_exec(!(1 << 63));
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let d = out.to_vec();
        assert_eq!((d[0], d[5], d[63]), (0, 104, 0), "{v}");
        let s = run_with(
            v,
            "s_mov_b32 m0, -1\nds_write_b32 v1, v2\n\
             s_movk_i32 m0, 0x200\nbuffer_store_lds_dword s[12:15], 0 offset:4",
            &memory,
            |w| {
                w.vgpr[1] = lanes(|l| 0x204 + 4 * l);
                w.vgpr[2] = lanes(|l| 100 + l);
                // Raw buffer: every lane at offset 4 (the last one wins).
                desc(w, 12, out.ptr().0, 0, 256, false, 0);
                w.set_exec(!(1 << 63));
            },
        );
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        assert_eq!(out.to_vec()[1], 100 + 62, "{v}");
    }
}

#[test]
fn in_range_address_outside_memory_faults_with_the_lane() {
    for v in ALL {
        let memory = Memory::default();
        let buf = memory.buffer_zeroed::<u32>(16).unwrap();
        let s = run_with(
            v,
            "buffer_load_dword v4, v1, s[8:11], 0 idxen",
            &memory,
            |w| {
                // 64 records of 256 bytes over a 64-byte allocation,
                // mapped in one 4 KiB page: lanes 1-15 read the page's
                // slack, lane 16 the first unmapped byte.
                desc(w, 8, buf.ptr().0, 256, 64, false, 0);
                w.vgpr[1] = lanes(|l| l);
            },
        );
        let f = s.fault.expect("fault");
        assert_eq!(f.lane, Some(16), "{v}");
        assert!(matches!(f.kind, FaultKind::Memory(m) if m.address == buf.ptr().0 + 4096));
    }
}

#[test]
fn every_mubuf_and_mtbuf_row_has_semantics() {
    assert_rows_covered(&[Encoding::Mubuf, Encoding::Mtbuf], &[], |_| false);
}

mod format {
    //! The typed forms: expected register values and bytes computed by hand
    //! from the seed's tables (the format module's table for the choices).

    use super::*;
    use crate::descriptor::{BufferResource, ElementSize, IndexStride};
    use crate::format::{DataFormat as D, DstSel, NumFormat as N};

    const ONE: u32 = 0x3f80_0000;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    fn set(w: &mut Wave, r: u16, v: BufferResource) {
        for (i, word) in v.to_words().into_iter().enumerate() {
            w.set_s32(r + i as u16, word);
        }
    }

    /// A V# over `buf` with the given stride, records and format.
    fn vs(base: u64, stride: u64, records: u64, d: D, n: N) -> BufferResource {
        BufferResource::builder()
            .base(base)
            .stride(stride)
            .num_records(records)
            .format(d, n)
            .build()
            .unwrap()
    }

    #[test]
    fn load_format_takes_format_and_dst_sel_from_the_resource() {
        for v in ALL {
            let memory = Memory::default();
            // Lane L's element: bytes [0, 0xff, 0x80, L].
            let data: Vec<u32> = (0..64u32).map(|l| 0x0080_ff00 | l << 24).collect();
            let buf = memory.buffer_from_slice(&data).unwrap();
            let s = run_with(
                v,
                "buffer_load_format_xyzw v[4:7], v1, s[8:11], 0 idxen\n\
                 buffer_load_format_xyzw v[10:13], v1, s[16:19], 0 idxen\n\
                 buffer_load_format_xy v[20:21], v1, s[24:27], 0 idxen\n\
                 buffer_load_format_x v22, v1, s[16:19], 0 idxen",
                &memory,
                |w| {
                    let base = vs(buf.ptr().0, 4, 64, D::D8_8_8_8, N::Unorm);
                    set(w, 8, base);
                    // Reversed selects with the constants.
                    set(
                        w,
                        16,
                        base.to_builder()
                            .dst_sel([DstSel::W, DstSel::One, DstSel::Zero, DstSel::X])
                            .build()
                            .unwrap(),
                    );
                    // [8_8, UINT] reads bytes 0 and 1 of each record.
                    set(w, 24, vs(buf.ptr().0, 4, 64, D::D8_8, N::Uint));
                    w.vgpr[1] = lanes(|l| l);
                },
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let w = &s.wave;
            for l in [0usize, 7, 63] {
                let lw = f(l as f32 / 255.0);
                let got = [4, 5, 6, 7].map(|r| w.vgpr[r][l]);
                assert_eq!(got, [0, ONE, f(128.0 / 255.0), lw], "{v} lane {l}");
                let got = [10, 11, 12, 13].map(|r| w.vgpr[r][l]);
                assert_eq!(got, [lw, ONE, 0, 0], "{v} lane {l}");
                assert_eq!((w.vgpr[20][l], w.vgpr[21][l]), (0, 0xff));
                assert_eq!(w.vgpr[22][l], lw);
            }
        }
    }

    #[test]
    fn tbuffer_takes_the_instruction_format_and_identity() {
        for v in ALL {
            let memory = Memory::default();
            // Halves 1.0, -2.0, 0.5, 65504 per 8-byte record.
            let data: Vec<u32> = (0..64)
                .flat_map(|_| [0xc000_3c00u32, 0x7bff_3800])
                .collect();
            let buf = memory.buffer_from_slice(&data).unwrap();
            let src = "tbuffer_load_format_xyzw v[4:7], v1, s[8:11], 0 idxen format:[16_16_16_16,float]\n\
                       tbuffer_load_format_xyz v[8:10], v1, s[8:11], 0 idxen format:[16_16,sint]\n\
                       tbuffer_load_format_x v11, v1, s[8:11], 0 idxen offset:4 format:[11_11_10,float]";
            let s = run_with(v, src, &memory, |w| {
                // The resource's format and selects are ignored.
                let r = vs(buf.ptr().0, 8, 64, D::D32, N::Uint)
                    .to_builder()
                    .dst_sel([DstSel::Zero; 4])
                    .build()
                    .unwrap();
                set(w, 8, r);
                w.vgpr[1] = lanes(|l| l);
            });
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let w = &s.wave;
            for l in [0usize, 63] {
                let got = [4, 5, 6, 7].map(|r| w.vgpr[r][l]);
                assert_eq!(got, [ONE, f(-2.0), f(0.5), f(65504.0)], "{v}");
                let got = [8, 9, 10].map(|r| w.vgpr[r][l]);
                assert_eq!(got, [0x3c00, 0xffff_c000, 0], "{v}");
                // 0x7bff3800: X = bits 0-9 = 0 (10-bit float 0), …
                assert_eq!(w.vgpr[11][l], 0, "{v}");
            }
        }
    }

    #[test]
    fn store_format_converts_saturates_and_rounds() {
        for v in ALL {
            let memory = Memory::default();
            let out = memory.buffer_zeroed::<u32>(4 * 64).unwrap();
            let src = "buffer_store_format_xyzw v[4:7], v1, s[8:11], 0 idxen\n\
                       tbuffer_store_format_xy v[8:9], v1, s[8:11], 0 idxen offset:4 format:[8_8,sint]\n\
                       tbuffer_store_format_x v10, v1, s[8:11], 0 idxen offset:8 format:[16,uscaled]\n\
                       tbuffer_store_format_xy v[4:5], v1, s[8:11], 0 idxen offset:12 format:[10_11_11,float]";
            let s = run_with(v, src, &memory, |w| {
                set(w, 8, vs(out.ptr().0, 16, 64, D::D2_10_10_10, N::Unorm));
                w.vgpr[1] = lanes(|l| l);
                w.vgpr[4] = [ONE; WAVE_SIZE];
                w.vgpr[5] = [0; WAVE_SIZE];
                w.vgpr[6] = [f(0.5); WAVE_SIZE];
                w.vgpr[7] = [f(7.0); WAVE_SIZE];
                w.vgpr[8] = [-200i32 as u32; WAVE_SIZE];
                w.vgpr[9] = lanes(|l| l);
                w.vgpr[10] = [f(2.5); WAVE_SIZE];
            });
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let got = out.to_vec();
            for l in [0usize, 9, 63] {
                // (1.0, 0, 0.5 → 511.5 → 512, 7.0 → 3) in 10/10/10/2 bits.
                assert_eq!(got[4 * l], 0xe000_03ff, "{v}");
                // -200 saturates to -128; lane id fits.
                assert_eq!(got[4 * l + 1], (l as u32) << 8 | 0x80, "{v}");
                // 2.5 ties to 2; only 2 bytes written.
                assert_eq!(got[4 * l + 2], 2, "{v}");
                // Z missing: 0; X 1.0 (15 << 6), Y 0.
                assert_eq!(got[4 * l + 3], 0x3c0, "{v}");
            }
        }
    }

    #[test]
    fn d16_forms_pack_per_version() {
        for v in versions_with("buffer_load_format_d16_xyzw") {
            let memory = Memory::default();
            let data: Vec<u32> = (0..64)
                .flat_map(|_| [0xc000_3c00u32, 0x7bff_3800])
                .collect();
            let buf = memory.buffer_from_slice(&data).unwrap();
            let out = memory.buffer_zeroed::<u32>(2 * 64).unwrap();
            let packed = v >= GcnVersion::Gcn1_4;
            let src = if packed {
                "buffer_load_format_d16_xyzw v[4:5], v1, s[8:11], 0 idxen\n\
                 buffer_load_format_d16_xyz v[6:7], v1, s[8:11], 0 idxen\n\
                 buffer_load_format_d16_hi_x v8, v1, s[8:11], 0 idxen\n\
                 tbuffer_load_format_d16_x v9, v1, s[8:11], 0 idxen format:[8_8_8_8,unorm]\n\
                 buffer_store_format_d16_xyzw v[4:5], v1, s[12:15], 0 idxen\n"
            } else {
                "buffer_load_format_d16_xyzw v[4:7], v1, s[8:11], 0 idxen\n\
                 tbuffer_load_format_d16_x v9, v1, s[8:11], 0 idxen format:[8_8_8_8,unorm]\n\
                 buffer_store_format_d16_xyzw v[4:7], v1, s[12:15], 0 idxen\n"
            };
            let s = run_with(v, src, &memory, |w| {
                set(w, 8, vs(buf.ptr().0, 8, 64, D::D16_16_16_16, N::Float));
                set(w, 12, vs(out.ptr().0, 8, 64, D::D16_16_16_16, N::Float));
                w.vgpr[1] = lanes(|l| l);
                w.vgpr[7] = [0xaaaa_5555; WAVE_SIZE];
                w.vgpr[8] = [0x1234_5678; WAVE_SIZE];
                w.vgpr[9] = [0x1234_5678; WAVE_SIZE];
            });
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let w = &s.wave;
            for l in [0usize, 63] {
                if packed {
                    assert_eq!((w.vgpr[4][l], w.vgpr[5][l]), (0xc000_3c00, 0x7bff_3800));
                    // The odd last half keeps the register's high half.
                    assert_eq!((w.vgpr[6][l], w.vgpr[7][l]), (0xc000_3c00, 0xaaaa_3800));
                    assert_eq!(w.vgpr[8][l], 0x3c00_5678);
                    // X = byte 0 = 0x00 → 0.0; the high half is kept.
                    assert_eq!(w.vgpr[9][l], 0x1234_0000);
                } else {
                    let got = [4, 5, 6, 7].map(|r| w.vgpr[r][l]);
                    assert_eq!(got, [0x3c00, 0xc000, 0x3800, 0x7bff], "{v}");
                    assert_eq!(w.vgpr[9][l], 0);
                }
            }
            assert_eq!(out.to_vec(), data, "{v}: d16 store writes the halves back");
        }
    }

    #[test]
    fn d16_stores_widen_per_number_format() {
        for v in versions_with("tbuffer_store_format_d16_xy") {
            let memory = Memory::default();
            let out = memory.buffer_zeroed::<u32>(2 * 64).unwrap();
            let packed = v >= GcnVersion::Gcn1_4;
            // Halves 0.5 (0x3800) and -2.0 (0xc000) to [8_8, UNORM]:
            // 0.5 * 255 = 127.5 → 128, -2.0 → 0; the 16-bit integers
            // 0xffff (-1) and 7 to [8_8, SINT]: -1 and 7.
            let mut src = if packed {
                String::from(
                    "tbuffer_store_format_d16_xy v4, v1, s[8:11], 0 idxen format:[8_8,unorm]\n\
                     tbuffer_store_format_d16_xy v6, v1, s[8:11], 0 idxen offset:2 format:[8_8,sint]\n",
                )
            } else {
                String::from(
                    "tbuffer_store_format_d16_xy v[4:5], v1, s[8:11], 0 idxen format:[8_8,unorm]\n\
                     tbuffer_store_format_d16_xy v[6:7], v1, s[8:11], 0 idxen offset:2 format:[8_8,sint]\n",
                )
            };
            if packed {
                src += "buffer_store_format_d16_hi_x v8, v1, s[12:15], 0 idxen\n";
            }
            let s = run_with(v, &src, &memory, |w| {
                set(w, 8, vs(out.ptr().0, 8, 64, D::D32, N::Uint));
                set(w, 12, vs(out.ptr().0 + 4, 8, 64, D::D16, N::Float));
                w.vgpr[1] = lanes(|l| l);
                if packed {
                    w.vgpr[4] = [0xc000_3800; WAVE_SIZE];
                    w.vgpr[6] = [0x0007_ffff; WAVE_SIZE];
                    w.vgpr[8] = [0x3c00_1234; WAVE_SIZE];
                } else {
                    w.vgpr[4] = [0xdead_3800; WAVE_SIZE];
                    w.vgpr[5] = [0xdead_c000; WAVE_SIZE];
                    w.vgpr[6] = [0xdead_ffff; WAVE_SIZE];
                    w.vgpr[7] = [0xdead_0007; WAVE_SIZE];
                }
            });
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let got = out.to_vec();
            for l in [0usize, 63] {
                assert_eq!(got[2 * l], 0x07ff_0080, "{v}");
                // d16_hi_x: the high half 0x3c00 (1.0) as [16, FLOAT].
                assert_eq!(got[2 * l + 1], if packed { 0x3c00 } else { 0 }, "{v}");
            }
        }
    }

    #[test]
    fn range_edges_per_record_and_per_byte() {
        for v in ALL {
            let memory = Memory::default();
            let data: Vec<u32> = (0..32).collect();
            let buf = memory.buffer_from_slice(&data).unwrap();
            let out = memory.buffer_filled::<u32>(32, 7).unwrap();
            let src = "buffer_load_format_xyzw v[4:7], v1, s[8:11], 0 idxen\n\
                       buffer_load_format_xyzw v[8:11], v1, s[8:11], 0 idxen offset:8\n\
                       tbuffer_load_format_xy v[12:13], v2, s[16:19], 0 offen format:[32_32,uint]\n\
                       buffer_store_format_xy v[20:21], v1, s[24:27], 0 idxen\n";
            let s = run_with(v, src, &memory, |w| {
                // 10 records of 8 bytes, [32_32, UINT].
                set(w, 8, vs(buf.ptr().0, 8, 10, D::D32_32, N::Uint));
                // Raw: 16 bytes.
                set(w, 16, vs(buf.ptr().0, 0, 16, D::D32, N::Uint));
                set(w, 24, vs(out.ptr().0, 8, 10, D::D32_32, N::Uint));
                w.vgpr[1] = lanes(|l| l + 8);
                w.vgpr[2] = lanes(|l| 4 * l + 8);
                w.vgpr[20] = [0x11; WAVE_SIZE];
                w.vgpr[21] = [0x22; WAVE_SIZE];
            });
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let w = &s.wave;
            let regs = |l: usize, r: [usize; 4]| r.map(|r| w.vgpr[r][l]);
            // Lanes 0, 1: records 8, 9 (in range); lane 2: record 10 (out).
            assert_eq!(regs(0, [4, 5, 6, 7]), [16, 17, 0, 1], "{v}");
            assert_eq!(regs(1, [4, 5, 6, 7]), [18, 19, 0, 1], "{v}");
            assert_eq!(regs(2, [4, 5, 6, 7]), [0, 0, 0, 1], "{v}");
            // offset:8 with stride 8: every lane out of range (OFFSET >=
            // STRIDE with idxen).
            assert_eq!(regs(0, [8, 9, 10, 11]), [0, 0, 0, 1], "{v}");
            // Raw: bytes 8..15 in range; lane 1 (bytes 12..19): the second
            // dword is out; lane 2 all out.
            assert_eq!((w.vgpr[12][0], w.vgpr[13][0]), (2, 3), "{v}");
            assert_eq!((w.vgpr[12][1], w.vgpr[13][1]), (3, 0), "{v}");
            assert_eq!((w.vgpr[12][2], w.vgpr[13][2]), (0, 0), "{v}");
            let got = out.to_vec();
            assert_eq!(&got[16..20], &[0x11, 0x22, 0x11, 0x22], "{v}");
            assert_eq!(&got[20..22], &[7, 7], "{v}: record 10 is dropped");
        }
    }

    #[test]
    fn tid_enable_and_swizzle_per_version() {
        for v in ALL {
            let memory = Memory::default();
            let data: Vec<u32> = (0..1024).collect();
            let buf = memory.buffer_from_slice(&data).unwrap();
            let src = "buffer_load_format_x v4, s[8:11], 0\n\
                       buffer_load_dword v5, v1, s[16:19], 0 idxen offset:4";
            let s = run_with(v, src, &memory, |w| {
                let tid = vs(buf.ptr().0, 4, 64, D::D32, N::Uint)
                    .to_builder()
                    .tid_enable(true)
                    .build()
                    .unwrap();
                set(w, 8, tid);
                let sw = BufferResource::builder()
                    .base(buf.ptr().0)
                    .stride(16)
                    .num_records(64)
                    .swizzle_enable(true)
                    .element_size(ElementSize::B16)
                    .index_stride(IndexStride::S8)
                    .build()
                    .unwrap();
                set(w, 16, sw);
                w.vgpr[1] = [1; WAVE_SIZE];
            });
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let w = &s.wave;
            assert_eq!(w.vgpr[4][37], 37, "{v}: TID_ENABLE adds the lane id");
            // Index 1, offset 4, INDEXSTRIDE 8, STRIDE 16: with ELEMSIZE 16
            // (GCN 1.0-1.2) 4 + 16 * 1 = byte 20; GCN 1.4's fixed 4-byte
            // elements: 0 + 4 * 1 + 8 * (1 * 4) = byte 36.
            let want = if v >= GcnVersion::Gcn1_4 { 9 } else { 5 };
            assert_eq!(w.vgpr[5][0], want, "{v}");
        }
    }

    #[test]
    fn lds_and_tfe() {
        for v in ALL {
            let memory = Memory::default();
            let data: Vec<u32> = (0..64).map(|_| 0x0000_3800).collect();
            let buf = memory.buffer_from_slice(&data).unwrap();
            let counter = memory.buffer_zeroed::<u32>(1).unwrap();
            let src = "s_movk_i32 m0, 0x100\n\
                       buffer_load_format_x v0, v1, s[8:11], 0 idxen lds\n\
                       tbuffer_load_format_xy v[4:6], v1, s[8:11], 0 idxen tfe format:[16_16,float]\n\
                       buffer_atomic_add v[10:11], off, s[12:15], 0 glc tfe";
            let s = run_with(v, src, &memory, |w| {
                set(w, 8, vs(buf.ptr().0, 4, 64, D::D16, N::Float));
                set(w, 12, BufferResource::for_buffer(&counter).unwrap());
                w.vgpr[1] = lanes(|l| l);
                w.vgpr[6] = [9; WAVE_SIZE];
                w.vgpr[10] = [1; WAVE_SIZE];
                w.vgpr[11] = [9; WAVE_SIZE];
            });
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let lds = |at: usize| u32::from_le_bytes(s.lds[at..at + 4].try_into().unwrap());
            // Half 0.5 as f32 at M0 + 4 * lane.
            assert_eq!(lds(0x100 + 4 * 3), f(0.5), "{v}");
            let w = &s.wave;
            assert_eq!(
                (w.vgpr[4][3], w.vgpr[5][3], w.vgpr[6][3]),
                (f(0.5), 0, 0),
                "{v}"
            );
            assert_eq!(w.vgpr[11][3], 0, "{v}: atomic tfe flag");
            assert_eq!(counter.to_vec(), [64], "{v}");
        }
    }

    #[test]
    fn invalid_formats_and_selects_fault_clearly() {
        let cases: [(GcnVersion, D, N, [DstSel; 4], &str); 5] = [
            (
                GcnVersion::Gcn1_0,
                D::Invalid,
                N::Uint,
                DstSel::IDENTITY,
                "data format 0",
            ),
            (
                GcnVersion::Gcn1_1,
                D::Reserved,
                N::Uint,
                DstSel::IDENTITY,
                "data format 15",
            ),
            (
                GcnVersion::Gcn1_2,
                D::D8,
                N::Float,
                DstSel::IDENTITY,
                "no 8-bit float",
            ),
            (
                GcnVersion::Gcn1_2,
                D::D8,
                N::SnormOgl,
                DstSel::IDENTITY,
                "SNORM_OGL",
            ),
            (
                GcnVersion::Gcn1_4,
                D::D8,
                N::Uint,
                [DstSel::Reserved3; 4],
                "DST_SEL code 3",
            ),
        ];
        for (v, d, n, sel, want) in cases {
            let memory = Memory::default();
            let buf = memory.buffer_zeroed::<u32>(64).unwrap();
            let s = run_with(
                v,
                "buffer_load_format_x v4, v1, s[8:11], 0 idxen",
                &memory,
                |w| {
                    let r = vs(buf.ptr().0, 4, 64, d, n)
                        .to_builder()
                        .dst_sel(sel)
                        .build()
                        .unwrap();
                    set(w, 8, r);
                },
            );
            match s.fault.map(|f| f.kind) {
                Some(FaultKind::Unsupported(m)) => {
                    assert!(
                        m.contains("buffer_load_format_x") && m.contains(want),
                        "{m}"
                    )
                }
                other => panic!("{v} {d} {n}: {other:?}"),
            }
        }
        // SNORM_OGL still reads on GCN 1.0/1.1: code 0x80 is -1.0.
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&[0x80u32]).unwrap();
        let s = run_with(
            GcnVersion::Gcn1_1,
            "tbuffer_load_format_x v4, off, s[8:11], 0 format:[8,snorm_ogl]",
            &memory,
            |w| set(w, 8, BufferResource::for_buffer(&buf).unwrap()),
        );
        assert!(s.fault.is_none());
        assert_eq!(s.wave.vgpr[4][0], f(-1.0));
    }

    #[test]
    fn a_kernel_built_descriptor_reads_back() {
        // The descriptor LLVM builds for gfx9 scratch (words 2 and 3 as
        // s_mov_b32 writes them): INDEXSTRIDE 3 (64), ADD_TID_ENABLE.
        let w = crate::exec::testing::run(
            GcnVersion::Gcn1_4,
            "s_mov_b32 s8, 0x1000\ns_mov_b32 s9, 0x00100000\n\
             s_mov_b32 s10, -1\ns_mov_b32 s11, 0xe00000",
            |_| {},
        );
        let v = BufferResource::from_words([w.sgpr[8], w.sgpr[9], w.sgpr[10], w.sgpr[11]]);
        assert_eq!(
            (v.base(), v.stride(), v.num_records()),
            (0x1000, 16, u32::MAX)
        );
        assert_eq!(v.index_stride(), IndexStride::S64);
        assert!(v.tid_enable() && !v.swizzle_enable());
        assert_eq!(v.data_format(), D::Invalid);
        assert_eq!(v.dst_sel(), [DstSel::Zero; 4]);
        let shown = v.display(GcnVersion::Gcn1_4).to_string();
        assert!(shown.contains("index_stride=64 tid_enable=1"), "{shown}");
        assert!(shown.contains("format=[INVALID,UNORM]"), "{shown}");
    }
}

/// GCN 1.5 and RDNA 2: the gfx10 V#.
mod gfx10 {
    use super::*;
    use crate::descriptor::{Gfx10BufferResource, IndexStride, OobSelect};
    use crate::exec::testing::run_env_waves;
    use crate::format::{DataFormat, NumFormat};

    const GFX10: [GcnVersion; 3] = [GcnVersion::Gcn1_5, GcnVersion::Gcn1_5_1, GcnVersion::Rdna2];

    fn put(w: &mut Wave, r: u16, v: Gfx10BufferResource) {
        for (i, word) in v.to_words().into_iter().enumerate() {
            w.set_s32(r + i as u16, word);
        }
    }

    fn run32(
        v: GcnVersion,
        wave32: bool,
        src: &str,
        memory: &Memory,
        setup: impl FnOnce(&mut Wave),
    ) -> crate::exec::testing::Snippet {
        run_env_waves(v, wave32, src, memory, 64 * 1024, (0, 0), setup)
    }

    /// OOB_SELECT 3 (raw): each dword's offset (plus SOFFSET) against
    /// NUM_RECORDS bytes; the old word-3 bits mean nothing.
    #[test]
    fn raw_range_check() {
        for v in GFX10 {
            let memory = Memory::default();
            let buf = memory.buffer_from_slice(&pattern()).unwrap();
            let s = run_with(
                v,
                "buffer_load_dword v4, v1, s[8:11], s12 offen offset:4\n\
                 buffer_load_dwordx4 v[20:23], v1, s[8:11], s12 offen\n\
                 buffer_load_dword v5, v1, s[8:11], 0 offen offset:4 glc slc dlc",
                &memory,
                |w| {
                    let r = Gfx10BufferResource::raw(buf.ptr().0, 1024).unwrap();
                    put(w, 8, r);
                    w.set_s32(12, 4);
                    w.vgpr[1] = lanes(|l| 16 * l);
                },
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let w = &s.wave;
            for l in [0usize, 5, 63] {
                let lu = l as u32;
                assert_eq!(w.vgpr[4][l], 0x5566_7788, "{v}");
                assert_eq!(w.vgpr[5][l], 0x1122_3344, "{v}");
                let last = if l == 63 { 0 } else { 0x80ff_7f81 };
                assert_eq!(
                    [20, 21, 22, 23].map(|r| w.vgpr[r][l]),
                    [0x1122_3344, 0x5566_7788, 0x99aa_bbcc + lu, last],
                    "{v} lane {l}"
                );
            }
        }
    }

    /// OOB_SELECT 0, 1 and 2 on a structured buffer (stride 8, 4 records):
    /// the offset check, the index check alone, and no check.
    #[test]
    fn structured_checks_by_oob_select() {
        for v in GFX10 {
            for (oob, want) in [
                // Index 4 is past the records; offset 8 is past the stride.
                (OobSelect::StructuredWithOffset, [0x0302_0100, 0, 0, 0]),
                (
                    OobSelect::Structured,
                    [0x0302_0100, 0x0b0a_0908, 0, 0x0b0a_0908],
                ),
                (
                    OobSelect::Disabled,
                    [0x0302_0100, 0x0b0a_0908, 0x2322_2120, 0x0b0a_0908],
                ),
            ] {
                let memory = Memory::default();
                let bytes: Vec<u8> = (0..64u8).collect();
                let buf = memory.buffer_from_slice(&bytes).unwrap();
                // Lanes 0-3: index 0 offset 0, index 0 offset 8, index 4
                // offset 0, index 0 offset 8.
                let s = run_with(
                    v,
                    "buffer_load_dword v4, v[1:2], s[8:11], 0 idxen offen",
                    &memory,
                    |w| {
                        let r = Gfx10BufferResource::builder()
                            .base(buf.ptr().0)
                            .stride(8)
                            .num_records(4)
                            .oob_select(oob)
                            .build()
                            .unwrap();
                        put(w, 8, r);
                        w.vgpr[1] = lanes(|l| [0, 0, 4, 0][l as usize % 4]);
                        w.vgpr[2] = lanes(|l| [0, 8, 0, 8][l as usize % 4]);
                    },
                );
                assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
                assert_eq!(s.wave.vgpr[4][..4], want, "{v} {oob:?}");
            }
            // OOB_SELECT 2 with NUM_RECORDS 0: everything is out of range.
            let memory = Memory::default();
            let buf = memory.buffer_from_slice(&[7u32; 4]).unwrap();
            let s = run_with(
                v,
                "buffer_load_dword v4, v1, s[8:11], 0 offen",
                &memory,
                |w| {
                    let r = Gfx10BufferResource::builder()
                        .base(buf.ptr().0)
                        .oob_select(OobSelect::Disabled)
                        .build()
                        .unwrap();
                    put(w, 8, r);
                    w.vgpr[4] = [9; WAVE_SIZE];
                },
            );
            assert_eq!(s.wave.vgpr[4], [0; WAVE_SIZE], "{v}");
        }
    }

    /// Swizzled with ADD_TID (the scratch layout): lane L's dword k at
    /// `k * 4 * IS + 4 * L`, IS the index stride; in wave32 only lanes
    /// 0-31 store.
    #[test]
    fn swizzled_add_tid_wave64_and_wave32() {
        for v in GFX10 {
            for wave32 in [false, true] {
                let memory = Memory::default();
                let out = memory.buffer_zeroed::<u32>(256).unwrap();
                let s = run32(
                    v,
                    wave32,
                    "buffer_store_dwordx2 v[2:3], off, s[8:11], 0 offset:0",
                    &memory,
                    |w| {
                        put(
                            w,
                            8,
                            Gfx10BufferResource::scratch(out.ptr().0, 1024, wave32).unwrap(),
                        );
                        w.vgpr[2] = lanes(|l| 100 + l);
                        w.vgpr[3] = lanes(|l| 200 + l);
                    },
                );
                assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
                let got = out.to_vec();
                let lanes_n = if wave32 { 32 } else { 64 };
                let mut want = vec![0u32; 256];
                for l in 0..lanes_n {
                    want[l] = 100 + l as u32;
                    want[lanes_n + l] = 200 + l as u32;
                }
                assert_eq!(got, want, "{v} wave32={wave32}");
            }
            // Index stride 8 (field 0): lanes 8 apart restart the dword row.
            let memory = Memory::default();
            let out = memory.buffer_zeroed::<u32>(64).unwrap();
            let s = run_with(v, "buffer_store_dword v2, off, s[8:11], 0", &memory, |w| {
                let r = Gfx10BufferResource::builder()
                    .base(out.ptr().0)
                    .num_records(256)
                    .swizzle_enable(true)
                    .add_tid(true)
                    .index_stride(IndexStride::S8)
                    .build()
                    .unwrap();
                put(w, 8, r);
                w.set_exec(0xffff);
                w.vgpr[2] = lanes(|l| l + 1);
            });
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            // Lane L at 4 * (L % 8) + 8 * (L / 8) * stride(0)... with stride
            // 0 the rows coincide: lanes 8-15 overwrite lanes 0-7.
            assert_eq!(out.to_vec()[..8], [9, 10, 11, 12, 13, 14, 15, 16], "{v}");
        }
    }

    /// The resource's unified FORMAT drives `buffer_*_format_*`; MTBUF's
    /// `format:` is a code of the same table; INVALID stops.
    #[test]
    fn unified_formats() {
        for v in GFX10 {
            let memory = Memory::default();
            let buf = memory
                .buffer_from_slice(&[0xff00_ff00u32, 0x3c00_c000, 0x4049_0fdb, 0x0005_0007])
                .unwrap();
            let out = memory.buffer_zeroed::<u32>(4).unwrap();
            let s = run_with(
                v,
                "buffer_load_format_xyzw v[4:7], v1, s[8:11], 0 idxen\n\
                 tbuffer_load_format_xy v[10:11], v1, s[12:15], 0 idxen offset:4 format:29\n\
                 tbuffer_load_format_x v12, v1, s[12:15], 0 idxen offset:8 format:22\n\
                 tbuffer_load_format_d16_xy v13, v1, s[12:15], 0 idxen offset:12 format:27\n\
                 tbuffer_store_format_xy v[14:15], v1, s[16:19], 0 idxen format:27",
                &memory,
                |w| {
                    // 8_8_8_8_UNORM records of 4 bytes; raw 16-byte records.
                    let r = Gfx10BufferResource::builder()
                        .base(buf.ptr().0)
                        .stride(4)
                        .num_records(1)
                        .format(DataFormat::D8_8_8_8, NumFormat::Unorm)
                        .oob_select(OobSelect::StructuredWithOffset)
                        .build()
                        .unwrap();
                    put(w, 8, r);
                    let r = Gfx10BufferResource::builder()
                        .base(buf.ptr().0)
                        .stride(16)
                        .num_records(1)
                        .oob_select(OobSelect::Structured)
                        .build()
                        .unwrap();
                    put(w, 12, r);
                    let r = Gfx10BufferResource::builder()
                        .base(out.ptr().0)
                        .stride(4)
                        .num_records(1)
                        .oob_select(OobSelect::Structured)
                        .build()
                        .unwrap();
                    put(w, 16, r);
                    w.set_exec(1);
                    w.vgpr[14][0] = 0x1_2345;
                    w.vgpr[15][0] = 7;
                },
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let w = &s.wave;
            let one = 1.0f32.to_bits();
            assert_eq!([4, 5, 6, 7].map(|r| w.vgpr[r][0]), [0, one, 0, one], "{v}");
            // 16_16_FLOAT: -2.0 and 1.0 as f32.
            assert_eq!(
                [w.vgpr[10][0], w.vgpr[11][0]],
                [(-2.0f32).to_bits(), one],
                "{v}"
            );
            assert_eq!(w.vgpr[12][0], 0x4049_0fdb, "{v}: 32_FLOAT");
            // 16_16_UINT into two packed halves.
            assert_eq!(w.vgpr[13][0], 0x0005_0007, "{v}: d16 packs");
            // The store saturates each UINT component to 16 bits.
            assert_eq!(out.to_vec()[0], 0x0007_ffff, "{v}");

            for (src, what) in [
                (
                    "tbuffer_load_format_x v12, v1, s[12:15], 0 idxen format:0",
                    "instruction's FORMAT code 0",
                ),
                (
                    "tbuffer_load_format_x v12, v1, s[12:15], 0 idxen format:100",
                    "code 100",
                ),
                (
                    "buffer_load_format_x v12, v1, s[12:15], 0 idxen",
                    "resource's FORMAT code 0",
                ),
            ] {
                let s = run_with(v, src, &memory, |w| {
                    let r = Gfx10BufferResource::builder()
                        .base(buf.ptr().0)
                        .stride(4)
                        .num_records(1)
                        .format_code(0)
                        .build()
                        .unwrap();
                    put(w, 12, r);
                });
                let f = s.fault.map(|f| f.kind);
                assert!(
                    matches!(&f, Some(FaultKind::Unsupported(m)) if m.contains(what)),
                    "{v} `{src}`: {f:?}"
                );
            }
        }
    }

    /// Wave32: a raw load and store touch lanes 0-31 only, whatever EXEC_HI
    /// holds.
    #[test]
    fn wave32_touches_lanes_0_to_31() {
        for v in GFX10 {
            let memory = Memory::default();
            let data: Vec<u32> = (0..64).map(|i| 1000 + i).collect();
            let buf = memory.buffer_from_slice(&data).unwrap();
            let out = memory.buffer_zeroed::<u32>(64).unwrap();
            let s = run32(
                v,
                true,
                "buffer_load_dword v4, v1, s[8:11], 0 offen\n\
                 buffer_store_dword v4, v1, s[12:15], 0 offen\n\
                 buffer_atomic_add v5, v1, s[12:15], 0 offen glc",
                &memory,
                |w| {
                    put(w, 8, Gfx10BufferResource::for_buffer(&buf).unwrap());
                    put(w, 12, Gfx10BufferResource::for_buffer(&out).unwrap());
                    w.sgpr[127] = u32::MAX;
                    w.vgpr[1] = lanes(|l| 4 * l);
                    w.vgpr[4] = [7; WAVE_SIZE];
                    w.vgpr[5] = [1; WAVE_SIZE];
                },
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            let got = out.to_vec();
            for (l, &g) in got.iter().enumerate() {
                let want = if l < 32 { 1001 + l as u32 } else { 0 };
                assert_eq!(g, want, "{v} lane {l}");
                let reg = if l < 32 { 1000 + l as u32 } else { 7 };
                assert_eq!(s.wave.vgpr[4][l], reg, "{v} lane {l}");
            }
        }
    }
}

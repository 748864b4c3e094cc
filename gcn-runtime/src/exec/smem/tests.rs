//! Scalar memory semantics, table-driven over the versions that have each
//! row. Expected values come from the buffer contents placed by the test
//! (`data[i] = 0x1000 + i`) and the offset rules of the CLRX pages.

use gcn_asm::GcnVersion;

use crate::exec::testing::{run_with, versions_with, Snippet};
use crate::exec::{FaultKind, Wave};
use crate::memory::{Buffer, Memory};

const N: usize = 512;

fn data() -> Vec<u32> {
    (0..N as u32).map(|i| 0x1000 + i).collect()
}

/// Runs `src` on `version` with a fresh buffer of [`data`], whose address
/// `setup` gets.
fn with_buffer(
    v: GcnVersion,
    src: &str,
    init: &[u32],
    setup: impl FnOnce(&mut Wave, u64),
) -> (Snippet, Vec<u32>) {
    let memory = Memory::default();
    let mut d = data();
    d[..init.len()].copy_from_slice(init);
    let buf: Buffer<u32> = memory.buffer_from_slice(&d).unwrap();
    let ptr = buf.ptr().0;
    let s = run_with(v, src, &memory, |w| setup(w, ptr));
    let out = buf.to_vec();
    (s, out)
}

/// Puts a 64-bit address in s[2:3].
fn base(w: &mut Wave, a: u64) {
    w.set_s64(2, a);
}

/// A buffer resource in s[4:7].
fn resource(w: &mut Wave, a: u64, stride: u32, num_records: u32) {
    w.sgpr[4] = a as u32;
    w.sgpr[5] = (a >> 32) as u32 | stride << 16;
    w.sgpr[6] = num_records;
    w.sgpr[7] = 0;
}

fn ok(s: &Snippet, what: &str) {
    assert!(s.fault.is_none(), "{what}: {:?}", s.fault);
}

#[test]
fn load_offsets() {
    for v in versions_with("s_load_dword") {
        let smrd = !v.is_gcn12_or_later();
        // Immediate: dwords on SMRD, bytes on SMEM.
        let src = if smrd {
            "s_load_dword s10, s[2:3], 3"
        } else {
            "s_load_dword s10, s[2:3], 12"
        };
        let (s, _) = with_buffer(v, src, &[], base);
        ok(&s, src);
        assert_eq!(s.wave.sgpr[10], 0x1003, "{v} {src}");
        // SGPR: bytes everywhere; the low two bits of the address are
        // ignored.
        for (off, want) in [(8u32, 0x1002u32), (9, 0x1002), (0x7fc, 0x11ff)] {
            let (s, _) = with_buffer(v, "s_load_dword s10, s[2:3], s4", &[], |w, a| {
                base(w, a);
                w.sgpr[4] = off;
            });
            ok(&s, "sgpr offset");
            assert_eq!(s.wave.sgpr[10], want, "{v} offset {off}");
        }
        // Bits 48-63 of the base are ignored.
        let (s, _) = with_buffer(v, "s_load_dword s10, s[2:3], s4", &[], |w, a| {
            base(w, a | 0xabcd << 48);
            w.sgpr[4] = 4;
        });
        ok(&s, "high base bits");
        assert_eq!(s.wave.sgpr[10], 0x1001, "{v}");
        // Wide loads.
        let (s, _) = with_buffer(v, "s_load_dwordx16 s[16:31], s[2:3], s4", &[], |w, a| {
            base(w, a);
            w.sgpr[4] = 4;
        });
        ok(&s, "x16");
        for i in 0..16 {
            assert_eq!(s.wave.sgpr[16 + i], 0x1001 + i as u32, "{v} x16 [{i}]");
        }
        for (mn, n) in [
            ("s_load_dwordx2", 2),
            ("s_load_dwordx4", 4),
            ("s_load_dwordx8", 8),
        ] {
            let src = format!("{mn} s[16:{}], s[2:3], s4", 16 + n - 1);
            let (s, _) = with_buffer(v, &src, &[], |w, a| {
                base(w, a);
                w.sgpr[4] = 40;
            });
            ok(&s, mn);
            for i in 0..n {
                assert_eq!(s.wave.sgpr[16 + i], 0x100a + i as u32, "{v} {mn} [{i}]");
            }
            assert_eq!(s.wave.sgpr[16 + n], 0, "{v} {mn}: one past");
        }
        // Outside every mapped page: a memory fault.
        for (a_off, off) in [(None, 0u32), (Some(0), crate::memory::PAGE_SIZE as u32)] {
            let (s, _) = with_buffer(v, "s_load_dword s10, s[2:3], s4", &[], |w, a| {
                base(w, a_off.map_or(0, |o: u64| a + o));
                w.sgpr[4] = off;
            });
            assert!(
                matches!(s.fault.map(|f| f.kind), Some(FaultKind::Memory(_))),
                "{v}: base {a_off:?} offset {off}"
            );
        }
    }
    // GCN 1.1: a 32-bit literal offset, in dwords.
    let (s, _) = with_buffer(
        GcnVersion::Gcn1_1,
        "s_load_dword s10, s[2:3], 0x100",
        &[],
        base,
    );
    ok(&s, "literal");
    assert_eq!(s.wave.sgpr[10], 0x1100);
    // GCN 1.4: a signed 21-bit immediate, and SGPR + immediate (SOE).
    let (s, _) = with_buffer(
        GcnVersion::Gcn1_4,
        "s_load_dword s10, s[2:3], -4",
        &[],
        |w, a| base(w, a + 16),
    );
    ok(&s, "negative");
    assert_eq!(s.wave.sgpr[10], 0x1003);
    let (s, _) = with_buffer(
        GcnVersion::Gcn1_4,
        "s_load_dword s10, s[2:3], s4 offset:0x8",
        &[],
        |w, a| {
            base(w, a);
            w.sgpr[4] = 8;
        },
    );
    ok(&s, "soe");
    assert_eq!(s.wave.sgpr[10], 0x1004);
}

#[test]
fn buffer_loads() {
    for v in versions_with("s_buffer_load_dword") {
        let smrd = !v.is_gcn12_or_later();
        // (stride, num_records, offset, expected of an x4 load)
        let cases: &[(u32, u32, u32, [u32; 4])] = &[
            (0, 64, 4, [0x1001, 0x1002, 0x1003, 0x1004]),
            // Dwords at or past num_records read 0.
            (0, 8, 0, [0x1000, 0x1001, 0, 0]),
            (0, 9, 0, [0x1000, 0x1001, 0x1002, 0]),
            (0, 0, 0, [0; 4]),
            (0, 16, 16, [0; 4]),
            // With a stride the range is num_records * stride bytes.
            (4, 3, 0, [0x1000, 0x1001, 0x1002, 0]),
            (16, 1, 4, [0x1001, 0x1002, 0x1003, 0]),
        ];
        for &(stride, records, off, want) in cases {
            let (s, _) = with_buffer(
                v,
                "s_buffer_load_dwordx4 s[12:15], s[4:7], s8",
                &[],
                |w, a| {
                    resource(w, a, stride, records);
                    w.sgpr[8] = off;
                },
            );
            ok(&s, "buffer load");
            assert_eq!(
                &s.wave.sgpr[12..16],
                &want,
                "{v}: stride {stride} records {records} offset {off}"
            );
        }
        let src = if smrd {
            "s_buffer_load_dword s12, s[4:7], 2"
        } else {
            "s_buffer_load_dword s12, s[4:7], 8"
        };
        let (s, _) = with_buffer(v, src, &[], |w, a| resource(w, a, 0, 64));
        ok(&s, src);
        assert_eq!(s.wave.sgpr[12], 0x1002, "{v}");
        // The destination may overwrite the resource.
        let (s, _) = with_buffer(
            v,
            "s_buffer_load_dwordx4 s[4:7], s[4:7], s8",
            &[],
            |w, a| {
                resource(w, a, 0, 64);
                w.sgpr[8] = 0;
            },
        );
        ok(&s, "overlap");
        assert_eq!(&s.wave.sgpr[4..8], &[0x1000, 0x1001, 0x1002, 0x1003], "{v}");
        for (mn, n) in [
            ("s_buffer_load_dwordx2", 2),
            ("s_buffer_load_dwordx8", 8),
            ("s_buffer_load_dwordx16", 16),
        ] {
            let src = format!("{mn} s[16:{}], s[4:7], s8", 16 + n - 1);
            let (s, _) = with_buffer(v, &src, &[], |w, a| {
                resource(w, a, 0, 4 * (n as u32 - 1));
                w.sgpr[8] = 0;
            });
            ok(&s, mn);
            for i in 0..n - 1 {
                assert_eq!(s.wave.sgpr[16 + i], 0x1000 + i as u32, "{v} {mn}");
            }
            assert_eq!(
                s.wave.sgpr[16 + n - 1],
                0,
                "{v} {mn}: last dword out of range"
            );
        }
        // In range of the resource but outside every mapped page (the
        // buffer fills half of its page): a fault.
        let (s, _) = with_buffer(v, "s_buffer_load_dword s12, s[4:7], s8", &[], |w, a| {
            resource(w, a, 0, u32::MAX);
            w.sgpr[8] = crate::memory::PAGE_SIZE as u32;
        });
        assert!(
            matches!(s.fault.map(|f| f.kind), Some(FaultKind::Memory(_))),
            "{v}"
        );
    }
}

#[test]
fn stores() {
    for v in versions_with("s_store_dword") {
        let (s, out) = with_buffer(
            v,
            "s_store_dword s10, s[2:3], 8\ns_store_dwordx2 s[12:13], s[2:3], m0\ns_store_dwordx4 s[16:19], s[2:3], 0x40",
            &[],
            |w, a| {
                base(w, a);
                w.sgpr[10] = 0xaa;
                w.sgpr[12] = 0xb0;
                w.sgpr[13] = 0xb1;
                w.sgpr[124] = 0x20;
                for i in 0..4 {
                    w.sgpr[16 + i] = 0xc0 + i as u32;
                }
            },
        );
        ok(&s, "stores");
        assert_eq!(out[2], 0xaa, "{v}");
        assert_eq!(&out[8..10], &[0xb0, 0xb1], "{v}");
        assert_eq!(&out[16..20], &[0xc0, 0xc1, 0xc2, 0xc3], "{v}");
        assert_eq!(out[3], 0x1003, "{v}: untouched");
        // Buffer stores: dwords past num_records are dropped.
        let (s, out) = with_buffer(
            v,
            "s_buffer_store_dwordx4 s[16:19], s[4:7], m0\ns_buffer_store_dword s10, s[4:7], 4\ns_buffer_store_dwordx2 s[12:13], s[4:7], 0x10",
            &[],
            |w, a| {
                resource(w, a, 0, 12);
                w.sgpr[124] = 4;
                w.sgpr[10] = 0xaa;
                w.sgpr[12] = 0xb0;
                w.sgpr[13] = 0xb1;
                for i in 0..4 {
                    w.sgpr[16 + i] = 0xc0 + i as u32;
                }
            },
        );
        ok(&s, "buffer stores");
        assert_eq!(
            &out[..6],
            &[0x1000, 0xaa, 0xc1, 0x1003, 0x1004, 0x1005],
            "{v}"
        );
        // Outside every mapped page: a fault.
        let (s, _) = with_buffer(v, "s_store_dword s10, s[2:3], m0", &[], |w, a| {
            base(w, a);
            w.sgpr[124] = crate::memory::PAGE_SIZE as u32;
        });
        assert!(
            matches!(s.fault.map(|f| f.kind), Some(FaultKind::Memory(_))),
            "{v}"
        );
    }
}

#[test]
fn scratch_loads_and_stores() {
    let v = GcnVersion::Gcn1_4;
    let (s, _) = with_buffer(v, "s_scratch_load_dword s10, s[2:3], 8", &[], base);
    ok(&s, "scratch imm");
    assert_eq!(s.wave.sgpr[10], 0x1002);
    // SGPR offset counts 64-byte units: 4 * 64 = 256 bytes, plus 4.
    let (s, _) = with_buffer(
        v,
        "s_scratch_load_dwordx2 s[10:11], s[2:3], s4 offset:4",
        &[],
        |w, a| {
            base(w, a);
            w.sgpr[4] = 4;
        },
    );
    ok(&s, "scratch sgpr");
    assert_eq!(&s.wave.sgpr[10..12], &[0x1041, 0x1042]);
    let (s, out) = with_buffer(
        v,
        "s_scratch_store_dwordx4 s[16:19], s[2:3], s4 offset:8\ns_scratch_store_dword s10, s[2:3], 4\ns_scratch_load_dwordx4 s[20:23], s[2:3], s5",
        &[],
        |w, a| {
            base(w, a);
            w.sgpr[4] = 1;
            w.sgpr[5] = 0;
            w.sgpr[10] = 0xaa;
            for i in 0..4 {
                w.sgpr[16 + i] = 0xc0 + i as u32;
            }
        },
    );
    ok(&s, "scratch store");
    // SGPR 1 & ~3 = 0: the offset is the immediate alone.
    assert_eq!(&out[..6], &[0x1000, 0xaa, 0xc0, 0xc1, 0xc2, 0xc3]);
    assert_eq!(&s.wave.sgpr[20..24], &[0x1000, 0xaa, 0xc0, 0xc1]);
}

#[test]
fn memtime_counts_instructions() {
    for v in versions_with("s_memtime") {
        let (s, _) = with_buffer(
            v,
            "s_nop 0\ns_nop 0\ns_memtime s[10:11]\ns_memtime s[12:13]",
            &[],
            |_, _| {},
        );
        ok(&s, "memtime");
        assert_eq!(s.wave.s64(10), 3, "{v}");
        assert_eq!(s.wave.s64(12), 4, "{v}");
    }
    for v in versions_with("s_memrealtime") {
        let (s, _) = with_buffer(v, "s_memrealtime s[10:11]", &[], |_, _| {});
        ok(&s, "memrealtime");
        assert_eq!(s.wave.s64(10), 1, "{v}");
    }
}

#[test]
fn cache_controls_do_nothing() {
    for src in [
        "s_dcache_inv",
        "s_dcache_inv_vol",
        "s_dcache_wb",
        "s_dcache_wb_vol",
        "s_dcache_discard s[2:3], s4",
        "s_dcache_discard_x2 s[2:3], s4",
        "s_atc_probe 7, s[2:3], s4",
        "s_atc_probe_buffer 7, s[4:7], s4",
    ] {
        let mn = src.split_whitespace().next().unwrap();
        for v in versions_with(mn) {
            let (s, out) = with_buffer(v, src, &[], base);
            ok(&s, src);
            assert_eq!(out, data(), "{v} {src}");
        }
    }
}

const M1: u32 = u32::MAX;

/// An atomic case: mnemonic without `s_`/`s_buffer_`, SDATA, memory
/// before, memory after.
type AtomicCase = (&'static str, &'static [u32], &'static [u32], &'static [u32]);

const ATOMICS: &[AtomicCase] = &[
    ("atomic_swap", &[7], &[10], &[7]),
    ("atomic_cmpswap", &[7, 10], &[10], &[7]),
    ("atomic_cmpswap", &[7, 11], &[10], &[10]),
    ("atomic_add", &[7], &[10], &[17]),
    ("atomic_add", &[2], &[M1], &[1]),
    ("atomic_sub", &[12], &[10], &[0xffff_fffe]),
    ("atomic_smin", &[M1], &[10], &[M1]),
    ("atomic_umin", &[M1], &[10], &[10]),
    ("atomic_smax", &[M1], &[10], &[10]),
    ("atomic_umax", &[M1], &[10], &[M1]),
    ("atomic_and", &[0x0ff0], &[0xff00], &[0x0f00]),
    ("atomic_or", &[0x0ff0], &[0xff00], &[0xfff0]),
    ("atomic_xor", &[0x0ff0], &[0xff00], &[0xf0f0]),
    ("atomic_inc", &[10], &[10], &[0]),
    ("atomic_inc", &[10], &[9], &[10]),
    ("atomic_dec", &[5], &[0], &[5]),
    ("atomic_dec", &[5], &[3], &[2]),
    ("atomic_dec", &[5], &[7], &[5]),
    ("atomic_swap_x2", &[1, 2], &[3, 4], &[1, 2]),
    ("atomic_cmpswap_x2", &[5, 6, 1, 2], &[1, 2], &[5, 6]),
    ("atomic_cmpswap_x2", &[5, 6, 1, 3], &[1, 2], &[1, 2]),
    ("atomic_add_x2", &[1, 0], &[M1, 0], &[0, 1]),
    ("atomic_sub_x2", &[1, 0], &[0, 1], &[M1, 0]),
    ("atomic_smin_x2", &[M1, M1], &[0, 1], &[M1, M1]),
    ("atomic_umin_x2", &[M1, M1], &[0, 1], &[0, 1]),
    ("atomic_smax_x2", &[M1, M1], &[0, 1], &[0, 1]),
    ("atomic_umax_x2", &[M1, M1], &[0, 1], &[M1, M1]),
    ("atomic_and_x2", &[M1, 0xf0], &[0xf, 0xff], &[0xf, 0xf0]),
    ("atomic_or_x2", &[0xf0, 0xf0], &[0xf, 0x0f], &[0xff, 0xff]),
    ("atomic_xor_x2", &[0xff, 0], &[0xf, 1], &[0xf0, 1]),
    ("atomic_inc_x2", &[0, 1], &[M1, 0], &[0, 1]),
    ("atomic_inc_x2", &[0, 1], &[0, 1], &[0, 0]),
    ("atomic_dec_x2", &[5, 0], &[0, 0], &[5, 0]),
    ("atomic_dec_x2", &[0, 1], &[0, 1], &[M1, 0]),
];

fn regs(n: usize) -> String {
    if n == 1 {
        "s12".into()
    } else {
        format!("s[12:{}]", 11 + n)
    }
}

#[test]
fn atomics() {
    let v = GcnVersion::Gcn1_4;
    for &(op, sdata, before, after) in ATOMICS {
        for buffer in [false, true] {
            for glc in [false, true] {
                let mn = if buffer {
                    format!("s_buffer_{op}")
                } else {
                    format!("s_{op}")
                };
                let src = format!(
                    "{mn} {}, {}, 8{}",
                    regs(sdata.len()),
                    if buffer { "s[4:7]" } else { "s[2:3]" },
                    if glc { " glc" } else { "" }
                );
                let mut init = vec![0x1000, 0x1001];
                init.extend_from_slice(before);
                let (s, out) = with_buffer(v, &src, &init, |w, a| {
                    base(w, a);
                    resource(w, a, 0, 64);
                    for (i, &d) in sdata.iter().enumerate() {
                        w.sgpr[12 + i] = d;
                    }
                });
                ok(&s, &src);
                assert_eq!(&out[2..2 + after.len()], after, "{src}: memory");
                assert_eq!(out[2 + after.len()], 0x1002 + after.len() as u32, "{src}");
                let got = &s.wave.sgpr[12..12 + sdata.len()];
                if glc {
                    // The old value lands in the first register(s).
                    assert_eq!(&got[..before.len()], before, "{src}: returned");
                    assert_eq!(&got[before.len()..], &sdata[before.len()..], "{src}");
                } else {
                    assert_eq!(got, sdata, "{src}: SDATA kept");
                }
            }
        }
    }
    // Out of the buffer's range: nothing is written, 0 comes back.
    let (s, out) = with_buffer(v, "s_buffer_atomic_add s10, s[4:7], 8 glc", &[], |w, a| {
        resource(w, a, 0, 8);
        w.sgpr[10] = 5;
    });
    ok(&s, "out of range");
    assert_eq!(out, data());
    assert_eq!(s.wave.sgpr[10], 0);
    // A 64-bit atomic must be 8-byte aligned.
    let (s, _) = with_buffer(v, "s_atomic_add_x2 s[10:11], s[2:3], 4", &[], base);
    assert!(
        matches!(s.fault.map(|f| f.kind), Some(FaultKind::Unsupported(m)) if m.contains("aligned"))
    );
    // Outside memory: a fault.
    let (s, _) = with_buffer(v, "s_atomic_add s10, s[2:3], 0", &[], |w, _| base(w, 0x10));
    assert!(matches!(
        s.fault.map(|f| f.kind),
        Some(FaultKind::Memory(_))
    ));
    // GCN 1.2 has no scalar atomics (CLRX encodes them anyway).
    let (s, _) = with_buffer(
        GcnVersion::Gcn1_2,
        "s_buffer_atomic_add s10, s[4:7], m0",
        &[],
        |_, _| {},
    );
    assert!(
        matches!(s.fault.map(|f| f.kind), Some(FaultKind::Gap { instruction: "s_buffer_atomic_add", reason }) if reason.contains("GCN 1.2 hardware has no scalar atomics"))
    );
}

//! The `oob` check on every GCN version: kernels that read and write a
//! few bytes past a buffer (vector and scalar) are reported at the right
//! instruction with the lanes and the distance, and complete; the fixed
//! twins are not; an access outside every page still faults; a buffer
//! access outside its descriptor's range is defined and not reported;
//! the levels behave as for the other checks.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

use crate::check::{Check, CheckOptions, CheckReport, Level};
use crate::exec::FaultKind;
use crate::kernel::{ArgValue, Dispatch};
use crate::memory::Buffer;
use crate::{LaunchError, LaunchOptions, LaunchStats, Memory, Program};

use crate::check::tests::{gpu, VERSIONS};

/// A scalar memory offset of `bytes` (dwords before GCN 1.2).
fn smem(v: GcnVersion, bytes: u32) -> String {
    if v.is_gcn12_or_later() {
        format!("{bytes:#x}")
    } else {
        format!("{}", bytes / 4)
    }
}

/// `k(in, out)`: `s16` = the dword at byte `scalar` of `in`; item `i`
/// stores `in[i] ^ s16` to `out[i]` through raw buffer descriptors of
/// `records` bytes (`-1`: unchecked), item `i` at byte `i << shift`.
fn kernel(v: GcnVersion, scalar: u32, records: i64, shift: u32) -> String {
    let args = smem(v, 36);
    let at = smem(v, scalar);
    format!(
        ".gallium
.gpu {gpu}
.kernel k
    .args
        .arg in, global, 8
        .arg out, global, 8
    .config
        .dims x
.text
k:
    s_load_dwordx4 s[4:7], s[0:1], {args}
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s8, s4
    s_mov_b32 s9, s5
    s_mov_b32 s10, {records}
    s_mov_b32 s11, 0x27000
    s_mov_b32 s12, s6
    s_mov_b32 s13, s7
    s_mov_b32 s14, {records}
    s_mov_b32 s15, 0x27000
    v_lshlrev_b32 v1, {shift}, v0
    s_load_dword s16, s[4:5], {at}
    buffer_load_dword v2, v1, s[8:11], 0 offen
    s_waitcnt vmcnt(0) & lgkmcnt(0)
    v_xor_b32 v2, s16, v2
    buffer_store_dword v2, v1, s[12:15], 0 offen
    s_endpgm
",
        gpu = gpu(v)
    )
}

/// The PCs of the scalar load, the vector load and the store of
/// [`kernel`], found by their disassembly.
fn pcs(program: &Program) -> [u32; 3] {
    let ops = program.ops(0);
    let mut found = Vec::new();
    let mut pc = 0u32;
    while let Some(op) = ops.get((pc / 4) as usize) {
        let text = crate::exec::instruction_at(&ops, pc).unwrap_or_default();
        if text.starts_with("s_load_dword ")
            || text.starts_with("buffer_load_dword ")
            || text.starts_with("buffer_store_dword ")
        {
            found.push(pc);
        }
        pc += u32::from(op.len);
    }
    [found[0], found[1], found[2]]
}

struct Setup {
    memory: Memory,
    program: Program,
    input: Buffer<u32>,
    output: Buffer<u32>,
}

fn setup(v: GcnVersion, source: &str, inputs: usize, outputs: usize) -> Setup {
    let assembly = assemble(source, &AssembleOptions::default())
        .unwrap_or_else(|e| panic!("{v}: {e:?}\n{source}"));
    let binary = assembly.gallium_bytes().expect("gallium binary");
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, v).expect("loads");
    let data: Vec<u32> = (0..inputs as u32).map(|i| 0x100 + i).collect();
    let input = memory.buffer_from_slice(&data).expect("buffer");
    let output = memory.buffer_zeroed::<u32>(outputs).expect("buffer");
    Setup {
        memory,
        program,
        input,
        output,
    }
}

impl Setup {
    fn launch(&self, items: u32, checks: CheckOptions) -> Result<LaunchStats, LaunchError> {
        self.program.launch(
            "k",
            &[
                ArgValue::Pointer(self.input.ptr()),
                ArgValue::Pointer(self.output.ptr()),
            ],
            &Dispatch::new_1d(items, items),
            &LaunchOptions {
                threads: Some(1),
                checks,
                ..LaunchOptions::default()
            },
        )
    }
}

fn reports(r: Result<LaunchStats, LaunchError>, v: GcnVersion) -> Vec<CheckReport> {
    match r {
        Err(LaunchError::Check(reports)) => reports,
        other => panic!("{v}: expected check errors, got {other:?}"),
    }
}

#[test]
fn reads_and_writes_past_the_end_are_reported_and_complete() {
    for v in VERSIONS {
        // 8 items over 7-element buffers; the scalar load reads the dword
        // 4 bytes past the end of `in` (byte 32 of 28).
        let s = setup(v, &kernel(v, 32, -1, 2), 7, 7);
        let [scalar, load, store] = pcs(&s.program);
        let (inp, out) = (s.input.ptr().0, s.output.ptr().0);
        let r = reports(s.launch(8, CheckOptions::default()), v);
        assert_eq!(r.len(), 3, "{v}: {r:#?}");
        assert!(r
            .iter()
            .all(|r| r.check == Check::Oob && r.level == Level::Error));
        assert_eq!(
            (r[0].pc, r[0].lanes, r[0].message.as_str()),
            (
                scalar,
                None,
                format!(
                    "reads 4 bytes at {:#x}, 4 bytes past the end of the 28-byte allocation at {inp:#x} (argument 0)",
                    inp + 32
                )
                .as_str()
            ),
            "{v}"
        );
        assert_eq!(
            (r[1].pc, r[1].lanes, r[1].message.as_str()),
            (
                load,
                Some(1 << 7),
                format!(
                    "reads 4 bytes at {:#x}, 0 bytes past the end of the 28-byte allocation at {inp:#x} (argument 0)",
                    inp + 28
                )
                .as_str()
            ),
            "{v}"
        );
        assert_eq!(
            (r[2].pc, r[2].lanes, r[2].message.as_str()),
            (
                store,
                Some(1 << 7),
                format!(
                    "writes 4 bytes at {:#x}, 0 bytes past the end of the 28-byte allocation at {out:#x} (argument 1)",
                    out + 28
                )
                .as_str()
            ),
            "{v}"
        );
        let text = r[2].to_string();
        assert!(
            text.contains("error[oob]: `buffer_store_dword v2, v1, s[12:15], 0 offen` writes"),
            "{v}: {text}"
        );
        assert!(
            text.ends_with("[wave 0 of group (0, 0, 0), lanes 7]"),
            "{v}: {text}"
        );
        // The run completed: the slack read as zeros, the in-bounds
        // outputs are right, the stray store landed in the slack.
        assert_eq!(
            s.output.to_vec(),
            (0..7).map(|i| 0x100 + i).collect::<Vec<u32>>(),
            "{v}"
        );
        let mut slack = [0u8; 4];
        s.memory.view().read(out + 28, &mut slack).unwrap();
        assert_eq!(u32::from_le_bytes(slack), 0, "{v}: lane 7 stored in[7] = 0");
        assert!(s.memory.read(out + 28, &mut slack).is_err(), "{v}");

        // The fixed twin: buffers as large as the kernel reads.
        let s = setup(v, &kernel(v, 32, -1, 2), 9, 8);
        s.launch(8, CheckOptions::default())
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(
            s.output.to_vec(),
            (0..8).map(|i| (0x100 + i) ^ 0x108).collect::<Vec<u32>>(),
            "{v}"
        );
    }
}

/// The common case is taken from the allocation an instruction used last
/// (`oob::after`'s cache): the same instruction inside its buffer in the
/// first waves and past its end in the last is still reported, for the
/// last wave's stray lanes only.
#[test]
fn a_stray_after_accesses_inside_the_same_buffer_is_reported() {
    for v in VERSIONS {
        // 256 items in one work-group of four waves over 250-element
        // buffers: the first three waves stay inside, lanes 58–63 of the
        // last stray.
        let s = setup(v, &kernel(v, 0, -1, 2), 250, 250);
        let [_, load, store] = pcs(&s.program);
        let launch = |checks: CheckOptions| {
            s.program.launch(
                "k",
                &[
                    ArgValue::Pointer(s.input.ptr()),
                    ArgValue::Pointer(s.output.ptr()),
                ],
                &Dispatch::new_1d(256, 256),
                &LaunchOptions {
                    threads: Some(1),
                    checks,
                    ..LaunchOptions::default()
                },
            )
        };
        let r = reports(launch(CheckOptions::default()), v);
        let oob: Vec<_> = r.iter().filter(|r| r.check == Check::Oob).collect();
        assert_eq!(
            oob.iter().map(|r| (r.pc, r.lanes)).collect::<Vec<_>>(),
            [(load, Some(0x3f << 58)), (store, Some(0x3f << 58))],
            "{v}: {r:#?}"
        );
        assert!(
            oob[0]
                .to_string()
                .contains("[wave 3 of group (0, 0, 0), lanes 58–63]"),
            "{v}: {}",
            oob[0]
        );
    }
}

#[test]
fn levels_warn_and_off() {
    for v in VERSIONS {
        let s = setup(v, &kernel(v, 28, -1, 2), 7, 7);
        let stats = s
            .launch(
                8,
                CheckOptions {
                    oob: Level::Warn,
                    ..CheckOptions::default()
                },
            )
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(stats.check_warnings, 3, "{v}");
        let stats = s
            .launch(
                8,
                CheckOptions {
                    oob: Level::Off,
                    ..CheckOptions::default()
                },
            )
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(stats.check_warnings, 0, "{v}");
        // The plain interpreter completes the same run.
        s.launch(8, CheckOptions::off())
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(
            s.output.to_vec()[..7],
            (0..7).map(|i| 0x100 + i).collect::<Vec<u32>>()[..]
        );
    }
}

#[test]
fn outside_every_page_is_still_a_fault() {
    for v in VERSIONS {
        // A 4 KiB stride: lane 1 reads the first byte past `in`'s page.
        let s = setup(v, &kernel(v, 0, -1, 12), 7, 7);
        let [_, load, _] = pcs(&s.program);
        let inp = s.input.ptr().0;
        for checks in [CheckOptions::default(), CheckOptions::off()] {
            match s.launch(2, checks) {
                Err(LaunchError::Exec(e)) => {
                    assert_eq!((e.pc, e.lane), (load, Some(1)), "{v}: {e}");
                    assert!(
                        matches!(e.kind, FaultKind::Memory(m) if m.address == inp + 4096),
                        "{v}: {e}"
                    );
                    assert!(
                        e.to_string().contains("is outside every allocation"),
                        "{v}: {e}"
                    );
                    assert_eq!(
                        e.note.as_deref(),
                        Some(
                            format!(
                                "4068 bytes past the end of the 28-byte allocation at {inp:#x} (argument 0)"
                            )
                            .as_str()
                        ),
                        "{v}"
                    );
                }
                other => panic!("{v}: expected a fault, got {other:?}"),
            }
        }
    }
}

#[test]
fn buffer_accesses_outside_the_descriptor_range_are_not_reported() {
    for v in VERSIONS {
        // 28-byte descriptors over the 7-element buffers: lane 7's load
        // reads 0 and its store is dropped — defined, not an oob access.
        let s = setup(v, &kernel(v, 24, 28, 2), 7, 7);
        let stats = s
            .launch(8, CheckOptions::default())
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(stats.check_warnings, 0, "{v}");
        assert_eq!(
            s.output.to_vec(),
            (0..7).map(|i| (0x100 + i) ^ 0x106).collect::<Vec<u32>>(),
            "{v}"
        );
        let mut slack = [0xffu8; 4];
        s.memory
            .view()
            .read(s.output.ptr().0 + 28, &mut slack)
            .unwrap();
        assert_eq!(slack, [0; 4], "{v}: the store was dropped");
    }
}

/// [`kernel`] for one item whose vector load is `buffer_load_dwordx4
/// v[2:5]` at byte `offset` of `in` and whose stored value is `s16 ^
/// v{reg}`.
fn wide_load(v: GcnVersion, offset: u32, reg: u32) -> String {
    kernel(v, 24, -1, 2)
        .replace(
            "buffer_load_dword v2, v1, s[8:11], 0 offen",
            &format!("buffer_load_dwordx4 v[2:5], v1, s[8:11], 0 offen offset:{offset}"),
        )
        .replace(
            "v_xor_b32 v2, s16, v2",
            &format!("v_xor_b32 v2, s16, v{reg}"),
        )
}

#[test]
fn an_aligned_partial_load_passes_and_its_bytes_past_the_end_are_undefined() {
    for v in VERSIONS {
        // Memcheck's partial-loads rule: 16 bytes at byte 16 of a 28-byte
        // buffer (aligned to 16) and an 8-byte scalar load at byte 24
        // (scalar memory is dword-granular) are no oob reports.
        let source = wide_load(v, 16, 2).replace(
            "s_load_dword s16, s[4:5]",
            "s_load_dwordx2 s[16:17], s[4:5]",
        );
        let s = setup(v, &source, 7, 7);
        s.launch(1, CheckOptions::default())
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(s.output.to_vec()[0], 0x104 ^ 0x106, "{v}");
        // The bytes past the end are undefined: a value computed from them
        // and stored is an `uninit` report naming them.
        let s = setup(v, &wide_load(v, 16, 5), 7, 7);
        let inp = s.input.ptr().0;
        let r = reports(s.launch(1, CheckOptions::default()), v);
        assert_eq!(r.len(), 1, "{v}: {r:#?}");
        assert_eq!(r[0].check, Check::Uninit, "{v}: {r:#?}");
        assert!(
            r[0].message.contains(&format!(
                "the bytes past the end of the 28-byte allocation at {inp:#x} (a partial load)"
            )),
            "{v}: {}",
            r[0].message
        );
    }
}

#[test]
fn a_misaligned_partial_load_and_a_partial_store_are_reported() {
    for v in VERSIONS {
        // 16 bytes at byte 20 of 28: not aligned to 16.
        let s = setup(v, &wide_load(v, 20, 2), 7, 7);
        let inp = s.input.ptr().0;
        let r = reports(s.launch(1, CheckOptions::default()), v);
        let oob: Vec<&CheckReport> = r.iter().filter(|r| r.check == Check::Oob).collect();
        assert_eq!(oob.len(), 1, "{v}: {r:#?}");
        assert_eq!(
            oob[0].message,
            format!(
                "reads 16 bytes at {:#x}, its last 8 bytes past the end of the 28-byte allocation at {inp:#x} (argument 0)",
                inp + 20
            ),
            "{v}"
        );
        assert_eq!(oob[0].lanes, Some(1), "{v}");
        // A store is never partial-ok: 8 bytes at byte 24 of 28.
        let source = kernel(v, 24, -1, 2).replace(
            "buffer_store_dword v2, v1, s[12:15], 0 offen",
            "v_mov_b32 v3, v2\n    buffer_store_dwordx2 v[2:3], v1, s[12:15], 0 offen offset:24",
        );
        let s = setup(v, &source, 7, 7);
        let out = s.output.ptr().0;
        let r = reports(s.launch(1, CheckOptions::default()), v);
        assert_eq!(r.len(), 1, "{v}: {r:#?}");
        assert_eq!(
            r[0].message,
            format!(
                "writes 8 bytes at {:#x}, its last 4 bytes past the end of the 28-byte allocation at {out:#x} (argument 1)",
                out + 24
            ),
            "{v}"
        );
    }
}

#[test]
fn the_check_is_named_and_set_like_the_others() {
    assert_eq!(Check::Oob.name(), "oob");
    assert_eq!("oob".parse::<Check>(), Ok(Check::Oob));
    assert!(Check::ALL.contains(&Check::Oob));
    assert_eq!(CheckOptions::default().oob, Level::Error);
    let mut o = CheckOptions::default();
    o.apply("oob=warn").unwrap();
    assert_eq!((o.oob, o.uninit), (Level::Warn, Level::Error));
    o.apply("all=off").unwrap();
    assert_eq!(o.level(Check::Oob), Level::Off);
    assert!(o.is_off());
    let e = "nope".parse::<Check>().unwrap_err();
    assert!(e.contains("uninit or oob"), "{e}");
}

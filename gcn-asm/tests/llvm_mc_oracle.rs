//! A second oracle for encodings: LLVM 14's `llvm-mc` (DESIGN.md test layer 3).
//!
//! For every ALU row of the ISA table on every GCN version, and for the DS,
//! MUBUF and FLAT/GLOBAL/SCRATCH rows that have a plain form LLVM spells as
//! clrxasm does, one instruction with plain register operands is
//! synthesised and assembled by `gcn-asm` and by `llvm-mc -show-encoding`. Where LLVM accepts the same text, the
//! encodings must agree. Mnemonics LLVM does not know (or spells
//! differently) are counted, not compared. Skipped with a notice when
//! `llvm-mc` is not installed.

use std::io::Write;
use std::process::{Command, Stdio};

use gcn_asm::isa::{flags, DataType, Encoding, Field, InstrRow, OperandSpec, INSTRUCTIONS};
use gcn_asm::{assemble, AssembleOptions, Device, GcnVersion};

/// A plain operand for `spec`, at a position that keeps every register
/// different and aligned.
fn operand(spec: &OperandSpec, index: usize, encoding: Encoding) -> Option<String> {
    let n = spec.registers() as usize;
    let range = |prefix: &str, base: usize| {
        if n == 1 {
            format!("{prefix}{base}")
        } else {
            format!("{prefix}[{base}:{}]", base + n - 1)
        }
    };
    Some(match spec.field {
        Field::Vdst => range("v", 8),
        Field::Src0 | Field::Vsrc0 => range("v", 16),
        Field::Src1 | Field::Vsrc1 => range("v", 24),
        Field::Src2 => range("v", 32),
        Field::Sdst if matches!(encoding, Encoding::Vopc | Encoding::Vop2) && n == 2 => {
            "vcc".into()
        }
        Field::Ssrc2 => "vcc".into(),
        Field::Sdst | Field::Sdata => range("s", 8),
        Field::Ssrc0 => range("s", 16),
        Field::Ssrc1 => range("s", 20 + 4 * index),
        Field::Sbase => range("s", 4),
        Field::Soffset => "0x10".into(),
        Field::Simm16 | Field::Imm16 => "0x123".into(),
        _ => return None,
    })
}

/// A plain memory instruction for `row`, when there is one both
/// assemblers spell alike: DS without GDS, MUBUF with `offen` (and, added
/// by `synthesise`, with VADDR `off`), FLAT loads,
/// stores and non-returning atomics, GLOBAL/SCRATCH with SADDR `off`.
/// MTBUF (LLVM 14 spells the format differently), MIMG, EXP and the GWS
/// instructions (clrxasm puts their operand in ADDR) are left to the
/// conformance suite, as are `ds_ordered_count` and `buffer_store_lds_dword`,
/// where LLVM sets the GDS/LDS bit implicitly and clrxasm only on request.
fn memory_line(row: &InstrRow, version: GcnVersion) -> Option<String> {
    if matches!(row.mnemonic, "ds_ordered_count" | "buffer_store_lds_dword") {
        return None;
    }
    let range = |base: usize, n: u16| {
        if n == 1 {
            format!("v{base}")
        } else {
            format!("v[{base}:{}]", base + usize::from(n) - 1)
        }
    };
    let mut ops = Vec::new();
    match row.encoding {
        Encoding::Ds => {
            if row.has(flags::GDS_ONLY) {
                return None;
            }
            for spec in row.operands {
                let base = match spec.field {
                    Field::Vdst => 8,
                    Field::Vaddr => 2,
                    Field::Vdata => 16,
                    _ => 24,
                };
                ops.push(range(base, spec.registers()));
            }
        }
        Encoding::Mubuf => {
            if row.has(flags::NO_OPERANDS) {
                return Some(row.mnemonic.to_string());
            }
            for spec in row.operands {
                match spec.field {
                    Field::Vdata => {
                        let mut n = spec.registers();
                        if row.has(flags::D16) && version.is_gcn14() {
                            n = n.div_ceil(2);
                        }
                        ops.push(range(16, n));
                        ops.push("v2".into());
                    }
                    Field::Srsrc => ops.push("s[4:7]".into()),
                    Field::Soffset => ops.push("s1".into()),
                    _ => {}
                }
            }
            if ops.len() == 4 {
                return Some(format!("{} {} offen", row.mnemonic, ops.join(", ")));
            }
        }
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            for spec in row.operands {
                match spec.field {
                    // Atomics in their non-returning form.
                    Field::Vdst if row.has(flags::ATOMIC) => {}
                    Field::Vdst => ops.push(range(8, spec.registers())),
                    Field::Vaddr if row.encoding == Encoding::Scratch => ops.push("v2".into()),
                    Field::Vaddr => ops.push("v[2:3]".into()),
                    Field::Vdata => ops.push(range(16, spec.registers())),
                    _ => ops.push("off".into()),
                }
            }
        }
        _ => return None,
    }
    Some(format!("{} {}", row.mnemonic, ops.join(", ")))
}

fn synthesise(version: GcnVersion) -> Vec<String> {
    let mut lines = Vec::new();
    for row in INSTRUCTIONS.iter() {
        if row.opcode(version).is_none() {
            continue;
        }
        if matches!(
            row.encoding,
            Encoding::Vintrp
                | Encoding::Ds
                | Encoding::Mubuf
                | Encoding::Mtbuf
                | Encoding::Mimg
                | Encoding::Exp
                | Encoding::Flat
                | Encoding::Global
                | Encoding::Scratch
        ) {
            let line = memory_line(row, version);
            // MUBUF also with VADDR `off` (no address).
            if let Some(plain) = line.as_deref().and_then(|l| l.strip_suffix(" offen")) {
                if row.encoding == Encoding::Mubuf {
                    lines.push(plain.replacen(", v2, s[4:7]", ", off, s[4:7]", 1));
                }
            }
            lines.extend(line);
            continue;
        }
        let mut ops = Vec::new();
        let mut ok = true;
        for (i, spec) in row.operands.iter().enumerate() {
            match operand(spec, i, row.encoding) {
                Some(o) => ops.push(o),
                None => ok = false,
            }
        }
        // 16-bit packed and exotic types stay in the conformance suite.
        if !ok || row.operands.iter().any(|o| o.ty == DataType::B16) {
            continue;
        }
        let mut line = if ops.is_empty() {
            row.mnemonic.to_string()
        } else {
            format!("{} {}", row.mnemonic, ops.join(", "))
        };
        // clrxasm and LLVM default `op_sel_hi` of the mixed-precision
        // instructions differently (all ones vs zero): spell it out.
        if row.has(flags::MIX) {
            line.push_str(" op_sel_hi:[0,0,0]");
        }
        lines.push(line);
    }
    lines.sort();
    lines.dedup();
    lines
}

/// Runs llvm-mc on `lines`; returns, per input line, its encoding bytes or
/// `None` when llvm-mc rejected the line.
fn llvm_mc(cpu: &str, lines: &[String]) -> Option<Vec<Option<Vec<u8>>>> {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", &format!("-mcpu={cpu}"), "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let input = lines.join("\n") + "\n";
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut rejected = vec![false; lines.len()];
    for line in stderr.lines() {
        // <stdin>:LINE:COL: error: ...
        let mut parts = line.splitn(4, ':');
        if parts.next() != Some("<stdin>") {
            continue;
        }
        if let Some(n) = parts.next().and_then(|n| n.parse::<usize>().ok()) {
            if line.contains("error") && n >= 1 && n <= lines.len() {
                rejected[n - 1] = true;
            }
        }
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut encodings = stdout.lines().filter_map(|l| {
        let start = l.find("encoding: [")? + "encoding: [".len();
        let end = l[start..].find(']')? + start;
        Some(
            l[start..end]
                .split(',')
                .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
                .collect::<Vec<u8>>(),
        )
    });
    Some(
        rejected
            .iter()
            .map(|&r| if r { None } else { encodings.next() })
            .collect(),
    )
}

#[test]
fn encodings_agree_with_llvm_mc() {
    if Command::new("llvm-mc").arg("--version").output().is_err() {
        println!("notice: llvm-mc not found; the second encoding oracle is skipped");
        return;
    }
    let targets = [
        (GcnVersion::Gcn1_0, Device::Tahiti, "tahiti"),
        (GcnVersion::Gcn1_1, Device::Bonaire, "bonaire"),
        (GcnVersion::Gcn1_2, Device::Tonga, "tonga"),
        (GcnVersion::Gcn1_4, Device::Gfx900, "gfx900"),
    ];
    let mut mismatches = Vec::new();
    for (version, device, cpu) in targets {
        let lines = synthesise(version);
        let Some(theirs) = llvm_mc(cpu, &lines) else {
            println!("notice: llvm-mc could not be run");
            return;
        };
        let options = AssembleOptions {
            device: Some(device),
            ..AssembleOptions::default()
        };
        let (mut compared, mut agreed, mut llvm_rejected) = (0, 0, 0);
        for (line, theirs) in lines.iter().zip(theirs) {
            let Some(theirs) = theirs else {
                llvm_rejected += 1;
                continue;
            };
            let ours = match assemble(line, &options) {
                Ok(a) => a.text().to_vec(),
                Err(e) => {
                    mismatches.push(format!("{version}: `{line}`: rejected: {e}"));
                    continue;
                }
            };
            compared += 1;
            if ours == theirs {
                agreed += 1;
            } else {
                mismatches.push(format!(
                    "{version}: `{line}`: ours {ours:02x?}, llvm-mc {theirs:02x?}"
                ));
            }
        }
        println!(
            "{version}: {} instructions, {compared} compared, {agreed} agree, {llvm_rejected} not accepted by llvm-mc",
            lines.len()
        );
    }
    for m in &mismatches {
        println!("  {m}");
    }
    assert!(
        mismatches.is_empty(),
        "{} encodings differ from llvm-mc",
        mismatches.len()
    );
}

//! Every line of `tests/data/encoder_errors.txt` must be rejected with an
//! error at the given column whose message contains the given fragment.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

#[test]
fn encoder_error_corpus() {
    let corpus = include_str!("data/encoder_errors.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for (index, line) in corpus.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
        assert_eq!(fields.len(), 4, "line {}: bad corpus line", index + 1);
        let version = GcnVersion::from_arch_name(fields[0]).expect("known arch");
        let column: u32 = fields[2].parse().expect("column");
        let options = AssembleOptions {
            version: Some(version),
            ..AssembleOptions::default()
        };
        count += 1;
        match assemble(fields[1], &options) {
            Ok(_) => failures.push(format!("line {}: `{}` was accepted", index + 1, fields[1])),
            Err(diags) => {
                let first = diags.errors().next().expect("at least one error");
                if !first.message.contains(fields[3]) || first.pos.column != column {
                    failures.push(format!(
                        "line {}: `{}`: got {}:{}: {}; expected column {column} and `{}`",
                        index + 1,
                        fields[1],
                        first.pos.line,
                        first.pos.column,
                        first.message,
                        fields[3]
                    ));
                }
            }
        }
    }
    assert!(count > 40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Issue 11 item 6: a 64-bit value as a 32-bit literal is truncated with a
/// warning, as clrxasm does (it was an error); floats up to the largest
/// finite value of their precision stay values.
#[test]
fn values_that_do_not_fit() {
    /// Source, expected words, expected warning (column, fragment).
    type Case = (&'static str, &'static [u32], Option<(u32, &'static str)>);
    let cases: &[Case] = &[
        // 3254500000000 = 0x2f5_bf51_0100: the low 32 bits.
        (
            "s_add_u32 s21, s4, 3254500000000",
            &[0x8015_ff04, 0xbf51_0100],
            Some((20, "truncated to 0xbf510100")),
        ),
        (
            "s_mov_b32 s0, -0x100000001",
            &[0xbe80_03ff, 0xffff_ffff],
            Some((15, "was truncated")),
        ),
        (
            "s_mov_b32 s0, lit(0x100000000)",
            &[0xbe80_03ff, 0x0000_0000],
            Some((19, "was truncated")),
        ),
        // A forward reference is truncated the same way when it resolves.
        (
            "s_mov_b32 s0, y\ny = 0x100000005",
            &[0xbe80_03ff, 0x0000_0005],
            Some((15, "was truncated")),
        ),
        // Still in range: no warning.
        (
            "s_mov_b32 s0, 0xffffffff",
            &[0xbe80_03ff, 0xffff_ffff],
            None,
        ),
        (
            "s_mov_b32 s0, -0x80000000",
            &[0xbe80_03ff, 0x8000_0000],
            None,
        ),
        // 65519 rounds to 65504 (0x7bff); 3.4e38 is a finite single.
        (".half 65519, 0", &[0x0000_7bff], None),
        ("v_mov_b32 v1, 3.4e38", &[0x7e02_02ff, 0x7f7f_c99e], None),
    ];
    let options = AssembleOptions {
        version: Some(GcnVersion::Gcn1_0),
        ..AssembleOptions::default()
    };
    for &(source, words, warning) in cases {
        let out = assemble(source, &options).unwrap_or_else(|d| panic!("{source}: {d}"));
        let got: Vec<u32> = out
            .text()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(got, words, "{source}");
        match warning {
            None => assert!(out.warnings.is_empty(), "{source}: {:?}", out.warnings),
            Some((column, fragment)) => {
                let w = out
                    .warnings
                    .first()
                    .unwrap_or_else(|| panic!("{source}: no warning"));
                assert!(
                    w.message.contains(fragment) && w.pos.column == column,
                    "{source}: {}:{}",
                    w.pos.column,
                    w.message
                );
            }
        }
    }
}

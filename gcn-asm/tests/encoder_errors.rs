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

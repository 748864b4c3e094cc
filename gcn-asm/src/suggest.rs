//! "Did you mean …?": the closest of a set of names to one a user typed
//! (Damerau-Levenshtein distance, as rustc and clap suggest), for unknown
//! instructions, kernels, devices and argument symbols.

/// The edit distance between `a` and `b` (insertions, deletions,
/// substitutions and swaps of two neighbours each cost 1), compared
/// case-insensitively.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // Three rows of the optimal-string-alignment table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate closest to `typed`, when it is close enough to be what
/// was meant: at most a third of the typed length away (at least 1, at
/// most 3 edits); ties go to the earlier candidate.
pub fn closest<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (typed.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (distance(typed, c), c))
        .filter(|&(d, _)| d <= limit && d > 0)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// `"; did you mean `NAME`?"` for the closest candidate, or nothing.
pub fn did_you_mean<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(typed, candidates)
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_suggestions() {
        assert_eq!(distance("v_add_f23", "v_add_f32"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("GFX803", "gfx803"), 0);
        assert_eq!(
            closest("v_add_f23", ["v_add_f32", "v_add_f16", "v_sub_f32"]),
            Some("v_add_f32")
        );
        assert_eq!(closest("gfx8033", ["gfx803", "gfx900"]), Some("gfx803"));
        assert_eq!(closest("vad", ["vadd", "sum"]), Some("vadd"));
        // Too far to be a typo: no suggestion.
        assert_eq!(closest("zzzzzz", ["vadd", "gfx900"]), None);
        assert_eq!(did_you_mean("vaddd", ["vadd"]), "; did you mean `vadd`?");
        assert_eq!(did_you_mean("q", ["vadd"]), "");
    }
}

#[cfg(test)]
mod assembler_tests {
    use crate::{assemble, AssembleOptions};

    /// A misspelt symbol gets the defined one it probably means, its
    /// scope path kept.
    #[test]
    fn undefined_symbols_suggest_a_defined_one() {
        let e = assemble(
            ".gpu tonga\nstride = 16\ns_mov_b32 s1, strid\n",
            &AssembleOptions::default(),
        )
        .unwrap_err();
        let m = &e.errors().next().unwrap().message;
        assert_eq!(m, "undefined symbol 'strid'; did you mean `stride`?");
        let e = assemble(
            ".gpu tonga\n.scope vadd\n  count = 4\n.ends\ns_mov_b32 s1, vadd::cuont\n",
            &AssembleOptions::default(),
        )
        .unwrap_err();
        let m = &e.errors().next().unwrap().message;
        assert_eq!(m, "undefined symbol 'cuont'; did you mean `count`?");
        // Nothing close: no guess.
        let e = assemble(
            ".gpu tonga\ns_mov_b32 s1, zzzzzz\n",
            &AssembleOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            e.errors().next().unwrap().message,
            "undefined symbol 'zzzzzz'"
        );
    }

    /// An unknown mnemonic gets the closest one of the version.
    #[test]
    fn unknown_instructions_suggest_a_mnemonic() {
        let e = assemble(
            ".gpu tonga\nv_add_f23 v1, v2, v3\n",
            &AssembleOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            e.errors().next().unwrap().message,
            "unknown instruction `v_add_f23`; did you mean `v_add_f32`?"
        );
    }
}

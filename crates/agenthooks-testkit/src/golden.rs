//! Expected files ("goldens"): compare, or rewrite in bless mode, with a readable line diff.
//!
//! ```
//! use agenthooks_testkit::golden::line_diff;
//! let d = line_diff("a\nb\nc\n", "a\nB\nc\n");
//! assert_eq!(d, "  a\n- b\n+ B\n  c\n");
//! ```

use std::path::Path;

use crate::BLESS_ENV;

/// Whether bless mode is on (`AGENTHOOKS_BLESS` set to anything but `""` or `0`).
pub fn blessing() -> bool {
    std::env::var(BLESS_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Compares `actual` with the file at `path`; in bless mode writes it instead (creating parent
/// directories, only when the content changed). The error is a message naming the file, with a
/// line diff (`-` expected, `+` actual).
pub fn check(path: &Path, actual: &str, bless: bool) -> Result<(), String> {
    let expected = std::fs::read_to_string(path).ok();
    if bless {
        if expected.as_deref() == Some(actual) {
            return Ok(());
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("{}: cannot create directory: {e}", parent.display()))?;
        }
        return std::fs::write(path, actual).map_err(|e| format!("{}: cannot write: {e}", path.display()));
    }
    match expected {
        None => Err(format!(
            "{}: expected file is missing (run with {BLESS_ENV}=1 to create it)",
            path.display()
        )),
        Some(e) if e == actual => Ok(()),
        Some(e) => Err(format!(
            "{}: differs from the actual output (- expected, + actual; run with {BLESS_ENV}=1 to accept):\n{}",
            path.display(),
            line_diff(&e, actual)
        )),
    }
}

/// A line diff of two texts: unchanged lines prefixed `"  "`, removed `"- "`, added `"+ "`.
/// Long unchanged runs are elided to three lines of context around each change.
#[allow(clippy::many_single_char_names)]
pub fn line_diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let ops = diff_ops(&a, &b);
    // Mark which ops to show: changes plus 3 lines of context.
    let n = ops.len();
    let mut show = vec![false; n];
    for (i, op) in ops.iter().enumerate() {
        if !matches!(op, Op::Same(_)) {
            for s in show.iter_mut().take((i + 4).min(n)).skip(i.saturating_sub(3)) {
                *s = true;
            }
        }
    }
    let mut out = String::new();
    // With no changed line at all, print nothing but the final-newline note.
    let mut elided = !show.contains(&true);
    for (i, op) in ops.iter().enumerate() {
        if !show[i] {
            if !elided {
                out.push_str("  …\n");
                elided = true;
            }
            continue;
        }
        elided = false;
        let (p, l) = match op {
            Op::Same(l) => ("  ", l),
            Op::Del(l) => ("- ", l),
            Op::Add(l) => ("+ ", l),
        };
        out.push_str(p);
        out.push_str(l);
        out.push('\n');
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("  (the files differ in their final newline)\n");
    }
    out
}

enum Op<'a> {
    Same(&'a str),
    Del(&'a str),
    Add(&'a str),
}

#[allow(clippy::many_single_char_names)]
fn diff_ops<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Op<'a>> {
    // Common prefix and suffix first, then an LCS table on the middle (bounded size).
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let am = &a[pre..a.len() - suf];
    let bm = &b[pre..b.len() - suf];
    let mut ops: Vec<Op<'a>> = a[..pre].iter().map(|l| Op::Same(l)).collect();
    if am.len().saturating_mul(bm.len()) > 4_000_000 {
        ops.extend(am.iter().map(|l| Op::Del(l)));
        ops.extend(bm.iter().map(|l| Op::Add(l)));
    } else {
        let (n, m) = (am.len(), bm.len());
        let mut t = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                t[i * (m + 1) + j] = if am[i] == bm[j] {
                    t[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    t[(i + 1) * (m + 1) + j].max(t[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n && j < m {
            if am[i] == bm[j] {
                ops.push(Op::Same(am[i]));
                i += 1;
                j += 1;
            } else if t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1] {
                ops.push(Op::Del(am[i]));
                i += 1;
            } else {
                ops.push(Op::Add(bm[j]));
                j += 1;
            }
        }
        ops.extend(am[i..].iter().map(|l| Op::Del(l)));
        ops.extend(bm[j..].iter().map(|l| Op::Add(l)));
    }
    ops.extend(a[a.len() - suf..].iter().map(|l| Op::Same(l)));
    ops
}

/// Pretty-prints a JSON value with a trailing newline (the format of every expected file).
pub fn pretty(v: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".to_owned());
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_changes_with_context() {
        let a: String = (1..=20)
            .flat_map(|i| ["l".to_owned(), i.to_string(), "\n".to_owned()])
            .collect();
        let b = a.replace("l10\n", "L10\nextra\n");
        let d = line_diff(&a, &b);
        assert_eq!(
            d,
            "  …\n  l7\n  l8\n  l9\n- l10\n+ L10\n+ extra\n  l11\n  l12\n  l13\n  …\n"
        );
        assert_eq!(line_diff("x", "x\n"), "  (the files differ in their final newline)\n");
    }

    #[test]
    fn check_and_bless() {
        let dir = std::env::temp_dir().join(format!("agenthooks-testkit-golden-{}", std::process::id()));
        let p = dir.join("sub/e.json");
        let err = check(&p, "{}\n", false).unwrap_err();
        assert!(err.contains("expected file is missing"), "{err}");
        check(&p, "{}\n", true).unwrap();
        check(&p, "{}\n", false).unwrap();
        let err = check(&p, "[]\n", false).unwrap_err();
        assert!(err.ends_with("- {}\n+ []\n"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! A small line diff (LCS) producing unified-diff hunks, for `diff` output.

use std::fmt::Write as _;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Del,
    Ins,
}

/// Above this many cells the diff falls back to "everything replaced".
const MAX_CELLS: usize = 4_000_000;

fn script(old: &[&str], new: &[&str]) -> Vec<Op> {
    let (rows, cols) = (old.len(), new.len());
    if rows.saturating_mul(cols) > MAX_CELLS {
        let mut ops = vec![Op::Del; rows];
        ops.extend(std::iter::repeat_n(Op::Ins, cols));
        return ops;
    }
    // lcs[at(r, c)] = LCS length of old[r..], new[c..]
    let mut lcs = vec![0u32; (rows + 1) * (cols + 1)];
    let at = |r: usize, c: usize| r * (cols + 1) + c;
    for r in (0..rows).rev() {
        for c in (0..cols).rev() {
            lcs[at(r, c)] = if old[r] == new[c] {
                lcs[at(r + 1, c + 1)] + 1
            } else {
                lcs[at(r + 1, c)].max(lcs[at(r, c + 1)])
            };
        }
    }
    let (mut r, mut c) = (0, 0);
    let mut ops = Vec::with_capacity(rows + cols);
    while r < rows || c < cols {
        if r < rows && c < cols && old[r] == new[c] {
            ops.push(Op::Eq);
            r += 1;
            c += 1;
        } else if r < rows && (c == cols || lcs[at(r + 1, c)] >= lcs[at(r, c + 1)]) {
            ops.push(Op::Del);
            r += 1;
        } else {
            ops.push(Op::Ins);
            c += 1;
        }
    }
    ops
}

/// Unified-diff hunks (without the `---`/`+++` header) with `context` lines of context.
pub(crate) fn unified(before: &str, after: &str, context: usize) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let ops = script(&old, &new);
    // Line positions (in old, in new) before each op.
    let mut pos = Vec::with_capacity(ops.len() + 1);
    let (mut line_old, mut line_new) = (0usize, 0usize);
    for op in &ops {
        pos.push((line_old, line_new));
        match op {
            Op::Eq => {
                line_old += 1;
                line_new += 1;
            }
            Op::Del => line_old += 1,
            Op::Ins => line_new += 1,
        }
    }
    pos.push((line_old, line_new));
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, o)| **o != Op::Eq)
        .map(|(idx, _)| idx)
        .collect();
    let mut out = String::new();
    let mut next = 0;
    while next < changed.len() {
        let first = changed[next].saturating_sub(context);
        let mut last = changed[next] + 1;
        while next + 1 < changed.len() && changed[next + 1] <= last + 2 * context {
            next += 1;
            last = changed[next] + 1;
        }
        let last = (last + context).min(ops.len());
        let (old_from, new_from) = pos[first];
        let (old_to, new_to) = pos[last];
        let range = |from: usize, len: usize| match len {
            0 => format!("{from},0"),
            1 => format!("{}", from + 1),
            _ => format!("{},{len}", from + 1),
        };
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            range(old_from, old_to - old_from),
            range(new_from, new_to - new_from)
        );
        for idx in first..last {
            let (in_old, in_new) = pos[idx];
            let _ = match ops[idx] {
                Op::Eq => writeln!(out, " {}", old[in_old]),
                Op::Del => writeln!(out, "-{}", old[in_old]),
                Op::Ins => writeln!(out, "+{}", new[in_new]),
            };
        }
        next += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks() {
        let a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
        assert_eq!(unified(a, b, 1), "@@ -4,3 +4,3 @@\n 4\n-5\n+five\n 6\n");
        assert_eq!(unified(a, a, 3), "");
        assert_eq!(unified("", "x\n", 3), "@@ -0,0 +1 @@\n+x\n");
        let far = unified("a\nb\nc\nd\ne\nf\ng\nh\n", "A\nb\nc\nd\ne\nf\ng\nH\n", 1);
        assert_eq!(far.matches("@@ -").count(), 2);
    }
}

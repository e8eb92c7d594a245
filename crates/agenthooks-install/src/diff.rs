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

fn script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len(), b.len());
    if n.saturating_mul(m) > MAX_CELLS {
        let mut ops = vec![Op::Del; n];
        ops.extend(std::iter::repeat_n(Op::Ins, m));
        return ops;
    }
    // lcs[i][j] = LCS length of a[i..], b[j..]
    let mut lcs = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[at(i, j)] = if a[i] == b[j] {
                lcs[at(i + 1, j + 1)] + 1
            } else {
                lcs[at(i + 1, j)].max(lcs[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push(Op::Eq);
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[at(i + 1, j)] >= lcs[at(i, j + 1)]) {
            ops.push(Op::Del);
            i += 1;
        } else {
            ops.push(Op::Ins);
            j += 1;
        }
    }
    ops
}

/// Unified-diff hunks (without the `---`/`+++` header) with `context` lines of context.
pub(crate) fn unified(a: &str, b: &str, context: usize) -> String {
    let al: Vec<&str> = a.lines().collect();
    let bl: Vec<&str> = b.lines().collect();
    let ops = script(&al, &bl);
    // Positions (line in a, line in b) before each op.
    let mut pos = Vec::with_capacity(ops.len() + 1);
    let (mut i, mut j) = (0usize, 0usize);
    for op in &ops {
        pos.push((i, j));
        match op {
            Op::Eq => {
                i += 1;
                j += 1;
            }
            Op::Del => i += 1,
            Op::Ins => j += 1,
        }
    }
    pos.push((i, j));
    let changed: Vec<usize> = ops.iter().enumerate().filter(|(_, o)| **o != Op::Eq).map(|(k, _)| k).collect();
    let mut out = String::new();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(context);
        let mut end = changed[k] + 1;
        while k + 1 < changed.len() && changed[k + 1] <= end + 2 * context {
            k += 1;
            end = changed[k] + 1;
        }
        let end = (end + context).min(ops.len());
        let (a0, b0) = pos[start];
        let (a1, b1) = pos[end];
        let range = |s: usize, len: usize| match len {
            0 => format!("{s},0"),
            1 => format!("{}", s + 1),
            _ => format!("{},{len}", s + 1),
        };
        let _ = writeln!(out, "@@ -{} +{} @@", range(a0, a1 - a0), range(b0, b1 - b0));
        for idx in start..end {
            let (x, y) = pos[idx];
            match ops[idx] {
                Op::Eq => {
                    let _ = writeln!(out, " {}", al[x]);
                }
                Op::Del => {
                    let _ = writeln!(out, "-{}", al[x]);
                }
                Op::Ins => {
                    let _ = writeln!(out, "+{}", bl[y]);
                }
            }
        }
        k += 1;
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

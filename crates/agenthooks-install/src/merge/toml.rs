//! TOML helpers over `toml_edit` (which keeps comments, order and formatting of everything we
//! do not touch).

use std::path::Path;

use toml_edit::{DocumentMut, Item, Table, TableLike};

use crate::error::InstallError;

/// Parses a document, mapping errors to [`InstallError::Malformed`].
pub(crate) fn parse(path: &Path, text: &str) -> Result<DocumentMut, InstallError> {
    text.parse::<DocumentMut>()
        .map_err(|e| InstallError::malformed(path, "TOML", e.to_string().trim_end().to_owned()))
}

/// A TOML item as JSON: how manifests and existing configs are read (the kit's rules, which the
/// Codex codec's `config.toml` reader follows too).
pub(crate) use agenthooks_core::kit::toml::{table_json, to_json};

/// The string under `key` of a table-like item.
pub(crate) fn str_of<'a>(t: &'a dyn TableLike, key: &str) -> Option<&'a str> {
    t.get(key).and_then(Item::as_str)
}

/// A new implicit table (no `[header]` of its own when it only holds sub-tables).
pub(crate) fn implicit_table() -> Table {
    let mut t = Table::new();
    t.set_implicit(true);
    t
}

/// Keeps the original's final-newline state (`toml_edit` ends what it writes with one) and its
/// line endings: `toml_edit` writes `\n` after every line it renders, so a file whose every line
/// ends in `\r\n` (Windows editors) gets `\r\n` back. A file that mixes both comes back with
/// `\n` (there is no one ending to keep).
pub(crate) fn keep_final_newline(before: &str, mut after: String) -> String {
    if is_crlf(before) {
        after = after.replace("\r\n", "\n").replace('\n', "\r\n");
    }
    if !before.is_empty() && !before.ends_with('\n') && after.ends_with('\n') {
        after.pop();
        if after.ends_with('\r') {
            after.pop();
        }
    }
    after
}

/// The text to write for `doc`, parsed from `before` and then edited: `toml_edit`'s rendering
/// with the original's final-newline state and line endings ([`keep_final_newline`]), and every
/// table section the edit did not touch copied from `before` byte for byte.
///
/// `toml_edit` does not render every valid document back as it read it: the dotted keys of one
/// table that other keys separate (`a = 1`, `t.x = 1`, `b = 2`, `t.y = 2`) come back next to
/// each other (found by the `install_merge` fuzz target). Where the unedited rendering of
/// `before` differs from `before`, the sections (the root's keys, then each `[table]` or
/// `[[array]]` header with what follows it) that render the same before and after the edit
/// are taken from `before` instead, so an install moves nothing of the user's and uninstall
/// gives back the original bytes.
pub(crate) fn render(before: &str, doc: &DocumentMut) -> String {
    let edited = doc.to_string();
    let after = match before.parse::<DocumentMut>() {
        Ok(original) => {
            // the comments and blank lines after the last item are the document's, written
            // after everything the edit added: set aside from the sections
            let unedited = original.to_string();
            let tail = original.trailing().as_str().unwrap_or("");
            match (
                before.strip_suffix(tail),
                unedited.strip_suffix(tail),
                edited.strip_suffix(tail),
            ) {
                (Some(b), Some(u), Some(e)) if !tail.is_empty() && unedited != before => {
                    let mut out = splice_untouched(b, u, e);
                    if !out.is_empty() && !out.ends_with('\n') && !tail.starts_with(['\n', '\r']) {
                        out.push('\n');
                    }
                    out + tail
                }
                _ => splice_untouched(before, &unedited, &edited),
            }
        }
        Err(_) => edited.clone(),
    };
    // the splice only keeps spellings and order: what it writes must mean what the edit means
    let same_meaning = after == edited
        || after
            .parse::<DocumentMut>()
            .is_ok_and(|d| to_json(d.as_item()) == to_json(doc.as_item()));
    keep_final_newline(before, if same_meaning { after } else { edited })
}

/// `edited` with each section equal to one of `unedited`'s replaced by the matching section of
/// `before` (`unedited` is `before` as `toml_edit` renders it, its sections in the same order).
fn splice_untouched(before: &str, unedited: &str, edited: &str) -> String {
    if unedited == before {
        return edited.to_owned();
    }
    let theirs = sections(before);
    let rendered = sections(unedited);
    let same_headers = theirs.len() == rendered.len()
        && theirs
            .iter()
            .zip(&rendered)
            .all(|(a, b)| same_header(first_line(a), first_line(b)) || (a.trim().is_empty() && b.trim().is_empty()));
    if !same_headers {
        return edited.to_owned();
    }
    let mut used = vec![false; rendered.len()];
    let mut out = String::with_capacity(edited.len());
    let push = |out: &mut String, piece: &str| {
        if piece.is_empty() {
            return;
        }
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(piece);
    };
    for (k, s) in sections(edited).into_iter().enumerate() {
        let (body, blank) = split_blank_tail(s);
        if let Some(i) = (0..rendered.len()).find(|&i| !used[i] && split_blank_tail(rendered[i]).0 == body) {
            used[i] = true;
            // the blank lines after a section are the next header's (toml_edit puts one before
            // a table it adds): theirs where the edit kept them, else the edit's
            let (their_body, their_blank) = split_blank_tail(theirs[i]);
            let keep = split_blank_tail(rendered[i]).1 == blank;
            push(&mut out, their_body);
            push(&mut out, if keep { their_blank } else { blank });
            continue;
        }
        // an edited section: the original's lines in their order, each line of the edit's own
        // after the line it follows in the edit (the whole result is checked by `render`)
        // (the root's keys are the first section of both; a table is found by its header)
        let same = if k == 0 {
            Some(0).filter(|_| !used[0])
        } else {
            (1..rendered.len()).find(|&i| !used[i] && same_header(first_line(rendered[i]), first_line(body)))
        };
        match same.and_then(|i| splice_lines(theirs[i], rendered[i], s).map(|t| (i, t))) {
            Some((i, text)) => {
                used[i] = true;
                push(&mut out, &text);
            }
            None => {
                push(&mut out, body);
                push(&mut out, blank);
            }
        }
    }
    out
}

/// `edited` (an edit of the section `rendered`, which is `theirs` as `toml_edit` writes it) with
/// the lines it kept in `theirs`'s order and spelling, and each line the edit added after the
/// kept line it follows. `None` when `theirs` and `rendered` do not hold the same lines.
fn splice_lines(theirs: &str, rendered: &str, edited: &str) -> Option<String> {
    fn key(l: &str) -> &str {
        l.trim_end_matches(['\n', '\r'])
    }
    let t: Vec<&str> = theirs.split_inclusive('\n').collect();
    let mut r: Vec<&str> = rendered.split_inclusive('\n').map(key).collect();
    let tk: Vec<&str> = t.iter().map(|l| key(l)).collect();
    // the same lines, in another order
    let mut sorted_t = tk.clone();
    sorted_t.sort_unstable();
    r.sort_unstable();
    if sorted_t != r {
        return None;
    }
    // which of theirs' lines the edit keeps: each kept line of the edit takes the first unused
    // line of theirs with its text
    let mut taken = vec![false; t.len()];
    let mut after: Vec<Vec<&str>> = vec![Vec::new(); t.len() + 1];
    let mut anchor = 0; // insert position: after theirs' line `anchor - 1`
    for line in edited.split_inclusive('\n') {
        let k = key(line);
        match (0..t.len()).find(|&j| !taken[j] && tk[j] == k) {
            Some(j) => {
                taken[j] = true;
                anchor = j + 1;
            }
            None => after[anchor].push(line),
        }
    }
    let mut out = String::with_capacity(edited.len());
    for (j, slot) in after.iter().enumerate() {
        for line in slot {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(line);
        }
        if j < t.len() && taken[j] {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(t[j]);
        }
    }
    Some(out)
}

/// A section split into what it holds and its trailing whitespace-only lines.
fn split_blank_tail(s: &str) -> (&str, &str) {
    let mut end = s.len();
    while let Some(nl) = s[..end].strip_suffix('\n').map(str::len) {
        let start = s[..nl].rfind('\n').map_or(0, |p| p + 1);
        if !s[start..nl].trim().is_empty() {
            break;
        }
        end = start;
        if start == 0 {
            break;
        }
    }
    // a section that does not end in a line break (the file's last) has no blank tail
    if !s.ends_with('\n') {
        end = s.len();
    }
    s.split_at(end)
}

/// Whether two header lines name the same table, whitespace aside: `toml_edit` writes the
/// header of every table of an array like its first (`[[\thooks]]` after a `[[hooks]]` comes
/// back as `[[hooks]]`), so the original's header is kept where its section is.
fn same_header(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
        || a.chars()
            .filter(|c| !c.is_whitespace())
            .eq(b.chars().filter(|c| !c.is_whitespace()))
}

/// The header line of a section (the first line that is not blank or a comment; for the
/// root's section, its first key's line).
fn first_line(s: &str) -> &str {
    s.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("")
}

/// `text` (valid TOML) cut before each table header: the root's keys first (empty when the
/// text starts with a header), then each `[table]` or `[[array]]` header with what follows it
/// up to the next header. The comment and blank lines right above a header are its own (as
/// `toml_edit` keeps them: the header's decor, which moves with it).
fn sections(text: &str) -> Vec<&str> {
    let mut cuts = vec![0];
    for h in header_lines(text) {
        let floor = cuts.last().copied().unwrap_or(0);
        let mut cut = h;
        while cut > floor {
            let start = text[..cut - 1].rfind('\n').map_or(0, |p| p + 1).max(floor);
            let line = text[start..cut].trim();
            if !(line.is_empty() || line.starts_with('#')) {
                break;
            }
            cut = start;
        }
        cuts.push(cut);
    }
    cuts.push(text.len());
    cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// Byte offsets of the lines of `text` that open a table header: a `[` first on its line
/// outside strings, comments, arrays and inline tables.
fn header_lines(text: &str) -> Vec<usize> {
    #[derive(PartialEq)]
    enum S {
        Code,
        Comment,
        Basic,
        Literal,
        MultiBasic,
        MultiLiteral,
    }
    let b = text.as_bytes();
    let (mut state, mut depth, mut line, mut at_start) = (S::Code, 0usize, 0usize, true);
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match state {
            S::Code => match c {
                b'\n' => {
                    line = i + 1;
                    at_start = true;
                }
                b' ' | b'\t' | b'\r' => {}
                _ => {
                    if c == b'[' && at_start && depth == 0 {
                        out.push(line);
                    }
                    at_start = false;
                    match c {
                        b'#' => state = S::Comment,
                        b'[' | b'{' => depth += 1,
                        b']' | b'}' => depth = depth.saturating_sub(1),
                        b'"' if b[i..].starts_with(b"\"\"\"") => {
                            state = S::MultiBasic;
                            i += 2;
                        }
                        b'"' => state = S::Basic,
                        b'\'' if b[i..].starts_with(b"\'\'\'") => {
                            state = S::MultiLiteral;
                            i += 2;
                        }
                        b'\'' => state = S::Literal,
                        _ => {}
                    }
                }
            },
            S::Comment => {
                if c == b'\n' {
                    state = S::Code;
                    line = i + 1;
                    at_start = true;
                }
            }
            S::Basic => match c {
                b'\\' => i += 1,
                b'"' | b'\n' => state = S::Code,
                _ => {}
            },
            S::Literal => {
                if c == b'\'' || c == b'\n' {
                    state = S::Code;
                }
            }
            S::MultiBasic | S::MultiLiteral => {
                let q = if state == S::MultiBasic { b'"' } else { b'\'' };
                if c == b'\\' && state == S::MultiBasic {
                    i += 1;
                } else if c == q && b[i..].starts_with(&[q, q, q]) {
                    // up to two more quotes belong to the string: `""""` ends after the fourth
                    let run = b[i..].iter().take_while(|&&x| x == q).count().min(5);
                    i += run - 1;
                    state = S::Code;
                }
            }
        }
        i += 1;
    }
    out
}

/// Whether every line break of `text` is `\r\n` (and there is one).
fn is_crlf(text: &str) -> bool {
    let lf = text.matches('\n').count();
    lf > 0 && text.matches("\r\n").count() == lf
}

/// Whether a document holds nothing but whitespace and comments.
pub(crate) fn is_blank(doc: &DocumentMut) -> bool {
    doc.as_table().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts() {
        let doc = parse(
            Path::new("x.toml"),
            "a = 1\nb = [true, 'x']\n[t]\nc = { d = 1.5 }\n[[arr]]\ne = 1979-05-27\n",
        )
        .unwrap();
        assert_eq!(
            to_json(doc.as_item()),
            serde_json::json!({"a": 1, "b": [true, "x"], "t": {"c": {"d": 1.5}}, "arr": [{"e": "1979-05-27"}]})
        );
        let e = parse(Path::new("/x/c.toml"), "a = ").unwrap_err();
        assert!(e.to_string().starts_with("/x/c.toml: malformed TOML"));
    }

    #[test]
    fn sections_cut_before_headers_only() {
        let text = "a = 1\n# c [x]\ns = \"[y]\"\nm = '''\n[z]\n'''\nb = \"\"\"\n[w]\"\"\"\"\narr = [\n  [1],\n]\nt = { u = [2] }\n\n[tab] # h\nk = 1\n  [[arr2]]\nq = 'it''s'\n";
        let got = sections(text);
        assert_eq!(got.len(), 3, "{got:#?}");
        assert!(got[0].ends_with("t = { u = [2] }\n"));
        // the blank and comment lines above a header are the header's
        assert_eq!(got[1], "\n[tab] # h\nk = 1\n");
        assert_eq!(got[2], "  [[arr2]]\nq = 'it''s'\n");
        assert_eq!(got.concat(), text);
        // a document that starts with a header has an empty root section
        assert_eq!(sections("[a]\nb = 1\n"), ["", "[a]\nb = 1\n"]);
        assert_eq!(sections("a = 1\n# c\n\n# d\n[b]\n"), ["a = 1\n", "# c\n\n# d\n[b]\n"]);
        assert_eq!(sections("# c\n[b]\n"), ["", "# c\n[b]\n"]);
    }

    #[test]
    fn blank_tails_are_split_off() {
        assert_eq!(split_blank_tail("a = 1\n\n  \n"), ("a = 1\n", "\n  \n"));
        assert_eq!(split_blank_tail("a = 1\n"), ("a = 1\n", ""));
        assert_eq!(split_blank_tail("a = 1"), ("a = 1", ""));
        assert_eq!(split_blank_tail("\n"), ("", "\n"));
        assert_eq!(split_blank_tail(""), ("", ""));
    }

    #[test]
    fn untouched_sections_keep_their_bytes() {
        let before = "t.x = 1\nb = 2\nt.y = 2\n\n[keep]\nq.a = 1\nr = 2\nq.b = 3\n";
        let mut doc = parse(Path::new("c.toml"), before).unwrap();
        doc.insert("added", Item::Table(Table::new()));
        doc["added"]["k"] = toml_edit::value(1);
        assert_eq!(render(before, &doc), format!("{before}\n[added]\nk = 1\n"));
        // an edited section keeps the original's lines in their order; a line the edit adds
        // follows the line it follows in the edit (`r`, toml_edit writing `q.a`, `q.b`, `r`)
        let mut doc = parse(Path::new("c.toml"), before).unwrap();
        doc["keep"]["z"] = toml_edit::value(9);
        assert_eq!(
            render(before, &doc),
            "t.x = 1\nb = 2\nt.y = 2\n\n[keep]\nq.a = 1\nr = 2\nz = 9\nq.b = 3\n"
        );
        // a changed line takes the place of the one it replaces
        let root = "h = []\nd.a = 0\nk = 0\nd.b = 0";
        let mut doc = parse(Path::new("c.toml"), root).unwrap();
        doc["h"] = toml_edit::value(toml_edit::Array::from_iter([1]));
        assert_eq!(render(root, &doc), "h = [1]\nd.a = 0\nk = 0\nd.b = 0");
        // where toml_edit renders the original faithfully, its rendering is used as it is
        let plain = "a = 1\n[t]\nb = 2";
        let mut doc = parse(Path::new("c.toml"), plain).unwrap();
        doc["t"]["c"] = toml_edit::value(3);
        assert_eq!(render(plain, &doc), "a = 1\n[t]\nb = 2\nc = 3");
    }
}

//! POSIX shell quoting: the one quoter that install writes hook commands with and that the
//! testkit (and so `agenthooks replay`) runs them with.
//!
//! Every agent runs a hook's `command` through a POSIX shell (`sh -c` / `bash -c`), so each
//! word is quoted for POSIX `sh`: words made only of `[A-Za-z0-9_@%+=:,./-]` stay bare (the
//! first word of a command line additionally without `=`, which would make it an assignment);
//! everything else is single-quoted, with `'` written as `'\''`. Inside single quotes the shell
//! expands nothing: spaces, `"`, `$`, backticks, `\`, `*`, `~`, `^`, `;` and newlines reach the
//! program verbatim.

use std::borrow::Cow;

/// Quotes one word for a POSIX shell.
///
/// ```
/// use agenthooks_core::shell::quote;
/// assert_eq!(quote("/usr/bin/guard"), "/usr/bin/guard");
/// assert_eq!(quote("/opt/my tools/it's $HOME"), r"'/opt/my tools/it'\''s $HOME'");
/// assert_eq!(quote(""), "''");
/// ```
pub fn quote(word: &str) -> Cow<'_, str> {
    quote_word(word, false)
}

/// Quotes a whole argv into one command line (the first word is never read as an assignment).
///
/// ```
/// use agenthooks_core::shell::join;
/// assert_eq!(join(&["echo", "a b", "it's"]), r"echo 'a b' 'it'\''s'");
/// assert_eq!(join(&["A=b", "c=d"]), "'A=b' c=d");
/// ```
pub fn join<S: AsRef<str>>(argv: &[S]) -> String {
    argv.iter()
        .enumerate()
        .map(|(i, w)| quote_word(w.as_ref(), i == 0))
        .collect::<Vec<_>>()
        .join(" ")
}

fn is_safe(c: char, first: bool) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '_' | '@' | '%' | '+' | ':' | ',' | '.' | '/' | '-')
        || (c == '=' && !first)
}

fn quote_word(word: &str, first: bool) -> Cow<'_, str> {
    if !word.is_empty() && word.chars().all(|c| is_safe(c, first)) {
        return Cow::Borrowed(word);
    }
    let mut out = String::with_capacity(word.len() + 2);
    out.push('\'');
    for c in word.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes() {
        assert_eq!(quote("a'b"), r"'a'\''b'");
        assert_eq!(quote("`id`"), "'`id`'");
        assert_eq!(quote("$(x)"), "'$(x)'");
        assert_eq!(quote("a\nb"), "'a\nb'");
        assert_eq!(quote("--k=v"), "--k=v");
        assert_eq!(quote("~"), "'~'");
        assert_eq!(quote("a^b"), "'a^b'");
        assert_eq!(join(&["A=b", "c=d"]), "'A=b' c=d");
        assert_eq!(join::<&str>(&[]), "");
    }
}

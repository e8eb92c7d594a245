//! Shell quoting: the one quoter that install writes hook commands with and that the testkit
//! (and so `agenthooks replay`) runs them with.
//!
//! **POSIX `sh`** ([`quote`], [`join`]): every agent on Linux and macOS
//!   runs a hook's `command` through `sh -c` / `bash -c` (Claude Code on Windows too, through
//!   Git Bash). Words made only of `[A-Za-z0-9_@%+=:,./-]` stay bare (except `=` as the first
//!   character of a word, which zsh expands, and anywhere in the first word of a command line,
//!   where it would be an assignment); every other word is quoted by the maintained
//!   [`shlex::try_quote`] (single quotes, or double quotes with `\` escapes where the word holds
//!   a `'`, `\` or `^`). Nothing inside is expanded: spaces, `"`, `$`, backticks, `*`, `~`, `!`,
//!   `;` and newlines reach the program verbatim.
//! No shell can pass a NUL byte to a program: the quoter refuses it ([`QuoteError::Nul`]).
//! Windows shells (PowerShell, `cmd.exe`) are not generated (install's non-goal), so they have no
//! quoter here.
//!
//! The POSIX rule is round-tripped through a real `sh -c` in the tests.

use std::borrow::Cow;

/// A word a shell cannot pass to a program.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QuoteError {
    /// A NUL byte: program arguments are C strings in every OS.
    #[error("`{word}` holds a NUL byte, which no shell can pass to a program", word = .0.escape_debug())]
    Nul(String),
}

/// Quotes one word for a POSIX shell.
///
/// ```
/// use agenthooks_runtime::shell::quote;
/// assert_eq!(quote("/usr/bin/guard")?, "/usr/bin/guard");
/// assert_eq!(quote("--provider=claude-code")?, "--provider=claude-code");
/// assert_eq!(quote("/opt/my tools/$HOME")?, "'/opt/my tools/$HOME'");
/// assert_eq!(quote("it's")?, r#""it's""#);
/// assert_eq!(quote("")?, "''");
/// assert!(quote("a\0b").is_err());
/// # Ok::<(), agenthooks_runtime::shell::QuoteError>(())
/// ```
pub fn quote(word: &str) -> Result<Cow<'_, str>, QuoteError> {
    posix_word(word, false)
}

/// Quotes a whole argv into one POSIX command line (the first word is never read as an
/// assignment).
///
/// ```
/// use agenthooks_runtime::shell::join;
/// assert_eq!(join(&["echo", "a b", "it's"])?, r#"echo 'a b' "it's""#);
/// assert_eq!(join(&["A=b", "c=d"])?, "'A=b' c=d");
/// # Ok::<(), agenthooks_runtime::shell::QuoteError>(())
/// ```
pub fn join<S: AsRef<str>>(argv: &[S]) -> Result<String, QuoteError> {
    join_words(argv, |i, w| posix_word(w, i == 0))
}

/// Quotes each word (`quote` gets its index) and joins them with spaces.
fn join_words<'a, S: AsRef<str>>(
    argv: &'a [S],
    quote: impl Fn(usize, &'a str) -> Result<Cow<'a, str>, QuoteError>,
) -> Result<String, QuoteError> {
    let words = argv
        .iter()
        .enumerate()
        .map(|(i, w)| quote(i, w.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(words.join(" "))
}

/// Bare in a POSIX command line: no shell (sh, bash, dash, zsh) gives these a meaning inside a
/// word. `=` only where it is neither an assignment (first word) nor zsh's `=cmd` (first
/// character). A wider set than shlex's, so generated flags (`--provider=x`) stay readable.
fn posix_bare(word: &str, first: bool) -> bool {
    !word.is_empty()
        && !word.starts_with('=')
        && word.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '_' | '@' | '%' | '+' | ':' | ',' | '.' | '/' | '-')
                || (c == '=' && !first)
        })
}

fn posix_word(word: &str, first: bool) -> Result<Cow<'_, str>, QuoteError> {
    if posix_bare(word, first) {
        return Ok(Cow::Borrowed(word));
    }
    // shlex quotes `=` itself, so `A=b` as the first word comes back quoted.
    shlex::try_quote(word).map_err(|_| QuoteError::Nul(word.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts what `quote` writes for each word.
    fn expect(quote: fn(&str) -> Result<Cow<'_, str>, QuoteError>, cases: &[(&str, &str)]) {
        for (word, want) in cases {
            assert_eq!(quote(word).unwrap(), *want, "{word:?}");
        }
    }

    /// Words no quoter may mangle.
    const HOSTILE: &[&str] = &[
        "",
        " ",
        "a b",
        "a'b",
        "'",
        "''",
        "a\"b",
        "\"",
        "$HOME",
        "${HOME}",
        "$(id)",
        "`id`",
        "a\\b",
        "\\",
        "a\nb",
        "\n",
        "a\tb",
        "a\rb",
        "%PATH%",
        "!x!",
        "a^b",
        "^",
        "*",
        "?",
        "[a]",
        "{a,b}",
        "~",
        "~root",
        "-",
        "--",
        "-rf",
        "--k=v",
        "=x",
        "=",
        "A=b",
        "a;b",
        "a&b",
        "a|b",
        "a>b",
        "a<b",
        "(a)",
        "#x",
        "é",
        "日本語 テスト",
        "\u{2019}quoted\u{2018}",
        "\u{a0}",
        "emoji 🙂",
        "/opt/My Tools/guard's",
        "--config=$HOME/.guard.toml",
    ];

    #[test]
    fn posix_bare_words_stay_bare() {
        for w in [
            "/usr/bin/guard",
            "--provider=claude-code",
            "--timeout=1.5",
            "a,b",
            "50%",
            "user@host:x",
            "-rf",
            "--",
        ] {
            assert_eq!(quote(w).unwrap(), w);
        }
        // Not bare: assignment in first position, zsh `=cmd`, tilde, globs, non-ASCII.
        assert_eq!(join(&["A=b", "c=d"]).unwrap(), "'A=b' c=d");
        expect(quote, &[("=x", "'=x'"), ("~", "'~'"), ("*", "'*'"), ("é", "'é'")]);
        assert_eq!(join::<&str>(&[]).unwrap(), "");
    }

    #[test]
    fn posix_quotes_hostile_words() {
        expect(
            quote,
            &[
                ("`id`", "'`id`'"),
                ("$(x)", "'$(x)'"),
                ("a\nb", "'a\nb'"),
                ("a'b", "\"a'b\""),
                ("a\\b", "\"a\\\\b\""),
                ("$x'y", "'$x'\"'y\""),
                ("!", "'!'"),
                ("", "''"),
            ],
        );
        assert_eq!(quote("a\0b"), Err(QuoteError::Nul("a\0b".into())));
        assert!(join(&["ok", "\0"]).is_err());
    }

    /// Every hostile word comes back from a real `sh` byte for byte, alone and as an argv.
    #[cfg(unix)]
    #[test]
    fn posix_round_trips_through_sh() {
        use std::process::Command;
        let script = HOSTILE
            .iter()
            .map(|w| format!("printf '%s\\0' {}", quote(w).unwrap()))
            .collect::<Vec<_>>()
            .join("\n");
        let out = Command::new("sh").arg("-c").arg(&script).output().expect("sh runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got: Vec<&[u8]> = out.stdout.split(|b| *b == 0).collect();
        let want: Vec<&[u8]> = HOSTILE.iter().map(|w| w.as_bytes()).chain([&b""[..]]).collect();
        assert_eq!(got, want);

        // A joined argv: the first word is the program.
        let mut argv = vec!["printf", "%s\\0"];
        argv.extend_from_slice(HOSTILE);
        let line = join(&argv).unwrap();
        let out = Command::new("sh").arg("-c").arg(&line).output().expect("sh runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got: Vec<&[u8]> = out.stdout.split(|b| *b == 0).collect();
        assert_eq!(got, want);
    }

    #[cfg(unix)]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Any argv without NUL survives `join` and a real `sh -c`.
        #[test]
        fn posix_join_round_trips(words in proptest::collection::vec("[^\\x00]{0,12}", 0..6)) {
            let mut argv = vec!["printf".to_owned(), "%s\\0".to_owned()];
            argv.extend(words.iter().cloned());
            let out = std::process::Command::new("sh").arg("-c").arg(join(&argv).unwrap()).output().unwrap();
            proptest::prop_assert!(out.status.success());
            let got: Vec<String> = out.stdout.split(|b| *b == 0).map(|w| String::from_utf8_lossy(w).into_owned()).collect();
            let mut want = words.clone();
            // printf repeats its format for no argument too, and the output ends with a NUL.
            if want.is_empty() {
                want.push(String::new());
            }
            want.push(String::new());
            proptest::prop_assert_eq!(got, want);
        }
    }
}

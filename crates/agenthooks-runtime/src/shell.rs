//! Shell quoting: the one quoter that install writes hook commands with and that the testkit
//! (and so `agenthooks replay`) runs them with, for the three shells agents run hooks through.
//!
//! - **POSIX `sh`** ([`quote`], [`join`]; [`Shell::Posix`]): every agent on Linux and macOS
//!   runs a hook's `command` through `sh -c` / `bash -c` (Claude Code on Windows too, through
//!   Git Bash). Words made only of `[A-Za-z0-9_@%+=:,./-]` stay bare (except `=` as the first
//!   character of a word, which zsh expands, and anywhere in the first word of a command line,
//!   where it would be an assignment); every other word is quoted by the maintained
//!   [`shlex::try_quote`] (single quotes, or double quotes with `\` escapes where the word holds
//!   a `'`, `\` or `^`). Nothing inside is expanded: spaces, `"`, `$`, backticks, `*`, `~`, `!`,
//!   `;` and newlines reach the program verbatim.
//! - **PowerShell** ([`powershell_quote`], [`powershell_join`]; [`Shell::PowerShell`]): for
//!   Copilot CLI's `powershell` field and Windows commands. Single-quoted (PowerShell expands
//!   nothing there) with every single quote — `'` and the typographic `‘ ’ ‚ ‛` PowerShell also
//!   reads as one — doubled; the command line starts with the call operator `&` so a quoted
//!   program path is run, not printed. (Windows PowerShell 5.1 itself still drops a `"` inside
//!   an argument it hands a native program; PowerShell 7.3+ passes it through.)
//! - **`cmd.exe`** ([`cmd_quote`], [`cmd_join`]; [`Shell::Cmd`]): a word is first quoted for the
//!   program's own argument parser (`CommandLineToArgvW` rules: `"…"`, `\` doubled before a
//!   `"`, `"` written `\"`), then every `cmd` metacharacter (`( ) % ! ^ " < > & |`) is escaped
//!   with `^`, so `cmd /c` neither expands `%VAR%`/`!VAR!` nor splits at `&`. A newline or
//!   carriage return cannot be passed through `cmd` at all ([`QuoteError::Newline`]).
//!
//! No shell can pass a NUL byte to a program: every quoter refuses it ([`QuoteError::Nul`]).
//! [`Shell::native`] is the shell of the platform this was built for.
//!
//! The POSIX rule is round-tripped through a real `sh -c` in the tests; PowerShell and `cmd`
//! cannot run on the Linux CI machines, so their rules are checked against their documented
//! grammar (and a reimplementation of `CommandLineToArgvW`) only.

use std::borrow::Cow;

/// A word a shell cannot pass to a program.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QuoteError {
    /// A NUL byte: program arguments are C strings in every OS.
    #[error("`{word}` holds a NUL byte, which no shell can pass to a program", word = .0.escape_debug())]
    Nul(String),
    /// A newline or carriage return, which `cmd.exe` ends the command at.
    #[error("`{word}` holds a line break, which cmd.exe cannot pass to a program", word = .0.escape_debug())]
    Newline(String),
}

/// A shell that runs hook commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Shell {
    /// POSIX `sh` (and bash, zsh, dash, Git Bash).
    Posix,
    /// Windows PowerShell and PowerShell 7 (`pwsh`).
    PowerShell,
    /// `cmd.exe` (`cmd /c`).
    Cmd,
}

impl Shell {
    /// The shell an agent on this platform runs a hook's command string through when nothing
    /// says otherwise: PowerShell on Windows, POSIX `sh` elsewhere.
    ///
    /// ```
    /// use agenthooks_runtime::shell::Shell;
    /// # #[cfg(unix)]
    /// assert_eq!(Shell::native(), Shell::Posix);
    /// ```
    pub const fn native() -> Self {
        if cfg!(windows) {
            Self::PowerShell
        } else {
            Self::Posix
        }
    }

    /// Quotes one word for this shell.
    ///
    /// ```
    /// use agenthooks_runtime::shell::Shell;
    /// assert_eq!(Shell::Posix.quote("a b")?, "'a b'");
    /// assert_eq!(Shell::PowerShell.quote("it's")?, "'it''s'");
    /// assert_eq!(Shell::Cmd.quote("50%")?, "50^%");
    /// # Ok::<(), agenthooks_runtime::shell::QuoteError>(())
    /// ```
    pub fn quote(self, word: &str) -> Result<Cow<'_, str>, QuoteError> {
        match self {
            Self::Posix => quote(word),
            Self::PowerShell => powershell_quote(word),
            Self::Cmd => cmd_quote(word),
        }
    }

    /// Quotes an argv into one command line for this shell.
    pub fn join<S: AsRef<str>>(self, argv: &[S]) -> Result<String, QuoteError> {
        match self {
            Self::Posix => join(argv),
            Self::PowerShell => powershell_join(argv),
            Self::Cmd => cmd_join(argv),
        }
    }
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

/// `word` with `escape(c)` written before each character it names.
fn escaped(word: &str, escape: impl Fn(char) -> Option<char>) -> String {
    let mut out = String::with_capacity(word.len() + 2);
    for c in word.chars() {
        out.extend(escape(c));
        out.push(c);
    }
    out
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

/// The characters PowerShell reads as a single quote (and so doubles inside `'…'`).
const PS_QUOTES: [char; 5] = ['\'', '\u{2018}', '\u{2019}', '\u{201a}', '\u{201b}'];

/// Quotes one word as a PowerShell argument: bare if made only of `[A-Za-z0-9_./:\\=+-]` and
/// not starting with `-` (a parameter name) , else single-quoted with quotes doubled.
///
/// ```
/// use agenthooks_runtime::shell::powershell_quote;
/// assert_eq!(powershell_quote(r"C:\tools\guard.exe")?, r"C:\tools\guard.exe");
/// assert_eq!(powershell_quote("C:\\My Tools\\it's $env:HOME")?, "'C:\\My Tools\\it''s $env:HOME'");
/// assert_eq!(powershell_quote("")?, "''");
/// # Ok::<(), agenthooks_runtime::shell::QuoteError>(())
/// ```
pub fn powershell_quote(word: &str) -> Result<Cow<'_, str>, QuoteError> {
    if word.contains('\0') {
        return Err(QuoteError::Nul(word.to_owned()));
    }
    let bare = !word.is_empty()
        && !word.starts_with('-')
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | ':' | '\\' | '=' | '+' | '-'));
    if bare {
        return Ok(Cow::Borrowed(word));
    }
    let body = escaped(word, |c| PS_QUOTES.contains(&c).then_some(c));
    Ok(Cow::Owned(format!("'{body}'")))
}

/// Quotes an argv into one PowerShell command line: `& program args…` (the call operator runs
/// a quoted program path).
///
/// ```
/// use agenthooks_runtime::shell::powershell_join;
/// assert_eq!(powershell_join(&[r"C:\My Tools\guard.exe", "run", "--x=1"])?, r"& 'C:\My Tools\guard.exe' run '--x=1'");
/// # Ok::<(), agenthooks_runtime::shell::QuoteError>(())
/// ```
pub fn powershell_join<S: AsRef<str>>(argv: &[S]) -> Result<String, QuoteError> {
    let line = join_words(argv, |_, w| powershell_quote(w))?;
    Ok(if argv.is_empty() { line } else { format!("& {line}") })
}

/// The characters `cmd.exe` gives a meaning to on a command line.
const CMD_META: [char; 10] = ['(', ')', '%', '!', '^', '"', '<', '>', '&', '|'];

/// Quotes one word for `cmd /c`: quoted for the program's `CommandLineToArgvW` parser where it
/// holds a space, tab or `"` (or is empty), then every `cmd` metacharacter escaped with `^`.
///
/// ```
/// use agenthooks_runtime::shell::cmd_quote;
/// assert_eq!(cmd_quote(r"C:\tools\guard.exe")?, r"C:\tools\guard.exe");
/// assert_eq!(cmd_quote(r"C:\My Tools\a&b")?, r#"^"C:\My Tools\a^&b^""#);
/// assert!(cmd_quote("a\nb").is_err());
/// # Ok::<(), agenthooks_runtime::shell::QuoteError>(())
/// ```
pub fn cmd_quote(word: &str) -> Result<Cow<'_, str>, QuoteError> {
    if word.contains('\0') {
        return Err(QuoteError::Nul(word.to_owned()));
    }
    if word.contains(['\n', '\r']) {
        return Err(QuoteError::Newline(word.to_owned()));
    }
    let argv = argv_quote(word);
    if !argv.contains(CMD_META) {
        return Ok(argv);
    }
    Ok(Cow::Owned(escaped(&argv, |c| CMD_META.contains(&c).then_some('^'))))
}

/// Quotes an argv into one `cmd /c` command line.
pub fn cmd_join<S: AsRef<str>>(argv: &[S]) -> Result<String, QuoteError> {
    join_words(argv, |_, w| cmd_quote(w))
}

/// Quotes a word for `CommandLineToArgvW` (the MSVC runtime's argv parser).
fn argv_quote(word: &str) -> Cow<'_, str> {
    if !word.is_empty() && !word.contains([' ', '\t', '"', '\u{b}']) {
        return Cow::Borrowed(word);
    }
    let mut out = String::with_capacity(word.len() + 2);
    out.push('"');
    let mut backslashes = 0usize;
    for c in word.chars() {
        match c {
            '\\' => backslashes += 1,
            '"' => {
                // Backslashes before a quote are doubled, and the quote escaped.
                out.extend(std::iter::repeat_n('\\', backslashes * 2 + 1));
                out.push('"');
                backslashes = 0;
            }
            c => {
                out.extend(std::iter::repeat_n('\\', backslashes));
                out.push(c);
                backslashes = 0;
            }
        }
    }
    // Backslashes before the closing quote are doubled.
    out.extend(std::iter::repeat_n('\\', backslashes * 2));
    out.push('"');
    Cow::Owned(out)
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

    #[test]
    fn powershell_single_quotes_and_doubles_quotes() {
        assert_eq!(powershell_quote("a'b").unwrap(), "'a''b'");
        assert_eq!(
            powershell_quote("\u{2019}x\u{2018}").unwrap(),
            "'\u{2019}\u{2019}x\u{2018}\u{2018}'"
        );
        expect(
            powershell_quote,
            &[
                ("$env:HOME `n", "'$env:HOME `n'"),
                ("-rf", "'-rf'"),
                ("a,b", "'a,b'"),
                ("@x", "'@x'"),
                ("C:/x/y.exe", "C:/x/y.exe"),
            ],
        );
        assert_eq!(powershell_quote("a\0"), Err(QuoteError::Nul("a\0".into())));
        assert_eq!(powershell_join::<&str>(&[]).unwrap(), "");
        assert_eq!(powershell_join(&["guard", "a b"]).unwrap(), "& guard 'a b'");
        for w in HOSTILE {
            assert_eq!(ps_unquote(&powershell_quote(w).unwrap()), *w, "{w:?}");
        }
    }

    /// PowerShell's reading of a verbatim (single-quoted) string or a bare word.
    fn ps_unquote(q: &str) -> String {
        let Some(body) = q.strip_prefix('\'').and_then(|b| b.strip_suffix('\'')) else {
            assert!(!q.is_empty() && !q.contains(char::is_whitespace), "{q:?}");
            return q.to_owned();
        };
        let mut out = String::new();
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            if PS_QUOTES.contains(&c) {
                // A lone quote would end the string: inside, quotes come in pairs.
                assert!(chars.next().is_some_and(|d| PS_QUOTES.contains(&d)), "{q:?}");
            }
            out.push(c);
        }
        out
    }

    #[test]
    fn cmd_escapes_metacharacters_and_refuses_line_breaks() {
        expect(
            cmd_quote,
            &[
                ("%PATH%", "^%PATH^%"),
                ("!x!", "^!x^!"),
                ("a b", "^\"a b^\""),
                ("a\"b", "^\"a\\^\"b^\""),
                ("", "^\"^\""),
                (r"C:\x\", r"C:\x\"),
                (r"C:\My x\", r#"^"C:\My x\\^""#),
            ],
        );
        assert_eq!(cmd_quote("a\nb"), Err(QuoteError::Newline("a\nb".into())));
        assert_eq!(cmd_quote("a\0"), Err(QuoteError::Nul("a\0".into())));
        assert_eq!(cmd_join(&["guard", "a&b"]).unwrap(), "guard a^&b");
        for w in HOSTILE.iter().filter(|w| !w.contains(['\n', '\r'])) {
            let line = cmd_quote(w).unwrap();
            // cmd removes the carets; the program's parser reads one argument back.
            assert_eq!(
                command_line_to_argv(&cmd_uncaret(&line)),
                vec![(*w).to_owned()],
                "{w:?} as {line:?}"
            );
        }
        let line = cmd_join(&["prog", "a b", "", "x\"y\\", "%z%"]).unwrap();
        assert_eq!(
            command_line_to_argv(&cmd_uncaret(&line)),
            ["prog", "a b", "", "x\"y\\", "%z%"]
        );
    }

    /// What `cmd /c` hands the program once no metacharacter is left unescaped.
    fn cmd_uncaret(line: &str) -> String {
        let mut out = String::new();
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '^' => out.extend(chars.next()),
                c => {
                    assert!(!CMD_META.contains(&c), "unescaped {c:?} in {line:?}");
                    out.push(c);
                }
            }
        }
        out
    }

    /// `CommandLineToArgvW`'s rules for the arguments after the program name.
    fn command_line_to_argv(line: &str) -> Vec<String> {
        let mut args = Vec::new();
        let mut chars = line.chars().peekable();
        loop {
            while chars.next_if(|c| *c == ' ' || *c == '\t').is_some() {}
            if chars.peek().is_none() {
                return args;
            }
            let (mut arg, mut quoted) = (String::new(), false);
            while let Some(&c) = chars.peek() {
                if !quoted && (c == ' ' || c == '\t') {
                    break;
                }
                chars.next();
                match c {
                    '\\' => {
                        let mut n = 1;
                        while chars.next_if_eq(&'\\').is_some() {
                            n += 1;
                        }
                        if chars.peek() == Some(&'"') {
                            arg.extend(std::iter::repeat_n('\\', n / 2));
                            if n % 2 == 1 {
                                chars.next();
                                arg.push('"');
                            }
                        } else {
                            arg.extend(std::iter::repeat_n('\\', n));
                        }
                    }
                    '"' => quoted = !quoted,
                    c => arg.push(c),
                }
            }
            args.push(arg);
        }
    }

    #[test]
    fn the_native_shell_follows_the_platform() {
        let want = if cfg!(windows) { Shell::PowerShell } else { Shell::Posix };
        assert_eq!(Shell::native(), want);
        assert_eq!(Shell::native().join(&["a b"]).unwrap(), want.join(&["a b"]).unwrap());
        assert_eq!(Shell::Cmd.quote("a&b").unwrap(), "a^&b");
        assert_eq!(Shell::PowerShell.join(&["x"]).unwrap(), "& x");
    }
}

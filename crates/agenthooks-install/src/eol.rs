//! Line endings: a config written with CRLF line ends comes back with CRLF line ends.
//!
//! Every editor here (the JSON splices of [`crate::jsonc`], `toml_edit`) inserts `\n`. So the
//! planning context ([`crate::plan::Cx`]) hands target modules the LF view of a file whose
//! every line ends in CRLF ([`is_crlf`]), and turns what they write back into CRLF. The two
//! conversions are exact inverses on such a file (each `\n` loses, then regains, the one `\r`
//! before it), so an install adds CRLF lines and an uninstall gives the file back byte for
//! byte. A file with mixed line ends (or none) is edited as it is: new lines get `\n`.

/// Whether every line of `text` ends in CRLF (and there is at least one line end), with no
/// other `\r` anywhere: a stray `\r` (`a\r\r\n`) would read as a line end of its own in the LF
/// view (to TOML and JSON alike), and an edit could fold it away. Such a file is mixed.
pub(crate) fn is_crlf(text: &str) -> bool {
    let lf = text.bytes().filter(|b| *b == b'\n').count();
    let cr = text.bytes().filter(|b| *b == b'\r').count();
    lf > 0 && cr == lf && text.matches("\r\n").count() == lf
}

/// The LF view of a CRLF text.
pub(crate) fn to_lf(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// The CRLF form of an LF view ([`to_lf`]'s inverse on a CRLF text).
pub(crate) fn to_crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn detects_only_all_crlf() {
        assert!(is_crlf("{\r\n}\r\n"));
        assert!(!is_crlf("a\r\r\nb\r\n"));
        assert!(!is_crlf("a\rb\r\n"));
        assert!(!is_crlf("{\r\n}\n"));
        assert!(!is_crlf("{}"));
        assert!(!is_crlf("a\rb"));
    }

    proptest! {
        /// On a CRLF text the conversions are inverses, and the LF view has no CRLF left
        /// that was a line end.
        #[test]
        fn round_trips(lines in prop::collection::vec("[a-z {}\"]{0,6}", 1..6)) {
            let text = lines.join("\r\n") + "\r\n";
            prop_assume!(is_crlf(&text));
            let lf = to_lf(&text);
            prop_assert_eq!(to_crlf(&lf), text);
            prop_assert_eq!(lf.matches('\n').count(), lines.len());
        }
    }
}

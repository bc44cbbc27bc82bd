//! Escaping of untrusted text (puzzle lines, error reasons quoting them, explanations and names
//! from scripts and plugins) before it is written as text, so that it cannot move the cursor,
//! clear the terminal, end a record early or hide what follows.
//!
//! The rule: every control character (Unicode `Cc`: C0, DEL and C1, so also tab, CR, LF and
//! NUL), the line and paragraph separators U+2028 and U+2029, and the bidirectional formatting
//! characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the byte-order mark
//! U+FEFF (invisible, it would hide inside a record) are written as Rust writes
//! them in a `{:?}`: `\t`, `\r`, `\n`, `\0`, else `\u{…}` with the hexadecimal code point (ESC is
//! `\u{1b}`). Everything else, backslashes included, is kept as is, so ordinary text is
//! unchanged. RON and JSON output does not need this: serde escapes strings itself.

use std::borrow::Cow;

/// Whether a character is escaped by [`printable`].
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// The text with every control, format and line-breaking character escaped (`\r`, `\0`, `\u{1b}`, …),
/// borrowed when there is none.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if needs_escape(c) {
            match c {
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\n' => out.push_str("\\n"),
                '\0' => out.push_str("\\0"),
                _ => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_separators_are_escaped() {
        assert_eq!(
            printable("a\u{1b}[2J\u{1b}[31mb\r\0\t\n\u{2028}\u{2029}\u{7f}\u{85}\u{202e}"),
            "a\\u{1b}[2J\\u{1b}[31mb\\r\\0\\t\\n\\u{2028}\\u{2029}\\u{7f}\\u{85}\\u{202e}"
        );
    }

    #[test]
    fn ordinary_text_is_borrowed_unchanged() {
        for s in ["r1c1 and r1c2 both hold 3", "é ü → ∑ \\ '", ""] {
            assert!(matches!(printable(s), Cow::Borrowed(t) if t == s));
        }
    }
}

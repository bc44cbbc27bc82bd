//! The lines of a puzzle file, as every reader of one (`lapiz … --file`, Python's
//! `read_puzzles`) takes them: at most [`MAX_LINE`] bytes, UTF-8, blank lines and `#` comments
//! skipped, the puzzle in the first field ([`puzzle_of_line`]); a line that cannot be read is
//! named by its [`excerpt`].

/// The longest line read, in bytes.
pub const MAX_LINE: usize = 8192;

/// The text of a line of `length` bytes without its line end (`line` holds at least its start):
/// the line, or why it cannot be read (longer than [`MAX_LINE`], not UTF-8).
///
/// ```
/// use lapiz::text::lines::line_text;
/// assert_eq!(line_text(b"3.1...2.2....4..\n", 16), Ok("3.1...2.2....4..\n"));
/// assert!(line_text(b"\xff", 1).unwrap_err().contains("UTF-8"));
/// assert!(line_text(b"...", 9000).unwrap_err().starts_with("line longer than 8192 bytes"));
/// ```
pub fn line_text(line: &[u8], length: usize) -> Result<&str, String> {
    if length > MAX_LINE {
        return Err(format!(
            "line longer than {MAX_LINE} bytes ({length} bytes), skipped"
        ));
    }
    std::str::from_utf8(line).map_err(|e| crate::text::nine::not_utf8(&e))
}

/// The puzzle text of a line of a puzzle file, or `None` for blanks and comments.
/// A line may carry more after the puzzle (a rating, a name, a count): the first field is used
/// when it is a whole board long (81 characters, or 16 ... 625 for other sizes). A HoDoKu
/// library line (starting with `:`) is kept whole.
///
/// ```
/// use lapiz::text::lines::puzzle_of_line;
/// assert_eq!(puzzle_of_line("3.1...2.2....4..\t1\n"), Some("3.1...2.2....4.."));
/// assert_eq!(puzzle_of_line("  # a comment"), None);
/// ```
pub fn puzzle_of_line(line: &str) -> Option<&str> {
    // The common case first: exactly 81 characters before the line end, nothing to trim or
    // split.
    let bare = line.strip_suffix('\n').unwrap_or(line);
    let bare = bare.strip_suffix('\r').unwrap_or(bare);
    // Printable ASCII bytes hold no whitespace: checked without decoding characters; other
    // lines get the exact check. A fold without an early exit, so that the 81 bytes are
    // checked by vector code.
    let plain = |s: &str| {
        s.bytes()
            .fold(true, |ok, b| ok & (b.wrapping_sub(b'!') < 0x5e))
    };
    if bare.len() == 81
        && !bare.starts_with(['#', ':'])
        && (plain(bare) || !bare.contains(char::is_whitespace))
    {
        return Some(bare);
    }
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return None;
    }
    if t.starts_with(':') {
        // a HoDoKu library line: its fields may hold spaces
        return Some(t);
    }
    match t.split_whitespace().next() {
        Some(first)
            if crate::model::Layout::is_board_length(first.len())
                || first.len() == crate::text::nine::CANDIDATE_LINE =>
        {
            Some(first)
        }
        _ => Some(t),
    }
}

/// The first characters of a line that cannot be read, printable (controls and invalid bytes
/// dropped), to name it in the output.
#[doc(hidden)]
pub fn excerpt(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(81)])
        .chars()
        .filter(|c| !c.is_control() && *c != char::REPLACEMENT_CHARACTER)
        .collect()
}

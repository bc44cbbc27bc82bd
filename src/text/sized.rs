//! Reading and writing boards of every size: one line of symbols, whitespace-separated
//! numbers, grids pasted over several lines (borders `|`, `-`, `+`, `=` and blank lines
//! ignored), and pencil-mark grids; the size is the number of cells read.

use crate::model::ParseError;

use crate::model::{Alphabet, Layout};

/// Marks of an empty cell in every alphabet (`0` too where 0 is not a symbol).
const EMPTY_MARKS: [char; 3] = ['.', '*', '_'];

/// Characters of borders, ignored between cells.
fn is_border(c: char) -> bool {
    matches!(c, '|' | '-' | '+' | '=')
}

/// A piece of the input: its text and where it starts (1-based line and column).
struct Piece<'a> {
    text: &'a str,
    line: usize,
    col: usize,
}

/// The pieces of the input, split at whitespace: comment lines (`#`) and border-only pieces
/// left out, a `|` inside a piece splitting it.
fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    for (l, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut start = None;
        for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
            let split = c.is_whitespace() || c == '|';
            match (start, split) {
                (None, false) => start = Some(i),
                (Some(s), true) => {
                    let t = &line[s..i];
                    if !t.chars().all(is_border) {
                        out.push(Piece {
                            text: t,
                            line: l + 1,
                            col: line[..s].chars().count() + 1,
                        });
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    out
}

/// The size whose board has `cells` cells.
fn size_of(cells: usize) -> Option<u8> {
    Layout::SIZES
        .iter()
        .copied()
        .find(|&n| usize::from(n) * usize::from(n) == cells)
}

/// The error for a count of cells no size has.
fn bad_count(cells: usize, what: &str) -> ParseError {
    ParseError::BadSize {
        what: format!(
            "{cells} {what}: a puzzle has 16 (4x4), 36 (6x6), 64 (8x8), 81 (9x9), 144 (12x12), \
             256 (16x16) or 625 (25x25)"
        ),
    }
}

/// Why a text over several lines is no board, when it is a grid cut short: every line with
/// cells (comments and border lines left out) holds `n` of them, `n` a size, and there are
/// fewer than `n` such lines.
fn cut_grid(text: &str) -> Option<String> {
    let widths: Vec<usize> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| {
            l.chars()
                .filter(|&c| !c.is_whitespace() && !is_border(c))
                .count()
        })
        .filter(|&w| w > 0)
        .collect();
    let &n = widths.first()?;
    (widths.len() > 1
        && widths.len() < n
        && size_of(n * n).is_some()
        && widths.iter().all(|&w| w == n))
    .then(|| {
        format!(
            "{} rows of {n} cells: a {n}x{n} grid cut short (it has {n} rows)",
            widths.len()
        )
    })
}

/// What a reading found: the layout, the alphabet, the values and, for a pencil-mark grid,
/// each cell's candidates (bit `d - 1` for digit `d`).
#[derive(Debug)]
pub(super) struct Read {
    pub layout: Layout,
    pub alphabet: Alphabet,
    pub values: Vec<u8>,
    pub marks: Option<Vec<u32>>,
}

/// Reads a board of any size (see the module's doc). `alphabet` and `boxes` (rows x columns)
/// override what is detected.
pub(super) fn read(
    text: &str,
    alphabet: Option<Alphabet>,
    boxes: Option<(u8, u8)>,
) -> Result<Read, ParseError> {
    let pieces = pieces(text);
    if pieces.is_empty() {
        return Err(ParseError::Empty);
    }
    let layout_for = |n: u8| match boxes {
        Some((r, c)) => Layout::with_box(n, r, c),
        None => Layout::new(n),
    };
    // Whitespace-separated numbers: asked for, or every piece a number or an empty mark, one
    // of them above 9 (else a line of symbols reads the same).
    let numeric = |p: &Piece| p.text.bytes().all(|b| b.is_ascii_digit()) || is_empty_mark(p.text);
    let looks_numbers = pieces.iter().all(numeric)
        && pieces
            .iter()
            .any(|p| p.text.len() > 1 && !is_empty_mark(p.text))
        && size_of(pieces.len()).is_some_and(|n| {
            pieces
                .iter()
                .all(|p| p.text.parse::<u32>().map_or(true, |v| v <= u32::from(n)))
        });
    if alphabet == Some(Alphabet::Numbers) || (alphabet.is_none() && looks_numbers) {
        let n = size_of(pieces.len()).ok_or_else(|| bad_count(pieces.len(), "numbers"))?;
        let layout = layout_for(n)?;
        // a pencil-mark grid in numbers: groups like `1,12,16` and `(5)`
        if pieces
            .iter()
            .any(|p| p.text.contains(',') || p.text.starts_with('('))
        {
            return read_number_marks(&pieces, layout);
        }
        let mut values = Vec::with_capacity(layout.cells());
        for p in &pieces {
            let v = if is_empty_mark(p.text) {
                0
            } else {
                p.text.parse::<u32>().unwrap_or(u32::MAX)
            };
            if v > u32::from(n) {
                return Err(ParseError::BadSymbol {
                    symbol: p.text.to_string(),
                    line: p.line,
                    col: p.col,
                    size: n.into(),
                    expected: format!("a number from 1 to {n}, or `.` or 0 for an empty cell"),
                });
            }
            values.push(v as u8);
        }
        return Ok(Read {
            layout,
            alphabet: Alphabet::Numbers,
            values,
            marks: None,
        });
    }
    // A pencil-mark grid: one piece per cell, some of several symbols, none an empty mark.
    // (Tried, not trusted: a grid of full rows spaced by boxes has as many pieces.)
    if let Some(n) = size_of(pieces.len())
        && pieces.iter().any(|p| p.text.chars().count() > 1)
        && !pieces.iter().any(|p| {
            // `0` is a mark of its own in 0-9A-F (16), an empty cell elsewhere
            let zero_empty = alphabet != Some(Alphabet::ZeroFirst);
            p.text
                .contains(|c: char| EMPTY_MARKS.contains(&c) || (zero_empty && c == '0'))
        })
        && let Ok(read) = read_marks(&pieces, layout_for(n)?, alphabet)
    {
        return Ok(read);
    }
    // Symbols, one per cell.
    let cells: Vec<(char, usize, usize)> = pieces
        .iter()
        .flat_map(|p| {
            p.text
                .chars()
                .enumerate()
                .filter(|(_, c)| !is_border(*c))
                .map(move |(i, c)| (c, p.line, p.col + i))
        })
        .collect();
    let n = size_of(cells.len()).ok_or_else(|| match cut_grid(text) {
        Some(why) => ParseError::BadSize { what: why },
        None => bad_count(cells.len(), "cells"),
    })?;
    let layout = layout_for(n)?;
    let alphabet = match alphabet {
        Some(a) => a,
        None => detect_alphabet(&cells, n)?,
    };
    let mut values = Vec::with_capacity(cells.len());
    for &(c, line, col) in &cells {
        match alphabet.value(c, n) {
            Some(v) => values.push(v),
            None => {
                return Err(ParseError::BadSymbol {
                    symbol: c.to_string(),
                    line,
                    col,
                    size: n.into(),
                    expected: format!("a {n}x{n} symbol ({})", alphabet.describe(n)),
                });
            }
        }
    }
    Ok(Read {
        layout,
        alphabet,
        values,
        marks: None,
    })
}

/// The alphabet of a puzzle of symbols read without `--symbols` (`cells`: each symbol with
/// its line and column), by this rule (docs/sizes.md, "Formats"): the alphabets that read
/// every symbol are `1-9A`, `0-9A` (from 10x10 up) and `A-Z`; when none does, the error names
/// the symbol `1-9A` cannot read and, when `A-Z` reads that one, the symbol `A-Z` cannot read.
/// Of several that read the same values, `1-9A`. `0-9A` and `1-9A` differ on `0` (the size
/// in one, an empty cell in the other): `0-9A` when another empty mark (`.`, `*`, `_`) is
/// there too, as a puzzle writes its empty cells one way, else `1-9A`. `A-Z` and the others
/// differ on letters (`A` is 1 or 10): an error naming them, as a puzzle whose symbols are all
/// letters that `1-9A` reads has too few symbols for one solution in `1-9A`.
fn detect_alphabet(cells: &[(char, usize, usize)], n: u8) -> Result<Alphabet, ParseError> {
    let reads = |a: Alphabet| cells.iter().all(|&(c, ..)| a.value(c, n).is_some());
    let first_bad = |a: Alphabet| cells.iter().find(|&&(c, ..)| a.value(c, n).is_none());
    let standard = reads(Alphabet::Standard);
    let zero_first = n >= 10 && reads(Alphabet::ZeroFirst);
    let letters = reads(Alphabet::Letters);
    let place =
        |&(c, line, col): &(char, usize, usize)| format!("`{c}` at line {line}, column {col}");
    if !standard && !zero_first && !letters {
        let &(c, line, col) = first_bad(Alphabet::Standard).expect("a symbol 1-9A cannot read");
        let mut expected = format!("a {n}x{n} symbol ({})", Alphabet::Standard.describe(n));
        if Alphabet::Letters.value(c, n).is_some()
            && let Some(other) = first_bad(Alphabet::Letters)
        {
            expected.push_str(&format!(
                ", and in {}, which has it, {} is not a symbol: no alphabet reads both",
                Alphabet::Letters.describe(n),
                place(other)
            ));
        }
        return Err(ParseError::BadSymbol {
            symbol: c.to_string(),
            line,
            col,
            size: n.into(),
            expected,
        });
    }
    let letter_cells: Vec<&(char, usize, usize)> = cells
        .iter()
        .filter(|(c, ..)| c.is_ascii_alphabetic())
        .collect();
    if letters && (standard || zero_first) && !letter_cells.is_empty() {
        let mut seen = String::new();
        for &&(c, ..) in &letter_cells {
            let c = c.to_ascii_uppercase();
            if !seen.contains(c) {
                seen.push(c);
            }
        }
        let named: Vec<String> = seen.chars().map(|c| format!("`{c}`")).collect();
        return Err(ParseError::BadSize {
            what: format!(
                "the {n}x{n} puzzle's symbols {} (first at line {}, column {}) read in {} \
                 (A is 10) and in {} (A is 1), with no digit to tell which: give --symbols",
                named.join(", "),
                letter_cells[0].1,
                letter_cells[0].2,
                Alphabet::Standard.name(),
                Alphabet::Letters.name()
            ),
        });
    }
    let has = |want: &dyn Fn(char) -> bool| cells.iter().any(|&(c, _, _)| want(c));
    if zero_first && has(&|c| c == '0') && (!standard || has(&|c| EMPTY_MARKS.contains(&c))) {
        return Ok(Alphabet::ZeroFirst);
    }
    Ok(if standard {
        Alphabet::Standard
    } else {
        Alphabet::Letters
    })
}

/// How a line of a puzzle file reads: a whole puzzle, or one row of a grid spread over `n`
/// lines (the line holds `n` cells, a size).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum LineKind {
    /// A puzzle by itself (or a line to report as it is).
    Whole,
    /// The first row of a grid of this size.
    Row(usize),
}

/// The number of cells of a line that reads as one row of a grid: `n` cells, `n` a size, each
/// a symbol of size `n` in some alphabet or an empty mark (counted as whitespace-separated
/// numbers when some number has two digits, else as symbols, borders and whitespace left out).
/// `None` for any other line (a whole puzzle, a comment, a library line, garbage).
pub(super) fn row_width(line: &str) -> Option<usize> {
    let t = line.trim();
    if t.starts_with(':') || t.starts_with('#') {
        return None;
    }
    let tokens = || {
        t.split(|c: char| c.is_whitespace() || c == '|')
            .filter(|p| !p.is_empty() && !p.chars().all(is_border))
    };
    let numbers = tokens().all(|p| p.bytes().all(|b| b.is_ascii_digit()) || is_empty_mark(p))
        && tokens().any(|p| p.len() > 1 && p.bytes().all(|b| b.is_ascii_digit()));
    let width = if numbers {
        tokens().count()
    } else {
        t.chars()
            .filter(|&c| !c.is_whitespace() && !is_border(c))
            .count()
    };
    let n = Layout::SIZES
        .iter()
        .copied()
        .find(|&n| usize::from(n) == width)?;
    let valid = if numbers {
        tokens().all(|p| is_empty_mark(p) || p.parse::<u8>().is_ok_and(|v| v <= n))
    } else {
        [Alphabet::Standard, Alphabet::ZeroFirst, Alphabet::Letters]
            .iter()
            .any(|a| {
                t.chars()
                    .filter(|&c| !c.is_whitespace() && !is_border(c))
                    .all(|c| a.value(c, n).is_some())
            })
    };
    valid.then_some(width)
}

/// Classifies the first line of a puzzle of a file (see [`LineKind`]): a row of a grid when
/// [`row_width`] says so, except that a line of 16 cells whose symbols are all 1-4 is a 4x4
/// puzzle.
pub(super) fn line_kind(line: &str) -> LineKind {
    let t = line.trim();
    let small = t.chars().all(|c| {
        c.is_whitespace()
            || is_border(c)
            || matches!(c, '1'..='4')
            || EMPTY_MARKS.contains(&c)
            || c == '0'
    });
    match row_width(t) {
        Some(16) if small => LineKind::Whole,
        Some(n) => LineKind::Row(n),
        None => LineKind::Whole,
    }
}

/// The cells of a row line as [`row_width`] counts them: each symbol (or number) upper-cased,
/// `None` for an empty mark.
fn row_cells(line: &str) -> Vec<Option<String>> {
    let t = line.trim();
    let tokens: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || c == '|')
        .filter(|p| !p.is_empty() && !p.chars().all(is_border))
        .collect();
    let numbers = tokens
        .iter()
        .any(|p| p.len() > 1 && p.bytes().all(|b| b.is_ascii_digit()));
    let cell = |s: String| (!is_empty_mark(&s)).then_some(s);
    if numbers {
        tokens.iter().map(|p| cell(p.to_string())).collect()
    } else {
        t.chars()
            .filter(|&c| !c.is_whitespace() && !is_border(c))
            .map(|c| cell(c.to_ascii_uppercase().to_string()))
            .collect()
    }
}

/// Whether `line` is the next row of a grid of `n` cells a row whose rows so far are `rows`:
/// it holds `n` cells ([`row_width`]), and, when it would read as a whole 4x4 puzzle by itself
/// (16 cells, symbols 1-4: [`line_kind`]), it repeats no symbol of its own and none of an
/// earlier row's in a column or a box (default boxes), so that a 16x16 grid cut short does not
/// take the 4x4 puzzles after it as its rows.
pub(super) fn continues_grid(rows: &[&str], line: &str, n: usize) -> bool {
    if row_width(line) != Some(n) {
        return false;
    }
    if line_kind(line) != LineKind::Whole {
        return true;
    }
    let Ok(layout) = Layout::new(n as u8) else {
        return true;
    };
    let this = row_cells(line);
    let r = rows.len();
    let box_of = |row: usize, col: usize| layout.box_of(row, col);
    for (c, v) in this.iter().enumerate() {
        let Some(v) = v else { continue };
        if this[..c].iter().any(|w| w.as_ref() == Some(v)) {
            return false;
        }
        for (k, earlier) in rows.iter().enumerate() {
            let cells = row_cells(earlier);
            let clash = cells
                .iter()
                .enumerate()
                .any(|(c2, w)| w.as_ref() == Some(v) && (c2 == c || box_of(k, c2) == box_of(r, c)));
            if clash {
                return false;
            }
        }
    }
    true
}

/// Whether a piece is an empty-cell mark.
fn is_empty_mark(text: &str) -> bool {
    let mut chars = text.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if EMPTY_MARKS.contains(&c) || c == '0')
}

/// Reads a pencil-mark grid in numbers (what `Puzzle::pencil_marks` writes in that alphabet):
/// each piece a cell's candidates separated by commas, a lone number a value, `(5)` one
/// candidate left.
fn read_number_marks(pieces: &[Piece], layout: Layout) -> Result<Read, ParseError> {
    let n = layout.n() as u8;
    let mut values = vec![0u8; layout.cells()];
    let mut marks = vec![0u32; layout.cells()];
    for (i, p) in pieces.iter().enumerate() {
        let group = p.text.trim_matches(['(', ')']);
        let mut mask = 0u32;
        for number in group.split(',') {
            match number.parse::<u8>() {
                Ok(v) if (1..=n).contains(&v) && mask & 1 << (v - 1) == 0 => mask |= 1 << (v - 1),
                _ => {
                    return Err(ParseError::BadSymbol {
                        symbol: group.to_string(),
                        line: p.line,
                        col: p.col,
                        size: n.into(),
                        expected: format!(
                            "a group of {n}x{n} candidates, numbers 1 to {n} separated by \
                             commas, each once"
                        ),
                    });
                }
            }
        }
        if mask.count_ones() == 1 && !p.text.starts_with('(') {
            values[i] = mask.trailing_zeros() as u8 + 1;
        }
        marks[i] = mask;
    }
    Ok(Read {
        layout,
        alphabet: Alphabet::Numbers,
        values,
        marks: Some(marks),
    })
}

/// Reads a pencil-mark grid: a one-symbol piece is a value, a longer one the cell's
/// candidates (parentheses around a piece ignored).
fn read_marks(
    pieces: &[Piece],
    layout: Layout,
    alphabet: Option<Alphabet>,
) -> Result<Read, ParseError> {
    let n = layout.n() as u8;
    let alphabet = alphabet.unwrap_or(Alphabet::Standard);
    let mut values = vec![0u8; layout.cells()];
    let mut marks = vec![0u32; layout.cells()];
    for (i, p) in pieces.iter().enumerate() {
        let group = p.text.trim_matches(['(', ')']);
        let mut mask = 0u32;
        for (k, c) in group.chars().enumerate() {
            let bit = alphabet
                .value(c, n)
                .filter(|&v| v != 0)
                .map(|v| 1u32 << (v - 1));
            match bit {
                Some(b) if mask & b == 0 => mask |= b,
                _ => {
                    return Err(ParseError::BadSymbol {
                        symbol: group.to_string(),
                        line: p.line,
                        col: p.col + k,
                        size: n.into(),
                        expected: format!(
                            "a group of {n}x{n} candidates, each once ({})",
                            alphabet.describe(n)
                        ),
                    });
                }
            }
        }
        if mask.count_ones() == 1 && !p.text.starts_with('(') {
            values[i] = mask.trailing_zeros() as u8 + 1;
        }
        marks[i] = mask;
    }
    Ok(Read {
        layout,
        alphabet,
        values,
        marks: Some(marks),
    })
}

/// One line: the symbols of the values, `.` for empty cells (numbers separated by spaces).
pub(super) fn line(alphabet: Alphabet, n: usize, values: &[u8]) -> String {
    let sep = if alphabet == Alphabet::Numbers {
        " "
    } else {
        ""
    };
    values
        .iter()
        .map(|&v| alphabet.symbol(v, n))
        .collect::<Vec<_>>()
        .join(sep)
}

/// A grid with box borders: each cell's text (values or candidates) padded to the widest of
/// its column.
pub(super) fn framed(layout: Layout, texts: &[String]) -> String {
    let n = layout.n();
    let widths: Vec<usize> = (0..n)
        .map(|c| {
            (0..n)
                .map(|r| texts[r * n + c].chars().count())
                .max()
                .unwrap_or(1)
        })
        .collect();
    let stack_rule = |s: usize| -> String {
        let w: usize = (s * layout.box_cols()..(s + 1) * layout.box_cols())
            .map(|c| widths[c] + 1)
            .sum();
        "-".repeat(w + 1)
    };
    let rule: String = (0..n / layout.box_cols())
        .map(stack_rule)
        .collect::<Vec<_>>()
        .join("+");
    let mut out = String::new();
    for r in 0..n {
        if r > 0 && r % layout.box_rows() == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        for c in 0..n {
            if c > 0 && c % layout.box_cols() == 0 {
                out.push_str(" |");
            }
            out.push(' ');
            let t = &texts[r * n + c];
            out.push_str(t);
            out.extend(std::iter::repeat_n(' ', widths[c] - t.chars().count()));
        }
        let end = out.trim_end().len();
        out.truncate(end);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_come_from_the_number_of_cells() {
        for n in Layout::SIZES {
            let cells = usize::from(n) * usize::from(n);
            let r = read(&".".repeat(cells), None, None).unwrap();
            assert_eq!(r.layout.n(), usize::from(n));
        }
        let err = read(&".".repeat(100), None, None).unwrap_err().to_string();
        assert!(
            err.contains("100 cells") && err.contains("256 (16x16)"),
            "{err}"
        );
    }

    #[test]
    fn a_bad_symbol_is_named_with_its_place() {
        let mut text = ".".repeat(256);
        text.replace_range(17..19, "H1");
        let err = read(&text, None, None).unwrap_err().to_string();
        assert!(
            err.contains("`H`") && err.contains("line 1, column 18") && err.contains("1-9, A-G"),
            "{err}"
        );
    }

    #[test]
    fn numbers_and_zero_first_and_letters() {
        let numbers: Vec<String> = (0..256)
            .map(|i| if i == 5 { "16".into() } else { ".".into() })
            .collect();
        let r = read(&numbers.join(" "), None, None).unwrap();
        assert_eq!((r.alphabet, r.values[5]), (Alphabet::Numbers, 16));
        let mut zero = "*".repeat(256);
        zero.replace_range(0..1, "0");
        let r = read(&zero, None, None).unwrap();
        assert_eq!((r.alphabet, r.values[0]), (Alphabet::ZeroFirst, 16));
        let mut letters = ".".repeat(256);
        letters.replace_range(3..4, "P");
        let r = read(&letters, None, None).unwrap();
        assert_eq!((r.alphabet, r.values[3]), (Alphabet::Letters, 16));
    }

    #[test]
    fn the_alphabet_is_the_one_every_symbol_reads_in() {
        // `.`, one `0`, one `G`: G is no 0-9A-F symbol; it is 16 in 1-9A-G and 7 in A-P, and
        // nothing tells which
        let mut line = ".".repeat(256);
        line.replace_range(4..5, "0");
        line.replace_range(9..10, "G");
        let err = read(&line, None, None).unwrap_err().to_string();
        assert!(err.contains("`G`") && err.contains("--symbols"), "{err}");
        // a digit tells: 1-9A-G, where 0 is empty
        line.replace_range(20..21, "5");
        let r = read(&line, None, None).unwrap();
        assert_eq!(
            (r.alphabet, r.values[4], r.values[9]),
            (Alphabet::Standard, 0, 16)
        );
        // 0-9A-F asked for: G is refused, as H is
        for bad in ["G", "g", "H"] {
            let mut l = line.clone();
            l.replace_range(9..10, bad);
            let err = read(&l, Some(Alphabet::ZeroFirst), None).unwrap_err();
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
        // `0` and `.` and letters 0-9A-F has: 0-9A-F
        line.replace_range(9..10, "F");
        assert_eq!(
            read(&line, None, None).unwrap().alphabet,
            Alphabet::ZeroFirst
        );
        // `0` the only empty mark: 1-9A
        let zeros = line.replace('.', "0");
        assert_eq!(
            read(&zeros, None, None).unwrap().alphabet,
            Alphabet::Standard
        );
    }

    #[test]
    fn letters_that_read_two_ways_and_symbols_no_alphabet_reads_are_errors() {
        let mut line = ".".repeat(256);
        line.replace_range(0..3, "ABC");
        let err = read(&line, None, None).unwrap_err().to_string();
        assert!(
            err.contains("`A`, `B`, `C`") && err.contains("--symbols"),
            "{err}"
        );
        // a digit tells: 1-9A
        line.replace_range(5..6, "7");
        assert_eq!(
            read(&line, None, None).unwrap().alphabet,
            Alphabet::Standard
        );
        // P is only a letter, 7 only a digit
        line.replace_range(8..9, "P");
        let err = read(&line, None, None).unwrap_err().to_string();
        assert!(
            err.contains("`P` at line 1, column 9") && err.contains("`7` at line 1, column 6"),
            "{err}"
        );
    }

    #[test]
    fn four_by_four_puzzles_do_not_continue_a_sixteen_grid() {
        let rows = ["6..B3....D..A.2.", "..1.....3......."];
        // a row of 1-4 that fits: a row
        assert!(continues_grid(&rows, ".2......4.......", 16));
        // repeats its own 2
        assert!(!continues_grid(&rows, "3.1...2.2....4..", 16));
        // 1 under the 1 of the row above
        assert!(!continues_grid(&rows, "..1.............", 16));
        // 3 in the box of the first row's 3
        assert!(!continues_grid(&rows, "....3...........", 16));
        // a row with other symbols is a row, whatever it repeats
        assert!(continues_grid(&rows, "G..G............", 16));
    }

    #[test]
    fn a_grid_cut_short_is_named() {
        let text = "6..B3....D..A.2.\n..1.....3.......\n";
        let err = read(text, None, None).unwrap_err().to_string();
        assert!(
            err.contains("2 rows of 16 cells: a 16x16 grid cut short"),
            "{err}"
        );
    }

    #[test]
    fn pencil_marks_of_a_four_by_four() {
        let text = "1 234 234 234\n234 234 234 234\n234 234 234 234\n234 234 234 (2)";
        let r = read(text, None, None).unwrap();
        let marks = r.marks.unwrap();
        assert_eq!(
            (r.values[0], marks[1], r.values[15], marks[15]),
            (1, 0b1110, 0, 0b10)
        );
    }
}

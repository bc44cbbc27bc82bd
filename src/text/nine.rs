//! Reading and writing grids: 81-character lines, pencil-mark grids and HoDoKu library lines.
//!
//! Parsers never panic: every malformed input gives a [`ParseError`] that says what and where.

use std::fmt::Write as _;

use crate::model::ParseError;
use crate::model::cell::{ALL_DIGITS, Cell, DigitMask, digit_bit, digits};
use crate::model::grid::{Candidate, Grid};

/// Reads a puzzle in any supported form: a HoDoKu library line (starts with `:`), an
/// 81-cell line or pasted multi-line grid, or a pencil-mark grid.
pub fn parse_puzzle(text: &str) -> Result<Grid, ParseError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ParseError::Empty);
    }
    if trimmed.starts_with(':') {
        return parse_library_line(trimmed).map(|case| case.grid);
    }
    if is_candidate_line(trimmed) {
        return parse_candidate_line(trimmed);
    }
    // `text`, not `trimmed`: error positions count from the start of the input as given
    // (parse_line skips whitespace anyway)
    match parse_line(text) {
        Ok(grid) => Ok(grid),
        Err(line_err) => {
            if looks_like_pencil_marks(trimmed) {
                parse_pencil_marks(trimmed)
            } else {
                Err(line_err)
            }
        }
    }
}

/// Whether text that is not an 81-cell line reads as a pencil-mark grid. Split at whitespace
/// and `|`, a pencil-mark grid's pieces are frames (no digit) and candidate groups (only
/// digits 1-9, none repeated); there are many groups (a pasted line has at most nine pieces);
/// no piece is an empty-cell mark (`.`, `0`); and some cell has candidates or a frame line is
/// there (`:`, `'`). So a mistyped line or pasted grid is reported by the line parser, with the
/// position of the bad character. A text with a pencil-mark frame (`:`, `'`, which no line
/// holds) and many pieces with digits is a pencil-mark grid even with a bad cell (`0`, `119`),
/// so that the cell is named rather than the frame.
fn looks_like_pencil_marks(text: &str) -> bool {
    strict_pencil_marks(text)
        || (text.contains([':', '\''])
            && text
                .split(|c: char| c.is_whitespace() || c == '|')
                .filter(|p| p.bytes().any(|b| b.is_ascii_digit()))
                .count()
                > 9)
}

/// The strict test of [`looks_like_pencil_marks`]: every piece a frame or a candidate group.
fn strict_pencil_marks(text: &str) -> bool {
    let mut groups = 0usize;
    let mut with_candidates = false;
    for piece in text
        .split(|c: char| c.is_whitespace() || c == '|')
        .filter(|p| !p.is_empty())
    {
        if piece
            .bytes()
            .all(|b| matches!(b, b'.' | b'0' | b'*' | b'_'))
        {
            return false;
        }
        if !piece.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            continue;
        }
        let mut seen: DigitMask = 0;
        for b in piece.bytes() {
            if !(b'1'..=b'9').contains(&b) || seen & digit_bit(b - b'0') != 0 {
                return false;
            }
            seen |= digit_bit(b - b'0');
        }
        groups += 1;
        with_candidates |= piece.len() > 1;
    }
    groups > 9 && (with_candidates || text.contains([':', '\'']))
}

/// Reads 81 cells: digits `1`-`9`, `.`, `0`, `*` or `_` for an empty cell. Whitespace and the `|`, `-`,
/// `+` of pasted grids are ignored. Every digit becomes a given.
///
/// ```
/// let grid = lapiz::text::parse_line(
///     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
/// ).unwrap();
/// assert_eq!(grid.givens().len(), 18);
/// ```
pub fn parse_line(text: &str) -> Result<Grid, ParseError> {
    line_values(text).map(|values| Grid::from_values(&values))
}

/// The 81 values of a one-line puzzle, as [`parse_line`] reads them (0 for an empty cell),
/// without building the candidate grid: for callers that need only the values, such as the
/// brute-force solver.
pub fn line_values(text: &str) -> Result<[u8; 81], ParseError> {
    let mut values = [0u8; 81];
    // The common case, 81 bytes of digits and dots, read byte by byte with no decoding.
    // Without a branch per byte (digits and dots alternate unpredictably): any other byte
    // only sets a flag, and the line then goes through the general loop below.
    if let Ok(bytes) = <&[u8; 81]>::try_from(text.as_bytes()) {
        let mut other = false;
        for (v, &b) in values.iter_mut().zip(bytes) {
            let digit = b.wrapping_sub(b'0');
            let dot = b == b'.';
            other |= digit > 9 && !dot;
            *v = if dot { 0 } else { digit };
        }
        if !other {
            return Ok(values);
        }
        values = [0u8; 81];
    }
    let mut n = 0usize;
    for (i, ch) in text.chars().enumerate() {
        let v = match ch {
            '1'..='9' => ch as u8 - b'0',
            '.' | '0' | '*' | '_' => 0,
            c if c.is_whitespace() || matches!(c, '|' | '-' | '+') => continue,
            _ => {
                return Err(ParseError::BadChar {
                    ch,
                    position: i + 1,
                });
            }
        };
        if n < 81 {
            values[n] = v;
        }
        n += 1;
    }
    if n != 81 {
        return Err(ParseError::WrongCellCount { found: n });
    }
    Ok(values)
}

fn digit_groups(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !matches!(c, '1'..='9'))
        .filter(|g| !g.is_empty())
}

/// Reads a pencil-mark grid as HoDoKu and Sudoku Explainer print it: 81 groups of digits in row
/// order, any other characters (frames, separators, line breaks) ignored. A one-digit group is a
/// given value; a longer group lists the cell's candidates.
pub fn parse_pencil_marks(text: &str) -> Result<Grid, ParseError> {
    let groups: Vec<&str> = digit_groups(text).collect();
    if groups.len() != 81 {
        return Err(bad_cell_piece(text).unwrap_or(ParseError::WrongGroupCount {
            found: groups.len(),
        }));
    }
    let mut masks = [0 as DigitMask; 81];
    for (i, g) in groups.iter().enumerate() {
        let mut mask = 0;
        for b in g.bytes() {
            let bit = digit_bit(b - b'0');
            if mask & bit != 0 {
                return Err(ParseError::BadGroup {
                    cell: Cell::new(i as u8),
                    group: g.to_string(),
                });
            }
            mask |= bit;
        }
        masks[i] = mask;
    }
    let mut values = [0u8; 81];
    for (i, &m) in masks.iter().enumerate() {
        if m.count_ones() == 1 {
            values[i] = m.trailing_zeros() as u8 + 1;
        }
    }
    let mut grid = Grid::from_values(&values);
    for cell in Cell::all() {
        let m = masks[cell.index()];
        if m.count_ones() > 1 {
            // keep only what the placed values allow
            let allowed = grid.candidates(cell);
            grid.set_candidates(cell, m & allowed);
        }
    }
    Ok(grid)
}

/// The length of a candidate line: nine characters for each of the 81 cells.
pub const CANDIDATE_LINE: usize = 729;

/// Whether `text` is a candidate line ([`parse_candidate_line`]): 729 characters, each a
/// digit or `.`.
pub fn is_candidate_line(text: &str) -> bool {
    text.len() == CANDIDATE_LINE && text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// Reads a candidate line, as tdoku and SukakuExplainer write a pencil-mark puzzle: nine
/// characters per cell, row by row, the `k`-th of them the digit `k` when it is a candidate of
/// the cell, `.` or `0` when it is not. Such a puzzle has no givens: its candidates are the
/// puzzle. As SukakuExplainer reads it, a cell left with one candidate that no cell it sees has
/// holds that digit (placing it takes nothing away); a one-candidate cell whose digit some
/// peer still has stays empty, for a single to place.
///
/// ```
/// let line = "123456789".repeat(81);
/// let grid = lapiz::text::parse_candidate_line(&line).unwrap();
/// assert_eq!(grid.candidate_count(), 729);
/// assert_eq!(lapiz::text::format_candidate_line(&grid), line);
/// ```
pub fn parse_candidate_line(text: &str) -> Result<Grid, ParseError> {
    let text = text.trim();
    let found = text.chars().count();
    if found != CANDIDATE_LINE {
        return Err(ParseError::BadSize {
            what: format!(
                "a candidate line has {CANDIDATE_LINE} characters (nine per cell), found {found}"
            ),
        });
    }
    let mut masks = [0 as DigitMask; 81];
    for (i, ch) in text.chars().enumerate() {
        let (cell, digit) = (i / 9, (i % 9) as u8 + 1);
        match ch {
            '.' | '0' => {}
            c if c as u32 == u32::from(b'0' + digit) => masks[cell] |= digit_bit(digit),
            ch => {
                return Err(ParseError::BadCandidate {
                    ch,
                    position: i + 1,
                    cell: Cell::new(cell as u8),
                    digit,
                });
            }
        }
    }
    let mut grid = Grid::empty();
    for cell in Cell::all() {
        grid.set_candidates(cell, masks[cell.index()]);
    }
    for cell in Cell::all() {
        let mask = grid.candidates(cell);
        if mask.count_ones() != 1 {
            continue;
        }
        let digit = mask.trailing_zeros() as u8 + 1;
        if cell.peers().iter().all(|p| !grid.has_candidate(p, digit)) {
            grid.set_value(cell, digit);
            grid.mark_given(cell);
        }
    }
    Ok(grid)
}

/// The candidate line of `grid` ([`parse_candidate_line`]): a cell with a value is written
/// with that digit alone.
pub fn format_candidate_line(grid: &Grid) -> String {
    let mut out = String::with_capacity(CANDIDATE_LINE);
    for cell in Cell::all() {
        let mask = match grid.value(cell) {
            0 => grid.candidates(cell),
            v => digit_bit(v),
        };
        for d in 1..=9u8 {
            out.push(if mask & digit_bit(d) != 0 {
                (b'0' + d) as char
            } else {
                '.'
            });
        }
    }
    out
}

/// The first cell of a pencil-mark grid that is not a candidate group, when the groups cannot
/// be counted: pieces (split at whitespace and `|`, parentheses dropped) with a digit are the
/// cells in order, and one holding anything but digits 1-9, each once (`0`, `5.`), is named
/// with its cell. `None` when every such piece is a group.
fn bad_cell_piece(text: &str) -> Option<ParseError> {
    let cells = text
        .split(|c: char| c.is_whitespace() || c == '|')
        .map(|p| p.trim_matches(['(', ')']))
        .filter(|p| p.bytes().any(|b| b.is_ascii_digit()));
    for (i, piece) in cells.enumerate().take(81) {
        let mut seen: DigitMask = 0;
        let good = piece.bytes().all(|b| {
            let ok = (b'1'..=b'9').contains(&b) && seen & digit_bit(b - b'0') == 0;
            if ok {
                seen |= digit_bit(b - b'0');
            }
            ok
        });
        if !good {
            return Some(ParseError::BadGroup {
                cell: Cell::new(i as u8),
                group: piece.to_string(),
            });
        }
    }
    None
}

/// Formats the pencil-mark grid in the common framed layout (values as single digits).
pub fn format_pencil_marks(grid: &Grid) -> String {
    let texts: Vec<String> = Cell::all()
        .map(|c| match grid.value(c) {
            0 => digits(grid.candidates(c))
                .map(|d| (b'0' + d) as char)
                .collect(),
            v => ((b'0' + v) as char).to_string(),
        })
        .collect();
    frame_cells(&texts)
}

/// Like [`format_pencil_marks`], but an empty cell with one candidate left is written `(5)`,
/// so it is told apart from a value (given or placed). [`parse_pencil_marks`] reads it back as
/// the value (it ignores the parentheses), as it reads a one-candidate cell.
pub fn format_pencil_marks_marked(grid: &Grid) -> String {
    let texts: Vec<String> = Cell::all()
        .map(|c| match grid.value(c) {
            0 => {
                let marks: String = digits(grid.candidates(c))
                    .map(|d| (b'0' + d) as char)
                    .collect();
                if marks.len() == 1 {
                    format!("({marks})")
                } else {
                    marks
                }
            }
            v => ((b'0' + v) as char).to_string(),
        })
        .collect();
    frame_cells(&texts)
}

/// Whether the grid has an empty cell with one candidate left (what
/// [`format_pencil_marks_marked`] writes in parentheses).
pub(crate) fn has_one_candidate_cell(grid: &Grid) -> bool {
    grid.empty_cells()
        .iter()
        .any(|c| grid.candidates(c).count_ones() == 1)
}

/// The 81 cell texts in the framed layout, each column as wide as its widest text.
fn frame_cells(texts: &[String]) -> String {
    let widths: Vec<usize> = (0..9)
        .map(|col| {
            (0..9)
                .map(|row| texts[row * 9 + col].len().max(1))
                .max()
                .unwrap_or(1)
        })
        .collect();
    let stack_width = |s: usize| widths[s * 3..s * 3 + 3].iter().sum::<usize>() + 4;
    let border = |l: char, m: char, r: char| {
        let mut s = String::new();
        s.push(l);
        for st in 0..3 {
            s.push_str(&"-".repeat(stack_width(st)));
            s.push(if st == 2 { r } else { m });
        }
        s
    };
    let mut out = String::new();
    out.push_str(&border('.', '.', '.'));
    out.push('\n');
    for row in 0..9 {
        if row == 3 || row == 6 {
            out.push_str(&border(':', '+', ':'));
            out.push('\n');
        }
        out.push('|');
        for col in 0..9 {
            let _ = write!(out, " {:<w$}", texts[row * 9 + col], w = widths[col]);
            if col % 3 == 2 {
                out.push_str(" |");
            }
        }
        out.push('\n');
    }
    out.push_str(&border('\'', '\'', '\''));
    out.push('\n');
    out
}

/// One case of HoDoKu's regression library:
/// `:code:candidates:givens:deleted:eliminations:placements:extra`.
#[derive(Clone, Debug)]
pub struct LibraryCase {
    /// Technique code, e.g. `0200`.
    pub code: String,
    /// Variant after the dash (`1`, `2`, or `x` for a case where nothing may be found).
    pub variant: Option<String>,
    /// The digits the technique works on.
    pub digits: DigitMask,
    /// The grid: givens, placed digits and remaining candidates.
    pub grid: Grid,
    /// Candidates deleted before the step.
    pub deleted: Vec<Candidate>,
    /// Expected eliminations.
    pub eliminations: Vec<Candidate>,
    /// Expected placements.
    pub placements: Vec<Candidate>,
    /// Extra information (e.g. chain length).
    pub extra: String,
}

impl LibraryCase {
    /// Whether this case expects no step of its technique (`-x` variant).
    pub fn expects_nothing(&self) -> bool {
        self.variant.as_deref() == Some("x")
    }
}

fn library_candidates(field: &'static str, text: &str) -> Result<Vec<Candidate>, ParseError> {
    text.split_whitespace()
        .map(|t| {
            let b = t.as_bytes();
            if b.len() == 3 && b.iter().all(|c| (b'1'..=b'9').contains(c)) {
                Ok(Candidate::new(
                    Cell::at(b[1] - b'1', b[2] - b'1'),
                    b[0] - b'0',
                ))
            } else {
                Err(ParseError::BadLibraryLine {
                    field,
                    message: format!("`{t}` is not a candidate (digit, row, column)"),
                })
            }
        })
        .collect()
}

/// Reads a HoDoKu library line (see the header of the regression library for the format).
pub fn parse_library_line(line: &str) -> Result<LibraryCase, ParseError> {
    let bad = |field, message: &str| ParseError::BadLibraryLine {
        field,
        message: message.to_string(),
    };
    let line = line.trim();
    let rest = line
        .strip_prefix(':')
        .ok_or_else(|| bad("start", "a library line starts with ':'"))?;
    let fields: Vec<&str> = rest.split(':').collect();
    if fields.len() < 6 {
        return Err(bad(
            "fields",
            &format!("expected 7 fields separated by ':', found {}", fields.len()),
        ));
    }
    let (code, variant) = match fields[0].split_once('-') {
        Some((c, v)) => (c.to_string(), Some(v.to_string())),
        None => (fields[0].to_string(), None),
    };
    if code.is_empty() || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(bad("technique", "the technique code must be alphanumeric"));
    }
    let mut digit_mask = 0;
    for b in fields[1].bytes() {
        match b {
            b'1'..=b'9' => digit_mask |= digit_bit(b - b'0'),
            b' ' => {}
            _ => return Err(bad("candidates", "only digits 1-9 are allowed")),
        }
    }
    // givens: '+' marks a placed (not given) digit
    let mut values = [0u8; 81];
    let mut placed = [false; 81];
    let mut n = 0usize;
    let mut plus = false;
    for (i, ch) in fields[2].chars().enumerate() {
        let v = match ch {
            '+' => {
                plus = true;
                continue;
            }
            '1'..='9' => ch as u8 - b'0',
            '.' | '0' => 0,
            _ => {
                return Err(bad(
                    "givens",
                    &format!("unexpected character {ch:?} at position {}", i + 1),
                ));
            }
        };
        if n < 81 {
            values[n] = v;
            placed[n] = plus && v != 0;
        }
        plus = false;
        n += 1;
    }
    if n != 81 {
        return Err(bad("givens", &format!("expected 81 cells, found {n}")));
    }
    let mut grid = Grid::empty();
    for cell in Cell::all() {
        let v = values[cell.index()];
        if v != 0 {
            grid.set_value(cell, v);
            if !placed[cell.index()] {
                grid.mark_given(cell);
            }
        }
    }
    let deleted = library_candidates("deleted candidates", fields[3])?;
    for d in &deleted {
        grid.eliminate(d.cell, d.digit);
    }
    let eliminations = library_candidates("eliminations", fields[4])?;
    let placements = library_candidates("placements", fields[5])?;
    Ok(LibraryCase {
        code,
        variant,
        digits: digit_mask,
        grid,
        deleted,
        eliminations,
        placements,
        extra: fields.get(6).map(|s| s.to_string()).unwrap_or_default(),
    })
}

fn library_candidates_text(cands: &[Candidate]) -> String {
    cands
        .iter()
        .map(|c| format!("{}{}{}", c.digit, c.cell.row() + 1, c.cell.col() + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The givens field and deleted-candidates field of a library line for `grid`.
fn library_grid_fields(grid: &Grid) -> (String, Vec<Candidate>) {
    let mut givens = String::new();
    for cell in Cell::all() {
        match grid.value(cell) {
            0 => givens.push('.'),
            v => {
                if !grid.is_given(cell) {
                    givens.push('+');
                }
                givens.push((b'0' + v) as char);
            }
        }
    }
    // candidates the values allow but the grid no longer has
    let mut deleted = Vec::new();
    for cell in Cell::all() {
        if grid.value(cell) != 0 {
            continue;
        }
        let mut allowed = ALL_DIGITS;
        for h in cell.houses() {
            allowed &= !grid.placed_in(h);
        }
        for d in digits(allowed & !grid.candidates(cell)) {
            deleted.push(Candidate::new(cell, d));
        }
    }
    (givens, deleted)
}

/// Formats a library line for `case` (the grid's givens, placed digits and deleted candidates
/// are written from `case.grid`).
pub fn format_library_line(case: &LibraryCase) -> String {
    let (givens, deleted) = library_grid_fields(&case.grid);
    let code = match &case.variant {
        Some(v) => format!("{}-{v}", case.code),
        None => case.code.clone(),
    };
    let digit_text: String = digits(case.digits).map(|d| (b'0' + d) as char).collect();
    format!(
        ":{code}:{digit_text}:{givens}:{}:{}:{}:{}",
        library_candidates_text(&deleted),
        library_candidates_text(&case.eliminations),
        library_candidates_text(&case.placements),
        case.extra
    )
}

/// Formats a grid as a library line with no technique (code `0000`, no expectations): a compact
/// way to store a grid's full pencil-mark state on one line.
pub fn format_grid_library_line(grid: &Grid) -> String {
    format_library_line(&LibraryCase {
        code: "0000".into(),
        variant: None,
        digits: 0,
        grid: grid.clone(),
        deleted: Vec::new(),
        eliminations: Vec::new(),
        placements: Vec::new(),
        extra: String::new(),
    })
}

/// Why a line is not UTF-8, for its error record: `not UTF-8 (invalid byte at column N)`.
pub fn not_utf8(error: &std::str::Utf8Error) -> String {
    format!(
        "not UTF-8 (invalid byte at column {})",
        error.valid_up_to() + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn line_values_fast_path_agrees_with_the_general_reader() {
        let v = line_values(P).unwrap();
        let zeros = P.replace('.', "0");
        assert_eq!(line_values(&zeros).unwrap(), v);
        // 81 bytes that are not all digits and dots go the general way, errors and all.
        let bad = format!("4..x{}", &P[4..]);
        assert!(matches!(
            line_values(&bad),
            Err(ParseError::BadChar {
                ch: 'x',
                position: 4
            })
        ));
        let spaced = format!("{} ", &P[..80]);
        assert!(matches!(
            line_values(&spaced),
            Err(ParseError::WrongCellCount { found: 80 })
        ));
        let framed = format!("{}|{}", &P[..40], &P[40..80]);
        assert!(matches!(
            line_values(&framed),
            Err(ParseError::WrongCellCount { found: 80 })
        ));
    }

    #[test]
    fn line_round_trip_and_errors() {
        let g = parse_line(P).unwrap();
        assert_eq!(g.to_line(), P);
        assert_eq!(
            parse_line(&P[..80]).unwrap_err(),
            ParseError::WrongCellCount { found: 80 }
        );
        let bad = format!("{}x{}", &P[..10], &P[11..]);
        assert_eq!(
            parse_line(&bad).unwrap_err(),
            ParseError::BadChar {
                ch: 'x',
                position: 11
            }
        );
    }

    #[test]
    fn multi_line_pasted_grid() {
        let text = "4 . . | . 3 . | . . .\n. . . | 6 . . | 8 . .\n. . . | . . . | . . 1\n------+-------+------\n. . . | . 5 . | . 9 .\n. 8 . | . . . | 6 . .\n. 7 . | 2 . . | . . .\n------+-------+------\n. . . | 1 . 2 | 7 . .\n5 . 3 | . . . | . 4 .\n9 . . | . . . | . . .";
        assert_eq!(parse_puzzle(text).unwrap().to_line(), P);
    }

    #[test]
    fn pencil_marks_round_trip() {
        let mut g = parse_line(P).unwrap();
        g.eliminate(Cell::new(1), 5);
        let text = format_pencil_marks(&g);
        let back = parse_pencil_marks(&text).unwrap();
        for c in Cell::all() {
            assert_eq!(back.value(c), g.value(c));
            assert_eq!(back.candidates(c), g.candidates(c), "{c}");
        }
        assert_eq!(parse_puzzle(&text).unwrap().to_line(), P);
    }

    #[test]
    fn candidate_lines_round_trip_and_keep_one_candidate_cells_empty() {
        let mut g = parse_line(P).unwrap();
        g.eliminate(Cell::new(1), 5);
        g.eliminate(Cell::new(2), 9);
        let line = format_candidate_line(&g);
        assert_eq!(line.len(), CANDIDATE_LINE);
        let back = parse_candidate_line(&line).unwrap();
        for c in Cell::all() {
            assert_eq!(back.value(c), g.value(c), "{c}");
            assert_eq!(back.candidates(c), g.candidates(c), "{c}");
        }
        assert_eq!(parse_puzzle(&line).unwrap(), back);
        assert_eq!(format_candidate_line(&back), line);
        // `0` for an absent candidate reads the same
        assert_eq!(parse_candidate_line(&line.replace('.', "0")).unwrap(), back);
        // the givens as single candidates, every other cell all nine: no value at all, as
        // each given's peers still have its digit
        let raw: String = P
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => {
                    let d = usize::from(b - b'0');
                    format!("{}{}{}", ".".repeat(d - 1), b as char, ".".repeat(9 - d))
                }
                _ => "123456789".to_string(),
            })
            .collect();
        let sukaku = parse_candidate_line(&raw).unwrap();
        assert!(sukaku.filled_cells().is_empty());
        assert_eq!(sukaku.candidates(Cell::new(0)), digit_bit(4));
    }

    #[test]
    fn a_candidate_line_names_a_digit_out_of_its_place() {
        let mut line = "123456789".repeat(81);
        // cell 2 (r1c2), its third place holds 4
        line.replace_range(11..12, "4");
        let err = parse_puzzle(&line).unwrap_err();
        assert_eq!(
            err,
            ParseError::BadCandidate {
                ch: '4',
                position: 12,
                cell: Cell::new(1),
                digit: 3
            }
        );
        assert!(err.to_string().contains("r1c2"), "{err}");
    }

    #[test]
    fn nine_by_nine_lines_take_every_empty_mark() {
        let want = line_values(P).unwrap();
        for mark in ["*", "_", "0"] {
            assert_eq!(line_values(&P.replace('.', mark)).unwrap(), want, "{mark}");
        }
    }

    #[test]
    fn library_line_round_trip() {
        let line = ":0603:3:14+8..+9+72+5.+3...89.697+6....38.+61......3+2.8.56...9......2.5+9+186....+8+3....61+6+1...35+89:224 524 225 525 135 455 755 458 758 165 168 771 284 484 784 285 485 785:364 365::";
        let case = parse_library_line(line).unwrap();
        assert_eq!(case.code, "0603");
        assert_eq!(case.eliminations.len(), 2);
        assert!(!case.grid.is_given(Cell::new(2)));
        assert!(case.grid.is_given(Cell::new(0)));
        assert!(!case.grid.has_candidate(Cell::at(1, 3), 2));
        let again = parse_library_line(&format_library_line(&case)).unwrap();
        assert_eq!(again.grid, case.grid);
        assert_eq!(again.eliminations, case.eliminations);
    }

    #[test]
    fn library_line_errors_name_the_field() {
        let err = parse_library_line(":0100:1:123:::::").unwrap_err();
        assert!(err.to_string().contains("givens"), "{err}");
        let line = format!(":0100:1:{P}:1x1:::");
        let err = parse_library_line(&line).unwrap_err();
        assert!(err.to_string().contains("deleted"), "{err}");
    }
}

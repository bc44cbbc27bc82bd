//! [`Puzzle`]: a puzzle of any size as text gives it (layout, alphabet, values, givens, pencil
//! marks), read from every format.

use std::fmt;

use crate::model::ParseError;
use crate::model::grid::Grid;
use crate::model::{Alphabet, Bits, Geometry, Layout, S9, Shape, with_symbols};
use crate::text::nine::parse_puzzle;
use crate::text::sized as text;

/// A puzzle of any size (4x4 to 25x25): its layout, the alphabet it was written in, its values
/// and, when read from a pencil-mark grid or a HoDoKu library line, its candidates and which
/// values are givens. The one puzzle type: the layers above add solving, hints, rating,
/// counting, generating and the canonical form to it, on 9x9 through 9x9's tuned code.
///
/// ```
/// use lapiz::text::Puzzle;
/// let p = Puzzle::parse("3.1...2.2....4..").unwrap();
/// assert_eq!((p.layout().n(), p.clues()), (4, 5));
/// assert_eq!(p.count_solutions(2), 1);
/// assert_eq!(p.solution().unwrap().to_line(), "3214412323411432");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Puzzle {
    pub(crate) layout: Layout,
    pub(crate) alphabet: Alphabet,
    pub(crate) values: Vec<u8>,
    /// Which values are givens (the rest were placed, as a library line places them); `None`:
    /// every value.
    pub(crate) givens: Option<Vec<bool>>,
    pub(crate) marks: Option<Vec<u32>>,
}

impl Puzzle {
    /// Reads a puzzle of any size in any supported form. Without `alphabet` and `boxes`, what
    /// the 9x9 reader ([`parse_puzzle`]) takes is 9x9: an 81-cell line, a pencil-mark grid, a
    /// HoDoKu library line (its placements and deleted candidates kept). Other texts go to the
    /// reader of every size ([`Puzzle::parse_with`]), whose error is reported when it saw
    /// another size (or no size at all), the 9x9 reader's otherwise.
    ///
    /// ```
    /// use lapiz::text::Puzzle;
    /// let nine = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    /// assert_eq!(Puzzle::read(nine, None, None).unwrap().layout().n(), 9);
    /// assert_eq!(Puzzle::read("3.1...2.2....4..", None, None).unwrap().layout().n(), 4);
    /// ```
    pub fn read(
        text: &str,
        alphabet: Option<Alphabet>,
        boxes: Option<(u8, u8)>,
    ) -> Result<Puzzle, ParseError> {
        let plain = alphabet.is_none() && boxes.is_none();
        let nine = if plain {
            match parse_puzzle(text) {
                Ok(grid) => return Ok(Puzzle::from_nine(&grid)),
                Err(e) => Some(e),
            }
        } else {
            None
        };
        match Puzzle::parse_with(text, alphabet, boxes) {
            Ok(p) if p.layout().n() != 9 => Ok(p),
            Ok(p) => match nine {
                Some(e) => Err(e),
                None => {
                    let values: [u8; 81] = p.values().try_into().expect("81 values");
                    Ok(Puzzle::from_nine(&Grid::from_values(&values)))
                }
            },
            Err(e) => Err(match (nine, &e) {
                (Some(nine), ParseError::BadSymbol { size: 9, .. }) => nine,
                (Some(ParseError::WrongCellCount { .. }), _) | (None, _) => e,
                // a symbol of larger boards (a letter), in a text of more cells than 9x9's and
                // of no size's count: the count is what is wrong
                (Some(ParseError::BadChar { ch, .. }), ParseError::BadSize { .. })
                    if ch.is_ascii_alphanumeric() && more_cells_than_nine(text) =>
                {
                    e
                }
                (Some(nine), ParseError::BadSize { .. }) => nine,
                _ => e,
            }),
        }
    }

    /// The 9x9 puzzle `grid` holds, exactly: its values, which of them are givens, and its
    /// candidates where they differ from what the values leave.
    pub fn from_nine(grid: &Grid) -> Puzzle {
        let plain = Grid::from_values(grid.values());
        let all = || crate::model::cell::Cell::all();
        let givens = (grid.givens() != grid.filled_cells())
            .then(|| all().map(|c| grid.is_given(c)).collect());
        let marks = (grid.candidate_masks() != plain.candidate_masks())
            .then(|| all().map(|c| u32::from(grid.candidates(c))).collect());
        Puzzle {
            layout: Layout::NINE,
            alphabet: Alphabet::Standard,
            values: grid.values().to_vec(),
            givens,
            marks,
        }
    }

    /// The 9x9 grid this puzzle holds, exactly as [`Puzzle::from_nine`] took it (`None`
    /// for another size): what 9x9's engine and fast paths start from.
    pub fn nine(&self) -> Option<Grid> {
        if self.layout.n() != 9 {
            return None;
        }
        let mut grid = Grid::blank(S9::geometry(Layout::NINE));
        for (cell, &v) in crate::model::cell::Cell::all().zip(&self.values) {
            if v != 0 {
                grid.set_value(cell, v);
                if self.givens.as_ref().is_none_or(|g| g[cell.index()]) {
                    grid.mark_given(cell);
                }
            }
        }
        if let Some(marks) = &self.marks {
            for (cell, &m) in crate::model::cell::Cell::all().zip(marks) {
                if self.values[cell.index()] == 0 {
                    grid.set_candidates(cell, m as u16);
                }
            }
        }
        Some(grid)
    }

    /// Reads a puzzle of any size in any supported form, detecting the size (from the number of
    /// cells) and the alphabet.
    pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
        Puzzle::parse_with(text, None, None)
    }

    /// [`Puzzle::parse`], with the alphabet and the box shape (rows, columns) given rather than
    /// detected.
    pub fn parse_with(
        text: &str,
        alphabet: Option<Alphabet>,
        boxes: Option<(u8, u8)>,
    ) -> Result<Puzzle, ParseError> {
        // a candidate line (nine characters a cell) is 9x9, in digits
        if crate::text::nine::is_candidate_line(text.trim())
            && matches!(alphabet, None | Some(Alphabet::Standard))
            && matches!(boxes, None | Some((3, 3)))
        {
            return crate::text::nine::parse_candidate_line(text).map(|g| Puzzle::from_nine(&g));
        }
        let read = text::read(text, alphabet, boxes)?;
        Ok(Puzzle {
            layout: read.layout,
            alphabet: read.alphabet,
            values: read.values,
            givens: None,
            marks: read.marks,
        })
    }

    /// A puzzle of `values` (0 empty, else 1..=n, one per cell row by row).
    pub fn from_values(
        layout: Layout,
        alphabet: Alphabet,
        values: Vec<u8>,
    ) -> Result<Puzzle, ParseError> {
        if values.len() != layout.cells() || values.iter().any(|&v| usize::from(v) > layout.n()) {
            return Err(ParseError::BadSize {
                what: format!("{} values do not make a {layout} board", values.len()),
            });
        }
        Ok(Puzzle {
            layout,
            alphabet,
            values,
            givens: None,
            marks: None,
        })
    }

    /// The same puzzle with other values and pencil marks (bit `d - 1` of a cell's mark for
    /// digit `d`): a position of its solve.
    pub fn with_values_and_marks(&self, values: Vec<u8>, marks: Vec<u32>) -> Puzzle {
        Puzzle {
            values,
            marks: Some(marks),
            ..self.clone()
        }
    }

    /// The position `grid` (of this puzzle's shape) as a puzzle in this one's symbols: its
    /// values, and its candidates as pencil marks.
    pub(crate) fn with_grid<S: Shape>(&self, grid: &crate::model::grid::Grid<S>) -> Puzzle {
        let marks = (0..S::CELLS)
            .map(|i| {
                let m = grid.candidates(S::cell(i));
                m.ones().fold(0u32, |acc, d| acc | 1 << d)
            })
            .collect();
        self.with_values_and_marks(grid.value_slice().to_vec(), marks)
    }

    /// The puzzle as a grid of its shape (`geo` is its layout's geometry): its values given,
    /// the candidates its pencil marks leave out (when read with some) taken away.
    pub(crate) fn grid<S: Shape>(&self, geo: &'static Geometry<S>) -> crate::model::grid::Grid<S> {
        let mut grid = crate::model::grid::Grid::from_value_slice(geo, &self.values);
        if let Some(marks) = &self.marks {
            for (i, &m) in marks.iter().enumerate() {
                let cell = S::cell(i);
                for d in grid.all_digits() {
                    if m >> (d - 1) & 1 == 0 {
                        grid.eliminate(cell, d);
                    }
                }
            }
        }
        grid
    }

    /// A 9x9 grid with this puzzle's pencil marks applied (the grid unchanged without marks).
    pub(crate) fn apply_marks(
        &self,
        mut grid: crate::model::grid::Grid,
    ) -> crate::model::grid::Grid {
        if let Some(marks) = &self.marks {
            for (cell, &m) in crate::model::cell::Cell::all().zip(marks) {
                for d in 1..=9u8 {
                    if m >> (d - 1) & 1 == 0 {
                        grid.eliminate(cell, d);
                    }
                }
            }
        }
        grid
    }

    /// The layout: size and boxes.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Runs `f` with explanations writing digits in the puzzle's symbols (a setting of the
    /// thread, see `with_symbols`).
    pub fn in_its_symbols<R>(&self, f: impl FnOnce() -> R) -> R {
        with_symbols(self.alphabet(), self.layout().n(), f)
    }

    /// The alphabet it was read in (and is written in).
    pub fn alphabet(&self) -> Alphabet {
        self.alphabet
    }

    /// The values, row by row (0 empty).
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Whether the cell (0-based) holds a given: a value not placed by a library line.
    pub fn is_given(&self, cell: usize) -> bool {
        self.values[cell] != 0 && self.givens.as_ref().is_none_or(|g| g[cell])
    }

    /// Whether the text had pencil marks (a pencil-mark grid, a candidate line, a library
    /// line's deleted candidates): then [`Puzzle::candidates`] keeps them.
    pub fn has_marks(&self) -> bool {
        self.marks.is_some()
    }

    /// How many cells hold a value.
    pub fn clues(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }

    /// The same values in another alphabet.
    pub fn in_alphabet(&self, alphabet: Alphabet) -> Puzzle {
        Puzzle {
            alphabet,
            ..self.clone()
        }
    }

    /// The values as one line in the puzzle's alphabet, `.` for empty cells.
    pub fn to_line(&self) -> String {
        text::line(self.alphabet, self.layout.n(), &self.values)
    }

    /// The values as a grid with box borders.
    pub fn to_grid(&self) -> String {
        let texts: Vec<String> = self
            .values
            .iter()
            .map(|&v| self.alphabet.symbol(v, self.layout.n()))
            .collect();
        text::framed(self.layout, &texts)
    }

    /// The name of a cell (0-based index): `r12c16`.
    pub fn cell_name(&self, cell: usize) -> String {
        let n = self.layout.n();
        format!("r{}c{}", cell / n + 1, cell % n + 1)
    }

    /// The pencil marks: each empty cell's candidates once the values (and, for a pencil-mark
    /// grid, its marks) are taken into account, as a grid with box borders.
    pub fn pencil_marks(&self) -> String {
        if let Some(grid) = self.nine() {
            return crate::text::nine::format_pencil_marks(&grid);
        }
        let cands = self.candidates();
        let n = self.layout.n();
        let texts: Vec<String> = (0..self.layout.cells())
            .map(|c| match self.values[c] {
                0 => {
                    let marks = (0..n)
                        .filter(|d| cands[c] >> d & 1 != 0)
                        .map(|d| self.alphabet.symbol(d as u8 + 1, n))
                        .collect::<Vec<_>>()
                        .join(if self.alphabet == Alphabet::Numbers {
                            ","
                        } else {
                            ""
                        });
                    // one candidate left, not a value: `(5)`, as 9x9 writes it
                    if cands[c].count_ones() == 1 {
                        format!("({marks})")
                    } else {
                        marks
                    }
                }
                v => self.alphabet.symbol(v, n),
            })
            .collect();
        text::framed(self.layout, &texts)
    }

    /// Each cell's candidates (bit `d - 1` for digit `d`; none for a cell with a value).
    pub fn candidates(&self) -> Vec<u32> {
        let mut cands = vec![(1u32 << self.layout.n()) - 1; self.layout.cells()];
        let n = self.layout.n();
        for (c, &v) in self.values.iter().enumerate() {
            if v == 0 {
                continue;
            }
            cands[c] = 0;
            let (r, col) = (c / n, c % n);
            let b = self.layout.box_of(r, col);
            for (o, other) in cands.iter_mut().enumerate() {
                let (r2, c2) = (o / n, o % n);
                if r2 == r || c2 == col || self.layout.box_of(r2, c2) == b {
                    *other &= !(1 << (v - 1));
                }
            }
        }
        if let Some(marks) = &self.marks {
            for (c, m) in cands.iter_mut().zip(marks) {
                *c &= m;
            }
        }
        cands
    }

    /// How many lines of a puzzle file make one puzzle, judged from its first line: 1 for a
    /// puzzle on one line, `n` for the first row of an `n x n` grid spread over `n` lines
    /// (blank, comment and border lines between its rows not counted). A line of 16 cells is a
    /// 4x4 puzzle when its symbols are 1-4, else the first row of a 16x16 grid.
    ///
    /// ```
    /// use lapiz::text::Puzzle;
    /// assert_eq!(Puzzle::lines_of(".A729.BC.....3.1"), 16);
    /// assert_eq!(Puzzle::lines_of("3.1...2.2....4.."), 1);
    /// assert_eq!(Puzzle::lines_of(" 11  .  . 16  2  4  .  .  .  1  .  3  5  . 14  ."), 16);
    /// ```
    pub fn lines_of(first: &str) -> usize {
        match text::line_kind(first) {
            text::LineKind::Whole => 1,
            text::LineKind::Row(n) => n,
        }
    }

    /// Whether `line` continues a grid of `n` cells a row (see [`Puzzle::lines_of`]): it holds
    /// `n` cells, each a symbol of that size or an empty mark.
    ///
    /// ```
    /// use lapiz::text::Puzzle;
    /// assert!(Puzzle::is_row_of("6..B3....D..A.2.", 16));
    /// assert!(!Puzzle::is_row_of("bad500", 6));
    /// ```
    pub fn is_row_of(line: &str, n: usize) -> bool {
        text::row_width(line) == Some(n)
    }

    /// The candidate line of a 9x9 puzzle (nine characters a cell, the digit where it is a
    /// candidate, `.` where not: [`parse_candidate_line`](crate::text::parse_candidate_line)),
    /// `None` for another size.
    pub fn to_candidate_line(&self) -> Option<String> {
        self.nine()
            .map(|g| crate::text::nine::format_candidate_line(&g))
    }

    /// Whether `line` is the next row of a grid of `n` cells a row, spread over several lines
    /// of a file, whose rows so far are `rows`: [`Puzzle::is_row_of`], except that a line that
    /// reads as a whole 4x4 puzzle (16 cells, symbols 1-4) is one only when it repeats no
    /// symbol in its row and none of the rows so far in a column or a box. So a 16x16 grid cut
    /// short does not take the 4x4 puzzles after it as its rows.
    ///
    /// ```
    /// use lapiz::text::Puzzle;
    /// let rows = ["6..B3....D..A.2."];
    /// assert!(Puzzle::continues_grid(&rows, "..1.....3.......", 16));
    /// // a 4x4 puzzle: 2 twice in it
    /// assert!(!Puzzle::continues_grid(&rows, "3.1...2.2....4..", 16));
    /// ```
    pub fn continues_grid(rows: &[&str], line: &str, n: usize) -> bool {
        text::continues_grid(rows, line, n)
    }

    /// The first two cells (0-based indices, in reading order) of one house holding the same
    /// value, and the value: rows first, then columns, then boxes.
    ///
    /// ```
    /// use lapiz::text::Puzzle;
    /// assert_eq!(Puzzle::parse("3.3...2.2....4..").unwrap().clash(), Some((0, 2, 3)));
    /// assert_eq!(Puzzle::parse("3.1...2.2....4..").unwrap().clash(), None);
    /// ```
    pub fn clash(&self) -> Option<(usize, usize, u8)> {
        let n = self.layout.n();
        let house = |kind: usize, h: usize, k: usize| match kind {
            0 => h * n + k,
            1 => k * n + h,
            _ => {
                let (br, bc) = (self.layout.box_rows(), self.layout.box_cols());
                let (top, left) = (h / (n / bc) * br, h % (n / bc) * bc);
                (top + k / bc) * n + left + k % bc
            }
        };
        for kind in 0..3 {
            for h in 0..n {
                let mut seen = vec![None; n + 1];
                for k in 0..n {
                    let cell = house(kind, h, k);
                    let v = usize::from(self.values[cell]);
                    if v == 0 || v > n {
                        continue;
                    }
                    match seen[v] {
                        Some(first) => return Some((first, cell, v as u8)),
                        None => seen[v] = Some(cell),
                    }
                }
            }
        }
        None
    }

    /// [`Puzzle::clash`] as the error that names it: `r1c1 and r1c3 both hold 3`.
    pub fn clash_error(&self) -> Option<crate::model::PuzzleError> {
        self.clash()
            .map(|(a, b, v)| crate::model::PuzzleError::ClashNamed {
                first: self.cell_name(a),
                second: self.cell_name(b),
                value: self.alphabet.symbol(v, self.layout.n()),
            })
    }

    /// Whether every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }
}

/// Whether `text` holds more than 81 cells (characters other than whitespace and borders).
fn more_cells_than_nine(text: &str) -> bool {
    text.chars()
        .filter(|&c| !c.is_whitespace() && !matches!(c, '|' | '-' | '+' | '='))
        .count()
        > 81
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_first_pencil_mark_grid_reads_back() {
        let line = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";
        let p = Puzzle::parse(line)
            .unwrap()
            .in_alphabet(Alphabet::ZeroFirst);
        let text = p.pencil_marks();
        // 16 is written 0, in values and in candidates
        assert!(text.contains('0'));
        let back = Puzzle::parse_with(&text, Some(Alphabet::ZeroFirst), None).unwrap();
        assert_eq!(back.values(), p.values());
        assert_eq!(back.candidates(), p.candidates());
    }

    #[test]
    fn a_one_candidate_cell_of_another_size_reads_back_empty() {
        for alphabet in [Alphabet::Standard, Alphabet::Letters, Alphabet::Numbers] {
            let p = Puzzle::parse("3.1...2.2....4..")
                .unwrap()
                .in_alphabet(alphabet);
            let mut marks = p.candidates();
            // r1c2 keeps only its solution's digit 2, r1c4 keeps 2 and 4
            marks[1] = 1 << 1;
            let p = p.with_values_and_marks(p.values().to_vec(), marks.clone());
            let text = p.pencil_marks();
            let want = Alphabet::symbol(alphabet, 2, 4);
            assert!(text.contains(&format!("({want})")), "{alphabet}: {text}");
            let back = Puzzle::parse_with(&text, Some(alphabet), None).unwrap();
            assert_eq!(back.values(), p.values(), "{alphabet}: {text}");
            assert_eq!(back.candidates(), marks, "{alphabet}: {text}");
        }
    }

    #[test]
    fn a_repeated_clue_of_any_size_is_named_by_its_cells() {
        let mut line = ".".repeat(256);
        line.replace_range(0..1, "G");
        line.replace_range(2..3, "G");
        line.replace_range(100..101, "1");
        let p = Puzzle::parse(&line).unwrap();
        assert_eq!(
            p.solution().unwrap_err().to_string(),
            "r1c1 and r1c3 both hold G"
        );
        // in a column, then in a box
        let mut line = ".".repeat(256);
        line.replace_range(0..1, "5");
        line.replace_range(32..33, "5");
        let p = Puzzle::parse(&line).unwrap();
        assert_eq!(
            p.clash_error().unwrap().to_string(),
            "r1c1 and r3c1 both hold 5"
        );
        let mut line = ".".repeat(256);
        line.replace_range(0..1, "5");
        line.replace_range(17..18, "5");
        let p = Puzzle::parse(&line).unwrap();
        assert_eq!(
            p.clash_error().unwrap().to_string(),
            "r1c1 and r2c2 both hold 5"
        );
    }

    #[test]
    fn a_candidate_line_is_counted_within_its_marks() {
        let nine =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let p = Puzzle::parse(nine).unwrap();
        let line = p.to_candidate_line().unwrap();
        let read = Puzzle::parse(&line).unwrap();
        assert_eq!(read.count_solutions(2), 1);
        assert_eq!(
            read.solution().unwrap().values(),
            p.solution().unwrap().values()
        );
        // every candidate of every cell: many solutions
        let all = Puzzle::parse(&"123456789".repeat(81)).unwrap();
        assert_eq!(all.count_solutions(2), 2);
        // ...of which the marks of r1c1 = 1, r1c2 = 1 leave none
        let none = format!("1........1........{}", "123456789".repeat(79));
        assert_eq!(Puzzle::parse(&none).unwrap().count_solutions(2), 0);
    }

    #[test]
    fn default_boxes_are_as_square_as_the_size_allows() {
        let boxes: Vec<(usize, usize)> = Layout::SIZES
            .iter()
            .map(|&n| {
                let l = Layout::new(n).unwrap();
                (l.box_rows(), l.box_cols())
            })
            .collect();
        assert_eq!(
            boxes,
            [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)]
        );
    }

    #[test]
    fn other_boxes_must_multiply_to_the_size() {
        assert!(Layout::with_box(12, 2, 6).is_ok());
        assert!(Layout::with_box(12, 3, 3).is_err());
        assert!(Layout::with_box(9, 1, 9).is_err());
        assert!(Layout::parse_box(6, "3x2").is_ok());
        assert!(Layout::parse_box(6, "3by2").is_err());
        assert_eq!(Layout::with_box(6, 3, 2).unwrap().box_of(2, 5), 2);
        assert_eq!(Layout::with_box(6, 3, 2).unwrap().box_of(3, 0), 3);
    }
}

//! What a frame draws, for every size: the position (a board's values, pencil marks and givens,
//! size-free) and the drawing's measures for the board's layout (cell size, where each digit's
//! pencil mark goes, the box borders).

use crate::model::cell::Cell;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Alphabet, Bits, Layout, Shape};
use crate::text::Puzzle;

use super::svg::{CELL, MARGIN};

/// A board as a frame draws it, of any size: the values, candidates and givens row by row, with
/// the layout (for the box borders) and the alphabet the digits are written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Position {
    /// The size and box shape.
    pub layout: Layout,
    /// The symbols the grid writes its digits in (the puzzle's).
    pub alphabet: Alphabet,
    /// Each cell's value, 0 for an empty cell.
    pub values: Vec<u8>,
    /// Each cell's candidates, bit `d - 1` for digit `d` (none for a cell with a value).
    pub cands: Vec<u32>,
    /// Whether each cell is a given.
    pub givens: Vec<bool>,
}

impl Position {
    /// The position of `grid`, its digits written in `alphabet`.
    pub fn of<S: Shape>(grid: &Grid<S>, alphabet: Alphabet) -> Position {
        let cells = || (0..S::CELLS).map(S::cell);
        Position {
            layout: grid.geometry().layout(),
            alphabet,
            values: cells().map(|c| grid.value(c)).collect(),
            cands: cells()
                .map(|c| grid.candidates(c).ones().fold(0u32, |m, d| m | 1 << d))
                .collect(),
            givens: cells().map(|c| grid.is_given(c)).collect(),
        }
    }

    /// The position of a puzzle as read (its values given, its pencil marks when it had some).
    pub fn of_puzzle(puzzle: &Puzzle) -> Position {
        let values = puzzle.values().to_vec();
        Position {
            layout: puzzle.layout(),
            alphabet: puzzle.alphabet(),
            cands: puzzle.candidates(),
            givens: values.iter().map(|&v| v != 0).collect(),
            values,
        }
    }

    /// A board of `layout` with no values and no candidates (drawn when there is no puzzle).
    pub fn empty(layout: Layout) -> Position {
        Position {
            layout,
            alphabet: Alphabet::Standard,
            values: vec![0; layout.cells()],
            cands: vec![0; layout.cells()],
            givens: vec![false; layout.cells()],
        }
    }

    /// The cells row by row, with their index in the position's vectors.
    pub fn cells(&self) -> impl Iterator<Item = (usize, Cell)> + use<> {
        let n = self.layout.n();
        (0..self.layout.cells()).map(move |i| (i, Cell::at((i / n) as u8, (i % n) as u8)))
    }

    /// Digit `d` written in the position's alphabet.
    pub fn symbol(&self, d: u8) -> String {
        self.alphabet.symbol(d, self.layout.n())
    }
}

/// How a board of one layout is drawn: the cell size and the sub-grid of pencil marks in a
/// cell. A pencil mark keeps the 9x9 page's room (18 units: a third of its 54-unit cell), so a
/// cell grows with the marks it holds side by side (16x16 four, 25x25 five); 4x4 to 9x9 keep
/// the 9x9 cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Measures {
    /// The layout drawn.
    pub layout: Layout,
    /// A cell's side in SVG units.
    pub cell: f32,
    /// Pencil marks side by side in a cell (digit 1 top left, then row by row).
    marks_across: usize,
    /// Rows of pencil marks in a cell.
    marks_down: usize,
}

impl Measures {
    /// The measures of `layout`: `ceil(sqrt(n))` marks across (4x4 two, 6x6 to 9x9 three,
    /// 12x12 and 16x16 four, 25x25 five), as many rows as the digits need.
    pub fn of(layout: Layout) -> Measures {
        let n = layout.n();
        let across = (1..=n).find(|k| k * k >= n).unwrap_or(n);
        let slot = CELL / 3.0;
        Measures {
            layout,
            cell: slot * across.max(3) as f32,
            marks_across: across,
            marks_down: n.div_ceil(across),
        }
    }

    /// The size: rows, columns, digits.
    pub fn n(&self) -> usize {
        self.layout.n()
    }

    /// The side of the whole drawing, the labels' margins included.
    pub fn side(&self) -> f32 {
        2.0 * MARGIN + self.n() as f32 * self.cell
    }

    /// Top-left corner of a cell.
    pub fn cell_origin(&self, cell: Cell) -> (f32, f32) {
        (
            MARGIN + f32::from(cell.col()) * self.cell,
            MARGIN + f32::from(cell.row()) * self.cell,
        )
    }

    /// Centre of a candidate's pencil-mark position.
    pub fn candidate_centre(&self, c: Candidate) -> (f32, f32) {
        let (x, y) = self.cell_origin(c.cell);
        let d = f32::from(c.digit.clamp(1, self.n() as u8) - 1);
        let (across, down) = (self.marks_across as f32, self.marks_down as f32);
        let (w, h) = (self.cell / across, self.cell / down);
        (
            x + ((d % across) + 0.5) * w,
            y + ((d / across).floor() + 0.5) * h,
        )
    }

    /// The class of the grid line before row `i` (`row` true) or column `i`: `thick` on a box
    /// border, else `thin`.
    pub fn line_class(&self, i: usize, row: bool) -> &'static str {
        let boxed = if row {
            self.layout.box_rows()
        } else {
            self.layout.box_cols()
        };
        if i.is_multiple_of(boxed) {
            "thick"
        } else {
            "thin"
        }
    }

    /// The page's styles for a board larger than 9x9, written after the page's own (none for
    /// 9x9 and smaller boards, which keep its 54-unit cells): the view takes the room the
    /// window has beside the step list, which stays beside it (so that following a step
    /// scrolls the list, not the page) and in sight; long steps (a 16x16 line's eliminations)
    /// wrap; the values are scaled to the cell, the pencil marks a little larger (their room is
    /// 9x9's, but the drawing is scaled down further).
    pub fn size_style(&self) -> String {
        if self.cell <= CELL {
            return String::new();
        }
        // 0.8 pixel per unit at most: a pencil mark's 13 units about 10 pixels
        let width = (self.side() * 0.8).round();
        let value = (self.cell * 0.6).round();
        format!(
            "main{{flex-wrap:nowrap}}\n#view{{flex:1 1 {width}px;max-width:{width}px}}\n\
             #steps{{flex:0 0 22em;position:sticky;top:.5em}}\n#steps li{{overflow-wrap:anywhere}}\n\
             .given,.placed,.solution{{font-size:{value}px}}\n.pm{{font-size:15px}}\n"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_by_nine_keeps_its_measures() {
        let m = Measures::of(Layout::NINE);
        assert_eq!((m.cell, m.marks_across, m.marks_down), (54.0, 3, 3));
        assert_eq!(m.side(), 530.0);
        let c = Candidate::new(Cell::at(0, 0), 9);
        assert_eq!(m.candidate_centre(c), (22.0 + 45.0, 22.0 + 45.0));
    }

    #[test]
    fn every_size_has_room_for_its_marks() {
        for (n, across, down, cell) in [
            (4, 2, 2, 54.0),
            (6, 3, 2, 54.0),
            (8, 3, 3, 54.0),
            (12, 4, 3, 72.0),
            (16, 4, 4, 72.0),
            (25, 5, 5, 90.0),
        ] {
            let m = Measures::of(Layout::new(n).unwrap());
            assert_eq!((m.marks_across, m.marks_down, m.cell), (across, down, cell));
            assert!(m.marks_across * m.marks_down >= usize::from(n));
            // the last digit's mark stays inside its cell
            let last = Candidate::new(Cell::at(n - 1, n - 1), n);
            let (x, y) = m.candidate_centre(last);
            assert!(x < m.side() - MARGIN && y < m.side() - MARGIN);
        }
    }

    #[test]
    fn box_borders_follow_the_box_shape() {
        let m = Measures::of(Layout::new(12).unwrap());
        let thick = |row| {
            (0..=12)
                .filter(|&i| m.line_class(i, row) == "thick")
                .collect::<Vec<_>>()
        };
        // 3x4 boxes: a band every 3 rows, a stack every 4 columns
        assert_eq!(thick(true), vec![0, 3, 6, 9, 12]);
        assert_eq!(thick(false), vec![0, 4, 8, 12]);
    }
}

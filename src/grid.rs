//! [`Grid`]: values, givens and the pencil marks (candidates) of every cell.

use std::fmt;

use crate::cellset::CellSet;
use crate::geometry::{ALL_DIGITS, Cell, DigitMask, House, digit_bit};

/// A candidate: a digit that may still go in a cell. Written `5r3c7` (Eureka notation).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The cell.
    pub cell: Cell,
    /// The digit, 1..=9.
    pub digit: u8,
}

impl Candidate {
    /// The candidate `digit` in `cell`.
    #[inline]
    pub const fn new(cell: Cell, digit: u8) -> Candidate {
        Candidate { cell, digit }
    }
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.digit, self.cell)
    }
}

impl fmt::Debug for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Candidate {
    type Err = String;
    /// Parses `5r3c7`.
    fn from_str(s: &str) -> Result<Candidate, String> {
        let b = s.as_bytes();
        if b.len() == 5
            && (b'1'..=b'9').contains(&b[0])
            && let Ok(cell) = s[1..].parse::<Cell>()
        {
            return Ok(Candidate::new(cell, b[0] - b'0'));
        }
        Err(format!(
            "`{s}` is not a candidate (digit then cell, e.g. 5r3c7)"
        ))
    }
}

impl serde::Serialize for Candidate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Candidate {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Candidate, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The state of a puzzle being solved: each cell's value (0 when empty), which values were given,
/// and the candidate mask of every empty cell.
///
/// Invariants kept by every method: a cell with a value has no candidates, and
/// [`Grid::digit_cells`] always agrees with the candidate masks.
///
/// ```
/// use lapiz::geometry::{Cell, digits};
/// use lapiz::parse::parse_puzzle;
///
/// # fn main() -> Result<(), lapiz::ParseError> {
/// let grid = parse_puzzle(
///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )?;
/// // Values: r1c3 holds a given 3, r1c1 is empty (0).
/// let (r1c1, r1c2, r1c3) = (Cell::at(0, 0), Cell::at(0, 1), Cell::at(0, 2));
/// assert_eq!((grid.value(r1c3), grid.is_given(r1c3)), (3, true));
/// assert_eq!(grid.value(r1c1), 0);
/// assert_eq!(grid.givens().len(), 32);
///
/// // Candidates: r1c1 sees 2, 3 and 6 in its row, 7, 8 and 9 in its column, 1 in its box.
/// assert_eq!(digits(grid.candidates(r1c1)).collect::<Vec<_>>(), [4, 5]);
/// assert_eq!(grid.digit_cells(4).contains(r1c1), grid.has_candidate(r1c1, 4));
///
/// // Placing a value takes the digit out of its peers' candidates.
/// let mut next = grid.clone();
/// assert!(next.has_candidate(r1c2, 4));
/// next.set_value(r1c1, 4);
/// assert!(!next.has_candidate(r1c2, 4));
/// assert!(next.candidate_count() < grid.candidate_count());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    values: [u8; 81],
    cands: [DigitMask; 81],
    givens: CellSet,
    filled: CellSet,
    digit_cells: [CellSet; 9],
}

impl Default for Grid {
    fn default() -> Self {
        Grid::empty()
    }
}

impl Grid {
    /// An empty grid: no values, every candidate present.
    pub fn empty() -> Grid {
        Grid {
            values: [0; 81],
            cands: [ALL_DIGITS; 81],
            givens: CellSet::EMPTY,
            filled: CellSet::EMPTY,
            digit_cells: [CellSet::ALL; 9],
        }
    }

    /// A grid from 81 values (0 = empty), all non-zero values given, candidates computed from
    /// the values. Values are not checked for clashes: see [`Grid::conflict`].
    pub fn from_values(values: &[u8; 81]) -> Grid {
        let mut grid = Grid::empty();
        for cell in Cell::all() {
            let v = values[cell.index()];
            if (1..=9).contains(&v) {
                grid.set_value(cell, v);
                grid.givens.insert(cell);
            }
        }
        grid
    }

    /// The value of `cell`, 0 when empty.
    #[inline]
    pub fn value(&self, cell: Cell) -> u8 {
        self.values[cell.index()]
    }

    /// All 81 values (0 = empty).
    #[inline]
    pub fn values(&self) -> &[u8; 81] {
        &self.values
    }

    /// The candidate mask of `cell` (empty for a cell with a value).
    #[inline]
    pub fn candidates(&self, cell: Cell) -> DigitMask {
        self.cands[cell.index()]
    }

    /// Whether `digit` is a candidate of `cell`.
    #[inline]
    pub fn has_candidate(&self, cell: Cell, digit: u8) -> bool {
        self.cands[cell.index()] & digit_bit(digit) != 0
    }

    /// The cells where `digit` (1..=9) is still a candidate.
    #[inline]
    pub fn digit_cells(&self, digit: u8) -> CellSet {
        self.digit_cells[digit as usize - 1]
    }

    /// The cells of `house` where `digit` is still a candidate.
    #[inline]
    pub fn digit_cells_in(&self, digit: u8, house: House) -> CellSet {
        self.digit_cells[digit as usize - 1] & house.cells()
    }

    /// The given cells.
    #[inline]
    pub fn givens(&self) -> CellSet {
        self.givens
    }

    /// Whether `cell` holds a given.
    #[inline]
    pub fn is_given(&self, cell: Cell) -> bool {
        self.givens.contains(cell)
    }

    /// The cells with no value yet.
    #[inline]
    pub fn empty_cells(&self) -> CellSet {
        !self.filled
    }

    /// The cells with a value (given or placed).
    #[inline]
    pub fn filled_cells(&self) -> CellSet {
        self.filled
    }

    /// Whether every cell has a value.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.filled == CellSet::ALL
    }

    /// The digits placed in `house`.
    pub fn placed_in(&self, house: House) -> DigitMask {
        house
            .cell_list()
            .iter()
            .map(|&c| self.values[c.index()])
            .filter(|&v| v != 0)
            .fold(0, |m, v| m | digit_bit(v))
    }

    /// The mask of the candidates of all cells in `cells`.
    pub fn candidates_of(&self, cells: CellSet) -> DigitMask {
        cells.iter().fold(0, |m, c| m | self.cands[c.index()])
    }

    /// Number of candidates left in empty cells.
    pub fn candidate_count(&self) -> u32 {
        self.cands.iter().map(|m| m.count_ones()).sum()
    }

    /// Places `digit` in `cell` (not as a given): clears the cell's candidates and removes
    /// `digit` from its peers.
    pub fn set_value(&mut self, cell: Cell, digit: u8) {
        debug_assert!((1..=9).contains(&digit));
        let i = cell.index();
        for d in crate::geometry::digits(self.cands[i]) {
            self.digit_cells[d as usize - 1].remove(cell);
        }
        self.cands[i] = 0;
        self.values[i] = digit;
        self.filled.insert(cell);
        let di = digit as usize - 1;
        let peers = cell.peers() & self.digit_cells[di];
        for p in peers {
            self.cands[p.index()] &= !digit_bit(digit);
        }
        self.digit_cells[di] -= peers;
    }

    /// Marks `cell` as a given (its value must already be set).
    pub fn mark_given(&mut self, cell: Cell) {
        self.givens.insert(cell);
    }

    /// Removes candidate `digit` from `cell`; returns whether it was there.
    #[inline]
    pub fn eliminate(&mut self, cell: Cell, digit: u8) -> bool {
        let bit = digit_bit(digit);
        let i = cell.index();
        if self.cands[i] & bit == 0 {
            return false;
        }
        self.cands[i] &= !bit;
        self.digit_cells[digit as usize - 1].remove(cell);
        true
    }

    /// Sets the candidate mask of an empty cell outright (used by parsers of pencil-mark grids).
    pub fn set_candidates(&mut self, cell: Cell, mask: DigitMask) {
        let i = cell.index();
        debug_assert_eq!(self.values[i], 0);
        for d in 1..=9u8 {
            if mask & digit_bit(d) != 0 {
                self.digit_cells[d as usize - 1].insert(cell);
            } else {
                self.digit_cells[d as usize - 1].remove(cell);
            }
        }
        self.cands[i] = mask & ALL_DIGITS;
    }

    /// The first pair of cells in one house holding the same value, if any.
    pub fn conflict(&self) -> Option<(Cell, Cell, u8)> {
        for house in House::all() {
            let mut seen: [Option<Cell>; 10] = [None; 10];
            for &cell in house.cell_list() {
                let v = self.values[cell.index()];
                if v != 0 {
                    if let Some(first) = seen[v as usize] {
                        return Some((first, cell, v));
                    }
                    seen[v as usize] = Some(cell);
                }
            }
        }
        None
    }

    /// The first empty cell without any candidate, if any.
    pub fn dead_cell(&self) -> Option<Cell> {
        Cell::all().find(|&c| self.values[c.index()] == 0 && self.cands[c.index()] == 0)
    }

    /// The values as an 81-character line, `.` for empty cells.
    pub fn to_line(&self) -> String {
        values_line(&self.values)
    }

    /// The givens alone, 0 elsewhere.
    pub fn given_values(&self) -> [u8; 81] {
        let mut v = [0u8; 81];
        for c in self.givens {
            v[c.index()] = self.values[c.index()];
        }
        v
    }

    /// The givens alone as an 81-character line.
    pub fn givens_line(&self) -> String {
        values_line(&self.given_values())
    }
}

/// 81 values (0 for empty) as an 81-character line, `.` for empty cells.
pub(crate) fn values_line(values: &[u8; 81]) -> String {
    values
        .iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect()
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_updates_peers_and_digit_sets() {
        let mut g = Grid::empty();
        let c = Cell::at(0, 0);
        g.set_value(c, 5);
        assert_eq!(g.candidates(c), 0);
        for p in c.peers() {
            assert!(!g.has_candidate(p, 5));
        }
        assert_eq!(g.digit_cells(5).len(), 81 - 21);
        assert_eq!(g.digit_cells(4).len(), 80);
        assert!(g.eliminate(Cell::at(8, 8), 4));
        assert!(!g.eliminate(Cell::at(8, 8), 4));
        assert_eq!(g.digit_cells(4).len(), 79);
    }

    #[test]
    fn conflict_names_both_cells() {
        let mut v = [0u8; 81];
        v[3] = 7;
        v[30] = 7;
        let g = Grid::from_values(&v);
        assert_eq!(g.conflict(), Some((Cell::new(3), Cell::new(30), 7)));
    }
}

//! [`Grid`]: values, givens and the pencil marks (candidates) of every cell.

use std::fmt;

use crate::model::cell::{Cell, House};
use crate::model::cellset::CellSet;
use crate::model::error::NameError;
use crate::model::{Bits, Geometry, Layout, S9, Shape};

/// A candidate: a digit that may still go in a cell. Written `5r3c7` (Eureka notation), the digit in the
/// puzzle's symbols ([`crate::model::Sym`]: `Er4c2` on a 16x16 puzzle in `1-9A-G`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The cell.
    pub cell: Cell,
    /// The digit, 1..=n.
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
        write!(f, "{}{}", crate::model::Sym(self.digit), self.cell)
    }
}

impl fmt::Debug for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Candidate {
    type Err = NameError;
    /// Parses `5r3c7` (and on larger boards `14r12c16`: digits 1 to 25).
    fn from_str(s: &str) -> Result<Candidate, NameError> {
        if let Some(at) = s.find('r')
            && (1..=2).contains(&at)
            && s[..at].bytes().all(|b| b.is_ascii_digit())
            && !s.starts_with('0')
            && let Ok(digit) = s[..at].parse::<u8>()
            && (1..=25).contains(&digit)
            && let Ok(cell) = s[at..].parse::<Cell>()
        {
            return Ok(Candidate::new(cell, digit));
        }
        Err(NameError::Candidate(s.to_string()))
    }
}

impl serde::Serialize for Candidate {
    /// Always the digit's number (`14r4c2`), whatever symbols explanations use: this is data.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{}{}", self.digit, self.cell))
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
/// use lapiz::model::{Cell, digits};
/// use lapiz::text::parse_puzzle;
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
pub struct Grid<S: Shape = S9> {
    geo: &'static Geometry<S>,
    values: S::PerCell<u8>,
    cands: S::PerCell<S::Mask>,
    givens: CellSet<S>,
    filled: CellSet<S>,
    digit_cells: S::PerDigit<CellSet<S>>,
}

impl<S: Shape> Clone for Grid<S> {
    #[inline]
    fn clone(&self) -> Self {
        Grid { ..*self }
    }
}

impl<S: Shape> PartialEq for Grid<S> {
    fn eq(&self, other: &Self) -> bool {
        self.values.as_ref() == other.values.as_ref()
            && self.cands.as_ref() == other.cands.as_ref()
            && self.givens == other.givens
    }
}

impl<S: Shape> Eq for Grid<S> {}

impl Default for Grid {
    fn default() -> Self {
        Grid::empty()
    }
}

impl Grid {
    /// An empty 9x9 grid: no values, every candidate present.
    pub fn empty() -> Grid {
        Grid::blank(S9::geometry(Layout::NINE))
    }

    /// A 9x9 grid from 81 values (0 = empty), all non-zero values given, candidates computed
    /// from the values. Values are not checked for clashes: see [`Grid::conflict`].
    pub fn from_values(values: &[u8; 81]) -> Grid {
        Grid::from_value_slice(S9::geometry(Layout::NINE), values)
    }

    /// All 81 values (0 = empty).
    #[inline]
    pub fn values(&self) -> &[u8; 81] {
        &self.values
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

impl<S: Shape> Grid<S> {
    /// An empty grid of `geo`'s layout: no values, every candidate present.
    pub fn blank(geo: &'static Geometry<S>) -> Grid<S> {
        Grid {
            geo,
            values: S::per_cell(0),
            cands: S::per_cell(S::Mask::low(S::N)),
            givens: CellSet::EMPTY,
            filled: CellSet::EMPTY,
            digit_cells: S::per_digit(CellSet::ALL),
        }
    }

    /// A grid of `geo`'s layout from its `n * n` values row by row (0 = empty), all non-zero
    /// values given, candidates computed from the values. Values above `n` are ignored; clashes
    /// are not checked: see [`Grid::conflict`].
    pub fn from_value_slice(geo: &'static Geometry<S>, values: &[u8]) -> Grid<S> {
        debug_assert_eq!(values.len(), S::CELLS);
        let mut grid = Grid::blank(geo);
        for (i, &v) in values.iter().enumerate().take(S::CELLS) {
            if (1..=S::N).contains(&usize::from(v)) {
                let cell = S::cell(i);
                grid.set_value(cell, v);
                grid.givens.insert(cell);
            }
        }
        grid
    }

    /// The layout's tables: houses and peers.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry<S> {
        self.geo
    }

    /// The size `n`: digits run `1..=n`.
    #[inline]
    pub const fn n(&self) -> usize {
        S::N
    }

    /// Every digit, `1..=n`.
    #[inline]
    pub fn all_digits(&self) -> std::ops::RangeInclusive<u8> {
        1..=S::N as u8
    }

    /// The values row by row (0 = empty).
    #[inline]
    pub fn value_slice(&self) -> &[u8] {
        self.values.as_ref()
    }

    /// The value of `cell`, 0 when empty.
    #[inline]
    pub fn value(&self, cell: Cell) -> u8 {
        self.values.as_ref()[S::bit_of(cell)]
    }

    /// The candidate mask of `cell` (empty for a cell with a value).
    #[inline]
    pub fn candidates(&self, cell: Cell) -> S::Mask {
        self.cands.as_ref()[S::bit_of(cell)]
    }

    /// Whether `digit` is a candidate of `cell`.
    #[inline]
    pub fn has_candidate(&self, cell: Cell, digit: u8) -> bool {
        self.candidates(cell).has(usize::from(digit) - 1)
    }

    /// The cells where `digit` (1..=n) is still a candidate.
    #[inline]
    pub fn digit_cells(&self, digit: u8) -> CellSet<S> {
        self.digit_cells.as_ref()[digit as usize - 1]
    }

    /// The cells of `house` where `digit` is still a candidate.
    #[inline]
    pub fn digit_cells_in(&self, digit: u8, house: House) -> CellSet<S> {
        self.digit_cells(digit) & self.geo.house(house)
    }

    /// The given cells.
    #[inline]
    pub fn givens(&self) -> CellSet<S> {
        self.givens
    }

    /// Whether `cell` holds a given.
    #[inline]
    pub fn is_given(&self, cell: Cell) -> bool {
        self.givens.contains(cell)
    }

    /// The cells with no value yet.
    #[inline]
    pub fn empty_cells(&self) -> CellSet<S> {
        !self.filled
    }

    /// The cells with a value (given or placed).
    #[inline]
    pub fn filled_cells(&self) -> CellSet<S> {
        self.filled
    }

    /// Whether every cell has a value.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.filled == CellSet::ALL
    }

    /// The digits placed in `house`.
    pub fn placed_in(&self, house: House) -> S::Mask {
        let mut m = S::Mask::ZERO;
        for c in self.geo.house(house) & self.filled {
            m.set(usize::from(self.value(c)) - 1);
        }
        m
    }

    /// The mask of the candidates of all cells in `cells`.
    pub fn candidates_of(&self, cells: CellSet<S>) -> S::Mask {
        cells
            .iter()
            .fold(S::Mask::ZERO, |m, c| m.or(self.candidates(c)))
    }

    /// Every cell's candidate mask, row by row (empty for a cell with a value).
    pub(crate) fn candidate_masks(&self) -> &[S::Mask] {
        self.cands.as_ref()
    }

    /// Number of candidates left in empty cells.
    pub fn candidate_count(&self) -> u32 {
        self.cands.as_ref().iter().map(|m| m.count()).sum()
    }

    /// Places `digit` in `cell` (not as a given): clears the cell's candidates and removes
    /// `digit` from its peers.
    pub fn set_value(&mut self, cell: Cell, digit: u8) {
        debug_assert!((1..=S::N).contains(&usize::from(digit)));
        let i = S::bit_of(cell);
        for d in self.cands.as_ref()[i].ones() {
            self.digit_cells.as_mut()[d].remove(cell);
        }
        self.cands.as_mut()[i] = S::Mask::ZERO;
        self.values.as_mut()[i] = digit;
        self.filled.insert(cell);
        let di = digit as usize - 1;
        let peers = self.geo.peers(cell) & self.digit_cells.as_ref()[di];
        for p in peers {
            self.cands.as_mut()[S::bit_of(p)].clear(di);
        }
        self.digit_cells.as_mut()[di] -= peers;
    }

    /// Marks `cell` as a given (its value must already be set).
    pub fn mark_given(&mut self, cell: Cell) {
        self.givens.insert(cell);
    }

    /// Removes candidate `digit` from `cell`; returns whether it was there.
    #[inline]
    pub fn eliminate(&mut self, cell: Cell, digit: u8) -> bool {
        let (i, d) = (S::bit_of(cell), usize::from(digit) - 1);
        if !self.cands.as_ref()[i].has(d) {
            return false;
        }
        self.cands.as_mut()[i].clear(d);
        self.digit_cells.as_mut()[d].remove(cell);
        true
    }

    /// Sets the candidate mask of an empty cell outright (used by parsers of pencil-mark grids).
    pub fn set_candidates(&mut self, cell: Cell, mask: S::Mask) {
        let i = S::bit_of(cell);
        debug_assert_eq!(self.values.as_ref()[i], 0);
        let mask = mask.and(S::Mask::low(S::N));
        for d in 0..S::N {
            if mask.has(d) {
                self.digit_cells.as_mut()[d].insert(cell);
            } else {
                self.digit_cells.as_mut()[d].remove(cell);
            }
        }
        self.cands.as_mut()[i] = mask;
    }

    /// The first pair of cells in one house holding the same value, if any.
    pub fn conflict(&self) -> Option<(Cell, Cell, u8)> {
        for house in self.geo.houses() {
            let mut seen: [Option<Cell>; 26] = [None; 26];
            for cell in self.geo.house(house) & self.filled {
                let v = self.value(cell);
                if let Some(first) = seen[v as usize] {
                    return Some((first, cell, v));
                }
                seen[v as usize] = Some(cell);
            }
        }
        None
    }

    /// The first empty cell without any candidate, if any.
    pub fn dead_cell(&self) -> Option<Cell> {
        self.empty_cells()
            .iter()
            .find(|&c| self.candidates(c).is_zero())
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
    fn candidates_of_every_size_read_back() {
        for (d, r, c) in [
            (5u8, 2u8, 6u8),
            (9, 8, 8),
            (14, 3, 1),
            (25, 24, 24),
            (1, 11, 15),
        ] {
            let cand = Candidate::new(Cell::at(r, c), d);
            assert_eq!(cand.to_string().parse::<Candidate>(), Ok(cand));
        }
        for bad in [
            "0r1c1", "26r1c1", "05r1c1", "r1c1", "123r1c1", "5x1c1", "5r0c1", "x5r1c1",
        ] {
            assert!(bad.parse::<Candidate>().is_err(), "{bad}");
        }
    }

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

//! [`CandSet`]: a set of the 729 candidates (digit, cell) as nine [`CellSet`]s, one per digit.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Sub, SubAssign};

use crate::cellset::CellSet;
use crate::geometry::{Cell, digits};
use crate::grid::{Candidate, Grid};

/// A set of candidates, stored digit-major: one [`CellSet`] of cells per digit.
///
/// Set algebra is nine 128-bit operations; iteration goes digit by digit, cells in index order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CandSet(pub [CellSet; 9]);

impl CandSet {
    /// The empty set.
    pub const EMPTY: CandSet = CandSet([CellSet::EMPTY; 9]);

    /// Every candidate still in `grid`.
    pub fn of_grid(grid: &Grid) -> CandSet {
        let mut s = CandSet::EMPTY;
        for d in 1..=9u8 {
            s.0[d as usize - 1] = grid.digit_cells(d);
        }
        s
    }

    /// The cells of `digit` in the set.
    #[inline]
    pub fn cells(&self, digit: u8) -> CellSet {
        self.0[digit as usize - 1]
    }

    /// Adds `cells` for `digit`.
    #[inline]
    pub fn add_cells(&mut self, digit: u8, cells: CellSet) {
        self.0[digit as usize - 1] |= cells;
    }

    /// Adds a candidate.
    #[inline]
    pub fn insert(&mut self, c: Candidate) {
        self.0[c.digit as usize - 1].insert(c.cell);
    }

    /// Whether `c` is in the set.
    #[inline]
    pub fn contains(&self, c: Candidate) -> bool {
        self.0[c.digit as usize - 1].contains(c.cell)
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|s| s.is_empty())
    }

    /// Number of candidates.
    pub fn len(&self) -> u32 {
        self.0.iter().map(|s| s.len()).sum()
    }

    /// The candidates, digit by digit.
    pub fn iter(&self) -> impl Iterator<Item = Candidate> + '_ {
        (1..=9u8).flat_map(move |d| self.cells(d).iter().map(move |c| Candidate::new(c, d)))
    }

    /// The candidates sorted by cell, then digit (the order of [`Candidate`]'s `Ord`).
    pub fn to_sorted_vec(self) -> Vec<Candidate> {
        let mut v: Vec<Candidate> = self.iter().collect();
        v.sort();
        v
    }

    /// The candidates that cannot be true together with `c` in `grid`: the same digit in a
    /// peer cell, and the other digits of `c`'s cell.
    pub fn weak_of(grid: &Grid, c: Candidate) -> CandSet {
        let mut s = CandSet::EMPTY;
        s.0[c.digit as usize - 1] = grid.digit_cells(c.digit) & c.cell.peers();
        for d in digits(grid.candidates(c.cell)) {
            if d != c.digit {
                s.0[d as usize - 1].insert(c.cell);
            }
        }
        s
    }

    /// The candidates of `digit` in `grid` that see every cell of `cells` (and are not in it).
    pub fn seeing_all(grid: &Grid, digit: u8, cells: CellSet) -> CandSet {
        let mut s = CandSet::EMPTY;
        s.0[digit as usize - 1] = grid.digit_cells(digit) & cells.common_peers();
        s
    }

    /// Whether the candidate `digit` in `cell` is in the set.
    #[inline]
    pub fn has(&self, cell: Cell, digit: u8) -> bool {
        self.0[digit as usize - 1].contains(cell)
    }
}

impl BitAnd for CandSet {
    type Output = CandSet;
    #[inline]
    fn bitand(mut self, rhs: CandSet) -> CandSet {
        self &= rhs;
        self
    }
}

impl BitOr for CandSet {
    type Output = CandSet;
    #[inline]
    fn bitor(mut self, rhs: CandSet) -> CandSet {
        self |= rhs;
        self
    }
}

impl Sub for CandSet {
    type Output = CandSet;
    #[inline]
    fn sub(mut self, rhs: CandSet) -> CandSet {
        self -= rhs;
        self
    }
}

impl BitAndAssign for CandSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: CandSet) {
        for i in 0..9 {
            self.0[i] &= rhs.0[i];
        }
    }
}

impl BitOrAssign for CandSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: CandSet) {
        for i in 0..9 {
            self.0[i] |= rhs.0[i];
        }
    }
}

impl SubAssign for CandSet {
    #[inline]
    fn sub_assign(&mut self, rhs: CandSet) {
        for i in 0..9 {
            self.0[i] -= rhs.0[i];
        }
    }
}

impl std::fmt::Debug for CandSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_links_of_a_candidate_in_an_empty_grid() {
        let g = Grid::empty();
        let c = Candidate::new(Cell::at(0, 0), 5);
        let w = CandSet::weak_of(&g, c);
        // 20 peers with the same digit, 8 other digits in the cell
        assert_eq!(w.len(), 28);
        assert!(!w.contains(c));
        let both = w & CandSet::weak_of(&g, Candidate::new(Cell::at(0, 8), 5));
        // the rest of row 1 with digit 5
        assert_eq!(both.len(), 7);
    }
}

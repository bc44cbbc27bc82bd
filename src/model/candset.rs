//! [`CandSet`]: a set of the candidates (digit, cell) of a board as one [`CellSet`] per digit
//! (on 9x9, the 729 candidates as nine).

use std::hash::{Hash, Hasher};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Sub, SubAssign};

use crate::model::cell::{Cell, digits};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{S9, Shape};

/// A set of candidates of a board of shape `S` (9x9 unless named), stored digit-major: one
/// [`CellSet`] of cells per digit.
///
/// Set algebra is one cell-set operation per digit (nine 128-bit ones on 9x9); iteration goes
/// digit by digit, cells in index order.
pub struct CandSet<S: Shape = S9>(pub S::PerDigit<CellSet<S>>);

impl<S: Shape> Clone for CandSet<S> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Shape> Copy for CandSet<S> {}
impl<S: Shape> PartialEq for CandSet<S> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0.as_ref() == other.0.as_ref()
    }
}
impl<S: Shape> Eq for CandSet<S> {}
impl<S: Shape> Hash for CandSet<S> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.as_ref().hash(state);
    }
}
impl<S: Shape> Default for CandSet<S> {
    fn default() -> Self {
        CandSet::EMPTY
    }
}

impl<S: Shape> CandSet<S> {
    /// The empty set.
    pub const EMPTY: CandSet<S> = CandSet(S::NO_DIGIT_CELLS);

    /// Every candidate still in `grid`.
    pub fn of_grid(grid: &Grid<S>) -> CandSet<S> {
        let mut s = CandSet::<S>::EMPTY;
        for (d, cells) in grid.all_digits().zip(s.0.as_mut()) {
            *cells = grid.digit_cells(d);
        }
        s
    }

    /// The cells of `digit` in the set.
    #[inline]
    pub fn cells(&self, digit: u8) -> CellSet<S> {
        self.0.as_ref()[digit as usize - 1]
    }

    /// Adds `cells` for `digit`.
    #[inline]
    pub fn add_cells(&mut self, digit: u8, cells: CellSet<S>) {
        self.0.as_mut()[digit as usize - 1] |= cells;
    }

    /// Adds a candidate.
    #[inline]
    pub fn insert(&mut self, c: Candidate) {
        self.0.as_mut()[c.digit as usize - 1].insert(c.cell);
    }

    /// Whether `c` is in the set.
    #[inline]
    pub fn contains(&self, c: Candidate) -> bool {
        self.0.as_ref()[c.digit as usize - 1].contains(c.cell)
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().iter().all(|s| s.is_empty())
    }

    /// Number of candidates.
    pub fn len(&self) -> u32 {
        self.0.as_ref().iter().map(|s| s.len()).sum()
    }

    /// The candidates, digit by digit.
    pub fn iter(&self) -> impl Iterator<Item = Candidate> + '_ {
        (1..=S::N as u8).flat_map(move |d| self.cells(d).iter().map(move |c| Candidate::new(c, d)))
    }

    /// The candidates sorted by cell, then digit (the order of [`Candidate`]'s `Ord`).
    pub fn to_sorted_vec(self) -> Vec<Candidate> {
        let mut v: Vec<Candidate> = self.iter().collect();
        v.sort();
        v
    }

    /// The candidates that cannot be true together with `c` in `grid`: the same digit in a
    /// peer cell, and the other digits of `c`'s cell.
    pub fn weak_of(grid: &Grid<S>, c: Candidate) -> CandSet<S> {
        let mut s = CandSet::<S>::EMPTY;
        s.0.as_mut()[c.digit as usize - 1] =
            grid.digit_cells(c.digit) & grid.geometry().peers(c.cell);
        for d in digits(grid.candidates(c.cell)) {
            if d != c.digit {
                s.0.as_mut()[d as usize - 1].insert(c.cell);
            }
        }
        s
    }

    /// The candidates of `digit` in `grid` that see every cell of `cells` (and are not in it).
    pub fn seeing_all(grid: &Grid<S>, digit: u8, cells: CellSet<S>) -> CandSet<S> {
        let mut s = CandSet::<S>::EMPTY;
        s.0.as_mut()[digit as usize - 1] =
            grid.digit_cells(digit) & grid.geometry().common_peers(cells);
        s
    }

    /// Whether the candidate `digit` in `cell` is in the set.
    #[inline]
    pub fn has(&self, cell: Cell, digit: u8) -> bool {
        self.0.as_ref()[digit as usize - 1].contains(cell)
    }
}

impl<S: Shape> BitAnd for CandSet<S> {
    type Output = CandSet<S>;
    #[inline]
    fn bitand(mut self, rhs: CandSet<S>) -> CandSet<S> {
        self &= rhs;
        self
    }
}

impl<S: Shape> BitOr for CandSet<S> {
    type Output = CandSet<S>;
    #[inline]
    fn bitor(mut self, rhs: CandSet<S>) -> CandSet<S> {
        self |= rhs;
        self
    }
}

impl<S: Shape> Sub for CandSet<S> {
    type Output = CandSet<S>;
    #[inline]
    fn sub(mut self, rhs: CandSet<S>) -> CandSet<S> {
        self -= rhs;
        self
    }
}

impl<S: Shape> BitAndAssign for CandSet<S> {
    #[inline]
    fn bitand_assign(&mut self, rhs: CandSet<S>) {
        for (a, b) in self.0.as_mut().iter_mut().zip(rhs.0.as_ref()) {
            *a &= *b;
        }
    }
}

impl<S: Shape> BitOrAssign for CandSet<S> {
    #[inline]
    fn bitor_assign(&mut self, rhs: CandSet<S>) {
        for (a, b) in self.0.as_mut().iter_mut().zip(rhs.0.as_ref()) {
            *a |= *b;
        }
    }
}

impl<S: Shape> SubAssign for CandSet<S> {
    #[inline]
    fn sub_assign(&mut self, rhs: CandSet<S>) {
        for (a, b) in self.0.as_mut().iter_mut().zip(rhs.0.as_ref()) {
            *a -= *b;
        }
    }
}

impl<S: Shape> std::fmt::Debug for CandSet<S> {
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

//! [`CellSet`]: a set of cells of one board size as one bitset (a `u128` on 9x9).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub, SubAssign};

use crate::model::cell::Cell;
use crate::model::{Bits, S9, Shape};

const ALL_BITS: u128 = (1u128 << 81) - 1;

/// A set of cells of a board of shape `S` (9x9 unless named), one bit per cell: bit
/// `n * row + col` (on 9x9, `r1c1` = 0 … `r9c9` = 80).
///
/// Set algebra is one integer operation on 9x9 (a few words on the largest boards) and
/// iteration visits cells row by row.
pub struct CellSet<S: Shape = S9>(S::Cells);

impl<S: Shape> Clone for CellSet<S> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Shape> Copy for CellSet<S> {}
impl<S: Shape> PartialEq for CellSet<S> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<S: Shape> Eq for CellSet<S> {}
impl<S: Shape> Hash for CellSet<S> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}
impl<S: Shape> PartialOrd for CellSet<S> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<S: Shape> Ord for CellSet<S> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}
impl<S: Shape> Default for CellSet<S> {
    fn default() -> Self {
        CellSet::EMPTY
    }
}

impl CellSet {
    /// A 9x9 set from its raw bits; bits above 80 are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> CellSet {
        CellSet(bits & ALL_BITS)
    }

    /// The raw bits of a 9x9 set.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The 9x9 cells that see every cell of this set (the intersection of their peers);
    /// all cells for the empty set. Cells of the set itself are never included.
    pub fn common_peers(self) -> CellSet {
        let mut out = CellSet::ALL;
        for cell in self {
            out &= cell.peers();
        }
        out - self
    }
}

impl<S: Shape> CellSet<S> {
    /// The empty set.
    pub const EMPTY: Self = CellSet(S::Cells::ZERO);
    /// Every cell of the board.
    pub const ALL: Self = CellSet(S::ALL_CELLS);

    /// A set from its raw bitset (bits beyond the board must be clear).
    #[inline]
    pub(crate) fn from_raw(raw: S::Cells) -> Self {
        CellSet(raw)
    }

    /// The set holding only `cell`.
    #[inline]
    pub fn single(cell: Cell) -> Self {
        CellSet(S::Cells::bit(S::bit_of(cell)))
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub fn contains(self, cell: Cell) -> bool {
        self.0.has(S::bit_of(cell))
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0.set(S::bit_of(cell));
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0.clear(S::bit_of(cell));
    }

    /// Number of cells.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.is_zero()
    }

    /// The first cell (row by row), if any.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        self.0.first().map(S::cell)
    }

    /// The only cell when the set has exactly one.
    #[inline]
    pub fn single_cell(self) -> Option<Cell> {
        if self.len() == 1 { self.first() } else { None }
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub fn is_subset(self, other: Self) -> bool {
        self.0.and_not(other.0).is_zero()
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub fn intersects(self, other: Self) -> bool {
        !self.0.and(other.0).is_zero()
    }

    /// The cells row by row.
    #[inline]
    pub fn iter(self) -> CellSetIter<S> {
        CellSetIter(self.0)
    }
}

/// Iterator over a [`CellSet`], row by row.
pub struct CellSetIter<S: Shape = S9>(S::Cells);

impl<S: Shape> Clone for CellSetIter<S> {
    fn clone(&self) -> Self {
        CellSetIter(self.0)
    }
}

impl<S: Shape> Iterator for CellSetIter<S> {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let i = self.0.first()?;
        self.0.clear(i);
        Some(S::cell(i))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<S: Shape> ExactSizeIterator for CellSetIter<S> {}

impl<S: Shape> IntoIterator for CellSet<S> {
    type Item = Cell;
    type IntoIter = CellSetIter<S>;
    fn into_iter(self) -> CellSetIter<S> {
        self.iter()
    }
}

impl<S: Shape> FromIterator<Cell> for CellSet<S> {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = CellSet::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $op:ident) => {
        impl<S: Shape> $tr for CellSet<S> {
            type Output = Self;
            #[inline]
            fn $f(self, rhs: Self) -> Self {
                CellSet(self.0.$op(rhs.0))
            }
        }
    };
}
binop!(BitAnd, bitand, and);
binop!(BitOr, bitor, or);
binop!(BitXor, bitxor, xor);
binop!(Sub, sub, and_not);

impl<S: Shape> Not for CellSet<S> {
    type Output = Self;
    /// Complement within the board.
    #[inline]
    fn not(self) -> Self {
        CellSet(S::ALL_CELLS.and_not(self.0))
    }
}

macro_rules! assignop {
    ($tr:ident, $f:ident, $op:ident) => {
        impl<S: Shape> $tr for CellSet<S> {
            #[inline]
            fn $f(&mut self, rhs: Self) {
                self.0 = self.0.$op(rhs.0);
            }
        }
    };
}
assignop!(BitAndAssign, bitand_assign, and);
assignop!(BitOrAssign, bitor_assign, or);
assignop!(SubAssign, sub_assign, and_not);

impl<S: Shape> fmt::Display for CellSet<S> {
    /// Cells joined by commas, e.g. `r1c2,r1c9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, cell) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{cell}")?;
        }
        Ok(())
    }
}

impl<S: Shape> fmt::Debug for CellSet<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algebra_and_iteration() {
        let a: CellSet = [0u8, 5, 80].into_iter().map(Cell::new).collect();
        let b: CellSet = [5u8, 6].into_iter().map(Cell::new).collect();
        assert_eq!((a & b).len(), 1);
        assert_eq!((a | b).len(), 4);
        assert_eq!((a - b).iter().map(Cell::index).collect::<Vec<_>>(), [0, 80]);
        assert_eq!((!a).len(), 78);
        assert_eq!(a.to_string(), "r1c1,r1c6,r9c9");
        assert!(CellSet::single(Cell::new(5)).is_subset(b));
        assert_eq!(CellSet::<S9>::EMPTY.first(), None);
    }

    #[test]
    fn sixteen_by_sixteen_sets_name_their_cells() {
        use crate::model::S16;
        let cells = [Cell::at(0, 9), Cell::at(11, 15), Cell::at(15, 15)];
        let a: CellSet<S16> = cells.into_iter().collect();
        assert_eq!(a.to_string(), "r1c10,r12c16,r16c16");
        assert_eq!((!a).len(), 253);
        assert!(a.contains(Cell::at(11, 15)) && !a.contains(Cell::at(11, 14)));
        assert_eq!(CellSet::<S16>::ALL.len(), 256);
    }

    #[test]
    fn common_peers_of_a_pair_in_a_row_and_box() {
        let pair: CellSet = [Cell::new(0), Cell::new(1)].into_iter().collect();
        // the rest of row 1 (7) and the rest of box 1 (6) = 13
        assert_eq!(pair.common_peers().len(), 13);
    }
}

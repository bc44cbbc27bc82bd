//! [`CellSet`]: a set of the 81 cells as one 128-bit mask.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub, SubAssign};

use crate::geometry::Cell;

const ALL_BITS: u128 = (1u128 << 81) - 1;

/// A set of cells, one bit per cell (bit `i` is cell `i`, `r1c1` = 0 … `r9c9` = 80).
///
/// Set algebra is a single integer operation and iteration visits cells in index order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CellSet(u128);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet(0);
    /// All 81 cells.
    pub const ALL: CellSet = CellSet(ALL_BITS);

    /// A set from its raw bits; bits above 80 are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> CellSet {
        CellSet(bits & ALL_BITS)
    }

    /// The raw bits.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding only `cell`.
    #[inline]
    pub const fn single(cell: Cell) -> CellSet {
        CellSet(1u128 << cell.index())
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 >> cell.index() & 1 != 0
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1u128 << cell.index();
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0 &= !(1u128 << cell.index());
    }

    /// Number of cells.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest-numbered cell, if any.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The only cell when the set has exactly one.
    #[inline]
    pub fn single_cell(self) -> Option<Cell> {
        if self.len() == 1 { self.first() } else { None }
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: CellSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub const fn intersects(self, other: CellSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The cells in index order.
    #[inline]
    pub fn iter(self) -> CellSetIter {
        CellSetIter(self.0)
    }

    /// The cells that see every cell of this set (the intersection of their peers);
    /// all cells for the empty set. Cells of the set itself are never included.
    pub fn common_peers(self) -> CellSet {
        let mut out = CellSet::ALL;
        for cell in self {
            out &= cell.peers();
        }
        out - self
    }
}

/// Iterator over a [`CellSet`] in index order.
#[derive(Clone)]
pub struct CellSetIter(u128);

impl Iterator for CellSetIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Cell::new(i as u8))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellSetIter {}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = CellSet::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for CellSet {
            type Output = CellSet;
            #[inline]
            fn $f(self, rhs: CellSet) -> CellSet {
                CellSet(self.0 $op rhs.0)
            }
        }
    };
}
binop!(BitAnd, bitand, &);
binop!(BitOr, bitor, |);
binop!(BitXor, bitxor, ^);

impl Sub for CellSet {
    type Output = CellSet;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 & !rhs.0)
    }
}

impl Not for CellSet {
    type Output = CellSet;
    /// Complement within the 81 cells.
    #[inline]
    fn not(self) -> CellSet {
        CellSet(!self.0 & ALL_BITS)
    }
}

impl BitAndAssign for CellSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: CellSet) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for CellSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: CellSet) {
        self.0 |= rhs.0;
    }
}

impl SubAssign for CellSet {
    #[inline]
    fn sub_assign(&mut self, rhs: CellSet) {
        self.0 &= !rhs.0;
    }
}

impl fmt::Display for CellSet {
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

impl fmt::Debug for CellSet {
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
        assert_eq!(CellSet::EMPTY.first(), None);
    }

    #[test]
    fn common_peers_of_a_pair_in_a_row_and_box() {
        let pair: CellSet = [Cell::new(0), Cell::new(1)].into_iter().collect();
        // the rest of row 1 (7) and the rest of box 1 (6) = 13
        assert_eq!(pair.common_peers().len(), 13);
    }
}

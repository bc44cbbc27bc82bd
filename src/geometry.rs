//! The fixed shape of the board: [`Cell`]s, [`House`]s, peers and digit masks.
//!
//! Every table here is computed at compile time.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cellset::CellSet;

/// One of the 81 cells, `r1c1` (index 0) to `r9c9` (index 80), row by row.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell(u8);

impl Cell {
    /// The cell with this index. Panics in debug builds when `index >= 81`.
    #[inline]
    pub const fn new(index: u8) -> Cell {
        debug_assert!(index < 81);
        Cell(index)
    }

    /// The cell at `row`, `col` (both 0-based).
    #[inline]
    pub const fn at(row: u8, col: u8) -> Cell {
        Cell::new(row * 9 + col)
    }

    /// All 81 cells in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81).map(Cell)
    }

    /// The index, 0..81.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, 0-based.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 9
    }

    /// Column, 0-based.
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % 9
    }

    /// Box, 0-based, numbered left to right, top to bottom.
    #[inline]
    pub const fn box_index(self) -> u8 {
        self.row() / 3 * 3 + self.col() / 3
    }

    /// The row, column and box that hold this cell.
    #[inline]
    pub const fn houses(self) -> [House; 3] {
        [
            House::row(self.row()),
            House::col(self.col()),
            House::boxed(self.box_index()),
        ]
    }

    /// The 20 cells sharing a house with this one.
    #[inline]
    pub const fn peers(self) -> CellSet {
        PEERS[self.0 as usize]
    }

    /// Whether the two cells are different and share a house.
    #[inline]
    pub const fn sees(self, other: Cell) -> bool {
        self.peers().contains(other)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Cell {
    type Err = String;
    /// Parses `r1c1` … `r9c9` (case-insensitive).
    fn from_str(s: &str) -> Result<Cell, String> {
        let b = s.as_bytes();
        let ok = b.len() == 4
            && b[0].eq_ignore_ascii_case(&b'r')
            && b[2].eq_ignore_ascii_case(&b'c')
            && (b'1'..=b'9').contains(&b[1])
            && (b'1'..=b'9').contains(&b[3]);
        if ok {
            Ok(Cell::at(b[1] - b'1', b[3] - b'1'))
        } else {
            Err(format!("`{s}` is not a cell name (r1c1 … r9c9)"))
        }
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What kind of house a [`House`] is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum HouseKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A 3×3 box.
    Box,
}

/// One of the 27 houses: rows 0..9, columns 9..18, boxes 18..27.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct House(u8);

impl House {
    /// Row `r` (0-based).
    #[inline]
    pub const fn row(r: u8) -> House {
        House(r)
    }
    /// Column `c` (0-based).
    #[inline]
    pub const fn col(c: u8) -> House {
        House(9 + c)
    }
    /// Box `b` (0-based).
    #[inline]
    pub const fn boxed(b: u8) -> House {
        House(18 + b)
    }
    /// The house with this index (0..27).
    #[inline]
    pub const fn from_index(i: u8) -> House {
        debug_assert!(i < 27);
        House(i)
    }
    /// All 27 houses: rows, then columns, then boxes.
    pub fn all() -> impl Iterator<Item = House> {
        (0..27).map(House)
    }
    /// The nine rows then the nine columns.
    pub fn lines() -> impl Iterator<Item = House> {
        (0..18).map(House)
    }
    /// The nine boxes.
    pub fn boxes() -> impl Iterator<Item = House> {
        (18..27).map(House)
    }
    /// Index 0..27.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Row, column or box.
    #[inline]
    pub const fn kind(self) -> HouseKind {
        match self.0 / 9 {
            0 => HouseKind::Row,
            1 => HouseKind::Column,
            _ => HouseKind::Box,
        }
    }
    /// Number within its kind, 1..=9 as people count.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 % 9 + 1
    }
    /// The nine cells of the house.
    #[inline]
    pub const fn cells(self) -> CellSet {
        HOUSES[self.0 as usize]
    }
    /// The nine cells in order (row order for rows and boxes, top to bottom for columns).
    #[inline]
    pub const fn cell_list(self) -> &'static [Cell; 9] {
        &HOUSE_CELLS[self.0 as usize]
    }
}

impl fmt::Display for House {
    /// `r3`, `c7` or `b5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = match self.kind() {
            HouseKind::Row => 'r',
            HouseKind::Column => 'c',
            HouseKind::Box => 'b',
        };
        write!(f, "{k}{}", self.number())
    }
}

impl fmt::Debug for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for House {
    type Err = String;
    /// Parses `r3`, `c7` or `b5`.
    fn from_str(s: &str) -> Result<House, String> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'1'..=b'9').contains(&b[1]) {
            let n = b[1] - b'1';
            match b[0].to_ascii_lowercase() {
                b'r' => return Ok(House::row(n)),
                b'c' => return Ok(House::col(n)),
                b'b' => return Ok(House::boxed(n)),
                _ => {}
            }
        }
        Err(format!(
            "`{s}` is not a house name (r1 … r9, c1 … c9, b1 … b9)"
        ))
    }
}

impl Serialize for House {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for House {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<House, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of digits 1..=9 as a 9-bit mask (bit `d-1` for digit `d`).
pub type DigitMask = u16;

/// All nine digits.
pub(crate) const ALL_DIGITS: DigitMask = 0x1ff;

/// The mask of one digit (1..=9).
#[inline]
pub const fn digit_bit(digit: u8) -> DigitMask {
    1 << (digit - 1)
}

/// The digits of a mask, smallest first.
#[inline]
pub fn digits(mask: DigitMask) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            Some(d)
        }
    })
}

/// Digits of a mask as text, e.g. `16` or (with `sep`) `1/6`.
pub(crate) fn digits_text(mask: DigitMask, sep: &str) -> String {
    let mut s = String::new();
    for (i, d) in digits(mask).enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        s.push((b'0' + d) as char);
    }
    s
}

const fn build_houses() -> [CellSet; 27] {
    let mut out = [CellSet::EMPTY; 27];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        let b = r / 3 * 3 + c / 3;
        let bit = 1u128 << i;
        out[r] = CellSet::from_bits(out[r].bits() | bit);
        out[9 + c] = CellSet::from_bits(out[9 + c].bits() | bit);
        out[18 + b] = CellSet::from_bits(out[18 + b].bits() | bit);
        i += 1;
    }
    out
}

const fn build_house_cells() -> [[Cell; 9]; 27] {
    let mut out = [[Cell(0); 9]; 27];
    let mut h = 0;
    while h < 27 {
        let mut bits = HOUSES[h].bits();
        let mut k = 0;
        while bits != 0 {
            out[h][k] = Cell(bits.trailing_zeros() as u8);
            bits &= bits - 1;
            k += 1;
        }
        h += 1;
    }
    out
}

const fn build_peers() -> [CellSet; 81] {
    let mut out = [CellSet::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        let b = r / 3 * 3 + c / 3;
        let bits = HOUSES[r].bits() | HOUSES[9 + c].bits() | HOUSES[18 + b].bits();
        out[i] = CellSet::from_bits(bits & !(1u128 << i));
        i += 1;
    }
    out
}

/// The cells of each house, indexed by [`House::index`].
pub(crate) static HOUSES: [CellSet; 27] = build_houses();

/// A set of houses as a mask: bit `i` for the house of index `i` ([`House::index`]; rows 0-8,
/// columns 9-17, boxes 18-26).
pub(crate) type HouseMask = u32;
/// The nine rows as a house mask.
pub(crate) const ROW_HOUSES: HouseMask = 0x1ff;
/// The nine columns as a house mask.
pub(crate) const COL_HOUSES: HouseMask = 0x1ff << 9;
/// The nine boxes as a house mask.
pub(crate) const BOX_HOUSES: HouseMask = 0x1ff << 18;
/// Every house.
pub(crate) const ALL_HOUSES: HouseMask = (1 << 27) - 1;

/// The three houses of each cell as a house mask, indexed by [`Cell::index`].
pub(crate) static CELL_HOUSES: [HouseMask; 81] = {
    let mut a = [0; 81];
    let mut i = 0;
    while i < 81 {
        let (row, col) = (i / 9, i % 9);
        a[i] = 1 << row | 1 << (9 + col) | 1 << (18 + 3 * (row / 3) + col / 3);
        i += 1;
    }
    a
};
static HOUSE_CELLS: [[Cell; 9]; 27] = build_house_cells();
static PEERS: [CellSet; 81] = build_peers();

/// Every ordering of three items (of the rows of a band, the bands of the grid, …).
pub(crate) const PERMUTATIONS_OF_3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_masks_agree_with_houses() {
        for c in Cell::all() {
            let mask = c.houses().iter().fold(0, |m, h| m | 1 << h.index());
            assert_eq!(CELL_HOUSES[c.index()], mask, "{c}");
        }
        assert_eq!(ROW_HOUSES | COL_HOUSES | BOX_HOUSES, ALL_HOUSES);
        for h in House::all() {
            let kind = match h.kind() {
                HouseKind::Row => ROW_HOUSES,
                HouseKind::Column => COL_HOUSES,
                HouseKind::Box => BOX_HOUSES,
            };
            assert_ne!(kind & 1 << h.index(), 0, "{h}");
        }
    }

    #[test]
    fn tables() {
        for cell in Cell::all() {
            assert_eq!(cell.peers().len(), 20);
            for h in cell.houses() {
                assert!(h.cells().contains(cell));
            }
        }
        for h in House::all() {
            assert_eq!(h.cells().len(), 9);
            assert_eq!(
                h.cell_list().iter().copied().collect::<CellSet>(),
                h.cells()
            );
        }
        assert_eq!(House::boxed(4).to_string(), "b5");
        assert_eq!(Cell::at(2, 6).to_string(), "r3c7");
        assert_eq!("r3c7".parse::<Cell>().unwrap(), Cell::at(2, 6));
        assert!("r0c7".parse::<Cell>().is_err());
        assert_eq!(digits_text(0b100001, "/"), "1/6");
    }
}

//! The fixed shape of the board: [`Cell`]s, [`House`]s, peers and digit masks.
//!
//! Every table here is computed at compile time.

use std::fmt;
use std::fmt::Write as _;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::model::Bits;
use crate::model::cellset::CellSet;
use crate::model::error::NameError;

/// A cell of a board of any size, named `r1c1` … `r25c25` by its row and column.
///
/// The encoding lets a cell name itself without knowing its board's size, and keeps 9x9 code
/// indexing its tables directly:
///
/// ```text
///   row < 9 and col < 9   9 * row + col          0 .. 81   (the 9x9 index)
///   any other cell        81 + 25 * row + col    up to 705 (boards up to 25x25)
/// ```
///
/// Cells order by row, then column, on every size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cell(u16);

/// Cells of the 9x9 corner of any board.
const CORNER: u16 = 81;
/// The row stride of cells beyond the corner (the widest board).
const WIDE: u16 = 25;

impl Cell {
    /// The 9x9 cell with this index (0..81). Panics in debug builds when `index >= 81`.
    #[inline]
    pub const fn new(index: u8) -> Cell {
        debug_assert!(index < 81);
        Cell(index as u16)
    }

    /// The cell at `row`, `col` (both 0-based, below 25).
    #[inline]
    pub const fn at(row: u8, col: u8) -> Cell {
        debug_assert!(row < 25 && col < 25);
        if row < 9 && col < 9 {
            Cell(row as u16 * 9 + col as u16)
        } else {
            Cell(CORNER + WIDE * row as u16 + col as u16)
        }
    }

    /// The cell of index `i` on a board `n` wide (`n * row + col`).
    #[inline]
    pub const fn from_index_in(i: usize, n: usize) -> Cell {
        if n == 9 {
            Cell::new(i as u8)
        } else {
            Cell::at((i / n) as u8, (i % n) as u8)
        }
    }

    /// All 81 cells of the 9x9 board in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81).map(Cell)
    }

    /// The 9x9 index, 0..81 (for cells of the 9x9 board).
    #[inline]
    pub const fn index(self) -> usize {
        debug_assert!(self.0 < CORNER);
        self.0 as usize
    }

    /// The index on a board `n` cells wide: `n * row + col`.
    #[inline]
    pub const fn index_in(self, n: usize) -> usize {
        if self.0 < CORNER && n == 9 {
            self.0 as usize
        } else {
            self.row() as usize * n + self.col() as usize
        }
    }

    /// Whether the cell lies in the 9x9 corner (row and column below 9).
    #[inline]
    pub const fn is_nine_by_nine(self) -> bool {
        self.0 < CORNER
    }

    /// Row, 0-based.
    #[inline]
    pub const fn row(self) -> u8 {
        if self.0 < CORNER {
            (self.0 / 9) as u8
        } else {
            ((self.0 - CORNER) / WIDE) as u8
        }
    }

    /// Column, 0-based.
    #[inline]
    pub const fn col(self) -> u8 {
        if self.0 < CORNER {
            (self.0 % 9) as u8
        } else {
            ((self.0 - CORNER) % WIDE) as u8
        }
    }

    /// Box of the 9x9 board, 0-based, numbered left to right, top to bottom.
    #[inline]
    pub const fn box_index(self) -> u8 {
        self.row() / 3 * 3 + self.col() / 3
    }

    /// The row, column and box of the 9x9 board that hold this cell.
    #[inline]
    pub const fn houses(self) -> [House; 3] {
        [
            House::row(self.row()),
            House::col(self.col()),
            House::boxed(self.box_index()),
        ]
    }

    /// The 20 cells of the 9x9 board sharing a house with this one.
    #[inline]
    pub const fn peers(self) -> CellSet {
        PEERS[self.index()]
    }

    /// Whether the two cells of the 9x9 board are different and share a house.
    #[inline]
    pub fn sees(self, other: Cell) -> bool {
        self.peers().contains(other)
    }
}

impl PartialOrd for Cell {
    #[inline]
    fn partial_cmp(&self, other: &Cell) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Cell {
    /// Row, then column.
    #[inline]
    fn cmp(&self, other: &Cell) -> std::cmp::Ordering {
        if self.0 < CORNER && other.0 < CORNER {
            self.0.cmp(&other.0)
        } else {
            (self.row(), self.col()).cmp(&(other.row(), other.col()))
        }
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
    type Err = NameError;
    /// Parses `r1c1` … `r25c25` (case-insensitive).
    fn from_str(s: &str) -> Result<Cell, NameError> {
        let bad = || NameError::Cell(s.to_string());
        let lower = s.to_ascii_lowercase();
        let (row, col) = lower
            .strip_prefix('r')
            .and_then(|rest| rest.split_once('c'))
            .ok_or_else(bad)?;
        let number = |t: &str| -> Option<u8> {
            let ok = !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit());
            ok.then(|| t.parse().ok())
                .flatten()
                .filter(|v| (1..=25).contains(v))
        };
        match (number(row), number(col)) {
            (Some(r), Some(c)) => Ok(Cell::at(r - 1, c - 1)),
            _ => Err(bad()),
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

/// A row, column or box of a board of any size, named `r1` … `r25`, `c1` …, `b1` ….
///
/// Encoded as [`Cell`] is, so that it names itself without its board's size: a house numbered
/// below 9 is its 9x9 index (rows 0..9, columns 9..18, boxes 18..27); any other is
/// `27 + 25 * kind + number` (kind 0 for rows, 1 for columns, 2 for boxes).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct House(u8);

/// Houses of the 9x9 board (and houses numbered below 9 on any board).
const NINE_HOUSES: u8 = 27;

impl House {
    /// Row `r` (0-based).
    #[inline]
    pub const fn row(r: u8) -> House {
        House::of_kind(0, r)
    }
    /// Column `c` (0-based).
    #[inline]
    pub const fn col(c: u8) -> House {
        House::of_kind(1, c)
    }
    /// Box `b` (0-based).
    #[inline]
    pub const fn boxed(b: u8) -> House {
        House::of_kind(2, b)
    }
    /// House `number` (0-based) of a kind: 0 rows, 1 columns, 2 boxes.
    #[inline]
    const fn of_kind(kind: u8, number: u8) -> House {
        debug_assert!(kind < 3 && number < 25);
        if number < 9 {
            House(9 * kind + number)
        } else {
            House(NINE_HOUSES + 25 * kind + number)
        }
    }
    /// The house with this 9x9 index (0..27).
    #[inline]
    pub const fn from_index(i: u8) -> House {
        debug_assert!(i < 27);
        House(i)
    }
    /// The house with index `i` on a board `n` wide (rows `0..n`, columns `n..2n`, boxes
    /// `2n..3n`).
    #[inline]
    pub const fn from_index_in(i: usize, n: usize) -> House {
        House::of_kind((i / n) as u8, (i % n) as u8)
    }
    /// All 27 houses of the 9x9 board: rows, then columns, then boxes.
    pub fn all() -> impl Iterator<Item = House> {
        (0..27).map(House)
    }
    /// The nine rows then the nine columns of the 9x9 board.
    pub fn lines() -> impl Iterator<Item = House> {
        (0..18).map(House)
    }
    /// The nine boxes of the 9x9 board.
    pub fn boxes() -> impl Iterator<Item = House> {
        (18..27).map(House)
    }
    /// The 9x9 index, 0..27.
    #[inline]
    pub const fn index(self) -> usize {
        debug_assert!(self.0 < NINE_HOUSES);
        self.0 as usize
    }
    /// The index on a board `n` wide: `n * kind + number`.
    #[inline]
    pub const fn index_in(self, n: usize) -> usize {
        self.kind_code() as usize * n + self.number() as usize - 1
    }
    /// 0 for rows, 1 for columns, 2 for boxes.
    #[inline]
    const fn kind_code(self) -> u8 {
        if self.0 < NINE_HOUSES {
            self.0 / 9
        } else {
            (self.0 - NINE_HOUSES) / 25
        }
    }
    /// Row, column or box.
    #[inline]
    pub const fn kind(self) -> HouseKind {
        match self.kind_code() {
            0 => HouseKind::Row,
            1 => HouseKind::Column,
            _ => HouseKind::Box,
        }
    }
    /// Number within its kind, 1-based as people count.
    #[inline]
    pub const fn number(self) -> u8 {
        if self.0 < NINE_HOUSES {
            self.0 % 9 + 1
        } else {
            (self.0 - NINE_HOUSES) % 25 + 1
        }
    }
    /// The nine cells of the 9x9 house.
    #[inline]
    pub const fn cells(self) -> CellSet {
        HOUSES[self.index()]
    }
    /// The nine cells of the 9x9 house in order (row order for rows and boxes, top to bottom
    /// for columns).
    #[inline]
    pub const fn cell_list(self) -> &'static [Cell; 9] {
        &HOUSE_CELLS[self.index()]
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
    type Err = NameError;
    /// Parses `r3`, `c7` or `b5` (up to 25).
    fn from_str(s: &str) -> Result<House, NameError> {
        let bad = || NameError::House(s.to_string());
        let b = s.as_bytes();
        let number = s
            .get(1..)
            .filter(|t| !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u8>().ok())
            .filter(|v| (1..=25).contains(v))
            .ok_or_else(bad)?;
        match b[0].to_ascii_lowercase() {
            b'r' => Ok(House::row(number - 1)),
            b'c' => Ok(House::col(number - 1)),
            b'b' => Ok(House::boxed(number - 1)),
            _ => Err(bad()),
        }
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

/// The digits of a mask (of any size: bit `d - 1` for digit `d`), smallest first.
#[inline]
pub fn digits<M: Bits>(mask: M) -> impl Iterator<Item = u8> {
    mask.ones().map(|d| d as u8 + 1)
}

/// The mask of one digit (1..=25) in a mask of any width (bit `d - 1`).
#[inline]
pub(crate) fn digit_mask<M: Bits>(digit: u8) -> M {
    M::bit(usize::from(digit) - 1)
}

/// The digits of a mask run together (`128`, `1CG` in 16x16's symbols) when each is written as one
/// character, else separated by commas (`1,12,16`).
pub(crate) fn digits_compact<M: Bits>(mask: M) -> String {
    let wide = !crate::model::symbols::one_char_each(digits(mask).last().unwrap_or(0));
    digits_text(mask, if wide { "," } else { "" })
}

/// Digits of a mask as text, e.g. `16` or (with `sep`) `1/6`, in the puzzle's symbols
/// ([`crate::model::Sym`]).
pub(crate) fn digits_text<M: Bits>(mask: M, sep: &str) -> String {
    let mut s = String::new();
    for (i, d) in digits(mask).enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        let _ = write!(s, "{}", crate::model::Sym(d));
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
    let mut out = [[Cell::new(0); 9]; 27];
    let mut h = 0;
    while h < 27 {
        let mut bits = HOUSES[h].bits();
        let mut k = 0;
        while bits != 0 {
            out[h][k] = Cell::new(bits.trailing_zeros() as u8);
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
    use crate::model::{Layout, S9, Shape};

    #[test]
    fn cells_order_by_row_then_column_on_every_size() {
        let mut cells: Vec<Cell> = (0..16)
            .flat_map(|r| (0..16).map(move |c| Cell::at(r, c)))
            .rev()
            .collect();
        cells.sort();
        let names: Vec<String> = cells.iter().take(11).map(|c| c.to_string()).collect();
        assert_eq!(names[8..], ["r1c9", "r1c10", "r1c11"]);
        assert!(
            cells
                .windows(2)
                .all(|w| w[0].index_in(16) + 1 == w[1].index_in(16))
        );
    }

    #[test]
    fn house_masks_agree_with_houses() {
        let geo = S9::geometry(Layout::new(9).unwrap());
        for c in Cell::all() {
            let mask = c.houses().iter().fold(0, |m, h| m | 1 << h.index());
            assert_eq!(geo.house_mask_of(c), mask, "{c}");
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
        for (name, row, col) in [("r12c16", 11, 15), ("r1c10", 0, 9), ("R25C3", 24, 2)] {
            let cell: Cell = name.parse().unwrap();
            assert_eq!((cell.row(), cell.col()), (row, col), "{name}");
            assert_eq!(cell.to_string(), name.to_lowercase());
            assert!(!cell.is_nine_by_nine());
            assert_eq!(cell.index_in(25), 25 * row as usize + col as usize);
        }
        for bad in ["r26c1", "r1c0", "r1c", "rc1", "r1c1x", "r001c1"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
        assert_eq!(Cell::at(4, 7).index_in(16), 4 * 16 + 7);
        assert_eq!(Cell::at(4, 7).index_in(9), 4 * 9 + 7);
        for (name, i16) in [("r12", 11), ("c16", 31), ("b10", 41), ("c3", 18)] {
            let house: House = name.parse().unwrap();
            assert_eq!(house.to_string(), name);
            assert_eq!(house.index_in(16), i16, "{name}");
            assert_eq!(House::from_index_in(i16, 16), house);
        }
        assert!("r26".parse::<House>().is_err() && "x1".parse::<House>().is_err());
        assert_eq!(digits_text(0b100001u16, "/"), "1/6");
    }
}

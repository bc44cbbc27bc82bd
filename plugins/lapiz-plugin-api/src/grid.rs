//! A read-only view of the grid a search gets, and the Sudoku geometry plugins need: [`Grid`]
//! and the 9x9 tables for searches of versions 1 and 2, [`Board`] (any size, with its own
//! geometry) for sized searches of version 3.

use crate::abi::{LpBoard, LpGrid};

/// The cells of the nine rows.
pub const ROWS: [[u8; 9]; 9] = {
    let mut t = [[0u8; 9]; 9];
    let mut r = 0;
    while r < 9 {
        let mut c = 0;
        while c < 9 {
            t[r][c] = (r * 9 + c) as u8;
            c += 1;
        }
        r += 1;
    }
    t
};

/// The cells of the nine columns.
pub const COLS: [[u8; 9]; 9] = {
    let mut t = [[0u8; 9]; 9];
    let mut c = 0;
    while c < 9 {
        let mut r = 0;
        while r < 9 {
            t[c][r] = (r * 9 + c) as u8;
            r += 1;
        }
        c += 1;
    }
    t
};

/// The cells of the nine boxes.
pub const BOXES: [[u8; 9]; 9] = {
    let mut t = [[0u8; 9]; 9];
    let mut b = 0;
    while b < 9 {
        let mut i = 0;
        while i < 9 {
            t[b][i] = ((b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3) as u8;
            i += 1;
        }
        b += 1;
    }
    t
};

/// The 27 houses: rows 0–8, columns 9–17, boxes 18–26 (as lapiz numbers them).
pub const HOUSES: [[u8; 9]; 27] = {
    let mut t = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        t[i] = ROWS[i];
        t[9 + i] = COLS[i];
        t[18 + i] = BOXES[i];
        i += 1;
    }
    t
};

/// The row, column and box (house indices as in [`HOUSES`]) of a cell.
pub const fn houses_of(cell: u8) -> [usize; 3] {
    let (r, c) = (cell as usize / 9, cell as usize % 9);
    [r, 9 + c, 18 + r / 3 * 3 + c / 3]
}

/// Whether two different cells share a house.
pub const fn sees(a: u8, b: u8) -> bool {
    if a == b {
        return false;
    }
    let (ha, hb) = (houses_of(a), houses_of(b));
    ha[0] == hb[0] || ha[1] == hb[1] || ha[2] == hb[2]
}

/// A cell's name as people read it, `r1c1`..`r9c9`.
pub fn cell_name(cell: u8) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// The grid a search reads: values and candidate masks (bit `d - 1` for digit `d`).
#[derive(Clone, Copy)]
pub struct Grid<'a> {
    raw: &'a LpGrid,
}

impl<'a> Grid<'a> {
    /// A view of the ABI grid.
    pub fn new(raw: &'a LpGrid) -> Grid<'a> {
        Grid { raw }
    }

    /// The digit in `cell`, 0 when empty.
    pub fn value(&self, cell: u8) -> u8 {
        self.raw.values[cell as usize]
    }

    /// The candidate mask of `cell` (0 when filled).
    pub fn candidates(&self, cell: u8) -> u16 {
        if self.value(cell) != 0 {
            0
        } else {
            self.raw.candidates[cell as usize] & 0x1ff
        }
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: u8, digit: u8) -> bool {
        (1..=9).contains(&digit) && self.candidates(cell) & (1 << (digit - 1)) != 0
    }

    /// The empty cells, in order.
    pub fn empty_cells(&self) -> impl Iterator<Item = u8> + '_ {
        (0..81u8).filter(|&c| self.value(c) == 0)
    }

    /// The cells of `house` (an index into [`HOUSES`]) where `digit` is a candidate.
    pub fn digit_cells_in(&self, digit: u8, house: usize) -> impl Iterator<Item = u8> + '_ {
        HOUSES[house]
            .iter()
            .copied()
            .filter(move |&c| self.has(c, digit))
    }

    /// The raw ABI grid.
    pub fn raw(&self) -> &LpGrid {
        self.raw
    }
}

/// The board a sized search reads (ABI version 3): any size from 4x4 to 25x25, with its
/// geometry. Cells are `0 .. n * n` row by row; houses are rows `0 .. n`, columns `n .. 2n`
/// and boxes `2n .. 3n` (numbered row by row); digits are `1..=n`.
#[derive(Clone, Copy)]
pub struct Board<'a> {
    raw: &'a LpBoard,
}

impl<'a> Board<'a> {
    /// A view of the ABI board.
    pub fn new(raw: &'a LpBoard) -> Board<'a> {
        Board { raw }
    }

    /// The side `n` (digits are `1..=n`).
    pub fn n(&self) -> usize {
        (self.raw.n as usize).min(crate::abi::LP_MAX_SIZE as usize)
    }

    /// Rows of a box.
    pub fn box_rows(&self) -> usize {
        (self.raw.box_rows as usize).max(1)
    }

    /// Columns of a box.
    pub fn box_cols(&self) -> usize {
        (self.raw.box_cols as usize).max(1)
    }

    /// The number of cells, `n * n`.
    pub fn cell_count(&self) -> usize {
        self.n() * self.n()
    }

    /// The number of houses, `3n`.
    pub fn house_count(&self) -> usize {
        3 * self.n()
    }

    /// The mask of every digit, `n` low bits.
    pub fn all_digits(&self) -> u32 {
        if self.n() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.n()) - 1
        }
    }

    /// The digit in `cell`, 0 when empty.
    pub fn value(&self, cell: u16) -> u8 {
        self.raw.values[cell as usize]
    }

    /// The candidate mask of `cell`: bit `d - 1` for digit `d` (0 when filled).
    pub fn candidates(&self, cell: u16) -> u32 {
        if self.value(cell) != 0 {
            0
        } else {
            self.raw.candidates[cell as usize] & self.all_digits()
        }
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: u16, digit: u8) -> bool {
        (1..=self.n()).contains(&(digit as usize))
            && self.candidates(cell) & (1 << (digit - 1)) != 0
    }

    /// The empty cells, in order.
    pub fn empty_cells(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.cell_count() as u16).filter(|&c| self.value(c) == 0)
    }

    /// The cell at `row`, `col` (0-based).
    pub fn cell_at(&self, row: usize, col: usize) -> u16 {
        (row * self.n() + col) as u16
    }

    /// The row and column (0-based) of `cell`.
    pub fn row_col(&self, cell: u16) -> (usize, usize) {
        (cell as usize / self.n(), cell as usize % self.n())
    }

    /// The box (0-based, row by row) of the cell at `row`, `col`.
    fn box_at(&self, row: usize, col: usize) -> usize {
        row / self.box_rows() * (self.n() / self.box_cols()) + col / self.box_cols()
    }

    /// The row, column and box of `cell`, as house indices (`r`, `n + c`, `2n + b`).
    pub fn houses_of(&self, cell: u16) -> [usize; 3] {
        let n = self.n();
        let (r, c) = self.row_col(cell);
        [r, n + c, 2 * n + self.box_at(r, c)]
    }

    /// The `n` cells of house `house` (`0 .. 3n`), in order.
    pub fn house_cells(&self, house: usize) -> impl Iterator<Item = u16> + '_ {
        let n = self.n();
        let (kind, k) = (house / n, house % n);
        (0..n).map(move |i| match kind {
            0 => self.cell_at(k, i),
            1 => self.cell_at(i, k),
            _ => {
                let per_band = n / self.box_cols();
                let (r0, c0) = (
                    k / per_band * self.box_rows(),
                    k % per_band * self.box_cols(),
                );
                self.cell_at(r0 + i / self.box_cols(), c0 + i % self.box_cols())
            }
        })
    }

    /// The cells of `house` where `digit` is a candidate.
    pub fn digit_cells_in(&self, digit: u8, house: usize) -> impl Iterator<Item = u16> + '_ {
        self.house_cells(house).filter(move |&c| self.has(c, digit))
    }

    /// Whether two different cells share a house.
    pub fn sees(&self, a: u16, b: u16) -> bool {
        if a == b {
            return false;
        }
        let (ha, hb) = (self.houses_of(a), self.houses_of(b));
        ha[0] == hb[0] || ha[1] == hb[1] || ha[2] == hb[2]
    }

    /// A cell's name as people read it, `r1c1` .. `r25c25`.
    pub fn cell_name(&self, cell: u16) -> String {
        let (r, c) = self.row_col(cell);
        format!("r{}c{}", r + 1, c + 1)
    }

    /// A house's name: `r1`, `c1` or `b1`.
    pub fn house_name(&self, house: usize) -> String {
        let n = self.n();
        format!("{}{}", ["r", "c", "b"][(house / n).min(2)], house % n + 1)
    }

    /// The raw ABI board.
    pub fn raw(&self) -> &LpBoard {
        self.raw
    }

    /// The board as the 9x9 grid of versions 1 and 2, when it is 9x9 (what the default
    /// sized search of a 9x9 technique reads).
    pub fn to_grid(&self) -> Option<LpGrid> {
        if self.n() != 9 {
            return None;
        }
        let mut grid = LpGrid {
            values: [0; 81],
            candidates: [0; 81],
        };
        for cell in 0..81u16 {
            grid.values[cell as usize] = self.value(cell);
            grid.candidates[cell as usize] = self.candidates(cell) as u16;
        }
        Some(grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(n: u32, box_rows: u32, box_cols: u32) -> LpBoard {
        LpBoard {
            n,
            box_rows,
            box_cols,
            cells: n * n,
            candidates: [0; 625],
            values: [0; 625],
        }
    }

    #[test]
    fn a_board_of_every_size_has_its_houses() {
        for (n, r, c) in [
            (4, 2, 2),
            (6, 2, 3),
            (6, 3, 2),
            (9, 3, 3),
            (12, 3, 4),
            (16, 4, 4),
            (25, 5, 5),
        ] {
            let raw = board(n, r, c);
            let b = Board::new(&raw);
            let n = n as usize;
            for cell in 0..(n * n) as u16 {
                for (k, &h) in b.houses_of(cell).iter().enumerate() {
                    assert_eq!(h / n, k);
                    assert!(b.house_cells(h).any(|x| x == cell), "{n}: {cell} in {h}");
                }
                assert_eq!(
                    (0..(n * n) as u16).filter(|&o| b.sees(cell, o)).count(),
                    3 * n - 1 - r as usize - c as usize,
                    "{n}: peers of {cell}"
                );
            }
        }
        // 9x9: the same houses as the tables
        let raw = board(9, 3, 3);
        let b = Board::new(&raw);
        for (h, house) in HOUSES.iter().enumerate() {
            let cells: Vec<u16> = b.house_cells(h).collect();
            let table: Vec<u16> = house.iter().map(|&c| c as u16).collect();
            assert_eq!(cells, table, "house {h}");
        }
        assert_eq!(Board::new(&board(16, 4, 4)).cell_name(255), "r16c16");
        assert_eq!(Board::new(&board(16, 4, 4)).house_name(47), "b16");
    }

    #[test]
    fn every_cell_is_in_one_house_of_each_kind() {
        for cell in 0..81u8 {
            for (k, &h) in houses_of(cell).iter().enumerate() {
                assert_eq!(h / 9, k);
                assert!(HOUSES[h].contains(&cell), "{cell} in house {h}");
            }
        }
        assert!(sees(0, 8) && sees(0, 72) && sees(0, 20) && !sees(0, 21) && !sees(5, 5));
        assert_eq!((0..81u8).filter(|&c| sees(40, c)).count(), 20);
        assert_eq!(cell_name(80), "r9c9");
    }
}

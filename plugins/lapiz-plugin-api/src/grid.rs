//! A read-only view of the grid a search gets, and the Sudoku geometry plugins need.

use crate::abi::LpGrid;

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

#[cfg(test)]
mod tests {
    use super::*;

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

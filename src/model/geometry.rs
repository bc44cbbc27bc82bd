//! [`Geometry`]: the tables of one layout (houses, peers, each cell's houses and place in
//! them), built once per layout and kept.
//!
//! Cells are numbered row by row, `0 .. n*n`; houses are the `n` rows, then the `n` columns,
//! then the `n` boxes (row by row), `0 .. 3n`. For a 6x6 board with 2x3 boxes:
//!
//! ```text
//!   c0 c1 c2 | c3 c4 c5        houses  0..6   rows
//!   .  .  .  | .  .  .  b0 b1          6..12  columns
//!   .  .  .  | .  .  .                 12..18 boxes: 12 + box
//!   ---------+---------
//!   .  .  .  | .  .  .  b2 b3
//!   ...
//! ```

use super::bits::Bits;
use super::{Layout, Shape};
use crate::model::cell::{Cell, House};
use crate::model::cellset::CellSet;

/// The tables of one layout of shape `S`: its houses and peers as lists (for the brute force)
/// and as cell sets (for the techniques).
#[derive(Debug)]
pub struct Geometry<S: Shape> {
    /// The layout the tables describe.
    layout: Layout,
    /// Each house's cells (rows, then columns, then boxes).
    house_sets: S::PerHouse<CellSet<S>>,
    /// Each cell's peers (bit order).
    peer_sets: S::PerCell<CellSet<S>>,
    /// Each cell's three houses as a house mask.
    house_masks: S::PerCell<S::Houses>,
    /// Each house's cells in order (`n` per house, flat: house `h` at `h * n ..`).
    pub(crate) house_cells: Vec<u16>,
    /// Each cell's row, column and box house.
    pub(crate) cell_houses: S::PerCell<[u16; 3]>,
    /// Each cell's place (0 .. n) in its row, column and box.
    pub(crate) cell_places: S::PerCell<[u8; 3]>,
    /// Each cell's peers in order (flat: cell `c` at `c * peers ..`).
    pub(crate) peer_list: Vec<u16>,
    /// How many peers each cell has (`3n - 1 - box_rows - box_cols`).
    pub(crate) peers: usize,
}

impl<S: Shape> Geometry<S> {
    /// The tables of `layout`, whose size must be `S::N`.
    pub(crate) fn build(layout: Layout) -> Geometry<S> {
        let n = S::N;
        assert_eq!(layout.n(), n, "a layout of another size");
        let mut house_set = S::per_house(S::Cells::ZERO);
        let mut house_cells = vec![0u16; 3 * n * n];
        let mut cell_houses = S::per_cell([0u16; 3]);
        let mut cell_places = S::per_cell([0u8; 3]);
        let mut filled = vec![0usize; 3 * n];
        for cell in 0..n * n {
            let (row, col) = (cell / n, cell % n);
            let houses = [row, n + col, 2 * n + layout.box_of(row, col)];
            for (k, &h) in houses.iter().enumerate() {
                house_set.as_mut()[h].set(cell);
                house_cells[h * n + filled[h]] = cell as u16;
                cell_houses.as_mut()[cell][k] = h as u16;
                cell_places.as_mut()[cell][k] = filled[h] as u8;
                filled[h] += 1;
            }
        }
        let mut peer_set = S::per_cell(S::Cells::ZERO);
        for cell in 0..n * n {
            let mut peers = S::Cells::ZERO;
            for &h in &cell_houses.as_ref()[cell] {
                peers = peers.or(house_set.as_ref()[h as usize]);
            }
            peers.clear(cell);
            peer_set.as_mut()[cell] = peers;
        }
        let peers = peer_set.as_ref()[0].count() as usize;
        let mut house_sets = S::per_house(CellSet::EMPTY);
        for (set, raw) in house_sets.as_mut().iter_mut().zip(house_set.as_ref()) {
            *set = CellSet::from_raw(*raw);
        }
        let mut peer_sets = S::per_cell(CellSet::EMPTY);
        for (set, raw) in peer_sets.as_mut().iter_mut().zip(peer_set.as_ref()) {
            *set = CellSet::from_raw(*raw);
        }
        let mut peer_list = Vec::with_capacity(n * n * peers);
        for set in peer_set.as_ref() {
            debug_assert_eq!(set.count() as usize, peers);
            peer_list.extend(set.ones().map(|c| c as u16));
        }
        let mut house_masks = S::per_cell(S::Houses::ZERO);
        for (mask, houses) in house_masks.as_mut().iter_mut().zip(cell_houses.as_ref()) {
            for &h in houses {
                mask.set(h as usize);
            }
        }
        Geometry {
            layout,
            house_masks,
            house_sets,
            peer_sets,
            house_cells,
            cell_houses,
            cell_places,
            peer_list,
            peers,
        }
    }

    /// The layout: size and box shape.
    #[inline]
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The size `n`: digits, rows, columns and boxes.
    #[inline]
    pub const fn n(&self) -> usize {
        S::N
    }

    /// The `3n` houses: rows, then columns, then boxes.
    #[inline]
    pub fn houses(&self) -> impl Iterator<Item = House> + use<S> {
        (0..3 * S::N).map(|h| House::from_index_in(h, S::N))
    }

    /// The cells of `house`.
    #[inline]
    pub fn house(&self, house: House) -> CellSet<S> {
        self.house_sets.as_ref()[house.index_in(S::N)]
    }

    /// The cells of house number `h` (rows `0..n`, columns `n..2n`, boxes `2n..3n`).
    #[inline]
    pub fn house_at(&self, h: usize) -> CellSet<S> {
        self.house_sets.as_ref()[h]
    }

    /// The cells sharing a house with `cell`.
    #[inline]
    pub fn peers(&self, cell: Cell) -> CellSet<S> {
        self.peer_sets.as_ref()[S::bit_of(cell)]
    }

    /// Whether the two cells are different and share a house.
    #[inline]
    pub fn sees(&self, a: Cell, b: Cell) -> bool {
        self.peers(a).contains(b)
    }

    /// The row, column and box of `cell`.
    #[inline]
    pub fn houses_of(&self, cell: Cell) -> [House; 3] {
        self.cell_houses.as_ref()[S::bit_of(cell)].map(|h| House::from_index_in(h as usize, S::N))
    }

    /// The row, column and box of `cell` as a house mask.
    #[inline]
    pub fn house_mask_of(&self, cell: Cell) -> S::Houses {
        self.house_masks.as_ref()[S::bit_of(cell)]
    }

    /// The cells that see every cell of `cells` (and are not in it); every cell for the empty
    /// set.
    pub fn common_peers(&self, cells: CellSet<S>) -> CellSet<S> {
        let mut out = CellSet::ALL;
        for cell in cells {
            out &= self.peers(cell);
        }
        out - cells
    }

    /// The cells of house `h`, in order.
    #[inline]
    pub(crate) fn cells_of(&self, h: usize) -> &[u16] {
        &self.house_cells[h * S::N..(h + 1) * S::N]
    }

    /// The peers of `cell`, in order.
    #[inline]
    pub(crate) fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peer_list[cell * self.peers..(cell + 1) * self.peers]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{S6, S9, S25};

    #[test]
    fn nine_by_nine_matches_the_fixed_tables() {
        let geo = Geometry::<S9>::build(Layout::NINE);
        assert_eq!(geo.peers, 20);
        for cell in crate::model::cell::Cell::all() {
            let fixed: Vec<u16> = cell.peers().iter().map(|c| c.index() as u16).collect();
            assert_eq!(geo.peers_of(cell.index()), fixed.as_slice());
        }
        for house in crate::model::cell::House::all() {
            let fixed: Vec<u16> = house.cell_list().iter().map(|c| c.index() as u16).collect();
            assert_eq!(geo.cells_of(house.index()), fixed.as_slice());
        }
    }

    #[test]
    fn the_cell_sets_agree_with_the_lists() {
        let geo = S25::geometry(Layout::new(25).unwrap());
        let cell = Cell::at(12, 17);
        let peers: Vec<usize> = geo.peers(cell).iter().map(|c| c.index_in(25)).collect();
        let list: Vec<usize> = geo
            .peers_of(cell.index_in(25))
            .iter()
            .map(|&c| c as usize)
            .collect();
        assert_eq!(peers, list);
        let [row, col, boxed] = geo.houses_of(cell);
        assert_eq!(
            (row.to_string(), col.to_string(), boxed.to_string()),
            ("r13".into(), "c18".into(), "b14".into())
        );
        assert!(geo.house(boxed).contains(cell) && geo.house(row).len() == 25);
        let nine = Geometry::<S9>::build(Layout::NINE);
        for c in crate::model::cell::Cell::all() {
            assert_eq!(nine.peers(c), c.peers());
            assert_eq!(nine.houses_of(c), c.houses());
        }
    }

    #[test]
    fn six_by_six_with_tall_boxes() {
        let geo = Geometry::<S6>::build(Layout::with_box(6, 3, 2).unwrap());
        // r1c1's box (3 rows, 2 columns): r1c1 r1c2 r2c1 r2c2 r3c1 r3c2
        assert_eq!(geo.cells_of(12), [0, 1, 6, 7, 12, 13]);
        // 5 in the row, 5 in the column, 2 more in the box
        assert_eq!(geo.peers, 12);
    }

    #[test]
    fn twenty_five_has_sixty_four_peers() {
        let geo = S25::geometry(Layout::new(25).unwrap());
        assert_eq!(geo.peers, 24 + 24 + 16);
        assert_eq!(geo.cells_of(3 * 25 - 1).last(), Some(&624));
    }
}

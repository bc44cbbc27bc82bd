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

/// The tables of one layout of shape `S`.
#[derive(Debug)]
pub(crate) struct Geometry<S: Shape> {
    /// Each house's cells in order (`n` per house, flat: house `h` at `h * n ..`).
    pub house_cells: Vec<u16>,
    /// Each cell's row, column and box house.
    pub cell_houses: S::PerCell<[u16; 3]>,
    /// Each cell's place (0 .. n) in its row, column and box.
    pub cell_places: S::PerCell<[u8; 3]>,
    /// Each cell's peers in order (flat: cell `c` at `c * peers ..`).
    pub peer_list: Vec<u16>,
    /// How many peers each cell has (`3n - 1 - box_rows - box_cols`).
    pub peers: usize,
}

impl<S: Shape> Geometry<S> {
    /// The tables of `layout`, whose size must be `S::N`.
    pub fn build(layout: Layout) -> Geometry<S> {
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
        let mut peer_list = Vec::with_capacity(n * n * peers);
        for set in peer_set.as_ref() {
            debug_assert_eq!(set.count() as usize, peers);
            peer_list.extend(set.ones().map(|c| c as u16));
        }
        Geometry {
            house_cells,
            cell_houses,
            cell_places,
            peer_list,
            peers,
        }
    }

    /// The cells of house `h`, in order.
    #[inline]
    pub fn cells_of(&self, h: usize) -> &[u16] {
        &self.house_cells[h * S::N..(h + 1) * S::N]
    }

    /// The peers of `cell`, in order.
    #[inline]
    pub fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peer_list[cell * self.peers..(cell + 1) * self.peers]
    }
}

#[cfg(test)]
mod tests {
    use super::super::{S6, S9, S25};
    use super::*;

    #[test]
    fn nine_by_nine_matches_the_fixed_tables() {
        let geo = Geometry::<S9>::build(Layout::NINE);
        assert_eq!(geo.peers, 20);
        for cell in crate::geometry::Cell::all() {
            let fixed: Vec<u16> = cell.peers().iter().map(|c| c.index() as u16).collect();
            assert_eq!(geo.peers_of(cell.index()), fixed.as_slice());
        }
        for house in crate::geometry::House::all() {
            let fixed: Vec<u16> = house.cell_list().iter().map(|c| c.index() as u16).collect();
            assert_eq!(geo.cells_of(house.index()), fixed.as_slice());
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

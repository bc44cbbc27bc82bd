//! The board a script searches: its layout (size and boxes), kept for this thread while a
//! script's `find` runs, so that the helpers with no grid or cell set among their arguments
//! (`rows()`, `all_cells()`, `cell(r, c)`, `house.cells`, `cell.peers` …) answer for the board
//! being searched. Outside a search (the engine used directly) the board is 9x9.
//!
//! Each helper is written once, generic over the shape, and [`on_board!`] picks the copy for
//! the current layout's size, as `crate::model::on_size!` does for a context.

use std::cell::Cell as StdCell;

use crate::model::cell::{Cell, House};
use crate::model::cellset::CellSet;
use crate::model::{Geometry, Layout, Shape};

thread_local! {
    /// The layout of the board the script running on this thread searches.
    static BOARD: StdCell<Layout> = const { StdCell::new(Layout::NINE) };
}

/// Makes `layout` this thread's board while it lives, and restores the previous one when
/// dropped (also when a script call unwinds).
pub(crate) struct BoardGuard {
    prev: Layout,
}

impl BoardGuard {
    /// `layout` is the current board until the guard is dropped.
    pub(crate) fn enter(layout: Layout) -> BoardGuard {
        BoardGuard {
            prev: BOARD.with(|b| b.replace(layout)),
        }
    }
}

impl Drop for BoardGuard {
    fn drop(&mut self) {
        BOARD.with(|b| b.set(self.prev));
    }
}

/// The layout of the board being searched (9x9 outside a search).
#[inline]
pub(crate) fn layout() -> Layout {
    BOARD.with(StdCell::get)
}

/// The size `n` of the board being searched.
#[inline]
pub(crate) fn n() -> usize {
    layout().n()
}

/// The geometry of shape `S` for the board being searched: its own when it has that shape,
/// else `S`'s default layout (a cell set of another size met outside its search).
pub(crate) fn geo<S: Shape>() -> &'static Geometry<S> {
    let layout = layout();
    if layout.n() == S::N {
        S::geometry(layout)
    } else {
        // every shape's size is one Layout::new reads
        S::geometry(Layout::new(S::N as u8).unwrap_or(Layout::NINE))
    }
}

/// Runs a generic expression with `$S` the shape of the current board's size.
macro_rules! on_board {
    ($S:ident => $body:expr) => {
        match $crate::script::searched::n() {
            4 => {
                type $S = $crate::model::S4;
                $body
            }
            6 => {
                type $S = $crate::model::S6;
                $body
            }
            8 => {
                type $S = $crate::model::S8;
                $body
            }
            12 => {
                type $S = $crate::model::S12;
                $body
            }
            16 => {
                type $S = $crate::model::S16;
                $body
            }
            25 => {
                type $S = $crate::model::S25;
                $body
            }
            _ => {
                type $S = $crate::model::S9;
                $body
            }
        }
    };
}
pub(crate) use on_board;

/// Whether `cell` lies on a board of size `n`.
#[inline]
pub(crate) fn cell_on(cell: Cell, n: usize) -> bool {
    usize::from(cell.row()) < n && usize::from(cell.col()) < n
}

/// Whether `house` is one of a board of size `n`.
#[inline]
pub(crate) fn house_on(house: House, n: usize) -> bool {
    usize::from(house.number()) <= n
}

/// `cell` when it lies on the board being searched, else a message saying it does not.
pub(crate) fn check_cell(cell: Cell) -> Result<Cell, String> {
    let n = n();
    if cell_on(cell, n) {
        Ok(cell)
    } else {
        Err(format!("{cell} is not a cell of a {n}x{n} board"))
    }
}

/// `house` when it is one of the board being searched, else a message saying it is not.
pub(crate) fn check_house(house: House) -> Result<House, String> {
    let n = n();
    if house_on(house, n) {
        Ok(house)
    } else {
        Err(format!("{house} is not a house of a {n}x{n} board"))
    }
}

/// The cells of `house` on the board of shape `S` being searched.
pub(crate) fn house_cells<S: Shape>(house: House) -> CellSet<S> {
    geo::<S>().house(house)
}

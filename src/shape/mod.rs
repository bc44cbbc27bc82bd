//! Every grid size: the [`Layout`] of a board (4x4 to 25x25, its box shape), a [`Puzzle`] of any
//! size read from every common format, and the size-generic core behind them.
//!
//! # The shape design
//!
//! A board of size `n` has `n * n` cells, `n` digits and `3n` houses; its boxes are `r x c`
//! with `r * c = n`. Two things fix the cost of every operation: how wide a cell set is (`n * n`
//! bits) and how wide a digit mask is (`n` bits). So each size is a type implementing the
//! crate-private `Shape` trait, which names the widths as associated types and the per-cell,
//! per-house and per-digit arrays as generic associated types:
//!
//! ```text
//!  shape  cells  cell set     digit mask   boxes (default, others by --box)
//!  S4       16   u64          u16          2x2
//!  S6       36   u64          u16          2x3 (3x2)
//!  S8       64   u64          u16          2x4 (4x2)
//!  S9       81   u128         u16          3x3
//!  S12     144   [u64; 3]     u16          3x4 (4x3, 2x6, 6x2)
//!  S16     256   [u64; 4]     u16          4x4 (2x8, 8x2)
//!  S25     625   [u64; 10]    u32          5x5
//! ```
//!
//! Code over the core (`Board<S>`, the brute-force solver, the generator, the singles) is written
//! once, generic over `S: Shape`, and monomorphised per size: no `dyn` and no run-time width
//! in an inner loop. The box shape is not part of the type: it only changes the geometry
//! tables (`Geometry<S>`: houses, peers, each cell's houses and its place in them), built once
//! per layout and kept for the life of the process. One `match` on the size at the entry
//! (`Layout::dispatch`) picks the copy. The public API stays size-free: a [`Puzzle`] carries its
//! layout, its alphabet and its values, and callers never write generics.
//!
//! 9x9 keeps its own tuned core for now (the `Grid` the techniques run on, and the
//! tdoku-class brute force of [`crate::solver`]); the generic core serves every size, 9x9
//! included (the tests check that both agree), and the techniques move onto it with the second
//! part of the grid-size work.

pub(crate) mod bits;
pub(crate) mod board;
pub(crate) mod brute;
pub(crate) mod generate;
pub(crate) mod geometry;
mod puzzle;
mod text;

use std::fmt;
use std::sync::OnceLock;

use bits::{Bits, Words};
pub(crate) use geometry::Geometry;
pub use puzzle::{Alphabet, Puzzle};

/// The sizes lapiz reads: `n` for an `n x n` board.
pub const SIZES: [u8; 7] = [4, 6, 8, 9, 12, 16, 25];

/// A board's size and box shape: `n x n` cells, boxes of `box_rows x box_cols` (`box_rows *
/// box_cols = n`).
///
/// ```
/// use lapiz::shape::Layout;
/// let six = Layout::new(6).unwrap();
/// assert_eq!((six.box_rows(), six.box_cols()), (2, 3));
/// assert_eq!(six.to_string(), "6x6 (2x3 boxes)");
/// assert!(Layout::with_box(12, 4, 3).is_ok());
/// assert!(Layout::new(10).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Layout {
    n: u8,
    box_rows: u8,
    box_cols: u8,
}

impl Layout {
    /// The 9x9 board.
    pub const NINE: Layout = Layout {
        n: 9,
        box_rows: 3,
        box_cols: 3,
    };

    /// The board of size `n` with its default boxes: as square as the size allows, never taller
    /// than wide (6: 2x3, 8: 2x4, 12: 3x4).
    pub fn new(n: u8) -> Result<Layout, crate::ParseError> {
        if !SIZES.contains(&n) {
            return Err(crate::ParseError::BadSize {
                what: format!("size {n}: lapiz reads sizes 4, 6, 8, 9, 12, 16 and 25"),
            });
        }
        let rows = (2..=n)
            .rev()
            .find(|&r| u16::from(r) * u16::from(r) <= u16::from(n) && n.is_multiple_of(r))
            .unwrap_or(1);
        Ok(Layout {
            n,
            box_rows: rows,
            box_cols: n / rows,
        })
    }

    /// The board of size `n` with boxes of `rows x cols`: both at least 2, `rows * cols = n`.
    pub fn with_box(n: u8, rows: u8, cols: u8) -> Result<Layout, crate::ParseError> {
        Layout::new(n)?;
        if rows < 2 || cols < 2 || u16::from(rows) * u16::from(cols) != u16::from(n) {
            return Err(crate::ParseError::BadSize {
                what: format!(
                    "{rows}x{cols} boxes do not fit size {n} (rows x columns must make {n}, each at least 2)"
                ),
            });
        }
        Ok(Layout {
            n,
            box_rows: rows,
            box_cols: cols,
        })
    }

    /// Reads `--box RxC` for size `n`.
    pub fn parse_box(n: u8, text: &str) -> Result<Layout, crate::ParseError> {
        let bad = || crate::ParseError::BadSize {
            what: format!("`{text}` is not a box shape (rows x columns, like 3x4)"),
        };
        let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let r: u8 = r.trim().parse().map_err(|_| bad())?;
        let c: u8 = c.trim().parse().map_err(|_| bad())?;
        Layout::with_box(n, r, c)
    }

    /// The size: digits, rows, columns and boxes.
    pub const fn n(self) -> usize {
        self.n as usize
    }

    /// Rows in a box.
    pub const fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns in a box.
    pub const fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Cells on the board.
    pub const fn cells(self) -> usize {
        self.n() * self.n()
    }

    /// The box holding the cell at `row`, `col` (0-based, numbered row by row).
    pub const fn box_of(self, row: usize, col: usize) -> usize {
        row / self.box_rows() * (self.n() / self.box_cols()) + col / self.box_cols()
    }

    /// Runs `f` on the generic core of this layout's size.
    pub(crate) fn dispatch<F: ShapeFn>(self, f: F) -> F::Out {
        match self.n {
            4 => f.call(S4::geometry(self)),
            6 => f.call(S6::geometry(self)),
            8 => f.call(S8::geometry(self)),
            9 => f.call(S9::geometry(self)),
            12 => f.call(S12::geometry(self)),
            16 => f.call(S16::geometry(self)),
            _ => f.call(S25::geometry(self)),
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{n}x{n} ({}x{} boxes)",
            self.box_rows,
            self.box_cols,
            n = self.n
        )
    }
}

/// A function over the generic core, called with the geometry of one shape
/// ([`Layout::dispatch`]).
pub(crate) trait ShapeFn {
    /// What it returns.
    type Out;
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Self::Out;
}

/// One board size, as types: the widths of its sets and the lengths of its arrays (see the
/// module's table). Implemented by `S4` .. `S25`.
pub(crate) trait Shape: Copy + Send + Sync + fmt::Debug + 'static {
    /// Digits, rows, columns, boxes.
    const N: usize;
    /// Cells.
    const CELLS: usize = Self::N * Self::N;
    /// A set of cells (bit `i` for cell `i`, row by row).
    type Cells: Bits;
    /// A set of digits (bit `d - 1` for digit `d`), or of places in a house.
    type Mask: Bits;
    /// One `T` per cell.
    type PerCell<T: Copy + Send + Sync + fmt::Debug + 'static>: Copy
        + Send
        + Sync
        + fmt::Debug
        + AsRef<[T]>
        + AsMut<[T]>;
    /// One `T` per house (rows, then columns, then boxes).
    type PerHouse<T: Copy + Send + Sync + fmt::Debug + 'static>: Copy
        + Send
        + Sync
        + fmt::Debug
        + AsRef<[T]>
        + AsMut<[T]>;
    /// One `T` per digit.
    type PerDigit<T: Copy + Send + Sync + fmt::Debug + 'static>: Copy
        + Send
        + Sync
        + fmt::Debug
        + AsRef<[T]>
        + AsMut<[T]>;
    /// Every cell holding `v`.
    fn per_cell<T: Copy + Send + Sync + fmt::Debug + 'static>(v: T) -> Self::PerCell<T>;
    /// Every house holding `v`.
    fn per_house<T: Copy + Send + Sync + fmt::Debug + 'static>(v: T) -> Self::PerHouse<T>;
    /// Every digit holding `v`.
    fn per_digit<T: Copy + Send + Sync + fmt::Debug + 'static>(v: T) -> Self::PerDigit<T>;
    /// The geometry of `layout` (of this size), built on first use and kept.
    fn geometry(layout: Layout) -> &'static Geometry<Self>;
}

macro_rules! shape {
    ($name:ident, $n:literal, $cells:ty, $mask:ty) => {
        #[doc = concat!("The ", stringify!($n), "x", stringify!($n), " board.")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub(crate) struct $name;

        impl Shape for $name {
            const N: usize = $n;
            type Cells = $cells;
            type Mask = $mask;
            type PerCell<T: Copy + Send + Sync + fmt::Debug + 'static> = [T; $n * $n];
            type PerHouse<T: Copy + Send + Sync + fmt::Debug + 'static> = [T; 3 * $n];
            type PerDigit<T: Copy + Send + Sync + fmt::Debug + 'static> = [T; $n];
            #[inline]
            fn per_cell<T: Copy + Send + Sync + fmt::Debug + 'static>(v: T) -> [T; $n * $n] {
                [v; $n * $n]
            }
            #[inline]
            fn per_house<T: Copy + Send + Sync + fmt::Debug + 'static>(v: T) -> [T; 3 * $n] {
                [v; 3 * $n]
            }
            #[inline]
            fn per_digit<T: Copy + Send + Sync + fmt::Debug + 'static>(v: T) -> [T; $n] {
                [v; $n]
            }
            fn geometry(layout: Layout) -> &'static Geometry<Self> {
                // One slot per box height: the few layouts of a size each built once.
                static KEPT: [OnceLock<Geometry<$name>>; $n + 1] =
                    [const { OnceLock::new() }; $n + 1];
                debug_assert_eq!(layout.n(), $n);
                KEPT[layout.box_rows()].get_or_init(|| Geometry::build(layout))
            }
        }
    };
}

shape!(S4, 4, u64, u16);
shape!(S6, 6, u64, u16);
shape!(S8, 8, u64, u16);
shape!(S9, 9, u128, u16);
shape!(S12, 12, Words<3>, u16);
shape!(S16, 16, Words<4>, u16);
shape!(S25, 25, Words<10>, u32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_boxes_are_as_square_as_the_size_allows() {
        let boxes: Vec<(usize, usize)> = SIZES
            .iter()
            .map(|&n| {
                let l = Layout::new(n).unwrap();
                (l.box_rows(), l.box_cols())
            })
            .collect();
        assert_eq!(
            boxes,
            [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)]
        );
    }

    #[test]
    fn other_boxes_must_multiply_to_the_size() {
        assert!(Layout::with_box(12, 2, 6).is_ok());
        assert!(Layout::with_box(12, 3, 3).is_err());
        assert!(Layout::with_box(9, 1, 9).is_err());
        assert!(Layout::parse_box(6, "3x2").is_ok());
        assert!(Layout::parse_box(6, "3by2").is_err());
        assert_eq!(Layout::with_box(6, 3, 2).unwrap().box_of(2, 5), 2);
        assert_eq!(Layout::with_box(6, 3, 2).unwrap().box_of(3, 0), 3);
    }
}

//! Every grid size as types: a board's [`Layout`] (4x4 to 25x25, its box shape) and the
//! [`Shape`] of each size.
//!
//! # The shape design
//!
//! A board of size `n` has `n * n` cells, `n` digits and `3n` houses; its boxes are `r x c`
//! with `r * c = n`. Two things fix the cost of every operation: how wide a cell set is (`n * n`
//! bits) and how wide a digit mask is (`n` bits). So each size is a type implementing the
//! `Shape` trait, which names the widths as associated types and the per-cell,
//! per-house and per-digit arrays as generic associated types:
//!
//! ```text
//!  shape  cells  cell set     digit mask   boxes (default, others by --box)
//!  S4       16   u64          u16          2x2
//!  S6       36   u64          u16          2x3 (3x2)
//!  S8       64   u64          u16          2x4 (4x2)
//!  S9       81   u128         u16          3x3
//!  S12     144   Words<3>     u16          3x4 (4x3, 2x6, 6x2)
//!  S16     256   Words<4>     u16          4x4 (2x8, 8x2)
//!  S25     625   Words<10>    u32          5x5
//! ```
//!
//! Code over the shapes (the grid and the techniques, the brute force, the generator) is
//! written once, generic over `S: Shape`, and monomorphised per size: no `dyn` and no run-time
//! width in an inner loop. The box shape is not part of the type: it only changes the geometry
//! tables (`Geometry<S>`: houses, peers, each cell's houses and its place in them), built once
//! per layout and kept for the life of the process. One `match` on the size at the entry
//! (`on_size!` on [`Layout::by_size`]) picks the copy; a value of whichever shape is a
//! [`BySize`]. The public
//! API stays size-free: a [`Puzzle`](crate::Puzzle) carries its layout, its alphabet and its
//! values, and callers never write generics.
//!
//! 9x9 has, besides, a tuned brute force (`brute::nine`) and canonical form, which the
//! front door uses on 9x9 (the tests check that the generic core agrees with them).

use std::fmt;
use std::sync::OnceLock;

use crate::model::ParseError;
use crate::model::{Bits, Geometry, Words};

/// A board's size and box shape: `n x n` cells, boxes of `box_rows x box_cols` (`box_rows *
/// box_cols = n`).
///
/// ```
/// use lapiz::model::Layout;
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
    /// The sizes lapiz reads: `n` for an `n x n` board.
    pub const SIZES: [u8; 7] = [4, 6, 8, 9, 12, 16, 25];

    /// Whether `len` symbols are a whole board of some size (16, 36, 64, 81, 144, 256 or 625):
    /// the length of a one-line puzzle.
    ///
    /// ```
    /// use lapiz::model::Layout;
    /// assert!(Layout::is_board_length(81) && Layout::is_board_length(256));
    /// assert!(!Layout::is_board_length(80));
    /// ```
    pub fn is_board_length(len: usize) -> bool {
        Layout::SIZES
            .iter()
            .any(|&n| usize::from(n) * usize::from(n) == len)
    }

    /// The 9x9 board.
    pub const NINE: Layout = Layout {
        n: 9,
        box_rows: 3,
        box_cols: 3,
    };

    /// The board of size `n` with its default boxes: as square as the size allows, never taller
    /// than wide (6: 2x3, 8: 2x4, 12: 3x4).
    pub fn new(n: u8) -> Result<Layout, crate::ParseError> {
        if !Layout::SIZES.contains(&n) {
            return Err(ParseError::BadSize {
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
            return Err(ParseError::BadSize {
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
        let bad = || ParseError::BadSize {
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

    /// This layout's geometry, named by its size: generic code runs on it through
    /// `on_size!`, which picks the shape.
    #[doc(hidden)]
    pub fn by_size(self) -> BySize<Geometries> {
        match self.n {
            4 => BySize::S4(S4::geometry(self)),
            6 => BySize::S6(S6::geometry(self)),
            8 => BySize::S8(S8::geometry(self)),
            9 => BySize::S9(S9::geometry(self)),
            12 => BySize::S12(S12::geometry(self)),
            16 => BySize::S16(S16::geometry(self)),
            _ => BySize::S25(S25::geometry(self)),
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

/// What the per-cell, per-house and per-digit arrays hold: plain values.
pub trait Plain: Copy + Send + Sync + fmt::Debug + 'static {}

impl<T: Copy + Send + Sync + fmt::Debug + 'static> Plain for T {}

/// One board size, as types: the widths of its sets and the lengths of its arrays (see the
/// module's table). Implemented by `S4` .. `S25`.
pub trait Shape: Copy + Eq + Default + Send + Sync + fmt::Debug + 'static {
    /// Digits, rows, columns, boxes.
    const N: usize;
    /// Cells.
    const CELLS: usize = Self::N * Self::N;
    /// A set of cells (bit `i` for cell `i`, row by row).
    type Cells: Bits;
    /// Every cell.
    const ALL_CELLS: Self::Cells;
    /// A set of houses (bit `h` for house `h`: rows, then columns, then boxes).
    type Houses: Bits;
    /// A set of digits (bit `d - 1` for digit `d`), or of places in a house.
    type Mask: Bits;
    /// One `T` per cell.
    type PerCell<T: Plain>: Plain + AsRef<[T]> + AsMut<[T]>;
    /// One `T` per house (rows, then columns, then boxes).
    type PerHouse<T: Plain>: Plain + AsRef<[T]> + AsMut<[T]>;
    /// One `T` per digit.
    type PerDigit<T: Plain>: Plain + AsRef<[T]> + AsMut<[T]>;
    /// Every cell holding `v`.
    fn per_cell<T: Plain>(v: T) -> Self::PerCell<T>;
    /// Every house holding `v`.
    fn per_house<T: Plain>(v: T) -> Self::PerHouse<T>;
    /// Every digit holding `v`.
    fn per_digit<T: Plain>(v: T) -> Self::PerDigit<T>;
    /// An empty cell set per digit (the empty candidate set, `CandSet`).
    const NO_DIGIT_CELLS: Self::PerDigit<crate::model::cellset::CellSet<Self>>;
    /// The geometry of `layout` (of this size), built on first use and kept.
    fn geometry(layout: Layout) -> &'static Geometry<Self>;
    /// `x`, this shape's member of the family `F`, named by its size.
    fn by_size<F: Family>(x: F::Of<Self>) -> BySize<F>;
    /// The cell of bit `i` of a cell set.
    #[inline]
    fn cell(i: usize) -> crate::model::cell::Cell {
        crate::model::cell::Cell::from_index_in(i, Self::N)
    }
    /// The bit of `cell` in a cell set.
    #[inline]
    fn bit_of(cell: crate::model::cell::Cell) -> usize {
        cell.index_in(Self::N)
    }
}

macro_rules! shape {
    ($name:ident, $n:literal, $cells:ty, $mask:ty, $houses:ty, $all:expr) => {
        #[doc = concat!("The ", stringify!($n), "x", stringify!($n), " board.")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name;

        impl Shape for $name {
            const N: usize = $n;
            type Cells = $cells;
            const ALL_CELLS: $cells = $all;
            type Houses = $houses;
            type Mask = $mask;
            type PerCell<T: Plain> = [T; $n * $n];
            type PerHouse<T: Plain> = [T; 3 * $n];
            type PerDigit<T: Plain> = [T; $n];
            const NO_DIGIT_CELLS: [crate::model::cellset::CellSet<$name>; $n] =
                [crate::model::cellset::CellSet::EMPTY; $n];
            #[inline]
            fn per_cell<T: Plain>(v: T) -> [T; $n * $n] {
                [v; $n * $n]
            }
            #[inline]
            fn per_house<T: Plain>(v: T) -> [T; 3 * $n] {
                [v; 3 * $n]
            }
            #[inline]
            fn per_digit<T: Plain>(v: T) -> [T; $n] {
                [v; $n]
            }
            #[inline]
            fn by_size<F: Family>(x: F::Of<Self>) -> BySize<F> {
                BySize::$name(x)
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

shape!(S4, 4, u64, u16, u32, u64::MAX >> (64 - 16));
shape!(S6, 6, u64, u16, u32, u64::MAX >> (64 - 36));
shape!(S8, 8, u64, u16, u32, u64::MAX);
shape!(S9, 9, u128, u16, u32, u128::MAX >> (128 - 81));
shape!(S12, 12, Words<3>, u16, u64, Words::lowest(144));
shape!(S16, 16, Words<4>, u16, u64, Words::lowest(256));
shape!(S25, 25, Words<10>, u32, u128, Words::lowest(625));

/// A type for each shape (a grid of that shape, a context of that shape...): what a
/// [`BySize`] holds.
pub trait Family {
    /// The type for shape `S`.
    type Of<S: Shape>;
}

/// The [`Family`] of layouts' geometries: what `Layout::by_size` gives.
#[doc(hidden)]
pub struct Geometries;

impl Family for Geometries {
    type Of<S: Shape> = &'static Geometry<S>;
}

/// A value of whichever shape, named by its size: the one place the seven shapes are listed as
/// variants. `on_size!` runs one generic expression on it; [`Shape::by_size`] makes one.
#[allow(missing_docs)]
pub enum BySize<F: Family> {
    S4(F::Of<S4>),
    S6(F::Of<S6>),
    S8(F::Of<S8>),
    S9(F::Of<S9>),
    S12(F::Of<S12>),
    S16(F::Of<S16>),
    S25(F::Of<S25>),
}

/// Runs one generic expression on whichever shape a [`BySize`] holds, with `$x` bound to it.
macro_rules! on_size {
    ($value:expr, $x:ident => $body:expr) => {
        match $value {
            $crate::model::BySize::S4($x) => $body,
            $crate::model::BySize::S6($x) => $body,
            $crate::model::BySize::S8($x) => $body,
            $crate::model::BySize::S9($x) => $body,
            $crate::model::BySize::S12($x) => $body,
            $crate::model::BySize::S16($x) => $body,
            $crate::model::BySize::S25($x) => $body,
        }
    };
}
pub(crate) use on_size;

impl<F: Family> BySize<F> {
    /// The board's size `n`.
    pub fn n(&self) -> usize {
        match self {
            BySize::S4(_) => S4::N,
            BySize::S6(_) => S6::N,
            BySize::S8(_) => S8::N,
            BySize::S9(_) => S9::N,
            BySize::S12(_) => S12::N,
            BySize::S16(_) => S16::N,
            BySize::S25(_) => S25::N,
        }
    }
}

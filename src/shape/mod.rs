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
mod canonical;
pub(crate) mod generate;
pub(crate) mod geometry;
mod rated;
pub(crate) mod symbols;
mod text;

use std::fmt;
use std::sync::OnceLock;

use crate::engine::PuzzleError;
use crate::generate::{Clues, GenerateError, GenerateOptions, Symmetry, rng_for};
use crate::parse::ParseError;
pub use bits::{Bits, Words};
use board::{Board, SingleKind};
pub use geometry::Geometry;
pub use symbols::{Alphabet, Sym, with_symbols};

/// A puzzle as read from text of any size: 9x9 for the full engine (every technique, traces,
/// rating), or another size for the size-generic core ([`Puzzle`]).
///
/// ```
/// use lapiz::shape::AnyPuzzle;
/// let nine = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// assert!(matches!(AnyPuzzle::read(nine, None, None), Ok(AnyPuzzle::Nine(_))));
/// let four = AnyPuzzle::read("3.1...2.2....4..", None, None).unwrap();
/// assert!(matches!(four, AnyPuzzle::Sized(p) if p.layout().n() == 4));
/// ```
#[derive(Clone, Debug)]
pub enum AnyPuzzle {
    /// A 9x9 puzzle (also a pencil-mark grid or a library line).
    Nine(Box<crate::Grid>),
    /// A puzzle of another size.
    Sized(Puzzle),
}

impl AnyPuzzle {
    /// The board's size `n` (9 for 9x9).
    pub fn n(&self) -> usize {
        match self {
            AnyPuzzle::Nine(_) => 9,
            AnyPuzzle::Sized(p) => p.layout().n(),
        }
    }

    /// Runs `f` with explanations writing digits in the puzzle's symbols ([`with_symbols`]);
    /// a 9x9 puzzle read by the 9x9 reader writes numbers.
    pub fn in_its_symbols<R>(&self, f: impl FnOnce() -> R) -> R {
        match self {
            AnyPuzzle::Nine(_) => f(),
            AnyPuzzle::Sized(p) => p.in_its_symbols(f),
        }
    }

    /// Reads a puzzle of any size. Without `alphabet` and `boxes`, what the 9x9 reader
    /// ([`crate::parse::parse_puzzle`]) takes is 9x9, as it always was; other texts go to the
    /// reader of every size, whose error is reported when it saw another size (or no size at
    /// all), the 9x9 reader's otherwise.
    pub fn read(
        text: &str,
        alphabet: Option<Alphabet>,
        boxes: Option<(u8, u8)>,
    ) -> Result<AnyPuzzle, ParseError> {
        let plain = alphabet.is_none() && boxes.is_none();
        let nine = if plain {
            match crate::parse::parse_puzzle(text) {
                Ok(grid) => return Ok(AnyPuzzle::Nine(Box::new(grid))),
                Err(e) => Some(e),
            }
        } else {
            None
        };
        match Puzzle::parse_with(text, alphabet, boxes) {
            Ok(p) if p.layout().n() != 9 => Ok(AnyPuzzle::Sized(p)),
            Ok(p) => match nine {
                Some(e) => Err(e),
                None => {
                    let values: [u8; 81] = p.values().try_into().expect("81 values");
                    Ok(AnyPuzzle::Nine(Box::new(crate::Grid::from_values(&values))))
                }
            },
            Err(e) => Err(match (nine, &e) {
                (Some(nine), ParseError::BadSymbol { size: 9, .. }) => nine,
                (Some(ParseError::WrongCellCount { .. }), _) | (None, _) => e,
                (Some(nine), ParseError::BadSize { .. }) => nine,
                _ => e,
            }),
        }
    }

    /// The brute-force solution count, stopping at `limit`.
    pub fn count_solutions(&self, limit: u32) -> u32 {
        match self {
            AnyPuzzle::Nine(grid) => crate::solver::count_solutions(grid.values(), limit),
            AnyPuzzle::Sized(p) => p.count_solutions(limit),
        }
    }

    /// The canonical form of the clues as a line, in the puzzle's symbols (9x9:
    /// [`crate::transform::canonical_line`]; other sizes: [`Puzzle::canonical`]).
    pub fn canonical_line(&self) -> String {
        match self {
            AnyPuzzle::Nine(grid) => crate::transform::canonical_line(&grid.given_values()),
            AnyPuzzle::Sized(p) => p.canonical().to_line(),
        }
    }
}

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
    /// The sizes lapiz reads: `n` for an `n x n` board.
    pub const SIZES: [u8; 7] = [4, 6, 8, 9, 12, 16, 25];

    /// Whether `len` symbols are a whole board of some size (16, 36, 64, 81, 144, 256 or 625):
    /// the length of a one-line puzzle.
    ///
    /// ```
    /// use lapiz::shape::Layout;
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
/// (`Layout::dispatch` picks the shape).
pub trait ShapeFn {
    /// What it returns.
    type Out;
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Self::Out;
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
    const NO_DIGIT_CELLS: Self::PerDigit<crate::cellset::CellSet<Self>>;
    /// The geometry of `layout` (of this size), built on first use and kept.
    fn geometry(layout: Layout) -> &'static Geometry<Self>;
    /// `ctx` named by its size.
    fn context<'c, 'g>(
        ctx: &'c crate::technique::Context<'g, Self>,
    ) -> crate::technique::SizedContext<'c, 'g>;
    /// `grid` named by its size.
    fn sized_grid(grid: crate::grid::Grid<Self>) -> crate::grid::SizedGrid;
    /// The cell of bit `i` of a cell set.
    #[inline]
    fn cell(i: usize) -> crate::geometry::Cell {
        crate::geometry::Cell::from_index_in(i, Self::N)
    }
    /// The bit of `cell` in a cell set.
    #[inline]
    fn bit_of(cell: crate::geometry::Cell) -> usize {
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
            const NO_DIGIT_CELLS: [crate::cellset::CellSet<$name>; $n] =
                [crate::cellset::CellSet::EMPTY; $n];
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
            fn context<'c, 'g>(
                ctx: &'c crate::technique::Context<'g, Self>,
            ) -> crate::technique::SizedContext<'c, 'g> {
                crate::technique::SizedContext::$name(ctx)
            }
            #[inline]
            fn sized_grid(grid: crate::grid::Grid<Self>) -> crate::grid::SizedGrid {
                crate::grid::SizedGrid::$name(grid.into())
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

/// A puzzle of any size (4x4 to 25x25): its layout, the alphabet it was written in, its values
/// and, when read from a pencil-mark grid, its candidates.
///
/// ```
/// use lapiz::shape::Puzzle;
/// let p = Puzzle::parse("3.1...2.2....4..").unwrap();
/// assert_eq!((p.layout().n(), p.clues()), (4, 5));
/// assert_eq!(p.count_solutions(2), 1);
/// assert_eq!(p.solution().unwrap().to_line(), "3214412323411432");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Puzzle {
    layout: Layout,
    alphabet: Alphabet,
    values: Vec<u8>,
    marks: Option<Vec<u32>>,
}

impl Puzzle {
    /// Reads a puzzle of any size in any supported form, detecting the size (from the number of
    /// cells) and the alphabet.
    pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
        Puzzle::parse_with(text, None, None)
    }

    /// [`Puzzle::parse`], with the alphabet and the box shape (rows, columns) given rather than
    /// detected.
    pub fn parse_with(
        text: &str,
        alphabet: Option<Alphabet>,
        boxes: Option<(u8, u8)>,
    ) -> Result<Puzzle, ParseError> {
        let read = text::read(text, alphabet, boxes)?;
        Ok(Puzzle {
            layout: read.layout,
            alphabet: read.alphabet,
            values: read.values,
            marks: read.marks,
        })
    }

    /// A puzzle of `values` (0 empty, else 1..=n, one per cell row by row).
    pub fn from_values(
        layout: Layout,
        alphabet: Alphabet,
        values: Vec<u8>,
    ) -> Result<Puzzle, ParseError> {
        if values.len() != layout.cells() || values.iter().any(|&v| usize::from(v) > layout.n()) {
            return Err(ParseError::BadSize {
                what: format!("{} values do not make a {layout} board", values.len()),
            });
        }
        Ok(Puzzle {
            layout,
            alphabet,
            values,
            marks: None,
        })
    }

    /// The same puzzle with other values and pencil marks (bit `d - 1` of a cell's mark for
    /// digit `d`).
    pub(crate) fn with_values_and_marks(&self, values: Vec<u8>, marks: Vec<u32>) -> Puzzle {
        Puzzle {
            values,
            marks: Some(marks),
            ..self.clone()
        }
    }

    /// The position `grid` (of this puzzle's shape) as a puzzle in this one's symbols: its
    /// values, and its candidates as pencil marks.
    pub(crate) fn with_grid<S: Shape>(&self, grid: &crate::grid::Grid<S>) -> Puzzle {
        let marks = (0..S::CELLS)
            .map(|i| {
                let m = grid.candidates(S::cell(i));
                m.ones().fold(0u32, |acc, d| acc | 1 << d)
            })
            .collect();
        self.with_values_and_marks(grid.value_slice().to_vec(), marks)
    }

    /// The puzzle as a grid of its shape (`geo` is its layout's geometry): its values given,
    /// the candidates its pencil marks leave out (when read with some) taken away.
    pub(crate) fn grid<S: Shape>(&self, geo: &'static Geometry<S>) -> crate::grid::Grid<S> {
        let mut grid = crate::grid::Grid::from_value_slice(geo, &self.values);
        if let Some(marks) = &self.marks {
            for (i, &m) in marks.iter().enumerate() {
                let cell = S::cell(i);
                for d in grid.all_digits() {
                    if m >> (d - 1) & 1 == 0 {
                        grid.eliminate(cell, d);
                    }
                }
            }
        }
        grid
    }

    /// A 9x9 grid with this puzzle's pencil marks applied (the grid unchanged without marks).
    pub(crate) fn apply_marks(&self, mut grid: crate::grid::Grid) -> crate::grid::Grid {
        if let Some(marks) = &self.marks {
            for (cell, &m) in crate::geometry::Cell::all().zip(marks) {
                for d in 1..=9u8 {
                    if m >> (d - 1) & 1 == 0 {
                        grid.eliminate(cell, d);
                    }
                }
            }
        }
        grid
    }

    /// The layout: size and boxes.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Runs `f` with explanations writing digits in the puzzle's symbols ([`with_symbols`]).
    pub fn in_its_symbols<R>(&self, f: impl FnOnce() -> R) -> R {
        with_symbols(self.alphabet(), self.layout().n(), f)
    }

    /// The alphabet it was read in (and is written in).
    pub fn alphabet(&self) -> Alphabet {
        self.alphabet
    }

    /// The values, row by row (0 empty).
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// How many cells hold a value.
    pub fn clues(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }

    /// The same values in another alphabet.
    pub fn in_alphabet(&self, alphabet: Alphabet) -> Puzzle {
        Puzzle {
            alphabet,
            ..self.clone()
        }
    }

    /// The values as one line in the puzzle's alphabet, `.` for empty cells.
    pub fn to_line(&self) -> String {
        text::line(self.alphabet, self.layout.n(), &self.values)
    }

    /// The values as a grid with box borders.
    pub fn to_grid(&self) -> String {
        let texts: Vec<String> = self
            .values
            .iter()
            .map(|&v| self.alphabet.symbol(v, self.layout.n()))
            .collect();
        text::framed(self.layout, &texts)
    }

    /// The name of a cell (0-based index): `r12c16`.
    pub fn cell_name(&self, cell: usize) -> String {
        let n = self.layout.n();
        format!("r{}c{}", cell / n + 1, cell % n + 1)
    }

    /// Counts the solutions by brute force, stopping at `limit` (at least 1).
    pub fn count_solutions(&self, limit: u32) -> u32 {
        self.layout
            .dispatch(Count {
                values: &self.values,
                limit: limit.max(1),
            })
            .solutions
    }

    /// The one solution: [`PuzzleError::NoSolution`] or [`PuzzleError::MultipleSolutions`]
    /// otherwise.
    pub fn solution(&self) -> Result<Puzzle, PuzzleError> {
        let counted = self.layout.dispatch(Count {
            values: &self.values,
            limit: 2,
        });
        match (counted.solutions, counted.first) {
            (1, Some(values)) => Ok(Puzzle {
                values,
                marks: None,
                ..self.clone()
            }),
            (0, _) => Err(PuzzleError::NoSolution),
            _ => Err(PuzzleError::MultipleSolutions),
        }
    }

    /// The pencil marks: each empty cell's candidates once the values (and, for a pencil-mark
    /// grid, its marks) are taken into account, as a grid with box borders.
    pub fn pencil_marks(&self) -> String {
        let cands = self.candidates();
        let n = self.layout.n();
        let texts: Vec<String> = (0..self.layout.cells())
            .map(|c| match self.values[c] {
                0 => {
                    let marks = (0..n)
                        .filter(|d| cands[c] >> d & 1 != 0)
                        .map(|d| self.alphabet.symbol(d as u8 + 1, n))
                        .collect::<Vec<_>>()
                        .join(if self.alphabet == Alphabet::Numbers {
                            ","
                        } else {
                            ""
                        });
                    // one candidate left, not a value: `(5)`, as 9x9 writes it
                    if cands[c].count_ones() == 1 {
                        format!("({marks})")
                    } else {
                        marks
                    }
                }
                v => self.alphabet.symbol(v, n),
            })
            .collect();
        text::framed(self.layout, &texts)
    }

    /// Each cell's candidates (bit `d - 1` for digit `d`; none for a cell with a value).
    pub(crate) fn candidates(&self) -> Vec<u32> {
        let mut cands = vec![(1u32 << self.layout.n()) - 1; self.layout.cells()];
        let n = self.layout.n();
        for (c, &v) in self.values.iter().enumerate() {
            if v == 0 {
                continue;
            }
            cands[c] = 0;
            let (r, col) = (c / n, c % n);
            let b = self.layout.box_of(r, col);
            for (o, other) in cands.iter_mut().enumerate() {
                let (r2, c2) = (o / n, o % n);
                if r2 == r || c2 == col || self.layout.box_of(r2, c2) == b {
                    *other &= !(1 << (v - 1));
                }
            }
        }
        if let Some(marks) = &self.marks {
            for (c, m) in cands.iter_mut().zip(marks) {
                *c &= m;
            }
        }
        cands
    }

    /// Solves by singles alone (full houses, hidden singles, naked singles), as far as they
    /// go: one explanation per placement, and the puzzle they leave.
    pub fn solve_by_singles(&self) -> (Vec<String>, Puzzle) {
        let (steps, values) = self.layout.dispatch(Singles { puzzle: self });
        (
            steps,
            Puzzle {
                values,
                ..self.clone()
            },
        )
    }

    /// How many lines of a puzzle file make one puzzle, judged from its first line: 1 for a
    /// puzzle on one line, `n` for the first row of an `n x n` grid spread over `n` lines
    /// (blank, comment and border lines between its rows not counted). A line of 16 cells is a
    /// 4x4 puzzle when its symbols are 1-4, else the first row of a 16x16 grid.
    ///
    /// ```
    /// use lapiz::shape::Puzzle;
    /// assert_eq!(Puzzle::lines_of(".A729.BC.....3.1"), 16);
    /// assert_eq!(Puzzle::lines_of("3.1...2.2....4.."), 1);
    /// assert_eq!(Puzzle::lines_of(" 11  .  . 16  2  4  .  .  .  1  .  3  5  . 14  ."), 16);
    /// ```
    pub fn lines_of(first: &str) -> usize {
        match text::line_kind(first) {
            text::LineKind::Whole => 1,
            text::LineKind::Row(n) => n,
        }
    }

    /// Whether `line` continues a grid of `n` cells a row (see [`Puzzle::lines_of`]): it holds
    /// `n` cells, each a symbol of that size or an empty mark.
    ///
    /// ```
    /// use lapiz::shape::Puzzle;
    /// assert!(Puzzle::is_row_of("6..B3....D..A.2.", 16));
    /// assert!(!Puzzle::is_row_of("bad500", 6));
    /// ```
    pub fn is_row_of(line: &str, n: usize) -> bool {
        text::row_width(line) == Some(n)
    }

    /// Whether every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Generates puzzle `index` for `seed` on `layout`: a random solved board, then clues taken
    /// away in `symmetry`'s groups while one solution remains, until `clues` is met (minimal by
    /// default). Returns the puzzle and its solution, written in `alphabet`. The same seed and
    /// index give the same puzzle. At most [`Puzzle::default_attempts`] solved boards are
    /// tried; [`Puzzle::generate_within`] takes another limit and says how many were.
    ///
    /// ```
    /// use lapiz::generate::{Clues, Symmetry};
    /// use lapiz::shape::{Alphabet, Layout, Puzzle};
    /// let layout = Layout::new(6).unwrap();
    /// let (p, s) = Puzzle::generate(layout, Alphabet::Standard, Symmetry::None, Clues::Minimal, 7, 0).unwrap();
    /// assert_eq!(p.count_solutions(2), 1);
    /// assert!(p.is_minimal(Symmetry::None));
    /// assert_eq!(p.solution().unwrap(), s);
    /// ```
    pub fn generate(
        layout: Layout,
        alphabet: Alphabet,
        symmetry: Symmetry,
        clues: Clues,
        seed: u64,
        index: u64,
    ) -> Result<(Puzzle, Puzzle), GenerateError> {
        let attempts = Puzzle::default_attempts(clues);
        Puzzle::generate_within(layout, alphabet, symmetry, clues, seed, index, attempts)
            .map(|made| (made.puzzle, made.solution))
    }

    /// The solved boards [`Puzzle::generate`] tries at most: a minimal puzzle needs few (a
    /// board is given up only when its uniqueness questions take too long: at 25x25 about half
    /// the seeds need a second board, a few a third), a clue count may need many.
    pub fn default_attempts(clues: Clues) -> u32 {
        match clues {
            Clues::Minimal => 100,
            _ => GenerateOptions::DEFAULT_ATTEMPTS.min(1000),
        }
    }

    /// [`Puzzle::generate`] trying at most `attempts` solved boards (at least 1): the puzzle,
    /// its solution and how many boards it took. The puzzle does not depend on the limit, as
    /// long as it is found within it.
    ///
    /// ```
    /// use lapiz::generate::{Clues, GenerateError, Symmetry};
    /// use lapiz::shape::{Alphabet, Layout, Puzzle};
    /// let layout = Layout::new(4).unwrap();
    /// let made = Puzzle::generate_within(layout, Alphabet::Standard, Symmetry::None, Clues::Minimal, 7, 0, 5).unwrap();
    /// assert_eq!(made.attempts, 1);
    /// // no 4x4 puzzle with 2 clues has one solution
    /// let none = Puzzle::generate_within(layout, Alphabet::Standard, Symmetry::None, Clues::Exactly(2), 7, 0, 3);
    /// assert!(matches!(none, Err(GenerateError::BudgetExhausted { attempts: 3, .. })));
    /// ```
    pub fn generate_within(
        layout: Layout,
        alphabet: Alphabet,
        symmetry: Symmetry,
        clues: Clues,
        seed: u64,
        index: u64,
        attempts: u32,
    ) -> Result<Generated, GenerateError> {
        check_clues(layout, clues)?;
        if attempts == 0 {
            return Err(GenerateError::no_attempts());
        }
        let mut rng = rng_for(seed, index);
        let made = layout.dispatch(Generate {
            symmetry,
            clues,
            attempts,
            rng: &mut rng,
        });
        let Some((puzzle, solution, tried)) = made else {
            return Err(GenerateError::BudgetExhausted { index, attempts });
        };
        let make = |values| Puzzle {
            layout,
            alphabet,
            values,
            marks: None,
        };
        Ok(Generated {
            puzzle: make(puzzle),
            solution: make(solution),
            attempts: tried,
            rating: None,
        })
    }

    /// Whether no clue group of `symmetry` can be taken away with one solution kept (and the
    /// puzzle has one solution).
    pub fn is_minimal(&self, symmetry: Symmetry) -> bool {
        self.count_solutions(2) == 1
            && self.layout.dispatch(Minimal {
                values: &self.values,
                symmetry,
            })
    }
}

/// Whether a `layout` board can have `clues` clues.
fn check_clues(layout: Layout, clues: Clues) -> Result<(), GenerateError> {
    match clues {
        Clues::Exactly(k) | Clues::AtMost(k) if k > layout.cells() || k == 0 => {
            Err(GenerateError::Impossible(format!(
                "{k} clues: a {layout} board has {} cells",
                layout.cells()
            )))
        }
        _ => Ok(()),
    }
}

/// What [`Puzzle::generate_within`] made.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle: one solution.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Puzzle,
    /// The solved boards tried, this puzzle's included (attempts, with a rating target).
    pub attempts: u32,
    /// Its rating, from [`Puzzle::generate_rated`].
    pub rating: Option<crate::rating::Rating>,
}

/// [`Puzzle::generate`] on the generic core.
struct Generate<'r, R: rand::Rng> {
    symmetry: Symmetry,
    clues: Clues,
    attempts: u32,
    rng: &'r mut R,
}

impl<R: rand::Rng> ShapeFn for Generate<'_, R> {
    type Out = Option<(Vec<u8>, Vec<u8>, u32)>;
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Self::Out {
        generate::generate(geo, self.symmetry, self.clues, self.attempts, self.rng)
    }
}

/// [`Puzzle::is_minimal`] on the generic core.
struct Minimal<'a> {
    values: &'a [u8],
    symmetry: Symmetry,
}

impl ShapeFn for Minimal<'_> {
    type Out = bool;
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> bool {
        generate::is_minimal(geo, self.values, self.symmetry)
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// [`Puzzle::count_solutions`] on the generic core.
struct Count<'a> {
    values: &'a [u8],
    limit: u32,
}

impl ShapeFn for Count<'_> {
    type Out = brute::Counted;
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> brute::Counted {
        brute::count(geo, self.values, self.limit)
    }
}

/// [`Puzzle::solve_by_singles`] on the generic core.
struct Singles<'a> {
    puzzle: &'a Puzzle,
}

impl ShapeFn for Singles<'_> {
    type Out = (Vec<String>, Vec<u8>);
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Self::Out {
        let p = self.puzzle;
        let mut pending = Vec::new();
        let Some(mut board) = Board::<S>::from_values(geo, &p.values, &mut pending) else {
            return (Vec::new(), p.values.clone());
        };
        if let Some(marks) = &p.marks {
            for (cell, &m) in marks.iter().enumerate() {
                for d in board.candidates(cell).ones() {
                    if m >> d & 1 == 0 && !board.eliminate(cell, d as u8 + 1, &mut pending) {
                        return (Vec::new(), p.values.clone());
                    }
                }
            }
        }
        let n = S::N;
        let house_name = |h: usize| match h / n {
            0 => format!("row {}", h % n + 1),
            1 => format!("column {}", h % n + 1),
            _ => format!("box {}", h % n + 1),
        };
        let mut steps = Vec::new();
        while let Some(single) = board.next_single() {
            let what = format!(
                "{}={}",
                p.cell_name(single.cell),
                p.alphabet.symbol(single.digit, n)
            );
            steps.push(match single.kind {
                SingleKind::FullHouse(h) => {
                    format!("Full House: {what} (last cell of {})", house_name(h))
                }
                SingleKind::Hidden(h) => format!(
                    "Hidden Single: {what} (last place for {} in {})",
                    p.alphabet.symbol(single.digit, n),
                    house_name(h)
                ),
                SingleKind::Naked => format!("Naked Single: {what} (last candidate of the cell)"),
            });
            pending.clear();
            if !board.place(single.cell, single.digit, &mut pending) {
                break;
            }
        }
        (steps, board.values().to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_first_pencil_mark_grid_reads_back() {
        let line = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";
        let p = Puzzle::parse(line)
            .unwrap()
            .in_alphabet(Alphabet::ZeroFirst);
        let text = p.pencil_marks();
        // 16 is written 0, in values and in candidates
        assert!(text.contains('0'));
        let back = Puzzle::parse_with(&text, Some(Alphabet::ZeroFirst), None).unwrap();
        assert_eq!(back.values(), p.values());
        assert_eq!(back.candidates(), p.candidates());
    }

    #[test]
    fn a_one_candidate_cell_of_another_size_reads_back_empty() {
        for alphabet in [Alphabet::Standard, Alphabet::Letters, Alphabet::Numbers] {
            let p = Puzzle::parse("3.1...2.2....4..")
                .unwrap()
                .in_alphabet(alphabet);
            let mut marks = p.candidates();
            // r1c2 keeps only its solution's digit 2, r1c4 keeps 2 and 4
            marks[1] = 1 << 1;
            let p = p.with_values_and_marks(p.values().to_vec(), marks.clone());
            let text = p.pencil_marks();
            let want = Alphabet::symbol(alphabet, 2, 4);
            assert!(text.contains(&format!("({want})")), "{alphabet}: {text}");
            let back = Puzzle::parse_with(&text, Some(alphabet), None).unwrap();
            assert_eq!(back.values(), p.values(), "{alphabet}: {text}");
            assert_eq!(back.candidates(), marks, "{alphabet}: {text}");
        }
    }

    #[test]
    fn default_boxes_are_as_square_as_the_size_allows() {
        let boxes: Vec<(usize, usize)> = Layout::SIZES
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

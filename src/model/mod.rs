//! The model, the bottom layer: board sizes as types ([`Shape`], [`Layout`]), cells and houses,
//! sets of cells and of candidates, the [`Grid`](grid::Grid) of values and pencil marks, the
//! symbols digits are written in, and the errors of reading and checking a puzzle.

pub mod bits;
pub mod candset;
pub mod cell;
pub mod cellset;
pub mod error;
pub mod geometry;
pub mod grid;
pub mod shape;
pub mod symbols;

pub use bits::{Bits, Words};
pub use error::{ParseError, PuzzleError};
pub use geometry::Geometry;
pub(crate) use shape::on_size;
pub use shape::{BySize, Family, Layout, Plain, S4, S6, S8, S9, S12, S16, S25, Shape, ShapeFn};
pub use symbols::{Alphabet, Sym, with_symbols};

//! The model, the bottom layer: board sizes as types ([`Shape`], [`Layout`]), cells and houses,
//! sets of cells and of candidates, the [`Grid`] of values and pencil marks, the symbols digits
//! are written in, and the errors of reading and checking a puzzle.

pub(crate) mod bits;
pub(crate) mod candset;
pub(crate) mod cell;
pub(crate) mod cellset;
pub(crate) mod error;
pub(crate) mod geometry;
pub(crate) mod grid;
pub mod shape;
pub(crate) mod stop;
pub(crate) mod symbols;

pub use bits::Bits;
#[doc(hidden)]
pub use bits::Words;
pub use cell::{Cell, House, HouseKind};
#[doc(hidden)]
pub use cell::{DigitMask, digit_bit, digits};
pub use cellset::CellSet;
pub use error::{NameError, ParseError, PuzzleError};
pub use geometry::Geometry;
pub use grid::{Candidate, Grid};
#[doc(hidden)]
pub use shape::Geometries;
pub(crate) use shape::on_size;
#[doc(no_inline)]
pub use shape::{BySize, Family, Layout, Plain, S4, S6, S8, S9, S12, S16, S25, Shape};
pub use stop::{Stop, StopCause};
pub use symbols::{Alphabet, Sym, with_symbols};

//! lapiz: a Sudoku engine that solves like a strong human and explains every move.
//!
//! The core is a [`Grid`] of values and pencil marks, an ordered [`Pipeline`] of
//! [`Technique`]s, and a [`Trace`] recording every [`Step`], each checked against the puzzle's
//! solution before it is applied.
//!
//! ```
//! use lapiz::{Pipeline, solve_puzzle};
//! let trace = solve_puzzle(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//!     &Pipeline::default_pipeline(),
//! );
//! assert!(trace.is_solved());
//! ```

#![warn(missing_docs)]

pub mod candset;
pub mod cellset;
pub mod chain_words;
pub mod context;
pub mod engine;
pub mod error;
pub mod generate;
pub mod geometry;
pub mod grid;
pub mod html;
pub mod net;
pub mod parse;
pub mod pipeline;
pub mod plugin;
pub mod printable;
pub mod rating;
pub mod reglib;
pub mod script;
pub mod solver;
pub mod step;
pub mod technique;
pub mod trace;
pub mod transform;

pub use candset::CandSet;
pub use cellset::CellSet;
pub use context::Context;
pub use engine::solve_puzzle;
pub use error::{ParseError, PuzzleError};
pub use geometry::{Cell, House, HouseKind};
pub use grid::{Candidate, Grid};
pub use pipeline::Pipeline;
pub use step::{Role, Step};
pub use technique::{Technique, TechniqueError};
pub use trace::Trace;

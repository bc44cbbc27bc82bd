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
//!
//! # Embedding lapiz
//!
//! A program that uses the library reads a puzzle ([`parse`]), chooses a pipeline
//! ([`pipeline`]), runs the engine ([`engine`]) and reads the trace ([`trace`]); [`rating`]
//! rates the trace. Depend on `lapiz` with `default-features = false` to leave out the command
//! line's crates (the `cli` feature).
//!
//! ```
//! use lapiz::engine::solve_grid;
//! use lapiz::parse::parse_puzzle;
//! use lapiz::rating::rate;
//! use lapiz::trace::Outcome;
//! use lapiz::Pipeline;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Parse: 81 characters, a pencil-mark grid or a HoDoKu library line. A typed error says
//! // what is wrong and where.
//! let grid = parse_puzzle(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//! )?;
//! assert!(parse_puzzle("12x").is_err());
//!
//! // The pipeline: an embedded one (`default`, `se`) or a RON file
//! // (`Pipeline::from_file`), with scripts and plugins added as `add_technique` checks them.
//! let pipeline = Pipeline::embedded("default").expect("an embedded pipeline");
//!
//! // The engine: every step found is verified against the solution, then applied.
//! let trace = solve_grid(&grid, &pipeline);
//!
//! // The trace: the steps with their explanations, the outcome, RON for storage.
//! assert!(matches!(trace.outcome, Outcome::Solved));
//! let first = trace.steps().next().expect("a step");
//! assert!(!first.explanation.is_empty());
//! assert!(trace.to_ron().contains("outcome"));
//!
//! // Rating: the hardest step, a level, a score.
//! let rating = rate(&trace, &pipeline)?;
//! assert!(rating.score > 0);
//! # Ok(())
//! # }
//! ```
//!
//! Techniques come as built-ins ([`technique::builtins`]), Rhai scripts ([`script`]) and
//! plugins over a C ABI ([`plugin`]); all of them implement [`Technique`]. [`generate`] makes
//! puzzles, [`transform`] finds canonical forms, [`reglib`] runs HoDoKu regression-library
//! cases and [`html`] draws a trace as a page.

#![deny(missing_docs)]

pub mod brute;
pub mod engine;
pub mod html;
pub mod model;
pub mod plugin;
pub mod puzzle;
pub mod script;
pub mod step;
pub mod technique;
pub mod text;
pub mod tools;

// TRANSITION: the old module paths, until every caller names the new ones.
pub use brute::nine as solver;
pub use engine::{pipeline, rating, trace};
pub use model::{cell as geometry, grid};
pub use puzzle::{canonical as transform, generate};
pub use step::net;
pub use text::{nine as parse, printable};
pub use tools::reglib;
/// TRANSITION
pub mod shape {
    pub use crate::model::{
        Alphabet, Bits, Geometry, Layout, S4, S6, S8, S9, S12, S16, S25, Shape, ShapeFn, Sym,
        Words, with_symbols,
    };
    pub use crate::puzzle::{AnyPuzzle, Generated};
    pub use crate::text::Puzzle;
}

pub use engine::solve_puzzle;
pub use geometry::{Cell, House};
pub use grid::{Candidate, Grid};
pub use model::ParseError;
pub use model::PuzzleError;
pub use pipeline::Pipeline;
pub use step::{Role, Step};
pub use technique::Context;
pub use technique::{Technique, TechniqueError};
pub use trace::Trace;

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
//! A program that uses the library reads a [`Puzzle`] of any size (`Puzzle::read`: every
//! format of every size), chooses a [`Pipeline`], solves the puzzle into a [`Trace`] and rates
//! the trace ([`engine::rate`]). Depend on `lapiz` with `default-features = false` to leave out
//! the command line's crates (the `cli` feature), and name the features wanted of the others:
//! `plugins` (plugin libraries) and `files` (pipelines and scripts read from files). Without
//! them the library builds for WebAssembly (`wasm32-unknown-unknown`; docs/wasm.md).
//!
//! ```
//! use lapiz::engine::{Outcome, rate};
//! use lapiz::{Pipeline, Puzzle};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Read: a line of any size, a pencil-mark grid or a HoDoKu library line. A typed error
//! // says what is wrong and where.
//! let puzzle = Puzzle::read(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//!     None,
//!     None,
//! )?;
//! assert!(Puzzle::read("12x", None, None).is_err());
//!
//! // The pipeline: an embedded one (`default`, `se`) or a RON file
//! // (`Pipeline::from_file`), with scripts and plugins added as `add_technique` checks them.
//! let pipeline = Pipeline::embedded("default").expect("an embedded pipeline");
//!
//! // The engine: every step found is verified against the solution, then applied.
//! let trace = puzzle.solve(&pipeline);
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
//! The public API is one module per layer, lowest first: [`model`] (sizes, cells, sets, the
//! grid, errors), [`text`] (formats), [`step`], [`technique`] (built-ins; every technique
//! implements [`Technique`]), [`script`] (Rhai scripts) and [`plugin`] (libraries over a C
//! ABI), [`engine`] (pipeline, solve loop, trace, rating), [`puzzle`] (the front door's
//! solving, generation and canonical form) and [`html`] (a trace as a page). The `brute` and
//! `tools` layers, and the few items hidden from these docs, serve lapiz's own command line,
//! Python package and tests: they are not part of the API.

#![deny(missing_docs)]

#[doc(hidden)]
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
#[doc(hidden)]
pub mod tools;

pub use engine::{Pipeline, Trace};
pub use model::{Candidate, Cell, Grid, House, ParseError, PuzzleError};
pub use puzzle::solve_puzzle;
pub use step::{Role, Step};
pub use technique::{Context, Technique, TechniqueError};
pub use text::Puzzle;

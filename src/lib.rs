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
//! use lapiz::text::parse_puzzle;
//! use lapiz::engine::rate;
//! use lapiz::engine::Outcome;
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

pub use engine::{Pipeline, Trace, solve_puzzle};
pub use model::{Candidate, Cell, Grid, House, ParseError, PuzzleError};
pub use step::{Role, Step};
pub use technique::{Context, Technique, TechniqueError};
pub use text::Puzzle;

//! The plugin API of lapiz: the versioned C ABI ([`abi`]) through which lapiz loads technique
//! libraries at run time, and a safe Rust layer over it.
//!
//! A Rust plugin implements [`PluginTechnique`] for each technique and exports them with one
//! line; the macro builds the descriptor table, and catches panics so that none crosses the
//! boundary:
//!
//! ```
//! use lapiz_plugin_api::{Error, Grid, Output, PluginTechnique, Step};
//!
//! /// Places the last candidate of any cell that has one (a naked single).
//! struct LastCandidate;
//!
//! impl PluginTechnique for LastCandidate {
//!     fn id(&self) -> &str { "last-candidate" }
//!     fn name(&self) -> &str { "Last Candidate" }
//!     fn difficulty(&self) -> f32 { 2.3 }
//!     fn find(&self, grid: &Grid, out: &mut Output<'_>) -> Result<(), Error> {
//!         for cell in grid.empty_cells() {
//!             let mask = grid.candidates(cell);
//!             if mask.count_ones() == 1 {
//!                 let d = mask.trailing_zeros() as u8 + 1;
//!                 let text = format!("Last Candidate: {} => {}={d}", cell_name(cell), cell_name(cell));
//!                 out.emit(&Step::new(text).place(cell, d))?;
//!             }
//!         }
//!         Ok(())
//!     }
//! }
//! # use lapiz_plugin_api::cell_name;
//!
//! lapiz_plugin_api::export_plugin!("last-candidate-example", [LastCandidate]);
//! ```
//!
//! A technique that runs on every size (ABI version 3) answers [`PluginTechnique::runs_on`] and
//! searches a [`Board`], which carries its size, box shape and geometry:
//!
//! ```
//! use lapiz_plugin_api::{Board, Error, Output, PluginTechnique, Step};
//!
//! /// A naked single on boards of every size.
//! struct LastCandidateAnySize;
//!
//! impl PluginTechnique for LastCandidateAnySize {
//!     fn id(&self) -> &str { "last-candidate-any-size" }
//!     fn name(&self) -> &str { "Last Candidate" }
//!     fn difficulty(&self) -> f32 { 2.3 }
//!     fn runs_on(&self, _n: usize) -> bool { true }
//!     fn find_sized(&self, board: &Board, out: &mut Output<'_>) -> Result<(), Error> {
//!         for cell in board.empty_cells() {
//!             let mask = board.candidates(cell);
//!             if mask.count_ones() == 1 {
//!                 let d = mask.trailing_zeros() as u8 + 1;
//!                 let text = format!("Last Candidate: {}={d}", board.cell_name(cell));
//!                 out.emit(&Step::new(text).place(cell, d))?;
//!             }
//!         }
//!         Ok(())
//!     }
//! }
//! ```
//!
//! Build the crate as a `cdylib` (and never with `panic = "abort"`, which would turn a caught
//! panic into an abort of the host).

#![warn(missing_docs)]

pub mod abi;
mod export;
mod grid;

pub use export::{Error, Output, PluginTechnique, Role, Step};
pub use grid::{BOXES, Board, COLS, Grid, HOUSES, ROWS, cell_name, houses_of, sees};

#[doc(hidden)]
pub use export::{__describe, Table as __Table};

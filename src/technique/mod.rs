//! The [`Technique`] trait and the built-in techniques, one file per family.
//!
//! A built-in is found by id ([`builtin`]) and searched on its own with [`find_first`] or
//! [`find_all`]:
//!
//! ```
//! use lapiz::engine::check_puzzle;
//! use lapiz::parse::parse_puzzle;
//! use lapiz::technique::{builtin, find_all, find_first};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let grid = parse_puzzle(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//! )?;
//! let solution = check_puzzle(&grid)?;
//!
//! let hidden_single = builtin("hidden-single").expect("a built-in");
//! assert_eq!((hidden_single.name(), hidden_single.difficulty()), ("Hidden Single", 1.2));
//! let step = find_first(hidden_single.as_ref(), &grid)?.expect("a hidden single");
//! // One placement, the solution's digit, and an explanation naming it.
//! let [placed] = step.placements[..] else { panic!("one placement") };
//! assert_eq!(solution[placed.cell.index()], placed.digit);
//! assert!(step.explanation.contains(&placed.cell.to_string()));
//!
//! // Every step found, none of them against the solution.
//! let steps = find_all(hidden_single.as_ref(), &grid)?;
//! assert!(steps.len() > 1 && steps[0] == step);
//! assert!(steps.iter().all(|s| s.contradiction(&solution).is_none()));
//!
//! // A naked pair on the same grid: it removes candidates and places nothing.
//! let naked_pair = builtin("naked-pair").expect("a built-in");
//! let pair = find_first(naked_pair.as_ref(), &grid)?.expect("a naked pair");
//! assert!(pair.placements.is_empty() && !pair.eliminations.is_empty());
//! assert!(pair.explanation.starts_with("Naked Pair"));
//! assert!(pair.contradiction(&solution).is_none());
//! # Ok(())
//! # }
//! ```

use std::fmt;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::cellset::CellSet;
use crate::context::Context;
use crate::grid::{Candidate, Grid};
use crate::step::Step;

pub use catalogue::{CATALOGUE, TechniqueInfo};

pub mod aligned;
pub mod als;
pub mod catalogue;
pub mod chains;
pub mod coloring;
pub mod direct;
pub mod fish;
pub mod forcing;
pub mod guess;
pub mod intersections;
pub mod medusa;
pub mod se_chaining;
pub mod single_digit;
pub mod singles;
pub mod subsets;
pub mod sue_de_coq;
pub mod templates;
pub mod uniqueness;
pub mod wings;

/// Where a technique comes from.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Origin {
    /// Compiled into lapiz.
    BuiltIn,
    /// A Rhai script (path).
    Script(String),
    /// A plugin library (path).
    Plugin(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::BuiltIn => f.write_str("built-in"),
            Origin::Script(p) => write!(f, "script {p}"),
            Origin::Plugin(p) => write!(f, "plugin {p}"),
        }
    }
}

/// A technique failed to run (as opposed to finding nothing).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TechniqueError {
    /// The search failed; the message says where and why.
    #[error("technique {technique} failed: {message}")]
    Failed {
        /// Technique id.
        technique: String,
        /// What went wrong.
        message: String,
    },
}

/// Receives the steps a technique finds; return [`ControlFlow::Break`] to stop the search.
pub type StepSink<'a> = dyn FnMut(Step) -> ControlFlow<()> + 'a;

/// A solving technique: a named, rated search for steps on a grid.
///
/// A built-in answers [`Technique::info`] with its entry in the [`CATALOGUE`], and the
/// metadata methods read from it. A technique from elsewhere (a script, a plugin, another
/// crate) has no entry: it must implement `id`, `name` and `difficulty` itself (the defaults
/// panic without an entry), and `library_codes` and `needs_uniqueness` when they are not empty
/// and `false`.
pub trait Technique: Send + Sync {
    /// The built-in's entry in the [`CATALOGUE`]; `None` (the default) for other techniques.
    fn info(&self) -> Option<&'static TechniqueInfo> {
        None
    }
    /// Stable id, e.g. `naked-pair`.
    fn id(&self) -> &str {
        catalogued(self.info(), "id").id
    }
    /// Display name, e.g. `Naked Pair`.
    fn name(&self) -> &str {
        catalogued(self.info(), "name").name
    }
    /// Difficulty on Sudoku Explainer's scale (the lowest its steps get).
    fn difficulty(&self) -> f32 {
        catalogued(self.info(), "difficulty").difficulty
    }
    /// Where it comes from.
    fn origin(&self) -> Origin {
        Origin::BuiltIn
    }
    /// Whether the technique is only sound on puzzles with a unique solution.
    fn needs_uniqueness(&self) -> bool {
        self.info().is_some_and(|i| i.needs_uniqueness)
    }
    /// The HoDoKu library codes this technique answers (e.g. `0200` for naked pair), so the
    /// regression-library runner knows which cases to give it.
    fn library_codes(&self) -> Vec<String> {
        self.info()
            .map_or_else(Vec::new, TechniqueInfo::library_codes)
    }
    /// Searches `grid`, handing every step found to `sink` until it breaks.
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError>;
    /// Like [`Technique::find`], with the position's shared [`Context`] (the engine makes one
    /// per position and hands it to every technique it searches there). The default searches
    /// the context's grid; built-ins that use the context's structures override it.
    fn find_in(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        self.find(ctx.grid(), sink)
    }
}

/// The catalogue entry a default metadata method reads; a technique without one must
/// implement `method` itself.
fn catalogued(info: Option<&'static TechniqueInfo>, method: &str) -> &'static TechniqueInfo {
    match info {
        Some(info) => info,
        None => panic!("a technique without a catalogue entry must implement Technique::{method}"),
    }
}

/// Every step `technique` finds on `grid`.
pub fn find_all(technique: &dyn Technique, grid: &Grid) -> Result<Vec<Step>, TechniqueError> {
    let mut steps = Vec::new();
    technique.find(grid, &mut |s| {
        steps.push(s);
        ControlFlow::Continue(())
    })?;
    Ok(steps)
}

/// The first step `technique` finds on `grid`.
pub fn find_first(technique: &dyn Technique, grid: &Grid) -> Result<Option<Step>, TechniqueError> {
    let mut first = None;
    technique.find(grid, &mut |s| {
        first = Some(s);
        ControlFlow::Break(())
    })?;
    Ok(first)
}

/// The eliminations of `digit` from `targets` (the cells of `targets` holding it), sorted.
pub(crate) fn eliminations_of(grid: &Grid, digit: u8, targets: CellSet) -> Vec<Candidate> {
    (grid.digit_cells(digit) & targets)
        .iter()
        .map(|c| Candidate::new(c, digit))
        .collect()
}

/// Runs a built-in finder's search and ends [`Technique::find`] with it. Every finder is
/// written the same way: the search hands each step to the sink with `sink(step)?` (or as its
/// last expression `sink(step)`, in a closure), so it returns [`ControlFlow::Break`] as soon
/// as the sink does; stopping early is a success, not an error.
pub(crate) fn stoppable(run: impl FnOnce() -> ControlFlow<()>) -> Result<(), TechniqueError> {
    let _ = run();
    Ok(())
}

/// All built-in techniques: the basic ones in the default pipeline's order, then each
/// family's, and last the guess (a trial placement, not a deduction).
pub fn builtins() -> Vec<Box<dyn Technique>> {
    let mut all = basics();
    all.extend(direct::techniques());
    all.extend(fish::techniques());
    all.extend(single_digit::techniques());
    all.extend(coloring::techniques());
    all.extend(medusa::techniques());
    all.extend(chains::techniques());
    all.extend(se_chaining::techniques());
    all.extend(wings::techniques());
    all.extend(uniqueness::techniques());
    all.extend(sue_de_coq::techniques());
    all.extend(templates::techniques());
    all.extend(als::techniques());
    all.extend(aligned::techniques());
    all.extend(forcing::techniques());
    all.extend(forcing::kraken::techniques());
    all.extend(guess::techniques());
    all
}

/// Singles, intersections and subsets.
fn basics() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(singles::FullHouse),
        Box::new(singles::HiddenSingle),
        Box::new(singles::NakedSingle),
        Box::new(intersections::LockedCandidates::POINTING),
        Box::new(intersections::LockedCandidates::CLAIMING),
        Box::new(intersections::LockedSet::PAIR),
        Box::new(subsets::NakedSubset::PAIR),
        Box::new(intersections::LockedSet::TRIPLE),
        Box::new(subsets::HiddenSubset::PAIR),
        Box::new(subsets::NakedSubset::TRIPLE),
        Box::new(subsets::HiddenSubset::TRIPLE),
        Box::new(subsets::NakedSubset::QUAD),
        Box::new(subsets::HiddenSubset::QUAD),
    ]
}

/// The built-in technique with this id.
pub fn builtin(id: &str) -> Option<Box<dyn Technique>> {
    builtins().into_iter().find(|t| t.id() == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_puzzle;

    /// Every built-in stops at the first step when the sink says so, and that step is the first
    /// of all it finds.
    #[test]
    fn every_builtin_stops_when_the_sink_breaks() {
        let grid = parse_puzzle(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .unwrap();
        let mut found_some = 0;
        for t in builtins() {
            let all = find_all(t.as_ref(), &grid).unwrap();
            let mut got = Vec::new();
            t.find(&grid, &mut |s| {
                got.push(s);
                ControlFlow::Break(())
            })
            .unwrap();
            assert_eq!(got.len(), all.len().min(1), "{}", t.id());
            assert_eq!(got.first(), all.first(), "{}", t.id());
            found_some += usize::from(!all.is_empty());
        }
        assert!(found_some > 10, "only {found_some} techniques found a step");
    }
}

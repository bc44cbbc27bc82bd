//! The [`Technique`] trait and the built-in techniques, one file per family.
//!
//! A built-in is found by id ([`builtin`]) and searched on its own with [`find_first`] or
//! [`find_all`]:
//!
//! ```
//! use lapiz::engine::check_puzzle;
//! use lapiz::text::parse_puzzle;
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

use crate::model::Shape;
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::step::Step;
pub use context::{Context, SizedContext};

pub use catalogue::{CATALOGUE, TechniqueInfo};

pub(crate) mod aligned;
pub(crate) mod als;
pub mod catalogue;
pub(crate) mod chains;
pub(crate) mod coloring;
pub(crate) mod context;
pub(crate) mod direct;
pub(crate) mod fish;
pub(crate) mod forcing;
pub(crate) mod guess;
pub(crate) mod intersections;
pub(crate) mod medusa;
pub(crate) mod memo;
pub(crate) mod se_chaining;
pub(crate) mod single_digit;
pub(crate) mod singles;
pub(crate) mod subsets;
pub(crate) mod sue_de_coq;
pub(crate) mod templates;
pub(crate) mod uniqueness;
pub(crate) mod wings;

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
#[non_exhaustive]
pub enum TechniqueError {
    /// The search failed; the message says where and why.
    #[error("technique {technique} failed: {message}")]
    Failed {
        /// Technique id.
        technique: String,
        /// What went wrong.
        message: String,
    },
    /// It was asked to search a board size it does not run on.
    #[error("technique {technique} failed: {message}")]
    WrongSize {
        /// Technique id.
        technique: String,
        /// The board's size `n`.
        n: usize,
        /// The sizes it runs on, in words, and where it says so.
        message: String,
    },
    /// A script's evaluation failed (a syntax or run-time error, a limit reached).
    #[error("technique {technique} failed: {message}")]
    Script {
        /// Technique id.
        technique: String,
        /// The script's error, with its file and position.
        message: String,
    },
    /// A plugin's search failed: it returned an error, crashed, broke the protocol or
    /// handed back a malformed step.
    #[error("technique {technique} failed: {message}")]
    Plugin {
        /// Technique id.
        technique: String,
        /// What went wrong, naming the plugin.
        message: String,
    },
    /// A plugin's search ran past its time limit and was stopped.
    #[error("technique {technique} failed: {message}")]
    TimedOut {
        /// Technique id.
        technique: String,
        /// The limit and the plugin.
        message: String,
    },
}

impl TechniqueError {
    /// The id of the technique that failed.
    pub fn technique(&self) -> &str {
        match self {
            TechniqueError::Failed { technique, .. }
            | TechniqueError::WrongSize { technique, .. }
            | TechniqueError::Script { technique, .. }
            | TechniqueError::Plugin { technique, .. }
            | TechniqueError::TimedOut { technique, .. } => technique,
        }
    }

    /// What went wrong, without the technique's id.
    pub fn message(&self) -> &str {
        match self {
            TechniqueError::Failed { message, .. }
            | TechniqueError::WrongSize { message, .. }
            | TechniqueError::Script { message, .. }
            | TechniqueError::Plugin { message, .. }
            | TechniqueError::TimedOut { message, .. } => message,
        }
    }
}

/// Receives the steps a technique finds; return [`ControlFlow::Break`] to stop the search.
pub type StepSink<'a> = dyn FnMut(Step) -> ControlFlow<()> + 'a;

/// Whether `d` is a difficulty lapiz accepts from a script or plugin: finite, above 0, at most
/// 20 (NaN, infinities and negatives would poison ratings).
#[doc(hidden)]
pub fn valid_difficulty(d: f32) -> bool {
    d.is_finite() && d > 0.0 && d <= 20.0
}

/// A solving technique: a named, rated search for steps on a grid.
///
/// Scripts, plugins and techniques from other crates implement it directly. A built-in
/// implements the crate's `Builtin` instead (its entry in the [`CATALOGUE`] and one search over
/// a [`Context`]), and reads its id, name, difficulty, codes and uniqueness from that entry.
pub trait Technique: Send + Sync {
    /// Stable id, e.g. `naked-pair`.
    fn id(&self) -> &str;
    /// Display name, e.g. `Naked Pair`.
    fn name(&self) -> &str;
    /// Difficulty on Sudoku Explainer's scale (the lowest its steps get).
    fn difficulty(&self) -> f32;
    /// Searches `grid`, handing every step found to `sink` until it breaks.
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError>;
    /// The built-in's entry in the [`CATALOGUE`]; `None` (the default) for other techniques.
    fn info(&self) -> Option<&'static TechniqueInfo> {
        None
    }
    /// Where it comes from.
    fn origin(&self) -> Origin {
        Origin::BuiltIn
    }
    /// Whether the technique is only sound on puzzles with a unique solution.
    fn needs_uniqueness(&self) -> bool {
        false
    }
    /// The HoDoKu library codes this technique answers (e.g. `0200` for naked pair), so the
    /// regression-library runner knows which cases to give it.
    fn library_codes(&self) -> Vec<String> {
        Vec::new()
    }
    /// Like [`Technique::find`], with the position's shared [`Context`] (the engine makes one
    /// per position and hands it to every technique it searches there). The default searches
    /// the context's grid.
    fn find_in(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        self.find(ctx.grid(), sink)
    }
    /// Whether the technique runs on boards of size `n` (the default: 9x9 only).
    fn runs_on(&self, n: usize) -> bool {
        n == 9
    }
    /// Like [`Technique::find_in`] on a position of any size. The default searches 9x9
    /// positions with `find_in` and fails on other sizes (see [`Technique::runs_on`]).
    fn find_sized(
        &self,
        ctx: SizedContext<'_>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        match ctx {
            SizedContext::S9(ctx) => self.find_in(ctx, sink),
            other => Err(not_on_this_size(self.id(), other.n())),
        }
    }
}

/// The error of a technique asked to search a size it does not run on.
fn not_on_this_size(technique: &str, n: usize) -> TechniqueError {
    TechniqueError::WrongSize {
        technique: technique.to_string(),
        n,
        message: format!("runs on 9x9 boards only, not {n}x{n}"),
    }
}

/// A built-in technique: its [`CATALOGUE`] entry and its search. Every built-in is a
/// [`Technique`] through this trait, its metadata read from the entry. A built-in of every
/// size implements [`SizedBuiltin`] instead, and is a `Builtin` through it.
pub(crate) trait Builtin: Send + Sync {
    /// The entry (looked up by id at compile time with [`catalogue::entry`]).
    fn info(&self) -> &'static TechniqueInfo;
    /// Searches the position, handing every step found to `sink` until it breaks.
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError>;
    /// Whether it runs on boards of size `n` (the default: 9x9 only).
    fn runs_on(&self, n: usize) -> bool {
        n == 9
    }
    /// Searches a position of any size (the default: 9x9 only).
    fn search_sized(
        &self,
        ctx: SizedContext<'_>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        match ctx {
            SizedContext::S9(ctx) => self.search(ctx, sink),
            other => Err(not_on_this_size(self.info().id, other.n())),
        }
    }
}

/// A built-in written once for every size: one generic search, compiled per shape.
pub(crate) trait SizedBuiltin: Send + Sync {
    /// The entry (looked up by id at compile time with [`catalogue::entry`]).
    fn info(&self) -> &'static TechniqueInfo;
    /// Whether it runs on boards of size `n` (the default: every size).
    fn runs_on(&self, _n: usize) -> bool {
        true
    }
    /// Searches a position of shape `S`, handing every step found to `sink` until it breaks.
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError>;
}

impl<T: SizedBuiltin> Builtin for T {
    fn info(&self) -> &'static TechniqueInfo {
        SizedBuiltin::info(self)
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        // a technique that does not run on 9x9 finds nothing there, whoever asks
        if !SizedBuiltin::runs_on(self, 9) {
            return Ok(());
        }
        SizedBuiltin::search(self, ctx, sink)
    }
    fn runs_on(&self, n: usize) -> bool {
        SizedBuiltin::runs_on(self, n)
    }
    fn search_sized(
        &self,
        ctx: SizedContext<'_>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        if !SizedBuiltin::runs_on(self, ctx.n()) {
            return Err(not_on_this_size(SizedBuiltin::info(self).id, ctx.n()));
        }
        crate::model::on_size!(ctx, c => SizedBuiltin::search(self, c, sink))
    }
}

impl<T: Builtin> Technique for T {
    fn id(&self) -> &str {
        Builtin::info(self).id
    }
    fn name(&self) -> &str {
        Builtin::info(self).name
    }
    fn difficulty(&self) -> f32 {
        Builtin::info(self).difficulty
    }
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        self.search(&Context::new(grid), sink)
    }
    fn info(&self) -> Option<&'static TechniqueInfo> {
        Some(Builtin::info(self))
    }
    fn needs_uniqueness(&self) -> bool {
        Builtin::info(self).needs_uniqueness
    }
    fn library_codes(&self) -> Vec<String> {
        Builtin::info(self).library_codes()
    }
    fn find_in(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        self.search(ctx, sink)
    }
    fn runs_on(&self, n: usize) -> bool {
        Builtin::runs_on(self, n)
    }
    fn find_sized(
        &self,
        ctx: SizedContext<'_>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        self.search_sized(ctx, sink)
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

/// Every step `technique` finds on a grid of any size ([`Technique::find_sized`]; an error from
/// a technique that does not run on the grid's size).
pub fn find_all_sized<S: Shape>(
    technique: &dyn Technique,
    grid: &Grid<S>,
) -> Result<Vec<Step>, TechniqueError> {
    let ctx = Context::new(grid);
    let mut steps = Vec::new();
    technique.find_sized(ctx.sized(), &mut |s| {
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
pub(crate) fn eliminations_of<S: Shape>(
    grid: &Grid<S>,
    digit: u8,
    targets: CellSet<S>,
) -> Vec<Candidate> {
    (grid.digit_cells(digit) & targets)
        .iter()
        .map(|c| Candidate::new(c, digit))
        .collect()
}

/// A difficulty to the nearest tenth, as ratings are given (sums of tenths in `f32` drift:
/// `7.0 + 0.1 + 0.1 + 0.1` is `7.2999997`).
pub(crate) fn round_tenth(difficulty: f32) -> f32 {
    (difficulty * 10.0).round() / 10.0
}

/// Runs a built-in finder's search and ends [`Technique::find`] with it. Every finder is
/// written the same way: the search hands each step to the sink with `sink(step)?` (or as its
/// last expression `sink(step)`, in a closure), so it returns [`ControlFlow::Break`] as soon
/// as the sink does; stopping early is a success, not an error.
pub(crate) fn stoppable(run: impl FnOnce() -> ControlFlow<()>) -> Result<(), TechniqueError> {
    let _ = run();
    Ok(())
}

/// A family's constructor: its techniques, easiest first.
type Techniques = fn() -> Vec<Box<dyn Technique>>;

/// The built-in families, each named after its finder's file, in [`builtins`] order: the
/// basic ones (singles, intersections, subsets) in the default pipeline's order, then each
/// family's, and last the guess (a trial placement, not a deduction).
const FAMILIES: &[(&str, Techniques)] = &[
    ("basics", basics),
    ("direct", direct::techniques),
    ("fish", fish::techniques),
    ("single-digit", single_digit::techniques),
    ("coloring", coloring::techniques),
    ("medusa", medusa::techniques),
    ("chains", chains::techniques),
    ("se-chaining", se_chaining::techniques),
    ("wings", wings::techniques),
    ("uniqueness", uniqueness::techniques),
    ("sue-de-coq", sue_de_coq::techniques),
    ("templates", templates::techniques),
    ("als", als::techniques),
    ("aligned", aligned::techniques),
    ("forcing", forcing::techniques),
    ("kraken", forcing::kraken::techniques),
    ("guess", guess::techniques),
];

/// All built-in techniques, family by family, in the [`CATALOGUE`]'s order.
pub fn builtins() -> Vec<Box<dyn Technique>> {
    FAMILIES
        .iter()
        .flat_map(|(_, techniques)| techniques())
        .collect()
}

/// The built-in techniques of one family, easiest first; `None` for an unknown name. The
/// families are named after their finders' files: `basics` (singles, intersections,
/// subsets), `direct`, `fish`, `single-digit`, `coloring`, `medusa`, `chains`, `se-chaining`,
/// `wings`, `uniqueness`, `sue-de-coq`, `templates`, `als`, `aligned`, `forcing`, `kraken`
/// and `guess`.
///
/// ```
/// let fish = lapiz::technique::family("fish").expect("a family");
/// assert_eq!(fish[0].id(), "x-wing");
/// assert!(lapiz::technique::family("fishes").is_none());
/// ```
pub fn family(name: &str) -> Option<Vec<Box<dyn Technique>>> {
    FAMILIES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, techniques)| techniques())
}

/// Singles, intersections and subsets.
fn basics() -> Vec<Box<dyn Technique>> {
    let mut all: Vec<Box<dyn Technique>> = vec![
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
    ];
    for (naked, hidden) in subsets::NakedSubset::LARGER
        .into_iter()
        .zip(subsets::HiddenSubset::LARGER)
    {
        all.push(Box::new(naked));
        all.push(Box::new(hidden));
    }
    all
}

/// The built-in technique with this id.
pub fn builtin(id: &str) -> Option<Box<dyn Technique>> {
    builtins().into_iter().find(|t| t.id() == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::nine::parse_puzzle;

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

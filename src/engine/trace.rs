//! [`Trace`]: the annotated record of a solve, in RON and as text for people.
//!
//! ```
//! use lapiz::engine::{Outcome, Trace};
//! use lapiz::{Pipeline, solve_puzzle};
//!
//! let trace = solve_puzzle(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//!     &Pipeline::default_pipeline(),
//! );
//! // The summary: steps applied, per technique, and the hardest.
//! let summary = &trace.summary;
//! let per_technique: usize = summary.techniques.iter().map(|t| t.count).sum();
//! assert_eq!(per_technique, summary.steps);
//! let hardest = summary.hardest.as_ref().expect("a hardest step");
//! assert!(trace.steps().all(|s| s.difficulty <= hardest.difficulty));
//!
//! // RON for storage, read back unchanged.
//! let ron = trace.to_ron();
//! assert!(ron.contains("outcome: Solved"));
//! assert_eq!(Trace::from_ron(&ron).expect("a trace"), trace);
//!
//! // Text for people: one numbered line per step, then the summary.
//! let text = trace.to_text(None);
//! assert!(text.contains(&trace.steps().next().expect("a step").explanation));
//! assert_eq!(trace.outcome, Outcome::Solved);
//! ```

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::engine::pipeline::Pipeline;
use crate::model::grid::{Candidate, Grid};
use crate::step::Step;
use crate::text::Puzzle;
use crate::text::nine::{format_pencil_marks, format_pencil_marks_marked, has_one_candidate_cell};
use crate::text::printable::printable;

/// Why a step was not applied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Rejection {
    /// The step removes a candidate of the solution or places a wrong digit.
    Unsound {
        /// The offending candidate (the solution's digit removed, or the wrong digit placed).
        candidate: Candidate,
    },
    /// The step changes nothing on the grid.
    NoChange,
    /// The step is malformed (e.g. it places a digit in a filled cell).
    Malformed {
        /// What is wrong.
        message: String,
    },
}

impl std::fmt::Display for Rejection {
    /// Why, in words: `unsound, contradicts the solution at 5r3c3`, `changes nothing`, or the
    /// malformed step's message (escaped).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejection::Unsound { candidate } => {
                write!(f, "unsound, contradicts the solution at {candidate}")
            }
            Rejection::NoChange => f.write_str("changes nothing"),
            Rejection::Malformed { message } => f.write_str(&printable(message)),
        }
    }
}

/// One entry of a trace, in solve order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Entry {
    /// A step that was verified and applied.
    Step(Step),
    /// A step that was rejected; its technique is skipped for the rest of the solve.
    Rejected {
        /// The step as the technique produced it.
        step: Step,
        /// Why it was rejected.
        reason: Rejection,
    },
    /// A technique that failed to run and is skipped for the rest of the solve.
    Failed {
        /// Technique id.
        technique: String,
        /// The error.
        error: String,
    },
}

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// Every cell has its value.
    Solved,
    /// No technique finds anything more; the remaining pencil marks, one row per line.
    Stuck {
        /// The pencil-mark grid.
        pencil_marks: Vec<String>,
    },
    /// The step limit was reached.
    StepLimit {
        /// The limit.
        limit: usize,
    },
    /// The solve was stopped before its end ([`Stop`](crate::model::Stop)): the steps
    /// before are kept.
    Stopped {
        /// Why: its time limit, or it was cancelled.
        cause: crate::model::StopCause,
        /// The pencil-mark grid where it stopped, one row per line.
        pencil_marks: Vec<String>,
    },
    /// The input is not a proper puzzle.
    Invalid {
        /// Why.
        reason: String,
    },
}

/// Why the uniqueness techniques were not run in a solve: the givens alone (not counting placed
/// digits) do not have exactly one solution, so uniqueness arguments do not hold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UniquenessSkipped {
    /// Solutions of the givens alone, counted up to a cap.
    pub givens_solutions: u32,
    /// Whether counting stopped at the cap (there may be more).
    pub at_least: bool,
    /// The ids of the techniques skipped.
    pub techniques: Vec<String>,
}

/// When the text trace prints the pencil-mark grid (besides the start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GridDisplay {
    /// Only where the solve stops without solving (the default).
    #[default]
    Stuck,
    /// After every step, and where it stops.
    Every,
}

/// What the text trace writes under a grid that has one-candidate cells.
const ONE_CANDIDATE_NOTE: &str = "(d): the one candidate left in an empty cell, not yet placed";

/// Writes a grid in the marked layout, with the note when it has one-candidate cells.
fn write_grid(out: &mut String, grid: &Grid) {
    out.push_str(&format_pencil_marks_marked(grid));
    if has_one_candidate_cell(grid) {
        let _ = writeln!(out, "{ONE_CANDIDATE_NOTE}");
    }
}

/// How often a technique was applied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TechniqueCount {
    /// Technique id.
    pub technique: String,
    /// Applied steps.
    pub count: usize,
}

/// The hardest step of a solve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hardest {
    /// Technique id.
    pub technique: String,
    /// Its difficulty.
    pub difficulty: f32,
}

/// Figures about a solve.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Summary {
    /// Steps applied.
    pub steps: usize,
    /// Steps rejected by verification.
    pub rejected: usize,
    /// Applied steps per technique, in pipeline order.
    pub techniques: Vec<TechniqueCount>,
    /// The hardest applied step.
    pub hardest: Option<Hardest>,
    /// Whether a technique that assumes a unique solution (a uniqueness technique) was applied.
    /// The engine only runs them when it has proved that the givens alone have exactly one
    /// solution, so such steps are sound.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uniqueness_assumed: bool,
    /// Applied guesses (steps of the `guess` technique: trial placements checked against the
    /// solution, not deductions). Left out of the RON when zero.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub guesses: usize,
}

/// Whether a count is zero (for `skip_serializing_if`).
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The solution line (81 digits) as a grid, or `None` when it is not one.
fn solution_grid(line: &str) -> Option<Grid> {
    let bytes = line.as_bytes();
    if bytes.len() != 81 || !bytes.iter().all(|b| (b'1'..=b'9').contains(b)) {
        return None;
    }
    let mut values = [0u8; 81];
    for (v, b) in values.iter_mut().zip(bytes) {
        *v = b - b'0';
    }
    Some(Grid::from_values(&values))
}

/// The annotated record of one solve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// The puzzle as an 81-character line (givens only).
    pub puzzle: String,
    /// The starting pencil marks as a HoDoKu library line, when the input had placed digits or
    /// removed candidates beyond the givens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The solution, when the puzzle has exactly one.
    pub solution: Option<String>,
    /// Name of the pipeline.
    pub pipeline: String,
    /// Technique ids of the pipeline that run on the puzzle's size, in order (the others are
    /// left out of the solve; see [`crate::Technique::runs_on`]).
    pub techniques: Vec<String>,
    /// Whether steps were verified against the solution.
    pub verified: bool,
    /// Everything that happened, in order.
    pub entries: Vec<Entry>,
    /// How it ended.
    pub outcome: Outcome,
    /// Figures.
    pub summary: Summary,
    /// Set when the pipeline's uniqueness techniques were skipped because the givens alone are
    /// not unique. Left out of the RON otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uniqueness_skipped: Option<UniquenessSkipped>,
}

impl Trace {
    /// A trace of `puzzle` (of size `n`) for `pipeline` with no steps, ending in `outcome`.
    pub(crate) fn empty(puzzle: String, n: usize, pipeline: &Pipeline, outcome: Outcome) -> Trace {
        Trace {
            puzzle,
            start: None,
            solution: None,
            pipeline: pipeline.name().to_string(),
            techniques: pipeline.ids_on(n),
            verified: pipeline.verify(),
            entries: Vec::new(),
            outcome,
            summary: Summary::default(),
            uniqueness_skipped: None,
        }
    }

    /// The trace of an input that could not be solved at all: `puzzle` as given, the `reason` as
    /// its [`Outcome::Invalid`], no steps.
    pub fn invalid(puzzle: String, pipeline: &Pipeline, reason: String) -> Trace {
        // the size is unknown: the techniques of the 9x9 board
        Trace::empty(puzzle, 9, pipeline, Outcome::Invalid { reason })
    }

    /// Whether the puzzle was solved.
    pub fn is_solved(&self) -> bool {
        self.outcome == Outcome::Solved
    }

    /// Whether the puzzle was solved with at least one guess (so not by logic alone).
    pub fn is_guessed(&self) -> bool {
        self.is_solved() && self.summary.guesses > 0
    }

    /// The applied steps.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.entries.iter().filter_map(|e| match e {
            Entry::Step(s) => Some(s),
            _ => None,
        })
    }

    /// The trace as pretty RON: struct names, two-space indent, deterministic.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(true)
            .indentor("  ".to_string())
            .separate_tuple_members(false)
            .enumerate_arrays(false)
            .compact_arrays(true)
            .extensions(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
        let mut s = ron::ser::to_string_pretty(self, config).expect("a trace always serializes");
        s.push('\n');
        s
    }

    /// Reads a trace back from RON.
    pub fn from_ron(text: &str) -> Result<Trace, ron::error::SpannedError> {
        ron::from_str(text)
    }

    /// The trace as text for people: numbered steps, the pencil marks at the start and when
    /// stuck, the summary, and the solution grid when solved.
    pub fn to_text(&self, start: Option<&Grid>) -> String {
        self.to_text_with(start, GridDisplay::Stuck, false)
    }

    /// [`Trace::to_text`], with the pencil marks also after every step when `grids` is
    /// [`GridDisplay::Every`] (which needs `start`), and with `ids` each step's technique id
    /// in brackets after its number (`  5. [x-wing-script] X-Wing: ...`). Grids write a
    /// one-candidate cell as `(5)`, apart from values.
    pub fn to_text_with(&self, start: Option<&Grid>, grids: GridDisplay, ids: bool) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "Puzzle: {}", printable(&self.puzzle));
        let mut grid = start.cloned();
        if let Some(g) = &grid {
            write_grid(&mut out, g);
        }
        if let Some(skip) = &self.uniqueness_skipped {
            let n = skip.givens_solutions;
            let count = match (skip.at_least, n) {
                (true, _) => format!("at least {n} solutions"),
                (false, 1) => "1 solution".to_string(),
                (false, _) => format!("{n} solutions"),
            };
            let _ = writeln!(
                out,
                "Note: {} uniqueness technique(s) skipped: the givens alone have {count} (placed digits are not givens).",
                skip.techniques.len()
            );
        }
        let mut n = 0;
        let nine = self.puzzle.chars().count() == 81;
        for entry in &self.entries {
            match entry {
                Entry::Step(step) => {
                    n += 1;
                    let id = if ids {
                        format!("[{}] ", printable(&step.technique))
                    } else {
                        String::new()
                    };
                    let _ = writeln!(out, "{n:>3}. {id}{}", printable(&step.explanation));
                    // a chain spelled out under its compact notation, in the grid it was found in
                    // (another size's trace follows no grid here: it keeps the notation alone)
                    if nine {
                        crate::step::words::write_text(step, grid.as_ref(), &mut out, 7);
                    }
                    if let Some(net) = &step.net {
                        net.write_text(&mut out, 7);
                    }
                    if let Some(g) = &mut grid {
                        step.apply(g);
                        if grids == GridDisplay::Every && !g.is_solved() {
                            write_grid(&mut out, g);
                        }
                    }
                }
                Entry::Rejected { step, reason } => {
                    let _ = writeln!(
                        out,
                        "     REJECTED {} ({reason}); technique disabled: {}",
                        printable(&step.technique),
                        printable(&step.explanation)
                    );
                }
                Entry::Failed { technique, error } => {
                    let _ = writeln!(
                        out,
                        "     FAILED {}; technique disabled: {}",
                        printable(technique),
                        printable(error)
                    );
                }
            }
        }
        let hardest = match &self.summary.hardest {
            Some(h) => format!(
                ". Hardest: {} ({:.1})",
                printable(&h.technique),
                h.difficulty
            ),
            None => String::new(),
        };
        let steps = self.summary.steps;
        match &self.outcome {
            Outcome::Solved => {
                let _ = writeln!(out, "Solved in {steps} steps{hardest}");
                if let Some(solution) = self.solution.as_deref().and_then(solution_grid) {
                    let _ = writeln!(out, "Solution:");
                    out.push_str(&format_pencil_marks(&solution));
                } else if let Some(Ok(solution)) = self.solution.as_deref().map(Puzzle::parse) {
                    // another size: the solution's line reads back in its own alphabet
                    let _ = writeln!(out, "Solution:");
                    out.push_str(&solution.to_grid());
                }
            }
            Outcome::Stuck { pencil_marks } => {
                let _ = writeln!(
                    out,
                    "Stuck after {steps} steps{hardest}. The pencil marks left:"
                );
                match &grid {
                    Some(g) => write_grid(&mut out, g),
                    None => {
                        for line in pencil_marks {
                            let _ = writeln!(out, "{line}");
                        }
                    }
                }
            }
            Outcome::StepLimit { limit } => {
                let _ = writeln!(
                    out,
                    "Stopped at the step limit ({limit}) after {steps} steps{hardest}"
                );
            }
            Outcome::Stopped {
                cause,
                pencil_marks,
            } => {
                let _ = writeln!(
                    out,
                    "Stopped ({cause}) after {steps} steps{hardest}. The pencil marks left:"
                );
                match &grid {
                    Some(g) => write_grid(&mut out, g),
                    None => {
                        for line in pencil_marks {
                            let _ = writeln!(out, "{line}");
                        }
                    }
                }
            }
            Outcome::Invalid { reason } => {
                let _ = writeln!(out, "Invalid puzzle: {}", printable(reason));
            }
        }
        match self.summary.guesses {
            0 => {}
            1 => {
                let _ = writeln!(
                    out,
                    "The solve used 1 guess (a trial placement checked against the solution, not a deduction)."
                );
            }
            n => {
                let _ = writeln!(
                    out,
                    "The solve used {n} guesses (trial placements checked against the solution, not deductions)."
                );
            }
        }
        if self.summary.uniqueness_assumed {
            let _ = writeln!(
                out,
                "Uniqueness techniques were used: the puzzle was proved to have exactly one solution."
            );
        }
        if self.summary.rejected > 0 {
            let _ = writeln!(out, "Rejected steps: {}", self.summary.rejected);
        }
        out
    }
}

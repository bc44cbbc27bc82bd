//! Puzzle difficulty from a solve trace: the hardest step, a level, a score and the technique
//! counts (see `docs/rating.md`).
//!
//! ```
//! use lapiz::{Pipeline, solve_puzzle};
//! use lapiz::engine::{Level, rate};
//! let pipeline = Pipeline::default_pipeline();
//! let trace = solve_puzzle(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//!     &pipeline,
//! );
//! let rating = rate(&trace, &pipeline).unwrap();
//! assert_eq!(rating.level, Level::Easy);
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::engine::pipeline::Pipeline;
use crate::engine::trace::{Outcome, TechniqueCount, Trace};

/// Difficulty level, named as HoDoKu names them, plus [`Level::Guessed`] for puzzles solved with a
/// guess and [`Level::Beyond`] for puzzles the pipeline cannot finish. Levels are chosen by the
/// hardest step's difficulty (Sudoku Explainer scale):
///
/// | level | hardest step | techniques of the default pipeline |
/// |---|---|---|
/// | easy | up to 2.3 | full house, hidden and naked singles |
/// | medium | 2.4 – 3.4 | locked candidates, locked/naked/hidden pairs, X-Wing, finned X-Wing |
/// | hard | 3.5 – 4.2 | triples, swordfish, skyscraper, kites, turbot fish, XY-Wing |
/// | unfair | 4.3 – 5.0 | remote pairs, empty rectangles, XYZ/W/WXYZ-wings, colours, uniqueness, naked quad |
/// | extreme | above 5.0 | jellyfish, hidden quad, BUG+1 and anything harder |
/// | guessed | — | solved, but with at least one `guess` step (not in the default pipeline) |
/// | beyond | — | the pipeline gets stuck (or hits its step limit) |
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Intersections, pairs, X-Wing.
    Medium,
    /// Triples, swordfish, single-digit patterns, XY-Wing.
    Hard,
    /// Wings, colours, uniqueness, quads.
    Unfair,
    /// The hardest techniques of the pipeline and beyond.
    Extreme,
    /// Solved, but only with a guess (a trial placement, not a deduction), whatever the
    /// hardest logical step.
    Guessed,
    /// The pipeline cannot finish the puzzle.
    Beyond,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 7] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
        Level::Guessed,
        Level::Beyond,
    ];

    /// The highest hardest-step difficulty of each solvable level (`extreme` has none).
    pub const THRESHOLDS: [(Level, f32); 4] = [
        (Level::Easy, 2.3),
        (Level::Medium, 3.4),
        (Level::Hard, 4.2),
        (Level::Unfair, 5.0),
    ];

    /// The level of a puzzle solved without a guess whose hardest step has this difficulty.
    pub fn of_difficulty(difficulty: f32) -> Level {
        // Difficulties have one decimal; compare with a little slack for float noise.
        Level::THRESHOLDS
            .iter()
            .find(|(_, max)| difficulty <= max + 1e-4)
            .map_or(Level::Extreme, |(l, _)| *l)
    }

    /// The lower-case name (`easy` … `extreme`, `guessed`, `beyond`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
            Level::Guessed => "guessed",
            Level::Beyond => "beyond",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of `easy`, `medium`, `hard`, `unfair`, `extreme`, `guessed`,
/// `beyond`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level `{0}` (expected easy, medium, hard, unfair, extreme, guessed or beyond)")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        let l = s.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|v| v.name() == l || (l == "unsolved" && *v == Level::Beyond))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// Why a trace cannot be rated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RatingError {
    /// The input is not a proper puzzle.
    #[error("invalid puzzle: {0}")]
    Invalid(String),
    /// The solve was stopped before its end ([`Outcome::Stopped`]): its steps do not rate
    /// the puzzle.
    #[error("stopped ({cause}) after {steps} steps")]
    Stopped {
        /// Why.
        cause: crate::model::StopCause,
        /// The steps applied before.
        steps: usize,
    },
}

/// The difficulty of a puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The level.
    pub level: Level,
    /// The hardest applied step's difficulty (Sudoku Explainer scale); `None` when nothing was
    /// applied.
    pub hardest: Option<f32>,
    /// The hardest applied step's technique id.
    pub hardest_technique: Option<String>,
    /// For a puzzle the pipeline cannot finish: the difficulty of the pipeline's hardest
    /// technique, which the puzzle needs more than.
    pub beyond: Option<f32>,
    /// The sum of the step costs ([`Rating::step_cost`]).
    pub score: u32,
    /// Applied steps.
    pub steps: usize,
    /// Applied steps per technique, in pipeline order.
    pub techniques: Vec<TechniqueCount>,
    /// Sudoku Explainer's EP (pearl): the hardest difficulty of the steps up to and including
    /// the first one that places a digit (`None` when no step places one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pearl: Option<f32>,
    /// Sudoku Explainer's ED (diamond): the difficulty of the first step (`None` when there is
    /// no step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diamond: Option<f32>,
    /// Applied guesses (`guess` steps); a solved puzzle with any is [`Level::Guessed`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub guesses: usize,
}

/// Whether a count is zero (for `skip_serializing_if`).
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Rating {
    /// The cost of one step of this difficulty, summed into [`Rating::score`]:
    ///
    /// | difficulty | cost | e.g. |
    /// |---|---:|---|
    /// | up to 1.5 | 1 | full house, hidden single |
    /// | 1.6 – 2.3 | 2 | naked single |
    /// | 2.4 – 2.8 | 5 | pointing, claiming |
    /// | 2.9 – 3.4 | 10 | locked and naked pairs, X-Wing, hidden pair |
    /// | 3.5 – 4.0 | 20 | triples, swordfish, skyscraper |
    /// | 4.1 – 4.4 | 35 | kites, turbot fish, XY/XYZ/W-wings, empty rectangle |
    /// | 4.5 – 5.0 | 50 | colours, uniqueness, WXYZ-Wing, naked quad |
    /// | above 5.0 | 80 | jellyfish, hidden quad, BUG+1, anything harder |
    pub fn step_cost(difficulty: f32) -> u32 {
        const TABLE: [(f32, u32); 7] = [
            (1.5, 1),
            (2.3, 2),
            (2.8, 5),
            (3.4, 10),
            (4.0, 20),
            (4.4, 35),
            (5.0, 50),
        ];
        TABLE
            .iter()
            .find(|(max, _)| difficulty <= max + 1e-4)
            .map_or(80, |(_, c)| *c)
    }

    /// Whether the pipeline solved the puzzle (with or without a guess).
    pub fn is_solved(&self) -> bool {
        self.level != Level::Beyond
    }

    /// Whether the solve needed a guess.
    pub fn is_guessed(&self) -> bool {
        self.guesses > 0
    }

    /// The rating as printed: the hardest step's difficulty with one decimal (`4.2`), `>5.6`
    /// for a puzzle beyond the pipeline, `0.0` for an already solved grid.
    pub fn rating_text(&self) -> String {
        match (self.beyond, self.hardest) {
            (Some(b), _) => format!(">{b:.1}"),
            (None, Some(h)) => format!("{h:.1}"),
            (None, None) => "0.0".to_string(),
        }
    }

    /// The number of applied steps of a technique.
    pub fn count_of(&self, technique: &str) -> usize {
        self.techniques
            .iter()
            .find(|t| t.technique == technique)
            .map_or(0, |t| t.count)
    }
}

/// Rates a solve of `pipeline` (the pipeline that made the trace: its hardest technique that
/// ran on the puzzle's size bounds the rating of puzzles it cannot finish).
pub fn rate(trace: &Trace, pipeline: &Pipeline) -> Result<Rating, RatingError> {
    let ceiling = pipeline
        .techniques()
        .iter()
        .filter(|t| trace.techniques.iter().any(|id| id == t.id()))
        .map(|t| t.difficulty())
        .fold(0.0f32, f32::max);
    rate_with_ceiling(trace, ceiling)
}

/// Rates a trace; `ceiling` is the difficulty shown (as `>ceiling`) for a puzzle the pipeline
/// cannot finish.
pub(crate) fn rate_with_ceiling(trace: &Trace, ceiling: f32) -> Result<Rating, RatingError> {
    let solved = match &trace.outcome {
        Outcome::Invalid { reason } => return Err(RatingError::Invalid(reason.clone())),
        Outcome::Stopped { cause, .. } => {
            return Err(RatingError::Stopped {
                cause: *cause,
                steps: trace.summary.steps,
            });
        }
        Outcome::Solved => true,
        Outcome::Stuck { .. } | Outcome::StepLimit { .. } => false,
    };
    let hardest = trace.summary.hardest.as_ref();
    let level = if solved && trace.summary.guesses > 0 {
        Level::Guessed
    } else if solved {
        hardest.map_or(Level::Easy, |h| Level::of_difficulty(h.difficulty))
    } else {
        Level::Beyond
    };
    let (mut pearl, mut running) = (None, 0.0f32);
    for step in trace.steps() {
        running = running.max(step.difficulty);
        if !step.placements.is_empty() {
            pearl = Some(running);
            break;
        }
    }
    Ok(Rating {
        pearl,
        diamond: trace.steps().next().map(|s| s.difficulty),
        level,
        hardest: hardest.map(|h| h.difficulty),
        hardest_technique: hardest.map(|h| h.technique.clone()),
        beyond: (!solved).then_some(ceiling),
        score: trace.steps().map(|s| Rating::step_cost(s.difficulty)).sum(),
        steps: trace.summary.steps,
        techniques: trace.summary.techniques.clone(),
        guesses: trace.summary.guesses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve_puzzle;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    /// Arto Inkala's puzzle: the forcing chains finish it, the rest of the default pipeline
    /// gets stuck.
    const STUCK: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    /// The default pipeline without the forcing chains and nets: it gets stuck on [`STUCK`].
    fn without_forcing() -> Pipeline {
        let forcing: Vec<String> = crate::technique::forcing::techniques()
            .iter()
            .map(|t| t.id().to_string())
            .collect();
        let mut p = Pipeline::default_pipeline();
        p.retain(|t| !forcing.iter().any(|f| f == t.id()));
        p.set_name("default-without-forcing");
        p
    }

    #[test]
    fn levels_follow_the_thresholds() {
        assert_eq!(Level::of_difficulty(1.0), Level::Easy);
        assert_eq!(Level::of_difficulty(2.3), Level::Easy);
        assert_eq!(Level::of_difficulty(2.6), Level::Medium);
        assert_eq!(Level::of_difficulty(3.4), Level::Medium);
        assert_eq!(Level::of_difficulty(3.5), Level::Hard);
        assert_eq!(Level::of_difficulty(4.2), Level::Hard);
        assert_eq!(Level::of_difficulty(4.3), Level::Unfair);
        assert_eq!(Level::of_difficulty(5.0), Level::Unfair);
        assert_eq!(Level::of_difficulty(5.2), Level::Extreme);
        assert_eq!(Level::of_difficulty(9.0), Level::Extreme);
    }

    #[test]
    fn level_names_round_trip() {
        for l in Level::ALL {
            assert_eq!(l.name().parse::<Level>(), Ok(l));
        }
        assert_eq!("Unsolved".parse::<Level>(), Ok(Level::Beyond));
        assert!("hardest".parse::<Level>().is_err());
    }

    #[test]
    fn costs_grow_with_difficulty() {
        assert_eq!(Rating::step_cost(1.2), 1);
        assert_eq!(Rating::step_cost(2.3), 2);
        assert_eq!(Rating::step_cost(2.6), 5);
        assert_eq!(Rating::step_cost(3.2), 10);
        assert_eq!(Rating::step_cost(4.2), 35);
        assert_eq!(Rating::step_cost(5.6), 80);
    }

    #[test]
    fn an_easy_puzzle_is_easy() {
        let p = Pipeline::default_pipeline();
        let r = rate(&solve_puzzle(EASY, &p), &p).unwrap();
        assert_eq!(r.level, Level::Easy);
        assert!(r.is_solved());
        assert!(r.hardest.unwrap() <= 2.3);
        assert_eq!(r.beyond, None);
        // Every step costs 1 or 2.
        assert!(r.score >= r.steps as u32 && r.score <= 2 * r.steps as u32);
        let counted: usize = r.techniques.iter().map(|t| t.count).sum();
        assert_eq!(counted, r.steps);
    }

    #[test]
    fn a_puzzle_beyond_the_pipeline_says_so() {
        let p = without_forcing();
        let r = rate(&solve_puzzle(STUCK, &p), &p).unwrap();
        assert_eq!(r.level, Level::Beyond);
        assert!(!r.is_solved());
        // the pipeline's hardest technique
        let ceiling = p
            .techniques()
            .iter()
            .map(|t| t.difficulty())
            .fold(0.0f32, f32::max);
        assert_eq!(r.rating_text(), format!(">{ceiling:.1}"));
    }

    #[test]
    fn a_puzzle_solved_with_a_guess_is_guessed() {
        let mut p = without_forcing();
        p.push(crate::technique::builtin("guess").unwrap()).unwrap();
        let r = rate(&solve_puzzle(STUCK, &p), &p).unwrap();
        assert_eq!(r.level, Level::Guessed);
        assert!(r.is_solved() && r.is_guessed());
        assert_eq!(r.count_of("guess"), r.guesses);
        assert_eq!(r.rating_text(), "12.0");
        assert_eq!(r.hardest_technique.as_deref(), Some("guess"));
        // the same pipeline on a puzzle the logic finishes: no guess
        let r = rate(&solve_puzzle(EASY, &p), &p).unwrap();
        assert_eq!((r.level, r.guesses), (Level::Easy, 0));
    }

    #[test]
    fn an_invalid_puzzle_is_an_error() {
        let p = Pipeline::default_pipeline();
        let clash = format!("33{}", &EASY[2..]);
        let e = rate(&solve_puzzle(&clash, &p), &p).unwrap_err();
        assert!(e.to_string().contains("both hold 3"), "{e}");
    }
}

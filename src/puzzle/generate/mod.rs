//! Puzzle generation: random solved grids, clue removal that keeps one solution (random order,
//! optional symmetry, minimal by default), and targets on the rating (see `docs/rating.md`).
//! [`Puzzle::generate`](crate::Puzzle::generate) is the way in, on every size; this module
//! holds its targets and 9x9's tuned generator.
//!
//! Output is reproducible: puzzle `index` of seed `seed` comes from a ChaCha8 generator seeded
//! with `seed` on stream `index`, whatever thread makes it.
//!
//! ```
//! use lapiz::model::{Alphabet, Layout};
//! use lapiz::puzzle::generate::{Clues, GenerateOptions, Symmetry};
//! use lapiz::{Pipeline, Puzzle};
//! let options = GenerateOptions { symmetry: Symmetry::Rot180, ..GenerateOptions::default() };
//! let pipeline = Pipeline::default_pipeline();
//! let made = Puzzle::generate(Layout::NINE, Alphabet::Standard, &options, &pipeline, 42, 0).unwrap();
//! assert_eq!(made.puzzle.count_solutions(2), 1);
//! assert!(made.puzzle.is_minimal(Symmetry::Rot180));
//! // without `attempts`, the board's own budget
//! let nine = GenerateOptions::default_attempts(Layout::NINE, Clues::Minimal);
//! assert_eq!(nine, GenerateOptions::DEFAULT_ATTEMPTS);
//! ```

mod rated;
pub(crate) mod sized;

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::brute::nine::count_solutions;
use crate::engine::pipeline::Pipeline;
use crate::engine::rating::{Level, Rating, rate};
use crate::engine::solve_grid;
use crate::model::Layout;
use crate::model::grid::Grid;
use crate::technique::guess::GUESS_ID;

/// The symmetry of the clue pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Symmetry {
    /// Clues anywhere.
    #[default]
    None,
    /// Half-turn symmetry: `r,c` with `10-r,10-c`.
    Rot180,
    /// Quarter-turn symmetry: each cell with its three quarter-turn images.
    Rot90,
    /// Mirror left to right: `r,c` with `r,10-c`.
    Horizontal,
    /// Mirror top to bottom: `r,c` with `10-r,c`.
    Vertical,
    /// Mirror in the main diagonal: `r,c` with `c,r`.
    Diagonal,
    /// Mirror in the anti-diagonal: `r,c` with `10-c,10-r`.
    Antidiagonal,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 7] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Horizontal,
        Symmetry::Vertical,
        Symmetry::Diagonal,
        Symmetry::Antidiagonal,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Horizontal => "horizontal",
            Symmetry::Vertical => "vertical",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Antidiagonal => "antidiagonal",
        }
    }

    /// The image of a cell (0..n*n) of an `n x n` board under the symmetry's generator.
    fn image(self, cell: usize, n: usize) -> usize {
        let (r, c, m) = (cell / n, cell % n, n - 1);
        let (r2, c2) = match self {
            Symmetry::None => (r, c),
            Symmetry::Rot180 => (m - r, m - c),
            Symmetry::Rot90 => (c, m - r),
            Symmetry::Horizontal => (r, m - c),
            Symmetry::Vertical => (m - r, c),
            Symmetry::Diagonal => (c, r),
            Symmetry::Antidiagonal => (m - c, m - r),
        };
        n * r2 + c2
    }

    /// The cells that must be all clues or all empty together (orbits), each sorted, in cell
    /// order of their first cell.
    pub fn groups(self) -> Vec<Vec<usize>> {
        self.groups_of_size(9)
    }

    /// [`Symmetry::groups`] on an `n x n` board.
    pub(crate) fn groups_of_size(self, n: usize) -> Vec<Vec<usize>> {
        let mut seen = vec![false; n * n];
        let mut out = Vec::new();
        for start in 0..n * n {
            if seen[start] {
                continue;
            }
            let mut group = vec![start];
            seen[start] = true;
            let mut c = self.image(start, n);
            while !seen[c] {
                seen[c] = true;
                group.push(c);
                c = self.image(c, n);
            }
            group.sort_unstable();
            out.push(group);
        }
        out
    }

    /// Whether the clue pattern of `puzzle` has this symmetry.
    pub fn holds_for(self, puzzle: &[u8; 81]) -> bool {
        (0..81).all(|i| (puzzle[i] == 0) == (puzzle[self.image(i, 9)] == 0))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A symmetry name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown symmetry `{0}` (expected none, rot180, rot90, horizontal, vertical, diagonal or antidiagonal)"
)]
pub struct UnknownSymmetry(pub String);

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;
    fn from_str(s: &str) -> Result<Symmetry, UnknownSymmetry> {
        let l = s.trim().to_ascii_lowercase();
        Symmetry::ALL
            .into_iter()
            .find(|v| v.name() == l)
            .ok_or_else(|| UnknownSymmetry(s.to_string()))
    }
}

/// How many clues to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Clues {
    /// Remove clues (or symmetric clue groups) until none can go without losing uniqueness.
    #[default]
    Minimal,
    /// Stop at exactly this many clues; an attempt whose removal cannot get down to it (or
    /// that a symmetric group would jump past) is retried.
    Exactly(usize),
    /// Stop as soon as at most this many clues remain; an attempt that cannot get there is
    /// retried.
    AtMost(usize),
}

impl Clues {
    /// Whether a puzzle with `count` clues meets this (a minimal one always does: minimality
    /// is the removal's to make).
    pub fn met_by(self, count: usize) -> bool {
        match self {
            Clues::Minimal => true,
            Clues::Exactly(n) => count == n,
            Clues::AtMost(n) => count <= n,
        }
    }
}

/// What the generated puzzles must be.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateOptions {
    /// The clue pattern's symmetry.
    pub symmetry: Symmetry,
    /// How many clues to keep.
    pub clues: Clues,
    /// The level asked for, if any.
    pub level: Option<Level>,
    /// The hardest step's difficulty must lie in `min..=max` (the puzzle must be solved by the
    /// pipeline).
    pub rating: Option<(f32, f32)>,
    /// Technique ids the solve must use.
    pub requires: Vec<String>,
    /// Attempts (a new solved grid and a removal each) before giving up on one puzzle; `None`
    /// for the board's default ([`GenerateOptions::default_attempts`]).
    pub attempts: Option<u32>,
    /// Rate every puzzle even without a target (for printing the rating).
    pub rate: bool,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            symmetry: Symmetry::None,
            clues: Clues::Minimal,
            level: None,
            rating: None,
            requires: Vec::new(),
            attempts: None,
            rate: false,
        }
    }
}

impl GenerateOptions {
    /// The most attempts a puzzle gets by default (9x9's budget).
    pub const DEFAULT_ATTEMPTS: u32 = 20_000;

    /// The attempts a puzzle of `clues` on `layout` gets by default: 9x9's generator takes
    /// [`GenerateOptions::DEFAULT_ATTEMPTS`]; on other boards a minimal puzzle needs few solved
    /// boards (one is given up only when its uniqueness questions take too long: at 25x25
    /// about half the seeds need a second, a few a third), a clue count may need many.
    pub fn default_attempts(layout: Layout, clues: Clues) -> u32 {
        match (layout == Layout::NINE, clues) {
            (true, _) => GenerateOptions::DEFAULT_ATTEMPTS,
            (false, Clues::Minimal) => 100,
            (false, _) => 1000,
        }
    }

    /// The attempts asked for, or `layout`'s default.
    pub(crate) fn attempts_on(&self, layout: Layout) -> u32 {
        self.attempts
            .unwrap_or_else(|| GenerateOptions::default_attempts(layout, self.clues))
    }

    /// Whether a target needs each candidate puzzle rated.
    pub fn needs_rating(&self) -> bool {
        self.rate || self.level.is_some() || self.rating.is_some() || !self.requires.is_empty()
    }

    /// Whether a rating meets the targets.
    pub fn accepts(&self, rating: &Rating) -> bool {
        if self.level.is_some_and(|l| l != rating.level) {
            return false;
        }
        if let Some((min, max)) = self.rating {
            let Some(h) = rating.hardest.filter(|_| rating.is_solved()) else {
                return false;
            };
            if h < min - 1e-4 || h > max + 1e-4 {
                return false;
            }
        }
        self.requires.iter().all(|t| rating.count_of(t) > 0)
    }

    /// Whether the targets can be met with `pipeline` at all: a non-empty rating range,
    /// required techniques in the pipeline, at least one attempt, `guessed` only with a guess.
    pub(crate) fn check(&self, pipeline: &Pipeline) -> Result<(), GenerateError> {
        if let Some((min, max)) = self.rating
            && min > max
        {
            return Err(GenerateError::Impossible(format!(
                "rating range {min}..{max} is empty"
            )));
        }
        if let Some((min, max)) = self.rating
            && min > MAX_DIFFICULTY
        {
            return Err(GenerateError::Impossible(format!(
                "rating range {min}..{max}: no rating exceeds {MAX_DIFFICULTY:.1}, the scale's maximum"
            )));
        }
        if let Some(id) = self
            .requires
            .iter()
            .find(|id| !pipeline.techniques().iter().any(|t| t.id() == id.as_str()))
        {
            return Err(GenerateError::Impossible(format!(
                "technique `{id}` is not in the pipeline (see `lapiz techniques`)"
            )));
        }
        if self.attempts == Some(0) {
            return Err(GenerateError::no_attempts());
        }
        let has_guess = pipeline.techniques().iter().any(|t| t.id() == GUESS_ID);
        if self.level == Some(Level::Guessed) && !has_guess {
            return Err(GenerateError::Impossible(format!(
                "level `guessed` needs a pipeline with the `{GUESS_ID}` technique (a pipeline file with Technique(\"{GUESS_ID}\"))"
            )));
        }
        Ok(())
    }

    /// The hardest step a puzzle may need to meet the targets: the rating range's upper end,
    /// or the level's (`None` when neither has one).
    pub fn ceiling(&self) -> Option<f32> {
        let of_range = self
            .rating
            .map(|(_, max)| max)
            .filter(|&max| max < f32::MAX);
        let of_level = self.level.and_then(|l| {
            Level::THRESHOLDS
                .iter()
                .find(|(t, _)| *t == l)
                .map(|&(_, max)| max)
        });
        match (of_range, of_level) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// The highest difficulty on the scale: no step, so no rating, is harder
/// ([`valid_difficulty`](crate::technique::valid_difficulty)).
const MAX_DIFFICULTY: f32 = 20.0;

/// Why generation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// No puzzle met the targets within the attempt budget.
    #[error(
        "puzzle {index}: no puzzle met the targets in {attempts} attempts (raise --attempts, or widen the target)"
    )]
    BudgetExhausted {
        /// The puzzle's index.
        index: u64,
        /// Attempts made.
        attempts: u32,
    },
    /// A target that no puzzle can meet.
    #[error("impossible target: {0}")]
    Impossible(String),
    /// The thread's [`Stop`](crate::model::Stop) was reached before a puzzle met the targets.
    #[error("puzzle {index}: stopped ({cause}) after {attempts} attempts")]
    Stopped {
        /// The puzzle's index.
        index: u64,
        /// Attempts begun.
        attempts: u32,
        /// Why.
        cause: crate::model::StopCause,
    },
}

impl GenerateError {
    /// A limit of 0 attempts, on any size.
    pub(crate) fn no_attempts() -> GenerateError {
        GenerateError::Impossible("0 attempts: at least one is needed".to_string())
    }
}

/// A puzzle of 9x9's generator ([`generate_nine`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Nine {
    /// The puzzle, 0 for empty cells.
    pub puzzle: [u8; 81],
    /// Its solution.
    pub solution: [u8; 81],
    /// Its rating, when a target or [`GenerateOptions::rate`] asked for it.
    pub rating: Option<Rating>,
    /// Attempts it took (1 = the first).
    pub attempts: u32,
}

/// The random generator of puzzle `index` for `seed`.
pub(crate) fn rng_for(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// The row, column and box (house indices) of each cell.
const UNIT_OF: [[usize; 3]; 81] = {
    let mut t = [[0usize; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let [r, c, b] = crate::model::cell::Cell::new(i as u8).houses();
        t[i] = [r.index(), c.index(), b.index()];
        i += 1;
    }
    t
};

/// A random solved grid: backtracking over the cell with the fewest candidates, trying its
/// candidates in a shuffled order.
pub(crate) fn random_solution(rng: &mut impl Rng) -> [u8; 81] {
    let mut grid = [0u8; 81];
    let mut used = [0u16; 27];
    // The empty grid always has a solution, so the search always succeeds.
    let ok = fill(&mut grid, &mut used, rng);
    debug_assert!(ok);
    grid
}

fn fill(grid: &mut [u8; 81], used: &mut [u16; 27], rng: &mut impl Rng) -> bool {
    let mut best: Option<(usize, u16)> = None;
    let mut best_n = 10;
    for i in 0..81 {
        if grid[i] != 0 {
            continue;
        }
        let [a, b, c] = UNIT_OF[i];
        let free = !(used[a] | used[b] | used[c]) & 0x1ff;
        let n = free.count_ones();
        if n < best_n {
            best_n = n;
            best = Some((i, free));
            if n <= 1 {
                break;
            }
        }
    }
    let Some((cell, free)) = best else {
        return true;
    };
    // the free digits (0-based) in a shuffled order, without allocating
    let mut digits = [0u8; 9];
    let mut n = 0;
    for d in 0..9u8 {
        if free & (1 << d) != 0 {
            digits[n] = d;
            n += 1;
        }
    }
    digits[..n].shuffle(rng);
    let [a, b, c] = UNIT_OF[cell];
    for &d in &digits[..n] {
        let bit = 1u16 << d;
        grid[cell] = d + 1;
        used[a] |= bit;
        used[b] |= bit;
        used[c] |= bit;
        if fill(grid, used, rng) {
            return true;
        }
        used[a] &= !bit;
        used[b] &= !bit;
        used[c] &= !bit;
    }
    grid[cell] = 0;
    false
}

/// Removes clues from a solved grid (or a puzzle) while it keeps exactly one solution: clue
/// groups of the symmetry in random order, each removed when the puzzle stays unique. Returns
/// `None` when `clues` asks for a count this removal cannot reach.
pub(crate) fn remove_clues(
    solution: &[u8; 81],
    symmetry: Symmetry,
    clues: Clues,
    rng: &mut impl Rng,
) -> Option<[u8; 81]> {
    let mut puzzle = *solution;
    let reached = remove_clue_groups(&mut puzzle, symmetry.groups(), clues, rng, |p, _, _| {
        Some(<&[u8; 81]>::try_from(p).is_ok_and(|p| count_solutions(p, 2) == 1))
    });
    reached.then_some(puzzle)
}

/// The removal every generator shares (9x9 here, every size in `shape`): the clue `groups` in
/// random order, each taken out of `puzzle` when `stays_unique(puzzle without it, group, its
/// values)` says one solution remains, else put back, until `clues` is met. Returns whether
/// `clues` was met.
///
/// With [`Clues::Minimal`] one pass is enough for minimality: a group whose removal gave
/// several solutions still does with fewer clues left.
///
/// `stays_unique` may answer `None`, "give this puzzle up": the removal stops there and
/// returns false.
pub(crate) fn remove_clue_groups(
    puzzle: &mut [u8],
    mut groups: Vec<Vec<usize>>,
    clues: Clues,
    rng: &mut impl Rng,
    mut stays_unique: impl FnMut(&[u8], &[usize], &[u8]) -> Option<bool>,
) -> bool {
    groups.shuffle(rng);
    let mut count = puzzle.iter().filter(|&&v| v != 0).count();
    let reached = |count: usize| match clues {
        Clues::Minimal => false,
        Clues::Exactly(n) | Clues::AtMost(n) => count <= n,
    };
    let mut saved = Vec::new();
    for group in groups {
        if reached(count) {
            break;
        }
        let filled = group.iter().filter(|&&c| puzzle[c] != 0).count();
        if filled == 0 || matches!(clues, Clues::Exactly(n) if count - filled < n) {
            continue;
        }
        saved.clear();
        saved.extend(group.iter().map(|&c| puzzle[c]));
        for &c in &group {
            puzzle[c] = 0;
        }
        let Some(unique) = stays_unique(puzzle, &group, &saved) else {
            return false;
        };
        if unique {
            count -= filled;
        } else {
            for (&c, &v) in group.iter().zip(&saved) {
                puzzle[c] = v;
            }
        }
    }
    clues.met_by(count)
}

/// Whether no clue group of `symmetry` can be removed from `puzzle` without losing uniqueness
/// (9x9's [`Puzzle::is_minimal`](crate::Puzzle::is_minimal)).
pub(crate) fn is_minimal_nine(puzzle: &[u8; 81], symmetry: Symmetry) -> bool {
    symmetry.groups().iter().all(|g| {
        if g.iter().all(|&c| puzzle[c] == 0) {
            return true;
        }
        let mut p = *puzzle;
        for &c in g {
            p[c] = 0;
        }
        count_solutions(&p, 2) != 1
    })
}

/// 9x9's generator, under [`Puzzle::generate`](crate::Puzzle::generate): puzzle `index` for
/// `seed` from new solved grids and removals until one meets the targets, or the attempt
/// budget is spent.
pub(crate) fn generate_nine(
    options: &GenerateOptions,
    pipeline: &Pipeline,
    seed: u64,
    index: u64,
) -> Result<Nine, GenerateError> {
    options.check(pipeline)?;
    if let Clues::Exactly(n) | Clues::AtMost(n) = options.clues
        && n < 17
    {
        return Err(GenerateError::Impossible(format!(
            "{n} clues: no proper Sudoku has fewer than 17"
        )));
    }
    if let Clues::Exactly(n) = options.clues
        && n > 81
    {
        return Err(GenerateError::Impossible(format!(
            "{n} clues: a grid has 81 cells"
        )));
    }
    let mut rng = rng_for(seed, index);
    for attempt in 1..=options.attempts_on(Layout::NINE) {
        if let Some(cause) = crate::model::stop::reached() {
            return Err(GenerateError::Stopped {
                index,
                attempts: attempt - 1,
                cause,
            });
        }
        let solution = random_solution(&mut rng);
        let Some(puzzle) = remove_clues(&solution, options.symmetry, options.clues, &mut rng)
        else {
            continue;
        };
        let rating = if options.needs_rating() {
            let trace = solve_grid(&Grid::from_values(&puzzle), pipeline);
            match rate(&trace, pipeline) {
                Ok(r) => Some(r),
                Err(_) => continue,
            }
        } else {
            None
        };
        if rating.as_ref().is_some_and(|r| !options.accepts(r)) {
            continue;
        }
        return Ok(Nine {
            puzzle,
            solution,
            rating,
            attempts: attempt,
        });
    }
    Err(GenerateError::BudgetExhausted {
        index,
        attempts: options.attempts_on(Layout::NINE),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn minimality_check_can_fail() {
        // A full grid is unique but far from minimal.
        let s = random_solution(&mut rng_for(1, 1));
        assert!(!is_minimal_nine(&s, Symmetry::None));
    }

    #[test]
    fn removal_stops_where_asked() {
        let mut rng = rng_for(8, 0);
        let s = random_solution(&mut rng);
        let p = remove_clues(&s, Symmetry::None, Clues::Exactly(45), &mut rng).unwrap();
        assert_eq!(p.iter().filter(|&&v| v != 0).count(), 45);
        assert_eq!(count_solutions(&p, 2), 1);
    }

    use super::*;

    #[test]
    fn random_solutions_are_valid_and_differ() {
        let mut rng = rng_for(1, 0);
        let a = random_solution(&mut rng);
        let b = random_solution(&mut rng);
        assert_ne!(a, b);
        for g in [a, b] {
            assert!(g.iter().all(|&v| (1..=9).contains(&v)));
            assert!(Grid::from_values(&g).conflict().is_none());
        }
    }

    #[test]
    fn groups_partition_the_grid() {
        for s in Symmetry::ALL {
            let groups = s.groups();
            let mut all: Vec<usize> = groups.iter().flatten().copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..81).collect::<Vec<_>>(), "{s}");
            let max = groups.iter().map(Vec::len).max().unwrap();
            let expected = match s {
                Symmetry::None => 1,
                Symmetry::Rot90 => 4,
                _ => 2,
            };
            assert_eq!(max, expected, "{s}");
        }
        assert_eq!(Symmetry::Rot180.groups().len(), 41);
        assert_eq!(Symmetry::Diagonal.groups().len(), 45);
    }

    #[test]
    fn symmetry_names_round_trip() {
        for s in Symmetry::ALL {
            assert_eq!(s.name().parse::<Symmetry>(), Ok(s));
        }
        assert!("spiral".parse::<Symmetry>().is_err());
    }

    #[test]
    fn same_seed_same_puzzle_and_streams_differ() {
        let p = Pipeline::default_pipeline();
        let o = GenerateOptions::default();
        let a = generate_nine(&o, &p, 5, 3).unwrap();
        let b = generate_nine(&o, &p, 5, 3).unwrap();
        let c = generate_nine(&o, &p, 5, 4).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.puzzle, c.puzzle);
        assert!(is_minimal_nine(&a.puzzle, Symmetry::None));
    }

    #[test]
    fn impossible_targets_fail_fast() {
        let p = Pipeline::default_pipeline();
        let o = GenerateOptions {
            requires: vec!["no-such-technique".into()],
            ..Default::default()
        };
        assert!(matches!(
            generate_nine(&o, &p, 1, 0),
            Err(GenerateError::Impossible(_))
        ));
        // a level the pipeline cannot give, no attempt at all
        for o in [
            GenerateOptions {
                level: Some(Level::Guessed),
                ..Default::default()
            },
            GenerateOptions {
                attempts: Some(0),
                ..Default::default()
            },
        ] {
            assert!(matches!(
                generate_nine(&o, &p, 1, 0),
                Err(GenerateError::Impossible(_))
            ));
        }
        for n in [12, 82] {
            let o = GenerateOptions {
                clues: Clues::Exactly(n),
                ..Default::default()
            };
            assert!(matches!(
                generate_nine(&o, &p, 1, 0),
                Err(GenerateError::Impossible(_))
            ));
        }
    }

    #[test]
    fn a_small_budget_gives_up_with_an_error() {
        let p = Pipeline::default_pipeline();
        let o = GenerateOptions {
            clues: Clues::Exactly(17),
            attempts: Some(3),
            ..Default::default()
        };
        let e = generate_nine(&o, &p, 1, 0).unwrap_err();
        assert_eq!(
            e,
            GenerateError::BudgetExhausted {
                index: 0,
                attempts: 3
            }
        );
        assert!(e.to_string().contains("3 attempts"));
    }
}

//! The JSON API's work: each endpoint's request, read strictly (an unknown field is an error,
//! so no request can name a file, a script or a plugin), and its answer, built from the library
//! as the commands build theirs. These run on the blocking pool, under the server's limits
//! (`limits.rs`).

use axum::http::StatusCode;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use lapiz::engine::Pipeline;
use lapiz::engine::{Entry, Outcome, Trace};
use lapiz::engine::{Level, Rating, RatingError, rate};
use lapiz::html::{PageKind, puzzle_page};
use lapiz::model::{Alphabet, Layout};
use lapiz::puzzle::generate::{Clues, GenerateOptions, Symmetry};
use lapiz::step::Step;
use lapiz::text::Puzzle;

/// An error answer: a 4xx (or 5xx) status and lapiz's message, sent as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// What went wrong, in lapiz's words.
    pub message: String,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// A request that is well formed but cannot be done: 422.
    fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// A request whose work was stopped at its deadline: 503.
    pub fn stopped() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the request took longer than the server's time limit",
        )
    }
}

/// A request checked before it waits for a job slot: what can be refused without solving
/// (the puzzle's reading, the pipeline, the targets) is refused at once.
pub trait Checked {
    /// Why the request cannot be done, if that is known without solving.
    fn check(&self, pipelines: &Pipelines) -> Result<(), ApiError>;
}

impl Checked for SolveRequest {
    fn check(&self, pipelines: &Pipelines) -> Result<(), ApiError> {
        pipelines.pick(self.pipeline.as_deref(), Role::Solve, false)?;
        puzzle_of(&self.puzzle, &self.size).map(drop)
    }
}

impl Checked for ReadRequest {
    fn check(&self, _: &Pipelines) -> Result<(), ApiError> {
        puzzle_of(&self.puzzle, &self.size).map(drop)
    }
}

impl Checked for HintRequest {
    fn check(&self, pipelines: &Pipelines) -> Result<(), ApiError> {
        hint_level(self.level.as_deref())?;
        pipelines.pick(self.pipeline.as_deref(), Role::Solve, true)?;
        puzzle_of(&self.puzzle, &self.size).map(drop)
    }
}

impl Checked for RateRequest {
    fn check(&self, pipelines: &Pipelines) -> Result<(), ApiError> {
        let puzzle = puzzle_of(&self.puzzle, &self.size)?;
        let role = match (puzzle.layout().n(), &self.pipeline) {
            (9, _) | (_, Some(_)) => Role::Rate,
            (_, None) => Role::Solve,
        };
        pipelines
            .pick(self.pipeline.as_deref(), role, false)
            .map(drop)
    }
}

impl Checked for GenerateRequest {
    /// The generation itself with a deadline already past: every target is checked before
    /// the first attempt, which the deadline then stops.
    fn check(&self, pipelines: &Pipelines) -> Result<(), ApiError> {
        let past = lapiz::model::Stop::at(std::time::Instant::now());
        match past.during(|| generate_puzzle(self.clone(), pipelines)) {
            Err(e) if e.status != StatusCode::SERVICE_UNAVAILABLE => Err(e),
            _ => Ok(()),
        }
    }
}

/// A generation's error as an answer: 503 when it was stopped at the deadline, else 422.
fn generate_error(e: lapiz::puzzle::generate::GenerateError) -> ApiError {
    match e {
        lapiz::puzzle::generate::GenerateError::Stopped { .. } => ApiError::stopped(),
        e => ApiError::unprocessable(e.to_string()),
    }
}

/// Whether a hint's `level` asks for a nudge (`full` by default).
fn hint_level(level: Option<&str>) -> Result<bool, ApiError> {
    match level {
        None | Some("full") => Ok(false),
        Some("nudge") => Ok(true),
        Some(other) => Err(ApiError::unprocessable(format!(
            "level `{other}`: expected full or nudge"
        ))),
    }
}

/// The pipelines the server was started with, each also with a step limit of 1 for hints.
pub struct Pipelines {
    /// `solve` and `hint`'s (`default` unless `--pipeline` says), then `rate` and `generate`'s
    /// (`se` unless `--pipeline` says): each whole, and limited to one step.
    pub sets: Vec<(Pipeline, Pipeline)>,
}

/// Which of the server's pipelines a request runs by default.
#[derive(Clone, Copy)]
enum Role {
    /// `solve`, `hint`.
    Solve,
    /// `rate`, `generate`.
    Rate,
}

impl Pipelines {
    /// The pipeline `name` (one the server was started with), else the role's; with `hint`,
    /// its one-step copy.
    fn pick(&self, name: Option<&str>, role: Role, hint: bool) -> Result<&Pipeline, ApiError> {
        let set = match name {
            None => &self.sets[role as usize],
            Some(n) => self
                .sets
                .iter()
                .find(|(p, _)| p.name() == n)
                .ok_or_else(|| {
                    let names: Vec<&str> = self.sets.iter().map(|(p, _)| p.name()).collect();
                    ApiError::unprocessable(format!(
                        "no pipeline `{n}` on this server (it has: {})",
                        names.join(", ")
                    ))
                })?,
        };
        Ok(if hint { &set.1 } else { &set.0 })
    }
}

/// Reads a request body: a JSON object with only the endpoint's fields.
pub fn read<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("cannot read the request: {e}"),
        )
    })
}

/// How a request says to read a puzzle of another size than 9x9 (both optional, as
/// `--symbols` and `--box` on the command line).
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct SizeFields {
    /// `1-9A`, `0-9A`, `A-Z` or `numbers`.
    #[serde(default)]
    symbols: Option<String>,
    /// The box shape, `RxC`.
    #[serde(default, rename = "box")]
    boxes: Option<String>,
}

impl SizeFields {
    /// The alphabet asked for, if any.
    fn alphabet(&self) -> Result<Option<Alphabet>, ApiError> {
        self.symbols
            .as_deref()
            .map(|s| {
                s.parse::<Alphabet>()
                    .map_err(|e| ApiError::unprocessable(format!("symbols: {e}")))
            })
            .transpose()
    }

    /// The box shape asked for, if any, as rows and columns.
    fn boxes(&self) -> Result<Option<(u8, u8)>, ApiError> {
        self.boxes
            .as_deref()
            .map(|text| {
                crate::cli::sized::parse_box(text)
                    .map_err(|e| ApiError::unprocessable(format!("box: {e}")))
            })
            .transpose()
    }
}

/// A request's puzzle text (any form lapiz reads, of any size).
fn puzzle_of(text: &str, size: &SizeFields) -> Result<Puzzle, ApiError> {
    Puzzle::read(text, size.alphabet()?, size.boxes()?)
        .map_err(|e| ApiError::unprocessable(format!("cannot read the puzzle: {e}")))
}

/// The display name of a technique id in `pipeline` (its id when the pipeline has none).
fn technique_name(id: &str, pipeline: &Pipeline) -> String {
    pipeline
        .techniques()
        .iter()
        .find(|t| t.id() == id)
        .map_or_else(|| id.to_string(), |t| t.name().to_string())
}

/// The display names of the pipeline's techniques, by id.
fn names(pipeline: &Pipeline) -> BTreeMap<String, String> {
    pipeline
        .techniques()
        .iter()
        .map(|t| (t.id().to_string(), t.name().to_string()))
        .collect()
}

/// An answer as JSON text (numbers as the trace writes them: `1.2`, not `1.2000000476837158`).
fn answer(value: &impl Serialize) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write the answer: {e}"),
        )
    })
}

/// `POST /api/solve`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    puzzle: String,
    #[serde(default)]
    pipeline: Option<String>,
    #[serde(default)]
    html: bool,
    #[serde(flatten)]
    size: SizeFields,
}

/// The answer of `/api/solve`.
#[derive(Serialize)]
struct Solved<'a> {
    trace: &'a Trace,
    names: BTreeMap<String, String>,
    /// The board's size `n` (9 for 9x9).
    size: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    html: Option<String>,
}

/// The explained solve: the trace (what the RON trace carries), the techniques' names and, with
/// `html`, the page `lapiz solve --format html` writes. An invalid puzzle is a 422.
pub fn solve(req: SolveRequest, pipelines: &Pipelines) -> Result<String, ApiError> {
    let pipeline = pipelines.pick(req.pipeline.as_deref(), Role::Solve, false)?;
    let puzzle = puzzle_of(&req.puzzle, &req.size)?;
    let trace = puzzle.solve(pipeline);
    if let Outcome::Invalid { reason } = &trace.outcome {
        return Err(ApiError::unprocessable(format!("invalid puzzle: {reason}")));
    }
    if let Outcome::Stopped { .. } = &trace.outcome {
        return Err(ApiError::stopped());
    }
    answer(&Solved {
        trace: &trace,
        names: names(pipeline),
        size: puzzle.layout().n(),
        html: req
            .html
            .then(|| puzzle_page(&trace, &puzzle, PageKind::Solve)),
    })
}

/// `POST /api/read`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadRequest {
    puzzle: String,
    #[serde(flatten)]
    size: SizeFields,
}

/// The answer of `/api/read`: the board as a page plays it.
#[derive(Serialize)]
struct Board {
    /// The puzzle as one line in its symbols (what the other endpoints read back, with
    /// `symbols` and `box`).
    puzzle: String,
    size: usize,
    /// The box shape, `RxC`.
    #[serde(rename = "box")]
    boxes: String,
    /// The alphabet's name, as `symbols` takes it.
    symbols: &'static str,
    /// The symbol of each value `1..=size`.
    symbol_list: Vec<String>,
    /// Each cell's value (0 empty), row by row.
    values: Vec<u8>,
    /// Which values are givens (a library line's placed digits are not).
    givens: Vec<bool>,
    /// Each cell's candidates (bit `d - 1` for `d`), when the text had pencil marks.
    marks: Option<Vec<u32>>,
    /// The one solution.
    solution: Vec<u8>,
}

/// A puzzle read, with its one solution (brute force): what a page needs to let a player play
/// before the explained solve (which can take longer) is done. A puzzle without one solution is
/// a 422.
pub fn read_puzzle(req: ReadRequest, _: &Pipelines) -> Result<String, ApiError> {
    let puzzle = puzzle_of(&req.puzzle, &req.size)?;
    let solution = puzzle
        .solution()
        .map_err(|e| ApiError::unprocessable(format!("invalid puzzle: {e}")))?;
    let (layout, alphabet) = (puzzle.layout(), puzzle.alphabet());
    let n = layout.n();
    answer(&Board {
        puzzle: puzzle.to_line(),
        size: n,
        boxes: format!("{}x{}", layout.box_rows(), layout.box_cols()),
        symbols: alphabet.name(),
        symbol_list: (1..=n).map(|v| alphabet.symbol(v as u8, n)).collect(),
        values: puzzle.values().to_vec(),
        givens: (0..layout.cells()).map(|c| puzzle.is_given(c)).collect(),
        marks: puzzle.has_marks().then(|| puzzle.candidates()),
        solution: solution.values().to_vec(),
    })
}

/// `POST /api/hint`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    puzzle: String,
    #[serde(default)]
    pipeline: Option<String>,
    #[serde(default)]
    level: Option<String>,
    #[serde(default)]
    html: bool,
    #[serde(flatten)]
    size: SizeFields,
}

/// The answer of `/api/hint`.
#[derive(Serialize)]
struct Hint {
    level: &'static str,
    found: bool,
    technique: Option<String>,
    name: Option<String>,
    text: String,
    step: Option<Step>,
    #[serde(skip_serializing_if = "Option::is_none")]
    html: Option<String>,
}

/// The next step of a puzzle or a grid being solved, as `lapiz hint` gives it: `level` `full`
/// (the default: the step) or `nudge` (the technique and where to look, a step with only its
/// houses). `text` is what `lapiz hint` prints; with `html`, the hint's page.
pub fn hint(req: HintRequest, pipelines: &Pipelines) -> Result<String, ApiError> {
    let nudge = hint_level(req.level.as_deref())?;
    let pipeline = pipelines.pick(req.pipeline.as_deref(), Role::Solve, true)?;
    let puzzle = puzzle_of(&req.puzzle, &req.size)?;
    // a nudge is worded here, in the puzzle's symbols as the step was
    puzzle.in_its_symbols(|| hint_of(&puzzle, nudge, req.html, pipeline))
}

/// [`hint`]'s answer for a puzzle as read, in the symbols already set.
fn hint_of(
    puzzle: &Puzzle,
    nudge: bool,
    html: bool,
    pipeline: &Pipeline,
) -> Result<String, ApiError> {
    let (layout, solved) = (puzzle.layout(), puzzle.is_solved());
    let mut trace = puzzle.solve(pipeline);
    if let Outcome::Invalid { reason } = &trace.outcome {
        return Err(ApiError::unprocessable(format!("invalid puzzle: {reason}")));
    }
    if let Outcome::Stopped { .. } = &trace.outcome {
        return Err(ApiError::stopped());
    }
    let found = trace.steps().next().cloned();
    let shown = found.as_ref().map(|s| {
        if nudge {
            pipeline.nudge(s, layout)
        } else {
            s.clone()
        }
    });
    let text = match (&found, &shown) {
        (Some(s), Some(shown)) if !nudge => {
            let mut t = format!("{}\n", shown.explanation);
            if let Some(net) = &s.net {
                net.write_text(&mut t, 2);
            }
            t.trim_end().to_string()
        }
        (_, Some(shown)) => shown.explanation.clone(),
        _ if solved => "The grid is already solved.".to_string(),
        _ => format!(
            "No technique of the pipeline `{}` finds a step in this grid.",
            pipeline.name()
        ),
    };
    let mut page = None;
    if html {
        if let (Some(shown), Some(Entry::Step(s))) = (
            &shown,
            trace
                .entries
                .iter_mut()
                .find(|e| matches!(e, Entry::Step(_))),
        ) {
            *s = shown.clone();
        }
        page = Some(puzzle_page(&trace, puzzle, PageKind::Hint));
    }
    answer(&Hint {
        level: if nudge { "nudge" } else { "full" },
        found: found.is_some(),
        technique: found.as_ref().map(|s| s.technique.clone()),
        name: found
            .as_ref()
            .map(|s| technique_name(&s.technique, pipeline)),
        text,
        step: shown,
        html: page,
    })
}

/// `POST /api/rate`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateRequest {
    puzzle: String,
    #[serde(default)]
    pipeline: Option<String>,
    #[serde(flatten)]
    size: SizeFields,
}

/// The answer of `/api/rate`.
#[derive(Serialize)]
struct Rated<'a> {
    puzzle: &'a str,
    pipeline: &'a str,
    text: String,
    level: &'static str,
    /// The display name of the hardest step's technique.
    hardest_name: Option<String>,
    rating: &'a Rating,
}

/// The rating, as `lapiz rate` computes it (the `se` pipeline unless told; other sizes than
/// 9x9 by the solving pipeline, lapiz's own scale, as `lapiz rate` rates them by `default`):
/// the rating's fields, its text (`4.2`, `>11.0`) and its level's name.
pub fn rate_puzzle(req: RateRequest, pipelines: &Pipelines) -> Result<String, ApiError> {
    let puzzle = puzzle_of(&req.puzzle, &req.size)?;
    // 9x9 is rated with SE's scale, other sizes with lapiz's own unless asked
    let role = match (puzzle.layout().n(), &req.pipeline) {
        (9, _) | (_, Some(_)) => Role::Rate,
        (_, None) => Role::Solve,
    };
    let pipeline = pipelines.pick(req.pipeline.as_deref(), role, false)?;
    let trace = puzzle.solve(pipeline);
    let rating = rate(&trace, pipeline).map_err(|e| match e {
        RatingError::Invalid(reason) => {
            ApiError::unprocessable(format!("invalid puzzle: {reason}"))
        }
        RatingError::Stopped { .. } => ApiError::stopped(),
        other => ApiError::unprocessable(other.to_string()),
    })?;
    answer(&Rated {
        puzzle: &trace.puzzle,
        pipeline: pipeline.name(),
        text: rating.rating_text(),
        level: rating.level.name(),
        hardest_name: rating
            .hardest_technique
            .as_deref()
            .map(|id| technique_name(id, pipeline)),
        rating: &rating,
    })
}

/// `POST /api/generate`.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    #[serde(default)]
    level: Option<String>,
    #[serde(default)]
    symmetry: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    clues: Option<usize>,
    #[serde(default)]
    max_clues: Option<usize>,
    #[serde(default)]
    rating: Option<String>,
    #[serde(default)]
    requires: Vec<String>,
    #[serde(default)]
    attempts: Option<u32>,
    #[serde(default)]
    pipeline: Option<String>,
    /// The board's size (default 9).
    #[serde(default)]
    size: Option<u8>,
    #[serde(flatten)]
    sizes: SizeFields,
}

/// The most attempts a request may ask for (`lapiz generate`'s default).
const MAX_ATTEMPTS: u32 = GenerateOptions::DEFAULT_ATTEMPTS;

/// The answer of `/api/generate`.
#[derive(Serialize)]
struct Made<'a> {
    puzzle: String,
    solution: String,
    seed: u64,
    attempts: u32,
    pipeline: &'a str,
    rating: Option<Rating>,
}

/// One puzzle with one solution, as `lapiz generate` makes it (rated by the `se` pipeline unless
/// told), reproducible from the seed the answer gives.
pub fn generate_puzzle(
    mut req: GenerateRequest,
    pipelines: &Pipelines,
) -> Result<String, ApiError> {
    let bad = |e: &dyn std::fmt::Display| ApiError::unprocessable(e.to_string());
    let sized = req.size.is_some_and(|n| n != 9)
        || req.sizes.boxes.is_some()
        || req.sizes.symbols.is_some();
    let n = req.size.unwrap_or(9);
    let layout = match req.sizes.boxes()? {
        Some((r, c)) => Layout::with_box(n, r, c),
        None => Layout::new(n),
    }
    .map_err(|e| bad(&e))?;
    let alphabet = req.sizes.alphabet()?.unwrap_or_default();
    let options = options_of(&mut req, sized, layout)?;
    let seed = req.seed.unwrap_or_else(rand_seed);
    // 9x9 is rated on Sudoku Explainer's scale; other sizes by the solving pipeline, as
    // `/api/rate` rates them
    let role = match sized && req.pipeline.is_none() {
        true => Role::Solve,
        false => Role::Rate,
    };
    let pipeline = pipelines.pick(req.pipeline.as_deref(), role, false)?;
    let made =
        Puzzle::generate(layout, alphabet, &options, pipeline, seed, 0).map_err(generate_error)?;
    answer(&Made {
        puzzle: made.puzzle.to_line(),
        solution: made.solution.to_line(),
        seed,
        attempts: made.attempts,
        pipeline: pipeline.name(),
        rating: made.rating,
    })
}

/// The targets of a generate request (its `requires` taken): on 9x9 always rated, with
/// `lapiz generate`'s attempts; on other sizes rated only for a target, with the generic
/// core's attempts for the clues asked.
fn options_of(
    req: &mut GenerateRequest,
    sized: bool,
    layout: Layout,
) -> Result<GenerateOptions, ApiError> {
    let bad = |e: &dyn std::fmt::Display| ApiError::unprocessable(e.to_string());
    if req.clues.is_some() && req.max_clues.is_some() {
        return Err(ApiError::unprocessable(
            "clues and max_clues cannot both be given",
        ));
    }
    let clues = match (req.clues, req.max_clues) {
        (Some(n), _) => Clues::Exactly(n),
        (None, Some(n)) => Clues::AtMost(n),
        (None, None) => Clues::Minimal,
    };
    Ok(GenerateOptions {
        symmetry: match req.symmetry.as_deref() {
            Some(s) => s.parse::<Symmetry>().map_err(|e| bad(&e))?,
            None => Symmetry::None,
        },
        clues,
        level: req
            .level
            .as_deref()
            .map(str::parse::<Level>)
            .transpose()
            .map_err(|e| bad(&e))?,
        rating: req
            .rating
            .as_deref()
            .map(crate::cli::generate::parse_range)
            .transpose()
            .map_err(|e| bad(&format!("{e:#}")))?,
        requires: std::mem::take(&mut req.requires),
        attempts: Some(attempts_of(
            req.attempts,
            GenerateOptions::default_attempts(layout, clues),
        )?),
        rate: !sized,
    })
}

/// A request's `attempts`, or `default` when it has none: refused outside 1 to
/// [`MAX_ATTEMPTS`].
fn attempts_of(asked: Option<u32>, default: u32) -> Result<u32, ApiError> {
    let attempts = asked.unwrap_or(default);
    if !(1..=MAX_ATTEMPTS).contains(&attempts) {
        return Err(ApiError::unprocessable(format!(
            "attempts must be 1 to {MAX_ATTEMPTS}"
        )));
    }
    Ok(attempts)
}

/// A seed for a request without one: the clock and a counter.
fn rand_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    // below 2^53, so that JavaScript reads it exactly
    (nanos
        ^ COUNTER
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15))
        & ((1 << 53) - 1)
}

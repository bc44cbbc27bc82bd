//! lapiz in WebAssembly: the front door of the library for JavaScript (the `lapiz` npm
//! package, docs/wasm.md). Each export takes a puzzle's text as `lapiz` reads it (any size,
//! any format, pencil marks too) and returns plain data; an error is a JavaScript `Error`
//! carrying lapiz's own message.
//!
//! Results cross to JavaScript as JSON parsed into plain objects, whose TypeScript shapes
//! are declared below (`TYPES`) and named by each export's `unchecked_return_type`.

use js_sys::JSON;
use lapiz::engine::Level;
use lapiz::engine::{Outcome, Rating, RatingError, rate as lib_rate};
use lapiz::html::{PageKind, puzzle_page};
use lapiz::model::{Alphabet, Layout, Stop};
use lapiz::puzzle::generate::{Clues, GenerateOptions, Symmetry};
use lapiz::script::{ScriptHost, ScriptTechnique};
use lapiz::{Pipeline, Puzzle, Trace};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** How to read a puzzle's text: what the text itself does not say. */
export interface ReadOptions {
  /** The symbols: "1-9A", "0-9A", "A-Z", "numbers" (as `--symbols`). */
  symbols?: string;
  /** The box shape as [rows, columns], e.g. [2, 3] on 6x6 (as `--box 2x3`). */
  box?: [number, number];
}

/** A Rhai script technique given as text (docs/scripting.md). */
export interface ScriptSource {
  /** Names the script in errors and in its steps' origin, e.g. "x-wing.rhai". */
  name: string;
  /** The script's text. */
  source: string;
}

/** How to solve: the pipeline, scripts added to it, limits. */
export interface SolveOptions extends ReadOptions {
  /** "default" (lapiz's own), "se" (Sudoku Explainer's), or a pipeline as RON text. */
  pipeline?: string;
  /** Script techniques added to the pipeline in difficulty order. */
  scripts?: ScriptSource[];
  /** Steps at most before the solve ends with outcome StepLimit. */
  stepLimit?: number;
  /** Milliseconds before the solve ends with outcome Stopped (the steps so far kept). */
  timeLimitMs?: number;
}

/** A puzzle as read. */
export interface PuzzleInfo {
  /** Board size: 4, 6, 8, 9, 12, 16 or 25. */
  size: number;
  /** Box shape [rows, columns]. */
  box: [number, number];
  /** The symbols' name ("1-9", "1-9A-G", "A-Y", ...). */
  symbols: string;
  /** The values as one line in the puzzle's symbols, "." for an empty cell. */
  line: string;
  /** Givens. */
  clues: number;
  /** Whether every cell has its value. */
  solved: boolean;
}

/** A candidate as data: digit then cell, "5r3c7" (the digit's number on every size). */
export type Candidate = string;

/** One step: what a technique found, with its explanation. */
export interface Step {
  technique: string;
  difficulty: number;
  placements?: Candidate[];
  eliminations?: Candidate[];
  /** Houses, "r3", "c7", "b5". */
  houses?: string[];
  /** [role, candidates] pairs: Pattern, Base, Cover, Fin, Pivot, Pincer, Link, ColorA, ColorB. */
  highlights?: [string, Candidate[]][];
  chains?: { nodes: { digit: number; cells: string[]; on: boolean; als?: string[] }[]; links: ("Strong" | "Weak")[] }[];
  /** A forcing chain or net's branches (docs/traces.md). */
  net?: { kind: string; branches: unknown[] };
  explanation: string;
}

/** One entry of a trace, in solve order. */
export type Entry =
  | { Step: Step }
  | { Rejected: { step: Step; reason: "NoChange" | { Unsound: { candidate: Candidate } } | { Malformed: { message: string } } } }
  | { Failed: { technique: string; error: string } };

/** How a solve ended. */
export type Outcome =
  | "Solved"
  | { Stuck: { pencil_marks: string[] } }
  | { StepLimit: { limit: number } }
  | { Stopped: { cause: "Cancelled" | "TimeLimit"; pencil_marks: string[] } }
  | { Invalid: { reason: string } };

/** The annotated record of one solve: the trace lapiz writes as RON (docs/traces.md), as data. */
export interface Trace {
  puzzle: string;
  start?: string;
  solution: string | null;
  pipeline: string;
  techniques: string[];
  verified: boolean;
  entries: Entry[];
  outcome: Outcome;
  summary: {
    steps: number;
    rejected: number;
    techniques: { technique: string; count: number }[];
    hardest: { technique: string; difficulty: number } | null;
    uniqueness_assumed?: boolean;
    guesses?: number;
  };
  uniqueness_skipped?: { givens_solutions: number; at_least: boolean; techniques: string[] };
}

/** The next step, as a nudge (where to look) or in full. */
export interface Hint {
  level: "nudge" | "full";
  /** The technique's id and name; null when no step is found. */
  technique: string | null;
  name: string | null;
  /** The words to show. */
  text: string;
  /** The step: in full, or the nudge's (its houses and highlights, nothing it removes). */
  step: Step | null;
}

/** A puzzle's difficulty. On 9x9 Sudoku Explainer's ER, EP and ED; lapiz's level and score on every size. */
export interface Rating {
  /** The puzzle's line. */
  puzzle: string;
  /** ER: the hardest step's difficulty; null when the pipeline got stuck. */
  er: number | null;
  /** EP: the hardest step up to the first placement. */
  ep: number | null;
  /** ED: the first step's difficulty. */
  ed: number | null;
  /** The rating as `lapiz rate` prints it: "7.1", or ">11.0" when stuck. */
  rating: string;
  level: "easy" | "medium" | "hard" | "unfair" | "extreme" | "guessed" | "beyond";
  /** The sum of the step costs. */
  score: number;
  hardestTechnique: string | null;
  steps: number;
  guesses: number;
  solved: boolean;
  /** Steps per technique id, in first-use order. */
  techniques: { technique: string; count: number }[];
}

/** What to generate. */
export interface GenerateOptions extends ReadOptions {
  /** The seed: the same seed and options give the same puzzle. */
  seed: number;
  /** Which puzzle of the seed's sequence (default 0). */
  index?: number;
  /** Board size (default 9). */
  size?: number;
  /** "none", "rot180", "rot90", "horizontal", "vertical", "diagonal", "antidiagonal" (as `--symmetry`). */
  symmetry?: string;
  /** Exactly this many clues; or at most maxClues; minimal otherwise. */
  clues?: number;
  maxClues?: number;
  level?: "easy" | "medium" | "hard" | "unfair" | "extreme";
  /** The hardest step's difficulty range [min, max]. */
  rating?: [number, number];
  /** Technique ids the solve must use. */
  requires?: string[];
  /** Attempts before giving up. */
  attempts?: number;
  /** Rate the puzzle even without a target. */
  rate?: boolean;
}

/** A generated puzzle. */
export interface Generated {
  puzzle: string;
  solution: string;
  attempts: number;
  rating: Rating | null;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// At load: a panic (a bug: bad input is an `Error`, never a panic) writes its message to the
/// console before WebAssembly traps with `unreachable`.
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| console_error(&format!("lapiz: {info}"))));
}

/// A JavaScript `Error` with lapiz's message.
fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// Plain data as a JavaScript object (through JSON).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value).map_err(error)?;
    JSON::parse(&text).map_err(|_| error("lapiz: a result that is not JSON"))
}

/// Options from a JavaScript object (`undefined` and `null` are the defaults).
fn options<T: for<'de> Deserialize<'de> + Default>(value: JsValue) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    let text: String = JSON::stringify(&value)
        .map_err(|_| error("options: not an object JSON can hold"))?
        .into();
    serde_json::from_str(&text).map_err(|e| error(format!("options: {e}")))
}

#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct ReadOpts {
    symbols: Option<String>,
    #[serde(rename = "box")]
    boxes: Option<(u8, u8)>,
}

impl ReadOpts {
    fn read(&self, text: &str) -> Result<Puzzle, JsError> {
        let alphabet = self
            .symbols
            .as_deref()
            .map(|s| s.parse::<Alphabet>().map_err(error))
            .transpose()?;
        Puzzle::read(text, alphabet, self.boxes)
            .map_err(|e| error(format!("cannot read the puzzle: {e}")))
    }
}

#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
struct SolveOpts {
    symbols: Option<String>,
    #[serde(rename = "box")]
    boxes: Option<(u8, u8)>,
    pipeline: Option<String>,
    scripts: Vec<ScriptSrc>,
    step_limit: Option<usize>,
    time_limit_ms: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptSrc {
    name: String,
    source: String,
}

impl SolveOpts {
    fn reader(&self) -> ReadOpts {
        ReadOpts {
            symbols: self.symbols.clone(),
            boxes: self.boxes,
        }
    }

    /// The pipeline: embedded or RON, with the scripts added; `fallback` when none is named.
    fn pipeline(&self, fallback: &str) -> Result<Pipeline, JsError> {
        let name = self.pipeline.as_deref().unwrap_or(fallback);
        let mut pipeline = match Pipeline::embedded(name) {
            Some(p) => p,
            None => Pipeline::from_ron(name, "pipeline").map_err(error)?,
        };
        for script in &self.scripts {
            let technique =
                ScriptTechnique::from_source(&script.source, &script.name, ScriptHost::shared())
                    .map_err(error)?;
            pipeline.add_technique(Box::new(technique)).map_err(error)?;
        }
        if let Some(limit) = self.step_limit {
            pipeline.set_step_limit(limit);
        }
        Ok(pipeline)
    }

    fn stop(&self) -> Stop {
        match self.time_limit_ms {
            Some(ms) if ms.is_finite() && ms >= 0.0 => {
                Stop::after(std::time::Duration::from_secs_f64(ms / 1000.0))
            }
            _ => Stop::never(),
        }
    }

    /// Reads and solves.
    fn solve(&self, text: &str) -> Result<(Puzzle, Trace, Pipeline), JsError> {
        let puzzle = self.reader().read(text)?;
        let pipeline = self.pipeline("default")?;
        let trace = puzzle.solve_until(&pipeline, &self.stop());
        Ok((puzzle, trace, pipeline))
    }
}

/// lapiz's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Reads a puzzle of any size and format (a line, a grid, a pencil-mark grid, a HoDoKu
/// library line) as `lapiz solve` reads it.
#[wasm_bindgen(unchecked_return_type = "PuzzleInfo")]
pub fn read(
    text: &str,
    #[wasm_bindgen(unchecked_param_type = "ReadOptions")] options_: JsValue,
) -> Result<JsValue, JsError> {
    let puzzle = options::<ReadOpts>(options_)?.read(text)?;
    let layout = puzzle.layout();
    #[derive(Serialize)]
    struct Info {
        size: usize,
        #[serde(rename = "box")]
        boxes: (usize, usize),
        symbols: String,
        line: String,
        clues: usize,
        solved: bool,
    }
    to_js(&Info {
        size: layout.n(),
        boxes: (layout.box_rows(), layout.box_cols()),
        symbols: puzzle.alphabet().to_string(),
        line: puzzle.to_line(),
        clues: puzzle.clues(),
        solved: puzzle.is_solved(),
    })
}

/// Solves a puzzle step by step: the trace as data.
#[wasm_bindgen(unchecked_return_type = "Trace")]
pub fn solve(
    puzzle: &str,
    #[wasm_bindgen(unchecked_param_type = "SolveOptions")] options_: JsValue,
) -> Result<JsValue, JsError> {
    let (_, trace, _) = options::<SolveOpts>(options_)?.solve(puzzle)?;
    to_js(&trace)
}

/// Solves a puzzle: the trace as RON, byte for byte what `lapiz solve --format ron` writes.
#[wasm_bindgen(js_name = solveRon)]
pub fn solve_ron(
    puzzle: &str,
    #[wasm_bindgen(unchecked_param_type = "SolveOptions")] options_: JsValue,
) -> Result<String, JsError> {
    let (_, trace, _) = options::<SolveOpts>(options_)?.solve(puzzle)?;
    Ok(trace.to_ron())
}

/// Solves a puzzle: the text trace, as `lapiz solve` prints it.
#[wasm_bindgen(js_name = solveText)]
pub fn solve_text(
    puzzle: &str,
    #[wasm_bindgen(unchecked_param_type = "SolveOptions")] options_: JsValue,
) -> Result<String, JsError> {
    let (p, trace, _) = options::<SolveOpts>(options_)?.solve(puzzle)?;
    let start = p.nine();
    Ok(p.in_its_symbols(|| trace.to_text(start.as_ref())))
}

/// Solves a puzzle: the page with every step drawn, as `lapiz solve --html` writes it.
#[wasm_bindgen(js_name = solveHtml)]
pub fn solve_html(
    puzzle: &str,
    #[wasm_bindgen(unchecked_param_type = "SolveOptions")] options_: JsValue,
) -> Result<String, JsError> {
    let (p, trace, _) = options::<SolveOpts>(options_)?.solve(puzzle)?;
    Ok(puzzle_page(&trace, &p, PageKind::Solve))
}

/// The next step on a grid (with its pencil marks, when the text has them): a nudge (where to
/// look and which technique) or the full step, as `lapiz hint`.
#[wasm_bindgen(unchecked_return_type = "Hint")]
pub fn hint(
    puzzle: &str,
    #[wasm_bindgen(unchecked_param_type = "\"nudge\" | \"full\"")] level: &str,
    #[wasm_bindgen(unchecked_param_type = "SolveOptions")] options_: JsValue,
) -> Result<JsValue, JsError> {
    let full = match level {
        "full" => true,
        "nudge" => false,
        other => return Err(error(format!("level `{other}`: expected full or nudge"))),
    };
    let opts = options::<SolveOpts>(options_)?;
    let input = opts.reader().read(puzzle)?;
    // one step is all a hint needs
    let mut base = opts.pipeline("default")?;
    base.set_step_limit(1);
    let trace = input.solve_until(&base, &opts.stop());
    if let Outcome::Invalid { reason } = &trace.outcome {
        return Err(error(format!("invalid puzzle: {reason}")));
    }
    let step = trace.steps().next().cloned();
    let layout = input.layout();
    let (text, shown) = input.in_its_symbols(|| {
        let text = match (&step, full) {
            (Some(s), true) => {
                let mut t = format!("{}\n", s.explanation);
                if let Some(net) = &s.net {
                    net.write_text(&mut t, 2);
                }
                t.trim_end().to_string()
            }
            (Some(s), false) => base.nudge(s, layout).explanation,
            (None, _) if input.is_solved() => "The grid is already solved.".to_string(),
            (None, _) => format!(
                "No technique of the pipeline `{}` finds a step in this grid.",
                base.name()
            ),
        };
        let shown = match (&step, full) {
            (Some(s), true) => Some(s.clone()),
            (Some(s), false) => Some(base.nudge(s, layout)),
            (None, _) => None,
        };
        (text, shown)
    });
    #[derive(Serialize)]
    struct HintData {
        level: &'static str,
        technique: Option<String>,
        name: Option<String>,
        text: String,
        step: Option<lapiz::Step>,
    }
    to_js(&HintData {
        level: if full { "full" } else { "nudge" },
        technique: step.as_ref().map(|s| s.technique.clone()),
        name: step.as_ref().map(|s| base.name_of(&s.technique)),
        text,
        step: shown,
    })
}

/// A rating as data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RatingData {
    puzzle: String,
    er: Option<f64>,
    ep: Option<f64>,
    ed: Option<f64>,
    rating: String,
    level: &'static str,
    score: u32,
    hardest_technique: Option<String>,
    steps: usize,
    guesses: usize,
    solved: bool,
    techniques: Vec<lapiz::engine::TechniqueCount>,
}

/// A difficulty with one decimal, as lapiz prints it.
fn tenth(d: f32) -> f64 {
    (f64::from(d) * 10.0).round() / 10.0
}

impl RatingData {
    fn of(puzzle: String, r: Rating) -> RatingData {
        RatingData {
            puzzle,
            er: match r.beyond {
                Some(_) => None,
                None => Some(r.hardest.map_or(0.0, tenth)),
            },
            ep: r.pearl.map(tenth),
            ed: r.diamond.map(tenth),
            rating: r.rating_text(),
            level: r.level.name(),
            score: r.score,
            hardest_technique: r.hardest_technique.clone(),
            steps: r.steps,
            guesses: r.guesses,
            solved: r.is_solved(),
            techniques: r.techniques,
        }
    }
}

/// Rates a puzzle as `lapiz rate --se-all`: on 9x9 Sudoku Explainer's ER, EP and ED (the `se`
/// pipeline), on the other sizes lapiz's own scale (`default`), unless a pipeline is given.
#[wasm_bindgen(unchecked_return_type = "Rating")]
pub fn rate(
    puzzle: &str,
    #[wasm_bindgen(unchecked_param_type = "SolveOptions")] options_: JsValue,
) -> Result<JsValue, JsError> {
    let opts = options::<SolveOpts>(options_)?;
    let p = opts.reader().read(puzzle)?;
    let pipeline = opts.pipeline(Pipeline::rating_name(p.layout()))?;
    let trace = p.solve_until(&pipeline, &opts.stop());
    let rating = lib_rate(&trace, &pipeline).map_err(|e| match e {
        RatingError::Invalid(reason) => error(format!("invalid puzzle: {reason}")),
        other => error(other),
    })?;
    to_js(&RatingData::of(trace.puzzle, rating))
}

/// Counts a puzzle's solutions, up to `limit` (default 2: 1 means unique).
#[wasm_bindgen]
pub fn count(
    puzzle: &str,
    limit: Option<u32>,
    #[wasm_bindgen(unchecked_param_type = "ReadOptions")] options_: JsValue,
) -> Result<u32, JsError> {
    let limit = limit.unwrap_or(2);
    if limit == 0 {
        return Err(error("limit must be at least 1"));
    }
    let p = options::<ReadOpts>(options_)?.read(puzzle)?;
    Ok(p.count_solutions(limit))
}

/// The canonical form of a puzzle of any size (equal for equivalent puzzles), as `lapiz
/// canonical`.
#[wasm_bindgen]
pub fn canonical(
    puzzle: &str,
    #[wasm_bindgen(unchecked_param_type = "ReadOptions")] options_: JsValue,
) -> Result<String, JsError> {
    let p = options::<ReadOpts>(options_)?.read(puzzle)?;
    Ok(p.canonical_line())
}

#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
struct GenerateOpts {
    seed: u64,
    index: u64,
    size: Option<u8>,
    #[serde(rename = "box")]
    boxes: Option<(u8, u8)>,
    symbols: Option<String>,
    symmetry: Option<String>,
    clues: Option<usize>,
    max_clues: Option<usize>,
    level: Option<String>,
    rating: Option<(f32, f32)>,
    requires: Vec<String>,
    attempts: Option<u32>,
    rate: bool,
}

/// Generates a puzzle with a unique solution, as `lapiz generate`: the same seed, index and
/// options give the same puzzle on every machine.
#[wasm_bindgen(unchecked_return_type = "Generated")]
pub fn generate(
    #[wasm_bindgen(unchecked_param_type = "GenerateOptions")] options_: JsValue,
) -> Result<JsValue, JsError> {
    let o = options::<GenerateOpts>(options_)?;
    if o.clues.is_some() && o.max_clues.is_some() {
        return Err(error("give clues or maxClues, not both"));
    }
    if o.attempts == Some(0) {
        return Err(error("attempts must be at least 1"));
    }
    let size = o.size.unwrap_or(9);
    if !Layout::SIZES.contains(&size) {
        return Err(error(format!(
            "size {size} is not a size lapiz generates (4, 6, 8, 9, 12, 16, 25)"
        )));
    }
    let layout = match o.boxes {
        Some((r, c)) => Layout::with_box(size, r, c),
        None => Layout::new(size),
    }
    .map_err(error)?;
    let alphabet = o
        .symbols
        .as_deref()
        .map(|s| s.parse::<Alphabet>().map_err(error))
        .transpose()?
        .unwrap_or_default();
    let options = GenerateOptions {
        symmetry: o
            .symmetry
            .as_deref()
            .unwrap_or("none")
            .parse::<Symmetry>()
            .map_err(error)?,
        clues: match (o.clues, o.max_clues) {
            (Some(n), _) => Clues::Exactly(n),
            (None, Some(n)) => Clues::AtMost(n),
            (None, None) => Clues::Minimal,
        },
        level: o
            .level
            .as_deref()
            .map(|l| l.parse::<Level>().map_err(error))
            .transpose()?,
        rating: o.rating,
        requires: o.requires,
        attempts: o.attempts,
        rate: o.rate,
    };
    // rated as `lapiz rate` rates: Sudoku Explainer's ER (`se`) on 9x9, `default` elsewhere
    let pipeline =
        Pipeline::embedded(Pipeline::rating_name(layout)).expect("the embedded rating pipelines");
    let g =
        Puzzle::generate(layout, alphabet, &options, &pipeline, o.seed, o.index).map_err(error)?;
    #[derive(Serialize)]
    struct GeneratedData {
        puzzle: String,
        solution: String,
        attempts: u32,
        rating: Option<RatingData>,
    }
    let line = g.puzzle.to_line();
    to_js(&GeneratedData {
        rating: g.rating.map(|r| RatingData::of(line.clone(), r)),
        puzzle: line,
        solution: g.solution.to_line(),
        attempts: g.attempts,
    })
}

//! `Trace`, `Step`, `Candidate`, `Hint` and `Generated`: what `solve`, `hint` and `generate`
//! give, each drawn in a notebook as the viewer draws it.

use std::sync::Arc;

use pyo3::prelude::*;

use crate::py_repr;
use pyo3::types::PyTuple;

use lapiz::Puzzle;
use lapiz::engine::Pipeline as LibPipeline;
use lapiz::engine::{Entry, GridDisplay, Outcome, Trace as LibTrace};
use lapiz::html::{PageKind, puzzle_page, puzzle_svg, trace_page};
use lapiz::model::{Candidate as LibCandidate, House};
use lapiz::step::Step as LibStep;

use crate::board::{Board, Spec, puzzle_arg, read_back, spec_of, text_of};
use crate::errors::{Kind, error};
use crate::pipeline::{resolve, resolve_with_step_limit, tenth};
use crate::rating::Rating;

/// Text as it may stand in HTML, in an element or a quoted attribute.
fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A page shown inside a notebook, in an `<iframe>` of its own so that its styles and script
/// touch nothing else. The page draws every step (about 9 KB each), so it travels
/// gzip-compressed and the browser unpacks it (`DecompressionStream`): about 20 KB for a
/// 50-step solve instead of 800. Without JavaScript the frame shows `fallback` (text).
fn framed(py: Python<'_>, page: &str, fallback: &str, height: u32) -> PyResult<String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let packed = py.import("gzip")?.call_method1(
        "compress",
        (pyo3::types::PyBytes::new(py, page.as_bytes()), 9),
    )?;
    let base64: String = py
        .import("base64")?
        .call_method1("b64encode", (packed,))?
        .call_method0("decode")?
        .extract()?;
    // unique among the outputs of every run of a notebook
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let id = format!(
        "lapiz-trace-{nanos:x}-{}",
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let fallback = escape_html(&format!(
        "<pre style=\"white-space:pre-wrap\">{}</pre>",
        escape_html(fallback)
    ));
    Ok(format!(
        "<iframe id=\"{id}\" srcdoc=\"{fallback}\" \
         style=\"width:100%;height:{height}px;border:0\" sandbox=\"allow-scripts\"></iframe>\n\
         <script>(async () => {{\n\
         const bytes = Uint8Array.from(atob(\"{base64}\"), (c) => c.charCodeAt(0));\n\
         const unpacked = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(\"gzip\"));\n\
         document.getElementById(\"{id}\").srcdoc = await new Response(unpacked).text();\n\
         }})();</script>"
    ))
}

/// A candidate: a digit in a cell of an `size x size` board (Eureka notation: `5r3c7`).
#[pyclass(frozen, module = "lapiz._lapiz", eq, hash)]
#[derive(PartialEq, Eq, Hash, Clone, Copy)]
pub struct Candidate {
    /// The cell, 0 to `size * size - 1` row by row.
    #[pyo3(get)]
    cell: u16,
    /// The digit, 1 to `size`.
    #[pyo3(get)]
    digit: u8,
    /// The board's side.
    #[pyo3(get)]
    size: u8,
}

impl Candidate {
    /// The candidate `c` of a step on an `n x n` board.
    fn of(c: &LibCandidate, n: usize) -> Candidate {
        Candidate {
            cell: (usize::from(c.cell.row()) * n + usize::from(c.cell.col())) as u16,
            digit: c.digit,
            size: n as u8,
        }
    }
}

#[pymethods]
impl Candidate {
    #[new]
    #[pyo3(signature = (cell, digit, size = 9))]
    fn py_new(cell: &Bound<'_, PyAny>, digit: u8, size: u8) -> PyResult<Candidate> {
        if !lapiz::model::Layout::SIZES.contains(&size) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "size {size} is not a size lapiz plays (4, 6, 8, 9, 12, 16, 25)"
            )));
        }
        if !(1..=size).contains(&digit) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "digit {digit} is not in 1..={size}"
            )));
        }
        let cell = crate::board::cell_arg(cell, usize::from(size))?;
        Ok(Candidate {
            cell: cell as u16,
            digit,
            size,
        })
    }

    /// The row, 1 to `size`.
    #[getter]
    fn row(&self) -> u16 {
        self.cell / u16::from(self.size) + 1
    }

    /// The column, 1 to `size`.
    #[getter]
    fn col(&self) -> u16 {
        self.cell % u16::from(self.size) + 1
    }

    /// The cell's name, `r3c7`.
    #[getter]
    fn cell_name(&self) -> String {
        format!("r{}c{}", self.row(), self.col())
    }

    fn __str__(&self) -> String {
        format!("{}{}", self.digit, self.cell_name())
    }

    fn __repr__(&self) -> String {
        match self.size {
            9 => format!("Candidate({}, {})", py_repr(&self.cell_name()), self.digit),
            n => format!(
                "Candidate({}, {}, size={n})",
                py_repr(&self.cell_name()),
                self.digit
            ),
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let c = slf.get();
        let args = (c.cell, c.digit, c.size).into_pyobject(py)?;
        PyTuple::new(py, [py.get_type::<Candidate>().into_any(), args.into_any()])
    }
}

/// One step of a solve: the technique, its difficulty, the placements and eliminations, and
/// the explanation; drawn on the grid it was found in.
#[pyclass(frozen, module = "lapiz._lapiz")]
pub struct Step {
    inner: LibStep,
    /// The technique's display name.
    name: String,
    /// The position the step was found in (values, pencil marks).
    before: Board,
}

impl Step {
    fn n(&self) -> usize {
        self.before.puzzle.layout().n()
    }
}

#[pymethods]
impl Step {
    /// The technique's id, e.g. `naked-pair`.
    #[getter]
    fn technique(&self) -> &str {
        &self.inner.technique
    }

    /// The technique's display name, e.g. `Naked Pair`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The step's difficulty on Sudoku Explainer's scale.
    #[getter]
    fn difficulty(&self) -> f64 {
        tenth(self.inner.difficulty)
    }

    /// The digits placed.
    #[getter]
    fn placements(&self) -> Vec<Candidate> {
        let n = self.n();
        self.inner
            .placements
            .iter()
            .map(|c| Candidate::of(c, n))
            .collect()
    }

    /// The candidates removed.
    #[getter]
    fn eliminations(&self) -> Vec<Candidate> {
        let n = self.n();
        self.inner
            .eliminations
            .iter()
            .map(|c| Candidate::of(c, n))
            .collect()
    }

    /// The houses involved (`r1`, `c5`, `b9`).
    #[getter]
    fn houses(&self) -> Vec<String> {
        self.inner.houses.iter().map(House::to_string).collect()
    }

    /// The one-line explanation, e.g. `Naked Pair: 1/6 in r1 (r1c2,r1c9) => r1c4,r1c5<>1,6`.
    #[getter]
    fn explanation(&self) -> &str {
        &self.inner.explanation
    }

    /// The board the step was found in.
    #[getter]
    fn board(&self) -> Board {
        Board {
            puzzle: self.before.puzzle.clone(),
            givens: self.before.givens.clone(),
        }
    }

    /// The step drawn on its board, as SVG (the viewer's drawing).
    fn svg(&self) -> String {
        puzzle_svg(&self.before.puzzle, Some(&self.inner))
    }

    fn _repr_svg_(&self) -> String {
        self.svg()
    }

    fn __str__(&self) -> String {
        self.inner.explanation.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Step(technique={}, difficulty={:.1}, explanation={})",
            py_repr(&self.inner.technique),
            self.inner.difficulty,
            py_repr(&self.inner.explanation)
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let s = slf.get();
        let ron = ron::to_string(&s.inner)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let restore = py.get_type::<Step>().getattr("_restore")?;
        let b = &s.before;
        let args = (
            ron,
            s.name.clone(),
            text_of(&b.puzzle),
            spec_of(&b.puzzle),
            b.givens.clone(),
        )
            .into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    #[pyo3(signature = (ron_text, name, before, spec = None, givens = None))]
    fn _restore(
        ron_text: &str,
        name: String,
        before: &str,
        spec: Spec,
        givens: Option<Vec<bool>>,
    ) -> PyResult<Step> {
        let inner: LibStep = ron::from_str(ron_text)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let before = Board {
            puzzle: read_back(before, &spec)?,
            givens,
        };
        Ok(Step {
            inner,
            name,
            before,
        })
    }
}

/// The display name of a technique id: from the pipeline, else the id.
fn technique_name(id: &str, names: &[(String, String)]) -> String {
    names
        .iter()
        .find(|(i, _)| i == id)
        .map_or_else(|| id.to_string(), |(_, n)| n.clone())
}

/// The (id, name) pairs of a pipeline.
fn names_of(pipeline: &LibPipeline) -> Vec<(String, String)> {
    pipeline
        .techniques()
        .iter()
        .map(|t| (t.id().to_string(), t.name().to_string()))
        .collect()
}

/// The record of a solve: its steps, how it ended, its RON and its HTML page.
#[pyclass(frozen, module = "lapiz._lapiz")]
pub struct Trace {
    inner: Arc<LibTrace>,
    /// The puzzle (or board being solved) the solve started from.
    start: Option<Puzzle>,
    /// The pipeline's technique names by id (for `Step.name`).
    names: Vec<(String, String)>,
    /// Its position in a batch (`None` outside one).
    index: Option<usize>,
}

impl Trace {
    pub fn new(
        inner: LibTrace,
        start: Option<Puzzle>,
        pipeline: &LibPipeline,
        index: Option<usize>,
    ) -> Trace {
        Trace {
            inner: Arc::new(inner),
            start,
            names: names_of(pipeline),
            index,
        }
    }

    /// The puzzle the solve started from: as given, else read back from the trace.
    fn start_puzzle(&self) -> Option<Puzzle> {
        self.start.clone().or_else(|| {
            let text = self.inner.start.as_deref().unwrap_or(&self.inner.puzzle);
            Puzzle::read(text, None, None).ok()
        })
    }
}

#[pymethods]
impl Trace {
    /// The puzzle's givens as one line (in the puzzle's symbols).
    #[getter]
    fn puzzle(&self) -> &str {
        &self.inner.puzzle
    }

    /// Always `True` (an `ErrorRecord` is `False`).
    #[getter]
    fn ok(&self) -> bool {
        true
    }

    /// The item's position in the batch's input (`None` outside a batch).
    #[getter]
    fn index(&self) -> Option<usize> {
        self.index
    }

    /// How the solve ended: `solved`, `stuck`, `step-limit`, `stopped` or `invalid`.
    #[getter]
    fn status(&self) -> &'static str {
        match self.inner.outcome {
            Outcome::Solved => "solved",
            Outcome::Stuck { .. } => "stuck",
            Outcome::StepLimit { .. } => "step-limit",
            Outcome::Stopped { .. } => "stopped",
            Outcome::Invalid { .. } => "invalid",
        }
    }

    /// Whether the puzzle was solved.
    #[getter]
    fn solved(&self) -> bool {
        self.inner.is_solved()
    }

    /// Whether it was solved with a guess.
    #[getter]
    fn guessed(&self) -> bool {
        self.inner.is_guessed()
    }

    /// Why the puzzle is invalid (`None` unless `status` is `invalid`).
    #[getter]
    fn reason(&self) -> Option<String> {
        match &self.inner.outcome {
            Outcome::Invalid { reason } => Some(reason.clone()),
            _ => None,
        }
    }

    /// The solution as one line (`None` for an invalid puzzle).
    #[getter]
    fn solution(&self) -> Option<String> {
        self.inner.solution.clone()
    }

    /// The pipeline's name.
    #[getter]
    fn pipeline(&self) -> &str {
        &self.inner.pipeline
    }

    /// The applied steps, each with the board it was found in.
    #[getter]
    fn steps(&self) -> Vec<Step> {
        let start = self
            .start_puzzle()
            .unwrap_or_else(|| Puzzle::from_nine(&lapiz::Grid::default()));
        let step = |s: &LibStep, before: Board| Step {
            inner: s.clone(),
            name: technique_name(&s.technique, &self.names),
            before,
        };
        let mut out = Vec::new();
        if let Some(mut grid) = start.nine() {
            for s in self.inner.steps() {
                out.push(step(s, Board::new(Puzzle::from_nine(&grid))));
                s.apply(&mut grid);
            }
            return out;
        }
        // another size: the values and pencil marks, the steps applied to them
        let n = start.layout().n();
        let givens: Vec<bool> = start.values().iter().map(|&v| v != 0).collect();
        let (mut values, mut marks) = (start.values().to_vec(), start.candidates());
        let at = |c: &LibCandidate| usize::from(c.cell.row()) * n + usize::from(c.cell.col());
        for s in self.inner.steps() {
            let before = Board {
                puzzle: start.with_values_and_marks(values.clone(), marks.clone()),
                givens: Some(givens.clone()),
            };
            out.push(step(s, before));
            for p in &s.placements {
                let i = at(p);
                if values[i] == 0 {
                    values[i] = p.digit;
                    marks[i] = 0;
                }
            }
            for e in &s.eliminations {
                marks[at(e)] &= !(1 << (e.digit - 1));
            }
        }
        out
    }

    /// Techniques skipped after a rejected step or a failure: `(technique, why)` pairs.
    #[getter]
    fn rejected(&self) -> Vec<(String, String)> {
        self.inner
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Step(_) => None,
                Entry::Rejected { step, reason } => {
                    Some((step.technique.clone(), format!("{reason:?}")))
                }
                Entry::Failed { technique, error } => Some((technique.clone(), error.clone())),
            })
            .collect()
    }

    /// The id of the hardest technique used.
    #[getter]
    fn hardest_technique(&self) -> Option<String> {
        self.inner
            .summary
            .hardest
            .as_ref()
            .map(|h| h.technique.clone())
    }

    /// The hardest step's difficulty.
    #[getter]
    fn hardest_difficulty(&self) -> Option<f64> {
        self.inner
            .summary
            .hardest
            .as_ref()
            .map(|h| tenth(h.difficulty))
    }

    /// The trace as RON, as `lapiz solve --format ron` writes it.
    #[getter]
    fn ron(&self) -> String {
        self.inner.to_ron()
    }

    /// The solve as one self-contained HTML page, as `lapiz solve --format html` writes it.
    #[getter]
    fn html(&self) -> String {
        match &self.start {
            Some(start) => puzzle_page(&self.inner, start, PageKind::Solve),
            None => trace_page(&self.inner, None, PageKind::Solve),
        }
    }

    /// The trace as text for people, as `lapiz solve` prints it (another size than 9x9 opens
    /// with its size, symbols and clues).
    fn text(&self) -> String {
        let Some(start) = self.start_puzzle() else {
            return self.inner.to_text(None);
        };
        match start.nine() {
            Some(grid) => self.inner.to_text(Some(&grid)),
            None => {
                let (layout, symbols) = (start.layout(), start.alphabet());
                let head = format!("{layout}, symbols {symbols}, {} clues\n", start.clues());
                // forcing nets are worded here, in the puzzle's symbols as the steps were
                let body = start
                    .in_its_symbols(|| self.inner.to_text_with(None, GridDisplay::Stuck, false));
                format!("{head}{body}")
            }
        }
    }

    /// The rating of this solve (raises `InvalidPuzzleError` for an invalid puzzle); the
    /// pipeline's hardest technique sets the `>x.x` of a stuck solve.
    #[pyo3(signature = (pipeline = None))]
    fn rating(&self, pipeline: Option<&Bound<'_, PyAny>>) -> PyResult<Rating> {
        let p = resolve(pipeline, &self.inner.pipeline_name_or("default"))?;
        lapiz::engine::rate(&self.inner, &p)
            .map(|r| Rating::new(self.inner.puzzle.clone(), r, self.index))
            .map_err(|e| error(Kind::Invalid, e.to_string()))
    }

    /// Reads a trace back from its RON.
    #[staticmethod]
    fn from_ron(text: &str) -> PyResult<Trace> {
        let inner = LibTrace::from_ron(text).map_err(|e| error(Kind::Other, e.to_string()))?;
        let names = LibPipeline::embedded(&inner.pipeline)
            .map(|p| names_of(&p))
            .unwrap_or_default();
        Ok(Trace {
            inner: Arc::new(inner),
            start: None,
            names,
            index: None,
        })
    }

    fn __len__(&self) -> usize {
        self.inner.summary.steps
    }

    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let fallback = format!(
            "The solve's page opens with JavaScript (trace.html holds it whole).\n\n{}",
            self.text()
        );
        framed(py, &self.html(), &fallback, 720)
    }

    fn __repr__(&self) -> String {
        format!(
            "Trace(puzzle={}, status={}, steps={})",
            py_repr(&self.inner.puzzle),
            py_repr(self.status()),
            self.inner.summary.steps
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let t = slf.get();
        let restore = py.get_type::<Trace>().getattr("_restore")?;
        let args = (
            t.inner.to_ron(),
            t.start.as_ref().map(text_of),
            t.names.clone(),
            t.index,
            t.start.as_ref().and_then(spec_of),
        )
            .into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    #[pyo3(signature = (ron_text, start, names, index, spec = None))]
    fn _restore(
        ron_text: &str,
        start: Option<String>,
        names: Vec<(String, String)>,
        index: Option<usize>,
        spec: Spec,
    ) -> PyResult<Trace> {
        let inner = LibTrace::from_ron(ron_text).map_err(|e| error(Kind::Other, e.to_string()))?;
        let start = start.map(|s| read_back(&s, &spec)).transpose()?;
        Ok(Trace {
            inner: Arc::new(inner),
            start,
            names,
            index,
        })
    }
}

/// The name of the pipeline a trace was solved with, when it is an embedded one.
trait PipelineName {
    fn pipeline_name_or(&self, fallback: &str) -> String;
}

impl PipelineName for LibTrace {
    fn pipeline_name_or(&self, fallback: &str) -> String {
        if lapiz::Pipeline::EMBEDDED.contains(&self.pipeline.as_str()) {
            self.pipeline.clone()
        } else {
            fallback.to_string()
        }
    }
}

/// Solves a puzzle of any size (any form lapiz reads, or a `Board`) with the `default`
/// pipeline unless told, and gives the explained trace. A puzzle that cannot be read raises `ParseError`, one
/// that is not a proper puzzle (a clash, no or several solutions) `InvalidPuzzleError`.
/// `time_limit` (seconds) stops the solve as `--time-limit` does: the trace's status is then
/// `stopped`, with the steps found before.
#[pyfunction]
#[pyo3(signature = (puzzle, pipeline = None, *, time_limit = None))]
pub fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    pipeline: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<Trace> {
    let deadline = crate::interrupt::deadline(time_limit)?;
    let puzzle = puzzle_arg(puzzle)?;
    let pipeline = resolve(pipeline, "default")?;
    let trace = crate::interrupt::interruptible(py, deadline, || puzzle.solve(&pipeline))?;
    if let Outcome::Invalid { reason } = &trace.outcome {
        return Err(error(Kind::Invalid, format!("invalid puzzle: {reason}")));
    }
    Ok(Trace::new(trace, Some(puzzle), &pipeline, None))
}

/// The next step of a puzzle or of a grid being solved: in full, or (`level="nudge"`) only the
/// technique and where to look.
#[pyclass(frozen, module = "lapiz._lapiz")]
pub struct Hint {
    /// `full` or `nudge`.
    #[pyo3(get)]
    level: &'static str,
    /// What `lapiz hint` prints.
    #[pyo3(get)]
    text: String,
    /// The technique's id (`None` when no step was found).
    #[pyo3(get)]
    technique: Option<String>,
    /// The technique's display name.
    #[pyo3(get)]
    name: Option<String>,
    /// The step in full (a full hint only).
    step: Option<LibStep>,
    /// The step as the nudge shows it (its houses, no candidates).
    shown: Option<LibStep>,
    /// The puzzle (or board being solved) the hint is for.
    puzzle: Puzzle,
    /// The trace of the one-step solve (for the page).
    trace: Arc<LibTrace>,
}

#[pymethods]
impl Hint {
    /// The step in full (`None` for a nudge, or when no step was found).
    #[getter]
    fn step(&self) -> Option<Step> {
        self.step.as_ref().map(|s| Step {
            inner: s.clone(),
            name: self.name.clone().unwrap_or_default(),
            before: Board::new(self.puzzle.clone()),
        })
    }

    /// The hint as a page, as `lapiz hint --format html` writes it.
    #[getter]
    fn html(&self) -> String {
        let mut trace = (*self.trace).clone();
        if let (Some(shown), Some(Entry::Step(s))) = (
            &self.shown,
            trace
                .entries
                .iter_mut()
                .find(|e| matches!(e, Entry::Step(_))),
        ) {
            *s = shown.clone();
        }
        puzzle_page(&trace, &self.puzzle, PageKind::Hint)
    }

    /// The hint drawn on the board, as SVG.
    fn svg(&self) -> String {
        puzzle_svg(&self.puzzle, self.shown.as_ref().or(self.step.as_ref()))
    }

    fn _repr_svg_(&self) -> String {
        self.svg()
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Hint(level={}, text={})",
            py_repr(self.level),
            py_repr(&self.text)
        )
    }
}

/// The next step of a puzzle or of a grid with pencil marks (`default` pipeline unless told):
/// `level="full"` gives the step's explanation, `level="nudge"` only the technique and where to
/// look, as `lapiz hint --level nudge`. `time_limit` (seconds) stops the search as
/// `--time-limit` does.
#[pyfunction]
#[pyo3(signature = (puzzle, level = "full", pipeline = None, *, time_limit = None))]
pub fn hint(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    level: &str,
    pipeline: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<Hint> {
    let deadline = crate::interrupt::deadline(time_limit)?;
    let level: &'static str = match level {
        "full" => "full",
        "nudge" => "nudge",
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "level `{other}`: expected full or nudge"
            )));
        }
    };
    let input = puzzle_arg(puzzle)?;
    // one step is all a hint needs
    let base = resolve_with_step_limit(pipeline, "default", 1)?;
    let names = names_of(&base);
    let trace = crate::interrupt::interruptible(py, deadline, || input.solve(&base))?;
    if let Outcome::Invalid { reason } = &trace.outcome {
        return Err(error(Kind::Invalid, format!("invalid puzzle: {reason}")));
    }
    let step = trace.steps().next().cloned();
    let name = step.as_ref().map(|s| technique_name(&s.technique, &names));
    let layout = input.layout();
    // a nudge and a net are worded here, in the puzzle's symbols as the step was
    let (text, shown) = input.in_its_symbols(|| {
        let text = match (&step, level) {
            (Some(s), "full") => {
                let mut t = format!("{}\n", s.explanation);
                if let Some(net) = &s.net {
                    net.write_text(&mut t, 2);
                }
                t.trim_end().to_string()
            }
            (Some(s), _) => base.nudge(s, layout).explanation,
            (None, _) if input.is_solved() => "The grid is already solved.".to_string(),
            (None, _) => format!(
                "No technique of the pipeline `{}` finds a step in this grid.",
                base.name()
            ),
        };
        let shown = match (&step, level) {
            (Some(s), "nudge") => Some(base.nudge(s, layout)),
            _ => None,
        };
        (text, shown)
    });
    Ok(Hint {
        level,
        technique: step.as_ref().map(|s| s.technique.clone()),
        name,
        step: if level == "full" { step } else { None },
        shown,
        text,
        puzzle: input,
        trace: Arc::new(trace),
    })
}

/// A generated puzzle: its line, its solution, its rating when asked for, the attempts it took.
#[pyclass(frozen, module = "lapiz._lapiz")]
pub struct Generated {
    /// Its index in the run (with the seed, it makes the same puzzle again).
    #[pyo3(get)]
    pub index: u64,
    /// The puzzle as one line (in the symbols asked for).
    #[pyo3(get)]
    pub puzzle: String,
    /// Its solution.
    #[pyo3(get)]
    pub solution: String,
    /// Attempts it took (1 = the first).
    #[pyo3(get)]
    pub attempts: u32,
    /// Its rating, when a target or `rate=True` asked for it.
    #[pyo3(get)]
    pub rating: Option<Py<Rating>>,
    /// How the lines read back (symbols, box shape; `None` on 9x9).
    pub spec: Spec,
}

#[pymethods]
impl Generated {
    /// The board's side.
    #[getter]
    fn size(&self) -> usize {
        match &self.spec {
            None => 9,
            Some(_) => self.board().map_or(0, |b| b.puzzle.layout().n()),
        }
    }

    /// The puzzle as a `Board`.
    fn board(&self) -> PyResult<Board> {
        Ok(Board::new(read_back(&self.puzzle, &self.spec)?))
    }

    fn _repr_svg_(&self) -> PyResult<String> {
        Ok(puzzle_svg(&self.board()?.puzzle, None))
    }

    fn __str__(&self) -> String {
        self.puzzle.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Generated(index={}, puzzle={}, attempts={})",
            self.index,
            py_repr(&self.puzzle),
            self.attempts
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let g = slf.get();
        let restore = py.get_type::<Generated>().getattr("_restore")?;
        let args = (
            g.index,
            g.puzzle.clone(),
            g.solution.clone(),
            g.attempts,
            g.rating.as_ref().map(|r| r.clone_ref(py)),
            g.spec.clone(),
        )
            .into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    #[pyo3(signature = (index, puzzle, solution, attempts, rating, spec = None))]
    fn _restore(
        index: u64,
        puzzle: String,
        solution: String,
        attempts: u32,
        rating: Option<Py<Rating>>,
        spec: Spec,
    ) -> Generated {
        Generated {
            index,
            puzzle,
            solution,
            attempts,
            rating,
            spec,
        }
    }
}

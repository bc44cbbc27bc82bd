//! `Trace`, `Step`, `Candidate`, `Hint` and `Generated`: what `solve`, `hint` and `generate`
//! give, each drawn in a notebook as the viewer draws it.

use std::sync::Arc;

use pyo3::prelude::*;

use crate::py_repr;
use pyo3::types::PyTuple;

use lapiz::engine::solve_grid;
use lapiz::model::House;
use lapiz::model::Layout;
use lapiz::model::{Candidate as LibCandidate, Grid};
use lapiz::html::{PageKind, grid_svg, trace_page};
use lapiz::text::parse_puzzle;
use lapiz::engine::Pipeline as LibPipeline;
use lapiz::step::Step as LibStep;
use lapiz::engine::{Entry, Outcome, Trace as LibTrace};

use crate::board::{Board, grid_arg, text_of};
use crate::errors::{Kind, error};
use crate::pipeline::{resolve, resolve_with_step_limit, tenth};
use crate::rating::Rating;

/// A page shown inside a notebook: in an `<iframe>` of its own, so that its styles and script
/// touch nothing else.
fn framed(page: &str, height: u32) -> String {
    let escaped = page.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<iframe srcdoc=\"{escaped}\" style=\"width:100%;height:{height}px;border:0\" \
         sandbox=\"allow-scripts\"></iframe>"
    )
}

/// A candidate: a digit in a cell (Eureka notation: `5r3c7`).
#[pyclass(frozen, module = "lapiz._lapiz", eq, hash)]
#[derive(PartialEq, Eq, Hash, Clone, Copy)]
pub struct Candidate {
    /// The cell, 0 to 80 row by row.
    #[pyo3(get)]
    cell: u8,
    /// The digit, 1 to 9.
    #[pyo3(get)]
    digit: u8,
}

impl From<LibCandidate> for Candidate {
    fn from(c: LibCandidate) -> Candidate {
        Candidate {
            cell: c.cell.index() as u8,
            digit: c.digit,
        }
    }
}

#[pymethods]
impl Candidate {
    #[new]
    fn py_new(cell: &Bound<'_, PyAny>, digit: u8) -> PyResult<Candidate> {
        if !(1..=9).contains(&digit) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "digit {digit} is not in 1..=9"
            )));
        }
        let cell = crate::board::cell_arg(cell)?;
        Ok(Candidate {
            cell: cell.index() as u8,
            digit,
        })
    }

    /// The row, 1 to 9.
    #[getter]
    fn row(&self) -> u8 {
        self.cell / 9 + 1
    }

    /// The column, 1 to 9.
    #[getter]
    fn col(&self) -> u8 {
        self.cell % 9 + 1
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
        format!("Candidate({}, {})", py_repr(&self.cell_name()), self.digit)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let c = slf.get();
        let args = (c.cell, c.digit).into_pyobject(py)?;
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
    /// The grid the step was found in.
    before: Grid,
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
        self.inner.placements.iter().map(|&c| c.into()).collect()
    }

    /// The candidates removed.
    #[getter]
    fn eliminations(&self) -> Vec<Candidate> {
        self.inner.eliminations.iter().map(|&c| c.into()).collect()
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

    /// The grid the step was found in.
    #[getter]
    fn board(&self) -> Board {
        Board {
            grid: self.before.clone(),
        }
    }

    /// The step drawn on its grid, as SVG (the viewer's drawing).
    fn svg(&self) -> String {
        grid_svg(&self.before, Some(&self.inner))
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
        let args = (ron, s.name.clone(), text_of(&s.before)).into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    fn _restore(ron_text: &str, name: String, before: &str) -> PyResult<Step> {
        let inner: LibStep = ron::from_str(ron_text)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let before = parse_puzzle(before).map_err(|e| error(Kind::Parse, e.to_string()))?;
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
    /// The grid the solve started from.
    start: Option<Grid>,
    /// The pipeline's technique names by id (for `Step.name`).
    names: Vec<(String, String)>,
    /// Its position in a batch (`None` outside one).
    index: Option<usize>,
}

impl Trace {
    pub fn new(
        inner: LibTrace,
        start: Option<Grid>,
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

    fn start_grid(&self) -> Option<Grid> {
        self.start.clone().or_else(|| {
            let text = self.inner.start.as_deref().unwrap_or(&self.inner.puzzle);
            parse_puzzle(text).ok()
        })
    }
}

#[pymethods]
impl Trace {
    /// The puzzle's givens as an 81-character line.
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

    /// How the solve ended: `solved`, `stuck`, `step-limit` or `invalid`.
    #[getter]
    fn status(&self) -> &'static str {
        match self.inner.outcome {
            Outcome::Solved => "solved",
            Outcome::Stuck { .. } => "stuck",
            Outcome::StepLimit { .. } => "step-limit",
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

    /// The solution as an 81-character line (`None` for an invalid puzzle).
    #[getter]
    fn solution(&self) -> Option<String> {
        self.inner.solution.clone()
    }

    /// The pipeline's name.
    #[getter]
    fn pipeline(&self) -> &str {
        &self.inner.pipeline
    }

    /// The applied steps, each with the grid it was found in.
    #[getter]
    fn steps(&self) -> Vec<Step> {
        let mut grid = self.start_grid().unwrap_or_default();
        let mut out = Vec::new();
        for s in self.inner.steps() {
            out.push(Step {
                inner: s.clone(),
                name: technique_name(&s.technique, &self.names),
                before: grid.clone(),
            });
            s.apply(&mut grid);
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
        trace_page(&self.inner, self.start.as_ref(), PageKind::Solve)
    }

    /// The trace as text for people, as `lapiz solve` prints it.
    fn text(&self) -> String {
        self.inner.to_text(self.start_grid().as_ref())
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

    fn _repr_html_(&self) -> String {
        framed(&self.html(), 720)
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
        )
            .into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    fn _restore(
        ron_text: &str,
        start: Option<String>,
        names: Vec<(String, String)>,
        index: Option<usize>,
    ) -> PyResult<Trace> {
        let inner = LibTrace::from_ron(ron_text).map_err(|e| error(Kind::Other, e.to_string()))?;
        let start = match start {
            Some(s) => Some(parse_puzzle(&s).map_err(|e| error(Kind::Parse, e.to_string()))?),
            None => None,
        };
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

/// Solves a puzzle (any form lapiz reads, or a `Board`) with the `default` pipeline unless
/// told, and gives the explained trace. A puzzle that cannot be read raises `ParseError`, one
/// that is not a proper puzzle (a clash, no or several solutions) `InvalidPuzzleError`.
#[pyfunction]
#[pyo3(signature = (puzzle, pipeline = None))]
pub fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    pipeline: Option<&Bound<'_, PyAny>>,
) -> PyResult<Trace> {
    let grid = grid_arg(puzzle)?;
    let pipeline = resolve(pipeline, "default")?;
    let trace = py.detach(|| solve_grid(&grid, &pipeline));
    if let Outcome::Invalid { reason } = &trace.outcome {
        return Err(error(Kind::Invalid, format!("invalid puzzle: {reason}")));
    }
    Ok(Trace::new(trace, Some(grid), &pipeline, None))
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
    /// The grid the hint is for.
    grid: Grid,
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
            before: self.grid.clone(),
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
        trace_page(&trace, Some(&self.grid), PageKind::Hint)
    }

    /// The hint drawn on the grid, as SVG.
    fn svg(&self) -> String {
        grid_svg(&self.grid, self.shown.as_ref().or(self.step.as_ref()))
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
/// look, as `lapiz hint --level nudge`.
#[pyfunction]
#[pyo3(signature = (puzzle, level = "full", pipeline = None))]
pub fn hint(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    level: &str,
    pipeline: Option<&Bound<'_, PyAny>>,
) -> PyResult<Hint> {
    let level: &'static str = match level {
        "full" => "full",
        "nudge" => "nudge",
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "level `{other}`: expected full or nudge"
            )));
        }
    };
    let grid = grid_arg(puzzle)?;
    // one step is all a hint needs
    let base = resolve_with_step_limit(pipeline, "default", 1)?;
    let names = names_of(&base);
    let trace = py.detach(|| solve_grid(&grid, &base));
    if let Outcome::Invalid { reason } = &trace.outcome {
        return Err(error(Kind::Invalid, format!("invalid puzzle: {reason}")));
    }
    let step = trace.steps().next().cloned();
    let name = step.as_ref().map(|s| technique_name(&s.technique, &names));
    let text = match (&step, level) {
        (Some(s), "full") => {
            let mut t = format!("{}\n", s.explanation);
            if let Some(net) = &s.net {
                net.write_text(&mut t, 2);
            }
            t.trim_end().to_string()
        }
        (Some(s), _) => base.nudge(s, Layout::NINE).explanation,
        (None, _) if grid.is_solved() => "The grid is already solved.".to_string(),
        (None, _) => format!(
            "No technique of the pipeline `{}` finds a step in this grid.",
            base.name()
        ),
    };
    let shown = match (&step, level) {
        (Some(s), "nudge") => Some(base.nudge(s, Layout::NINE)),
        _ => None,
    };
    Ok(Hint {
        level,
        technique: step.as_ref().map(|s| s.technique.clone()),
        name,
        step: if level == "full" { step } else { None },
        shown,
        text,
        grid,
        trace: Arc::new(trace),
    })
}

/// A generated puzzle: its line, its solution, its rating when asked for, the attempts it took.
#[pyclass(frozen, module = "lapiz._lapiz", get_all)]
pub struct Generated {
    /// Its index in the run (with the seed, it makes the same puzzle again).
    pub index: u64,
    /// The puzzle as an 81-character line.
    pub puzzle: String,
    /// Its solution.
    pub solution: String,
    /// Attempts it took (1 = the first).
    pub attempts: u32,
    /// Its rating, when a target or `rate=True` asked for it.
    pub rating: Option<Py<Rating>>,
}

#[pymethods]
impl Generated {
    /// The puzzle as a `Board`.
    fn board(&self) -> PyResult<Board> {
        Ok(Board {
            grid: parse_puzzle(&self.puzzle).map_err(|e| error(Kind::Parse, e.to_string()))?,
        })
    }

    fn _repr_svg_(&self) -> PyResult<String> {
        Ok(grid_svg(&self.board()?.grid, None))
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
        )
            .into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    fn _restore(
        index: u64,
        puzzle: String,
        solution: String,
        attempts: u32,
        rating: Option<Py<Rating>>,
    ) -> Generated {
        Generated {
            index,
            puzzle,
            solution,
            attempts,
            rating,
        }
    }
}

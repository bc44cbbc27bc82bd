//! `Rating` and `ErrorRecord`: a puzzle's rating, or why a batch item has none, each able to
//! write itself as the row `lapiz rate` prints (TSV or CSV, with or without SE's EP and ED).
//! The table's wording is the command line's (`src/cli/table.rs`), so that a batch rated here
//! gives the same bytes as `lapiz rate --file`; the tests compare the two.

use pyo3::prelude::*;

use crate::py_repr;
use pyo3::types::{PyDict, PyTuple};

use std::sync::Arc;

use lapiz::Puzzle;
use lapiz::engine::Pipeline as LibPipeline;
use lapiz::engine::{Rating as LibRating, RatingError, rate as lib_rate};
use lapiz::tools::table::{self, TableFormat};

use crate::board::{Input, arg_error};
use crate::errors::{Kind, error};
use crate::pipeline::{resolve, tenth};

/// A table format argument: `tsv` or `csv`.
fn format_arg(format: &str) -> PyResult<TableFormat> {
    format
        .parse()
        .map_err(pyo3::exceptions::PyValueError::new_err)
}

/// The header line of the rating table, as `lapiz rate` prints it (`--se-all` adds `pearl`
/// and `diamond`; `format` is `tsv` or `csv`).
#[pyfunction]
#[pyo3(signature = (se_all = false, format = "tsv"))]
pub fn rating_header(se_all: bool, format: &str) -> PyResult<String> {
    Ok(table::row(format_arg(format)?, &table::header(se_all)))
}

/// The rating of a puzzle: Sudoku Explainer's ER (the hardest step), EP and ED, a level, a
/// score, the hardest technique and the technique counts.
#[pyclass(frozen, module = "lapiz._lapiz")]
pub struct Rating {
    /// The puzzle's line (in its symbols).
    puzzle: String,
    inner: LibRating,
    /// Its position in a batch (`None` outside one).
    index: Option<usize>,
}

impl Rating {
    pub fn new(puzzle: String, inner: LibRating, index: Option<usize>) -> Rating {
        Rating {
            puzzle,
            inner,
            index,
        }
    }
}

#[pymethods]
impl Rating {
    /// The puzzle rated, as one line (in its symbols).
    #[getter]
    fn puzzle(&self) -> &str {
        &self.puzzle
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

    /// ER: the hardest step's difficulty; `None` when the pipeline got stuck (see `rating`).
    #[getter]
    fn er(&self) -> Option<f64> {
        match self.inner.beyond {
            Some(_) => None,
            None => Some(self.inner.hardest.map_or(0.0, tenth)),
        }
    }

    /// EP: the hardest step up to the first placement.
    #[getter]
    fn ep(&self) -> Option<f64> {
        self.inner.pearl.map(tenth)
    }

    /// ED: the first step's difficulty.
    #[getter]
    fn ed(&self) -> Option<f64> {
        self.inner.diamond.map(tenth)
    }

    /// The rating column as `lapiz rate` writes it: `7.1`, or `>11.0` when the pipeline got
    /// stuck.
    #[getter]
    fn rating(&self) -> String {
        self.inner.rating_text()
    }

    /// easy, medium, hard, unfair, extreme, guessed or beyond.
    #[getter]
    fn level(&self) -> &'static str {
        self.inner.level.name()
    }

    /// The sum of the step costs.
    #[getter]
    fn score(&self) -> u32 {
        self.inner.score
    }

    /// The id of the hardest technique used.
    #[getter]
    fn hardest_technique(&self) -> Option<String> {
        self.inner.hardest_technique.clone()
    }

    /// Steps applied.
    #[getter]
    fn steps(&self) -> usize {
        self.inner.steps
    }

    /// Guesses made (only with a pipeline that has `guess`).
    #[getter]
    fn guesses(&self) -> usize {
        self.inner.guesses
    }

    /// Whether the pipeline solved the puzzle.
    #[getter]
    fn solved(&self) -> bool {
        self.inner.is_solved()
    }

    /// The steps per technique id, in first-use order.
    #[getter]
    fn techniques<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for t in &self.inner.techniques {
            d.set_item(&t.technique, t.count)?;
        }
        Ok(d)
    }

    /// The row `lapiz rate` prints for this puzzle (`se_all` as `--se-all`; `format` `tsv` or
    /// `csv`), without the line end.
    #[pyo3(signature = (se_all = false, format = "tsv"))]
    fn row(&self, se_all: bool, format: &str) -> PyResult<String> {
        let format = format_arg(format)?;
        let rating = Ok(self.inner.clone());
        Ok(table::rating_row(format, &self.puzzle, &rating, se_all))
    }

    fn __repr__(&self) -> String {
        format!(
            "Rating(puzzle={}, rating={}, ep={}, ed={}, level={}, hardest_technique={})",
            py_repr(&self.puzzle),
            py_repr(&self.inner.rating_text()),
            self.inner
                .pearl
                .map_or("None".into(), |v| format!("{v:.1}")),
            self.inner
                .diamond
                .map_or("None".into(), |v| format!("{v:.1}")),
            py_repr(self.inner.level.name()),
            self.inner
                .hardest_technique
                .as_deref()
                .map_or("None".into(), py_repr),
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Rating>().is_ok_and(|o| {
            let o = o.get();
            o.puzzle == self.puzzle && o.inner == self.inner && o.index == self.index
        })
    }

    /// Pickles as RON (the library's serde form of a rating).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let r = slf.get();
        let ron = ron::to_string(&r.inner)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let restore = py.get_type::<Rating>().getattr("_restore")?;
        let args = (r.puzzle.clone(), ron, r.index).into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    fn _restore(puzzle: String, ron_text: &str, index: Option<usize>) -> PyResult<Rating> {
        let inner: LibRating = ron::from_str(ron_text)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        Ok(Rating::new(puzzle, inner, index))
    }
}

/// A batch item that has no result: the input as the table shows it, and why (lapiz's
/// message). It takes the item's place in the results, so no line is ever lost.
#[pyclass(frozen, module = "lapiz._lapiz", get_all)]
pub struct ErrorRecord {
    /// The item's position in the batch's input.
    index: Option<usize>,
    /// The puzzle text as given (or an excerpt of a line that cannot be read).
    puzzle: String,
    /// Why: lapiz's message, as the `lapiz rate` row gives it.
    message: String,
    /// `parse` (cannot be read), `invalid` (a clash, no or several solutions) or `input` (not
    /// a puzzle at all).
    kind: &'static str,
}

impl ErrorRecord {
    pub fn new(index: Option<usize>, puzzle: String, message: String, kind: Kind) -> ErrorRecord {
        ErrorRecord {
            index,
            puzzle,
            message,
            kind: kind.record_name(),
        }
    }
}

#[pymethods]
impl ErrorRecord {
    /// Always `False` (a result is `True`).
    #[getter]
    fn ok(&self) -> bool {
        false
    }

    /// The row `lapiz rate` prints for this line: `invalid`, with the reason last.
    #[pyo3(signature = (se_all = false, format = "tsv"))]
    fn row(&self, se_all: bool, format: &str) -> PyResult<String> {
        let format = format_arg(format)?;
        let why = Err(self.message.clone());
        Ok(table::rating_row(format, &self.puzzle, &why, se_all))
    }

    /// The exception a single call raises for this input.
    fn exception(&self) -> PyErr {
        error(Kind::from_record_name(self.kind), self.message.clone())
    }

    fn __repr__(&self) -> String {
        format!(
            "ErrorRecord(index={}, puzzle={}, kind={}, message={})",
            self.index.map_or("None".into(), |i| i.to_string()),
            py_repr(&self.puzzle),
            py_repr(self.kind),
            py_repr(&self.message)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<ErrorRecord>().is_ok_and(|o| {
            let o = o.get();
            (o.index, &o.puzzle, &o.message, o.kind)
                == (self.index, &self.puzzle, &self.message, self.kind)
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let r = slf.get();
        let restore = py.get_type::<ErrorRecord>().getattr("_restore")?;
        let args = (r.index, r.puzzle.clone(), r.message.clone(), r.kind).into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    fn _restore(index: Option<usize>, puzzle: String, message: String, kind: &str) -> ErrorRecord {
        ErrorRecord::new(index, puzzle, message, Kind::from_record_name(kind))
    }
}

/// A line of a puzzle file that cannot be read (not UTF-8, or too long), as
/// `lapiz.read_puzzles` yields it: a batch turns it into an `ErrorRecord`.
#[pyclass(frozen, module = "lapiz._lapiz", get_all)]
pub struct UnreadableLine {
    /// The line's number in the file (1-based).
    pub line: usize,
    /// The line's first characters, printable.
    pub excerpt: String,
    /// Why it cannot be read.
    pub reason: String,
}

#[pymethods]
impl UnreadableLine {
    #[new]
    fn py_new(line: usize, excerpt: String, reason: String) -> UnreadableLine {
        UnreadableLine {
            line,
            excerpt,
            reason,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "UnreadableLine(line={}, excerpt={}, reason={})",
            self.line,
            py_repr(&self.excerpt),
            py_repr(&self.reason)
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let r = slf.get();
        let args = (r.line, r.excerpt.clone(), r.reason.clone()).into_pyobject(py)?;
        PyTuple::new(
            py,
            [py.get_type::<UnreadableLine>().into_any(), args.into_any()],
        )
    }
}

pub use lapiz::text::lines::excerpt;
use lapiz::text::lines::{MAX_LINE, line_text};

/// The puzzle of one line of a puzzle file (bytes, with or without its line end) as
/// `lapiz … --file` reads it: `None` for a blank line or a `#` comment; the first field when
/// it is a whole board long (81 characters, 16 ... 625 for other sizes; a line may carry a
/// rating or a name after it); a HoDoKu library
/// line whole; an `UnreadableLine` for a line that is not UTF-8 or longer than 8 KiB.
#[pyfunction]
#[pyo3(signature = (line, number = 0))]
pub fn puzzle_of_line(py: Python<'_>, line: &[u8], number: usize) -> PyResult<Option<Py<PyAny>>> {
    // The length without the line end, as the command line's reader counts it: it holds at
    // most MAX_LINE + 2 bytes of a line, and strips `\r\n` only from a line it held whole.
    let whole = line.len() <= MAX_LINE + 2;
    let length = match line.strip_suffix(b"\n") {
        None => line.len(),
        Some(_) if whole && line.ends_with(b"\r\n") => line.len() - 2,
        Some(_) => line.len() - 1,
    };
    let text = match line_text(line, length) {
        Ok(t) => t,
        Err(reason) => {
            let l = UnreadableLine {
                line: number,
                excerpt: excerpt(line),
                reason,
            };
            return Ok(Some(Py::new(py, l)?.into_any()));
        }
    };
    let Some(puzzle) = lapiz::text::lines::puzzle_of_line(text) else {
        return Ok(None);
    };
    Ok(Some(
        pyo3::types::PyString::new(py, puzzle).into_any().unbind(),
    ))
}

/// The pipelines a rating uses, as `lapiz rate` chooses them: the one given for every size,
/// else `se` on 9x9 (Sudoku Explainer's scale) and `default` on the other sizes.
pub struct RatePipelines {
    nine: Arc<LibPipeline>,
    /// `None`: the 9x9 one.
    other: Option<Arc<LibPipeline>>,
}

impl RatePipelines {
    /// The pipelines of a `pipeline` argument.
    pub fn of(pipeline: Option<&Bound<'_, PyAny>>) -> PyResult<RatePipelines> {
        let given = pipeline.is_some_and(|p| !p.is_none());
        Ok(RatePipelines {
            nine: resolve(pipeline, "se")?,
            other: match given {
                true => None,
                false => Some(resolve(None, "default")?),
            },
        })
    }

    /// The pipeline that rates an `n x n` puzzle.
    fn for_size(&self, n: usize) -> &LibPipeline {
        match (n, &self.other) {
            (9, _) | (_, None) => &self.nine,
            (_, Some(other)) => other,
        }
    }
}

/// A puzzle to rate, read as `lapiz rate` reads it: what the 9x9 reader takes is 9x9; another
/// size when the reader of every size finds one; else the error of the reader that saw the
/// text's size.
pub fn rating_input(input: Input) -> Result<Puzzle, (String, String, Kind)> {
    let Input::Text(t) = input else {
        return input.any();
    };
    match lapiz::text::parse_puzzle(&t) {
        Ok(grid) => Ok(Puzzle::from_nine(&grid)),
        Err(nine) => match Puzzle::read(&t, None, None) {
            Ok(p) if p.layout().n() != 9 => Ok(p),
            Ok(_) => Err((t, nine.to_string(), Kind::Parse)),
            Err(e) => Err((t, e.to_string(), Kind::Parse)),
        },
    }
}

/// Solves and rates a puzzle of any size as `lapiz rate` does: the puzzle's line and the
/// rating, or the table's reason.
pub fn rate_puzzle(
    puzzle: &Puzzle,
    pipelines: &RatePipelines,
) -> (String, Result<LibRating, String>) {
    let pipeline = pipelines.for_size(puzzle.layout().n());
    let trace = puzzle.solve(pipeline);
    let r = lib_rate(&trace, pipeline).map_err(|e| match e {
        RatingError::Invalid(reason) => format!("invalid puzzle: {reason}"),
        other => other.to_string(),
    });
    (trace.puzzle, r)
}

/// Rates one puzzle of any size as `lapiz rate PUZZLE --se-all`: on 9x9 Sudoku Explainer's
/// ER, EP and ED (the `se` pipeline), on the other sizes lapiz's own scale (the `default`
/// pipeline), unless a pipeline is given. A puzzle that cannot be read raises `ParseError`,
/// one that is not a proper puzzle `InvalidPuzzleError`; a solve stopped by `time_limit`
/// (seconds) `TimeoutError`.
#[pyfunction]
#[pyo3(signature = (puzzle, pipeline = None, *, time_limit = None))]
pub fn rate(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    pipeline: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<Rating> {
    let deadline = crate::interrupt::deadline(time_limit)?;
    let puzzle = rating_input(Input::of(puzzle)).map_err(arg_error)?;
    let pipelines = RatePipelines::of(pipeline)?;
    let (line, r) =
        crate::interrupt::interruptible(py, deadline, || rate_puzzle(&puzzle, &pipelines))?;
    match r {
        Ok(r) => Ok(Rating::new(line, r, None)),
        // only a time limit stops a rating that returns (Ctrl-C raises above)
        Err(why) if why.starts_with("stopped") => Err(pyo3::exceptions::PyTimeoutError::new_err(
            format!("the rating was {why}: its steps do not rate the puzzle"),
        )),
        Err(why) => Err(error(Kind::Invalid, why)),
    }
}

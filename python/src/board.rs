//! `Board`: a puzzle or a grid being solved (values, givens, pencil marks), read from any form
//! lapiz reads; and the puzzle inputs of every function.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

use lapiz::model::{Cell, digits};
use lapiz::model::Grid;
use lapiz::text::{format_grid_library_line, format_pencil_marks, parse_puzzle};
use lapiz::Puzzle;

use crate::errors::{Kind, error};

/// The side of the grids lapiz reads today. Other sizes come later: a board says its size, and
/// cells are numbered row by row from 0 to `size * size - 1`.
pub const SIZE: usize = 9;

/// A puzzle given to a function: its text, a board, or why it cannot be one.
pub enum Input {
    /// Puzzle text, as given.
    Text(String),
    /// A board's grid.
    Grid(Box<Grid>),
    /// Not a puzzle: what to call it, why, and the kind of error.
    Bad(String, String, Kind),
}

impl Input {
    /// Reads one item of a batch, or the puzzle argument of a function.
    pub fn of(obj: &Bound<'_, PyAny>) -> Input {
        if let Ok(s) = obj.cast::<PyString>() {
            return match s.to_cow() {
                Ok(t) => Input::Text(t.to_string()),
                Err(e) => Input::Bad(String::new(), e.to_string(), Kind::Parse),
            };
        }
        if let Ok(b) = obj.cast::<Board>() {
            return Input::Grid(Box::new(b.get().grid.clone()));
        }
        if let Ok(line) = obj.cast::<crate::rating::UnreadableLine>() {
            let l = line.get();
            return Input::Bad(l.excerpt.clone(), l.reason.clone(), Kind::Parse);
        }
        if let Ok(b) = obj.cast::<PyBytes>() {
            return match std::str::from_utf8(b.as_bytes()) {
                Ok(t) => Input::Text(t.to_string()),
                Err(e) => Input::Bad(
                    crate::rating::excerpt(b.as_bytes()),
                    lapiz::text::not_utf8(&e),
                    Kind::Parse,
                ),
            };
        }
        let type_name = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "object".into());
        Input::Bad(
            String::new(),
            format!("not a puzzle: a {type_name} (give a str, bytes or a Board)"),
            Kind::Other,
        )
    }

    /// The puzzle of any size (text of another size than 9x9 is read by the reader of every
    /// size), or the error record's text and reason (the command line's wording).
    pub fn any(self) -> Result<Puzzle, (String, String, Kind)> {
        match self {
            Input::Text(t) => {
                Puzzle::read(&t, None, None).map_err(|e| (t, e.to_string(), Kind::Parse))
            }
            Input::Grid(g) => Ok(Puzzle::from_nine(&g)),
            Input::Bad(t, why, kind) => Err((t, why, kind)),
        }
    }

    /// The grid, or the error record's text and reason (the command line's wording).
    pub fn grid(self) -> Result<Grid, (String, String, Kind)> {
        match self {
            Input::Text(t) => parse_puzzle(&t).map_err(|e| (t, e.to_string(), Kind::Parse)),
            Input::Grid(g) => Ok(*g),
            Input::Bad(t, why, kind) => Err((t, why, kind)),
        }
    }
}

/// The grid of a single puzzle argument, or the exception the command line's error becomes.
pub fn grid_arg(obj: &Bound<'_, PyAny>) -> PyResult<Grid> {
    Input::of(obj).grid().map_err(arg_error)
}

/// The exception for a puzzle argument that is none: the command line's wording.
fn arg_error((_, why, kind): (String, String, Kind)) -> PyErr {
    match kind {
        Kind::Parse => error(kind, format!("cannot read the puzzle: {why}")),
        Kind::Other => pyo3::exceptions::PyTypeError::new_err(why),
        _ => error(kind, why),
    }
}

/// The shortest text that reads back as `grid`: its 81-character line, or a HoDoKu library
/// line when it holds more (placed digits, removed candidates).
pub fn text_of(grid: &Grid) -> String {
    let line = grid.to_line();
    match parse_puzzle(&line) {
        Ok(g) if g == *grid => line,
        _ => format_grid_library_line(grid),
    }
}

/// A cell argument: an index (0 to 80, row by row) or a name (`r1c1` to `r9c9`).
pub fn cell_arg(obj: &Bound<'_, PyAny>) -> PyResult<Cell> {
    if let Ok(i) = obj.extract::<i64>() {
        if (0..81).contains(&i) {
            return Ok(Cell::new(i as u8));
        }
        return Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "cell {i} is not in 0..81"
        )));
    }
    let name: String = obj.extract()?;
    name.parse::<Cell>()
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

/// A Sudoku grid: the givens, the values placed, and the pencil marks of the empty cells.
///
/// `Board(text)` reads an 81-character line (`.` or `0` for empty cells), a pasted grid, a
/// pencil-mark grid as HoDoKu and Sudoku Explainer print it, or a HoDoKu library line.
#[pyclass(frozen, module = "lapiz._lapiz", eq)]
#[derive(PartialEq)]
pub struct Board {
    pub grid: Grid,
}

#[pymethods]
impl Board {
    #[new]
    fn py_new(text: &Bound<'_, PyAny>) -> PyResult<Board> {
        Ok(Board {
            grid: grid_arg(text)?,
        })
    }

    /// The side of the grid (9).
    #[getter]
    fn size(&self) -> usize {
        SIZE
    }

    /// The 81 values, row by row, 0 for an empty cell.
    #[getter]
    fn values(&self) -> Vec<u32> {
        self.grid.values().iter().map(|&v| u32::from(v)).collect()
    }

    /// The value of a cell (0 when empty).
    fn value(&self, cell: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.grid.value(cell_arg(cell)?))
    }

    /// The pencil marks of a cell (empty for a filled cell).
    fn candidates(&self, cell: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let c = cell_arg(cell)?;
        if self.grid.value(c) != 0 {
            return Ok(Vec::new());
        }
        Ok(digits(self.grid.candidates(c)).map(u32::from).collect())
    }

    /// Whether a cell is a given.
    fn is_given(&self, cell: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.grid.is_given(cell_arg(cell)?))
    }

    /// Whether every cell has its value.
    fn is_solved(&self) -> bool {
        self.grid.is_solved()
    }

    /// The values as an 81-character line, `.` for empty cells.
    fn line(&self) -> String {
        self.grid.to_line()
    }

    /// The givens alone as an 81-character line.
    fn givens(&self) -> String {
        self.grid.givens_line()
    }

    /// The pencil-mark grid, as `lapiz candidates` prints it.
    fn pencil_marks(&self) -> String {
        format_pencil_marks(&self.grid)
    }

    /// The whole state (givens, values, pencil marks) as a HoDoKu library line.
    fn library_line(&self) -> String {
        format_grid_library_line(&self.grid)
    }

    /// Brute-force solution count, stopping at `limit` (at least 2).
    #[pyo3(signature = (limit = 2))]
    fn count_solutions(&self, py: Python<'_>, limit: u32) -> PyResult<u32> {
        check_limit(limit)?;
        let values = *self.grid.values();
        Ok(py.detach(|| lapiz::brute::count_solutions(&values, limit)))
    }

    /// The solution (a board of 81 givens), or `None` when there is none or more than one.
    fn solution(&self) -> Option<Board> {
        match lapiz::brute::analyze(self.grid.values()) {
            lapiz::brute::Solutions::Unique(s) => Some(Board {
                grid: Grid::from_values(&s),
            }),
            _ => None,
        }
    }

    /// The canonical form of the values (equal for equivalent puzzles).
    fn canonical(&self) -> String {
        lapiz::puzzle::canonical_line(self.grid.values())
    }

    /// The grid as an SVG image (the viewer's drawing).
    fn svg(&self) -> String {
        lapiz::html::grid_svg(&self.grid, None)
    }

    fn _repr_svg_(&self) -> String {
        self.svg()
    }

    fn _repr_html_(&self) -> String {
        format!("<div style=\"max-width:400px\">{}</div>", self.svg())
    }

    fn copy(&self) -> Board {
        Board {
            grid: self.grid.clone(),
        }
    }

    fn __str__(&self) -> String {
        let has_marks = text_of(&self.grid) != self.grid.to_line();
        if has_marks {
            return format_pencil_marks(&self.grid);
        }
        let v = self.grid.values();
        let mut out = String::new();
        for r in 0..9 {
            if r == 3 || r == 6 {
                out.push_str("------+-------+------\n");
            }
            for c in 0..9 {
                if c == 3 || c == 6 {
                    out.push_str("| ");
                }
                let d = v[r * 9 + c];
                out.push(if d == 0 { '.' } else { (b'0' + d) as char });
                if c < 8 {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out
    }

    fn __repr__(&self) -> String {
        format!("Board({})", crate::py_repr(&text_of(&self.grid)))
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format_grid_library_line(&self.grid).hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let args = (text_of(&slf.get().grid),).into_pyobject(py)?;
        PyTuple::new(py, [py.get_type::<Board>().into_any(), args.into_any()])
    }
}

/// The limit of a count: at least 2, as the command line's `--limit`.
pub fn check_limit(limit: u32) -> PyResult<()> {
    if limit < 2 {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "limit must be at least 2: a puzzle is unique only when a second solution was looked for and not found",
        ));
    }
    Ok(())
}

/// The puzzle of any size of a single puzzle argument, or the exception the command line's
/// error becomes.
fn any_arg(obj: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
    Input::of(obj).any().map_err(arg_error)
}

/// Brute-force solution count of a puzzle of any size (4x4 to 25x25), stopping at `limit` (at
/// least 2): 0 (no solution), 1 (unique) or more.
#[pyfunction]
#[pyo3(signature = (puzzle, limit = 2))]
pub fn count(py: Python<'_>, puzzle: &Bound<'_, PyAny>, limit: u32) -> PyResult<u32> {
    check_limit(limit)?;
    let puzzle = any_arg(puzzle)?;
    Ok(py.detach(|| puzzle.count_solutions(limit)))
}

/// The canonical form of a puzzle of any size (equal for equivalent puzzles), as `lapiz
/// canonical`.
#[pyfunction]
pub fn canonical(py: Python<'_>, puzzle: &Bound<'_, PyAny>) -> PyResult<String> {
    let puzzle = any_arg(puzzle)?;
    Ok(py.detach(|| puzzle.canonical_line()))
}

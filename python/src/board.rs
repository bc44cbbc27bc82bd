//! `Board`: a puzzle or a grid being solved (values, givens, pencil marks), read from any form
//! lapiz reads; and the puzzle inputs of every function.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

use lapiz::Puzzle;
use lapiz::model::{Alphabet, Cell, Layout, digits};
use lapiz::text::format_grid_library_line;

use crate::errors::{Kind, error};

/// A puzzle given to a function: its text, a board, or why it cannot be one.
pub enum Input {
    /// Puzzle text, as given.
    Text(String),
    /// A board's puzzle (any size).
    Board(Box<Puzzle>),
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
            return Input::Board(Box::new(b.get().puzzle.clone()));
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

    /// The puzzle of any size, read as the command line reads it ([`Puzzle::read`]: the size,
    /// box shape and symbols detected), or the error record's text and reason (the command
    /// line's wording).
    pub fn any(self) -> Result<Puzzle, (String, String, Kind)> {
        match self {
            Input::Text(t) => {
                Puzzle::read(&t, None, None).map_err(|e| (t, e.to_string(), Kind::Parse))
            }
            Input::Board(p) => Ok(*p),
            Input::Bad(t, why, kind) => Err((t, why, kind)),
        }
    }
}

/// The puzzle of any size of a single puzzle argument, or the exception the command line's
/// error becomes.
pub fn puzzle_arg(obj: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
    Input::of(obj).any().map_err(arg_error)
}

/// The exception for a puzzle argument that is none: the command line's wording.
pub fn arg_error((_, why, kind): (String, String, Kind)) -> PyErr {
    match kind {
        Kind::Parse => error(kind, format!("cannot read the puzzle: {why}")),
        Kind::Other => pyo3::exceptions::PyTypeError::new_err(why),
        _ => error(kind, why),
    }
}

/// How a puzzle of another size than 9x9 is read back exactly: its symbols' name and its box
/// shape (`None` for 9x9, whose text says everything).
pub type Spec = Option<(String, (u8, u8))>;

/// The [`Spec`] of `puzzle`.
pub fn spec_of(puzzle: &Puzzle) -> Spec {
    let layout = puzzle.layout();
    (layout.n() != 9).then(|| {
        (
            puzzle.alphabet().name().to_string(),
            (layout.box_rows() as u8, layout.box_cols() as u8),
        )
    })
}

/// Reads back a text that [`text_of`] wrote, with its puzzle's [`Spec`].
pub fn read_back(text: &str, spec: &Spec) -> PyResult<Puzzle> {
    let (alphabet, boxes) = match spec {
        None => (None, None),
        Some((a, b)) => (
            Some(
                a.parse::<Alphabet>()
                    .map_err(|e| error(Kind::Parse, e.to_string()))?,
            ),
            Some(*b),
        ),
    };
    Puzzle::read(text, alphabet, boxes).map_err(|e| error(Kind::Parse, e.to_string()))
}

/// The shortest text that reads back as `puzzle` (with its [`Spec`]): its line, or when it
/// holds more (placed digits, removed candidates) a HoDoKu library line on 9x9 and its
/// pencil-mark grid on other sizes.
pub fn text_of(puzzle: &Puzzle) -> String {
    match puzzle.nine() {
        Some(grid) => {
            let line = grid.to_line();
            match lapiz::text::parse_puzzle(&line) {
                Ok(g) if g == grid => line,
                _ => format_grid_library_line(&grid),
            }
        }
        None if has_marks(puzzle) => puzzle.pencil_marks(),
        None => puzzle.to_line(),
    }
}

/// Whether a puzzle of another size holds candidates its values do not leave.
fn has_marks(puzzle: &Puzzle) -> bool {
    Puzzle::from_values(puzzle.layout(), puzzle.alphabet(), puzzle.values().to_vec())
        .is_ok_and(|plain| plain.candidates() != puzzle.candidates())
}

/// A cell argument of an `n x n` board: an index (0 to `n * n - 1`, row by row) or a name
/// (`r1c1` to `r9c9` on 9x9, `r25c25` on 25x25); the index.
pub fn cell_arg(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<usize> {
    let cells = n * n;
    if let Ok(i) = obj.extract::<i64>() {
        if (0..cells as i64).contains(&i) {
            return Ok(i as usize);
        }
        return Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "cell {i} is not in 0..{cells} (a {n}x{n} board)"
        )));
    }
    let name: String = obj.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "a cell is an index (int) or a name (str, like r1c1)",
        )
    })?;
    let cell = name
        .parse::<Cell>()
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let (row, col) = (usize::from(cell.row()), usize::from(cell.col()));
    if row >= n || col >= n {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "`{name}` is not a cell of a {n}x{n} board (r1c1 to r{n}c{n})"
        )));
    }
    Ok(row * n + col)
}

/// A `box` argument: `None`, `"RxC"` or a `(rows, cols)` pair.
pub fn box_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(u8, u8)>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if let Ok(pair) = obj.extract::<(u8, u8)>() {
        return Ok(Some(pair));
    }
    let text: String = obj.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("box is \"RxC\" (like \"3x4\") or (rows, cols)")
    })?;
    let bad = || {
        pyo3::exceptions::PyValueError::new_err(format!(
            "`{text}` is not a box shape (rows x columns, like 3x4)"
        ))
    };
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok(Some((
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    )))
}

/// A `symbols` argument: `None` or an alphabet's name (`1-9A`, `0-9A`, `A-Z`, `numbers`).
pub fn symbols_arg(symbols: Option<&str>) -> PyResult<Option<Alphabet>> {
    symbols
        .map(|s| {
            s.parse::<Alphabet>()
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
        })
        .transpose()
}

/// A Sudoku board of any size (4x4 to 25x25): the givens, the values placed, and the pencil
/// marks of the empty cells.
///
/// `Board(text)` reads what `lapiz solve` reads: on 9x9 an 81-character line (`.` or `0` for
/// empty cells), a pasted grid, a pencil-mark grid as HoDoKu and Sudoku Explainer print it, or
/// a HoDoKu library line; every other size (4, 6, 8, 12, 16, 25) as a line or a grid of its
/// symbols, or a pencil-mark grid. `symbols` and `box` say what the text does not (as
/// `--symbols` and `--box`).
#[pyclass(frozen, module = "lapiz._lapiz", eq)]
pub struct Board {
    pub puzzle: Puzzle,
    /// Which values are givens where the puzzle cannot say (a position of a solve of another
    /// size): `None` asks the puzzle.
    pub givens: Option<Vec<bool>>,
}

/// Boards are equal when their states are: 9x9 grids (givens, values, candidates), or another
/// size's layout, symbols, values, candidates and givens.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        match (self.puzzle.nine(), other.puzzle.nine()) {
            (Some(a), Some(b)) if self.givens.is_none() && other.givens.is_none() => a == b,
            _ => self.state() == other.state(),
        }
    }
}

impl Board {
    /// What equality compares on another size: layout, symbols, values, candidates, givens.
    #[allow(clippy::type_complexity)]
    fn state(&self) -> (Layout, Alphabet, &[u8], Vec<u32>, Vec<bool>) {
        let p = &self.puzzle;
        let givens = (0..p.values().len()).map(|i| self.is_given_at(i)).collect();
        (p.layout(), p.alphabet(), p.values(), p.candidates(), givens)
    }

    pub fn new(puzzle: Puzzle) -> Board {
        Board {
            puzzle,
            givens: None,
        }
    }

    fn n(&self) -> usize {
        self.puzzle.layout().n()
    }

    fn is_given_at(&self, i: usize) -> bool {
        if let Some(g) = &self.givens {
            return g[i];
        }
        match self.puzzle.nine() {
            Some(grid) => grid.is_given(Cell::new(i as u8)),
            None => self.puzzle.values()[i] != 0,
        }
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (text, *, symbols = None, r#box = None))]
    fn py_new(
        text: &Bound<'_, PyAny>,
        symbols: Option<&str>,
        r#box: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Board> {
        let alphabet = symbols_arg(symbols)?;
        let boxes = box_arg(r#box)?;
        if alphabet.is_none() && boxes.is_none() {
            return Ok(Board::new(puzzle_arg(text)?));
        }
        let text = match Input::of(text) {
            Input::Text(t) => t,
            Input::Board(p) => text_of(&p),
            bad @ Input::Bad(..) => return Err(bad.any().map_err(arg_error).unwrap_err()),
        };
        Puzzle::read(&text, alphabet, boxes)
            .map(Board::new)
            .map_err(|e| error(Kind::Parse, format!("cannot read the puzzle: {e}")))
    }

    /// The side of the board (4 to 25).
    #[getter]
    fn size(&self) -> usize {
        self.n()
    }

    /// The box shape, `(rows, cols)`.
    #[getter]
    fn r#box(&self) -> (usize, usize) {
        let l = self.puzzle.layout();
        (l.box_rows(), l.box_cols())
    }

    /// The symbols the board is written in: `1-9A`, `0-9A`, `A-Z` or `numbers`.
    #[getter]
    fn symbols(&self) -> &'static str {
        self.puzzle.alphabet().name()
    }

    /// The `size * size` values, row by row, as numbers 1 to `size`; 0 for an empty cell.
    #[getter]
    fn values(&self) -> Vec<u32> {
        self.puzzle.values().iter().map(|&v| u32::from(v)).collect()
    }

    /// The value of a cell (0 when empty).
    fn value(&self, cell: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.puzzle.values()[cell_arg(cell, self.n())?])
    }

    /// The pencil marks of a cell, as numbers 1 to `size` (empty for a filled cell).
    fn candidates(&self, cell: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let i = cell_arg(cell, self.n())?;
        if self.puzzle.values()[i] != 0 {
            return Ok(Vec::new());
        }
        if let Some(grid) = self.puzzle.nine() {
            return Ok(digits(grid.candidates(Cell::new(i as u8)))
                .map(u32::from)
                .collect());
        }
        let m = self.puzzle.candidates()[i];
        Ok((1..=self.n() as u32)
            .filter(|d| m >> (d - 1) & 1 != 0)
            .collect())
    }

    /// Whether a cell is a given.
    fn is_given(&self, cell: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.is_given_at(cell_arg(cell, self.n())?))
    }

    /// Whether every cell has its value.
    fn is_solved(&self) -> bool {
        self.puzzle.is_solved()
    }

    /// The values as one line in the board's symbols, `.` for empty cells.
    fn line(&self) -> String {
        match self.puzzle.nine() {
            Some(grid) => grid.to_line(),
            None => self.puzzle.to_line(),
        }
    }

    /// The givens alone as one line.
    fn givens(&self) -> PyResult<String> {
        if let (Some(grid), None) = (self.puzzle.nine(), &self.givens) {
            return Ok(grid.givens_line());
        }
        let values = (0..self.puzzle.values().len())
            .map(|i| match self.is_given_at(i) {
                true => self.puzzle.values()[i],
                false => 0,
            })
            .collect();
        Puzzle::from_values(self.puzzle.layout(), self.puzzle.alphabet(), values)
            .map(|p| p.to_line())
            .map_err(|e| error(Kind::Parse, e.to_string()))
    }

    /// The pencil-mark grid, as `lapiz candidates` prints it.
    fn pencil_marks(&self) -> String {
        self.puzzle.pencil_marks()
    }

    /// The whole state (givens, values, pencil marks) as a HoDoKu library line (9x9 only:
    /// `pencil_marks()` writes every size's).
    fn library_line(&self) -> PyResult<String> {
        match self.puzzle.nine() {
            Some(grid) => Ok(format_grid_library_line(&grid)),
            None => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "a HoDoKu library line is 9x9; this board is {}x{} (use pencil_marks())",
                self.n(),
                self.n()
            ))),
        }
    }

    /// Brute-force solution count, stopping at `limit` (at least 2).
    #[pyo3(signature = (limit = 2))]
    fn count_solutions(&self, py: Python<'_>, limit: u32) -> PyResult<u32> {
        check_limit(limit)?;
        let puzzle = Puzzle::from_values(
            self.puzzle.layout(),
            self.puzzle.alphabet(),
            self.puzzle.values().to_vec(),
        )
        .map_err(|e| error(Kind::Parse, e.to_string()))?;
        Ok(py.detach(|| puzzle.count_solutions(limit)))
    }

    /// The solution (a board of givens), or `None` when there is none or more than one.
    fn solution(&self, py: Python<'_>) -> Option<Board> {
        let puzzle = Puzzle::from_values(
            self.puzzle.layout(),
            self.puzzle.alphabet(),
            self.puzzle.values().to_vec(),
        )
        .ok()?;
        py.detach(|| puzzle.solution().ok()).map(Board::new)
    }

    /// The canonical form of the values (equal for equivalent puzzles).
    fn canonical(&self, py: Python<'_>) -> String {
        if let Some(grid) = self.puzzle.nine() {
            return lapiz::puzzle::canonical_line(grid.values());
        }
        let puzzle = self.puzzle.clone();
        py.detach(|| puzzle.canonical_line())
    }

    /// The board as an SVG image (the viewer's drawing).
    fn svg(&self) -> String {
        lapiz::html::puzzle_svg(&self.puzzle, None)
    }

    fn _repr_svg_(&self) -> String {
        self.svg()
    }

    fn _repr_html_(&self) -> String {
        format!("<div style=\"max-width:400px\">{}</div>", self.svg())
    }

    fn copy(&self) -> Board {
        Board {
            puzzle: self.puzzle.clone(),
            givens: self.givens.clone(),
        }
    }

    fn __str__(&self) -> String {
        let Some(grid) = self.puzzle.nine() else {
            return match has_marks(&self.puzzle) {
                true => self.puzzle.pencil_marks(),
                false => self.puzzle.to_grid(),
            };
        };
        let has_marks = text_of(&self.puzzle) != grid.to_line();
        if has_marks {
            return self.puzzle.pencil_marks();
        }
        let v = grid.values();
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
        let text = crate::py_repr(&text_of(&self.puzzle));
        let layout = self.puzzle.layout();
        let mut extra = String::new();
        if layout.n() != 9 {
            if self.puzzle.alphabet() != Alphabet::Standard {
                extra.push_str(&format!(
                    ", symbols={}",
                    crate::py_repr(self.puzzle.alphabet().name())
                ));
            }
            if Layout::new(layout.n() as u8).ok() != Some(layout) {
                extra.push_str(&format!(
                    ", box=\"{}x{}\"",
                    layout.box_rows(),
                    layout.box_cols()
                ));
            }
        }
        format!("Board({text}{extra})")
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        match self.puzzle.nine() {
            Some(grid) => format_grid_library_line(&grid).hash(&mut h),
            None => {
                self.puzzle.values().hash(&mut h);
                self.puzzle.candidates().hash(&mut h);
            }
        }
        h.finish()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let b = slf.get();
        let restore = py.get_type::<Board>().getattr("_restore")?;
        let args = (text_of(&b.puzzle), spec_of(&b.puzzle), b.givens.clone()).into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    #[staticmethod]
    fn _restore(text: &str, spec: Spec, givens: Option<Vec<bool>>) -> PyResult<Board> {
        Ok(Board {
            puzzle: read_back(text, &spec)?,
            givens,
        })
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

/// Brute-force solution count of a puzzle of any size (4x4 to 25x25), stopping at `limit` (at
/// least 2): 0 (no solution), 1 (unique) or more.
#[pyfunction]
#[pyo3(signature = (puzzle, limit = 2))]
pub fn count(py: Python<'_>, puzzle: &Bound<'_, PyAny>, limit: u32) -> PyResult<u32> {
    check_limit(limit)?;
    let puzzle = puzzle_arg(puzzle)?;
    Ok(py.detach(|| puzzle.count_solutions(limit)))
}

/// The canonical form of a puzzle of any size (equal for equivalent puzzles), as `lapiz
/// canonical`.
#[pyfunction]
pub fn canonical(py: Python<'_>, puzzle: &Bound<'_, PyAny>) -> PyResult<String> {
    let puzzle = puzzle_arg(puzzle)?;
    Ok(py.detach(|| puzzle.canonical_line()))
}

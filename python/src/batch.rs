//! The batches: many puzzles on a rayon pool of lapiz's own, with the GIL released, results in
//! input order, an input that fails as an `ErrorRecord` in its place. Python's side
//! (`lapiz/_batch.py`) feeds an iterable in chunks and draws the progress bar.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use pyo3::prelude::*;
use rayon::prelude::*;

use lapiz::Puzzle;
use lapiz::engine::Level;
use lapiz::model::Layout;
use lapiz::puzzle::generate::{Clues, GenerateOptions, Symmetry};

use crate::board::{Input, box_arg, check_limit, spec_of, symbols_arg};
use crate::errors::{Kind, error};
use crate::pipeline::resolve;
use crate::rating::{ErrorRecord, RatePipelines, Rating, rate_puzzle, rating_input};
use crate::trace::{Generated, Trace};

/// The most worker threads a pool gets (as the command line's `--threads`).
pub const MAX_THREADS: usize = 256;

/// How often the waiting thread reports progress and looks for Ctrl-C.
const TICK: Duration = Duration::from_millis(100);

/// The default number of worker threads: `RAYON_NUM_THREADS` when set (as the command line
/// reads it), else one per core.
#[pyfunction]
pub fn default_threads() -> usize {
    let env = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0);
    env.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    })
    .min(MAX_THREADS)
}

/// The pool of `threads` workers (the default when `None`), started on first use and kept for
/// the process: one pool per size, so a Dask worker process has its own.
fn pool(threads: Option<usize>) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let n = threads.unwrap_or_else(default_threads);
    if !(1..=MAX_THREADS).contains(&n) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "threads={n}: give a number of threads from 1 to {MAX_THREADS}"
        )));
    }
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&n) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("lapiz-{i}"))
        .build()
        .map_err(|e| error(Kind::Other, format!("cannot start {n} threads: {e}")))?;
    let p = Arc::new(p);
    pools.insert(n, Arc::clone(&p));
    Ok(p)
}

/// Runs `work` on every item on the pool with the GIL released and gives the results in input
/// order. Meanwhile the calling thread calls `progress(done)` every [`TICK`] and checks for
/// Ctrl-C (the workers then stop taking items, and the interrupt is raised).
fn run<T: Send, R: Send>(
    py: Python<'_>,
    items: Vec<T>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    work: impl Fn(T) -> R + Sync + Send,
) -> PyResult<Vec<R>> {
    let pool = pool(threads)?;
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    py.detach(|| {
        let waiting = std::thread::current();
        std::thread::scope(|scope| {
            let job = scope.spawn(|| {
                let results: Vec<Option<R>> = pool.install(|| {
                    items
                        .into_par_iter()
                        .map(|item| {
                            if stop.load(Ordering::Relaxed) {
                                return None;
                            }
                            let r = work(item);
                            done.fetch_add(1, Ordering::Relaxed);
                            Some(r)
                        })
                        .collect()
                });
                finished.store(true, Ordering::Release);
                waiting.unpark();
                results
            });
            let mut interrupt: Option<PyErr> = None;
            loop {
                let over = finished.load(Ordering::Acquire);
                if interrupt.is_none() {
                    let report = Python::attach(|py| -> PyResult<()> {
                        py.check_signals()?;
                        if let Some(p) = &progress {
                            p.call1(py, (done.load(Ordering::Relaxed),))?;
                        }
                        Ok(())
                    });
                    if let Err(e) = report {
                        stop.store(true, Ordering::Relaxed);
                        interrupt = Some(e);
                    }
                }
                if over {
                    break;
                }
                // the job unparks this thread as it finishes
                std::thread::park_timeout(TICK);
            }
            let results = job
                .join()
                .map_err(|_| error(Kind::Other, "a lapiz worker thread panicked".to_string()))?;
            match interrupt {
                Some(e) => Err(e),
                None => Ok(results
                    .into_iter()
                    .map(|r| r.expect("every item ran"))
                    .collect()),
            }
        })
    })
}

/// Reads a batch's items while holding the GIL.
fn inputs(items: &Bound<'_, PyAny>) -> PyResult<Vec<Input>> {
    items
        .try_iter()?
        .map(|i| Ok(Input::of(&i?)))
        .collect::<PyResult<Vec<_>>>()
}

/// Rates a chunk of puzzles as `lapiz rate --file` does: a `Rating` or an `ErrorRecord` per
/// item, in order; `start` is the first item's index.
#[pyfunction]
#[pyo3(signature = (items, pipeline = None, threads = None, start = 0, progress = None))]
pub fn _rate_batch(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    pipeline: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    start: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let pipelines = RatePipelines::of(pipeline)?;
    let items = inputs(items)?;
    let results = run(py, items, threads, progress, |input| {
        match rating_input(input) {
            Ok(puzzle) => {
                let (line, r) = rate_puzzle(&puzzle, &pipelines);
                match r {
                    Ok(r) => Ok((line, r)),
                    Err(why) => Err((line, why, Kind::Invalid)),
                }
            }
            Err(bad) => Err(bad),
        }
    })?;
    results
        .into_iter()
        .enumerate()
        .map(|(k, r)| {
            Ok(match r {
                Ok((line, rating)) => {
                    Py::new(py, Rating::new(line, rating, Some(start + k)))?.into_any()
                }
                Err((text, why, kind)) => {
                    Py::new(py, ErrorRecord::new(Some(start + k), text, why, kind))?.into_any()
                }
            })
        })
        .collect()
}

/// Solves a chunk of puzzles: a `Trace` or an `ErrorRecord` per item, in order.
#[pyfunction]
#[pyo3(signature = (items, pipeline = None, threads = None, start = 0, progress = None))]
pub fn _solve_batch(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    pipeline: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    start: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let pipeline = resolve(pipeline, "default")?;
    let items = inputs(items)?;
    let results = run(py, items, threads, progress, |input| match input.any() {
        Ok(puzzle) => {
            let t = puzzle.solve(&pipeline);
            match &t.outcome {
                lapiz::engine::Outcome::Invalid { reason } => Err((
                    t.puzzle.clone(),
                    format!("invalid puzzle: {reason}"),
                    Kind::Invalid,
                )),
                _ => Ok((t, puzzle)),
            }
        }
        Err(bad) => Err(bad),
    })?;
    results
        .into_iter()
        .enumerate()
        .map(|(k, r)| {
            Ok(match r {
                Ok((t, puzzle)) => {
                    Py::new(py, Trace::new(t, Some(puzzle), &pipeline, Some(start + k)))?.into_any()
                }
                Err((text, why, kind)) => {
                    Py::new(py, ErrorRecord::new(Some(start + k), text, why, kind))?.into_any()
                }
            })
        })
        .collect()
}

/// Counts the solutions of a chunk of puzzles of any size (up to `limit`): an `int` or an
/// `ErrorRecord` per item, in order.
#[pyfunction]
#[pyo3(signature = (items, limit = 2, threads = None, start = 0, progress = None))]
pub fn _count_batch(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    limit: u32,
    threads: Option<usize>,
    start: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    check_limit(limit)?;
    let items = inputs(items)?;
    let results = run(py, items, threads, progress, |input| {
        input.any().map(|p| p.count_solutions(limit))
    })?;
    results
        .into_iter()
        .enumerate()
        .map(|(k, r)| {
            Ok(match r {
                Ok(n) => n.into_pyobject(py)?.into_any().unbind(),
                Err((text, why, kind)) => {
                    Py::new(py, ErrorRecord::new(Some(start + k), text, why, kind))?.into_any()
                }
            })
        })
        .collect()
}

/// Generates puzzles `start..start + count` of `seed`, as `lapiz generate` does (the same seed
/// gives the same puzzles; `size`, `box` and `symbols` as `--size`, `--box` and `--symbols`);
/// the first one that cannot meet the targets raises `GenerateError`. `attempts` `None` is the
/// generator's own limit for the size and the clue target.
#[pyfunction]
#[pyo3(signature = (count, seed, symmetry = "none", clues = None, max_clues = None,
    difficulty = None, rating = None, requires = Vec::new(), rate = false,
    attempts = None, pipeline = None, threads = None, start = 0,
    progress = None, size = 9, r#box = None, symbols = None))]
#[allow(clippy::too_many_arguments)]
pub fn _generate_batch(
    py: Python<'_>,
    count: u64,
    seed: u64,
    symmetry: &str,
    clues: Option<usize>,
    max_clues: Option<usize>,
    difficulty: Option<&str>,
    rating: Option<(f32, f32)>,
    requires: Vec<String>,
    rate: bool,
    attempts: Option<u32>,
    pipeline: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    start: u64,
    progress: Option<Py<PyAny>>,
    size: u8,
    r#box: Option<&Bound<'_, PyAny>>,
    symbols: Option<&str>,
) -> PyResult<Vec<Generated>> {
    let bad = |e: String| pyo3::exceptions::PyValueError::new_err(e);
    if clues.is_some() && max_clues.is_some() {
        return Err(bad("give clues or max_clues, not both".into()));
    }
    if attempts == Some(0) {
        return Err(bad("attempts must be at least 1".into()));
    }
    if !Layout::SIZES.contains(&size) {
        return Err(bad(format!(
            "size {size} is not a size lapiz generates (4, 6, 8, 9, 12, 16, 25)"
        )));
    }
    let boxes = box_arg(r#box)?;
    let alphabet = symbols_arg(symbols)?;
    let layout = match boxes {
        Some((r, c)) => Layout::with_box(size, r, c),
        None => Layout::new(size),
    }
    .map_err(|e| bad(e.to_string()))?;
    // a puzzle of another size, or with a box shape, says its shape
    let sized = size != 9 || boxes.is_some();
    let clues = match (clues, max_clues) {
        (Some(n), _) => Clues::Exactly(n),
        (None, Some(n)) => Clues::AtMost(n),
        (None, None) => Clues::Minimal,
    };
    let options = GenerateOptions {
        symmetry: symmetry
            .parse::<Symmetry>()
            .map_err(|e| bad(e.to_string()))?,
        clues,
        level: difficulty
            .map(|d| d.parse::<Level>().map_err(|e| bad(e.to_string())))
            .transpose()?,
        rating,
        requires,
        attempts,
        rate,
    };
    let indices: Vec<u64> = (start..start + count).collect();
    // rated as `lapiz rate` rates: Sudoku Explainer's ER (`se`) on 9x9, `default` elsewhere,
    // unless told
    let pipeline = resolve(pipeline, lapiz::Pipeline::rating_name(layout))?;
    let alphabet = alphabet.unwrap_or_default();
    let made = run(py, indices, threads, progress, |i| {
        let made = Puzzle::generate(layout, alphabet, &options, &pipeline, seed, i).map(|g| {
            let spec = if sized { spec_of(&g.puzzle) } else { None };
            (
                g.puzzle.to_line(),
                g.solution.to_line(),
                g.attempts,
                g.rating,
                spec,
            )
        });
        (i, made)
    })?;
    made.into_iter()
        .map(|(i, g)| {
            let (line, solution, attempts, rating, spec) =
                g.map_err(|e| error(Kind::Generate, e.to_string()))?;
            Ok(Generated {
                index: i,
                solution,
                attempts,
                rating: rating
                    .map(|r| Py::new(py, Rating::new(line.clone(), r, Some(i as usize))))
                    .transpose()?,
                puzzle: line,
                spec,
            })
        })
        .collect()
}

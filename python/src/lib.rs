//! `lapiz._lapiz`: the Python extension module of the `lapiz` package (docs/python.md).
//!
//! A thin layer over the library's public API: puzzles ([`board`]), pipelines ([`pipeline`]),
//! traces, steps and hints ([`trace`]), ratings and the rating table ([`rating`]), generation,
//! and the batches ([`batch`]) that run on a rayon pool with the GIL released. Python's side
//! (`python/lapiz/`) adds the idioms: defaults, the progress bar, the file reader, the Dask
//! helpers. Errors are raised as the exceptions of `lapiz._errors`, with lapiz's messages.

use pyo3::prelude::*;

mod batch;
mod board;
// The `lapiz` command line itself, built from the root's `src/cli` (its `crate::cli` paths hold
// here too): the package's `lapiz` command and `python -m lapiz` run it.
#[path = "../../src/cli/mod.rs"]
#[allow(dead_code)]
mod cli;
mod errors;
mod interrupt;
mod pipeline;
mod rating;
mod trace;

use board::Board;
use pipeline::Pipeline;
use rating::{ErrorRecord, Rating, UnreadableLine};
use trace::{Candidate, Generated, Hint, Step, Trace};

/// A string as Python's `repr` writes it (single quotes unless it holds one and no double
/// quote), for the classes' `__repr__`.
pub fn py_repr(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// Makes `program` the plugin host (`PROGRAM plugin-host LIB`) unless `$LAPIZ_PLUGIN_HOST`
/// names one: the package's `lapiz-plugin-host` script.
#[pyfunction]
fn _set_plugin_host(program: Option<String>) {
    use lapiz::plugin::HostSettings;
    if std::env::var_os(HostSettings::PROGRAM_ENV).is_some_and(|p| !p.is_empty()) {
        return;
    }
    HostSettings {
        program: program.map(std::path::PathBuf::from),
        ..HostSettings::current()
    }
    .install();
}

/// Serves one plugin library's searches over stdin and stdout (`lapiz-plugin-host`), as
/// `lapiz plugin-host` does; returns the exit status.
#[pyfunction]
fn _serve_plugin_host(py: Python<'_>, library: String, memory_mib: u64, sandbox: bool) -> u8 {
    let sandbox = if sandbox {
        lapiz::plugin::Sandbox::On
    } else {
        lapiz::plugin::Sandbox::Off
    };
    py.detach(|| lapiz::plugin::host::serve(std::path::Path::new(&library), memory_mib, sandbox))
}

/// Runs the `lapiz` command line on `args` (the program's name first) as the `lapiz` binary
/// does, and gives its exit status: for the package's `lapiz` command and `python -m lapiz`,
/// whose process it then is (it sets process-wide state: the thread pool, signal handlers).
#[pyfunction]
fn _cli(py: Python<'_>, args: Vec<std::ffi::OsString>) -> u8 {
    let code = py.detach(|| cli::app::main(args));
    (0..=u8::MAX)
        .find(|&k| std::process::ExitCode::from(k) == code)
        .unwrap_or(cli::exit::ERROR)
}

/// The extension module.
#[pymodule]
fn _lapiz(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Pipeline>()?;
    m.add_class::<Trace>()?;
    m.add_class::<Step>()?;
    m.add_class::<Candidate>()?;
    m.add_class::<Hint>()?;
    m.add_class::<Rating>()?;
    m.add_class::<ErrorRecord>()?;
    m.add_class::<UnreadableLine>()?;
    m.add_class::<Generated>()?;
    m.add_class::<pipeline::Technique>()?;
    m.add_function(wrap_pyfunction!(trace::solve, m)?)?;
    m.add_function(wrap_pyfunction!(trace::hint, m)?)?;
    m.add_function(wrap_pyfunction!(rating::rate, m)?)?;
    m.add_function(wrap_pyfunction!(rating::rating_header, m)?)?;
    m.add_function(wrap_pyfunction!(rating::puzzle_of_line, m)?)?;
    m.add_function(wrap_pyfunction!(board::count, m)?)?;
    m.add_function(wrap_pyfunction!(board::canonical, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_rate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_count_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_generate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::default_threads, m)?)?;
    m.add_function(wrap_pyfunction!(_set_plugin_host, m)?)?;
    m.add_function(wrap_pyfunction!(_serve_plugin_host, m)?)?;
    m.add_function(wrap_pyfunction!(_cli, m)?)?;
    m.add("MAX_THREADS", batch::MAX_THREADS)?;
    m.add(
        "DEFAULT_ATTEMPTS",
        lapiz::puzzle::generate::GenerateOptions::DEFAULT_ATTEMPTS,
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

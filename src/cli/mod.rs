//! The commands of the `lapiz` binary, one module each, with what they share: the argument
//! groups (`args`), the streaming batch runner of every file command (`batch`), the rating
//! table (`table`), the web server (`serve`), the standard streams and diagnostics (`stdio`) and the exit statuses.

pub mod app;
pub mod args;
pub mod batch;
pub mod candidates;
pub mod canonical;
pub mod count;
pub mod generate;
pub mod hint;
pub mod outfile;
pub mod plugin_host;
pub mod rate;
pub mod reglib;
pub mod serve;
pub mod sized;
pub mod solve;
pub mod stdio;
pub mod stop;
pub mod table;
pub mod technique;

pub use stdio::diag;

use std::process::ExitCode;

use lapiz::text::printable;

/// The exit statuses, the same for every command (README, "Exit status").
pub mod exit {
    /// Everything was read and every puzzle is valid (for `count`: readable).
    pub const OK: u8 = 0;
    /// The run completed and reported each puzzle, but some input is invalid: a line that
    /// cannot be read or parsed, a clash, no solution or several solutions (for `solve`,
    /// `rate`); a failed case (`reglib`, `technique check`).
    pub const INVALID: u8 = 1;
    /// Nothing (or not everything) could run: a usage error, a file that cannot be opened,
    /// read or written, a pipeline, script or plugin that does not load, a target `generate`
    /// cannot reach.
    pub const ERROR: u8 = 2;
}

/// [`exit::INVALID`] when `invalid` puzzles were met, else [`exit::OK`].
pub fn exit_status(invalid: usize) -> ExitCode {
    ExitCode::from(if invalid > 0 { exit::INVALID } else { exit::OK })
}

/// Reports an invalid single puzzle on stderr (escaped) and gives [`exit::INVALID`].
pub fn invalid_input(message: &str) -> ExitCode {
    diag(&format!("error: {}", printable(message)));
    ExitCode::from(exit::INVALID)
}

/// `; did you mean --file PATH?` when a puzzle argument that cannot be read names a file or
/// looks like a path, else nothing.
pub fn file_hint(argument: &str) -> String {
    let t = argument.trim();
    let looks_like_path = std::path::Path::new(t).is_file()
        || t.contains('/')
        || t.contains('\\')
        || [".txt", ".sdk", ".sdm", ".csv"]
            .iter()
            .any(|ext| t.to_ascii_lowercase().ends_with(ext));
    if looks_like_path {
        format!("; did you mean --file {}?", printable(t))
    } else {
        String::new()
    }
}

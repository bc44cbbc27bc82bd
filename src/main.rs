//! The `lapiz` command line: its entry is `cli::app`, one module per command under `cli/`.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::app::main(std::env::args_os())
}

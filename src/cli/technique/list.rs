//! `lapiz techniques`: the pipeline's techniques in order, with scripts and plugins where
//! `solve` puts them.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use lapiz::printable::printable;

use crate::cli::args::PipelineArgs;

/// Arguments of `lapiz techniques`.
#[derive(Args)]
pub struct TechniquesArgs {
    /// The pipeline to list, with the scripts and plugins `solve` would add.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// Runs `lapiz techniques`.
pub fn run(args: TechniquesArgs, out: &mut impl Write) -> Result<ExitCode> {
    let p = args.pipeline.load("default")?;
    writeln!(
        out,
        "{:<3} {:<16} {:<40} {:>10}  source",
        "#", "id", "name", "difficulty"
    )?;
    for (i, t) in p.techniques().iter().enumerate() {
        writeln!(
            out,
            "{:<3} {:<16} {:<40} {:>10.1}  {}",
            i + 1,
            printable(t.id()),
            printable(t.name()),
            t.difficulty(),
            printable(&t.origin().to_string())
        )?;
    }
    for way in lapiz::plugin::Way::loaded() {
        writeln!(out, "plugin sandbox: {}", way.sandbox_words())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

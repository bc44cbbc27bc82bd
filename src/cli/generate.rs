//! `lapiz generate`: puzzles with one solution, in parallel, reproducible from a seed.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

use lapiz::Pipeline;
use lapiz::engine::Level;
use lapiz::model::Layout;
use lapiz::puzzle::generate::{Clues, GenerateOptions, Symmetry};
use lapiz::text::Puzzle;

use super::args::PipelineArgs;
use super::batch::for_each_index;
use super::exit;
use super::sized::SizeArgs;
use super::table::{TableArgs, header, rating_row, row};

/// Reads `--seed`: a whole number from 0 to `u64::MAX`.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "`{text}` is not a seed: a whole number from 0 to {}",
            u64::MAX
        )
    })
}

/// Arguments of `lapiz generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Seed for reproducible output (default: from the clock).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Symmetry of the clue pattern: none, rot180, rot90, horizontal, vertical, diagonal,
    /// antidiagonal.
    #[arg(long, default_value = "none")]
    pub symmetry: Symmetry,
    /// Exactly this many clues (not minimal).
    #[arg(long, conflicts_with = "max_clues")]
    pub clues: Option<usize>,
    /// Stop removing clues once at most this many remain (not minimal).
    #[arg(long)]
    pub max_clues: Option<usize>,
    /// The level asked for: easy, medium, hard, unfair, extreme, guessed (only with a pipeline
    /// that has `guess`), beyond.
    #[arg(long)]
    pub difficulty: Option<Level>,
    /// The hardest step's difficulty range, `MIN..MAX` (either end may be left out), or one
    /// value.
    #[arg(long, value_name = "MIN..MAX")]
    pub rating: Option<String>,
    /// A technique id the solve must use (repeatable).
    #[arg(long = "requires", value_name = "TECHNIQUE")]
    pub requires: Vec<String>,
    /// Print each puzzle's rating columns after it (as `lapiz rate` does).
    #[arg(long)]
    pub rate: bool,
    /// The table format of `--rate`.
    #[command(flatten)]
    pub table: TableArgs,
    /// Solved grids tried per puzzle before giving up (at least 1). By default the generator's
    /// own limit, which depends on the size and on the clue target.
    #[arg(long)]
    pub attempts: Option<u32>,
    /// The size: 4, 6, 8, 9, 12, 16 or 25 (an n x n board). On other sizes a target is rated
    /// by the `default` pipeline, and a puzzle whose solve needs a step harder than the
    /// target's ceiling gets clues back until it does not (so it may not be minimal).
    #[arg(long, default_value_t = 9, value_parser = parse_size)]
    pub size: u8,
    /// The box shape and the symbols of the output, for sizes other than 9.
    #[command(flatten)]
    pub sizes: SizeArgs,
    /// The pipeline that rates the puzzles and checks the targets (as `lapiz rate`: the `se`
    /// pipeline on 9x9, `default` on other sizes, unless given), with scripts and plugins.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// Reads `MIN..MAX`, `MIN..`, `..MAX` or a single value.
pub fn parse_range(s: &str) -> Result<(f32, f32)> {
    let num = |t: &str, default: f32| -> Result<f32> {
        let t = t.trim();
        if t.is_empty() {
            return Ok(default);
        }
        t.parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .with_context(|| format!("--rating: `{t}` is not a number"))
    };
    let (min, max) = match s.split_once("..") {
        Some((a, b)) => (num(a, 0.0)?, num(b.trim_start_matches('='), f32::MAX)?),
        None => {
            let v = num(s, f32::NAN)?;
            (v, v)
        }
    };
    if min.is_nan() || min > max {
        bail!("--rating: `{s}` is an empty range");
    }
    Ok((min, max))
}

/// A seed from the clock, for runs without `--seed`.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// Reads `--size`.
fn parse_size(text: &str) -> Result<u8, String> {
    text.trim()
        .parse::<u8>()
        .ok()
        .filter(|n| Layout::SIZES.contains(n))
        .ok_or_else(|| format!("`{text}` is not a size lapiz generates (4, 6, 8, 9, 12, 16, 25)"))
}

/// Runs `lapiz generate`.
pub fn run(mut args: GenerateArgs, out: &mut (impl Write + Send)) -> Result<ExitCode> {
    let layout = match args.sizes.boxes {
        Some((r, c)) => Layout::with_box(args.size, r, c)?,
        None => Layout::new(args.size)?,
    };
    let alphabet = args.sizes.symbols.unwrap_or_default();
    let clues = match (args.clues, args.max_clues) {
        (Some(n), _) => Clues::Exactly(n),
        (None, Some(n)) => Clues::AtMost(n),
        (None, None) => Clues::Minimal,
    };
    let options = GenerateOptions {
        symmetry: args.symmetry,
        clues,
        level: args.difficulty,
        rating: args.rating.as_deref().map(parse_range).transpose()?,
        requires: std::mem::take(&mut args.requires),
        attempts: args.attempts,
        rate: args.rate,
    };
    // Rated as `lapiz rate` rates: Sudoku Explainer's ER (`se`) on 9x9, `default` elsewhere.
    let pipeline = &args.pipeline.load(Pipeline::rating_name(layout))?;
    if options.needs_rating() {
        super::sized::note_skipped_plugins(pipeline, layout.n());
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    if args.rate {
        writeln!(out, "{}", row(args.table.format, &header(false)))?;
    }
    // Small chunks, smaller on large boards: output comes steadily even when each puzzle
    // takes long to find.
    let per_worker = if layout.cells() > 81 { 4 } else { 16 };
    let chunk = per_worker * super::batch::workers()? as u64;
    for_each_index(
        args.count,
        chunk,
        out,
        |i| Puzzle::generate(layout, alphabet, &options, pipeline, seed, i),
        |out, _, g, _| {
            let g = g?;
            let line = g.puzzle.to_line();
            match (g.rating, args.rate) {
                (Some(r), true) => writeln!(
                    out,
                    "{}",
                    rating_row(args.table.format, &line, &Ok(r), false)
                )?,
                _ => writeln!(out, "{line}")?,
            }
            Ok(())
        },
    )?;
    out.flush()?;
    Ok(ExitCode::from(exit::OK))
}

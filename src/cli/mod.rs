//! The `rate`, `generate` and `canonical` commands, and the streaming batch runner shared with
//! `solve --file` and `count --file`.

pub mod batch;
pub mod bench;
pub mod hint;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};

use lapiz::engine::solve_grid;
use lapiz::generate::{Clues, DEFAULT_ATTEMPTS, GenerateOptions, Symmetry, generate};
use lapiz::parse::parse_puzzle;
use lapiz::pipeline::Pipeline;
use lapiz::rating::{Level, Rating, RatingError, rate};
use lapiz::transform::canonical_line;

use lapiz::printable::printable;

use batch::{for_each_index, for_each_puzzle};

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
    eprintln!("error: {}", printable(message));
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

/// Table format of `rate` and `generate --rate`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum TableFormat {
    /// Tab-separated values.
    Tsv,
    /// Comma-separated values (fields quoted when needed).
    Csv,
}

/// Arguments of `lapiz rate`.
#[derive(Args)]
pub struct RateArgs {
    /// The puzzle: 81 characters, a pencil-mark grid or a HoDoKu library line.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub puzzle: Option<String>,
    /// Rate every puzzle of this file (one per line, `#` comments; `-` for stdin).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: TableFormat,
    /// Leave out the header line.
    #[arg(long)]
    pub no_header: bool,
    /// Also give Sudoku Explainer's EP and ED, in columns `pearl` and `diamond` after
    /// `rating`: the hardest step up to the first placement, and the first step's difficulty.
    #[arg(long)]
    pub se_all: bool,
    /// The pipeline to rate with: a RON file, or `se` (the default: Sudoku Explainer's
    /// techniques, so the rating is SE's ER) or `default` (lapiz's own).
    #[arg(long)]
    pub pipeline: Option<PathBuf>,
}

/// Arguments of `lapiz generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Seed for reproducible output (default: from the clock).
    #[arg(long)]
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
    /// Output format of `--rate`.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: TableFormat,
    /// Attempts per puzzle before giving up.
    #[arg(long, default_value_t = DEFAULT_ATTEMPTS)]
    pub attempts: u32,
    /// A pipeline RON file instead of the default one (rates and checks targets).
    #[arg(long)]
    pub pipeline: Option<PathBuf>,
}

/// Arguments of `lapiz canonical`.
#[derive(Args)]
pub struct CanonicalArgs {
    /// The puzzle.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub puzzle: Option<String>,
    /// Every puzzle of this file (`-` for stdin); prints one canonical form per puzzle line.
    #[arg(long)]
    pub file: Option<PathBuf>,
}

const HEADER: [&str; 6] = [
    "puzzle",
    "rating",
    "level",
    "score",
    "hardest technique",
    "techniques",
];

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn row(format: TableFormat, fields: &[&str]) -> String {
    match format {
        // Controls (tabs and line breaks too) are escaped, so a field stays one field.
        TableFormat::Tsv => fields
            .iter()
            .map(|f| printable(f))
            .collect::<Vec<_>>()
            .join("\t"),
        TableFormat::Csv => fields
            .iter()
            .map(|f| csv_field(&printable(f)))
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// The technique counts as `id=count` separated by spaces.
fn counts_text(r: &Rating) -> String {
    r.techniques
        .iter()
        .map(|t| format!("{}={}", t.technique, t.count))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One output row: the rating columns (with `se_all`, pearl and diamond after the rating), or
/// `invalid` with the reason in the last column.
fn rating_row(
    format: TableFormat,
    puzzle: &str,
    r: &Result<Rating, String>,
    se_all: bool,
) -> String {
    let tenth = |v: Option<f32>| v.map(|v| format!("{v:.1}")).unwrap_or_default();
    let mut fields: Vec<String> = match r {
        Ok(r) => vec![
            puzzle.to_string(),
            r.rating_text(),
            r.level.name().to_string(),
            r.score.to_string(),
            r.hardest_technique.clone().unwrap_or_default(),
            counts_text(r),
        ],
        Err(e) => vec![
            puzzle.to_string(),
            String::new(),
            "invalid".to_string(),
            String::new(),
            String::new(),
            e.clone(),
        ],
    };
    if se_all {
        let (pearl, diamond) = match r {
            Ok(r) => (tenth(r.pearl), tenth(r.diamond)),
            Err(_) => (String::new(), String::new()),
        };
        fields.splice(2..2, [pearl, diamond]);
    }
    let refs: Vec<&str> = fields.iter().map(String::as_str).collect();
    row(format, &refs)
}

/// The header row's fields (with `se_all`, pearl and diamond after the rating).
fn header(se_all: bool) -> Vec<&'static str> {
    let mut h = HEADER.to_vec();
    if se_all {
        h.splice(2..2, ["pearl", "diamond"]);
    }
    h
}

/// Parses, solves and rates one puzzle text: its 81-character line and the rating or the error.
fn rate_text(text: &str, pipeline: &Pipeline) -> (String, Result<Rating, String>) {
    match parse_puzzle(text) {
        Err(e) => (text.to_string(), Err(e.to_string())),
        Ok(grid) => {
            let trace = solve_grid(&grid, pipeline);
            let r = rate(&trace, pipeline).map_err(|e| match e {
                RatingError::Invalid(reason) => format!("invalid puzzle: {reason}"),
            });
            (trace.puzzle, r)
        }
    }
}

/// `lapiz rate`.
pub fn rate_command(args: RateArgs, pipeline: &Pipeline, out: &mut impl Write) -> Result<ExitCode> {
    if !args.no_header {
        writeln!(out, "{}", row(args.format, &header(args.se_all)))?;
    }
    let Some(path) = args.file else {
        let text = args.puzzle.unwrap_or_default();
        let (puzzle, r) = rate_text(&text, pipeline);
        writeln!(out, "{}", rating_row(args.format, &puzzle, &r, args.se_all))?;
        out.flush()?;
        return Ok(match r {
            Ok(_) => ExitCode::from(exit::OK),
            Err(e) => invalid_input(&e),
        });
    };
    let mut bad = 0usize;
    for_each_puzzle(
        &path,
        |text| rate_text(text, pipeline),
        |text, why| (text.to_string(), Err(why.to_string())),
        |item, (puzzle, r), bar| {
            if let Err(e) = &r {
                bad += 1;
                bar.suspend(|| eprintln!("{}:{}: {}", path.display(), item.line, printable(e)));
            }
            writeln!(out, "{}", rating_row(args.format, &puzzle, &r, args.se_all))?;
            Ok(())
        },
    )?;
    out.flush()?;
    Ok(exit_status(bad))
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

/// `lapiz generate`.
pub fn generate_command(
    args: GenerateArgs,
    pipeline: &Pipeline,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let options = GenerateOptions {
        symmetry: args.symmetry,
        clues: match (args.clues, args.max_clues) {
            (Some(n), _) => Clues::Exactly(n),
            (None, Some(n)) => Clues::AtMost(n),
            (None, None) => Clues::Minimal,
        },
        level: args.difficulty,
        rating: args.rating.as_deref().map(parse_range).transpose()?,
        requires: args.requires,
        attempts: args.attempts,
        rate: args.rate,
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    if args.rate {
        writeln!(out, "{}", row(args.format, &header(false)))?;
    }
    // Small chunks: output comes steadily even when each puzzle takes long to find.
    let chunk = 16 * rayon::current_num_threads() as u64;
    for_each_index(
        args.count,
        chunk,
        |i| generate(&options, pipeline, seed, i),
        |_, g, _| {
            let g = g?;
            match (&g.rating, args.rate) {
                (Some(r), true) => writeln!(
                    out,
                    "{}",
                    rating_row(args.format, &g.line(), &Ok(r.clone()), false)
                )?,
                _ => writeln!(out, "{}", g.line())?,
            }
            Ok(())
        },
    )?;
    out.flush()?;
    Ok(ExitCode::from(exit::OK))
}

/// The canonical line of a puzzle text (givens only).
fn canonical_of(text: &str) -> Result<String, String> {
    let grid = parse_puzzle(text).map_err(|e| e.to_string())?;
    Ok(canonical_line(&grid.given_values()))
}

/// `lapiz canonical`.
pub fn canonical_command(args: CanonicalArgs, out: &mut impl Write) -> Result<ExitCode> {
    let Some(path) = args.file else {
        let text = args.puzzle.unwrap_or_default();
        return Ok(match canonical_of(&text) {
            Ok(c) => {
                writeln!(out, "{c}")?;
                out.flush()?;
                ExitCode::from(exit::OK)
            }
            Err(e) => invalid_input(&format!("cannot read the puzzle: {e}{}", file_hint(&text))),
        });
    };
    let mut bad = 0usize;
    let unreadable = |_: &str, why: &str| Err(why.to_string());
    for_each_puzzle(&path, canonical_of, unreadable, |item, r, bar| {
        match r {
            Ok(c) => writeln!(out, "{c}")?,
            Err(e) => {
                bad += 1;
                bar.suspend(|| eprintln!("{}:{}: {}", path.display(), item.line, printable(&e)));
                writeln!(out, "{}\terror", printable(&item.text))?;
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(exit_status(bad))
}

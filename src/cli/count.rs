//! `lapiz count`: brute-force solution counts of every puzzle of a file, of any size.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use lapiz::brute::count_solutions;
use lapiz::text::printable;

use super::batch::{for_each_puzzle, line_ref};
use super::diag;
use super::sized::SizeArgs;

/// Arguments of `lapiz count`.
#[derive(Args)]
pub struct CountArgs {
    /// Puzzle file (one per line, `#` comments; `-` for stdin).
    #[arg(long)]
    pub file: PathBuf,
    /// Stop counting at this many solutions: at least 2, since a puzzle is unique only when
    /// a second solution was looked for and not found.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..))]
    pub limit: u32,
    /// Puzzles of other sizes.
    #[command(flatten)]
    pub sizes: SizeArgs,
}

/// A puzzle counted: its values (a 9x9 line, read on the fast path) or its line, and its count.
enum Counted {
    Nine([u8; 81], u32),
    Line(String, u32),
}

/// Runs `lapiz count`: each puzzle's values and count, then the totals.
pub fn run(args: CountArgs, out: &mut (impl Write + Send)) -> Result<ExitCode> {
    let (path, limit) = (args.file.as_path(), args.limit);
    let (mut puzzles, mut unique, mut none, mut multiple) = (0usize, 0usize, 0usize, 0usize);
    let mut bad_lines = 0usize;
    let sizes = &args.sizes;
    let work = |text: &str| {
        // A one-line puzzle (most of any puzzle file) needs no candidate grid; anything else
        // (a pencil-mark grid, a library line, another size, an error) goes through the full
        // parser.
        if sizes.symbols.is_none()
            && sizes.boxes.is_none()
            && let Ok(values) = lapiz::text::line_values(text)
        {
            return Ok(Counted::Nine(values, count_solutions(&values, limit)));
        }
        let p = sizes.read(text).map_err(|e| e.to_string())?;
        // a candidate line is written back as it came: its values alone are not the puzzle
        let line = match lapiz::text::is_candidate_line(text.trim()) {
            true => text.trim().to_string(),
            false => p.to_line(),
        };
        Ok(Counted::Line(line, p.count_solutions(limit)))
    };
    let unreadable = |_: &str, why: &str| Err(why.to_string());
    for_each_puzzle(path, out, work, unreadable, |out, item, record, bar| {
        match record {
            Err(e) => {
                bar.suspend(|| diag(&format!("{}: {}", line_ref(path, item.line), printable(&e))));
                writeln!(out, "{}\terror", printable(&item.text))?;
                bad_lines += 1;
            }
            Ok(Counted::Line(line, n)) => {
                puzzles += 1;
                match n {
                    0 => none += 1,
                    1 => unique += 1,
                    _ => multiple += 1,
                }
                writeln!(out, "{line}\t{n}")?;
            }
            Ok(Counted::Nine(values, n)) => {
                puzzles += 1;
                match n {
                    0 => none += 1,
                    1 => unique += 1,
                    _ => multiple += 1,
                }
                // The line is built by hand: `writeln!`'s formatting shows in the time of
                // counting an easy file (docs/performance.md).
                let mut line = [b'.'; 81 + 12];
                for (c, &v) in line.iter_mut().zip(&values) {
                    *c = if v == 0 { b'.' } else { b'0' + v };
                }
                line[81] = b'\t';
                let digits = n.checked_ilog10().unwrap_or(0) as usize + 1;
                let mut rest = n;
                for c in line[82..82 + digits].iter_mut().rev() {
                    *c = b'0' + (rest % 10) as u8;
                    rest /= 10;
                }
                line[82 + digits] = b'\n';
                out.write_all(&line[..83 + digits])?;
            }
        }
        Ok(())
    })?;
    writeln!(
        out,
        "puzzles: {puzzles}, unique: {unique}, none: {none}, multiple: {multiple}"
    )?;
    out.flush()?;
    // Counting is the command's job: no solution or several are results, not invalid input.
    Ok(super::exit_status(bad_lines))
}

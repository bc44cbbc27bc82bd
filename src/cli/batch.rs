//! Streaming, parallel processing of puzzle files: read a chunk of lines, process it on all
//! cores (rayon), write its results in input order, read the next chunk. Memory stays flat
//! however large the file; a progress bar shows on stderr when stderr is a terminal.

use std::io::{BufRead, IsTerminal};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::{open_input, puzzle_of_line};

/// Puzzle lines per chunk: enough to keep every core busy, small enough to keep memory flat.
pub const CHUNK: usize = 4096;

/// A progress bar on stderr, hidden when stderr is not a terminal. With `len` (the total,
/// in bytes for a file or items for `generate`) a bar drawn with `template`, else a spinner
/// drawn with it.
pub fn progress(len: Option<u64>, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match len {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    let bar = bar.with_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// One puzzle line of the input: its 1-based line number and the puzzle text.
pub struct Item {
    /// 1-based line number in the file.
    pub line: usize,
    /// The puzzle text ([`puzzle_of_line`]).
    pub text: String,
    /// The line's length in bytes.
    pub bytes: u64,
}

/// Runs `work` on every puzzle line of `path` (`-` for stdin) in parallel, a chunk at a time,
/// and hands each result to `emit` in input order, with the progress bar (use
/// `bar.suspend` to write to stderr).
pub fn for_each_puzzle<T: Send>(
    path: &Path,
    work: impl Fn(&str) -> T + Sync,
    mut emit: impl FnMut(&Item, T, &ProgressBar) -> Result<()>,
) -> Result<()> {
    let mut input = open_input(path)?;
    let len = if path.as_os_str() == "-" {
        None
    } else {
        std::fs::metadata(path).ok().map(|m| m.len())
    };
    let bar = match len {
        Some(_) => progress(
            len,
            "{elapsed_precise} [{bar:40}] {percent}% of {binary_total_bytes} (eta {eta}) {msg}",
        ),
        None => progress(None, "{elapsed_precise} {spinner} {pos} puzzles"),
    };
    // The bar moves as each puzzle is done: by its line's bytes for a file, by one for stdin.
    let step = |item: &Item| if len.is_some() { item.bytes } else { 1 };
    let mut line = String::new();
    let (mut line_number, mut bytes, mut done) = (0usize, 0u64, 0u64);
    let mut chunk: Vec<Item> = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        let mut eof = false;
        while chunk.len() < CHUNK {
            line.clear();
            let n = input
                .read_line(&mut line)
                .with_context(|| format!("cannot read {}", path.display()))?;
            if n == 0 {
                eof = true;
                break;
            }
            bytes += n as u64;
            line_number += 1;
            if let Some(text) = puzzle_of_line(&line) {
                chunk.push(Item {
                    line: line_number,
                    text: text.to_string(),
                    bytes: n as u64,
                });
            }
        }
        let results: Vec<T> = chunk
            .par_iter()
            .map(|item| {
                let r = work(&item.text);
                bar.inc(step(item));
                r
            })
            .collect();
        for (item, r) in chunk.iter().zip(results) {
            emit(item, r, &bar)?;
        }
        done += chunk.len() as u64;
        if len.is_some() {
            // Also count comment and blank lines.
            bar.set_position(bytes);
            bar.set_message(format!("{done} puzzles"));
        }
        if eof {
            break;
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// Runs `work` on `0..count` in parallel, `chunk` indices at a time, handing each result to
/// `emit` in index order; stops at the first error `emit` returns.
pub fn for_each_index<T: Send>(
    count: u64,
    chunk: u64,
    work: impl Fn(u64) -> T + Sync,
    mut emit: impl FnMut(u64, T, &ProgressBar) -> Result<()>,
) -> Result<()> {
    let bar = progress(
        Some(count),
        "{elapsed_precise} [{bar:40}] {pos}/{len} puzzles (eta {eta})",
    );
    let mut start = 0u64;
    while start < count {
        let end = count.min(start + chunk.max(1));
        let results: Vec<T> = (start..end)
            .into_par_iter()
            .map(|i| {
                let r = work(i);
                bar.inc(1);
                r
            })
            .collect();
        for (i, r) in (start..end).zip(results) {
            emit(i, r, &bar)?;
        }
        start = end;
    }
    bar.finish_and_clear();
    Ok(())
}

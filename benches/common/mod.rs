//! Helpers shared by the benches: where the data is, the positions a solve meets, timing.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Instant;

use lapiz::Puzzle;
use lapiz::technique::{Technique, find_all};
use lapiz::text::parse_line;
use lapiz::{Grid, Pipeline};

/// The shared data folder: `$LAPIZ_DATA`, else `../shared/data` beside the project.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("LAPIZ_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

/// The puzzles of a shared puzzle file, or `None` (with a message) when it is missing.
pub fn puzzles(file: &str) -> Option<Vec<Grid>> {
    let path = data_dir().join("puzzles").join(file);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} not found; set LAPIZ_DATA", path.display());
        return None;
    };
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| parse_line(&l.chars().take(81).collect::<String>()).ok())
            .collect(),
    )
}

/// The grids met solving `puzzles` with `pipeline`: every `every`-th step's position, plus
/// each end position that is not solved.
pub fn positions(puzzles: &[Grid], pipeline: &Pipeline, every: usize) -> Vec<Grid> {
    let mut out = Vec::new();
    for g in puzzles {
        let trace = Puzzle::from_nine(g).solve(pipeline);
        let mut grid = g.clone();
        for (i, step) in trace.steps().enumerate() {
            if i % every == 0 {
                out.push(grid.clone());
            }
            step.apply(&mut grid);
        }
        if !grid.is_solved() {
            out.push(grid);
        }
    }
    out
}

/// Mean µs per `find_all` of `t` over `grids`, best of `rounds`, and the steps found.
pub fn time(t: &dyn Technique, grids: &[Grid], rounds: usize) -> (f64, usize) {
    let mut best = f64::INFINITY;
    let mut found = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        found = 0;
        for g in grids {
            found += find_all(t, g).map(|s| s.len()).unwrap_or(0);
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    (best * 1e6 / grids.len().max(1) as f64, found)
}

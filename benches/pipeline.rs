//! What the chains and forcing chains cost: the default pipeline against the same pipeline
//! without its chain, loop, colouring, ALS and forcing techniques, side by side in one run, on
//! one thread.
//!
//! Run with `cargo bench --bench pipeline`. The puzzle files are read from
//! `$LAPIZ_DATA/puzzles/`, or else from `../shared/data/puzzles/`; missing files are skipped
//! with a message. Each figure is the best of `RUNS` runs, the two pipelines' runs interleaved so
//! both see the same machine load. `LAPIZ_BENCH_LIMIT=N` takes the first N puzzles of each file;
//! `LAPIZ_BENCH_HARDEST=N` the first N of the hardest file (50 unless set: issue 40's figure is
//! the first 1,000, about ten minutes a run).

mod common;

use std::time::Instant;

use lapiz::Puzzle;
use lapiz::technique::{builtin, family};
use lapiz::{Grid, Pipeline};

const RUNS: usize = 3;

/// The default pipeline without the techniques of the chain, 3D Medusa, ALS and forcing
/// families.
fn without_chains() -> Pipeline {
    let ids: Vec<String> = family("chains")
        .expect("a family")
        .iter()
        .chain(family("medusa").expect("a family").iter())
        .chain(family("als").expect("a family").iter())
        .chain(family("forcing").expect("a family").iter())
        .map(|t| t.id().to_string())
        .collect();
    let kept = Pipeline::default_pipeline()
        .ids()
        .iter()
        .filter(|id| !ids.contains(id))
        .map(|id| builtin(id).expect("built-in"))
        .collect();
    Pipeline::from_techniques("default without chains", kept).expect("unique ids")
}

/// Seconds for solving every puzzle, and how many were solved.
fn run(puzzles: &[Grid], pipeline: &Pipeline) -> (f64, usize) {
    let start = Instant::now();
    let solved = puzzles
        .iter()
        .filter(|g| Puzzle::from_nine(g).solve(pipeline).is_solved())
        .count();
    (start.elapsed().as_secs_f64(), solved)
}

fn main() {
    let limit: usize = std::env::var("LAPIZ_BENCH_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let with = Pipeline::default_pipeline();
    let without = without_chains();
    let hardest: usize = std::env::var("LAPIZ_BENCH_HARDEST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let files = [
        ("top1465.txt", usize::MAX),
        ("17-clue.txt", 10_000),
        ("unbiased-1000.txt", usize::MAX),
        ("hardest-1905-11plus.txt", hardest),
    ];
    for (file, cap) in files {
        let Some(all) = common::puzzles(file) else {
            continue;
        };
        let puzzles: Vec<Grid> = all.into_iter().take(cap.min(limit)).collect();
        let n = puzzles.len() as f64;
        let (mut best_with, mut best_without) = (f64::INFINITY, f64::INFINITY);
        let (mut solved_with, mut solved_without) = (0, 0);
        for _ in 0..RUNS {
            let (t, s) = run(&puzzles, &with);
            best_with = best_with.min(t);
            solved_with = s;
            let (t, s) = run(&puzzles, &without);
            best_without = best_without.min(t);
            solved_without = s;
        }
        println!(
            "{file:<24} {:>6} puzzles: default {:>8.3} ms/puzzle ({solved_with} solved), \
             without chains {:>8.3} ms/puzzle ({solved_without} solved), ratio {:.2}",
            puzzles.len(),
            best_with * 1000.0 / n,
            best_without * 1000.0 / n,
            best_with / best_without
        );
    }
}

//! Technique and pipeline throughput on real positions: `cargo bench --bench techniques`.
//!
//! Positions are the grids met while solving `top1465.txt` with the default pipeline (every
//! tenth step, plus every stuck end position). For each built-in technique (but the fish of five
//! to seven houses, timed by `benches/fish.rs`) it prints the mean
//! time of a full search (`find_all`) per position; then the default pipeline's throughput on the
//! whole of `top1465.txt` and how many puzzles it solves without guessing.
//!
//! The data is read from `$LAPIZ_DATA/puzzles/` or `../shared/data/puzzles/`.

mod common;

use std::time::Instant;

use common::{positions, puzzles};
use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::technique::{builtins, find_all};

fn main() {
    let Some(puzzles) = puzzles("top1465.txt") else {
        return;
    };
    let pipeline = Pipeline::default_pipeline();

    // pipeline throughput, best of 3
    let mut best = f64::INFINITY;
    let mut solved = 0;
    for _ in 0..3 {
        let start = Instant::now();
        solved = puzzles
            .iter()
            .filter(|g| Puzzle::from_nine(g).solve(&pipeline).is_solved())
            .count();
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "default pipeline on top1465.txt: {solved}/{} solved without guessing, {:.0} puzzles/s ({:.3} s, best of 3)",
        puzzles.len(),
        puzzles.len() as f64 / best,
        best
    );

    // positions met while solving
    let positions = positions(&puzzles, &pipeline, 10);
    println!("{} positions", positions.len());
    println!("{:<34} {:>12} {:>10}", "technique", "µs/search", "steps");
    for t in builtins() {
        // the fish of five to seven houses have their own bench (`benches/fish.rs`)
        if ["squirmbag", "whale", "leviathan"]
            .iter()
            .any(|big| t.id().ends_with(big))
        {
            continue;
        }
        let start = Instant::now();
        let mut found = 0usize;
        for g in &positions {
            found += find_all(t.as_ref(), g).map(|s| s.len()).unwrap_or(0);
        }
        let per = start.elapsed().as_secs_f64() * 1e6 / positions.len() as f64;
        println!("{:<34} {:>12.2} {:>10}", t.id(), per, found);
    }
}

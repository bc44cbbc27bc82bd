//! The fish of four to seven houses on real positions: `cargo bench --bench fish`.
//!
//! Positions are the grids met while solving the first puzzles of `top1465.txt` with the
//! default pipeline (every tenth step, plus every stuck end position; `FISH_BENCH_PUZZLES`
//! puzzles, 50 by default). For each fish technique of four houses or more it prints the mean
//! and the longest time of one full search (`find_all`) and the steps found, so the sizes can be
//! compared side by side in one run.
//!
//! The data is read from `$LAPIZ_DATA/puzzles/` or `../shared/data/puzzles/`.

mod common;

use std::time::Instant;

use common::{positions, puzzles};
use lapiz::Pipeline;
use lapiz::technique::{family, find_all};

fn main() {
    let Some(mut puzzles) = puzzles("top1465.txt") else {
        return;
    };
    let n = std::env::var("FISH_BENCH_PUZZLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    puzzles.truncate(n);
    let positions = positions(&puzzles, &Pipeline::default_pipeline(), 10);
    println!(
        "{} positions from {} puzzles",
        positions.len(),
        puzzles.len()
    );
    println!(
        "{:<34} {:>12} {:>12} {:>8}",
        "technique", "µs/search", "max ms", "steps"
    );
    let big = ["jellyfish", "squirmbag", "whale", "leviathan"];
    for t in family("fish").expect("a family") {
        if !big.iter().any(|b| t.id().ends_with(b)) {
            continue;
        }
        let mut found = 0usize;
        let mut max = 0f64;
        let start = Instant::now();
        for g in &positions {
            let one = Instant::now();
            found += find_all(t.as_ref(), g).map(|s| s.len()).unwrap_or(0);
            max = max.max(one.elapsed().as_secs_f64());
        }
        let per = start.elapsed().as_secs_f64() * 1e6 / positions.len() as f64;
        println!(
            "{:<34} {:>12.1} {:>12.2} {:>8}",
            t.id(),
            per,
            max * 1e3,
            found
        );
    }
}

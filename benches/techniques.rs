//! Technique and pipeline throughput on real positions: `cargo bench --bench techniques`.
//!
//! Positions are the grids met while solving `top1465.txt` with the default pipeline (every
//! tenth step, plus every stuck end position). For each built-in technique it prints the mean
//! time of a full search (`find_all`) per position; then the default pipeline's throughput on the
//! whole of `top1465.txt` and how many puzzles it solves without guessing.
//!
//! The data is read from `$LAPIZ_DATA/puzzles/` or `../shared/data/puzzles/`.

use std::path::PathBuf;
use std::time::Instant;

use lapiz::engine::solve_grid;
use lapiz::parse::parse_line;
use lapiz::technique::{builtins, find_all};
use lapiz::{Grid, Pipeline};

fn data_dir() -> PathBuf {
    match std::env::var_os("LAPIZ_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

fn main() {
    let path = data_dir().join("puzzles/top1465.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} not found; set LAPIZ_DATA", path.display());
        return;
    };
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| parse_line(&l.chars().take(81).collect::<String>()).ok())
        .collect();
    let pipeline = Pipeline::default_pipeline();

    // pipeline throughput, best of 3
    let mut best = f64::INFINITY;
    let mut solved = 0;
    for _ in 0..3 {
        let start = Instant::now();
        solved = puzzles
            .iter()
            .filter(|g| solve_grid(g, &pipeline).is_solved())
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
    let mut positions = Vec::new();
    for g in &puzzles {
        let trace = solve_grid(g, &pipeline);
        let mut grid = g.clone();
        for (i, step) in trace.steps().enumerate() {
            if i % 10 == 0 {
                positions.push(grid.clone());
            }
            step.apply(&mut grid);
        }
        if !grid.is_solved() {
            positions.push(grid);
        }
    }
    println!("{} positions", positions.len());
    println!("{:<34} {:>12} {:>10}", "technique", "µs/search", "steps");
    for t in builtins() {
        let start = Instant::now();
        let mut found = 0usize;
        for g in &positions {
            found += find_all(t.as_ref(), g).map(|s| s.len()).unwrap_or(0);
        }
        let per = start.elapsed().as_secs_f64() * 1e6 / positions.len() as f64;
        println!("{:<34} {:>12.2} {:>10}", t.id(), per, found);
    }
}

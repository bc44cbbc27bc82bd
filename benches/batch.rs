//! Throughput of the generator, the rater and the canonical form, on one thread and on two.
//!
//! Run with `cargo bench --bench batch`. `top1465.txt` and `17-clue.txt` are read from
//! `$LAPIZ_DATA/puzzles/`, or else from `../shared/data/puzzles/`; missing files are skipped
//! with a message. Each figure is the best of `RUNS` runs; the 1- and 2-thread runs of one
//! workload are interleaved so that both see the same machine load.

mod common;

use std::hint::black_box;
use std::time::Instant;

use lapiz::Puzzle;
use lapiz::engine::rate;
use lapiz::model::{Alphabet, Layout};
use lapiz::puzzle::generate::GenerateOptions;
use lapiz::{Grid, Pipeline};
use rayon::prelude::*;

const RUNS: usize = 5;
const GENERATED: u64 = 2000;
const CANONICAL: usize = 2000;

fn load(name: &str, limit: usize) -> Option<Vec<Grid>> {
    common::puzzles(name).map(|p| p.into_iter().take(limit).collect())
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

/// Best wall-clock seconds of `f` on 1 and on 2 threads, runs interleaved.
fn timed(f: impl Fn() + Sync) -> (f64, f64) {
    let pools = [pool(1), pool(2)];
    let mut best = [f64::INFINITY; 2];
    for _ in 0..RUNS {
        for (k, p) in pools.iter().enumerate() {
            let start = Instant::now();
            p.install(&f);
            best[k] = best[k].min(start.elapsed().as_secs_f64());
        }
    }
    (best[0], best[1])
}

fn report(what: &str, items: usize, unit: &str, (one, two): (f64, f64)) {
    println!(
        "{what:<44} {items:>6} {unit}: 1 thread {:>9.1} /s, 2 threads {:>9.1} /s, speed-up {:.2}x",
        items as f64 / one,
        items as f64 / two,
        one / two
    );
}

fn main() {
    let pipeline = Pipeline::default_pipeline();

    let workloads = [
        ("generate: minimal puzzles", GenerateOptions::default()),
        (
            "generate --rate: minimal puzzles, rated",
            GenerateOptions {
                rate: true,
                ..Default::default()
            },
        ),
        (
            "generate --symmetry rot180",
            GenerateOptions {
                symmetry: lapiz::puzzle::generate::Symmetry::Rot180,
                ..Default::default()
            },
        ),
    ];
    for (label, options) in &workloads {
        let t = timed(|| {
            (0..GENERATED).into_par_iter().for_each(|i| {
                black_box(
                    Puzzle::generate(Layout::NINE, Alphabet::Standard, options, &pipeline, 1, i)
                        .expect("generates"),
                );
            })
        });
        report(label, GENERATED as usize, "puzzles", t);
    }

    if let Some(puzzles) = load("top1465.txt", usize::MAX) {
        let t = timed(|| {
            puzzles.par_iter().for_each(|g| {
                black_box(rate(&Puzzle::from_nine(g).solve(&pipeline), &pipeline).ok());
            })
        });
        report(
            "rate: top1465.txt (solve + rate)",
            puzzles.len(),
            "puzzles",
            t,
        );
    }

    if let Some(puzzles) = load("17-clue.txt", CANONICAL) {
        let values: Vec<[u8; 81]> = puzzles.iter().map(|g| *g.values()).collect();
        let t = timed(|| {
            values.par_iter().for_each(|v| {
                black_box(lapiz::puzzle::canonical(v));
            })
        });
        report("canonical: 17-clue.txt", values.len(), "puzzles", t);
    }
}

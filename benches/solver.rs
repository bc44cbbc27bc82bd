//! Throughput of the brute-force solver's uniqueness check (`analyze`).
//!
//! Run with `cargo bench --bench solver`. Puzzle files are read from `$LAPIZ_DATA/puzzles/`,
//! or else from `../shared/data/puzzles/` relative to the crate root; missing files are
//! skipped with a message.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use lapiz::solver::{Solutions, analyze};

const FILES: [&str; 3] = ["17-clue.txt", "hardest-1905-11plus.txt", "top1465.txt"];
const RUNS: usize = 3;

fn data_dir() -> PathBuf {
    match std::env::var_os("LAPIZ_DATA") {
        Some(d) => PathBuf::from(d).join("puzzles"),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/puzzles"),
    }
}

/// Parses one puzzle per line: the first 81 characters, '.' or '0' empty; '#' lines are
/// comments.
fn load(text: &str) -> Vec<[u8; 81]> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with('#') || line.len() < 81 {
            continue;
        }
        let mut g = [0u8; 81];
        for (v, c) in g.iter_mut().zip(line.bytes()) {
            *v = match c {
                b'1'..=b'9' => c - b'0',
                _ => 0,
            };
        }
        out.push(g);
    }
    out
}

/// Time this thread has spent on a CPU, in seconds, where Linux tells it
/// (`/proc/thread-self/schedstat`); less disturbed than wall time on a busy machine.
fn cpu_time() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

fn main() {
    let dir = data_dir();
    let mut any = false;
    for name in FILES {
        let path = dir.join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("skipping {name}: {} not found", path.display());
            continue;
        };
        any = true;
        let puzzles = load(&text);
        let mut best = f64::INFINITY;
        let mut best_cpu = f64::INFINITY;
        let mut counts = [0usize; 3];
        for _ in 0..RUNS {
            counts = [0; 3];
            let cpu_start = cpu_time();
            let start = Instant::now();
            for p in &puzzles {
                match analyze(black_box(p)) {
                    Solutions::None => counts[0] += 1,
                    Solutions::Unique(_) => counts[1] += 1,
                    Solutions::Multiple => counts[2] += 1,
                }
            }
            best = best.min(start.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (cpu_start, cpu_time()) {
                best_cpu = best_cpu.min(b - a);
            }
        }
        let n = puzzles.len() as f64;
        let cpu_note = if best_cpu.is_finite() && best_cpu > 0.0 {
            format!("  [on-CPU time: {:.0} puzzles/s]", n / best_cpu)
        } else {
            String::new()
        };
        println!(
            "{name:<26} {:>6} puzzles  {:>10.0} puzzles/s  {:>8.2} us/puzzle  \
             (unique {}, multiple {}, none {}; best of {RUNS}){cpu_note}",
            puzzles.len(),
            n / best,
            best * 1e6 / n,
            counts[1],
            counts[2],
            counts[0],
        );
    }
    if !any {
        println!(
            "skipping solver benchmark: no puzzle files found in {}",
            dir.display()
        );
    }
}

//! The brute-force solver's uniqueness check (counting to 2), side by side with the `sudoku`
//! crate's solver (a JCZSolve port) on the same puzzles in the same run.
//!
//! Run with `cargo bench --bench solver`. Puzzle files are read from `$LAPIZ_DATA/puzzles/`,
//! or else from `../shared/data/puzzles/` relative to the crate root; missing files are
//! skipped with a message. `LAPIZ_BENCH_LIMIT=N` keeps the first N puzzles of each file, and
//! `LAPIZ_BENCH_SKIP=N` skips the first N puzzles first (to measure on puzzles the solver
//! was not tuned on, e.g. `LAPIZ_BENCH_SKIP=20000 LAPIZ_BENCH_LIMIT=5000`).
//!
//! The two solvers run in alternating rounds (lapiz, sudoku, lapiz, sudoku, ...) so that both
//! see the same machine load; each one's best round is kept, timed by the CPU time of this
//! thread (`CLOCK_THREAD_CPUTIME_ID`) on Unix, else by wall clock. The
//! ratio printed is lapiz's time over the `sudoku` crate's (below 1: lapiz is faster). The
//! counts of both solvers are compared puzzle by puzzle.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use lapiz::brute::count_solutions;

const FILES: [&str; 4] = [
    "17-clue.txt",
    "hardest-1905-11plus.txt",
    "top1465.txt",
    "unbiased-1000.txt",
];
const ROUNDS: usize = 5;

fn data_dir() -> PathBuf {
    match std::env::var_os("LAPIZ_DATA") {
        Some(d) => PathBuf::from(d).join("puzzles"),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/puzzles"),
    }
}

/// Parses one puzzle per line: the first 81 characters, '.' or '0' empty; '#' lines are
/// comments. Skips the first `skip` puzzles and keeps at most `limit`.
fn load(text: &str, skip: usize, limit: usize) -> Vec<[u8; 81]> {
    let mut out = Vec::new();
    let mut seen = 0;
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with('#') || line.len() < 81 {
            continue;
        }
        seen += 1;
        if seen <= skip {
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
        if out.len() == limit {
            break;
        }
    }
    out
}

/// Time this thread has spent on a CPU, in seconds (`CLOCK_THREAD_CPUTIME_ID`); less
/// disturbed than wall time on a busy machine. (`/proc/thread-self/schedstat`, used before,
/// is only brought up to date at scheduler ticks, which gave rounds of a few milliseconds
/// times of zero or a whole tick.)
#[cfg(unix)]
fn cpu_time() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

/// No thread CPU clock here: the rounds are timed by wall clock.
#[cfg(not(unix))]
fn cpu_time() -> Option<f64> {
    None
}

/// Runs `count` over every puzzle once; returns the seconds taken (CPU time where known)
/// and the counts.
fn round(puzzles: &[[u8; 81]], count: impl Fn(&[u8; 81]) -> u32) -> (f64, Vec<u32>) {
    let mut counts = Vec::with_capacity(puzzles.len());
    let cpu_start = cpu_time();
    let start = Instant::now();
    for p in puzzles {
        counts.push(count(black_box(p)));
    }
    let wall = start.elapsed().as_secs_f64();
    let secs = match (cpu_start, cpu_time()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    };
    (secs, counts)
}

fn lapiz_count(p: &[u8; 81]) -> u32 {
    count_solutions(p, 2)
}

fn sudoku_count(p: &[u8; 81]) -> u32 {
    match sudoku::Sudoku::from_bytes(*p) {
        Ok(s) => s.solutions_count_up_to(2) as u32,
        Err(_) => 0,
    }
}

fn main() {
    let dir = data_dir();
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    let limit = env("LAPIZ_BENCH_LIMIT").unwrap_or(usize::MAX);
    let skip = env("LAPIZ_BENCH_SKIP").unwrap_or(0);
    let mut any = false;
    for name in FILES {
        let path = dir.join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("skipping {name}: {} not found", path.display());
            continue;
        };
        any = true;
        let puzzles = load(&text, skip, limit);
        if puzzles.is_empty() {
            println!("skipping {name}: no puzzles after skipping {skip}");
            continue;
        }
        let (mut best_lapiz, mut best_sudoku) = (f64::INFINITY, f64::INFINITY);
        let mut lapiz_counts = Vec::new();
        let mut sudoku_counts = Vec::new();
        for _ in 0..ROUNDS {
            let (t, c) = round(&puzzles, lapiz_count);
            best_lapiz = best_lapiz.min(t);
            lapiz_counts = c;
            let (t, c) = round(&puzzles, sudoku_count);
            best_sudoku = best_sudoku.min(t);
            sudoku_counts = c;
        }
        let disagree = lapiz_counts
            .iter()
            .zip(&sudoku_counts)
            .filter(|(a, b)| a != b)
            .count();
        let n = puzzles.len() as f64;
        println!(
            "{name:<24} {:>6} puzzles  lapiz {:>8.2} us/puzzle  sudoku crate {:>8.2} us/puzzle  \
             ratio lapiz/sudoku {:.3}  (best of {ROUNDS} alternating rounds; counts differ on {disagree})",
            puzzles.len(),
            best_lapiz * 1e6 / n,
            best_sudoku * 1e6 / n,
            best_lapiz / best_sudoku,
        );
        assert_eq!(disagree, 0, "{name}: the two solvers' counts differ");
    }
    if !any {
        println!(
            "skipping solver benchmark: no puzzle files found in {}",
            dir.display()
        );
    }
}

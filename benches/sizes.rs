//! The brute force on boards of other sizes, side by side with a general solver: the
//! `dancing-links` crate (Knuth's Algorithm X over dancing links, with its own Sudoku
//! encoding), on generated minimal 16x16 puzzles, generated 25x25 puzzles and tarek's tough
//! 16x16 puzzles. Each counts to 2 solutions (what proving uniqueness takes). A solver that
//! has not finished a puzzle within the cap is reported as such and left behind.
//!
//! With `--features sat-bench`, also the CaDiCaL SAT solver (a state-of-the-art CDCL solver)
//! on the standard encoding: a variable per cell and digit, each cell one digit, each house each
//! digit once (pairwise at-most-one), the clues as units; counting to 2 is a second solve with
//! the first solution blocked. Its time includes building the formula.
//!
//! `cargo bench --bench sizes [--features sat-bench]` (`-- --tough N` for the first N tough
//! puzzles, 5 by default; `-- --cap SECONDS`, 60 by default; `-- --no-dlx` leaves dancing-links
//! out: its capped searches go on in the background and would slow the other columns).
//! Figures: docs/performance.md.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use dancing_links::{ExactCover, latin_square, sudoku::Sudoku};
use lapiz::Pipeline;
use lapiz::model::{Alphabet, Layout};
use lapiz::puzzle::generate::{Clues, GenerateOptions};
use lapiz::text::Puzzle;

/// Counts with the dancing-links crate (up to 2), in a thread: `None` past `cap`.
fn dlx_count(p: &Puzzle, cap: Duration) -> Option<(usize, Duration)> {
    let n = p.layout().n();
    let box_size = p.layout().box_rows();
    let filled: Vec<latin_square::Possibility> = p
        .values()
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 0)
        .map(|(i, &v)| latin_square::Possibility {
            row: i / n,
            column: i % n,
            value: usize::from(v),
        })
        .collect();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let start = Instant::now();
        let sudoku = Sudoku::new(box_size, filled);
        let count = sudoku.solver().take(2).count();
        let _ = tx.send((count, start.elapsed()));
    });
    rx.recv_timeout(cap).ok()
}

/// Counts with CaDiCaL (up to 2): the time of building the formula and both solves.
#[cfg(feature = "sat-bench")]
fn sat_count(p: &Puzzle) -> (usize, Duration) {
    let start = Instant::now();
    let (n, rows, cols) = (p.layout().n(), p.layout().box_rows(), p.layout().box_cols());
    let var = |cell: usize, digit: usize| (cell * n + digit + 1) as i32;
    let mut sat: cadical::Solver = cadical::Solver::new();
    let at_most_one = |sat: &mut cadical::Solver, lits: &[i32]| {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sat.add_clause([-a, -b]);
            }
        }
    };
    let mut houses: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        houses.push((0..n).map(|j| i * n + j).collect());
        houses.push((0..n).map(|j| j * n + i).collect());
        let (r0, c0) = (i / (n / cols) * rows, i % (n / cols) * cols);
        houses.push(
            (0..n)
                .map(|j| (r0 + j / cols) * n + c0 + j % cols)
                .collect(),
        );
    }
    for cell in 0..n * n {
        let lits: Vec<i32> = (0..n).map(|d| var(cell, d)).collect();
        sat.add_clause(lits.iter().copied());
        at_most_one(&mut sat, &lits);
    }
    for house in &houses {
        for d in 0..n {
            let lits: Vec<i32> = house.iter().map(|&c| var(c, d)).collect();
            sat.add_clause(lits.iter().copied());
            at_most_one(&mut sat, &lits);
        }
    }
    for (cell, &v) in p.values().iter().enumerate() {
        if v != 0 {
            sat.add_clause([var(cell, usize::from(v) - 1)]);
        }
    }
    let mut count = 0;
    while count < 2 && sat.solve() == Some(true) {
        count += 1;
        let block: Vec<i32> = (0..n * n)
            .filter(|&cell| p.values()[cell] == 0)
            .flat_map(|cell| (0..n).map(move |d| (cell, d)))
            .filter(|&(cell, d)| sat.value(var(cell, d)) == Some(true))
            .map(|(cell, d)| -var(cell, d))
            .collect();
        if block.is_empty() {
            break;
        }
        sat.add_clause(block);
    }
    (count, start.elapsed())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let option = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let cap = Duration::from_secs(option("--cap", 60));
    let tough_count = option("--tough", 5) as usize;
    let dlx = !args.iter().any(|a| a == "--no-dlx");
    let sixteen = Layout::new(16).expect("16x16");
    let twenty_five = Layout::new(25).expect("25x25");
    let generated = |layout: Layout, clues: Clues, count: u64| -> Vec<Puzzle> {
        (0..count)
            .map(|i| {
                Puzzle::generate(
                    layout,
                    Alphabet::Standard,
                    &GenerateOptions {
                        clues,
                        ..Default::default()
                    },
                    &Pipeline::default_pipeline(),
                    2026,
                    i,
                )
                .expect("a puzzle")
                .puzzle
            })
            .collect()
    };
    let data = std::env::var("LAPIZ_DATA")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data").to_string());
    let tough: Vec<Puzzle> = std::fs::read_to_string(format!("{data}/puzzles/16x16/tough-206.txt"))
        .map(|t| {
            t.lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .take(tough_count)
                .map(|l| Puzzle::parse(l).expect("a tough puzzle"))
                .collect()
        })
        .unwrap_or_else(|_| {
            eprintln!("no tough-206.txt under {data}: that set is skipped");
            Vec::new()
        });
    let sets = [
        (
            "16x16 generated, minimal",
            generated(sixteen, Clues::Minimal, 10),
        ),
        (
            "25x25 generated, <= 350 clues",
            generated(twenty_five, Clues::AtMost(350), 3),
        ),
        ("16x16 tarek's tough", tough),
    ];
    println!(
        "{:<32} {:>8} {:>14} {:>14} {:>8} {:>12} {:>8}",
        "set", "puzzles", "lapiz (ms)", "dlx (ms)", "ratio", "sat (ms)", "ratio"
    );
    for (name, puzzles) in sets {
        if puzzles.is_empty() {
            continue;
        }
        let start = Instant::now();
        for p in &puzzles {
            assert_eq!(p.count_solutions(2), 1);
        }
        let ours = start.elapsed();
        let mut theirs = Duration::ZERO;
        let mut unfinished = 0;
        for p in puzzles.iter().filter(|_| dlx) {
            match dlx_count(p, cap) {
                Some((count, took)) => {
                    assert_eq!(count, 1, "dancing-links disagrees on {p}");
                    theirs += took;
                }
                None => {
                    unfinished += 1;
                    theirs += cap;
                }
            }
        }
        let theirs_text = match unfinished {
            _ if !dlx => "-".to_string(),
            0 => format!("{:.1}", theirs.as_secs_f64() * 1e3),
            k => format!(">{:.0} ({k} capped)", theirs.as_secs_f64() * 1e3),
        };
        #[cfg(feature = "sat-bench")]
        let sat_text = {
            let mut sat = Duration::ZERO;
            for p in &puzzles {
                let (count, took) = sat_count(p);
                assert_eq!(count, 1, "CaDiCaL disagrees on {p}");
                sat += took;
            }
            format!(
                "{:>12.1} {:>7.1}x",
                sat.as_secs_f64() * 1e3,
                sat.as_secs_f64() / ours.as_secs_f64().max(1e-9)
            )
        };
        #[cfg(not(feature = "sat-bench"))]
        let sat_text = format!("{:>12} {:>8}", "-", "-");
        let dlx_ratio = match dlx {
            true => format!(
                "{:.0}x",
                theirs.as_secs_f64() / ours.as_secs_f64().max(1e-9)
            ),
            false => "-".to_string(),
        };
        println!(
            "{name:<32} {:>8} {:>14.1} {:>14} {dlx_ratio:>8} {sat_text}",
            puzzles.len(),
            ours.as_secs_f64() * 1e3,
            theirs_text,
        );
    }
}

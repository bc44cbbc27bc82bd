//! The brute force on boards of other sizes, side by side with a general solver: the
//! `dancing-links` crate (Knuth's Algorithm X over dancing links, with its own Sudoku
//! encoding), on generated minimal 16x16 puzzles, generated 25x25 puzzles and tarek's tough
//! 16x16 puzzles. Each counts to 2 solutions (what proving uniqueness takes). A solver that
//! has not finished a puzzle within the cap is reported as such and left behind.
//!
//! `cargo bench --bench sizes` (`-- --tough N` for the first N tough puzzles, 5 by default;
//! `-- --cap SECONDS`, 60 by default). Figures: docs/performance.md.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use dancing_links::{ExactCover, latin_square, sudoku::Sudoku};
use lapiz::generate::{Clues, Symmetry};
use lapiz::shape::{Alphabet, Layout, Puzzle};

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
    let sixteen = Layout::new(16).expect("16x16");
    let twenty_five = Layout::new(25).expect("25x25");
    let generated = |layout: Layout, clues: Clues, count: u64| -> Vec<Puzzle> {
        (0..count)
            .map(|i| {
                Puzzle::generate(layout, Alphabet::Standard, Symmetry::None, clues, 2026, i)
                    .expect("a puzzle")
                    .0
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
        "{:<32} {:>8} {:>14} {:>14} {:>8}",
        "set", "puzzles", "lapiz (ms)", "dlx (ms)", "ratio"
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
        for p in &puzzles {
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
            0 => format!("{:.1}", theirs.as_secs_f64() * 1e3),
            k => format!(">{:.0} ({k} capped)", theirs.as_secs_f64() * 1e3),
        };
        println!(
            "{name:<32} {:>8} {:>14.1} {:>14} {:>7.0}x",
            puzzles.len(),
            ours.as_secs_f64() * 1e3,
            theirs_text,
            theirs.as_secs_f64() / ours.as_secs_f64().max(1e-9)
        );
    }
}

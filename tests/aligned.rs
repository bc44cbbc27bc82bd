//! Aligned Pair and Triple Exclusion are sound on real positions (every step they find on the
//! positions met solving top1465, and where the default pipeline without forcing chains gets
//! stuck), and how long a search takes there.

mod common;

use std::time::{Duration, Instant};

use lapiz::Grid;
use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::engine::Outcome;
use lapiz::engine::check_puzzle;
use lapiz::technique::{Technique, builtin, family, find_all};
use lapiz::text::parse_puzzle;

/// Positions met solving `puzzles` with the default pipeline without forcing chains: every
/// `every`-th position along each solve and the end position of a stuck solve, each with the
/// puzzle's solution.
fn positions(puzzles: &[String], every: usize) -> Vec<(Grid, [u8; 81])> {
    let pipeline = common::pipeline_without_forcing();
    let mut out = Vec::new();
    for p in puzzles {
        let grid = parse_puzzle(p).expect("puzzle");
        let solution = check_puzzle(&grid).expect("valid puzzle");
        let trace = Puzzle::from_nine(&grid).solve(&pipeline);
        let mut g = grid.clone();
        for (i, s) in trace.steps().enumerate() {
            if i % every == every - 1 {
                out.push((g.clone(), solution));
            }
            s.apply(&mut g);
        }
        if matches!(trace.outcome, Outcome::Stuck { .. }) {
            out.push((g, solution));
        }
    }
    out
}

/// Checks every step of `t` on every position; returns (steps, total time, slowest search).
fn check(t: &dyn Technique, positions: &[(Grid, [u8; 81])]) -> (usize, Duration, Duration) {
    let (mut found, mut total, mut worst) = (0, Duration::ZERO, Duration::ZERO);
    for (grid, solution) in positions {
        let start = Instant::now();
        let steps = find_all(t, grid).expect("search runs");
        let took = start.elapsed();
        total += took;
        worst = worst.max(took);
        for s in &steps {
            assert!(!s.eliminations.is_empty(), "{}", s.explanation);
            assert!(
                s.eliminations
                    .iter()
                    .all(|e| grid.has_candidate(e.cell, e.digit)),
                "{}",
                s.explanation
            );
            assert_eq!(
                s.contradiction(solution),
                None,
                "unsound {}: {} on {}",
                t.id(),
                s.explanation,
                grid.to_line()
            );
            assert_eq!(s.technique, t.id());
            assert_eq!(s.difficulty, t.difficulty());
        }
        found += steps.len();
    }
    (found, total, worst)
}

fn report(t: &dyn Technique, n: usize, (found, total, worst): (usize, Duration, Duration)) {
    eprintln!(
        "{}: {found} steps on {n} positions, {:.1} µs/search on average, slowest {:.2} ms",
        t.id(),
        total.as_secs_f64() * 1e6 / n.max(1) as f64,
        worst.as_secs_f64() * 1e3
    );
}

#[test]
fn aligned_exclusion_is_sound_on_top1465() {
    let Some(puzzles) = common::puzzles("top1465.txt", 300) else {
        return;
    };
    let positions = positions(&puzzles, 7);
    assert!(!positions.is_empty());
    for t in family("aligned").expect("a family") {
        let result = check(t.as_ref(), &positions);
        report(t.as_ref(), positions.len(), result);
        assert!(result.0 > 0, "{} found nothing", t.id());
    }
}

/// In a pipeline of the singles, intersections, subsets and basic fish, then the aligned
/// exclusions, their steps are taken and pass the engine's check against the solution. (With
/// the wings before them, as in SE, the pair finds nothing on these puzzles: most of what it
/// finds there is an XY-Wing or an XYZ-Wing.)
#[test]
fn aligned_exclusion_steps_pass_the_engine_check() {
    let Some(puzzles) = common::puzzles("top1465.txt", 100) else {
        return;
    };
    let ids = [
        "full-house",
        "hidden-single",
        "naked-single",
        "pointing",
        "claiming",
        "naked-pair",
        "x-wing",
        "hidden-pair",
        "naked-triple",
        "swordfish",
        "hidden-triple",
        "naked-quad",
        "jellyfish",
        "hidden-quad",
        "aligned-pair-exclusion",
        "aligned-triple-exclusion",
    ];
    let techniques = ids
        .iter()
        .map(|id| builtin(id).expect("built-in"))
        .collect();
    let pipeline = Pipeline::from_techniques("se-like", techniques).expect("unique ids");
    let (mut pairs, mut triples) = (0, 0);
    for p in &puzzles {
        let trace = Puzzle::from_nine(&parse_puzzle(p).expect("puzzle")).solve(&pipeline);
        assert_eq!(trace.summary.rejected, 0, "rejected step in {p}");
        for s in trace.steps() {
            match s.technique.as_str() {
                "aligned-pair-exclusion" => pairs += 1,
                "aligned-triple-exclusion" => triples += 1,
                _ => {}
            }
        }
    }
    eprintln!("aligned pair exclusion steps: {pairs}, triple: {triples}");
    assert!(pairs > 0 && triples > 0);
}

/// The search time on every tenth position met solving all of top1465 (as the technique bench
/// takes them) plus the stuck ends: `cargo test --release --test aligned -- --ignored
/// --nocapture`.
#[test]
#[ignore = "timing: run by hand"]
fn aligned_exclusion_timing_on_top1465() {
    let Some(puzzles) = common::puzzles("top1465.txt", usize::MAX) else {
        return;
    };
    let positions = positions(&puzzles, 10);
    for t in family("aligned").expect("a family") {
        let result = check(t.as_ref(), &positions);
        report(t.as_ref(), positions.len(), result);
    }
}

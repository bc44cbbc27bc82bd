//! Property test: every step that every chain, loop, ALS and colouring technique finds (all of
//! them, not only the first) on the positions met solving real puzzles is sound against the
//! puzzle's solution.

mod common;

use lapiz::model::Grid;
use lapiz::technique::{Technique, family, find_all};
use lapiz::text::parse_puzzle;
use lapiz::{Pipeline, solve_puzzle};

fn techniques() -> Vec<Box<dyn Technique>> {
    let mut v = family("chains").expect("a family");
    v.extend(family("medusa").expect("a family"));
    v.extend(family("als").expect("a family"));
    v.extend(family("sue-de-coq").expect("a family"));
    v
}

/// The positions where the default pipeline took a step of at least `min` difficulty.
fn hard_positions(puzzle: &str, pipeline: &Pipeline, min: f32) -> Vec<Grid> {
    let trace = solve_puzzle(puzzle, pipeline);
    let mut grid = parse_puzzle(puzzle).expect("a valid puzzle");
    let mut out = Vec::new();
    for step in trace.steps() {
        if step.difficulty >= min {
            out.push(grid.clone());
        }
        step.apply(&mut grid);
    }
    out
}

#[test]
fn every_chain_step_on_real_positions_is_sound() {
    let Some(puzzles) = common::puzzles("top1465.txt", 40) else {
        return;
    };
    let pipeline = Pipeline::default_pipeline();
    let techniques = techniques();
    let mut checked = vec![0usize; techniques.len()];
    let mut positions = 0;
    for p in &puzzles {
        let solution = lapiz::engine::check_puzzle(&parse_puzzle(p).unwrap()).unwrap();
        for grid in hard_positions(p, &pipeline, 4.2) {
            positions += 1;
            for (i, t) in techniques.iter().enumerate() {
                for step in find_all(t.as_ref(), &grid).unwrap() {
                    assert!(
                        step.contradiction(&solution).is_none(),
                        "unsound {} step in {p}: {}",
                        t.id(),
                        step.explanation
                    );
                    checked[i] += 1;
                }
            }
        }
    }
    let total: usize = checked.iter().sum();
    eprintln!("{positions} positions, {total} steps checked");
    for (t, n) in techniques.iter().zip(&checked) {
        eprintln!("  {}: {n}", t.id());
    }
    assert!(positions >= 100, "only {positions} positions");
    assert!(total >= 10_000, "only {total} steps checked");
    // every technique found something somewhere, but for the one-digit chains, which the
    // cheaper single-digit patterns before them leave nothing to on these positions (the
    // library cases and `reglib_single_digit` cover them)
    for (t, n) in techniques.iter().zip(&checked) {
        if !["remote-pairs", "x-chain"].contains(&t.id()) {
            assert!(*n > 0, "{} never fired", t.id());
        }
    }
}

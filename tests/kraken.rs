//! Kraken fish: an insta snapshot of each type's step (text and net) on a published puzzle, and
//! a property test that every Kraken step found on the hard positions of real puzzles is sound
//! and its net well formed.

mod common;

use lapiz::model::{Candidate, Grid};
use lapiz::step::Step;
use lapiz::step::{BranchEnd, ForcingKind};
use lapiz::technique::find_all;
use lapiz::technique::{builtin, family};
use lapiz::text::parse_puzzle;
use lapiz::{Pipeline, solve_puzzle};

/// A puzzle of `top1465` where chains stall and a Kraken fish type 1 eliminates.
const TYPE_1_PUZZLE: &str =
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
/// A puzzle of `top1465` where chains stall and a Kraken fish type 2 eliminates.
const TYPE_2_PUZZLE: &str =
    ".5.1.8.7.4..3.....2.........1.7...8.9.....4............3.....1.....4.2......5.6..";

/// Where the default pipeline without forcing chains stops on `puzzle`, and the solution.
fn stuck(puzzle: &str) -> (Grid, [u8; 81]) {
    common::forcing::stuck(puzzle, &common::pipeline_without_forcing())
}

fn text(step: &Step) -> String {
    let mut s = format!("{} ({})\n", step.explanation, step.difficulty);
    step.net.as_ref().expect("a net").write_text(&mut s, 2);
    s
}

/// A Kraken step eliminates one candidate the solution does not hold, with a fish net whose
/// branches each start from an assumption and end in the elimination or in a contradiction
/// (then the assumption is false); a true assumption implies only what the solution says.
fn check(step: &Step, sol: &[u8; 81]) {
    assert_eq!(
        step.contradiction(sol),
        None,
        "unsound: {}",
        step.explanation
    );
    assert!(step.placements.is_empty());
    assert_eq!(step.eliminations.len(), 1, "{}", step.explanation);
    let t = step.eliminations[0];
    let net = step.net.as_ref().expect("a net");
    assert!(matches!(net.kind, ForcingKind::Fish(_)), "{:?}", net.kind);
    let truth = |c: Candidate| common::forcing::holds(sol, c);
    for branch in &net.branches {
        let (a, a_on) = common::forcing::check_branch(branch, sol, &step.explanation);
        assert!(a_on);
        match branch.end {
            BranchEnd::Conclusion => {
                let last = branch.implications.last().expect("a conclusion");
                assert_eq!(
                    (last.candidate, last.on),
                    (t, false),
                    "{}",
                    step.explanation
                );
            }
            _ => assert!(
                !truth(a),
                "a true fin met a contradiction: {}",
                step.explanation
            ),
        }
    }
}

#[test]
fn kraken_type_1_step() {
    let (grid, sol) = stuck(TYPE_1_PUZZLE);
    let steps = find_all(
        builtin("kraken-fish-type-1").expect("a built-in").as_ref(),
        &grid,
    )
    .expect("runs");
    assert!(!steps.is_empty(), "no Kraken fish type 1");
    for s in &steps {
        check(s, &sol);
    }
    insta::assert_snapshot!("kraken_type_1_text", text(&steps[0]));
}

#[test]
fn kraken_type_2_step() {
    let (grid, sol) = stuck(TYPE_2_PUZZLE);
    let steps = find_all(
        builtin("kraken-fish-type-2").expect("a built-in").as_ref(),
        &grid,
    )
    .expect("runs");
    assert!(!steps.is_empty(), "no Kraken fish type 2");
    for s in &steps {
        check(s, &sol);
    }
    insta::assert_snapshot!("kraken_type_2_text", text(&steps[0]));
}

#[test]
fn every_kraken_step_on_real_positions_is_sound() {
    let Some(puzzles) = common::puzzles("top1465.txt", 60) else {
        return;
    };
    let pipeline = Pipeline::default_pipeline();
    let techniques = family("kraken").expect("a family");
    let mut checked = vec![0usize; techniques.len()];
    let mut positions = 0;
    for p in &puzzles {
        let trace = solve_puzzle(p, &pipeline);
        let sol = trace.solution.as_deref().expect("unique").as_bytes();
        let sol: [u8; 81] = std::array::from_fn(|i| sol[i] - b'0');
        let mut grid = parse_puzzle(p).expect("valid");
        for step in trace.steps() {
            if step.difficulty >= 7.0 {
                positions += 1;
                for (i, t) in techniques.iter().enumerate() {
                    for s in find_all(t.as_ref(), &grid).expect("runs") {
                        check(&s, &sol);
                        checked[i] += 1;
                    }
                }
            }
            step.apply(&mut grid);
        }
    }
    eprintln!("{positions} positions, Kraken steps checked: {checked:?}");
    assert!(positions >= 100, "only {positions} positions");
    for (t, n) in techniques.iter().zip(&checked) {
        assert!(*n >= 20, "{}: only {n} steps", t.id());
    }
}

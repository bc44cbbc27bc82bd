//! Forcing chains and nets: insta snapshots of a contradiction net, a cell forcing chain and a
//! nested step (RON and text), and property tests that every forcing step found over many real
//! positions is sound and its proof well formed.
//!
//! The snapshot puzzles are published ones (`top1465`, `hardest-1905-11plus`), written here;
//! the property tests read the shared collections and skip without them.

mod common;

use common::forcing::{check_branch, holds, stuck};
use lapiz::Puzzle;
use lapiz::model::Candidate;
use lapiz::step::Step;
use lapiz::step::{BranchEnd, ForcingKind, Reason};
use lapiz::technique::{Technique, builtin, family};
use lapiz::technique::{find_all, find_first};
use lapiz::text::parse_puzzle;
use lapiz::{Pipeline, solve_puzzle};

/// The first puzzle of `top1465`: chains stall, dynamic forcing chains finish it.
const TOP1465_FIRST: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// The first puzzle of `hardest-1905-11plus`: it needs nested forcing chains.
const HARDEST_FIRST: &str =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

/// The default pipeline without the forcing techniques from `from` on.
fn pipeline_before(from: &str) -> Pipeline {
    let mut p = Pipeline::default_pipeline();
    let ids: Vec<String> = family("forcing")
        .expect("a family")
        .iter()
        .map(|t| t.id().to_string())
        .skip_while(|id| id != from)
        .collect();
    p.retain(|t| !ids.iter().any(|i| i == t.id()));
    p
}

fn ron(step: &Step) -> String {
    let config = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("  ".to_string())
        .compact_arrays(true);
    ron::ser::to_string_pretty(step, config).expect("a step serializes") + "\n"
}

fn text(step: &Step) -> String {
    let mut s = step.explanation.clone() + "\n";
    step.net.as_ref().expect("a net").write_text(&mut s, 2);
    s
}

/// A forcing step is sound, and its net is well formed: parents come first, the branches start
/// from the assumptions the kind says, each ends where it should, and the branch whose
/// assumption is true only ever implies what the solution says.
fn check(step: &Step, sol: &[u8; 81]) {
    assert_eq!(
        step.contradiction(sol),
        None,
        "unsound: {}",
        step.explanation
    );
    let net = step.net.as_ref().expect("a net");
    let target = step
        .placements
        .iter()
        .map(|&c| (c, true))
        .chain(step.eliminations.iter().map(|&c| (c, false)))
        .collect::<Vec<_>>();
    assert_eq!(target.len(), 1, "{}", step.explanation);
    let (t, t_on) = target[0];
    let truth = |c: Candidate| holds(sol, c);
    match net.kind {
        ForcingKind::Contradiction => assert_eq!(net.branches.len(), 1),
        ForcingKind::Double => assert_eq!(net.branches.len(), 2),
        ForcingKind::Cell(_) | ForcingKind::House(..) => assert!(net.branches.len() >= 2),
        ForcingKind::Fish(_) => assert!(!net.branches.is_empty()),
        other => panic!("a forcing kind this test does not know: {other:?}"),
    }
    for branch in &net.branches {
        let (a, a_on) = check_branch(branch, sol, &step.explanation);
        match net.kind {
            ForcingKind::Contradiction => {
                assert_ne!(branch.end, BranchEnd::Conclusion);
                assert_eq!((a, !a_on), (t, t_on));
                // a true assumption never meets a contradiction
                assert_ne!(truth(a), a_on, "{}", step.explanation);
            }
            _ => {
                assert_eq!(branch.end, BranchEnd::Conclusion);
                let last = branch.implications.last().expect("a conclusion");
                assert_eq!((last.candidate, last.on), (t, t_on), "{}", step.explanation);
            }
        }
    }
}

#[test]
fn contradiction_net() {
    let (grid, sol) = stuck(TOP1465_FIRST, &pipeline_before("forcing-chain"));
    let step = find_first(forcing("dynamic-forcing-chain").as_ref(), &grid)
        .expect("runs")
        .expect("a step");
    check(&step, &sol);
    assert_eq!(step.net.as_ref().unwrap().kind, ForcingKind::Contradiction);
    insta::assert_snapshot!("contradiction_step", ron(&step));
    insta::assert_snapshot!("contradiction_text", text(&step));
}

#[test]
fn cell_forcing_chain() {
    let (grid, sol) = stuck(TOP1465_FIRST, &pipeline_before("forcing-chain"));
    let steps = find_all(forcing("dynamic-forcing-chain").as_ref(), &grid).expect("runs");
    for s in &steps {
        check(s, &sol);
    }
    let cell = steps
        .iter()
        .find(|s| matches!(s.net.as_ref().unwrap().kind, ForcingKind::Cell(_)))
        .expect("a cell forcing chain");
    insta::assert_snapshot!("cell_forcing_step", ron(cell));
    insta::assert_snapshot!("cell_forcing_text", text(cell));
}

#[test]
fn nested_step() {
    let (grid, sol) = stuck(HARDEST_FIRST, &pipeline_before("nested-forcing-chain"));
    let step = find_first(forcing("nested-forcing-chain").as_ref(), &grid)
        .expect("runs")
        .or_else(|| {
            find_first(forcing("nested-dynamic-forcing-chain").as_ref(), &grid).expect("runs")
        })
        .expect("a nested step");
    check(&step, &sol);
    let net = step.net.as_ref().unwrap();
    assert!(
        net.branches[0]
            .implications
            .iter()
            .any(|i| matches!(i.reason, Reason::Nested(_))),
        "{}",
        text(&step)
    );
    insta::assert_snapshot!("nested_text", text(&step));
}

#[test]
fn a_nested_level_shows_its_smallest_contradiction() {
    // Every contradiction of the level, as the search hands them out (smallest net first):
    // the first one, the step the pipeline applies, has the smallest net of them all.
    let (grid, sol) = stuck(HARDEST_FIRST, &pipeline_before("nested-forcing-chain"));
    let mut steps: Vec<Step> = Vec::new();
    forcing("nested-dynamic-forcing-chain")
        .find(&grid, &mut |step| {
            if step.net.as_ref().unwrap().kind != ForcingKind::Contradiction {
                return std::ops::ControlFlow::Break(());
            }
            steps.push(step);
            std::ops::ControlFlow::Continue(())
        })
        .expect("runs");
    assert!(steps.len() > 1, "several contradictions to choose from");
    let sizes: Vec<usize> = steps
        .iter()
        .map(|s| s.net.as_ref().unwrap().size())
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
    for s in &steps {
        check(s, &sol);
    }
    let first = find_first(forcing("nested-dynamic-forcing-chain").as_ref(), &grid)
        .expect("runs")
        .expect("a step");
    assert_eq!(first.net.as_ref().unwrap().size(), sizes[0]);
    assert_eq!(first.explanation, steps[0].explanation);
}

#[test]
fn the_default_pipeline_finishes_the_hardest_by_logic() {
    for p in [TOP1465_FIRST, HARDEST_FIRST] {
        let t = solve_puzzle(p, &Pipeline::default_pipeline());
        assert!(t.is_solved(), "{p}");
        assert_eq!(t.summary.rejected, 0);
        assert!(t.steps().all(|s| s.technique != "guess"));
    }
}

/// Every forcing step found at the stuck positions of the first puzzles of `top1465` (the
/// default pipeline without forcing techniques), at the three cheaper levels, is sound.
#[test]
fn forcing_steps_are_sound_on_top1465() {
    let Some(puzzles) = common::puzzles("top1465.txt", 400) else {
        return;
    };
    let pipeline = pipeline_before("forcing-chain");
    let (mut positions, mut steps) = (0, 0);
    for p in &puzzles {
        let start = parse_puzzle(p).expect("valid");
        let trace = Puzzle::from_nine(&start).solve(&pipeline);
        if trace.is_solved() {
            continue;
        }
        let (grid, sol) = stuck(p, &pipeline);
        positions += 1;
        for id in [
            "forcing-chain",
            "dynamic-forcing-chain",
            "dynamic-forcing-chain-plus",
        ] {
            for s in find_all(forcing(id).as_ref(), &grid).expect("runs") {
                check(&s, &sol);
                steps += 1;
            }
        }
    }
    eprintln!("{steps} forcing steps checked at {positions} positions");
    assert!(positions >= 30 && steps >= 3000, "{positions} {steps}");
}

/// The first nested step at the stuck positions of the first puzzles of the hardest list is
/// sound (nested searches are costly: one step per puzzle).
#[test]
fn nested_steps_are_sound_on_the_hardest() {
    let Some(puzzles) = common::puzzles("hardest-1905-11plus.txt", 12) else {
        return;
    };
    let pipeline = pipeline_before("nested-forcing-chain");
    let mut checked = 0;
    for p in &puzzles {
        let (grid, sol) = stuck(p, &pipeline);
        for id in ["nested-forcing-chain", "nested-dynamic-forcing-chain"] {
            if let Some(s) = find_first(forcing(id).as_ref(), &grid).expect("runs") {
                check(&s, &sol);
                checked += 1;
            }
        }
    }
    assert!(checked >= puzzles.len(), "{checked}");
}

/// The built-in forcing technique with this id.
fn forcing(id: &str) -> Box<dyn Technique> {
    builtin(id).expect("a built-in forcing technique")
}

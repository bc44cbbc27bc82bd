//! insta snapshots of solves that need chains and almost locked sets: the whole trace as text,
//! and every chain or ALS step in RON with its chain data (nodes, on/off states, link kinds).
//!
//! The puzzles are published ones (from the well-known `top1465` list, and one line of HoDoKu's
//! regression library); nothing here reads the shared data.

use lapiz::Puzzle;
use lapiz::engine::Trace;
use lapiz::step::{LinkType, Step};
use lapiz::technique::builtin;
use lapiz::text::{parse_library_line, parse_puzzle};
use lapiz::{Pipeline, solve_puzzle};

/// Solved by the default pipeline with a continuous nice loop.
const CONTINUOUS: &str =
    ".....45..6.47...9..1...8.4....59.....5....938..7...........23..1..4...567.6......";
/// Solved by the default pipeline with discontinuous nice loops.
const DISCONTINUOUS: &str =
    "....9.7..8....3.6.7.3....2...6.471............2.1....5.9.6........5..68...4....5.";
/// Solved by the default pipeline with ALS-XZ steps.
const ALS_XZ: &str =
    "....3.....7..5...25...4..9.4..6..9...9......13.2....7...7.948.....3..1....8....5.";
/// The first puzzle of `top1465`: after the basics, grouped AICs make progress.
const TOP1465_FIRST: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// Line 1084 of HoDoKu's regression library (0709-2): a continuous loop through almost locked
/// sets that take a cell (without one digit, the set's others leave a cell outside it one
/// candidate), with HoDoKu's eliminations.
const LIBRARY_1084: &str = ":0709-2:236:.4..892...652+4...+9..9.+1...44..9.5...95.+4...17...1.8+4+956.+4...9...+9...174...789+4.3.:331 242 342 243 245 345 574 775 584 689:291 314 649::9";

/// The steps of `ids`, in RON, one after another.
fn steps_ron(trace: &Trace, ids: &[&str]) -> String {
    let config = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("  ".to_string())
        .compact_arrays(true);
    trace
        .steps()
        .filter(|s| ids.contains(&s.technique.as_str()))
        .map(|s| ron::ser::to_string_pretty(s, config.clone()).expect("a step serializes") + "\n")
        .collect()
}

/// Every chain of a step is well formed: one link fewer than nodes, links alternating
/// strong and weak along the on/off states (off then on across a strong link, on then off
/// across a weak one).
fn check_chains(step: &Step) {
    assert!(!step.chains.is_empty(), "{}", step.explanation);
    for chain in &step.chains {
        assert_eq!(chain.links.len() + 1, chain.nodes.len());
        for (i, link) in chain.links.iter().enumerate() {
            let (a, b) = (&chain.nodes[i], &chain.nodes[i + 1]);
            match link {
                LinkType::Strong => assert!(!a.on && b.on, "{}", step.explanation),
                LinkType::Weak => assert!(a.on && !b.on, "{}", step.explanation),
            }
        }
    }
}

fn text(trace: &Trace, puzzle: &str) -> String {
    trace.to_text(Some(&parse_puzzle(puzzle).unwrap()))
}

fn nice_loop(puzzle: &str, id: &str, name: &str) {
    let t = solve_puzzle(puzzle, &Pipeline::default_pipeline());
    assert!(t.is_solved());
    assert!(t.steps().any(|s| s.technique == id), "no {id} step");
    t.steps()
        .filter(|s| s.technique == id)
        .for_each(check_chains);
    insta::assert_snapshot!(format!("{name}_text"), text(&t, puzzle));
    insta::assert_snapshot!(format!("{name}_steps"), steps_ron(&t, &[id]));
}

#[test]
fn continuous_nice_loop() {
    nice_loop(CONTINUOUS, "continuous-nice-loop", "continuous");
}

#[test]
fn discontinuous_nice_loop() {
    nice_loop(DISCONTINUOUS, "discontinuous-nice-loop", "discontinuous");
}

#[test]
fn als_xz() {
    let t = solve_puzzle(ALS_XZ, &Pipeline::default_pipeline());
    assert!(t.is_solved());
    assert!(t.steps().any(|s| s.technique == "als-xz"));
    insta::assert_snapshot!("als_xz_text", text(&t, ALS_XZ));
    insta::assert_snapshot!("als_xz_steps", steps_ron(&t, &["als-xz"]));
}

#[test]
fn grouped_aic() {
    let ids = [
        "full-house",
        "hidden-single",
        "naked-single",
        "pointing",
        "claiming",
        "naked-pair",
        "hidden-pair",
        "grouped-aic",
    ];
    let pipeline = Pipeline::from_techniques(
        "grouped-aic",
        ids.iter().map(|id| builtin(id).unwrap()).collect(),
    )
    .expect("unique ids");
    let t = solve_puzzle(TOP1465_FIRST, &pipeline);
    assert_eq!(t.summary.rejected, 0);
    let aics: Vec<&Step> = t.steps().filter(|s| s.technique == "grouped-aic").collect();
    assert!(!aics.is_empty());
    aics.iter().copied().for_each(check_chains);
    insta::assert_snapshot!("grouped_aic_text", text(&t, TOP1465_FIRST));
    insta::assert_snapshot!("grouped_aic_steps", steps_ron(&t, &["grouped-aic"]));
}

#[test]
fn continuous_loop_through_an_als_taking_a_cell() {
    let case = parse_library_line(LIBRARY_1084).expect("a library line");
    let id = "als-continuous-nice-loop";
    let pipeline =
        Pipeline::from_techniques("als-loop", vec![builtin(id).unwrap()]).expect("unique ids");
    let t = Puzzle::from_nine(&case.grid).solve(&pipeline);
    assert_eq!(t.summary.rejected, 0);
    let steps: Vec<&Step> = t.steps().collect();
    assert_eq!(steps.len(), 1, "{:#?}", t.entries);
    check_chains(steps[0]);
    let mut expected = case.eliminations.clone();
    expected.sort();
    let mut found = steps[0].eliminations.clone();
    found.sort();
    assert_eq!(found, expected, "{}", steps[0].explanation);
    insta::assert_snapshot!("als_taking_a_cell_text", t.to_text(Some(&case.grid)));
    insta::assert_snapshot!("als_taking_a_cell_steps", steps_ron(&t, &[id]));
}

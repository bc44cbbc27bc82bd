//! Ratings of known puzzles, and consistency of ratings over a shared collection.

mod common;

use lapiz::engine::{Level, Rating, rate};
use lapiz::{Pipeline, solve_puzzle};

/// Puzzles with their level and hardest technique under the default pipeline.
const KNOWN: &[(&str, Level, &str)] = &[
    (
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        Level::Easy,
        "hidden-single",
    ),
    (
        "82..5...3..1.8..5...5..34......9.38.293.6.............1..9.8........7.6..7.42....",
        Level::Easy,
        "naked-single",
    ),
    (
        ".5...4......8.92...6..7...3...1..7......3.8.2.71.....5..5..13...4......7..8...6..",
        Level::Medium,
        "locked-pair",
    ),
    (
        ".6.2.....4....6729..3..1.6..41.8.6....9..2..8....5...4.9....8....4.1.....8.....9.",
        Level::Medium,
        "finned-x-wing",
    ),
    (
        "...9...3.......78.9.46.......751.......38...221......586..9......2.....6..1.3....",
        Level::Hard,
        "finned-swordfish",
    ),
    (
        "3....15..7.1..4....4......6.35.8...1.........8...9..24............3.875..5.1..9.8",
        Level::Unfair,
        "xyz-wing",
    ),
    (
        "35...1...9.....6....4.7...96...3...88.2..9..31.986.5......13.........2....6.....4",
        Level::Extreme,
        "bug-plus-1",
    ),
    (
        // Arto Inkala's puzzle: only nested forcing chains finish it.
        INKALA,
        Level::Extreme,
        "nested-forcing-chain",
    ),
];

/// Arto Inkala's puzzle: beyond the default pipeline without its forcing chains.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

#[test]
fn known_puzzles_get_their_level() {
    let p = Pipeline::default_pipeline();
    for (puzzle, level, hardest) in KNOWN {
        let r = rate(&solve_puzzle(puzzle, &p), &p).unwrap();
        assert_eq!(r.level, *level, "{puzzle}");
        if !hardest.is_empty() {
            assert_eq!(r.hardest_technique.as_deref(), Some(*hardest), "{puzzle}");
        }
        if *level == Level::Beyond {
            assert!(r.rating_text().starts_with('>'), "{}", r.rating_text());
        } else {
            assert_eq!(r.rating_text(), format!("{:.1}", r.hardest.unwrap()));
        }
    }
    // without the forcing chains, Inkala's puzzle is beyond: `>` the hardest technique left
    let p = common::pipeline_without_forcing();
    let r = rate(&solve_puzzle(INKALA, &p), &p).unwrap();
    assert_eq!(r.level, Level::Beyond);
    let ceiling = p
        .techniques()
        .iter()
        .map(|t| t.difficulty())
        .fold(0.0f32, f32::max);
    assert_eq!(r.rating_text(), format!(">{ceiling:.1}"));
}

#[test]
fn a_smaller_pipeline_rates_the_same_puzzle_beyond() {
    // With singles only, the XYZ-Wing puzzle cannot be finished: beyond, shown as `>2.3`.
    let singles = Pipeline::from_ron(
        r#"Pipeline(name: "singles", techniques: [Technique("full-house"), Technique("hidden-single"), Technique("naked-single")], verify: true, step_limit: 1000)"#,
        "test",
    )
    .unwrap();
    let r = rate(&solve_puzzle(KNOWN[4].0, &singles), &singles).unwrap();
    assert_eq!(r.level, Level::Beyond);
    assert_eq!(r.rating_text(), ">2.3");
}

#[test]
fn ratings_are_consistent_over_top1465() {
    let Some(puzzles) = common::puzzles("top1465.txt", 60) else {
        return;
    };
    let levels = |p: &Pipeline| {
        let mut levels = std::collections::BTreeSet::new();
        for puzzle in &puzzles {
            let t = solve_puzzle(puzzle, p);
            let r = rate(&t, p).unwrap();
            levels.insert(r.level);
            let steps: usize = r.techniques.iter().map(|c| c.count).sum();
            assert_eq!(steps, r.steps);
            let score: u32 = t.steps().map(|s| Rating::step_cost(s.difficulty)).sum();
            assert_eq!(score, r.score);
            if t.is_solved() {
                assert_eq!(
                    r.level,
                    Level::of_difficulty(r.hardest.unwrap()),
                    "{puzzle}"
                );
            } else {
                assert_eq!(r.level, Level::Beyond);
            }
        }
        levels
    };
    // top1465 is hard: none of it easy; the default pipeline solves all of it, with its forcing
    // chains where nothing else helps
    let with_forcing = levels(&Pipeline::default_pipeline());
    assert!(!with_forcing.contains(&Level::Beyond), "{with_forcing:?}");
    assert!(!with_forcing.contains(&Level::Easy), "{with_forcing:?}");
    // without them some of it is beyond
    let without = levels(&common::pipeline_without_forcing());
    assert!(without.contains(&Level::Beyond), "{without:?}");
    assert!(!without.contains(&Level::Easy), "{without:?}");
}

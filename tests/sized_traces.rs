//! insta snapshots of whole solve traces of other sizes than 9x9 (RON and text), and their RON
//! round trip.
//!
//! The fixtures are our own: puzzles made by lapiz's generator (`lapiz generate --size 6
//! --seed 5`, the third; `lapiz generate --size 16 --clues 110 --seed 11 --count 6`, the
//! fourth), chosen for a short solve that still needs techniques beyond the singles.

use lapiz::Pipeline;
use lapiz::engine::{Outcome, Trace};
use lapiz::model::Alphabet;
use lapiz::text::Puzzle;

/// 6x6 (2x3 boxes): a finned X-wing among the singles and intersections.
const SIX: &str = "..61.5...36.5..4...3.....65.........";

/// 16x16 (4x4 boxes), 110 clues: fish, single-digit patterns, wings, nice loops and ALS-XZ.
const SIXTEEN: &str = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";

/// The trace of `line` with the default pipeline, checked to read back from its RON, solved
/// by logic with no step rejected.
fn solved(line: &str) -> Trace {
    let puzzle = Puzzle::parse(line).expect("a puzzle");
    let t = puzzle.solve(&Pipeline::default_pipeline());
    let back = Trace::from_ron(&t.to_ron())
        .unwrap_or_else(|e| panic!("the trace does not read back: {e}"));
    assert_eq!(back, t, "RON round trip");
    assert_eq!(t.outcome, Outcome::Solved);
    assert_eq!((t.summary.rejected, t.summary.guesses), (0, 0));
    t
}

#[test]
fn a_six_by_six_trace() {
    let t = solved(SIX);
    assert!(t.steps().any(|s| s.technique == "finned-x-wing"));
    insta::assert_snapshot!("six_by_six", t.to_ron());
    insta::assert_snapshot!("six_by_six_text", t.to_text(None));
}

#[test]
fn a_sixteen_by_sixteen_trace() {
    let t = solved(SIXTEEN);
    for id in ["als-xz", "grouped-discontinuous-nice-loop", "wxyz-wing"] {
        assert!(t.steps().any(|s| s.technique == id), "no {id} step");
    }
    // cells beyond the ninth row and column are written in full, digits of 10 and up as
    // numbers in the data (`14r4c2`, read back above) and in the puzzle's symbols in the
    // explanations (`r4c2=E`), and only the techniques that run on 16x16 are listed
    assert!(t.to_ron().contains("r16c"));
    assert!(t.to_ron().contains("\"14r"));
    assert!(says(&t, "Hidden Single: E in b1 => r4c2=E"));
    let pipeline = Pipeline::default_pipeline();
    assert_eq!(t.techniques, pipeline.ids_on(16));
    assert!(t.techniques.len() < pipeline.ids().len());
    insta::assert_snapshot!("sixteen_by_sixteen", t.to_ron());
    insta::assert_snapshot!("sixteen_by_sixteen_text", t.to_text(None));
}

/// Whether a step of `t` is explained as `words`.
fn says(t: &Trace, words: &str) -> bool {
    t.steps().any(|s| s.explanation.contains(words))
}

#[test]
fn explanations_write_digits_in_the_puzzles_symbols_and_the_data_in_numbers() {
    let standard = solved(SIXTEEN);
    let puzzle = Puzzle::parse(SIXTEEN).expect("a puzzle");
    let cases = [
        // digit 14
        (Alphabet::Letters, "Hidden Single: N in b1 => r4c2=N"),
        (Alphabet::ZeroFirst, "Hidden Single: E in b1 => r4c2=E"),
        (Alphabet::Numbers, "Hidden Single: 14 in b1 => r4c2=14"),
    ];
    for (alphabet, first) in cases {
        let t = puzzle
            .in_alphabet(alphabet)
            .solve(&Pipeline::default_pipeline());
        assert!(says(&t, first), "{alphabet}: no step says {first}");
        // the same steps, only worded in other symbols
        assert_eq!(t.steps().count(), standard.steps().count(), "{alphabet}");
        for (a, b) in t.steps().zip(standard.steps()) {
            assert_eq!(
                (&a.placements, &a.eliminations),
                (&b.placements, &b.eliminations)
            );
        }
    }
    // 16 is `0` in 0-9A-F, `G` in 1-9A-G: some step of this solve names it
    let zero = puzzle
        .in_alphabet(Alphabet::ZeroFirst)
        .solve(&Pipeline::default_pipeline());
    assert!(says(&standard, "=G") && !says(&zero, "=G") && says(&zero, "=0"));
}

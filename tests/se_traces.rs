//! Snapshots of whole solves with the `se` pipeline: a puzzle Sudoku Explainer rates 6.6 (a
//! forcing X-chain), one it rates 7.6 (a Nishio) and one it rates 2.6 (direct steps on the way,
//! then pointing). A change in the steps SE's techniques take, or in their ratings, shows here.

use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::text::parse_puzzle;

fn text_trace(puzzle: &str) -> String {
    let trace =
        Puzzle::from_nine(&parse_puzzle(puzzle).expect("valid")).solve(&Pipeline::se_pipeline());
    assert!(trace.is_solved());
    assert_eq!(trace.summary.rejected, 0);
    trace.to_text(None)
}

#[test]
fn se_trace_with_a_forcing_x_chain() {
    insta::assert_snapshot!(text_trace(
        "12.74.6.94..8......89..3.1....4.2..1..........4.6..9..3...2...62....6.....8...4.."
    ));
}

#[test]
fn se_trace_with_a_nishio() {
    insta::assert_snapshot!(text_trace(
        "....75....1..2.....4...3...5.....3.2...8...1.......6.....1..48.2........7........"
    ));
}

#[test]
fn se_trace_with_direct_hidden_pairs() {
    insta::assert_snapshot!(text_trace(
        "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2...."
    ));
}

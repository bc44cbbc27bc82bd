//! Helpers for the forcing-net tests (`tests/forcing.rs`, `tests/kraken.rs`).

use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::engine::replay;
use lapiz::model::{Candidate, Grid};
use lapiz::step::{NetBranch, Reason};
use lapiz::text::parse_puzzle;

/// Where `pipeline` gets stuck on `puzzle`, and the puzzle's solution.
pub fn stuck(puzzle: &str, pipeline: &Pipeline) -> (Grid, [u8; 81]) {
    let start = parse_puzzle(puzzle).expect("valid");
    let trace = Puzzle::from_nine(&start).solve(pipeline);
    assert!(!trace.is_solved(), "{} finishes {puzzle}", pipeline.name());
    let sol = trace.solution.as_deref().expect("unique").as_bytes();
    let sol: [u8; 81] = std::array::from_fn(|i| sol[i] - b'0');
    (replay(&start, &trace), sol)
}

/// Whether the solution `sol` holds candidate `c`.
pub fn holds(sol: &[u8; 81], c: Candidate) -> bool {
    sol[c.cell.index()] == c.digit
}

/// A branch starts from its assumption, each implication rests on earlier ones only, and a
/// branch whose assumption agrees with the solution implies only what the solution says.
/// Returns the assumption. `what` names the step in messages.
pub fn check_branch(branch: &NetBranch, sol: &[u8; 81], what: &str) -> (Candidate, bool) {
    let (a, a_on) = branch.assumption().expect("an assumption");
    assert_eq!(branch.implications[0].reason, Reason::Assumption);
    for (i, imp) in branch.implications.iter().enumerate() {
        assert!(imp.parents.iter().all(|&p| (p as usize) < i), "{imp:?}");
        if holds(sol, a) == a_on {
            assert_eq!(holds(sol, imp.candidate), imp.on, "{what}: {imp:?}");
        }
    }
    (a, a_on)
}

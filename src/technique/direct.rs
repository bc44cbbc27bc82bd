//! Direct techniques, as Sudoku Explainer rates them: a locked-candidates or hidden-subset
//! pattern whose eliminations leave a digit a single place in a house, taken together with
//! that hidden single as one step (Direct Pointing 1.7, Direct Claiming 1.9, Direct Hidden
//! Pair 2.0, Direct Hidden Triple 2.5). They sit between the singles in the `se` pipeline, so
//! that a puzzle needing only them is rated as SE rates it.

use crate::model::Sym;
use crate::technique::Builtin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::model::cell::House;
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::technique::catalogue::entry;
use crate::technique::intersections::LockedCandidates;
use crate::technique::subsets::HiddenSubset;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo};

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(Direct::POINTING),
        Box::new(Direct::CLAIMING),
        Box::new(Direct::HIDDEN_PAIR),
        Box::new(Direct::HIDDEN_TRIPLE),
    ]
}

/// The pattern a direct technique starts from.
#[derive(Clone, Copy, Debug)]
enum Pattern {
    Pointing,
    Claiming,
    HiddenPair,
    HiddenTriple,
}

/// A direct technique: a pattern whose eliminations make a hidden single, placed in the
/// same step.
#[derive(Clone, Copy, Debug)]
pub struct Direct {
    info: &'static TechniqueInfo,
    pattern: Pattern,
}

impl Direct {
    /// Direct Pointing (1.7): a pointing elimination that leaves a hidden single.
    pub const POINTING: Direct = Direct {
        info: entry("direct-pointing"),
        pattern: Pattern::Pointing,
    };
    /// Direct Claiming (1.9): a claiming elimination that leaves a hidden single.
    pub const CLAIMING: Direct = Direct {
        info: entry("direct-claiming"),
        pattern: Pattern::Claiming,
    };
    /// Direct Hidden Pair (2.0): a hidden pair whose eliminations leave a hidden single.
    pub const HIDDEN_PAIR: Direct = Direct {
        info: entry("direct-hidden-pair"),
        pattern: Pattern::HiddenPair,
    };
    /// Direct Hidden Triple (2.5): a hidden triple whose eliminations leave a hidden single.
    pub const HIDDEN_TRIPLE: Direct = Direct {
        info: entry("direct-hidden-triple"),
        pattern: Pattern::HiddenTriple,
    };

    fn inner(&self) -> &'static dyn Technique {
        match self.pattern {
            Pattern::Pointing => &LockedCandidates::POINTING,
            Pattern::Claiming => &LockedCandidates::CLAIMING,
            Pattern::HiddenPair => &HiddenSubset::PAIR,
            Pattern::HiddenTriple => &HiddenSubset::TRIPLE,
        }
    }
}

/// The first hidden single the eliminations `elims` leave on `grid`, as Sudoku Explainer
/// looks for it: for a locked-candidates pattern, in the box of a cell a digit is removed from;
/// for a hidden subset, in the subset's own house. (Calibrated on SE's ratings: any other house
/// makes some puzzles SE rates 2.6 come out 1.7 or 2.0.)
fn single_left(
    grid: &Grid,
    elims: &[Candidate],
    pattern: Pattern,
    houses: &[House],
) -> Option<(Candidate, House)> {
    for e in elims {
        let mut removed = CellSet::EMPTY;
        for o in elims.iter().filter(|o| o.digit == e.digit) {
            removed.insert(o.cell);
        }
        let house = match pattern {
            Pattern::Pointing | Pattern::Claiming => House::boxed(e.cell.box_index()),
            Pattern::HiddenPair | Pattern::HiddenTriple => *houses.first()?,
        };
        let left = grid.digit_cells_in(e.digit, house) - removed;
        if let Some(cell) = left.single_cell() {
            return Some((Candidate::new(cell, e.digit), house));
        }
    }
    None
}

impl Builtin for Direct {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        self.inner().find(grid, &mut |inner| {
            let Some((single, house)) =
                single_left(grid, &inner.eliminations, self.pattern, &inner.houses)
            else {
                return ControlFlow::Continue(());
            };
            let pattern = inner
                .explanation
                .split_once(": ")
                .map_or(inner.explanation.as_str(), |(_, rest)| rest);
            let text = format!(
                "{}: {pattern}, leaving {} one place in {house}: {}={}",
                self.info.name,
                Sym(single.digit),
                single.cell,
                Sym(single.digit)
            );
            sink(
                inner
                    .clone()
                    .credit(self.info.id, self.info.difficulty)
                    .place(single.cell, single.digit)
                    .explain(text),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::technique::find_all;
    use crate::text::nine::parse_puzzle;

    #[test]
    fn a_direct_step_places_the_single_its_eliminations_leave() {
        // An easy puzzle rated 2.0 by Sudoku Explainer: once its hidden singles run out, a
        // direct hidden pair or direct pointing must exist before any naked single is needed.
        let mut grid = parse_puzzle(
            "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....",
        )
        .expect("valid");
        let sol = crate::brute::nine::solve(&grid.given_values()).expect("unique");
        let mut seen = 0;
        for _ in 0..200 {
            let mut progressed = false;
            for t in techniques() {
                for step in find_all(t.as_ref(), &grid).expect("runs") {
                    assert_eq!(step.placements.len(), 1, "{}", step.explanation);
                    assert!(step.contradiction(&sol).is_none(), "{}", step.explanation);
                    let p = step.placements[0];
                    // The placement is a hidden single once the eliminations are made.
                    let mut after = grid.clone();
                    for e in &step.eliminations {
                        after.eliminate(e.cell, e.digit);
                    }
                    assert!(
                        p.cell
                            .houses()
                            .iter()
                            .any(|h| after.digit_cells_in(p.digit, *h).len() == 1),
                        "{}",
                        step.explanation
                    );
                    seen += 1;
                }
            }
            // Advance by one naked or hidden single, or by a direct step.
            for t in crate::technique::builtins()
                .into_iter()
                .filter(|t| ["hidden-single", "naked-single"].contains(&t.id()))
                .chain(techniques())
            {
                if let Some(s) = crate::technique::find_first(t.as_ref(), &grid).expect("runs") {
                    s.apply(&mut grid);
                    progressed = true;
                    break;
                }
            }
            if !progressed || grid.is_solved() {
                break;
            }
        }
        assert!(seen > 0, "no direct step met along the solve");
    }
}

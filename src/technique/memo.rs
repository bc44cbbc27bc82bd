//! [`Memo`]: where a search found nothing, kept from one position of a solve to the next.
//!
//! The engine applies one step, then searches the pipeline again from the start, so every
//! technique before the one that finds the next step searches the whole grid once per step.
//! Most of those searches look at one digit's candidates at a time (fish, single-digit
//! patterns) or one house's (subsets), and a step changes few digits and houses. A search
//! that is a function of one digit's candidates alone finds nothing again while they stay as
//! they were; the memo remembers, per technique and digit (or house), the candidates of the
//! last search that handed no step on, and [`Context::per_digit`] / [`Context::per_house`]
//! skip the search while they are unchanged.
//!
//! Only a search that ran to its end without a step is remembered, and only what the search
//! reads is compared (exactly, not by hash), so a solve finds the same steps in the same order
//! with or without the memo. The engine keeps one memo per solve; a context made without one
//! (a hint's, a script's) searches everything.
//!
//! [`Context::per_digit`]: super::Context::per_digit
//! [`Context::per_house`]: super::Context::per_house

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;

use crate::model::Shape;
use crate::model::cellset::CellSet;

/// A technique's id and a digit or a house's index: what a memo entry is about.
type Key = (&'static str, u8);

/// Per technique (its id) and digit or house index: what its last fruitless search saw.
pub(crate) struct Memo<S: Shape> {
    /// The digit's candidate cells when the search of that digit found nothing.
    digits: RefCell<HashMap<Key, CellSet<S>>>,
    /// The candidates of the house's cells, in house order, when the search of that house
    /// found nothing.
    houses: RefCell<HashMap<Key, Vec<S::Mask>>>,
}

impl<S: Shape> Default for Memo<S> {
    fn default() -> Self {
        Memo {
            digits: RefCell::new(HashMap::default()),
            houses: RefCell::new(HashMap::default()),
        }
    }
}

impl<S: Shape> Memo<S> {
    /// Whether `technique` found nothing in `digit` when its cells were `cells`.
    pub(crate) fn digit_fruitless(
        &self,
        technique: &'static str,
        digit: u8,
        cells: CellSet<S>,
    ) -> bool {
        self.digits.borrow().get(&(technique, digit)) == Some(&cells)
    }

    /// Remembers that `technique` found nothing in `digit` with `cells`.
    pub(crate) fn digit_found_nothing(
        &self,
        technique: &'static str,
        digit: u8,
        cells: CellSet<S>,
    ) {
        self.digits.borrow_mut().insert((technique, digit), cells);
    }

    /// Whether `technique` found nothing in house `house` when its cells' candidates were
    /// `masks` (in house order).
    pub(crate) fn house_fruitless(
        &self,
        technique: &'static str,
        house: u8,
        masks: impl Iterator<Item = S::Mask>,
    ) -> bool {
        match self.houses.borrow().get(&(technique, house)) {
            Some(seen) => seen.iter().copied().eq(masks),
            None => false,
        }
    }

    /// Remembers that `technique` found nothing in house `house` with `masks`.
    pub(crate) fn house_found_nothing(
        &self,
        technique: &'static str,
        house: u8,
        masks: impl Iterator<Item = S::Mask>,
    ) {
        let mut houses = self.houses.borrow_mut();
        let seen = houses.entry((technique, house)).or_default();
        seen.clear();
        seen.extend(masks);
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use crate::engine::pipeline::Pipeline;
    use crate::model::{S16, Shape};
    use crate::step::Step;
    use crate::technique::Context;
    use crate::text::Puzzle;

    use super::Memo;

    /// The techniques that use the memo, by a part of their ids: subsets, fish, single-digit
    /// patterns (the others would only make the test slower).
    const MEMOIZED: [&str; 13] = [
        "naked-",
        "hidden-pair",
        "hidden-triple",
        "hidden-qu",
        "hidden-s",
        "hidden-oct",
        "x-wing",
        "swordfish",
        "jellyfish",
        "skyscraper",
        "kite",
        "turbot",
        "empty-rectangle",
    ];

    /// Every step each technique finds in `ctx`, in order (eliminations and placements).
    fn all_steps<S: Shape>(ctx: &Context<'_, S>, pipeline: &Pipeline) -> Vec<Vec<String>> {
        let n = S::N;
        pipeline
            .techniques()
            .iter()
            .filter(|t| t.runs_on(n) && MEMOIZED.iter().any(|m| t.id().contains(m)))
            .map(|t| {
                let mut found = Vec::new();
                let _ = t.find_sized(ctx.sized(), &mut |s: Step| {
                    found.push(format!("{:?} {:?}", s.placements, s.eliminations));
                    ControlFlow::Continue(())
                });
                found
            })
            .collect()
    }

    /// Along a whole 16x16 solve, every technique finds the same steps in a context with the
    /// solve's memo as in a fresh one: the memo skips only searches that would find nothing.
    #[test]
    fn a_memo_never_hides_a_step() {
        let line = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";
        let puzzle = Puzzle::parse(line).expect("a puzzle");
        assert_eq!(puzzle.layout().n(), 16);
        let pipeline = Pipeline::default_pipeline();
        let trace = crate::engine::solve_sized(&puzzle, &pipeline);
        let mut grid = puzzle.grid(S16::geometry(puzzle.layout()));
        let memo = Memo::default();
        let mut skipped_some = false;
        for step in trace.steps() {
            let fresh = all_steps(&Context::new(&grid), &pipeline);
            let remembered = all_steps(&Context::with_memo(&grid, &memo), &pipeline);
            assert_eq!(fresh, remembered, "before {}", step.explanation);
            skipped_some |= !memo.digits.borrow().is_empty() && !memo.houses.borrow().is_empty();
            step.apply(&mut grid);
        }
        assert!(skipped_some, "the memo never remembered anything");
    }
}

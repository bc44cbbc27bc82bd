//! Sudoku Explainer's chaining techniques as SE itself finds, chooses and rates them: Nishio
//! (7.5), multiple forcing chains (8.0), dynamic forcing chains (8.5), dynamic (+) (9.0) and
//! nested forcing chains (9.5, 10.0, 10.5, 11.0), for the `se` pipeline, so that a puzzle's
//! rating is the ER, EP and ED SE gives it.
//!
//! What is reproduced, from SE 1.2.1's documented behaviour and its ratings:
//!
//! - **The search.** Every candidate of every open cell (row by row, digits in order) is
//!   assumed on and off and followed breadth first, ons before offs: an on potential turns
//!   off the cell's other values and the digit's other places in its box, row and column; an
//!   off potential turns on the cell's other value when two are left and the digit's other
//!   place in a house with two left. Dynamic chains remove each off potential from the grid as
//!   they go, so later links see the smaller grid, and a link made possible that way rests on
//!   the removals that made it ("hidden parents"). A contradiction (a potential both on and
//!   off) ends the propagation; double chains (on and off agree), house chains (every place
//!   of a digit in a house) and cell chains (every value of a cell) compare what the
//!   propagations reached.
//! - **The levels.** Dynamic (+) chains apply, whenever a propagation has nothing left to
//!   follow, the first of locked candidates, hidden pair, naked pair and X-Wing that removes
//!   anything on the hypothetical grid; nested chains then try static forcing chains and
//!   cycles (9.5), multiple chains (10.0), dynamic chains (10.5) and nested ones (11.0) one
//!   level down. A removal made that way rests on the candidates the rule needed removed.
//! - **The measure.** A hint's complexity is the number of distinct potentials its chains rest
//!   on (each chain counted on its own), plus the complexity of every distinct nested chain
//!   among them; its difficulty is the level's base plus 0.1 each time the complexity, less
//!   two, passes 4, 6, 8, 12, 16, 24 ... (alternately times 3/2 and 4/3).
//! - **The choice.** Of all a rule's hints, SE applies the first by difficulty, then
//!   complexity, then kind (double, cycles, cell, house, contradiction), then the order found.
//!
//! The step shows SE's own chains (the flat chain of each assumption, nested chains as nested
//! branches) and its explanation says how many potentials SE counted.
//!
//! The nested levels search only where SE searches them, when dynamic (+) chains find nothing
//! (as in the `se` pipeline); elsewhere they find nothing rather than take SE's time.

mod chaining;
mod engine;
mod hints;
mod links;
mod proof;
mod reach;
mod rules;

use crate::technique::Builtin;
use crate::technique::context::Context;
use chaining::{Depth, Rule};
use engine::Board;

use crate::technique::catalogue::entry;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo};

/// The techniques of this family, in SE's order.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(SeChaining::LOOPS),
        Box::new(SeChaining::NISHIO),
        Box::new(SeChaining::MULTIPLE),
        Box::new(SeChaining::DYNAMIC),
        Box::new(SeChaining::PLUS),
        Box::new(SeChaining::NESTED_LOOPS),
        Box::new(SeChaining::NESTED_MULTIPLE),
        Box::new(SeChaining::NESTED_DYNAMIC),
        Box::new(SeChaining::NESTED_PLUS),
    ]
}

/// One of SE's chaining rules as a technique: it emits the hint SE would apply.
pub struct SeChaining {
    info: &'static TechniqueInfo,
    rule: Rule,
}

impl SeChaining {
    /// Forcing chains and cycles, static (6.5 to 7.0 plus length).
    pub const LOOPS: SeChaining = SeChaining {
        info: entry("forcing-chains-and-cycles"),
        rule: Rule::LOOPS,
    };
    /// Nishio forcing chains (7.5).
    pub const NISHIO: SeChaining = SeChaining {
        info: entry("nishio"),
        rule: Rule::NISHIO,
    };
    /// Multiple (cell and house) forcing chains, static (8.0).
    pub const MULTIPLE: SeChaining = SeChaining {
        info: entry("se-multiple-forcing-chain"),
        rule: Rule::MULTIPLE,
    };
    /// Dynamic forcing chains (8.5).
    pub const DYNAMIC: SeChaining = SeChaining {
        info: entry("se-dynamic-forcing-chain"),
        rule: Rule::DYNAMIC,
    };
    /// Dynamic forcing chains (+) (9.0).
    pub const PLUS: SeChaining = SeChaining {
        info: entry("se-dynamic-forcing-chain-plus"),
        rule: Rule::nested(1),
    };
    /// Nested forcing chains with forcing chains and cycles one level down (9.5).
    pub const NESTED_LOOPS: SeChaining = SeChaining {
        info: entry("se-nested-forcing-chain"),
        rule: Rule::nested(2),
    };
    /// Nested forcing chains with multiple forcing chains one level down (10.0).
    pub const NESTED_MULTIPLE: SeChaining = SeChaining {
        info: entry("se-nested-multiple-forcing-chain"),
        rule: Rule::nested(3),
    };
    /// Nested forcing chains with dynamic forcing chains one level down (10.5).
    pub const NESTED_DYNAMIC: SeChaining = SeChaining {
        info: entry("se-nested-dynamic-forcing-chain"),
        rule: Rule::nested(4),
    };
    /// Nested forcing chains with nested ones one level down (11.0).
    pub const NESTED_PLUS: SeChaining = SeChaining {
        info: entry("se-nested-dynamic-forcing-chain-plus"),
        rule: Rule::nested(5),
    };
}

impl Builtin for SeChaining {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }

    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let mut board = Board::of(grid);
        let mut depths: Vec<Depth> = (0..self.rule.depth()).map(|_| Depth::default()).collect();
        // SE reaches a nested level only when dynamic (+) chains find nothing: where they do,
        // the nested search (which then takes as long as SE takes) is not made.
        if self.rule.level >= 2 && !Rule::nested(1).hints(&mut depths, &mut board).is_empty() {
            return Ok(());
        }
        if self.rule.level >= 2 && Rule::LOOPS.hints(&mut depths[1..], &mut board).is_empty() {
            // No static chain on the start grid: one level down, only starts that reach a
            // strong link it lacks can have one (see `reach`).
            for d in &mut depths[1..] {
                d.reference = Some(Box::new(board.clone()));
            }
        }
        let found = self.rule.hints(&mut depths, &mut board);
        let Some(origin) = found.first().map(|h| h.origin as usize) else {
            return Ok(());
        };
        // Again from the chosen hint's cell only, keeping the nested chains' proofs: the same
        // hint comes first there.
        for d in &mut depths {
            d.keep_proofs = true;
        }
        let hints = self
            .rule
            .hints_from(&mut depths, &mut board, origin..origin + 1);
        // a search cut short by the stop may miss it, or hold part of its proof: the engine
        // drops what a stopped search found anyway
        if crate::model::stop::reached().is_some() {
            return Ok(());
        }
        let hint = hints.first().expect("the chosen hint is found again");
        let step = proof::step(self.info.id, self.info.name, &mut depths[0], hint);
        let _ = sink(step);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pipeline::Pipeline;
    use crate::engine::{check_puzzle, solve_grid};
    use crate::model::grid::Grid;
    use crate::technique::find_first;
    use crate::text::nine::parse_puzzle;

    /// Where the `se` pipeline without SE's chaining gets stuck on `puzzle`.
    fn before_chaining(puzzle: &str) -> Grid {
        let mut pipeline = Pipeline::se_pipeline();
        let ours: Vec<String> = techniques().iter().map(|t| t.id().to_string()).collect();
        pipeline.retain(|t| !ours.iter().any(|o| o == t.id()));
        let start = parse_puzzle(puzzle).expect("valid");
        crate::engine::replay(&start, &solve_grid(&start, &pipeline))
    }

    // A puzzle of top1465.txt; SE's own path (se-hints in the shared data) takes, after singles
    // and intersections, "7.1, Forcing Chain FC(w/6 nodes)[7.0+0.1(5-6)]: R9C1.5 off".
    const TOP: &str =
        "..........2..1.63....4..2...8..7...5.....4..7..68...4.9..........425.7....1693...";

    #[test]
    fn rule_bases_are_the_catalogue_difficulties() {
        // Each rule rates its hints from its technique's catalogue entry (the loops rate each
        // kind of cycle and chain on its own, from 6.5, the entry's).
        for t in [
            SeChaining::NISHIO,
            SeChaining::MULTIPLE,
            SeChaining::DYNAMIC,
            SeChaining::PLUS,
            SeChaining::NESTED_LOOPS,
            SeChaining::NESTED_MULTIPLE,
            SeChaining::NESTED_DYNAMIC,
            SeChaining::NESTED_PLUS,
        ] {
            assert_eq!(t.rule.base(), f64::from(t.info.difficulty), "{}", t.info.id);
        }
        assert_eq!(SeChaining::LOOPS.info.difficulty, 6.5);
    }

    #[test]
    fn the_first_chain_is_ses_with_ses_length() {
        let grid = before_chaining(TOP);
        let step = find_first(&SeChaining::LOOPS, &grid)
            .expect("runs")
            .expect("a step");
        assert_eq!(step.difficulty, 7.1, "{}", step.explanation);
        assert_eq!(step.eliminations, ["5r9c1".parse().expect("a candidate")]);
        assert!(
            step.explanation.contains("SE counts 6 nodes"),
            "{}",
            step.explanation
        );
        let solution = check_puzzle(&parse_puzzle(TOP).expect("valid")).expect("unique");
        assert!(step.contradiction(&solution).is_none());
    }

    #[test]
    fn each_level_finds_only_sound_steps() {
        let grid = before_chaining(TOP);
        let solution = check_puzzle(&parse_puzzle(TOP).expect("valid")).expect("unique");
        for t in [
            &SeChaining::NISHIO,
            &SeChaining::MULTIPLE,
            &SeChaining::DYNAMIC,
        ] {
            if let Some(step) = find_first(t, &grid).expect("runs") {
                assert!(
                    step.contradiction(&solution).is_none(),
                    "{}",
                    step.explanation
                );
                assert!(step.difficulty >= t.difficulty(), "{}", step.explanation);
            }
        }
    }
}

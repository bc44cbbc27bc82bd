//! Singles: full house, hidden single, naked single.

//!
//! Written once for every size.

use crate::model::Sym;
use crate::technique::SizedBuiltin;
use crate::technique::context::Context;
use crate::technique::round_tenth;
use std::ops::ControlFlow;

use crate::model::cell::{House, HouseKind};
use crate::model::grid::Candidate;
use crate::model::{Bits, Shape};
use crate::step::{Role, Step};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The last empty cell of a house takes the missing digit.
pub struct FullHouse;

impl SizedBuiltin for FullHouse {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("full-house") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let geo = grid.geometry();
        stoppable(|| {
            for house in geo.houses() {
                let Some(cell) = (geo.house(house) & grid.empty_cells()).single_cell() else {
                    continue;
                };
                let missing = S::Mask::low(S::N).and_not(grid.placed_in(house));
                if missing.count() != 1 || missing.and(grid.candidates(cell)).is_zero() {
                    continue;
                }
                let Some(digit) = missing.first().map(|d| d as u8 + 1) else {
                    continue;
                };
                sink(
                    Step::new(self.id(), self.difficulty())
                        .place(cell, digit)
                        .house(house)
                        .highlight(Role::Pattern, [Candidate::new(cell, digit)])
                        .explain(format!("Full House: {cell}={}", Sym(digit))),
                )?;
            }
            ControlFlow::Continue(())
        })
    }
}

/// How much harder a hidden single in a row or column is than one in a box (SE: 1.5, 1.2).
const IN_A_LINE: f32 = 0.3;

/// A digit with one place left in a house goes there. Rated 1.2 in a box, 1.5 in a line.
pub struct HiddenSingle;

impl SizedBuiltin for HiddenSingle {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("hidden-single") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            // boxes first: they are the easier singles to see
            let n = S::N;
            let boxes_then_lines = (2 * n..3 * n).chain(0..2 * n);
            for house in boxes_then_lines.map(|h| House::from_index_in(h, n)) {
                let placed = grid.placed_in(house);
                for digit in grid.all_digits() {
                    if placed.has(usize::from(digit) - 1) {
                        continue;
                    }
                    let Some(cell) = grid.digit_cells_in(digit, house).single_cell() else {
                        continue;
                    };
                    let difficulty = if house.kind() == HouseKind::Box {
                        self.difficulty()
                    } else {
                        round_tenth(self.difficulty() + IN_A_LINE)
                    };
                    sink(
                        Step::new(self.id(), difficulty)
                            .place(cell, digit)
                            .house(house)
                            .highlight(Role::Pattern, [Candidate::new(cell, digit)])
                            .explain(format!(
                                "Hidden Single: {0} in {house} => {cell}={0}",
                                Sym(digit)
                            )),
                    )?;
                }
            }
            ControlFlow::Continue(())
        })
    }
}

/// A cell with one candidate left takes it.
pub struct NakedSingle;

impl SizedBuiltin for NakedSingle {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("naked-single") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            for cell in grid.empty_cells() {
                let m = grid.candidates(cell);
                if m.count() != 1 {
                    continue;
                }
                let Some(digit) = m.first().map(|d| d as u8 + 1) else {
                    continue;
                };
                sink(
                    Step::new(self.id(), self.difficulty())
                        .place(cell, digit)
                        .highlight(Role::Pattern, [Candidate::new(cell, digit)])
                        .explain(format!("Naked Single: {cell}={}", Sym(digit))),
                )?;
            }
            ControlFlow::Continue(())
        })
    }
}

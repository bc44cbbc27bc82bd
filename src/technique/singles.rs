//! Singles: full house, hidden single, naked single.

use crate::technique::Builtin;
use crate::technique::context::Context;
use crate::technique::round_tenth;
use std::ops::ControlFlow;

use crate::geometry::{House, HouseKind, digit_bit};
use crate::grid::Candidate;
use crate::step::{Role, Step};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The last empty cell of a house takes the missing digit.
pub struct FullHouse;

impl Builtin for FullHouse {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("full-house") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            for house in House::all() {
                let Some(cell) = (house.cells() & grid.empty_cells()).single_cell() else {
                    continue;
                };
                let missing = !grid.placed_in(house) & crate::geometry::ALL_DIGITS;
                if missing.count_ones() != 1 || grid.candidates(cell) & missing == 0 {
                    continue;
                }
                let digit = missing.trailing_zeros() as u8 + 1;
                sink(
                    Step::new(self.id(), self.difficulty())
                        .place(cell, digit)
                        .house(house)
                        .highlight(Role::Pattern, [Candidate::new(cell, digit)])
                        .explain(format!("Full House: {cell}={digit}")),
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

impl Builtin for HiddenSingle {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("hidden-single") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            // boxes first: they are the easier singles to see
            for house in House::boxes().chain(House::lines()) {
                let placed = grid.placed_in(house);
                for digit in 1..=9u8 {
                    if placed & digit_bit(digit) != 0 {
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
                                "Hidden Single: {digit} in {house} => {cell}={digit}"
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

impl Builtin for NakedSingle {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("naked-single") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            for cell in grid.empty_cells() {
                let m = grid.candidates(cell);
                if m.count_ones() != 1 {
                    continue;
                }
                let digit = m.trailing_zeros() as u8 + 1;
                sink(
                    Step::new(self.id(), self.difficulty())
                        .place(cell, digit)
                        .highlight(Role::Pattern, [Candidate::new(cell, digit)])
                        .explain(format!("Naked Single: {cell}={digit}")),
                )?;
            }
            ControlFlow::Continue(())
        })
    }
}

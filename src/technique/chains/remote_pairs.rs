//! Remote Pairs.
//!
//! A remote pair is a chain of bivalue cells that all hold the same two digits, each cell
//! seeing the next. The cells alternate between the two digits, so two cells an odd number of
//! steps apart hold both digits between them: any other cell seeing both loses both digits.

use crate::technique::SizedBuiltin;
use crate::technique::context::Context;
use crate::technique::round_tenth;
use std::ops::ControlFlow;

use crate::model::Shape;
use crate::model::cell::{Cell, digits, digits_text};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, TechniqueError, TechniqueInfo, stoppable};

use super::length_bonus;

/// The longest remote pair searched, in cells.
const MAX_CELLS: usize = 24;
/// The shortest remote pair, in cells.
const MIN_CELLS: usize = 4;

/// Remote Pairs: a chain of at least four bivalue cells with the same two digits.
pub struct RemotePairs;

/// Rating of a remote pair of `cells` cells: the catalogue's (the shortest, four cells) plus
/// the length bonus of an XY-chain of `2 * cells - 1` links beyond that of the shortest.
fn remote_pair_difficulty(cells: usize) -> f32 {
    let shortest = const { entry("remote-pairs") }.difficulty;
    round_tenth(shortest - length_bonus(2 * MIN_CELLS - 1) + length_bonus(2 * cells - 1))
}

impl SizedBuiltin for RemotePairs {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("remote-pairs") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            let bivalue = ctx.bivalue_cells();
            let mut done = CellSet::<S>::EMPTY;
            for first in bivalue {
                if done.contains(first) {
                    continue;
                }
                let mask = grid.candidates(first);
                let group: CellSet<S> = bivalue
                    .iter()
                    .filter(|&c| grid.candidates(c) == mask)
                    .collect();
                done |= group;
                if (group.len() as usize) < MIN_CELLS {
                    continue;
                }
                let mut search = Search {
                    grid,
                    mask,
                    group,
                    path: [Cell::new(0); MAX_CELLS],
                    len: 0,
                    on_path: CellSet::EMPTY,
                    sink,
                };
                for start in group {
                    search.extend(start)?;
                }
            }
            ControlFlow::Continue(())
        })
    }
}

struct Search<'a, 'b, 'c, S: Shape> {
    grid: &'a Grid<S>,
    mask: S::Mask,
    group: CellSet<S>,
    path: [Cell; MAX_CELLS],
    len: usize,
    on_path: CellSet<S>,
    sink: &'b mut StepSink<'c>,
}

impl<S: Shape> Search<'_, '_, '_, S> {
    /// Pushes `cell` on the path, reports the chain when it is one, and goes deeper.
    fn extend(&mut self, cell: Cell) -> ControlFlow<()> {
        self.path[self.len] = cell;
        self.len += 1;
        self.on_path.insert(cell);
        let mut flow = ControlFlow::Continue(());
        // the ends of an even chain hold opposite digits; report each chain in one direction
        if self.len >= MIN_CELLS && self.len.is_multiple_of(2) && self.path[0] < cell {
            flow = self.report();
        }
        if flow.is_continue() && self.len < MAX_CELLS {
            let next = self.grid.geometry().peers(cell) & (self.group - self.on_path);
            for n in next {
                flow = self.extend(n);
                if flow.is_break() {
                    break;
                }
            }
        }
        self.on_path.remove(cell);
        self.len -= 1;
        flow
    }

    fn report(&mut self) -> ControlFlow<()> {
        let (start, end) = (self.path[0], self.path[self.len - 1]);
        let geo = self.grid.geometry();
        let seeing = (geo.peers(start) & geo.peers(end)) - self.on_path;
        let mut elims = Vec::new();
        for cell in seeing {
            for d in digits(self.mask) {
                if self.grid.has_candidate(cell, d) {
                    elims.push(Candidate::new(cell, d));
                }
            }
        }
        if elims.is_empty() {
            return ControlFlow::Continue(());
        }
        elims.sort();
        let cells = &self.path[..self.len];
        let names: Vec<String> = cells.iter().map(Cell::to_string).collect();
        let text = format!(
            "Remote Pair: {} {} => {}",
            digits_text(self.mask, "/"),
            names.join("-"),
            eliminations_text(&elims)
        );
        let (even, odd): (Vec<_>, Vec<_>) = cells.iter().enumerate().partition(|(i, _)| i % 2 == 0);
        let cands = |v: Vec<(usize, &Cell)>| -> Vec<Candidate> {
            v.into_iter()
                .flat_map(|(_, &c)| digits(self.mask).map(move |d| Candidate::new(c, d)))
                .collect()
        };
        let step = Step::new("remote-pairs", remote_pair_difficulty(self.len))
            .highlight(Role::ColorA, cands(even))
            .highlight(Role::ColorB, cands(odd))
            .explain(text)
            .eliminations(elims);
        (self.sink)(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::technique::Technique;

    #[test]
    fn rated_as_an_xy_chain() {
        assert_eq!(remote_pair_difficulty(4), 4.3);
        // the shortest remote pair rates what the catalogue says
        assert_eq!(RemotePairs.difficulty(), remote_pair_difficulty(4));
    }
}

//! Intersections: locked candidates (pointing, claiming) and locked pairs and triples.

use crate::technique::Builtin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::cellset::CellSet;
use crate::geometry::{Cell, DigitMask, House, digits, digits_text};
use crate::grid::Candidate;
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::subsets::for_each_combination;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// Locked candidates: type 1 (pointing, a box's candidates of a digit lie in one line) or
/// type 2 (claiming, a line's candidates of a digit lie in one box).
pub struct LockedCandidates {
    pointing: bool,
    info: &'static TechniqueInfo,
}

impl LockedCandidates {
    /// Type 1: pointing.
    pub const POINTING: LockedCandidates = LockedCandidates {
        pointing: true,
        info: entry("pointing"),
    };
    /// Type 2: claiming.
    pub const CLAIMING: LockedCandidates = LockedCandidates {
        pointing: false,
        info: entry("claiming"),
    };
}

/// The row or column holding all of `cells`, if one does.
fn common_line(cells: CellSet) -> Option<House> {
    let first = cells.first()?;
    [House::row(first.row()), House::col(first.col())]
        .into_iter()
        .find(|h| cells.is_subset(h.cells()))
}

impl Builtin for LockedCandidates {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            let bases: &mut dyn Iterator<Item = House> = if self.pointing {
                &mut House::boxes()
            } else {
                &mut House::lines()
            };
            for base in bases {
                for digit in 1..=9u8 {
                    let cells = grid.digit_cells_in(digit, base);
                    if cells.is_empty() {
                        continue;
                    }
                    let cover = if self.pointing {
                        match common_line(cells) {
                            Some(line) => line,
                            None => continue,
                        }
                    } else {
                        let b = cells.first().expect("not empty").box_index();
                        let boxed = House::boxed(b);
                        if !cells.is_subset(boxed.cells()) {
                            continue;
                        }
                        boxed
                    };
                    let targets = grid.digit_cells_in(digit, cover) - base.cells();
                    if targets.is_empty() {
                        continue;
                    }
                    let elims: Vec<Candidate> =
                        targets.iter().map(|c| Candidate::new(c, digit)).collect();
                    let text = format!(
                        "{}: {digit} in {base} => {}",
                        self.name(),
                        eliminations_text(&elims)
                    );
                    sink(
                        Step::new(self.id(), self.difficulty())
                            .house(base)
                            .house(cover)
                            .highlight(Role::Base, cells.iter().map(|c| Candidate::new(c, digit)))
                            .eliminations(elims)
                            .explain(text),
                    )?;
                }
            }
            ControlFlow::Continue(())
        })
    }
}

/// Locked pair or triple: a naked pair or triple inside one box-line intersection, which
/// eliminates its digits from the rest of both houses.
pub struct LockedSet {
    size: usize,
    info: &'static TechniqueInfo,
}

impl LockedSet {
    /// Locked pair.
    pub const PAIR: LockedSet = LockedSet {
        size: 2,
        info: entry("locked-pair"),
    };
    /// Locked triple.
    pub const TRIPLE: LockedSet = LockedSet {
        size: 3,
        info: entry("locked-triple"),
    };
}

impl Builtin for LockedSet {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            for boxed in House::boxes() {
                let b = boxed.number() - 1;
                let lines = (0..3).map(|i| House::row(b / 3 * 3 + i));
                let lines = lines.chain((0..3).map(|i| House::col(b % 3 * 3 + i)));
                for line in lines {
                    let segment = boxed.cells() & line.cells() & grid.empty_cells();
                    let cells: Vec<Cell> = segment
                        .iter()
                        .filter(|&c| {
                            let n = grid.candidates(c).count_ones() as usize;
                            (2..=self.size).contains(&n)
                        })
                        .collect();
                    for_each_combination(&cells, self.size, &mut |chosen| {
                        let mask: DigitMask = chosen.iter().fold(0, |m, &c| m | grid.candidates(c));
                        if mask.count_ones() as usize != self.size {
                            return ControlFlow::Continue(());
                        }
                        let set: CellSet = chosen.iter().copied().collect();
                        let area = (boxed.cells() | line.cells()) - set;
                        let mut elims = Vec::new();
                        for d in digits(mask) {
                            for c in grid.digit_cells(d) & area {
                                elims.push(Candidate::new(c, d));
                            }
                        }
                        if elims.is_empty() {
                            return ControlFlow::Continue(());
                        }
                        elims.sort();
                        let text = format!(
                            "{}: {} in {line} and {boxed} ({set}) => {}",
                            self.name(),
                            digits_text(mask, "/"),
                            eliminations_text(&elims)
                        );
                        let pattern = set.iter().flat_map(|c| {
                            digits(grid.candidates(c)).map(move |d| Candidate::new(c, d))
                        });
                        sink(
                            Step::new(self.id(), self.difficulty())
                                .house(line)
                                .house(boxed)
                                .highlight(Role::Pattern, pattern)
                                .eliminations(elims)
                                .explain(text),
                        )
                    })?;
                }
            }
            ControlFlow::Continue(())
        })
    }
}

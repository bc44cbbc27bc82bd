//! Intersections: locked candidates (pointing, claiming) and locked pairs and triples.
//!
//! Written once for every size.

use crate::model::Sym;
use crate::model::{Bits, Geometry, Shape};
use crate::technique::SizedBuiltin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::model::cell::{Cell, House, digits, digits_text};
use crate::model::cellset::CellSet;
use crate::model::grid::Candidate;
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
fn common_line<S: Shape>(geo: &Geometry<S>, cells: CellSet<S>) -> Option<House> {
    let [row, col, _] = geo.houses_of(cells.first()?);
    [row, col]
        .into_iter()
        .find(|&h| cells.is_subset(geo.house(h)))
}

/// The rows, then the columns, crossing box `boxed`.
fn lines_through<S: Shape>(geo: &Geometry<S>, boxed: House) -> impl Iterator<Item = House> {
    let corner = geo.house(boxed).first().expect("a box has cells");
    let (rows, cols) = (geo.layout().box_rows() as u8, geo.layout().box_cols() as u8);
    let rows = (0..rows).map(move |i| House::row(corner.row() + i));
    rows.chain((0..cols).map(move |i| House::col(corner.col() + i)))
}

impl SizedBuiltin for LockedCandidates {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let geo = grid.geometry();
        stoppable(|| {
            let n = S::N;
            let bases = if self.pointing {
                2 * n..3 * n
            } else {
                0..2 * n
            };
            for base in bases.map(|h| House::from_index_in(h, n)) {
                for digit in grid.all_digits() {
                    let cells = grid.digit_cells_in(digit, base);
                    let Some(first) = cells.first() else {
                        continue;
                    };
                    let cover = if self.pointing {
                        match common_line(geo, cells) {
                            Some(line) => line,
                            None => continue,
                        }
                    } else {
                        let boxed = geo.houses_of(first)[2];
                        if !cells.is_subset(geo.house(boxed)) {
                            continue;
                        }
                        boxed
                    };
                    let targets = grid.digit_cells_in(digit, cover) - geo.house(base);
                    if targets.is_empty() {
                        continue;
                    }
                    let elims: Vec<Candidate> =
                        targets.iter().map(|c| Candidate::new(c, digit)).collect();
                    let text = format!(
                        "{}: {} in {base} => {}",
                        self.name(),
                        Sym(digit),
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

impl SizedBuiltin for LockedSet {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let geo = grid.geometry();
        stoppable(|| {
            for boxed in (2 * S::N..3 * S::N).map(|h| House::from_index_in(h, S::N)) {
                for line in lines_through(geo, boxed) {
                    let segment = geo.house(boxed) & geo.house(line) & grid.empty_cells();
                    let cells: Vec<Cell> = segment
                        .iter()
                        .filter(|&c| {
                            let n = grid.candidates(c).count() as usize;
                            (2..=self.size).contains(&n)
                        })
                        .collect();
                    for_each_combination(&cells, self.size, &mut |chosen| {
                        let mask = chosen
                            .iter()
                            .fold(S::Mask::ZERO, |m, &c| m.or(grid.candidates(c)));
                        if mask.count() as usize != self.size {
                            return ControlFlow::Continue(());
                        }
                        let set: CellSet<S> = chosen.iter().copied().collect();
                        let area = (geo.house(boxed) | geo.house(line)) - set;
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

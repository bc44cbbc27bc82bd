//! Wings: XY-Wing, XYZ-Wing, WXYZ-Wing (as a bent set of four cells) and W-Wing.
//!
//! Every wing is a small set of cells that must hold some digit `z` in at least one of its
//! "pincer" cells; `z` then leaves every cell that sees all of them.

use crate::technique::Builtin;
use std::ops::ControlFlow;

use crate::cellset::CellSet;
use crate::geometry::{Cell, DigitMask, House, digit_bit, digits, digits_text};
use crate::grid::{Candidate, Grid};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::context::{Context, cells_with_count};
use crate::technique::{
    StepSink, Technique, TechniqueError, TechniqueInfo, eliminations_of, stoppable,
};

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(XyWing),
        Box::new(XyzWing),
        Box::new(WWing),
        Box::new(WxyzWing),
    ]
}

/// Every candidate of `cells`.
fn all_candidates(grid: &Grid, cells: CellSet) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|c| digits(grid.candidates(c)).map(move |d| Candidate::new(c, d)))
        .collect()
}

/// The cells of `bivalue` (the grid's bivalue cells) that see `pivot` and share exactly one
/// digit with it: the pincers an XY-Wing on a bivalue `pivot` can use.
pub(crate) fn xy_pincers(grid: &Grid, bivalue: CellSet, pivot: Cell) -> CellSet {
    let pm = grid.candidates(pivot);
    (pivot.peers() & bivalue)
        .iter()
        .filter(|&c| (grid.candidates(c) & pm).count_ones() == 1)
        .collect()
}

/// Calls `f(a, b, z, targets)` with every XY-Wing or XYZ-Wing on `pivot`, given the grid's
/// `bivalue` cells, pincers in index order (`a < b`, first by `a`): for a bivalue pivot `xy`,
/// two bivalue peers `xz` and `yz`; for a pivot `xyz`, two different bivalue peers within its
/// digits (sharing `z`). `targets` are the cells seeing both pincers, and the pivot too for
/// an XYZ-Wing; `z` leaves those that hold it. Other pivots have no wings.
pub(crate) fn for_each_wing(
    grid: &Grid,
    bivalue: CellSet,
    pivot: Cell,
    f: &mut impl FnMut(Cell, Cell, u8, CellSet) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let pm = grid.candidates(pivot);
    match pm.count_ones() {
        2 => {
            let wings = xy_pincers(grid, bivalue, pivot);
            for a in wings {
                let am = grid.candidates(a);
                let z_bit = am & !pm;
                for b in wings {
                    if b <= a {
                        continue;
                    }
                    let bm = grid.candidates(b);
                    // b holds z and the pivot digit a does not
                    if bm & z_bit == 0 || bm & am & pm != 0 {
                        continue;
                    }
                    let z = z_bit.trailing_zeros() as u8 + 1;
                    let targets = (CellSet::single(a) | CellSet::single(b)).common_peers();
                    f(a, b, z, targets)?;
                }
            }
        }
        3 => {
            let wings: CellSet = (pivot.peers() & bivalue)
                .iter()
                .filter(|&c| grid.candidates(c) & !pm == 0)
                .collect();
            for a in wings {
                let am = grid.candidates(a);
                for b in wings {
                    if b <= a {
                        continue;
                    }
                    let bm = grid.candidates(b);
                    // two different pairs of the pivot's digits sharing exactly z
                    if bm == am {
                        continue;
                    }
                    let z = (am & bm).trailing_zeros() as u8 + 1;
                    let pincers = CellSet::single(a) | CellSet::single(b);
                    let targets = (pincers | CellSet::single(pivot)).common_peers();
                    f(a, b, z, targets)?;
                }
            }
        }
        _ => {}
    }
    ControlFlow::Continue(())
}

/// A wing step: `pivot` cells (may be empty), `pincers`, digit `z` removed from `elims`.
fn wing_step(
    technique: &dyn Technique,
    grid: &Grid,
    mask: DigitMask,
    pivot: CellSet,
    pincers: CellSet,
    elims: Vec<Candidate>,
) -> Step {
    let cells = pivot | pincers;
    let text = format!(
        "{}: {} in {cells} => {}",
        technique.name(),
        digits_text(mask, "/"),
        eliminations_text(&elims)
    );
    let mut step = Step::new(technique.id(), technique.difficulty());
    if !pivot.is_empty() {
        step = step.highlight(Role::Pivot, all_candidates(grid, pivot));
    }
    step.highlight(Role::Pincer, all_candidates(grid, pincers))
        .eliminations(elims)
        .explain(text)
}

/// XY-Wing: a bivalue pivot `xy` seeing two bivalue pincers `xz` and `yz`; `z` leaves every
/// cell seeing both pincers.
pub struct XyWing;

impl Builtin for XyWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("xy-wing") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        stoppable(|| {
            let (grid, bivalue) = (ctx.grid(), ctx.bivalue_cells());
            for pivot in bivalue {
                let pm = grid.candidates(pivot);
                for_each_wing(grid, bivalue, pivot, &mut |a, b, z, targets| {
                    let elims = eliminations_of(grid, z, targets);
                    if elims.is_empty() {
                        return ControlFlow::Continue(());
                    }
                    let pincers = CellSet::single(a) | CellSet::single(b);
                    let mask = pm | digit_bit(z);
                    sink(wing_step(
                        self,
                        grid,
                        mask,
                        CellSet::single(pivot),
                        pincers,
                        elims,
                    ))
                })?;
            }
            ControlFlow::Continue(())
        })
    }
}

/// XYZ-Wing: a pivot `xyz` seeing two bivalue pincers `xz` and `yz`; `z` leaves every cell
/// seeing the pivot and both pincers.
pub struct XyzWing;

impl Builtin for XyzWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("xyz-wing") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        stoppable(|| {
            let (grid, bivalue) = (ctx.grid(), ctx.bivalue_cells());
            for pivot in cells_with_count(grid, 3) {
                let pm = grid.candidates(pivot);
                for_each_wing(grid, bivalue, pivot, &mut |a, b, z, targets| {
                    let elims = eliminations_of(grid, z, targets);
                    if elims.is_empty() {
                        return ControlFlow::Continue(());
                    }
                    let pincers = CellSet::single(a) | CellSet::single(b);
                    sink(wing_step(
                        self,
                        grid,
                        pm,
                        CellSet::single(pivot),
                        pincers,
                        elims,
                    ))
                })?;
            }
            ControlFlow::Continue(())
        })
    }
}

/// W-Wing: two bivalue cells `xy` that do not see each other, joined by a strong link on `x`
/// (a house where `x` has only two places, one seeing each cell); `y` leaves every cell
/// seeing both.
pub struct WWing;

impl Builtin for WWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("w-wing") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        stoppable(|| {
            let (grid, bivalue) = (ctx.grid(), ctx.bivalue_cells());
            for a in bivalue {
                let mask = grid.candidates(a);
                for b in bivalue {
                    if b <= a || grid.candidates(b) != mask || a.sees(b) {
                        continue;
                    }
                    let pair = CellSet::single(a) | CellSet::single(b);
                    let targets = pair.common_peers();
                    for x in digits(mask) {
                        let y = digits(mask & !digit_bit(x)).next().expect("bivalue");
                        let elims = eliminations_of(grid, y, targets);
                        if elims.is_empty() {
                            continue;
                        }
                        let Some((house, ends)) = strong_link_between(ctx, x, a, b) else {
                            continue;
                        };
                        let text = format!(
                            "{}: {} in {pair} (connected by {x} in {ends}) => {}",
                            self.name(),
                            digits_text(mask, "/"),
                            eliminations_text(&elims)
                        );
                        let links = ends.iter().map(|c| Candidate::new(c, x));
                        let step = Step::new(self.id(), self.difficulty())
                            .house(house)
                            .highlight(Role::Pincer, all_candidates(grid, pair))
                            .highlight(Role::Link, links)
                            .explain(text)
                            .eliminations(elims);
                        sink(step)?;
                    }
                }
            }
            ControlFlow::Continue(())
        })
    }
}

/// The first house (rows, then columns, then boxes) where `x` has exactly two places,
/// neither `a` nor `b`, one seeing `a` and the other `b`: the house and the two places.
fn strong_link_between(ctx: &Context<'_>, x: u8, a: Cell, b: Cell) -> Option<(House, CellSet)> {
    let ends: CellSet = CellSet::single(a) | CellSet::single(b);
    ctx.strong_links_of(x).iter().find_map(|l| {
        let (p, q) = (l.a, l.b);
        let joins = (p.sees(a) && q.sees(b)) || (p.sees(b) && q.sees(a));
        (joins && !l.cells().intersects(ends)).then(|| (l.house, l.cells()))
    })
}

/// WXYZ-Wing, as a generalised bent set: four cells holding four digits in all, where every
/// digit but one (`z`) is restricted (its cells in the set all see each other). The four
/// cells need four different values and the restricted digits can give at most one each, so
/// `z` is in the set: it leaves every cell seeing all the set's `z` cells.
pub struct WxyzWing;

/// The digits shared by `cell` and some cell of `chosen` it does not see: the digits that
/// adding `cell` makes unrestricted.
fn unrestricted_with(grid: &Grid, chosen: &[Cell], cell: Cell) -> DigitMask {
    let m = grid.candidates(cell);
    chosen
        .iter()
        .filter(|&&p| !p.sees(cell))
        .fold(0, |acc, &p| acc | (m & grid.candidates(p)))
}

impl WxyzWing {
    /// Extends `chosen` (cells before `from` in `cells`) to four cells, pruning as soon as two
    /// digits are unrestricted, and reports every bent set found.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        grid: &Grid,
        mask: DigitMask,
        cells: &[Cell],
        from: usize,
        chosen: &mut [Cell; 4],
        n: usize,
        free: DigitMask,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        if n == 4 {
            let set: CellSet = chosen.iter().copied().collect();
            if free.count_ones() != 1 || grid.candidates_of(set) != mask {
                return ControlFlow::Continue(());
            }
            let z = free.trailing_zeros() as u8 + 1;
            let zs = grid.digit_cells(z) & set;
            let elims = eliminations_of(grid, z, zs.common_peers() - set);
            if elims.is_empty() {
                return ControlFlow::Continue(());
            }
            let step = wing_step(self, grid, mask, set - zs, zs, elims);
            return sink(step);
        }
        for i in from..cells.len() {
            let c = cells[i];
            let f = free | unrestricted_with(grid, &chosen[..n], c);
            if f.count_ones() > 1 {
                continue;
            }
            chosen[n] = c;
            self.extend(grid, mask, cells, i + 1, chosen, n + 1, f, sink)?;
        }
        ControlFlow::Continue(())
    }
}

impl Builtin for WxyzWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("wxyz-wing") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            let mut list = [Cell::default(); 81];
            // cells with two to four candidates, by the set of four digits holding them
            for mask in 0u16..512 {
                if mask.count_ones() != 4 {
                    continue;
                }
                let mut n = 0;
                for c in grid.empty_cells() {
                    let m = grid.candidates(c);
                    if m & !mask == 0 && m.count_ones() >= 2 {
                        list[n] = c;
                        n += 1;
                    }
                }
                if n < 4 {
                    continue;
                }
                let mut chosen = [Cell::default(); 4];
                self.extend(grid, mask, &list[..n], 0, &mut chosen, 0, 0, sink)?;
            }
            ControlFlow::Continue(())
        })
    }
}

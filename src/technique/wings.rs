//! Wings: XY-Wing, XYZ-Wing, WXYZ-Wing (as a bent set of four cells) and W-Wing.
//!
//! Every wing is a small set of cells that must hold some digit `z` in at least one of its
//! "pincer" cells; `z` then leaves every cell that sees all of them.

use std::ops::ControlFlow;

use crate::model::Sym;
use crate::model::cell::{Cell, House, digit_mask, digits, digits_text};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Shape};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::SizedBuiltin;
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
fn all_candidates<S: Shape>(grid: &Grid<S>, cells: CellSet<S>) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|c| digits(grid.candidates(c)).map(move |d| Candidate::new(c, d)))
        .collect()
}

/// The cells of `bivalue` (the grid's bivalue cells) that see `pivot` and share exactly one
/// digit with it: the pincers an XY-Wing on a bivalue `pivot` can use.
pub(crate) fn xy_pincers<S: Shape>(grid: &Grid<S>, bivalue: CellSet<S>, pivot: Cell) -> CellSet<S> {
    let pm = grid.candidates(pivot);
    (grid.geometry().peers(pivot) & bivalue)
        .iter()
        .filter(|&c| grid.candidates(c).and(pm).count() == 1)
        .collect()
}

/// Calls `f(a, b, z, targets)` with every XY-Wing or XYZ-Wing on `pivot`, given the grid's
/// `bivalue` cells, pincers in index order (`a < b`, first by `a`): for a bivalue pivot `xy`,
/// two bivalue peers `xz` and `yz`; for a pivot `xyz`, two different bivalue peers within its
/// digits (sharing `z`). `targets` are the cells seeing both pincers, and the pivot too for
/// an XYZ-Wing; `z` leaves those that hold it. Other pivots have no wings.
pub(crate) fn for_each_wing<S: Shape>(
    grid: &Grid<S>,
    bivalue: CellSet<S>,
    pivot: Cell,
    f: &mut impl FnMut(Cell, Cell, u8, CellSet<S>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let geo = grid.geometry();
    let pm = grid.candidates(pivot);
    match pm.count() {
        2 => {
            let wings = xy_pincers(grid, bivalue, pivot);
            for a in wings {
                let am = grid.candidates(a);
                let z_bit = am.and_not(pm);
                for b in wings {
                    if b <= a {
                        continue;
                    }
                    let bm = grid.candidates(b);
                    // b holds z and the pivot digit a does not
                    if bm.and(z_bit).is_zero() || !bm.and(am).and(pm).is_zero() {
                        continue;
                    }
                    let z = first_digit(z_bit);
                    let targets = geo.common_peers(CellSet::single(a) | CellSet::single(b));
                    f(a, b, z, targets)?;
                }
            }
        }
        3 => {
            let wings: CellSet<S> = (geo.peers(pivot) & bivalue)
                .iter()
                .filter(|&c| grid.candidates(c).and_not(pm).is_zero())
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
                    let z = first_digit(am.and(bm));
                    let pincers = CellSet::single(a) | CellSet::single(b);
                    let targets = geo.common_peers(pincers | CellSet::single(pivot));
                    f(a, b, z, targets)?;
                }
            }
        }
        _ => {}
    }
    ControlFlow::Continue(())
}

/// The lowest digit of a mask that holds one.
fn first_digit<M: Bits>(mask: M) -> u8 {
    digits(mask).next().expect("a digit")
}

/// A wing step: `pivot` cells (may be empty), `pincers`, digit `z` removed from `elims`.
fn wing_step<S: Shape>(
    technique: &dyn Technique,
    grid: &Grid<S>,
    mask: S::Mask,
    pivot: CellSet<S>,
    pincers: CellSet<S>,
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

impl SizedBuiltin for XyWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("xy-wing") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
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
                    let mask = pm.or(digit_mask::<S::Mask>(z));
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

impl SizedBuiltin for XyzWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("xyz-wing") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
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

impl SizedBuiltin for WWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("w-wing") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| {
            let (grid, bivalue) = (ctx.grid(), ctx.bivalue_cells());
            let geo = grid.geometry();
            for a in bivalue {
                let mask = grid.candidates(a);
                for b in bivalue {
                    if b <= a || grid.candidates(b) != mask || geo.sees(a, b) {
                        continue;
                    }
                    let pair = CellSet::single(a) | CellSet::single(b);
                    let targets = geo.common_peers(pair);
                    for x in digits(mask) {
                        let y = first_digit(mask.and_not(digit_mask::<S::Mask>(x)));
                        let elims = eliminations_of(grid, y, targets);
                        if elims.is_empty() {
                            continue;
                        }
                        let Some((house, ends)) = strong_link_between(ctx, x, a, b) else {
                            continue;
                        };
                        let text = format!(
                            "{}: {} in {pair} (connected by {} in {ends}) => {}",
                            self.name(),
                            digits_text(mask, "/"),
                            Sym(x),
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
fn strong_link_between<S: Shape>(
    ctx: &Context<'_, S>,
    x: u8,
    a: Cell,
    b: Cell,
) -> Option<(House, CellSet<S>)> {
    let geo = ctx.grid().geometry();
    let ends: CellSet<S> = CellSet::single(a) | CellSet::single(b);
    ctx.strong_links_of(x).iter().find_map(|l| {
        let (p, q) = (l.a, l.b);
        let joins = (geo.sees(p, a) && geo.sees(q, b)) || (geo.sees(p, b) && geo.sees(q, a));
        let cells = CellSet::single(p) | CellSet::single(q);
        (joins && !cells.intersects(ends)).then_some((l.house, cells))
    })
}

/// WXYZ-Wing, as a generalised bent set: four cells holding four digits in all, where every
/// digit but one (`z`) is restricted (its cells in the set all see each other). The four
/// cells need four different values and the restricted digits can give at most one each, so
/// `z` is in the set: it leaves every cell seeing all the set's `z` cells.
pub struct WxyzWing;

/// The digits shared by `cell` and some cell of `chosen` it does not see: the digits that
/// adding `cell` makes unrestricted.
fn unrestricted_with<S: Shape>(grid: &Grid<S>, chosen: &[Cell], cell: Cell) -> S::Mask {
    let m = grid.candidates(cell);
    let geo = grid.geometry();
    chosen
        .iter()
        .filter(|&&p| !geo.sees(p, cell))
        .fold(S::Mask::ZERO, |acc, &p| acc.or(m.and(grid.candidates(p))))
}

impl WxyzWing {
    /// Extends `chosen` (cells before `from` in `cells`) to four cells, pruning as soon as two
    /// digits are unrestricted, and reports every bent set found.
    #[allow(clippy::too_many_arguments)]
    fn extend<S: Shape>(
        &self,
        grid: &Grid<S>,
        mask: S::Mask,
        cells: &[Cell],
        from: usize,
        chosen: &mut [Cell; 4],
        n: usize,
        free: S::Mask,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        if n == 4 {
            let set: CellSet<S> = chosen.iter().copied().collect();
            if free.count() != 1 || grid.candidates_of(set) != mask {
                return ControlFlow::Continue(());
            }
            let z = first_digit(free);
            let zs = grid.digit_cells(z) & set;
            let elims = eliminations_of(grid, z, grid.geometry().common_peers(zs) - set);
            if elims.is_empty() {
                return ControlFlow::Continue(());
            }
            let step = wing_step(self, grid, mask, set - zs, zs, elims);
            return sink(step);
        }
        for i in from..cells.len() {
            let c = cells[i];
            let f = free.or(unrestricted_with(grid, &chosen[..n], c));
            if f.count() > 1 {
                continue;
            }
            chosen[n] = c;
            self.extend(grid, mask, cells, i + 1, chosen, n + 1, f, sink)?;
        }
        ControlFlow::Continue(())
    }
}

impl SizedBuiltin for WxyzWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("wxyz-wing") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            // the cells with two to four candidates, in board order, each with its digits
            // (bit `d - 1` for digit `d`)
            let mut small = [(Cell::default(), 0u32); 625];
            let mut small_len = 0;
            for c in grid.empty_cells() {
                let m = grid.candidates(c);
                if (2..=4).contains(&m.count()) {
                    small[small_len] = (c, m.low_u32());
                    small_len += 1;
                }
            }
            let small = &small[..small_len];
            let mut list = [Cell::default(); 625];
            // those cells by the set of four digits holding them (the sets in increasing order
            // as numbers: the next with four bits, Gosper's way)
            let mut four: u32 = 0b1111;
            while four < 1 << S::N {
                let mask = digits(four).fold(S::Mask::ZERO, |m, d| m.or(digit_mask::<S::Mask>(d)));
                let quad = four;
                let low = four & four.wrapping_neg();
                let carry = four + low;
                four = carry | (((four ^ carry) >> 2) / low);
                let mut n = 0;
                for &(c, m) in small {
                    if m & !quad == 0 {
                        list[n] = c;
                        n += 1;
                    }
                }
                if n < 4 {
                    continue;
                }
                let mut chosen = [Cell::default(); 4];
                let free = S::Mask::ZERO;
                self.extend(grid, mask, &list[..n], 0, &mut chosen, 0, free, sink)?;
            }
            ControlFlow::Continue(())
        })
    }
}

//! Uniqueness: unique rectangles (types 1–6), the hidden rectangle, avoidable rectangles
//! (types 1 and 2) and BUG+1.
//!
//! All of them rest on one fact: in a puzzle with a unique solution, four non-given cells
//! forming a rectangle over exactly two rows, two columns and two boxes can never hold the
//! pattern `a b / b a` — swapping `a` and `b` in those four cells would give a second
//! solution. (A BUG, where every unsolved cell is bivalue and every digit has two places in
//! each house, likewise has either zero or at least two solutions.) Every technique here
//! therefore reports [`Technique::needs_uniqueness`].
//!
//! Rectangle corners are numbered `0 1 / 2 3`: corners `i` and `i ^ 1` share a row, `i` and
//! `i ^ 2` a column, and `i` and `3 - i` are diagonal (they never share a house).
//!
//! Every technique here runs on every board size (4x4 to 25x25), with boxes of any shape, from
//! one generic search: a rectangle in two boxes has its rows in one band and its columns in
//! two stacks, or the other way round, and the BUG argument does not depend on the size (in a
//! BUG, turning every unsolved cell of a solution to its other candidate gives another).

use std::ops::ControlFlow;

use crate::model::Sym;
use crate::model::cell::{Cell, House, digit_mask, digits, digits_text};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Geometry, Shape};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::SizedBuiltin;
use crate::technique::catalogue::entry;
use crate::technique::context::Context;
use crate::technique::round_tenth;
use crate::technique::subsets::for_each_combination;
use crate::technique::{
    StepSink, Technique, TechniqueError, TechniqueInfo, eliminations_of, stoppable,
};

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(UniqueRectangle::TYPE_1),
        Box::new(UniqueRectangle::TYPE_2),
        Box::new(UniqueRectangle::TYPE_4),
        Box::new(UniqueRectangle::TYPE_5),
        Box::new(AvoidableRectangle::TYPE_1),
        Box::new(AvoidableRectangle::TYPE_2),
        Box::new(UniqueRectangle::TYPE_3),
        Box::new(UniqueRectangle::TYPE_6),
        Box::new(HiddenRectangle),
        Box::new(BugPlusOne),
    ]
}

/// Every rectangle of four cells over two rows, two columns and exactly two boxes (two rows of
/// one band and columns of two stacks, or the other way round), corners in the order
/// `r1c1, r1c2, r2c1, r2c2`.
fn for_each_rectangle<S: Shape>(
    geo: &Geometry<S>,
    f: &mut dyn FnMut([Cell; 4]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = S::N as u8;
    let layout = geo.layout();
    // the band of each row and the stack of each column (no division in the loops)
    let (mut band, mut stack) = ([0u8; 25], [0u8; 25]);
    for i in 0..S::N {
        band[i] = (i / layout.box_rows()) as u8;
        stack[i] = (i / layout.box_cols()) as u8;
    }
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            let same_band = band[usize::from(r1)] == band[usize::from(r2)];
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    if same_band == (stack[usize::from(c1)] == stack[usize::from(c2)]) {
                        continue;
                    }
                    f([
                        Cell::at(r1, c1),
                        Cell::at(r1, c2),
                        Cell::at(r2, c1),
                        Cell::at(r2, c2),
                    ])?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The houses both cells are in.
fn shared_houses<S: Shape>(geo: &Geometry<S>, a: Cell, b: Cell) -> impl Iterator<Item = House> {
    let hb = geo.houses_of(b);
    geo.houses_of(a).into_iter().filter(move |h| hb.contains(h))
}

/// Every candidate of `cells` whose digit is in `mask`.
fn candidates_in<S: Shape>(grid: &Grid<S>, cells: CellSet<S>, mask: S::Mask) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|c| digits(grid.candidates(c).and(mask)).map(move |d| Candidate::new(c, d)))
        .collect()
}

/// Every candidate of `cells` whose digit is not in `mask`.
fn candidates_outside<S: Shape>(
    grid: &Grid<S>,
    cells: CellSet<S>,
    mask: S::Mask,
) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|c| digits(grid.candidates(c).and_not(mask)).map(move |d| Candidate::new(c, d)))
        .collect()
}

/// A unique rectangle: four empty corners and the two digits `a`/`b` (`ab`), where at least
/// one corner holds exactly `a` and `b`. Corners holding exactly `ab` are the floor; the
/// others (`extra`, a bit per corner) hold other digits too (and may miss `a` or `b`: a digit
/// already eliminated cannot take part in the deadly pattern, which only helps).
struct Ur<S: Shape> {
    cells: [Cell; 4],
    ab: S::Mask,
    extra: u8,
}

impl<S: Shape> Ur<S> {
    fn set(&self) -> CellSet<S> {
        self.cells.iter().copied().collect()
    }
    fn extra_cells(&self) -> CellSet<S> {
        (0..4)
            .filter(|i| self.extra >> i & 1 != 0)
            .map(|i| self.cells[i])
            .collect()
    }
    /// The corner indices with extra candidates.
    fn extra_indices(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).filter(|i| self.extra >> i & 1 != 0)
    }
    /// The candidates that are not `a` or `b` in the extra cells.
    fn extras_mask(&self, grid: &Grid<S>) -> S::Mask {
        self.extra_indices()
            .fold(S::Mask::ZERO, |m, i| m.or(grid.candidates(self.cells[i])))
            .and_not(self.ab)
    }
    fn text(&self) -> String {
        format!("{} in {}", digits_text(self.ab, "/"), self.set())
    }
    /// A step with the rectangle highlighted: `a`/`b` as pattern, extra digits as fins.
    fn step(&self, grid: &Grid<S>, id: &str, difficulty: f32) -> Step {
        let set = self.set();
        Step::new(id, difficulty)
            .highlight(Role::Pattern, candidates_in(grid, set, self.ab))
            .highlight(Role::Fin, candidates_outside(grid, set, self.ab))
    }
}

/// Every unique rectangle of `grid` (see [`Ur`]).
fn for_each_ur<S: Shape>(
    grid: &Grid<S>,
    f: &mut dyn FnMut(&Ur<S>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let empty = grid.empty_cells();
    for_each_rectangle(grid.geometry(), &mut |cells| {
        if !cells.iter().all(|&c| empty.contains(c)) {
            return ControlFlow::Continue(());
        }
        let mut seen = [S::Mask::ZERO; 4];
        for (n, &c) in cells.iter().enumerate() {
            let ab = grid.candidates(c);
            if ab.count() != 2 || seen[..n].contains(&ab) {
                continue;
            }
            seen[n] = ab;
            let extra = (0..4)
                .filter(|&i| grid.candidates(cells[i]) != ab)
                .fold(0u8, |m, i| m | 1 << i);
            if extra == 0 {
                // a deadly pattern: the puzzle is not unique; nothing to say
                continue;
            }
            f(&Ur { cells, ab, extra })?;
        }
        ControlFlow::Continue(())
    })
}

/// Which unique-rectangle type a [`UniqueRectangle`] finds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum UrKind {
    /// One corner has extra digits: `a` and `b` leave it.
    One,
    /// Two corners sharing a house have the same single extra digit `c`: `c` leaves every
    /// cell seeing both.
    Two,
    /// Two corners sharing a house have extra digits that form a naked subset with other
    /// cells of that house.
    Three,
    /// Two corners sharing a house, one of `a`/`b` confined to them in that house: the other
    /// leaves both.
    Four,
    /// Two diagonal corners or three corners have the same single extra digit `c`: `c`
    /// leaves every cell seeing all of them.
    Five,
    /// Two diagonal corners have extra digits and `a` (or `b`) is confined to the rectangle
    /// in both rows or both columns: it leaves those two corners.
    Six,
}

/// Unique rectangle of one type (see the kinds above).
pub struct UniqueRectangle {
    kind: UrKind,
    info: &'static TechniqueInfo,
}

impl UniqueRectangle {
    /// Type 1 (4.5).
    pub const TYPE_1: UniqueRectangle = UniqueRectangle {
        kind: UrKind::One,
        info: entry("unique-rectangle-1"),
    };
    /// Type 2 (4.5).
    pub const TYPE_2: UniqueRectangle = UniqueRectangle {
        kind: UrKind::Two,
        info: entry("unique-rectangle-2"),
    };
    /// Type 3 (4.5 plus 0.1 per cell of the subset beyond the rectangle: 4.6–4.8).
    pub const TYPE_3: UniqueRectangle = UniqueRectangle {
        kind: UrKind::Three,
        info: entry("unique-rectangle-3"),
    };
    /// Type 4 (4.5).
    pub const TYPE_4: UniqueRectangle = UniqueRectangle {
        kind: UrKind::Four,
        info: entry("unique-rectangle-4"),
    };
    /// Type 5 (4.5, the argument of type 2).
    pub const TYPE_5: UniqueRectangle = UniqueRectangle {
        kind: UrKind::Five,
        info: entry("unique-rectangle-5"),
    };
    /// Type 6 (4.6: the argument of type 4 with two pairs of strong links).
    pub const TYPE_6: UniqueRectangle = UniqueRectangle {
        kind: UrKind::Six,
        info: entry("unique-rectangle-6"),
    };

    fn find_one<S: Shape>(
        &self,
        grid: &Grid<S>,
        ur: &Ur<S>,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let geo = grid.geometry();
        let n_extra = ur.extra.count_ones();
        let xs = ur.extra_cells();
        match self.kind {
            UrKind::One => {
                if n_extra != 1 {
                    return ControlFlow::Continue(());
                }
                let cell = xs.first().expect("one extra cell");
                let elims = candidates_in(grid, xs, ur.ab);
                if elims.is_empty() {
                    return ControlFlow::Continue(());
                }
                let text = format!(
                    "{}: {} => {}",
                    self.info.name,
                    ur.text(),
                    eliminations_text(&elims)
                );
                let step = ur
                    .step(grid, self.info.id, self.info.difficulty)
                    .explain(text)
                    .houses(geo.houses_of(cell).to_vec())
                    .eliminations(elims);
                sink(step)
            }
            UrKind::Two | UrKind::Five => {
                let extras = ur.extras_mask(grid);
                if extras.count() != 1 || !(2..=3).contains(&n_extra) {
                    return ControlFlow::Continue(());
                }
                let is_two = n_extra == 2 && {
                    let mut it = xs.iter();
                    let (p, q) = (it.next(), it.next());
                    matches!((p, q), (Some(p), Some(q)) if geo.sees(p, q))
                };
                if is_two != (self.kind == UrKind::Two) {
                    return ControlFlow::Continue(());
                }
                let c = digits(extras).next().expect("one extra digit");
                let elims = eliminations_of(grid, c, geo.common_peers(xs));
                if elims.is_empty() {
                    return ControlFlow::Continue(());
                }
                let text = format!(
                    "{}: {} (extra {} in {xs}) => {}",
                    self.info.name,
                    ur.text(),
                    Sym(c),
                    eliminations_text(&elims)
                );
                let step = ur
                    .step(grid, self.info.id, self.info.difficulty)
                    .explain(text)
                    .eliminations(elims);
                sink(step)
            }
            UrKind::Three => {
                if n_extra != 2 {
                    return ControlFlow::Continue(());
                }
                let mut it = xs.iter();
                let (p, q) = (it.next().expect("two"), it.next().expect("two"));
                let extras = ur.extras_mask(grid);
                let mut houses = [House::row(0); 2];
                let mut n = 0;
                for h in shared_houses(geo, p, q) {
                    houses[n] = h;
                    n += 1;
                }
                for i in 0..n {
                    self.type_3_in(grid, ur, &houses[..n], i, extras, sink)?;
                }
                ControlFlow::Continue(())
            }
            UrKind::Four => {
                if n_extra != 2 {
                    return ControlFlow::Continue(());
                }
                let mut it = xs.iter();
                let (p, q) = (it.next().expect("two"), it.next().expect("two"));
                for u in digits(ur.ab) {
                    let w = digits(ur.ab.and_not(digit_mask(u))).next().expect("pair");
                    // u confined to the two corners in a shared house where it still has a
                    // place (not solved there); one such house is enough
                    let Some(house) = shared_houses(geo, p, q).find(|&h| {
                        let places = grid.digit_cells_in(u, h);
                        !places.is_empty() && places.is_subset(xs)
                    }) else {
                        continue;
                    };
                    let elims = eliminations_of(grid, w, xs);
                    if elims.is_empty() {
                        continue;
                    }
                    let text = format!(
                        "{}: {} ({} only in {xs} in {house}) => {}",
                        self.info.name,
                        ur.text(),
                        Sym(u),
                        eliminations_text(&elims)
                    );
                    let link = candidates_in(grid, xs, digit_mask(u));
                    let step = ur
                        .step(grid, self.info.id, self.info.difficulty)
                        .house(house)
                        .highlight(Role::Link, link)
                        .explain(text)
                        .eliminations(elims);
                    sink(step)?;
                }
                ControlFlow::Continue(())
            }
            UrKind::Six => {
                if n_extra != 2 || !matches!(ur.extra, 0b1001 | 0b0110) {
                    return ControlFlow::Continue(());
                }
                let set = ur.set();
                for u in digits(ur.ab) {
                    // u confined to the rectangle in a house
                    let confined = |h: House| {
                        let places = grid.digit_cells_in(u, h);
                        !places.is_empty() && places.is_subset(set)
                    };
                    let mut elims = Vec::new();
                    let mut houses = Vec::new();
                    for e in ur.extra_indices() {
                        let other = ur.cells[3 - e];
                        let row = House::row(other.row());
                        let col = House::col(other.col());
                        let via = [row, col].into_iter().find(|&h| confined(h));
                        if let Some(h) = via
                            && grid.has_candidate(ur.cells[e], u)
                        {
                            elims.push(Candidate::new(ur.cells[e], u));
                            houses.push(h);
                        }
                    }
                    if elims.is_empty() {
                        continue;
                    }
                    elims.sort();
                    let text = format!(
                        "{}: {} ({} only in the rectangle in {}) => {}",
                        self.info.name,
                        ur.text(),
                        Sym(u),
                        houses
                            .iter()
                            .map(|h| h.to_string())
                            .collect::<Vec<_>>()
                            .join(","),
                        eliminations_text(&elims)
                    );
                    let link = candidates_in(grid, set, digit_mask(u));
                    let step = ur
                        .step(grid, self.info.id, self.info.difficulty)
                        .highlight(Role::Link, link)
                        .explain(text)
                        .houses(houses)
                        .eliminations(elims);
                    sink(step)?;
                }
                ControlFlow::Continue(())
            }
        }
    }

    /// Type 3 in `houses[which]`: the two extra corners act as one cell holding `extras`;
    /// with `k - 1` other cells of the house they hold `k` digits in all, a naked subset. When
    /// the subset also lies in the other shared house (line and box), the digits leave both;
    /// such a subset is reported once, from the first house.
    fn type_3_in<S: Shape>(
        &self,
        grid: &Grid<S>,
        ur: &Ur<S>,
        houses: &[House],
        which: usize,
        extras: S::Mask,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let geo = grid.geometry();
        let house = houses[which];
        let roof = ur.extra_cells();
        let mut cells = [Cell::default(); 25];
        let mut n = 0;
        for c in (geo.house(house) & grid.empty_cells()) - ur.set() {
            let m = grid.candidates(c);
            if m.or(extras).count() <= 4 {
                cells[n] = c;
                n += 1;
            }
        }
        for size in 1..=3usize {
            for_each_combination(&cells[..n], size, &mut |chosen| {
                let mask = chosen.iter().fold(extras, |m, &c| m.or(grid.candidates(c)));
                if mask.count() as usize != size + 1 {
                    return ControlFlow::Continue(());
                }
                let subset: CellSet<S> = chosen.iter().copied().collect();
                let all: Vec<House> = houses
                    .iter()
                    .copied()
                    .filter(|&h| subset.is_subset(geo.house(h)))
                    .collect();
                if all[0] != house {
                    return ControlFlow::Continue(());
                }
                let area = all.iter().fold(CellSet::EMPTY, |a, &h| a | geo.house(h));
                let rest = area - subset - roof;
                let mut elims: Vec<Candidate> = candidates_in(grid, rest, mask);
                if elims.is_empty() {
                    return ControlFlow::Continue(());
                }
                elims.sort();
                let kind = ["pair", "triple", "quadruple"][size - 1];
                let text = format!(
                    "{}: {} with naked {kind} {} in {},{subset} => {}",
                    self.info.name,
                    ur.text(),
                    digits_text(mask, "/"),
                    roof,
                    eliminations_text(&elims)
                );
                let difficulty = round_tenth(self.info.difficulty + 0.1 * (size - 1) as f32);
                let step = ur
                    .step(grid, self.info.id, difficulty)
                    .highlight(Role::Base, candidates_in(grid, subset, mask))
                    .explain(text)
                    .houses(all)
                    .eliminations(elims);
                sink(step)
            })?;
        }
        ControlFlow::Continue(())
    }
}

impl SizedBuiltin for UniqueRectangle {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| for_each_ur(grid, &mut |ur| self.find_one(grid, ur, sink)))
    }
}

/// Hidden rectangle: a rectangle of empty cells where one corner holds exactly `a` and `b`
/// and, in the row and the column of the opposite corner, `b` has no place outside the
/// rectangle. That corner cannot be `a`: it would force `b` into both its neighbours and `a`
/// into the bivalue corner, the deadly pattern.
pub struct HiddenRectangle;

impl SizedBuiltin for HiddenRectangle {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("hidden-rectangle") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let empty = grid.empty_cells();
        stoppable(|| {
            for_each_rectangle(grid.geometry(), &mut |cells| {
                if !cells.iter().all(|&c| empty.contains(c)) {
                    return ControlFlow::Continue(());
                }
                let set: CellSet<S> = cells.iter().copied().collect();
                for (i, &corner) in cells.iter().enumerate() {
                    let ab = grid.candidates(corner);
                    if ab.count() != 2 {
                        continue;
                    }
                    let target = cells[3 - i];
                    let row = House::row(target.row());
                    let col = House::col(target.col());
                    for u in digits(ab) {
                        let w = digits(ab.and_not(digit_mask(u))).next().expect("pair");
                        let in_row = grid.digit_cells_in(u, row);
                        let in_col = grid.digit_cells_in(u, col);
                        if !grid.has_candidate(target, w)
                            || in_row.is_empty()
                            || in_col.is_empty()
                            || !in_row.is_subset(set)
                            || !in_col.is_subset(set)
                        {
                            continue;
                        }
                        let elims = vec![Candidate::new(target, w)];
                        let text = format!(
                            "{}: {} in {set} ({corner} bivalue, {} only in the rectangle in {row},{col}) => {}",
                            self.name(),
                            digits_text(ab, "/"),
                            Sym(u),
                            eliminations_text(&elims)
                        );
                        let link = candidates_in(grid, set, digit_mask(u));
                        let step = Step::new(self.id(), self.difficulty())
                            .house(row)
                            .house(col)
                            .highlight(Role::Pattern, candidates_in(grid, set, ab))
                            .highlight(Role::Link, link)
                            .explain(text)
                            .eliminations(elims);
                        sink(step)?;
                    }
                }
                ControlFlow::Continue(())
            })
        })
    }
}

/// Avoidable rectangle: a rectangle of non-given cells, some already solved, that would
/// become the deadly pattern. Type 1: three corners are solved and the fourth loses the digit
/// completing the pattern. Type 2: the unsolved corners hold their pattern digit and one and
/// the same extra digit `c`; one of them is `c`, so `c` leaves every cell seeing them all.
pub struct AvoidableRectangle {
    type_2: bool,
    info: &'static TechniqueInfo,
}

impl AvoidableRectangle {
    /// Type 1 (4.5).
    pub const TYPE_1: AvoidableRectangle = AvoidableRectangle {
        type_2: false,
        info: entry("avoidable-rectangle-1"),
    };
    /// Type 2 (4.5).
    pub const TYPE_2: AvoidableRectangle = AvoidableRectangle {
        type_2: true,
        info: entry("avoidable-rectangle-2"),
    };

    /// `pattern[i]` is the digit corner `i` takes in the deadly pattern.
    fn find_one<S: Shape>(
        &self,
        grid: &Grid<S>,
        cells: [Cell; 4],
        pattern: [u8; 4],
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let empty: CellSet<S> = cells
            .iter()
            .copied()
            .filter(|&c| grid.value(c) == 0)
            .collect();
        // every unsolved corner must still be able to take its pattern digit
        let mut others = S::Mask::ZERO;
        let mut open = CellSet::<S>::EMPTY;
        for (i, &c) in cells.iter().enumerate() {
            if grid.value(c) != 0 {
                continue;
            }
            let m = grid.candidates(c);
            if !grid.has_candidate(c, pattern[i]) {
                return ControlFlow::Continue(());
            }
            let rest = m.and_not(digit_mask(pattern[i]));
            if !rest.is_zero() {
                others = others.or(rest);
                open.insert(c);
            }
        }
        let set: CellSet<S> = cells.iter().copied().collect();
        let ab = digit_mask::<S::Mask>(pattern[0]).or(digit_mask(pattern[1]));
        let solved = set - empty;
        let (elims, role_cells) = if !self.type_2 {
            if empty.len() != 1 {
                return ControlFlow::Continue(());
            }
            let cell = empty.first().expect("one");
            let i = cells.iter().position(|&c| c == cell).expect("corner");
            (vec![Candidate::new(cell, pattern[i])], empty)
        } else {
            if open.len() < 2 || others.count() != 1 {
                return ControlFlow::Continue(());
            }
            let c = digits(others).next().expect("one other digit");
            let geo = grid.geometry();
            (eliminations_of(grid, c, geo.common_peers(open)), open)
        };
        if elims.is_empty() {
            return ControlFlow::Continue(());
        }
        let text = format!(
            "{}: {} in {set} (solved {solved}) => {}",
            self.info.name,
            digits_text(ab, "/"),
            eliminations_text(&elims)
        );
        let pattern_cands = cells
            .iter()
            .enumerate()
            .filter(|(_, c)| grid.value(**c) == 0)
            .map(|(i, &c)| Candidate::new(c, pattern[i]));
        let step = Step::new(self.id(), self.difficulty())
            .highlight(Role::Pattern, pattern_cands)
            .highlight(Role::Fin, candidates_outside(grid, role_cells, ab))
            .explain(text)
            .eliminations(elims);
        sink(step)
    }
}

impl SizedBuiltin for AvoidableRectangle {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            for_each_rectangle(grid.geometry(), &mut |cells| {
                if cells.iter().any(|&c| grid.is_given(c)) {
                    return ControlFlow::Continue(());
                }
                let values = cells.map(|c| grid.value(c));
                let placed = values.iter().filter(|&&v| v != 0).count();
                if placed == 0 || placed == 4 {
                    return ControlFlow::Continue(());
                }
                // diagonal corners take the same digit: a on 0/3, b on 1/2
                let pick = |i: usize, j: usize| -> Result<u8, ()> {
                    match (values[i], values[j]) {
                        (0, v) | (v, 0) => Ok(v),
                        (v, w) if v == w => Ok(v),
                        _ => Err(()),
                    }
                };
                let (Ok(a), Ok(b)) = (pick(0, 3), pick(1, 2)) else {
                    return ControlFlow::Continue(());
                };
                if a == b && a != 0 {
                    return ControlFlow::Continue(());
                }
                // an unknown digit is one both its (unsolved) corners still hold: with any
                // other, the pattern cannot form
                let choices = |v: u8, i: usize, j: usize| {
                    if v == 0 {
                        grid.candidates(cells[i]).and(grid.candidates(cells[j]))
                    } else {
                        digit_mask(v)
                    }
                };
                for a in digits(choices(a, 0, 3)) {
                    for b in digits(choices(b, 1, 2)) {
                        if a == b {
                            continue;
                        }
                        self.find_one(grid, cells, [a, b, b, a], sink)?;
                    }
                }
                ControlFlow::Continue(())
            })
        })
    }
}

/// BUG+1: every unsolved cell but one is bivalue, the last has three candidates, and every
/// digit has exactly two places in each house where it is missing, except one digit of the
/// three-candidate cell, which has three in that cell's houses. Without that digit the grid
/// would be a BUG (no or several solutions), so it is the cell's value: its other candidates
/// go.
pub struct BugPlusOne;

impl SizedBuiltin for BugPlusOne {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("bug-plus-1") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let geo = grid.geometry();
        let mut triple = None;
        for c in grid.empty_cells() {
            match grid.candidates(c).count() {
                2 => {}
                3 if triple.is_none() => triple = Some(c),
                _ => return Ok(()),
            }
        }
        let Some(cell) = triple else { return Ok(()) };
        let houses = geo.houses_of(cell);
        let mask = grid.candidates(cell);
        stoppable(|| {
            for x in digits(mask) {
                let ok = geo.houses().all(|h| {
                    grid.all_digits().all(|d| {
                        let mut n = grid.digit_cells_in(d, h).len();
                        if d == x && houses.contains(&h) {
                            n -= 1;
                        }
                        n == 0 || n == 2
                    })
                });
                if !ok {
                    continue;
                }
                let elims: Vec<Candidate> = digits(mask.and_not(digit_mask(x)))
                    .map(|d| Candidate::new(cell, d))
                    .collect();
                let text = format!(
                    "{}: {cell} is {} (every other cell bivalue) => {}",
                    self.name(),
                    Sym(x),
                    eliminations_text(&elims)
                );
                let step = Step::new(self.id(), self.difficulty())
                    .highlight(Role::Pattern, [Candidate::new(cell, x)])
                    .explain(text)
                    .eliminations(elims);
                sink(step)?;
            }
            ControlFlow::Continue(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Layout, S6, S9, S16};

    /// The rectangles of a layout: every pair of rows and pair of columns whose four cells
    /// lie in exactly two boxes, found by brute force.
    fn check_rectangles<S: Shape>(layout: Layout) {
        let geo = S::geometry(layout);
        let mut found = Vec::new();
        let _ = for_each_rectangle(geo, &mut |cells| {
            found.push(cells);
            ControlFlow::Continue(())
        });
        let n = S::N as u8;
        let mut want = Vec::new();
        for r1 in 0..n {
            for r2 in r1 + 1..n {
                for c1 in 0..n {
                    for c2 in c1 + 1..n {
                        let cells = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)];
                        let mut boxes: Vec<usize> = cells
                            .iter()
                            .map(|&(r, c)| layout.box_of(r.into(), c.into()))
                            .collect();
                        boxes.sort();
                        boxes.dedup();
                        if boxes.len() == 2 {
                            want.push(cells.map(|(r, c)| Cell::at(r, c)));
                        }
                    }
                }
            }
        }
        assert_eq!(found, want, "{layout}");
    }

    #[test]
    fn rectangles_lie_in_two_boxes_of_any_shape() {
        check_rectangles::<S9>(Layout::NINE);
        check_rectangles::<S6>(Layout::with_box(6, 2, 3).unwrap());
        check_rectangles::<S6>(Layout::with_box(6, 3, 2).unwrap());
        check_rectangles::<S16>(Layout::new(16).unwrap());
        check_rectangles::<S16>(Layout::with_box(16, 2, 8).unwrap());
    }

    #[test]
    fn type_1_on_6x6_with_tall_boxes() {
        // 3x2 boxes: r1c1, r1c3 (two stacks) and r2c1, r2c3 (one band) are in two boxes;
        // three corners hold {1,2}, r2c3 {1,2,3}: it loses 1 and 2
        let mut grid = Grid::<S6>::blank(S6::geometry(Layout::with_box(6, 3, 2).unwrap()));
        for (r, c) in [(0, 0), (0, 2), (1, 0)] {
            grid.set_candidates(Cell::at(r, c), 0b011);
        }
        grid.set_candidates(Cell::at(1, 2), 0b111);
        let mut steps = Vec::new();
        SizedBuiltin::search(&UniqueRectangle::TYPE_1, &Context::new(&grid), &mut |s| {
            steps.push(s);
            ControlFlow::Continue(())
        })
        .unwrap();
        let [step] = &steps[..] else {
            panic!("{steps:#?}")
        };
        assert_eq!(
            step.explanation,
            "Unique Rectangle Type 1: 1/2 in r1c1,r1c3,r2c1,r2c3 => r2c3<>1,2"
        );
    }
}

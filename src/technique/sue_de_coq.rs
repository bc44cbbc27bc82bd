//! Sue de Coq (two-sector disjoint subsets).
//!
//! Take two or more empty cells `C` where a box and a line cross (two or three on 9x9), holding the digits `VC`,
//! at least `|C| + 2` of them. Add a set `D` of empty cells of the line outside the box
//! (digits `VD`) and a set `E` of empty cells of the box outside the line (digits `VE`), with
//! no digit in both `VD` and `VE`, and `C ∪ D ∪ E` holding exactly as many digits as it has
//! cells. Then every digit is in the pattern exactly once: a digit of `VD` can only be in the
//! line cells `C ∪ D`, a digit of `VE` only in the box cells `C ∪ E`, any other digit only in
//! `C`, which lies in both, so none can be there twice, and the cells need them all. Hence
//! - the digits of `VD`, and those of `VC` in neither set, leave the rest of the line;
//! - the digits of `VE`, and those of `VC` in neither set, leave the rest of the box.
//!
//! The classic form has a bivalue cell on each side; `D` and `E` may be any number of cells
//! (almost locked sets and more), with digits outside `VC` too, as HoDoKu accepts; up to six
//! cells each ([`MAX_PARTNER`]: every set on 9x9, where no line has more than six cells
//! outside a box).
//!
//! The search runs on every board size (4x4 to 25x25), boxes of any shape.

use std::ops::ControlFlow;

use crate::model::cell::{Cell, House, digits, digits_text};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Shape};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::SizedBuiltin;
use crate::technique::catalogue::entry;
use crate::technique::context::Context;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![Box::new(SueDeCoq)]
}

/// Cells in short form: `r123c8` for cells of one column, else grouped by row, e.g.
/// `r1c23,r2c1`. On boards wider than 9, where rows and columns take two digits, the cells
/// are named in full (`r1c2,r1c10`).
pub(crate) fn compact_cells<S: Shape>(cells: CellSet<S>) -> String {
    if S::N > 9 {
        return cells.to_string();
    }
    let mut out = String::new();
    if let Some(first) = cells.first()
        && cells.len() > 1
        && cells.iter().all(|c| c.col() == first.col())
    {
        out.push('r');
        for c in cells {
            out.push((b'1' + c.row()) as char);
        }
        out.push_str(&format!("c{}", first.col() + 1));
        return out;
    }
    let mut last_row = None;
    for c in cells {
        if last_row != Some(c.row()) {
            if last_row.is_some() {
                out.push(',');
            }
            out.push_str(&format!("r{}c", c.row() + 1));
            last_row = Some(c.row());
        }
        out.push((b'1' + c.col()) as char);
    }
    out
}

/// Every candidate of `cells`.
fn all_candidates<S: Shape>(grid: &Grid<S>, cells: CellSet<S>) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|c| digits(grid.candidates(c)).map(move |d| Candidate::new(c, d)))
        .collect()
}

/// The most cells a partner set (`D` or `E`) may have. On 9x9 a line has at most six empty
/// cells outside a box (and a box outside a line), so every partner set is tried there; on
/// the larger boards the cap keeps the number of sets searched small (a line of 25x25 has
/// twenty cells outside a box: a million sets).
const MAX_PARTNER: u32 = 6;

/// The empty cells of a house outside the intersection, in order, with their candidates
/// (at most 24: a line of 25x25 has 20 outside a box).
struct Partners<S: Shape> {
    cells: [Cell; 24],
    masks: [S::Mask; 24],
    len: usize,
}

impl<S: Shape> Partners<S> {
    fn new(grid: &Grid<S>, cells: CellSet<S>) -> Partners<S> {
        let mut p = Partners {
            cells: [Cell::default(); 24],
            masks: [S::Mask::ZERO; 24],
            len: 0,
        };
        for c in cells {
            p.cells[p.len] = c;
            p.masks[p.len] = grid.candidates(c);
            p.len += 1;
        }
        p
    }

    /// The cells of the subset `bits` (bit `i` for the `i`th cell).
    fn cells_of(&self, bits: u32) -> CellSet<S> {
        bits.ones().map(|i| self.cells[i]).collect()
    }

    /// Every partner set that can take part in a pattern whose intersection has at most
    /// `slack` cells, with its digits, in `out`, by increasing `bits` (on 9x9 the order of
    /// every subset, `1 .. 2^len`).
    ///
    /// A set of `k` cells with more than `k + slack` digits cannot: with `C` and the other
    /// set (which holds at least as many digits as cells, in any position with a solution,
    /// and none of these) there would be more digits than cells. Digits only grow as cells
    /// are added, so a set already holding more than the largest set it can grow into allows
    /// is not extended.
    fn collect(&self, slack: u32, out: &mut Vec<(u32, S::Mask)>) {
        out.clear();
        self.collect_below(self.len, 0, S::Mask::ZERO, 0, slack, out);
    }

    /// The sets made of `bits` (`n` cells, digits `mask`) and cells below `hi`: each with its
    /// highest new cell `top` in turn, `bits + top` first and then the sets below `top`, which
    /// is increasing order.
    fn collect_below(
        &self,
        hi: usize,
        bits: u32,
        mask: S::Mask,
        n: u32,
        slack: u32,
        out: &mut Vec<(u32, S::Mask)>,
    ) {
        for top in 0..hi {
            let m = mask.or(self.masks[top]);
            let digits = m.count();
            let most = MAX_PARTNER.min(n + 1 + top as u32);
            if digits > most + slack {
                continue;
            }
            let b = bits | 1 << top;
            if digits <= n + 1 + slack {
                out.push((b, m));
            }
            if n + 1 < MAX_PARTNER {
                self.collect_below(top, b, m, n + 1, slack, out);
            }
        }
    }
}

/// Sue de Coq: an intersection of a box and a line with two partner sets, one in each house.
pub struct SueDeCoq;

impl SueDeCoq {
    /// The step of one pattern, or `None` when it eliminates nothing.
    fn step<S: Shape>(
        &self,
        grid: &Grid<S>,
        line: House,
        block: House,
        c: (CellSet<S>, S::Mask),
        d: (CellSet<S>, S::Mask),
        e: (CellSet<S>, S::Mask),
    ) -> Option<Step> {
        let geo = grid.geometry();
        let line_digits = c.1.or(d.1).and_not(e.1);
        let box_digits = c.1.or(e.1).and_not(d.1);
        let line_rest = geo.house(line) - c.0 - d.0;
        let box_rest = geo.house(block) - c.0 - e.0;
        let mut elims = Vec::new();
        for digit in grid.all_digits() {
            let i = usize::from(digit) - 1;
            let mut targets = CellSet::EMPTY;
            if line_digits.has(i) {
                targets |= line_rest;
            }
            if box_digits.has(i) {
                targets |= box_rest;
            }
            elims.extend(
                (grid.digit_cells(digit) & targets)
                    .iter()
                    .map(|cell| Candidate::new(cell, digit)),
            );
        }
        if elims.is_empty() {
            return None;
        }
        elims.sort();
        let sep = if S::N > 9 { "," } else { "" };
        let part = |(cells, mask): (CellSet<S>, S::Mask)| {
            format!("{} - {{{}}}", compact_cells(cells), digits_text(mask, sep))
        };
        let text = format!(
            "{}: {} ({}, {}) => {}",
            self.name(),
            part(c),
            part(d),
            part(e),
            eliminations_text(&elims)
        );
        let step = Step::new(self.id(), self.difficulty())
            .house(line)
            .house(block)
            .highlight(Role::Pattern, all_candidates(grid, c.0))
            .highlight(Role::ColorA, all_candidates(grid, d.0))
            .highlight(Role::ColorB, all_candidates(grid, e.0))
            .explain(text)
            .eliminations(elims);
        Some(step)
    }
}

impl SizedBuiltin for SueDeCoq {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("sue-de-coq") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let geo = grid.geometry();
        let n = S::N;
        stoppable(|| {
            let empty = grid.empty_cells();
            // elimination sets already reported: several patterns can give the same
            let mut seen: Vec<Vec<Candidate>> = Vec::new();
            let mut line_sets = Vec::new();
            let mut box_sets = Vec::new();
            // the rows and columns, then the boxes
            for line in (0..2 * n).map(|h| House::from_index_in(h, n)) {
                let line_cells = geo.house(line);
                for block in (2 * n..3 * n).map(|h| House::from_index_in(h, n)) {
                    let box_cells = geo.house(block);
                    let inter = line_cells & box_cells & empty;
                    if inter.len() < 2 {
                        continue;
                    }
                    let line_part = Partners::new(grid, (line_cells - box_cells) & empty);
                    let box_part = Partners::new(grid, (box_cells - line_cells) & empty);
                    line_part.collect(inter.len(), &mut line_sets);
                    box_part.collect(inter.len(), &mut box_sets);
                    // at most 8 (a line through a box of 2x8)
                    let mut cells = [Cell::default(); 12];
                    let k = inter.len() as usize;
                    for (slot, c) in cells.iter_mut().zip(inter) {
                        *slot = c;
                    }
                    for bits in 1u32..(1 << k) {
                        if bits.count_ones() < 2 {
                            continue;
                        }
                        let cset: CellSet<S> = bits.ones().map(|i| cells[i]).collect();
                        let vc = grid.candidates_of(cset);
                        let nc = cset.len();
                        if vc.count() < nc + 2 {
                            continue;
                        }
                        for &(dbits, vd) in &line_sets {
                            let nd = dbits.count_ones();
                            if vd.and(vc).is_zero() || vd.count() > nd + nc {
                                continue;
                            }
                            for &(ebits, ve) in &box_sets {
                                if !ve.and(vd).is_zero() || ve.and(vc).is_zero() {
                                    continue;
                                }
                                let total = nc + nd + ebits.count_ones();
                                if vc.or(vd).or(ve).count() != total {
                                    continue;
                                }
                                let d = (line_part.cells_of(dbits), vd);
                                let e = (box_part.cells_of(ebits), ve);
                                let Some(step) = self.step(grid, line, block, (cset, vc), d, e)
                                else {
                                    continue;
                                };
                                if seen.contains(&step.eliminations) {
                                    continue;
                                }
                                seen.push(step.eliminations.clone());
                                sink(step)?;
                            }
                        }
                    }
                }
            }
            ControlFlow::Continue(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cell::{DigitMask, digit_bit};
    use crate::technique::find_all;

    /// A grid whose empty cells all hold `rest`, except the ones given.
    fn grid_with(cells: &[(u8, u8, &str)], rest: DigitMask) -> Grid {
        let mut grid = Grid::empty();
        for cell in Cell::all() {
            grid.set_candidates(cell, rest);
        }
        for &(r, c, ds) in cells {
            let mask = ds.bytes().fold(0, |m, b| m | digit_bit(b - b'0'));
            grid.set_candidates(Cell::at(r, c), mask);
        }
        grid
    }

    /// The step whose explanation starts with `want` (the test fails with every step found
    /// otherwise).
    fn step_starting<'a>(steps: &'a [Step], want: &str) -> &'a Step {
        steps
            .iter()
            .find(|s| s.explanation.starts_with(want))
            .unwrap_or_else(|| panic!("no step `{want}…` among {steps:#?}"))
    }

    /// Whether `step` eliminates digit `d` from the cell at row `r`, column `c` (0-based).
    fn eliminates(step: &Step, r: u8, c: u8, d: u8) -> bool {
        step.eliminations
            .contains(&Candidate::new(Cell::at(r, c), d))
    }

    #[test]
    fn classic_pattern() {
        // r1c1,r1c2 hold {1234}; r1c7 {14} in the row, r3c3 {23} in the box: the row loses 1
        // and 4, the box loses 2 and 3 (the rest of the grid holds 1-9).
        let grid = grid_with(
            &[(0, 0, "1234"), (0, 1, "1234"), (0, 6, "14"), (2, 2, "23")],
            0x1ff,
        );
        let steps = find_all(&SueDeCoq, &grid).unwrap();
        let step = step_starting(
            &steps,
            "Sue de Coq: r1c12 - {1234} (r1c7 - {14}, r3c3 - {23}) => ",
        );
        let has = |r, c, d| eliminates(step, r, c, d);
        // the rest of row 1 (r1c3 too: it is in the row) loses 1 and 4, not 2 or 3
        assert!(has(0, 2, 1) && has(0, 2, 4) && has(0, 8, 1) && has(0, 4, 4));
        assert!(!has(0, 8, 2) && !has(0, 8, 3));
        // the rest of box 1 loses 2 and 3; r1c3 is in both houses
        assert!(has(1, 0, 2) && has(2, 1, 3) && has(0, 2, 2));
        assert!(!has(1, 0, 1) && !has(1, 0, 4));
        // the partner cells keep their digits
        assert!(!has(0, 6, 1) && !has(2, 2, 2));
        assert_eq!(step.eliminations.len(), 6 * 2 + 6 * 2);
    }

    #[test]
    fn needs_disjoint_partners() {
        // the box partner shares 1 with the line partner: no pattern
        let grid = grid_with(
            &[(0, 0, "1234"), (0, 1, "1234"), (0, 6, "14"), (2, 2, "13")],
            0x1ff,
        );
        let steps = find_all(&SueDeCoq, &grid).unwrap();
        assert!(
            !steps
                .iter()
                .any(|s| s.explanation.contains("r1c12 - {1234}")),
            "{steps:#?}"
        );
    }

    #[test]
    fn classic_pattern_on_16x16() {
        use crate::model::{Layout, S16};
        // as on 9x9: r1c1,r1c2 hold {1,2,3,4}, r1c10 {1,4} in the row, r3c3 {2,3} in the box
        let mut grid = Grid::<S16>::blank(S16::geometry(Layout::new(16).unwrap()));
        for (r, c, ds) in [(0, 0, [1, 2, 3, 4]), (0, 1, [1, 2, 3, 4])] {
            let mask = ds.iter().fold(0u16, |m, &d| m | 1 << (d - 1));
            grid.set_candidates(Cell::at(r, c), mask);
        }
        grid.set_candidates(Cell::at(0, 9), 0b1001);
        grid.set_candidates(Cell::at(2, 2), 0b0110);
        let mut steps = Vec::new();
        SizedBuiltin::search(&SueDeCoq, &Context::new(&grid), &mut |s| {
            steps.push(s);
            ControlFlow::Continue(())
        })
        .unwrap();
        let want = "Sue de Coq: r1c1,r1c2 - {1,2,3,4} (r1c10 - {1,4}, r3c3 - {2,3}) => ";
        let step = step_starting(&steps, want);
        let has = |r, c, d| eliminates(step, r, c, d);
        // the rest of the row (13 cells) loses 1 and 4, the rest of the box (13 cells) 2 and 3
        assert!(has(0, 15, 1) && has(0, 2, 4) && has(3, 3, 2) && has(1, 0, 3));
        assert!(!has(0, 15, 2) && !has(3, 3, 1) && !has(0, 9, 1) && !has(2, 2, 2));
        assert_eq!(step.eliminations.len(), 13 * 2 + 13 * 2);
    }

    #[test]
    fn compact_cell_names() {
        let cells: CellSet = [Cell::at(0, 1), Cell::at(0, 2), Cell::at(2, 0)]
            .into_iter()
            .collect();
        assert_eq!(compact_cells(cells), "r1c23,r3c1");
        let column: CellSet = [Cell::at(0, 7), Cell::at(2, 7)].into_iter().collect();
        assert_eq!(compact_cells(column), "r13c8");
        let wide: CellSet<crate::model::S16> =
            [Cell::at(0, 1), Cell::at(0, 9)].into_iter().collect();
        assert_eq!(compact_cells(wide), "r1c2,r1c10");
    }
}

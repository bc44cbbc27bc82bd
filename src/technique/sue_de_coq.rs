//! Sue de Coq (two-sector disjoint subsets).
//!
//! Take two or three empty cells `C` where a box and a line cross, holding the digits `VC`,
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
//! (almost locked sets and more), with digits outside `VC` too, as HoDoKu accepts.

use crate::technique::Builtin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::cellset::CellSet;
use crate::geometry::{DigitMask, House, digit_bit, digits, digits_text};
use crate::grid::{Candidate, Grid};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![Box::new(SueDeCoq)]
}

/// Cells in short form: `r123c8` for cells of one column, else grouped by row, e.g.
/// `r1c23,r2c1`.
pub(crate) fn compact_cells(cells: CellSet) -> String {
    let mut out = String::new();
    if let Some(first) = cells.first()
        && cells.len() > 1
        && cells.is_subset(House::col(first.col()).cells())
    {
        out.push('r');
        for c in cells {
            out.push((b'1' + c.row()) as char);
        }
        out.push_str(&format!("c{}", first.col() + 1));
        return out;
    }
    for r in 0..9u8 {
        let row = cells & House::row(r).cells();
        if row.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str(&format!("r{}c", r + 1));
        for c in row {
            out.push((b'1' + c.col()) as char);
        }
    }
    out
}

/// Every candidate of `cells`.
fn all_candidates(grid: &Grid, cells: CellSet) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|c| digits(grid.candidates(c)).map(move |d| Candidate::new(c, d)))
        .collect()
}

/// The non-empty subsets of `cells` (at most 6 of them) with their digits, in `out`; returns
/// how many.
fn subsets(grid: &Grid, cells: CellSet, out: &mut [(CellSet, DigitMask); 64]) -> usize {
    let mut list = [CellSet::EMPTY; 6];
    let k = cells.len().min(6) as usize;
    for (slot, c) in list.iter_mut().zip(cells) {
        *slot = CellSet::single(c);
    }
    let mut n = 0;
    for bits in 1u32..(1 << k) {
        let mut set = CellSet::EMPTY;
        let mut mask = 0;
        for (i, &s) in list[..k].iter().enumerate() {
            if bits >> i & 1 != 0 {
                set |= s;
                mask |= grid.candidates_of(s);
            }
        }
        out[n] = (set, mask);
        n += 1;
    }
    n
}

/// Sue de Coq: an intersection of a box and a line with two partner sets, one in each house.
pub struct SueDeCoq;

impl SueDeCoq {
    /// The step of one pattern, or `None` when it eliminates nothing.
    fn step(
        &self,
        grid: &Grid,
        line: House,
        block: House,
        c: (CellSet, DigitMask),
        d: (CellSet, DigitMask),
        e: (CellSet, DigitMask),
    ) -> Option<Step> {
        let line_digits = (c.1 | d.1) & !e.1;
        let box_digits = (c.1 | e.1) & !d.1;
        let line_rest = line.cells() - c.0 - d.0;
        let box_rest = block.cells() - c.0 - e.0;
        let mut elims = Vec::new();
        for digit in 1..=9u8 {
            let bit = digit_bit(digit);
            let mut targets = CellSet::EMPTY;
            if line_digits & bit != 0 {
                targets |= line_rest;
            }
            if box_digits & bit != 0 {
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
        let part = |(cells, mask): (CellSet, DigitMask)| {
            format!("{} - {{{}}}", compact_cells(cells), digits_text(mask, ""))
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

impl Builtin for SueDeCoq {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("sue-de-coq") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        stoppable(|| {
            let empty = grid.empty_cells();
            let mut line_sets = [(CellSet::EMPTY, 0); 64];
            let mut box_sets = [(CellSet::EMPTY, 0); 64];
            // elimination sets already reported: several patterns can give the same
            let mut seen: Vec<Vec<Candidate>> = Vec::new();
            for line in House::lines() {
                for block in House::boxes() {
                    let inter = line.cells() & block.cells() & empty;
                    if inter.len() < 2 {
                        continue;
                    }
                    let nl = subsets(grid, (line.cells() - block.cells()) & empty, &mut line_sets);
                    let nb = subsets(grid, (block.cells() - line.cells()) & empty, &mut box_sets);
                    let cells: Vec<_> = inter.iter().collect();
                    let k = cells.len();
                    for bits in 1u32..(1 << k) {
                        if bits.count_ones() < 2 {
                            continue;
                        }
                        let cset: CellSet = (0..k)
                            .filter(|i| bits >> i & 1 != 0)
                            .map(|i| cells[i])
                            .collect();
                        let vc = grid.candidates_of(cset);
                        if vc.count_ones() < cset.len() + 2 {
                            continue;
                        }
                        for &(dset, vd) in &line_sets[..nl] {
                            if vd & vc == 0 {
                                continue;
                            }
                            for &(eset, ve) in &box_sets[..nb] {
                                if ve & vd != 0 || ve & vc == 0 {
                                    continue;
                                }
                                let n = cset.len() + dset.len() + eset.len();
                                if (vc | vd | ve).count_ones() != n {
                                    continue;
                                }
                                let Some(step) = self.step(
                                    grid,
                                    line,
                                    block,
                                    (cset, vc),
                                    (dset, vd),
                                    (eset, ve),
                                ) else {
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
    use crate::geometry::Cell;
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

    #[test]
    fn classic_pattern() {
        // r1c1,r1c2 hold {1234}; r1c7 {14} in the row, r3c3 {23} in the box: the row loses 1
        // and 4, the box loses 2 and 3 (the rest of the grid holds 1-9).
        let grid = grid_with(
            &[(0, 0, "1234"), (0, 1, "1234"), (0, 6, "14"), (2, 2, "23")],
            0x1ff,
        );
        let steps = find_all(&SueDeCoq, &grid).unwrap();
        let want = "Sue de Coq: r1c12 - {1234} (r1c7 - {14}, r3c3 - {23}) => ";
        let step = steps
            .iter()
            .find(|s| s.explanation.starts_with(want))
            .unwrap_or_else(|| panic!("{steps:#?}"));
        let has = |r, c, d| {
            step.eliminations
                .contains(&Candidate::new(Cell::at(r, c), d))
        };
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
    fn compact_cell_names() {
        let cells: CellSet = [Cell::at(0, 1), Cell::at(0, 2), Cell::at(2, 0)]
            .into_iter()
            .collect();
        assert_eq!(compact_cells(cells), "r1c23,r3c1");
        let column: CellSet = [Cell::at(0, 7), Cell::at(2, 7)].into_iter().collect();
        assert_eq!(compact_cells(column), "r13c8");
    }
}

//! Templates: Template Set and Template Delete.
//!
//! A template is one way to place all nine copies of a digit: one cell in every row, column
//! and box (46656 of them on an empty grid). A digit's template in the solution is one of those
//! that cover every cell where it is placed and use only cells where it is placed or still a
//! candidate. Cells common to all such templates get the digit (Template Set); candidates in
//! none of them go (Template Delete).
//!
//! The nine digits' templates in the solution never share a cell, so, as HoDoKu does, a cell
//! that every remaining template of one digit uses is closed to the other digits' templates,
//! repeated until nothing more changes (this is what makes HoDoKu's library cases come out
//! exactly; checking every pair of templates of two digits for a disjoint one would be
//! stronger, and slower).
//!
//! Templates are enumerated by a depth-first search over the rows, on 9-bit column masks (the
//! columns each row still allows, minus the columns and the box thirds already taken), with a
//! forward check that every later row keeps a free column. Nothing is precomputed or stored:
//! each pass folds every digit's templates into their union and intersection as they come.

use crate::model::Sym;
use crate::technique::Builtin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family (both off in the default pipeline).
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![Box::new(TemplateSet), Box::new(TemplateDelete)]
}

/// For each row, the columns (9-bit mask) where a template of `digit` may go: the placed cell
/// of the digit in that row if there is one, else the row's candidates of the digit.
fn row_masks(grid: &Grid, digit: u8) -> [u16; 9] {
    let cands = grid.digit_cells(digit).bits();
    let mut rows = [0u16; 9];
    for (r, mask) in rows.iter_mut().enumerate() {
        *mask = ((cands >> (9 * r)) & 0x1ff) as u16;
    }
    for c in grid.filled_cells() {
        if grid.value(c) == digit {
            rows[c.row() as usize] = 1 << c.col();
        }
    }
    rows
}

/// Calls `f` with every template (cell mask) allowed by `rows`, until it breaks.
pub(crate) fn for_each_template(
    rows: &[u16; 9],
    f: &mut impl FnMut(u128) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if rows.contains(&0) {
        return ControlFlow::Continue(());
    }
    dfs(rows, 0, 0, 0, 0, f)
}

/// Places the template's cell in row `r`, given the columns used so far and the columns of the
/// boxes used in the current band.
fn dfs(
    rows: &[u16; 9],
    r: usize,
    used_cols: u16,
    band_cols: u16,
    acc: u128,
    f: &mut impl FnMut(u128) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if r == 9 {
        return f(acc);
    }
    let band_cols = if r.is_multiple_of(3) { 0 } else { band_cols };
    let mut options = rows[r] & !used_cols & !band_cols;
    while options != 0 {
        let col = options.trailing_zeros() as usize;
        options &= options - 1;
        let cols = used_cols | 1 << col;
        // every later row needs a free column
        if rows[r + 1..].iter().any(|&m| m & !cols == 0) {
            continue;
        }
        let third = 0b111u16 << (col / 3 * 3);
        dfs(
            rows,
            r + 1,
            cols,
            band_cols | third,
            acc | 1u128 << (9 * r + col),
            f,
        )?;
    }
    ControlFlow::Continue(())
}

/// For every digit, the cells of all its compatible templates (union) and the cells common to
/// them (intersection), after dropping every template that uses a cell common to all remaining
/// templates of another digit, until nothing more drops. `None` when some digit has no
/// template left (a broken grid: nothing can be said).
fn union_and_common(grid: &Grid) -> Option<[(CellSet, CellSet); 9]> {
    let mut rows: [[u16; 9]; 9] = [[0; 9]; 9];
    for (i, r) in rows.iter_mut().enumerate() {
        *r = row_masks(grid, i as u8 + 1);
    }
    let mut spans = [(0u128, 0u128); 9];
    loop {
        for (span, r) in spans.iter_mut().zip(&rows) {
            let (mut union, mut common) = (0u128, u128::MAX);
            let _ = for_each_template(r, &mut |t| {
                union |= t;
                common &= t;
                ControlFlow::Continue(())
            });
            if union == 0 {
                return None;
            }
            *span = (union, common);
        }
        // a cell every template of a digit uses is taken: no other digit's template can use it
        let mut changed = false;
        for (d, r) in rows.iter_mut().enumerate() {
            let taken = spans
                .iter()
                .enumerate()
                .filter(|&(e, _)| e != d)
                .fold(0u128, |a, (_, s)| a | s.1);
            for (row, mask) in r.iter_mut().enumerate() {
                let free = *mask & !((taken >> (9 * row)) & 0x1ff) as u16;
                changed |= free != *mask;
                *mask = free;
            }
        }
        if !changed {
            break;
        }
    }
    Some(spans.map(|(u, c)| (CellSet::from_bits(u), CellSet::from_bits(c))))
}

/// The candidates of `digit` in `cells`.
fn candidates_in(digit: u8, cells: CellSet) -> Vec<Candidate> {
    cells.iter().map(|c| Candidate::new(c, digit)).collect()
}

/// Template Set: a cell common to every compatible template of a digit takes that digit. One
/// step per digit, placing all such cells at once.
pub struct TemplateSet;

impl Builtin for TemplateSet {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("template-set") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let Some(sets) = union_and_common(grid) else {
            return Ok(());
        };
        stoppable(|| {
            for (i, &(_, common)) in sets.iter().enumerate() {
                let digit = i as u8 + 1;
                let cells = common & grid.empty_cells();
                if cells.is_empty() {
                    continue;
                }
                let text = format!("{}: {1} => {cells}={1}", self.name(), Sym(digit));
                let step = Step::new(self.id(), self.difficulty())
                    .highlight(Role::Pattern, candidates_in(digit, cells))
                    .explain(text)
                    .placements(candidates_in(digit, cells));
                sink(step)?;
            }
            ControlFlow::Continue(())
        })
    }
}

/// Template Delete: a candidate of a digit in none of its compatible templates goes. One step
/// per digit, with all such candidates.
pub struct TemplateDelete;

impl Builtin for TemplateDelete {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("template-delete") }
    }
    fn search(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let grid = ctx.grid();
        let Some(sets) = union_and_common(grid) else {
            return Ok(());
        };
        stoppable(|| {
            for (i, &(union, common)) in sets.iter().enumerate() {
                let digit = i as u8 + 1;
                let gone = grid.digit_cells(digit) - union;
                if gone.is_empty() {
                    continue;
                }
                let elims = candidates_in(digit, gone);
                let text = format!(
                    "{}: {} => {}",
                    self.name(),
                    Sym(digit),
                    eliminations_text(&elims)
                );
                let kept = common & grid.digit_cells(digit);
                let step = Step::new(self.id(), self.difficulty())
                    .highlight(Role::Pattern, candidates_in(digit, kept))
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
    use crate::model::cell::Cell;
    use crate::technique::find_all;

    fn count(rows: &[u16; 9]) -> usize {
        let mut n = 0;
        let _ = for_each_template(rows, &mut |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    #[test]
    fn empty_grid_has_46656_templates_per_digit() {
        assert_eq!(count(&[0x1ff; 9]), 46656);
        let t = {
            let mut first = 0;
            let _ = for_each_template(&[0x1ff; 9], &mut |t| {
                first = t;
                ControlFlow::Break(())
            });
            CellSet::from_bits(first)
        };
        assert_eq!(t.len(), 9);
        for h in crate::model::cell::House::all() {
            assert_eq!((t & h.cells()).len(), 1, "{h}");
        }
    }

    #[test]
    fn set_and_delete_on_a_hand_made_position() {
        // Digit 1 placed in r1c1, r2c4, r3c7, r4c2, r5c5, r6c8: rows 7-9 must take columns
        // 3, 6, 9, one in each box of the bottom band: r7..r9 x {c3, c6, c9}. Leave 1 only in
        // r7c3, r8c3, r9c3, r7c6, r9c6 and r8c9.
        let mut grid = Grid::empty();
        for (r, c) in [(0, 0), (1, 3), (2, 6), (3, 1), (4, 4), (5, 7)] {
            grid.set_value(Cell::at(r, c), 1);
        }
        let keep = [(6, 2), (7, 2), (8, 2), (6, 5), (8, 5), (7, 8)];
        for cell in grid.digit_cells(1) {
            if !keep.contains(&(cell.row(), cell.col())) {
                grid.eliminate(cell, 1);
            }
        }
        // c9 has only r8c9: 1 goes there; then r7/r9 share c3,c6: r7c3+r9c6 or r9c3+r7c6
        let set = find_all(&TemplateSet, &grid).unwrap();
        let one: Vec<_> = set
            .iter()
            .filter(|s| s.explanation.contains(": 1 "))
            .collect();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].explanation, "Template Set: 1 => r8c9=1");
        let del = find_all(&TemplateDelete, &grid).unwrap();
        let one: Vec<_> = del
            .iter()
            .filter(|s| s.explanation.contains(": 1 "))
            .collect();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].explanation, "Template Delete: 1 => r8c3<>1");
    }
}

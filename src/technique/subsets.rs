//! Subsets: naked and hidden pairs, triples and quadruples.
//!
//! Written once for every size.

use crate::shape::{Bits, Shape};
use crate::technique::SizedBuiltin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::cellset::CellSet;
use crate::geometry::{Cell, digits, digits_text};
use crate::grid::Candidate;
use crate::step::{Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::{StepSink, TechniqueError, TechniqueInfo, stoppable};

/// Calls `f` with every `k`-element combination of `items` (in lexicographic order of
/// positions) until it breaks. `k` is at most 4; nothing is allocated.
pub(crate) fn for_each_combination<T: Copy + Default>(
    items: &[T],
    k: usize,
    f: &mut dyn FnMut(&[T]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    assert!(k <= 4, "combinations of at most 4");
    let n = items.len();
    if k == 0 || k > n {
        return ControlFlow::Continue(());
    }
    let mut idx = [0usize; 4];
    for (i, slot) in idx.iter_mut().enumerate().take(k) {
        *slot = i;
    }
    let mut buf = [T::default(); 4];
    loop {
        for i in 0..k {
            buf[i] = items[idx[i]];
        }
        f(&buf[..k])?;
        // advance to the next combination
        let mut i = k;
        loop {
            if i == 0 {
                return ControlFlow::Continue(());
            }
            i -= 1;
            if idx[i] < n - k + i {
                idx[i] += 1;
                for j in i + 1..k {
                    idx[j] = idx[j - 1] + 1;
                }
                break;
            }
        }
    }
}

/// Naked subset: `n` cells of a house whose candidates are `n` digits in all; those digits
/// leave the rest of the house.
pub struct NakedSubset {
    size: usize,
    info: &'static TechniqueInfo,
}

impl NakedSubset {
    /// Naked pair (3.0).
    pub const PAIR: NakedSubset = NakedSubset {
        size: 2,
        info: entry("naked-pair"),
    };
    /// Naked triple (3.6).
    pub const TRIPLE: NakedSubset = NakedSubset {
        size: 3,
        info: entry("naked-triple"),
    };
    /// Naked quadruple (5.0).
    pub const QUAD: NakedSubset = NakedSubset {
        size: 4,
        info: entry("naked-quad"),
    };
}

impl SizedBuiltin for NakedSubset {
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
            for house in geo.houses() {
                let mut cells = [Cell::default(); 25];
                let mut n = 0;
                for c in geo.house(house) & grid.empty_cells() {
                    let k = grid.candidates(c).count() as usize;
                    if (2..=self.size).contains(&k) {
                        cells[n] = c;
                        n += 1;
                    }
                }
                for_each_combination(&cells[..n], self.size, &mut |chosen| {
                    let mask = chosen
                        .iter()
                        .fold(S::Mask::ZERO, |m, &c| m.or(grid.candidates(c)));
                    if mask.count() as usize != self.size {
                        return ControlFlow::Continue(());
                    }
                    let set: CellSet<S> = chosen.iter().copied().collect();
                    let rest = geo.house(house) - set;
                    let mut elims = Vec::new();
                    for d in digits(mask) {
                        for c in grid.digit_cells(d) & rest {
                            elims.push(Candidate::new(c, d));
                        }
                    }
                    if elims.is_empty() {
                        return ControlFlow::Continue(());
                    }
                    elims.sort();
                    let text = format!(
                        "{}: {} in {house} ({set}) => {}",
                        self.info.name,
                        digits_text(mask, "/"),
                        eliminations_text(&elims)
                    );
                    let pattern = set.iter().flat_map(|c| {
                        digits(grid.candidates(c)).map(move |d| Candidate::new(c, d))
                    });
                    let step = Step::new(self.info.id, self.info.difficulty)
                        .house(house)
                        .highlight(Role::Pattern, pattern)
                        .explain(text)
                        .eliminations(elims);
                    sink(step)
                })?;
            }
            ControlFlow::Continue(())
        })
    }
}

/// Hidden subset: `n` digits of a house that fit only in the same `n` cells; every other
/// candidate leaves those cells.
pub struct HiddenSubset {
    size: usize,
    info: &'static TechniqueInfo,
}

impl HiddenSubset {
    /// Hidden pair (3.4).
    pub const PAIR: HiddenSubset = HiddenSubset {
        size: 2,
        info: entry("hidden-pair"),
    };
    /// Hidden triple (4.0).
    pub const TRIPLE: HiddenSubset = HiddenSubset {
        size: 3,
        info: entry("hidden-triple"),
    };
    /// Hidden quadruple (5.4).
    pub const QUAD: HiddenSubset = HiddenSubset {
        size: 4,
        info: entry("hidden-quad"),
    };
}

impl SizedBuiltin for HiddenSubset {
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
            for house in geo.houses() {
                let mut ds = [0u8; 25];
                let mut n = 0;
                for d in grid.all_digits() {
                    let k = grid.digit_cells_in(d, house).len() as usize;
                    if (2..=self.size).contains(&k) {
                        ds[n] = d;
                        n += 1;
                    }
                }
                for_each_combination(&ds[..n], self.size, &mut |chosen| {
                    let cells = chosen
                        .iter()
                        .fold(CellSet::EMPTY, |s, &d| s | grid.digit_cells_in(d, house));
                    if cells.len() as usize != self.size {
                        return ControlFlow::Continue(());
                    }
                    let mask = chosen.iter().fold(S::Mask::ZERO, |m, &d| {
                        m.or(S::Mask::bit(usize::from(d) - 1))
                    });
                    let mut elims = Vec::new();
                    for c in cells {
                        for d in digits(grid.candidates(c).and_not(mask)) {
                            elims.push(Candidate::new(c, d));
                        }
                    }
                    if elims.is_empty() {
                        return ControlFlow::Continue(());
                    }
                    elims.sort();
                    let text = format!(
                        "{}: {} in {house} ({cells}) => {}",
                        self.info.name,
                        digits_text(mask, "/"),
                        eliminations_text(&elims)
                    );
                    let pattern = cells.iter().flat_map(|c| {
                        digits(grid.candidates(c).and(mask)).map(move |d| Candidate::new(c, d))
                    });
                    let step = Step::new(self.info.id, self.info.difficulty)
                        .house(house)
                        .highlight(Role::Pattern, pattern)
                        .explain(text)
                        .eliminations(elims);
                    sink(step)
                })?;
            }
            ControlFlow::Continue(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_count() {
        let items = [1u8, 2, 3, 4, 5, 6];
        for (k, expect) in [(1, 6), (2, 15), (3, 20), (4, 15)] {
            let mut n = 0;
            let _ = for_each_combination(&items, k, &mut |c| {
                assert_eq!(c.len(), k);
                assert!(c.windows(2).all(|w| w[0] < w[1]));
                n += 1;
                ControlFlow::Continue(())
            });
            assert_eq!(n, expect);
        }
    }
}

//! Subsets: naked and hidden pairs, triples and quadruples, and on boards of 10x10 and up
//! the larger ones, up to half the size (a naked subset of more than half a house's cells is
//! the complement of a smaller hidden one, and the other way round).
//!
//! Written once for every size.

use crate::model::{Bits, Shape};
use crate::technique::SizedBuiltin;
use crate::technique::context::Context;
use std::ops::ControlFlow;

use crate::model::cell::{Cell, digit_mask, digits, digits_text};
use crate::model::cellset::CellSet;
use crate::model::grid::Candidate;
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

/// Calls `f` with every `k`-element combination of `items` (in lexicographic order of
/// positions) whose union, built with `add` from `empty`, `fits`, and that union, until it
/// breaks. A combination is grown item by item and dropped as soon as its union no longer
/// fits, so only unions that `fits` are ever extended (`fits` must hold for every part of a
/// fitting union). `k` is at most 12.
fn for_each_fitting<T: Copy + Default, U: Copy>(
    items: &[T],
    k: usize,
    empty: U,
    add: impl Fn(U, T) -> U,
    fits: impl Fn(U) -> bool,
    f: &mut dyn FnMut(&[T], U) -> ControlFlow<()>,
) -> ControlFlow<()> {
    /// The search state: the items chosen so far.
    struct Grow<'a, T, U, A, F> {
        items: &'a [T],
        k: usize,
        chosen: [T; MAX_SUBSET],
        add: A,
        fits: F,
        union: std::marker::PhantomData<U>,
    }
    impl<T: Copy, U: Copy, A: Fn(U, T) -> U, F: Fn(U) -> bool> Grow<'_, T, U, A, F> {
        fn go(
            &mut self,
            from: usize,
            n: usize,
            union: U,
            f: &mut dyn FnMut(&[T], U) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            if n == self.k {
                return f(&self.chosen[..n], union);
            }
            // leave room for the items still to choose
            for i in from..=self.items.len() - (self.k - n) {
                let next = (self.add)(union, self.items[i]);
                if !(self.fits)(next) {
                    continue;
                }
                self.chosen[n] = self.items[i];
                self.go(i + 1, n + 1, next, f)?;
            }
            ControlFlow::Continue(())
        }
    }
    assert!(k <= MAX_SUBSET, "subsets of at most {MAX_SUBSET}");
    if k == 0 || k > items.len() {
        return ControlFlow::Continue(());
    }
    let mut grow = Grow {
        items,
        k,
        chosen: [T::default(); MAX_SUBSET],
        add,
        fits,
        union: std::marker::PhantomData,
    };
    grow.go(0, 0, empty, f)
}

/// The largest subset searched: half the largest board's size.
const MAX_SUBSET: usize = 12;

/// Whether a subset of `size` runs on boards of size `n`: pairs to quadruples on every size
/// (as they always have), the larger ones up to half the size.
fn subset_runs_on(size: usize, n: usize) -> bool {
    size <= 4 || size <= n / 2
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
    /// The naked subsets of five to twelve cells (lapiz's own ratings: SE has none).
    pub const LARGER: [NakedSubset; 8] = [
        NakedSubset::larger(5, "naked-quintuple"),
        NakedSubset::larger(6, "naked-sextuple"),
        NakedSubset::larger(7, "naked-septuple"),
        NakedSubset::larger(8, "naked-octuple"),
        NakedSubset::larger(9, "naked-nonuple"),
        NakedSubset::larger(10, "naked-decuple"),
        NakedSubset::larger(11, "naked-undecuple"),
        NakedSubset::larger(12, "naked-duodecuple"),
    ];

    const fn larger(size: usize, id: &str) -> NakedSubset {
        NakedSubset {
            size,
            info: entry(id),
        }
    }
}

impl SizedBuiltin for NakedSubset {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn runs_on(&self, n: usize) -> bool {
        subset_runs_on(self.size, n)
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
                // a subset reads nothing but its house's candidates
                ctx.per_house(self.info.id, house, sink, |sink| {
                    let mut cells = [Cell::default(); 25];
                    let mut n = 0;
                    for c in geo.house(house) & grid.empty_cells() {
                        let k = grid.candidates(c).count() as usize;
                        if (2..=self.size).contains(&k) {
                            cells[n] = c;
                            n += 1;
                        }
                    }
                    let add = |m: S::Mask, c: Cell| m.or(grid.candidates(c));
                    let fits = |m: S::Mask| m.count() as usize <= self.size;
                    let cells = &cells[..n];
                    for_each_fitting(
                        cells,
                        self.size,
                        S::Mask::ZERO,
                        add,
                        fits,
                        &mut |chosen, mask| {
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
                        },
                    )
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
    /// The hidden subsets of five to twelve digits (lapiz's own ratings: SE has none).
    pub const LARGER: [HiddenSubset; 8] = [
        HiddenSubset::larger(5, "hidden-quintuple"),
        HiddenSubset::larger(6, "hidden-sextuple"),
        HiddenSubset::larger(7, "hidden-septuple"),
        HiddenSubset::larger(8, "hidden-octuple"),
        HiddenSubset::larger(9, "hidden-nonuple"),
        HiddenSubset::larger(10, "hidden-decuple"),
        HiddenSubset::larger(11, "hidden-undecuple"),
        HiddenSubset::larger(12, "hidden-duodecuple"),
    ];

    const fn larger(size: usize, id: &str) -> HiddenSubset {
        HiddenSubset {
            size,
            info: entry(id),
        }
    }
}

impl SizedBuiltin for HiddenSubset {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn runs_on(&self, n: usize) -> bool {
        subset_runs_on(self.size, n)
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
                // a subset reads nothing but its house's candidates
                ctx.per_house(self.info.id, house, sink, |sink| {
                    let mut ds = [0u8; 25];
                    let mut n = 0;
                    for d in grid.all_digits() {
                        let k = grid.digit_cells_in(d, house).len() as usize;
                        if (2..=self.size).contains(&k) {
                            ds[n] = d;
                            n += 1;
                        }
                    }
                    let add = |s: CellSet<S>, d: u8| s | grid.digit_cells_in(d, house);
                    let fits = |s: CellSet<S>| s.len() as usize <= self.size;
                    let ds = &ds[..n];
                    for_each_fitting(
                        ds,
                        self.size,
                        CellSet::EMPTY,
                        add,
                        fits,
                        &mut |chosen, cells| {
                            if cells.len() as usize != self.size {
                                return ControlFlow::Continue(());
                            }
                            let mask = chosen
                                .iter()
                                .fold(S::Mask::ZERO, |m, &d| m.or(digit_mask::<S::Mask>(d)));
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
                                digits(grid.candidates(c).and(mask))
                                    .map(move |d| Candidate::new(c, d))
                            });
                            let step = Step::new(self.info.id, self.info.difficulty)
                                .house(house)
                                .highlight(Role::Pattern, pattern)
                                .explain(text)
                                .eliminations(elims);
                            sink(step)
                        },
                    )
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
    fn fitting_combinations_are_the_combinations_that_fit() {
        // masks of 2..4 bits: the combinations whose union has at most 5 bits, in order
        let items: Vec<u16> = (0u16..512)
            .filter(|m| (2..=4).contains(&m.count_ones()))
            .step_by(7)
            .collect();
        for k in [1, 2, 3, 5] {
            let mut all = Vec::new();
            let _ = for_each_combination(&items, k.min(4), &mut |c| {
                let u = c.iter().fold(0u16, |a, &m| a | m);
                if u.count_ones() <= 5 {
                    all.push((c.to_vec(), u));
                }
                ControlFlow::Continue(())
            });
            if k > 4 {
                // brute force for five: every 5-combination, by positions
                all.clear();
                let n = items.len();
                for a in 0..n {
                    for b in a + 1..n {
                        for c in b + 1..n {
                            for d in c + 1..n {
                                for e in d + 1..n {
                                    let v = [items[a], items[b], items[c], items[d], items[e]];
                                    let u = v.iter().fold(0u16, |x, &m| x | m);
                                    if u.count_ones() <= 5 {
                                        all.push((v.to_vec(), u));
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let mut got = Vec::new();
            let _ = for_each_fitting(
                &items,
                k,
                0u16,
                |a, m| a | m,
                |u| u.count_ones() <= 5,
                &mut |c, u| {
                    got.push((c.to_vec(), u));
                    ControlFlow::Continue(())
                },
            );
            assert_eq!(got, all, "k = {k}");
            assert!(!got.is_empty(), "k = {k}");
        }
    }

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

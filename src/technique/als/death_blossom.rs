//! Death Blossom: a stem cell and one almost locked set (petal) per stem candidate.

use super::*;

/// Death Blossom: a stem cell with candidates `d1 … dn` and, for each `di`, a set (petal)
/// holding `di` with all its `di` cells seeing the stem. Whichever digit the stem takes, that
/// petal loses it and is locked; so a digit `z` of every petal (not a stem candidate) is in
/// one of them, and leaves every cell seeing all its cells in all petals. Petals may share
/// cells (HoDoKu's overlap option); each combination of petals is its own step.
///
/// Beyond HoDoKu, `z` may also be a stem candidate with no petal of its own: the stem is then
/// `z` or some petal holds it, and `z` leaves the cells that see the stem as well.
pub struct DeathBlossom;

/// The most petal combinations tried for one stem, to bound the search on wide positions.
const MAX_BLOSSOM_NODES: u32 = 200_000;

/// In a blossom's chosen petals: the stem digit that is `z` itself and has no petal.
const NO_PETAL: u32 = u32::MAX;

/// The most candidates of a stem (the largest board's digits).
const MAX_STEM: usize = 25;

/// The search of one stem's petals.
struct Blossom<'a, S: Shape> {
    als: &'a [Als<S>],
    dc: CandSet<S>,
    stem_digits: [u8; MAX_STEM],
    /// `petals[k]`: the sets that can be the petal of `stem_digits[k]`.
    petals: [Vec<u32>; MAX_STEM],
    n: usize,
    chosen: [u32; MAX_STEM],
    nodes: u32,
    found: Vec<(CandSet<S>, [u32; MAX_STEM])>,
}

impl<S: Shape> Blossom<'_, S> {
    /// Chooses the petal of stem digit `k`, with `common` the digits every petal so far holds
    /// (stem candidates excluded) and `targets` per digit `z` the `z` candidates seeing all
    /// their cells.
    fn search(&mut self, k: usize, common: S::Mask, targets: &CandSet<S>) {
        if crate::model::stop::poll() {
            return;
        }
        if k < self.n && self.petals[k].is_empty() {
            // the stem's own `z`: no petal
            self.chosen[k] = NO_PETAL;
            return self.search(k + 1, common, targets);
        }
        if k == self.n {
            let mut elims = CandSet::<S>::EMPTY;
            for z in digits(common) {
                elims.add_cells(z, targets.cells(z));
            }
            if !elims.is_empty() {
                self.found.push((elims, self.chosen));
            }
            return;
        }
        for i in 0..self.petals[k].len() {
            if self.nodes >= MAX_BLOSSOM_NODES {
                return;
            }
            self.nodes += 1;
            let p = self.petals[k][i];
            let a = &self.als[p as usize];
            let mut live = S::Mask::ZERO;
            let mut next = *targets;
            for z in digits(common.and(a.digits)) {
                let zi = z as usize - 1;
                next.0.as_mut()[zi] &= a.seen_by(z);
                if !next.cells(z).is_empty() {
                    live.set(zi);
                }
            }
            if live.is_zero() {
                continue;
            }
            self.chosen[k] = p;
            self.search(k + 1, live, &next);
        }
    }
}

/// Per cell and digit, the sets a stem in that cell could take as a petal for the digit (every
/// cell of the set holding the digit sees the stem), in set order: `sets[start[k]..start[k + 1]]`
/// for slot `k` of the cell and digit.
struct PetalIndex {
    start: Vec<u32>,
    sets: Vec<u32>,
}

impl PetalIndex {
    /// The index of `als` for the stems `stems`.
    fn build<S: Shape>(als: &[Als<S>], stems: CellSet<S>) -> PetalIndex {
        let slots = S::CELLS * S::N;
        let mut start = vec![0u32; slots + 1];
        for a in als {
            for d in digits(a.digits) {
                for c in (a.seen_by(d) & stems).iter() {
                    start[petal_slot::<S>(c, d) + 1] += 1;
                }
            }
        }
        for k in 0..slots {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut sets = vec![0u32; start[slots] as usize];
        for (i, a) in als.iter().enumerate() {
            for d in digits(a.digits) {
                for c in (a.seen_by(d) & stems).iter() {
                    let k = petal_slot::<S>(c, d);
                    sets[fill[k] as usize] = i as u32;
                    fill[k] += 1;
                }
            }
        }
        PetalIndex { start, sets }
    }

    /// The sets a stem in `cell` can take as a petal for `digit`.
    fn of<S: Shape>(&self, cell: Cell, digit: u8) -> &[u32] {
        let k = petal_slot::<S>(cell, digit);
        &self.sets[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

/// The slot of a cell and digit in a [`PetalIndex`].
fn petal_slot<S: Shape>(cell: Cell, digit: u8) -> usize {
    S::bit_of(cell) * S::N + usize::from(digit) - 1
}

impl SizedBuiltin for DeathBlossom {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("death-blossom") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| {
            let grid = ctx.grid();
            let als = ctx.als();
            let mut b = Blossom {
                als,
                dc: CandSet::of_grid(grid),
                stem_digits: [0; MAX_STEM],
                petals: Default::default(),
                n: 0,
                chosen: [0; MAX_STEM],
                nodes: 0,
                found: Vec::new(),
            };
            let mut emitted: Vec<CandSet<S>> = Vec::new();
            let stems: CellSet<S> = grid
                .empty_cells()
                .iter()
                .filter(|&c| grid.candidates(c).count() >= 2)
                .collect();
            let petals = PetalIndex::build(als, stems);
            for stem in stems.iter() {
                let mask = grid.candidates(stem);
                b.n = 0;
                for d in digits(mask) {
                    b.stem_digits[b.n] = d;
                    b.petals[b.n].clear();
                    b.petals[b.n].extend_from_slice(petals.of::<S>(stem, d));
                    b.n += 1;
                }
                let missing = b.petals[..b.n].iter().filter(|p| p.is_empty()).count();
                if missing > 1 {
                    continue;
                }
                b.found.clear();
                // every stem digit with a petal, `z` not in the stem (HoDoKu's Death Blossom)
                if missing == 0 {
                    let mut targets = b.dc;
                    for d in digits(mask) {
                        targets.0.as_mut()[d as usize - 1] = CellSet::EMPTY;
                    }
                    b.nodes = 0;
                    b.search(0, S::Mask::low(S::N).and_not(mask), &targets);
                }
                // or `z` in the stem with no petal: the targets see the stem too
                for k in 0..b.n {
                    let z = b.stem_digits[k];
                    if missing == 1 && !b.petals[k].is_empty() {
                        continue;
                    }
                    let mut targets = CandSet::<S>::EMPTY;
                    targets.add_cells(z, b.dc.cells(z) & grid.geometry().peers(stem));
                    if targets.is_empty() {
                        continue;
                    }
                    let saved = std::mem::take(&mut b.petals[k]);
                    b.nodes = 0;
                    b.search(0, digit_mask(z), &targets);
                    b.petals[k] = saved;
                }
                let mut found = std::mem::take(&mut b.found);
                // fewest petal cells first
                found.sort_by_key(|(e, chosen)| {
                    let cells: u32 = chosen[..b.n]
                        .iter()
                        .filter(|&&p| p != NO_PETAL)
                        .map(|&p| als[p as usize].cells.len())
                        .sum();
                    (cells, std::cmp::Reverse(e.len()))
                });
                for (elims, chosen) in &found {
                    if emitted.contains(elims) {
                        continue;
                    }
                    emitted.push(*elims);
                    let step = self.step(grid, als, stem, &b.stem_digits[..b.n], chosen, elims);
                    sink(step)?;
                }
                b.found = found;
            }
            ControlFlow::Continue(())
        })
    }
}

impl DeathBlossom {
    fn step<S: Shape>(
        &self,
        grid: &Grid<S>,
        als: &[Als<S>],
        stem: Cell,
        stem_digits: &[u8],
        chosen: &[u32; MAX_STEM],
        elims: &CandSet<S>,
    ) -> Step {
        let petals: Vec<&Als<S>> = chosen[..stem_digits.len()]
            .iter()
            .filter(|&&p| p != NO_PETAL)
            .map(|&p| &als[p as usize])
            .collect();
        let zs: S::Mask = mask_of(grid.all_digits(), |d| !elims.cells(d).is_empty());
        let mask = grid.candidates(stem);
        let mut text = format!("stem {stem} {{{}}}", digits_compact(mask));
        let mut links = CandSet::<S>::EMPTY;
        for (&d, &p) in stem_digits.iter().zip(chosen) {
            if p == NO_PETAL {
                text.push_str(&format!(", -{}- in the stem", Sym(d)));
                continue;
            }
            let petal = &als[p as usize];
            text.push_str(&format!(", -{}- {}", Sym(d), petal.describe()));
            links.add_cells(d, petal.cells_of(d) | CellSet::single(stem));
        }
        text.push_str(&format!(", Z={}", digit_list(zs)));
        let difficulty = round_tenth(self.difficulty() + 0.1 * (stem_digits.len() as f32 - 2.0));
        als_step(
            self,
            difficulty,
            grid,
            Drawn {
                sets: &petals,
                roles: &PETAL_ROLES,
                stem: CellSet::single(stem),
                links,
                zs,
            },
            elims,
            text,
        )
    }
}

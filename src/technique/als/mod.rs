//! Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS-XY-Chain and Death Blossom.
//!
//! An almost locked set (ALS) is `n` cells of one house holding `n + 1` digits: take one digit
//! away and the rest is locked in it. Two sets are linked by a *restricted common* digit `x`
//! when every cell of one holding `x` sees every cell of the other holding `x` (and no cell
//! holding `x` is in both): `x` is then in at most one of them, so one of them loses `x` and
//! becomes a locked set. Every technique here chains that inference; the sets come from the
//! position's context (`Context::als`: up to eight cells, bivalue cells being the one-cell sets).
//!
//! The definitions follow HoDoKu's (library codes 0901–0904). Sets may overlap as long as no
//! candidate of a restricted common lies in the overlap (HoDoKu's "allow overlap" option; the
//! non-overlapping instances are among them, each its own step).

use crate::model::Sym;
use crate::technique::round_tenth;
use rustc_hash::FxHashMap as HashMap;
use std::ops::ControlFlow;

use crate::model::candset::CandSet;
use crate::model::cell::{Cell, House, digit_mask, digits, digits_compact, digits_text};
use crate::model::cellset::CellSet;
use crate::model::grid::Grid;
use crate::model::{Bits, Shape};
use crate::step::{Chain, ChainNode, LinkType, Role, Step, eliminations_text};
use crate::technique::SizedBuiltin;
use crate::technique::catalogue::entry;
use crate::technique::chains::chain_difficulty;
use crate::technique::context::{Als, Context};
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

mod death_blossom;
mod walks;

pub use death_blossom::DeathBlossom;

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(AlsXz),
        Box::new(AlsXyWing),
        Box::new(AlsXyChain),
        Box::new(DeathBlossom),
    ]
}

/// The restricted commons of two sets: the digits `x` of both whose cells in `b` all see
/// every cell of `a` holding `x` (none of them in the other set). The definition
/// [`Adjacency::build`] finds faster, kept for its test.
#[cfg(test)]
pub(crate) fn restricted_commons<S: Shape>(a: &Als<S>, b: &Als<S>) -> S::Mask {
    let mut rc = S::Mask::ZERO;
    for d in digits(a.digits.and(b.digits)) {
        let (ac, bc) = (a.cells_of(d), b.cells_of(d));
        // `seen_by` leaves out the set's own cells, so an `x` cell in the overlap fails here
        if bc.is_subset(a.seen_by(d)) && !ac.intersects(b.cells) {
            rc.set(usize::from(d) - 1);
        }
    }
    rc
}

/// The digits of `from` that `keep` holds, as a mask.
fn mask_of<M: Bits>(from: impl Iterator<Item = u8>, keep: impl Fn(u8) -> bool) -> M {
    from.filter(|&d| keep(d))
        .fold(M::ZERO, |m, d| m.or(digit_mask(d)))
}

/// One restricted-common link from a set to another.
#[derive(Clone, Copy, Debug)]
struct Link<M> {
    to: u32,
    rc: M,
}

/// Every restricted-common link between the position's sets, built once per position and
/// shared through [`Context::als_adjacency`]: the links of set `i` are
/// `links[start[i]..start[i + 1]]`.
pub(crate) struct Adjacency<S: Shape> {
    start: Vec<u32>,
    links: Vec<Link<S::Mask>>,
}

impl<S: Shape> Adjacency<S> {
    /// The links between every two of `als` that have a restricted common.
    pub(crate) fn build(als: &[Als<S>]) -> Adjacency<S> {
        let n = als.len();
        // A restricted common `x` of sets `a` and `b` has every `x` of `b` in a cell that
        // sees every `x` of `a`: so `b`'s first `x` cell is one of them. The sets are indexed
        // by digit and first cell holding it, each bucket in set order.
        let key = |d: u8, cell| (usize::from(d) - 1) * S::CELLS + S::bit_of(cell);
        let mut bucket_start = vec![0u32; S::N * S::CELLS + 1];
        for a in als {
            for d in digits(a.digits) {
                let first = a
                    .cells_of(d)
                    .first()
                    .expect("a set's digit is in some cell");
                bucket_start[key(d, first) + 1] += 1;
            }
        }
        for k in 0..S::N * S::CELLS {
            bucket_start[k + 1] += bucket_start[k];
        }
        let mut fill = bucket_start.clone();
        let mut by_first = vec![0u32; bucket_start[S::N * S::CELLS] as usize];
        for (i, a) in als.iter().enumerate() {
            for d in digits(a.digits) {
                let k = key(
                    d,
                    a.cells_of(d)
                        .first()
                        .expect("a set's digit is in some cell"),
                );
                by_first[fill[k] as usize] = i as u32;
                fill[k] += 1;
            }
        }
        // each pair once, from its lower-numbered set, in order (the links below come out
        // sorted by the other set)
        let mut pairs: Vec<(u32, u32, S::Mask)> = Vec::new();
        let mut count = vec![0u32; n + 1];
        let mut rc_of = vec![S::Mask::ZERO; n];
        let mut touched: Vec<u32> = Vec::new();
        for (i, a) in als.iter().enumerate() {
            for d in digits(a.digits) {
                let (ac, seen) = (a.cells_of(d), a.seen_by(d));
                for p in seen {
                    let k = key(d, p);
                    let bucket = &by_first[bucket_start[k] as usize..bucket_start[k + 1] as usize];
                    let later = bucket.partition_point(|&j| j as usize <= i);
                    for &j in &bucket[later..] {
                        let b = &als[j as usize];
                        // as `restricted_commons(a, b)` tests each digit
                        if b.cells_of(d).is_subset(seen) && !ac.intersects(b.cells) {
                            if rc_of[j as usize].is_zero() {
                                touched.push(j);
                            }
                            rc_of[j as usize].set(usize::from(d) - 1);
                        }
                    }
                }
            }
            touched.sort_unstable();
            for &j in &touched {
                pairs.push((i as u32, j, rc_of[j as usize]));
                count[i] += 1;
                count[j as usize] += 1;
                rc_of[j as usize] = S::Mask::ZERO;
            }
            touched.clear();
        }
        let mut start = vec![0u32; n + 1];
        for i in 0..n {
            start[i + 1] = start[i] + count[i];
        }
        let mut fill = start.clone();
        let mut links = vec![
            Link {
                to: 0,
                rc: S::Mask::ZERO
            };
            pairs.len() * 2
        ];
        for &(i, j, rc) in &pairs {
            links[fill[i as usize] as usize] = Link { to: j, rc };
            fill[i as usize] += 1;
            links[fill[j as usize] as usize] = Link { to: i, rc };
            fill[j as usize] += 1;
        }
        Adjacency { start, links }
    }

    #[inline]
    fn of(&self, i: usize) -> &[Link<S::Mask>] {
        &self.links[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// The candidates of `z` in the cells that see every `z` of both sets (`dc`: the grid's
/// candidates).
#[inline]
fn common_targets<S: Shape>(a: &Als<S>, b: &Als<S>, z: u8, dc: &CandSet<S>) -> CellSet<S> {
    a.seen_by(z) & b.seen_by(z) & dc.cells(z)
}

/// The eliminations of every digit of `zs` from the cells seeing all its cells in `a` and `b`.
fn xz_eliminations<S: Shape>(a: &Als<S>, b: &Als<S>, zs: S::Mask, dc: &CandSet<S>) -> CandSet<S> {
    let mut elims = CandSet::<S>::EMPTY;
    for z in digits(zs) {
        elims.add_cells(z, common_targets(a, b, z, dc));
    }
    elims
}

/// The restricted commons' candidates in the sets they link.
fn link_candidates<S: Shape>(pairs: &[(&Als<S>, &Als<S>, S::Mask)]) -> CandSet<S> {
    let mut s = CandSet::<S>::EMPTY;
    for (a, b, rc) in pairs {
        for d in digits(*rc) {
            s.add_cells(d, a.cells_of(d) | b.cells_of(d));
        }
    }
    s
}

/// What a step shows: the sets (each in its role: A and B apart), a Death Blossom's stem, the
/// restricted commons' candidates, and the digits `z` the step eliminates.
struct Drawn<'a, S: Shape> {
    sets: &'a [&'a Als<S>],
    roles: &'a [Role],
    stem: CellSet<S>,
    links: CandSet<S>,
    zs: S::Mask,
}

/// The roles of ALS-XZ's and ALS-XY-Wing's sets: A, B (and C).
const SET_ROLES: [Role; 3] = [Role::ColorA, Role::ColorB, Role::Cover];
/// The roles of a Death Blossom's petals, in turn.
const PETAL_ROLES: [Role; 4] = [Role::ColorA, Role::ColorB, Role::Cover, Role::Base];

/// A step of the family: each set's candidates in its role (`roles` in turn: set A colour A,
/// set B colour B), a stem as the pivot, then again the restricted commons (and a stem's links)
/// as links and the `z` candidates of the sets as pincers (every cell seeing all of them loses
/// `z`), the sets' houses, the eliminations and the explanation.
fn als_step<S: Shape>(
    technique: &dyn Technique,
    difficulty: f32,
    grid: &Grid<S>,
    drawn: Drawn<'_, S>,
    elims: &CandSet<S>,
    text: String,
) -> Step {
    let Drawn {
        sets,
        roles,
        stem,
        links,
        zs,
    } = drawn;
    let candidates_of = |cells: CellSet<S>| {
        let mut c = CandSet::<S>::EMPTY;
        grid.all_digits()
            .for_each(|d| c.add_cells(d, cells & grid.digit_cells(d)));
        c
    };
    let mut pincers = CandSet::<S>::EMPTY;
    for (a, z) in sets.iter().flat_map(|a| digits(zs).map(move |z| (a, z))) {
        pincers.add_cells(z, a.cells_of(z));
    }
    pincers -= links;
    // a role with no candidate is left out
    let shown = |step: Step, role: Role, c: CandSet<S>| match c.is_empty() {
        true => step,
        false => step.highlight(role, c.to_sorted_vec()),
    };
    // every candidate of a set in its role (a cell of two sets in the first), then the
    // commons and z again in theirs, which the page draws over the sets' colours
    let mut taken = CandSet::<S>::EMPTY;
    let mut step = Step::new(technique.id(), difficulty);
    for (i, a) in sets.iter().enumerate() {
        let mine = candidates_of(a.cells) - taken;
        taken |= mine;
        step = shown(step, roles[i % roles.len()], mine);
    }
    step = shown(step, Role::Pivot, candidates_of(stem) - taken);
    step = shown(step, Role::Link, links);
    step = shown(step, Role::Pincer, pincers);
    let mut houses: Vec<House> = Vec::new();
    for a in sets {
        if !houses.contains(&a.house) {
            houses.push(a.house);
        }
    }
    step.houses(houses)
        .eliminations(elims.to_sorted_vec())
        .explain(format!(
            "{}: {text} => {}",
            technique.name(),
            eliminations_text(&elims.to_sorted_vec())
        ))
}

/// `x` digits as written in an explanation, e.g. `2` or `2,8`.
fn digit_list<M: Bits>(mask: M) -> String {
    digits_text(mask, ",")
}

/// ALS-XZ: two sets `A`, `B` with a restricted common `x`. One of them loses `x` and is then
/// locked, so every other common digit `z` is in `A` or `B`: `z` leaves every cell seeing all
/// its cells in both. *Doubly linked* (two restricted commons `x`, `y`): `A` loses one of them
/// and `B` the other, so each set is locked on its other digits (they leave every cell outside
/// the other set seeing all their cells in the set) and `x`, `y` are each in `A` or `B` (they
/// leave every cell seeing all their cells in both).
pub struct AlsXz;

/// How much harder a doubly linked ALS-XZ is than a singly linked one.
const DOUBLY_LINKED: f32 = 0.1;

impl SizedBuiltin for AlsXz {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("als-xz") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| {
            let grid = ctx.grid();
            let als = ctx.als();
            let dc = CandSet::of_grid(grid);
            let adj = ctx.als_adjacency();
            let mut emitted: Vec<CandSet<S>> = Vec::new();
            for (i, a) in als.iter().enumerate() {
                if crate::model::stop::poll() {
                    return ControlFlow::Break(());
                }
                for link in adj.of(i) {
                    let j = link.to as usize;
                    if j < i {
                        continue;
                    }
                    let b = &als[j];
                    let common = a.digits.and(b.digits);
                    let doubly = link.rc.count() >= 2;
                    let elims = if doubly {
                        let mut e = xz_eliminations(a, b, common, &dc);
                        for (s, o) in [(a, b), (b, a)] {
                            for d in digits(s.digits.and_not(link.rc)) {
                                e.add_cells(d, (s.seen_by(d) & dc.cells(d)) - o.cells);
                            }
                        }
                        e
                    } else {
                        xz_eliminations(a, b, common.and_not(link.rc), &dc)
                    };
                    if elims.is_empty() || emitted.contains(&elims) {
                        continue;
                    }
                    emitted.push(elims);
                    let zs: S::Mask = mask_of(digits(common.and_not(link.rc)), |z| {
                        !elims.cells(z).is_empty()
                    });
                    let mut text = format!(
                        "A={}, B={}, X={}",
                        a.describe(),
                        b.describe(),
                        digit_list(link.rc)
                    );
                    if !zs.is_zero() {
                        text.push_str(&format!(", Z={}", digit_list(zs)));
                    }
                    let (difficulty, text) = if doubly {
                        (
                            round_tenth(self.difficulty() + DOUBLY_LINKED),
                            format!("doubly linked, {text}"),
                        )
                    } else {
                        (self.difficulty(), text)
                    };
                    let links = link_candidates(&[(a, b, link.rc)]);
                    let step = als_step(
                        self,
                        difficulty,
                        grid,
                        Drawn {
                            sets: &[a, b],
                            roles: &SET_ROLES,
                            stem: CellSet::EMPTY,
                            links,
                            // doubly linked, every other digit is a z: the sets show instead
                            zs: if doubly { S::Mask::ZERO } else { zs },
                        },
                        &elims,
                        text,
                    );
                    sink(step)?;
                }
            }
            ControlFlow::Continue(())
        })
    }
}

/// ALS-XY-Wing: a set `C` linked to `A` by a restricted common `x` and to `B` by `y`
/// (`x ≠ y`). If neither `A` nor `B` held a common digit `z` (`z ≠ x, y`), both would be locked
/// and hold `x` and `y`, taking both from `C`; so `z` leaves every cell seeing all its cells in
/// `A` and `B` (cells of `C` included).
pub struct AlsXyWing;

impl SizedBuiltin for AlsXyWing {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("als-xy-wing") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| {
            let grid = ctx.grid();
            let als = ctx.als();
            let dc = CandSet::of_grid(grid);
            let adj = ctx.als_adjacency();
            // for each set, the digits that have something to eliminate from cells it sees
            let live: Vec<S::Mask> = als
                .iter()
                .map(|a| mask_of(digits(a.digits), |d| a.seen_by(d).intersects(dc.cells(d))))
                .collect();
            let mut emitted: Vec<CandSet<S>> = Vec::new();
            for (ci, c) in als.iter().enumerate() {
                if crate::model::stop::poll() {
                    return ControlFlow::Break(());
                }
                let links = adj.of(ci);
                for (k, la) in links.iter().enumerate() {
                    let (ai, a) = (la.to as usize, &als[la.to as usize]);
                    if live[ai].is_zero() {
                        continue;
                    }
                    for lb in &links[k + 1..] {
                        let (bi, b) = (lb.to as usize, &als[lb.to as usize]);
                        // two different restricted commons
                        if la.rc == lb.rc && la.rc.count() == 1 {
                            continue;
                        }
                        let zs = live[ai].and(live[bi]).and_not(la.rc.or(lb.rc));
                        if zs.is_zero() {
                            continue;
                        }
                        // neither flank inside the other
                        let both = a.cells | b.cells;
                        if both == a.cells || both == b.cells {
                            continue;
                        }
                        let elims = xz_eliminations(a, b, zs, &dc);
                        if elims.is_empty() || emitted.contains(&elims) {
                            continue;
                        }
                        emitted.push(elims);
                        let used: S::Mask =
                            mask_of(digits(zs), |z| !common_targets(a, b, z, &dc).is_empty());
                        let text = format!(
                            "A={}, B={}, C={}, X={}, Y={}, Z={}",
                            a.describe(),
                            b.describe(),
                            c.describe(),
                            digit_list(la.rc),
                            digit_list(lb.rc),
                            digit_list(used)
                        );
                        let links = link_candidates(&[(a, c, la.rc), (b, c, lb.rc)]);
                        let step = als_step(
                            self,
                            self.difficulty(),
                            grid,
                            Drawn {
                                sets: &[a, b, c],
                                roles: &SET_ROLES,
                                stem: CellSet::EMPTY,
                                links,
                                zs: used,
                            },
                            &elims,
                            text,
                        );
                        sink(step)?;
                    }
                }
            }
            ControlFlow::Continue(())
        })
    }
}

/// The most sets in an ALS-XY-Chain.
pub(crate) const MAX_CHAIN_ALS: usize = 8;

/// ALS-XY-Chain: sets `A1 … An` (n ≥ 4), each linked to the next by a restricted common, the
/// commons of consecutive links different. If `A1` lost a digit `z` it would be locked, hold
/// the first common and take it from `A2`, which would be locked and take the next from `A3`,
/// and so on until `An`, locked, holds `z`. So `z` (common to `A1` and `An`, not the first or
/// the last common) is in `A1` or `An`, and leaves every cell seeing all its cells in both.
///
/// The search goes breadth first from every set and first common over (set, common in) states,
/// so each chain found is a shortest one for its ends; the links are collected once per call.
pub struct AlsXyChain;

/// One state of the chain search: a set reached through `arc`, the commons it lost.
#[derive(Clone, Copy, Debug)]
struct ChainState<M> {
    als: u32,
    arc: M,
    parent: u32,
    links: u8,
}

/// A chain found: the sets and the commons between them.
#[derive(Clone, Copy, Debug)]
struct FoundChain<M> {
    len: u8,
    sets: [u32; MAX_CHAIN_ALS],
    /// `rcs[i]` links `sets[i]` and `sets[i + 1]` (the actual commons).
    rcs: [M; MAX_CHAIN_ALS],
}

/// An arc as a pair of digit indices: its lowest digit and its second lowest (the lowest
/// again for a one-digit arc); the search tells arcs apart by it.
#[inline]
fn arc_key<M: Bits>(arc: M) -> (usize, usize) {
    let a = arc.first().unwrap_or(0);
    let rest = arc.and_not(M::bit(a));
    (a, rest.first().unwrap_or(a))
}

/// The commons a set that lost `arc` no longer excludes from the next link: an `arc` of two
/// digits means the set lost two, a contradiction from which anything follows; like HoDoKu the
/// search then only excludes the first.
#[inline]
fn arc_exclusion<M: Bits>(arc: M) -> M {
    arc.first().map_or(M::ZERO, M::bit)
}

impl SizedBuiltin for AlsXyChain {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("als-xy-chain") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| {
            for (elims, f) in xy_chains(ctx, true) {
                let step = self.step(ctx.grid(), ctx.als(), &elims, &f);
                sink(step)?;
            }
            ControlFlow::Continue(())
        })
    }
}

/// Every ALS-XY-Chain of the position: per set of eliminations, the shortest chain found
/// first, in the order the technique reports them. With `prune`, the search passes over the
/// starts and sets no reported chain passes ([`walks`]); without, it searches everything (for
/// the tests: the same chains either way).
fn xy_chains<S: Shape>(
    ctx: &Context<'_, S>,
    prune: bool,
) -> Vec<(CandSet<S>, FoundChain<S::Mask>)> {
    let grid = ctx.grid();
    let als = ctx.als();
    let adj = ctx.als_adjacency();
    let walks = prune.then(|| walks::ChainWalks::of(grid, als, adj));
    if walks.as_ref().is_some_and(|w| w.none()) {
        return Vec::new();
    }
    let passes = |set: usize, d: u8, on: bool| {
        walks
            .as_ref()
            .is_none_or(|w| w.passes(set, als[set].digits, d, on))
    };
    let dc = CandSet::of_grid(grid);
    let n = als.len();
    // per set and digit, the candidates seeing all the digit's cells in the set
    let targets: Vec<CandSet<S>> = als
        .iter()
        .map(|a| {
            let mut t = CandSet::<S>::EMPTY;
            for d in digits(a.digits) {
                t.add_cells(d, a.seen_by(d) & dc.cells(d));
            }
            t
        })
        .collect();
    let live: Vec<S::Mask> = targets
        .iter()
        .map(|t| mask_of(grid.all_digits(), |d| !t.cells(d).is_empty()))
        .collect();
    let mut found: HashMap<CandSet<S>, FoundChain<S::Mask>> = HashMap::default();
    let mut queue: Vec<ChainState<S::Mask>> = Vec::with_capacity(n * 2);
    let mut seen_gen = vec![0u32; n];
    // per set, the arcs it was reached by: per lowest digit, the second ones
    let mut seen_arcs = vec![S::per_digit(S::Mask::ZERO); n];
    let mut generation = 0u32;
    for s in 0..n {
        if live[s].is_zero() {
            continue;
        }
        let firsts: S::Mask = adj.of(s).iter().fold(S::Mask::ZERO, |m, l| m.or(l.rc));
        for x1 in digits(firsts) {
            let zs_start = live[s].and_not(digit_mask(x1));
            if zs_start.is_zero() || !passes(s, x1, true) {
                continue;
            }
            generation += 1;
            queue.clear();
            queue.push(ChainState {
                als: s as u32,
                arc: S::Mask::ZERO,
                parent: u32::MAX,
                links: 0,
            });
            let mut head = 0;
            while head < queue.len() {
                if crate::model::stop::poll() {
                    return Vec::new();
                }
                let cur = queue[head];
                let cur_index = head as u32;
                head += 1;
                for link in adj.of(cur.als as usize) {
                    let next = if cur.links == 0 {
                        link.rc.and(digit_mask(x1))
                    } else {
                        link.rc.and_not(arc_exclusion(cur.arc))
                    };
                    if next.is_zero() {
                        continue;
                    }
                    let to = link.to as usize;
                    let (ka, kb) = arc_key(next);
                    // the set without `next`: the search leaves it by other digits
                    if !passes(to, ka as u8 + 1, false) {
                        continue;
                    }
                    if seen_gen[to] == generation && seen_arcs[to].as_ref()[ka].has(kb) {
                        continue;
                    }
                    // a set appears once in a chain
                    let mut on_path = false;
                    let mut p = cur_index;
                    while p != u32::MAX {
                        let st = &queue[p as usize];
                        if st.als as usize == to {
                            on_path = true;
                            break;
                        }
                        p = st.parent;
                    }
                    if on_path {
                        continue;
                    }
                    if seen_gen[to] != generation {
                        seen_gen[to] = generation;
                        seen_arcs[to] = S::per_digit(S::Mask::ZERO);
                    }
                    seen_arcs[to].as_mut()[ka].set(kb);
                    let links = cur.links + 1;
                    let state = ChainState {
                        als: to as u32,
                        arc: next,
                        parent: cur_index,
                        links,
                    };
                    // like HoDoKu, the ends may overlap, even one inside the other
                    if links >= 3 {
                        let zs = zs_start.and(live[to]).and_not(next);
                        let mut elims = CandSet::<S>::EMPTY;
                        for z in digits(zs) {
                            elims.add_cells(z, targets[s].cells(z) & targets[to].cells(z));
                        }
                        if !elims.is_empty() {
                            let chain = chain_path(&queue, cur_index, state);
                            match found.get(&elims) {
                                Some(f) if f.len <= chain.len => {}
                                _ => {
                                    found.insert(elims, chain);
                                }
                            }
                        }
                    }
                    if (links as usize) < MAX_CHAIN_ALS - 1 {
                        queue.push(state);
                    }
                }
            }
        }
    }
    let mut found: Vec<(CandSet<S>, FoundChain<S::Mask>)> = found.into_iter().collect();
    found.sort_by_key(|(e, f)| (f.len, std::cmp::Reverse(e.len()), f.sets, e.to_sorted_vec()));
    found
}

/// The sets and commons of the chain ending in `last`, whose parent is `queue[parent]`.
fn chain_path<M: Bits>(queue: &[ChainState<M>], parent: u32, last: ChainState<M>) -> FoundChain<M> {
    let mut sets = [0u32; MAX_CHAIN_ALS];
    let mut arcs = [M::ZERO; MAX_CHAIN_ALS];
    let len = last.links as usize + 1;
    sets[len - 1] = last.als;
    arcs[len - 1] = last.arc;
    let mut p = parent;
    let mut i = len - 1;
    while p != u32::MAX {
        i -= 1;
        let st = &queue[p as usize];
        sets[i] = st.als;
        arcs[i] = st.arc;
        p = st.parent;
    }
    let mut rcs = [M::ZERO; MAX_CHAIN_ALS];
    rcs[..len - 1].copy_from_slice(&arcs[1..len]);
    FoundChain {
        len: len as u8,
        sets,
        rcs,
    }
}

impl AlsXyChain {
    fn step<S: Shape>(
        &self,
        grid: &Grid<S>,
        als: &[Als<S>],
        elims: &CandSet<S>,
        f: &FoundChain<S::Mask>,
    ) -> Step {
        let len = f.len as usize;
        let sets: Vec<&Als<S>> = f.sets[..len].iter().map(|&i| &als[i as usize]).collect();
        let (first, last) = (sets[0], sets[len - 1]);
        let zs: S::Mask = mask_of(grid.all_digits(), |d| !elims.cells(d).is_empty());
        let mut text = String::new();
        for (i, a) in sets.iter().enumerate() {
            if i > 0 {
                text.push_str(&format!(" -{}- ", digit_list(f.rcs[i - 1])));
            }
            text.push_str(&a.describe());
        }
        text.push_str(&format!(", Z={}", digit_list(zs)));
        let pairs: Vec<(&Als<S>, &Als<S>, S::Mask)> = (0..len - 1)
            .map(|i| (sets[i], sets[i + 1], f.rcs[i]))
            .collect();
        let links = link_candidates(&pairs);
        let step = als_step(
            self,
            chain_difficulty(self.difficulty(), len),
            grid,
            // its sets are drawn as the chain's ALS nodes
            Drawn {
                sets: &sets,
                roles: &[Role::Pattern],
                stem: CellSet::EMPTY,
                links,
                zs: S::Mask::ZERO,
            },
            elims,
            text,
        );
        // z off in the first set =x1= x1 on there -x1- x1 off in the next =x2= … =z= z on in
        // the last
        let z = digits(zs).next().unwrap_or(0);
        let node = |a: &Als<S>, digit: u8, on: bool| ChainNode {
            digit,
            cells: a.cells_of(digit).iter().collect::<Vec<Cell>>(),
            on,
            als: a.cells.iter().collect(),
        };
        let mut nodes = vec![node(first, z, false)];
        for i in 0..len - 1 {
            let x = digits(f.rcs[i]).next().unwrap_or(0);
            nodes.push(node(sets[i], x, true));
            nodes.push(node(sets[i + 1], x, false));
        }
        nodes.push(node(last, z, true));
        let links = (0..nodes.len() - 1)
            .map(|i| {
                if nodes[i].on {
                    LinkType::Weak
                } else {
                    LinkType::Strong
                }
            })
            .collect();
        step.chain(Chain { nodes, links })
    }
}

#[cfg(test)]
mod tests;

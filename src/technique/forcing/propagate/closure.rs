//! Where every static walk from one state leads, for all its candidates at once.
//!
//! A nested pass one level above static chains asks, of every candidate of its state, whether
//! a static walk from it (the candidate true) meets a contradiction, and what the walk made
//! true; a static forcing search (and the footprints of a nested one) follows every candidate
//! of its start, true and false, to where the walk ends. A walk reaches the states (`candidate * 2 + on`) its start reaches in the state's
//! implication graph: an "on" state leads to its weak set off, an "off" state to its strong
//! partners on ([`Links`]). So the answers are the graph's reachability, computed once per
//! state: strongly connected components, then each component's reach as a bitset, built from
//! the components it leads to (which Tarjan's algorithm completes first). A walk meets a
//! contradiction exactly when its reach holds both states of one candidate.
//!
//! ```text
//!   state bit 2i: candidate i off     reach word: ..| i on | i off |..
//!   state bit 2i + 1: candidate i on  a contradiction: w & (w >> 1) & 0x5555... != 0
//! ```

use std::marker::PhantomData;

use crate::technique::chains::walks::{Successors, components};

use super::*;

/// Every off/on pair of bits in a word.
const OFF_BITS: u64 = 0x5555_5555_5555_5555;

/// The reach of every state of one [`State`]'s static implication graph.
///
/// Strong links are symmetric, so only a candidate with a strong link has its "on" state
/// reached from another; the "off" states of candidates without (which lead nowhere) are
/// left out of the graph's links.
pub(super) struct StaticClosure<S: Shape> {
    /// Per candidate index ([`index`]), its number among the state's candidates, or
    /// `u32::MAX` when it is not one.
    number: Vec<u32>,
    /// Per number, the candidate.
    candidate: Vec<Candidate>,
    /// Per state (`number * 2 + on`), its component.
    component: Vec<u32>,
    /// Words of one reach.
    words: usize,
    /// Per component, the states it reaches (its own included), `words` words each.
    reach: Vec<u64>,
    shape: PhantomData<S>,
}

impl<S: Shape> StaticClosure<S> {
    /// The closure of `st`'s graph, whose strong links are `links` ([`Links::of`] of `st`).
    pub(super) fn of(st: &State<S>, links: &Links) -> StaticClosure<S> {
        let geo = st.geo;
        let mut number = vec![u32::MAX; candidates::<S>()];
        let mut candidate = Vec::new();
        for di in 0..S::N {
            for cell in st.cands.as_ref()[di] {
                let c = cand(cell, di);
                number[index::<S>(c)] = candidate.len() as u32;
                candidate.push(c);
            }
        }
        // the candidates with a strong link, by digit
        let mut linked = S::NO_DIGIT_CELLS;
        for &c in &candidate {
            if !links.from(index::<S>(c)).is_empty() {
                linked.as_mut()[c.digit as usize - 1].insert(c.cell);
            }
        }
        let linked = linked.as_ref();
        let state = |c: Candidate, on: bool| number[index::<S>(c)] * 2 + u32::from(on);
        // the links a walk follows ([`State::assume_static`]), to linked candidates' states
        let mut succ = Successors::with_capacity(candidate.len() * 2);
        for &x in &candidate {
            let xd = x.digit as usize - 1;
            // off: the strong partners on
            let partners = links.from(index::<S>(x));
            succ.extend(partners.iter().map(|&(yi, _)| {
                let y = candidate_at::<S>(yi as usize);
                state(y, true)
            }));
            succ.end_state();
            // on: the cell's other digits and the digit's peers off
            let others = (0..S::N)
                .filter(|&e| e != xd && linked[e].contains(x.cell))
                .map(|e| cand(x.cell, e));
            let peers = (linked[xd] & geo.peers(x.cell)).iter().map(|p| cand(p, xd));
            succ.extend(others.chain(peers).map(|y| state(y, false)));
            succ.end_state();
        }
        let comp = components(&succ);
        let words = (2 * candidate.len()).div_ceil(64);
        let mut reach = vec![0u64; comp.count * words];
        let (first, members) = comp.members();
        // components complete in an order where each leads only to earlier ones
        for c in 0..comp.count {
            let (earlier, rest) = reach.split_at_mut(c * words);
            let own = &mut rest[..words];
            for &x in &members[first[c] as usize..first[c + 1] as usize] {
                own[x as usize / 64] |= 1 << (x % 64);
                for &y in succ.of(x as usize) {
                    let yc = comp.of[y as usize] as usize;
                    if yc != c {
                        let theirs = &earlier[yc * words..(yc + 1) * words];
                        for (o, t) in own.iter_mut().zip(theirs) {
                            *o |= *t;
                        }
                    }
                }
            }
        }
        StaticClosure {
            number,
            candidate,
            component: comp.of,
            words,
            reach,
            shape: PhantomData,
        }
    }

    /// The states `c` true reaches (of candidates with a strong link, and its own).
    fn reach_of(&self, c: Candidate) -> &[u64] {
        self.reach_of_state(c, true)
    }

    /// The states `c` true (`on`) or false reaches.
    fn reach_of_state(&self, c: Candidate, on: bool) -> &[u64] {
        let n = self.number[index::<S>(c)];
        debug_assert!(n != u32::MAX, "{c} is a candidate of the state");
        let comp = self.component[n as usize * 2 + usize::from(on)] as usize;
        &self.reach[comp * self.words..(comp + 1) * self.words]
    }

    /// Whether a static walk from `c` true meets a contradiction: both states of one
    /// candidate reached. (A walk meeting `c` false, `c` without a strong link, does it
    /// through a candidate made true that sees `c`; `c` true turned that one off at once.)
    pub(super) fn contradicts(&self, c: Candidate) -> bool {
        self.both_ways(self.reach_of(c)).is_some()
    }

    /// A candidate both of whose states are in `reach`.
    fn both_ways(&self, reach: &[u64]) -> Option<Candidate> {
        reach.iter().enumerate().find_map(|(wi, &w)| {
            let both = w & (w >> 1) & OFF_BITS;
            (both != 0).then(|| self.candidate[(wi * 64 + both.trailing_zeros() as usize) / 2])
        })
    }

    /// The candidates whose "on" state is in `reach`.
    fn made_true<'a>(&'a self, reach: &'a [u64]) -> impl Iterator<Item = Candidate> + 'a {
        reach.iter().enumerate().flat_map(move |(wi, &w)| {
            let mut on = w & !OFF_BITS;
            std::iter::from_fn(move || {
                (on != 0).then(|| {
                    let bit = on.trailing_zeros() as usize;
                    on &= on - 1;
                    self.candidate[(wi * 64 + bit) / 2]
                })
            })
        })
    }

    /// Adds to `made` the candidates a static walk from `c` true (without contradiction)
    /// makes true.
    pub(super) fn add_made_true(&self, c: Candidate, made: &mut Cands<S>) {
        for y in self.made_true(self.reach_of(c)) {
            made.as_mut()[y.digit as usize - 1].insert(y.cell);
        }
    }
}

impl<S: Shape> State<S> {
    /// [`State::assume_static`] without a record, from the state `closure` was built from:
    /// the same state reached, or a contradiction (naming a candidate the walk reaches both
    /// true and false, not always the one a walk meets first).
    pub(super) fn follow_static(
        &mut self,
        c: Candidate,
        on: bool,
        closure: &StaticClosure<S>,
    ) -> Result<(), Clash> {
        let reach = closure.reach_of_state(c, on);
        if let Some(y) = closure.both_ways(reach) {
            return Err(Clash::Both(y));
        }
        // Every "off" state a walk reaches, it reaches from an "on" state's weak set (or it is
        // the assumption): the other digits of the cells made true, and each digit made true
        // in their peers.
        let mut made = S::NO_DIGIT_CELLS;
        let mut cells = CellSet::<S>::EMPTY;
        for y in closure.made_true(reach) {
            made.as_mut()[y.digit as usize - 1].insert(y.cell);
            cells.insert(y.cell);
        }
        let mut off = S::NO_DIGIT_CELLS;
        for di in 0..S::N {
            let cands = self.cands.as_ref()[di];
            let mut seen = CellSet::<S>::EMPTY;
            for x in made.as_ref()[di] {
                seen |= self.geo.peers(x);
            }
            off.as_mut()[di] = cands & ((cells - made.as_ref()[di]) | seen);
        }
        if !on {
            off.as_mut()[c.digit as usize - 1].insert(c.cell);
        }
        self.apply_walk(&made, &off);
        Ok(())
    }
}

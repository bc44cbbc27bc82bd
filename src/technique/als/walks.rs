//! Where an ALS-XY-Chain search can find anything: the walks of the chains' own implication
//! graph, so that a search passes over the starts and sets no chain it reports goes through.
//!
//! A chain that removes `z` from a cell is a walk of implications: the candidate on, so the
//! first set without `z`, so its other digits locked in it and among them its first
//! restricted common `x1`, so the next set without `x1`, …, so the last set without its
//! incoming common, so `z` in it, so the candidate off. The graph here has a node for every
//! candidate and for every digit of every set (on: the digit is in one of the set's cells),
//! and exactly these links:
//!
//! - weak, candidate `(c, z)` and set digit `(t, z)`, where `c` sees every `z` of `t`;
//! - strong, two digits of one set (without one, the set's others are locked in it);
//! - weak, `(t, b)` and `(u, b)`, where `b` is a restricted common of `t` and `u`.
//!
//! Like the chain link graph ([`crate::technique::chains::walks`]) it is symmetric, and the
//! states a walk from a contradictory candidate to its opposite may pass are those reached,
//! with their opposite, from a contradictory candidate. A search from set `s` through `x1` can
//! only report a chain when `(s, x1)` on is one of them; a set the search reaches through
//! common `b` (its digit node `(t, b)` off) can only lead to a chain it reports when that state
//! is one. Whatever the search reaches from a state passed over lies beyond it in this graph,
//! so it is passed over too, and it holds nothing a reported chain needs: the chains found,
//! and the order they are found in, stay the same (a unit test compares both searches).
//!
//! Candidates are sources ("on") and sinks ("off") of this graph, so they are left out of it:
//! the strongly connected components are those of the set digits, and a candidate `e` is
//! contradictory when some set digit whose every cell `e` sees reaches, off, a set digit whose
//! every cell `e` sees, on. Only candidates that two sets or more see that way are asked about:
//! a chain's two end sets do. The components' reach is carried as bits of the candidates those
//! "on" states see, 256 candidates to a pass. At most positions no candidate is
//! contradictory, and nothing more is built.

use super::Adjacency;
use crate::model::candset::CandSet;
use crate::model::cell::digits;
use crate::model::grid::Grid;
use crate::model::{Bits, Shape};
use crate::technique::chains::search::state;
use crate::technique::chains::walks::{Successors, components, on_walk};
use crate::technique::context::Als;

/// The words of candidate bits a component carries in one pass.
const PASS_WORDS: usize = 4;
/// The candidates one pass asks about.
const PER_PASS: usize = PASS_WORDS * 64;

/// The states of an ALS-XY-Chain search that some chain it reports may pass (see the
/// module's doc).
pub(super) struct ChainWalks {
    /// Per state of a set digit (`node * 2 + on`, a bit each): it may lie on such a walk;
    /// empty when no candidate is contradictory.
    on_walk: Vec<u64>,
    /// Per set, the node of its lowest digit (a set's digits are consecutive nodes).
    first: Vec<u32>,
}

impl ChainWalks {
    /// The walks of the position whose sets are `als`, linked by `adj`.
    pub(super) fn of<S: Shape>(grid: &Grid<S>, als: &[Als<S>], adj: &Adjacency<S>) -> ChainWalks {
        let mut first = Vec::with_capacity(als.len());
        // per node, its set and digit
        let mut nodes: Vec<(u32, u8)> = Vec::new();
        for (t, a) in als.iter().enumerate() {
            first.push(nodes.len() as u32);
            nodes.extend(digits(a.digits).map(|d| (t as u32, d)));
        }
        let node = |t: usize, d: u8| first[t] + rank(als[t].digits, d);
        let present = CandSet::of_grid(grid);
        let seeing = |x: usize| {
            let (t, d) = nodes[x];
            als[t as usize].seen_by(d) & present.cells(d)
        };
        let mut states = Successors::with_capacity(nodes.len() * 2);
        for (t, a) in als.iter().enumerate() {
            for d in digits(a.digits) {
                // off: the set's other digits on
                states.extend(
                    digits(a.digits)
                        .filter(|&x| x != d)
                        .map(|x| state(node(t, x), true)),
                );
                states.end_state();
                // on: `d` off in the sets it is a restricted common with
                states.extend(
                    adj.of(t)
                        .iter()
                        .filter(|l| l.rc.has(usize::from(d) - 1))
                        .map(|l| state(node(l.to as usize, d), false)),
                );
                states.end_state();
            }
        }
        let comp = components(&states);
        let (member_start, members) = comp.members();
        // the candidates a chain could remove, numbered: those seeing every cell of a digit
        // in two sets or more (a chain's two end sets)
        let slot = |cell, d: u8| S::bit_of(cell) * S::N + usize::from(d) - 1;
        let mut number = vec![0u32; S::CELLS * S::N];
        for x in 0..nodes.len() {
            for cell in seeing(x).iter() {
                let n = &mut number[slot(cell, nodes[x].1)];
                *n = (*n + 1).min(2);
            }
        }
        let mut count = 0;
        for n in &mut number {
            if *n == 2 {
                *n = count;
                count += 1;
            } else {
                *n = u32::MAX;
            }
        }
        let mut contradictory = CandSet::<S>::EMPTY;
        let mut reach = vec![[0u64; PASS_WORDS]; comp.count];
        for low in (0..count).step_by(PER_PASS) {
            // the bits of this pass's candidates that node `x` sees
            let bits = |x: usize| {
                let d = nodes[x].1;
                let mut b = [0u64; PASS_WORDS];
                for cell in seeing(x).iter() {
                    let k = number[slot(cell, d)].wrapping_sub(low) as usize;
                    if k < PER_PASS {
                        b[k / 64] |= 1 << (k % 64);
                    }
                }
                b
            };
            for c in 0..comp.count {
                let xs = &members[member_start[c] as usize..member_start[c + 1] as usize];
                let mut own = [0u64; PASS_WORDS];
                for &x in xs {
                    for &y in states.of(x as usize) {
                        let d = comp.of[y as usize] as usize;
                        if d != c {
                            or_into(&mut own, &reach[d]);
                        }
                    }
                    if x & 1 == 1 {
                        or_into(&mut own, &bits(x as usize / 2));
                    }
                }
                reach[c] = own;
                if own == [0; PASS_WORDS] {
                    continue;
                }
                // a candidate seeing an "off" state's cells and reached from it
                for &x in xs.iter().filter(|&&x| x & 1 == 0) {
                    let x = x as usize / 2;
                    let d = nodes[x].1;
                    for cell in seeing(x).iter() {
                        let k = number[slot(cell, d)].wrapping_sub(low) as usize;
                        if k < PER_PASS && own[k / 64] >> (k % 64) & 1 == 1 {
                            contradictory.insert(crate::model::grid::Candidate::new(cell, d));
                        }
                    }
                }
            }
        }
        if contradictory.is_empty() {
            return ChainWalks {
                on_walk: Vec::new(),
                first,
            };
        }
        // the walks start at the "off" states the contradictory candidates lead to
        let mut starts = vec![0u64; states.len().div_ceil(64)];
        for (x, &(_, d)) in nodes.iter().enumerate() {
            if !(seeing(x) & contradictory.cells(d)).is_empty() {
                let s = state(x as u32, false) as usize;
                starts[s / 64] |= 1 << (s % 64);
            }
        }
        ChainWalks {
            on_walk: on_walk(&states, &starts),
            first,
        }
    }

    /// Whether no candidate is contradictory: no chain at all.
    pub(super) fn none(&self) -> bool {
        self.on_walk.is_empty()
    }

    /// Whether digit `d` of `set` (with digits `set_digits`), on or off, may lie on a walk
    /// from a contradictory candidate to its opposite.
    #[inline]
    pub(super) fn passes<M: Bits>(&self, set: usize, set_digits: M, d: u8, on: bool) -> bool {
        let x = state(self.first[set] + rank(set_digits, d), on) as usize;
        self.on_walk
            .get(x / 64)
            .is_some_and(|w| w >> (x % 64) & 1 == 1)
    }
}

/// `into |= bits`, word by word.
#[inline]
fn or_into(into: &mut [u64; PASS_WORDS], bits: &[u64; PASS_WORDS]) {
    for (i, b) in into.iter_mut().zip(bits) {
        *i |= b;
    }
}

/// The rank of digit `d` among a set's digits.
#[inline]
fn rank<M: Bits>(set_digits: M, d: u8) -> u32 {
    set_digits.and(M::low(usize::from(d) - 1)).count()
}

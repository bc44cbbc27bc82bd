//! What a chaining search finds (SE's chaining hints), how SE measures it (the potentials its
//! chains rest on, nested chains included) and in which order SE takes them.

use std::cmp::Ordering;

use std::collections::HashMap;

use super::engine::{Advanced, Arena, Cause, KeySet, Node, cell_of, digit_of};
use crate::model::cell::{Cell, House};
use crate::model::grid::Candidate;
use crate::step::net::{BranchEnd, Implication, NetBranch, Reason};

/// The kind of a chaining hint, with the potentials its chains end in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An assumption (`src`, a key) leads to a potential both on (`dst_on`) and off
    /// (`dst_off`): a contradiction (`absurd`), or, when not absurd, the same conclusion from a
    /// candidate on and off (a double forcing chain, `dst_on` and `dst_off` being that
    /// conclusion reached both ways).
    Binary {
        src: u16,
        dst_on: u32,
        dst_off: u32,
        absurd: bool,
        nishio: bool,
    },
    /// Every value of a cell leads to the same potential.
    Cell { cell: u8 },
    /// Every place of a digit in a house leads to the same potential.
    Region { house: u8, digit: u8 },
    /// A bidirectional cycle (static).
    Cycle {
        dst_on: u32,
        dst_off: u32,
        x: bool,
        y: bool,
    },
    /// A forcing chain from a candidate to its own negation (static).
    Forcing { target: u32, x: bool, y: bool },
}

/// One hint of a chaining rule.
#[derive(Clone, Debug)]
pub(crate) struct Hint {
    pub kind: Kind,
    /// For cell and house hints, the chains' ends, one per value or place.
    pub targets: Vec<u32>,
    /// The candidates it removes, as SE lists them (cell by cell, digits in order).
    pub removals: Vec<u16>,
    /// The candidate it places, if its result is a potential on.
    pub placement: Option<u16>,
    /// SE's complexity: the potentials its chains rest on, nested chains' included.
    pub complexity: u32,
    /// Base plus SE's length bonus.
    pub difficulty: f64,
    /// The cell whose search found it.
    pub origin: u8,
}

impl Hint {
    /// The potentials the hint's chains end in, in SE's order (`getChainsTargets`).
    pub fn chain_targets(&self) -> Vec<u32> {
        chain_targets(&self.kind, &self.targets)
    }

    /// SE's tie-break between hints of the same difficulty and complexity.
    pub fn sort_key(&self) -> u8 {
        match self.kind {
            Kind::Binary { absurd: true, .. } => 7,
            Kind::Binary { .. } => 1,
            Kind::Cell { .. } => 5,
            Kind::Region { .. } => 6,
            Kind::Cycle { x, y, .. } | Kind::Forcing { x, y, .. } => match (x, y) {
                (true, true) => 4,
                (false, true) => 3,
                _ => 2,
            },
        }
    }

    /// SE's order: difficulty, then complexity, then the sort key (a stable sort keeps the
    /// order found among equals).
    pub fn order(&self, other: &Hint) -> Ordering {
        self.difficulty
            .partial_cmp(&other.difficulty)
            .unwrap_or(Ordering::Equal)
            .then(self.complexity.cmp(&other.complexity))
            .then(self.sort_key().cmp(&other.sort_key()))
    }
}

/// The potentials the chains of a hint of `kind` end in, in SE's order (`getChainsTargets`);
/// `targets` are a cell or house hint's.
pub(crate) fn chain_targets(kind: &Kind, targets: &[u32]) -> Vec<u32> {
    match *kind {
        Kind::Binary {
            dst_on, dst_off, ..
        }
        | Kind::Cycle {
            dst_on, dst_off, ..
        } => vec![dst_on, dst_off],
        Kind::Forcing { target, .. } => vec![target],
        Kind::Cell { .. } | Kind::Region { .. } => targets.to_vec(),
    }
}

/// A nested chain as the outer chain keeps it: its complexity, and what tells it apart from
/// another (SE's `FullChain`: the same targets, each resting on the same potentials in the
/// same order).
#[derive(Clone, Debug)]
pub(crate) struct Nested {
    pub complexity: u32,
    pub fingerprint: u64,
    /// Its proof, when the search was asked to keep proofs (for the step shown).
    pub proof: Option<NetBranch>,
}

/// SE's length bonus for a complexity: 0.1 each time `complexity - 2` passes 4, 6, 8, 12,
/// 16, 24, ... (alternately times 3/2 and 4/3), added up as SE adds it.
pub(crate) fn length_bonus(complexity: u32) -> f64 {
    let length = complexity as i64 - 2;
    let (mut added, mut ceil, mut odd) = (0.0f64, 4i64, false);
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// Scratch for measuring chains.
#[derive(Default)]
pub(crate) struct Meter {
    seen: KeySet,
    list: Vec<u32>,
}

impl Meter {
    /// SE's complexity of a hint whose chains end in `targets`: the distinct potentials each
    /// chain rests on (`flat`: one count per target, or only the first for a cycle), plus the
    /// complexity of every distinct nested chain they use.
    pub fn complexity(&mut self, arena: &Arena, kind: &Kind, targets: &[u32]) -> u32 {
        let flat_targets: &[u32] = match kind {
            Kind::Cycle { .. } => &targets[..1],
            _ => targets,
        };
        let mut total = 0;
        for &t in flat_targets {
            total += arena.ancestor_count(t, &mut self.seen, &mut self.list);
        }
        total + self.nested_complexity(arena, targets)
    }

    /// The complexity of the distinct nested chains under `targets`.
    fn nested_complexity(&mut self, arena: &Arena, targets: &[u32]) -> u32 {
        if arena.advanced.is_empty() {
            return 0;
        }
        let mut done: Vec<u64> = Vec::new();
        let mut total = 0;
        for &t in targets {
            arena.chain(t, &mut self.seen, &mut self.list);
            for &p in &self.list {
                if let Cause::Advanced(i) = arena.node(p).cause
                    && let Advanced::Chain(nested) = &arena.advanced[i as usize]
                    && !done.contains(&nested.fingerprint)
                {
                    done.push(nested.fingerprint);
                    total += nested.complexity;
                }
            }
        }
        total
    }

    /// SE's `FullChain` identity of a hint: its targets and the potentials each rests on, in
    /// order, hashed.
    pub fn fingerprint(&mut self, arena: &Arena, targets: &[u32]) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &t in targets {
            arena.chain(t, &mut self.seen, &mut self.list);
            h = mix(h, 0xffff_ffff);
            for &p in &self.list {
                h = mix(h, arena.node(p).key as u64);
            }
        }
        h
    }

    /// The potentials under `targets` as one branch of implications, parents first (a
    /// potential met under several targets appears once), and the index of each target's
    /// potential in it.
    pub fn implications(&mut self, arena: &Arena, targets: &[u32]) -> (Vec<Implication>, Vec<u16>) {
        let mut order: Vec<u32> = Vec::new();
        let mut index: HashMap<u16, u16> = HashMap::new();
        let mut rep: HashMap<u16, u32> = HashMap::new();
        let mut entered = std::collections::HashSet::new();
        for &t in targets {
            arena.chain(t, &mut self.seen, &mut self.list);
            for &p in &self.list {
                rep.entry(arena.node(p).key).or_insert(p);
            }
            // Depth first, each potential after its parents.
            let first = rep.get(&arena.node(t).key).copied().unwrap_or(t);
            // A target met before (the same conclusion reached from another assumption, as
            // in cell and house chains) is not listed again, but its own chain is.
            let again = !entered.insert(arena.node(first).key);
            let first = if again { t } else { first };
            let mut stack: Vec<(u32, usize)> = vec![(first, 0)];
            while let Some(&mut (p, ref mut next)) = stack.last_mut() {
                let parents = arena.parents(p);
                if *next < parents.len() {
                    let q = parents[*next];
                    *next += 1;
                    let k = arena.node(q).key;
                    if entered.insert(k) {
                        stack.push((rep.get(&k).copied().unwrap_or(q), 0));
                    }
                } else {
                    if !(again && p == first) {
                        index.insert(arena.node(p).key, order.len() as u16);
                        order.push(p);
                    }
                    stack.pop();
                }
            }
        }
        let implications = order
            .iter()
            .map(|&p| {
                let n = arena.node(p);
                let mut parents: Vec<u16> = Vec::new();
                for q in arena.parents(p) {
                    if let Some(&i) = index.get(&arena.node(*q).key)
                        && !parents.contains(&i)
                    {
                        parents.push(i);
                    }
                }
                Implication {
                    candidate: candidate(n.cand()),
                    on: n.on(),
                    reason: reason(arena, n),
                    parents,
                }
            })
            .collect();
        let ends = targets.iter().map(|t| index[&arena.node(*t).key]).collect();
        (implications, ends)
    }
}

/// A lapiz candidate of an index.
pub(crate) fn candidate(c: u16) -> Candidate {
    Candidate::new(Cell::new(cell_of(c) as u8), digit_of(c))
}

/// Why a potential holds, as a proof says it.
fn reason(arena: &Arena, n: &Node) -> Reason {
    let house = |h: u8| House::from_index(h);
    match n.cause {
        Cause::None => Reason::Assumption,
        Cause::Cell if n.on() => Reason::LastInCell,
        Cause::House(h) if n.on() => Reason::LastInHouse(house(h)),
        Cause::Cell | Cause::House(_) => Reason::Peer,
        Cause::Advanced(i) => match &arena.advanced[i as usize] {
            Advanced::Locked { base, cover, .. } => Reason::Locked(house(*base), house(*cover)),
            Advanced::HiddenPair { house: h, digits } => Reason::HiddenSubset(
                house(*h),
                (1..=9u8).filter(|d| digits >> (d - 1) & 1 != 0).collect(),
            ),
            Advanced::NakedPair { house: h, cells } => {
                Reason::NakedSubset(house(*h), cells.iter().map(|&c| Cell::new(c)).collect())
            }
            Advanced::XWing { bases, .. } => {
                Reason::Fish(bases.iter().map(|&b| house(b)).collect())
            }
            Advanced::Chain(nested) => {
                Reason::Nested(Box::new(nested.proof.clone().unwrap_or(NetBranch {
                    implications: Vec::new(),
                    end: BranchEnd::Conclusion,
                    end_parents: Vec::new(),
                })))
            }
        },
    }
}

#[inline]
fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x0100_0000_01b3).rotate_left(17)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_bonus_follows_se_steps() {
        // complexity - 2 passing 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256
        let cases = [
            (6, 0.0),
            (7, 0.1),
            (8, 0.1),
            (9, 0.2),
            (10, 0.2),
            (11, 0.3),
            (14, 0.3),
            (15, 0.4),
            (18, 0.4),
            (19, 0.5),
            (26, 0.5),
            (27, 0.6),
            (122, 1.0),
            (130, 1.0),
            (131, 1.1),
            (260, 1.3),
        ];
        for (c, b) in cases {
            assert!((length_bonus(c) - b).abs() < 1e-9, "complexity {c}");
        }
    }
}

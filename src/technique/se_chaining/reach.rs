//! Which candidates can start a static chain (forcing chain or cycle) with a hint on a
//! hypothetical grid, found without following each of them.
//!
//! One level down, the static chains run on a grid that the propagation above has made
//! smaller than the grid the whole search started from (the reference), where they found
//! nothing. A chain of the smaller grid that used only links the reference has would be a
//! chain of the reference too, so every chain with a hint uses a strong link the reference
//! lacks: a cell left with two values, or a digit left with two places in a house. Links are
//! symmetric under negation (`a` on makes `b` off exactly when `b` on makes `a` off, and the
//! same for strong links), so a start reaches a new strong link exactly when that link's end,
//! assumed on, reaches the start (on or off). A forcing chain or
//! cycle, which comes back to its start, goes through a new link `a`-`b` both ways round: its
//! part before the link, negated and reversed, leads from the link's first end to the start,
//! and its part after the link from the second end; so its start is reached from both ends
//! ([`Walks::loop_sources`]). Of those starts, only the ones whose own reach allows a hint
//! ([`Walks::hint_kinds`]) are followed SE's way. All are breadth-first passes on bitsets,
//! without paths.

use super::engine::Board;
use crate::model::cell::{Cell, House};
use crate::model::cellset::CellSet;

/// A forcing chain from a start on to its off (a contradiction): see [`Walks::hint_kinds`].
pub(crate) const CONTRADICTION: u8 = 1;
/// A forcing chain from a start off to its on.
pub(crate) const FROM_OFF: u8 = 2;
/// A cycle through a start, with a removal.
pub(crate) const CYCLE: u8 = 4;

/// A set of candidate indices (729 bits).
pub(crate) type CandSet = [u64; 12];

/// Whether candidate index `c` is in `set`.
#[inline]
pub(crate) fn contains(set: &CandSet, c: u16) -> bool {
    set[c as usize / 64] >> (c % 64) & 1 != 0
}

/// The candidates of `set`, in order.
pub(crate) fn members(set: &CandSet) -> impl Iterator<Item = u16> + '_ {
    set.iter().enumerate().flat_map(|(w, &bits)| {
        let mut rest = bits;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let b = rest.trailing_zeros();
                rest &= rest - 1;
                (w * 64) as u16 + b as u16
            })
        })
    })
}

/// Per-digit cell sets as one set of candidates.
fn to_cand_set(per_digit: &[u128; 9]) -> CandSet {
    let mut out: CandSet = [0; 12];
    for (d, &cells) in per_digit.iter().enumerate() {
        for cell in CellSet::from_bits(cells) {
            let i = cell.index() * 9 + d;
            out[i / 64] |= 1 << (i % 64);
        }
    }
    out
}

/// The cells that see one of `cells`.
fn peers_of(cells: u128) -> u128 {
    CellSet::from_bits(cells)
        .iter()
        .fold(0, |out, cell| out | cell.peers().bits())
}

/// The static links of one grid, for one kind of chain (cell links `y`, house links `x`).
pub(crate) struct Graph<'a> {
    board: &'a Board,
    y: bool,
    x: bool,
    /// Cells with two values.
    bivalue: u128,
    /// Per digit and cell, the digit's other place in each house where it has two.
    partner: Box<[[u128; 81]; 9]>,
}

impl<'a> Graph<'a> {
    /// The links of `board`.
    pub fn new(board: &'a Board, y: bool, x: bool) -> Graph<'a> {
        let mut bivalue = 0u128;
        for (cell, &m) in board.cands.iter().enumerate() {
            bivalue |= ((m.count_ones() == 2) as u128) << cell;
        }
        let mut partner = Box::new([[0u128; 81]; 9]);
        if x {
            for h in 0..27u8 {
                let hc = House::from_index(h).cells().bits();
                for d in 0..9 {
                    let here = board.digits[d] & hc;
                    if here.count_ones() == 2 {
                        let a = here.trailing_zeros() as usize;
                        let b = (here & (here - 1)).trailing_zeros() as usize;
                        partner[d][a] |= 1 << b;
                        partner[d][b] |= 1 << a;
                    }
                }
            }
        }
        Graph {
            board,
            y,
            x,
            bivalue,
            partner,
        }
    }

    /// The strong links of the board that `reference` (a grid the board is part of) lacks,
    /// as pairs of (cell, 0-based digit) ends.
    fn new_links(&self, reference: &Board) -> Vec<[(usize, usize); 2]> {
        let board = self.board;
        let mut links = Vec::new();
        if self.y {
            for cell in 0..81 {
                let (m, r) = (board.cands[cell], reference.cands[cell]);
                if m.count_ones() == 2 && r.count_ones() != 2 {
                    let a = m.trailing_zeros() as usize;
                    let b = (m & (m - 1)).trailing_zeros() as usize;
                    links.push([(cell, a), (cell, b)]);
                }
            }
        }
        if self.x {
            for h in 0..27u8 {
                let hc = House::from_index(h).cells().bits();
                for d in 0..9 {
                    let here = board.digits[d] & hc;
                    if here.count_ones() == 2 && (reference.digits[d] & hc).count_ones() != 2 {
                        let a = here.trailing_zeros() as usize;
                        let b = (here & (here - 1)).trailing_zeros() as usize;
                        links.push([(a, d), (b, d)]);
                    }
                }
            }
        }
        links
    }

    /// Everything `digit` (0-based) in `cell`, assumed on, reaches: the potentials on and
    /// off, per digit.
    fn walk(&self, cell: usize, digit: usize) -> ([u128; 9], [u128; 9]) {
        let board = self.board;
        let mut on = [0u128; 9];
        let mut off = [0u128; 9];
        on[digit] = 1 << cell;
        let mut frontier = on;
        let mut new_off = [0u128; 9];
        loop {
            // On to off: the digit's peers, and (cell links) the cell's other values.
            for d in 0..9 {
                let mut f = frontier[d];
                let mut seen = 0u128;
                while f != 0 {
                    seen |= Cell::new(f.trailing_zeros() as u8).peers().bits();
                    f &= f - 1;
                }
                new_off[d] |= seen & board.digits[d];
            }
            if self.y {
                let others = others_than(&frontier);
                for d in 0..9 {
                    new_off[d] |= others[d] & board.digits[d];
                }
            }
            let mut any = false;
            for d in 0..9 {
                new_off[d] &= !off[d];
                off[d] |= new_off[d];
                any |= new_off[d] != 0;
            }
            if !any {
                break;
            }
            // Off to on: the other value of a cell with two, the other place of a house with
            // two.
            let mut new_on = [0u128; 9];
            if self.y {
                let others = others_than(&new_off);
                for d in 0..9 {
                    new_on[d] |= others[d] & self.bivalue & board.digits[d];
                }
            }
            if self.x {
                for d in 0..9 {
                    let mut f = new_off[d];
                    while f != 0 {
                        new_on[d] |= self.partner[d][f.trailing_zeros() as usize];
                        f &= f - 1;
                    }
                }
            }
            let mut any = false;
            for d in 0..9 {
                new_on[d] &= !on[d];
                on[d] |= new_on[d];
                any |= new_on[d] != 0;
            }
            if !any {
                break;
            }
            frontier = new_on;
            new_off = [0u128; 9];
        }
        (on, off)
    }
}

/// Per digit, the cells where `sets` holds another digit.
#[inline]
fn others_than(sets: &[u128; 9]) -> [u128; 9] {
    let mut out = [0u128; 9];
    let mut before = 0u128;
    for d in 0..9 {
        out[d] = before;
        before |= sets[d];
    }
    let mut after = 0u128;
    for d in (0..9).rev() {
        out[d] |= after;
        after |= sets[d];
    }
    out
}

/// What each candidate, assumed on, reaches on one graph: walked once, kept for every
/// question about it (a start's own hints, a candidate off, which reaches what its strong
/// partners on reach, a cell's values or a house's places as branches).
pub(crate) struct Walks<'g, 'a> {
    graph: &'g Graph<'a>,
    /// Per candidate, its walk's index in `reached` (or `u16::MAX`).
    slot: [u16; 729],
    reached: Vec<([u128; 9], [u128; 9])>,
    /// The cells with more than one value (an on potential there removes something).
    several: u128,
}

impl<'g, 'a> Walks<'g, 'a> {
    /// No walk made yet.
    pub fn new(graph: &'g Graph<'a>) -> Walks<'g, 'a> {
        let mut several = 0u128;
        for (cell, &m) in graph.board.cands.iter().enumerate() {
            several |= ((m.count_ones() > 1) as u128) << cell;
        }
        Walks {
            graph,
            slot: [u16::MAX; 729],
            reached: Vec::with_capacity(64),
            several,
        }
    }

    /// The potentials on and off (per digit) `digit` (0-based) in `cell` reaches on.
    fn on(&mut self, cell: usize, digit: usize) -> &([u128; 9], [u128; 9]) {
        let c = cell * 9 + digit;
        if self.slot[c] == u16::MAX {
            self.slot[c] = self.reached.len() as u16;
            self.reached.push(self.graph.walk(cell, digit));
        }
        &self.reached[self.slot[c] as usize]
    }

    /// The candidates worth starting static forcing chains and cycles from, given that
    /// `reference` (a grid the board is part of) has none with a hint: those both ends of a
    /// new strong link reach.
    pub fn loop_sources(&mut self, reference: &Board) -> CandSet {
        let mut met = [0u128; 9];
        for [a, b] in self.graph.new_links(reference) {
            let (a_on, a_off) = *self.on(a.0, a.1);
            let (b_on, b_off) = self.on(b.0, b.1);
            for d in 0..9 {
                met[d] |= (a_on[d] | a_off[d]) & (b_on[d] | b_off[d]);
            }
        }
        to_cand_set(&met)
    }

    /// Which static chain hints a start (`digit` 0-based in `cell`) can have (a sound test:
    /// a kind left out means SE's search from it finds none of it). A forcing chain from it
    /// on ([`CONTRADICTION`]) needs its off reached; from it off ([`FROM_OFF`]), its on
    /// reached from its off. A cycle through it ([`CYCLE`]) needs a strong partner of it (what
    /// turns it on when off) turned off by a potential on other than itself, and a removal: a
    /// candidate seeing a potential on and one off of its digit, both on the cycle. A
    /// potential on the cycle is reached from the start on and reaches it back, which (links
    /// being symmetric under negation) means its negation is reached from the start off.
    pub fn hint_kinds(&mut self, cell: usize, digit: usize) -> u8 {
        let graph = self.graph;
        let board = graph.board;
        let (on, off) = *self.on(cell, digit);
        let mut kinds = 0;
        if off[digit] >> cell & 1 != 0 {
            kinds |= CONTRADICTION;
        }
        let mut partners: [(usize, usize); 4] = [(0, 0); 4];
        let mut n = 0;
        if graph.y && graph.bivalue >> cell & 1 != 0 {
            partners[n] = (
                cell,
                (board.cands[cell] & !(1 << digit)).trailing_zeros() as usize,
            );
            n += 1;
        }
        let mut rest = graph.partner[digit][cell];
        while rest != 0 {
            partners[n] = (rest.trailing_zeros() as usize, digit);
            n += 1;
            rest &= rest - 1;
        }
        if n == 0 {
            // Neither a chain from it off nor a cycle can come back to it.
            return kinds;
        }
        // Off, it makes its strong partners on: it reaches what they reach.
        let mut on_from_off = [0u128; 9];
        let mut off_from_off = [0u128; 9];
        off_from_off[digit] = 1 << cell;
        for &(pc, pd) in &partners[..n] {
            let (p_on, p_off) = self.on(pc, pd);
            for d in 0..9 {
                on_from_off[d] |= p_on[d];
                off_from_off[d] |= p_off[d];
            }
        }
        if on_from_off[digit] >> cell & 1 != 0 {
            kinds |= FROM_OFF;
        }
        // The potentials on other than the start.
        let mut later = on;
        later[digit] &= !(1u128 << cell);
        let closes = partners[..n].iter().any(|&(pc, pd)| {
            later[pd] & Cell::new(pc as u8).peers().bits() != 0
                || (graph.y && (0..9).any(|f| f != pd && later[f] >> pc & 1 != 0))
        });
        if closes
            && (0..9).any(|d| {
                let (cycle_on, cycle_off) = (on[d] & off_from_off[d], off[d] & on_from_off[d]);
                cycle_on != 0
                    && cycle_off != 0
                    && board.digits[d] & peers_of(cycle_on) & peers_of(cycle_off) != 0
            })
        {
            kinds |= CYCLE;
        }
        kinds
    }

    /// Whether the branches of `group` (each candidate assumed on) can all reach a
    /// potential that removes something: one off, or one on in a cell with other values (a
    /// sound test: `false` means no cell or house chain of the group has a hint).
    pub fn may_meet(&mut self, group: impl Iterator<Item = u16>) -> bool {
        let mut on = [!0u128; 9];
        let mut off = [!0u128; 9];
        let several = self.several;
        for c in group {
            let (w_on, w_off) = self.on(c as usize / 9, c as usize % 9);
            let mut any = 0u128;
            for d in 0..9 {
                on[d] &= w_on[d];
                off[d] &= w_off[d];
                any |= off[d] | on[d] & several;
            }
            if any == 0 {
                return false;
            }
        }
        true
    }
}

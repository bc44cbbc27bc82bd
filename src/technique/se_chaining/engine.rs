//! The potentials, the board they are followed on, and the propagation of one assumption, as
//! Sudoku Explainer follows it (see [`super`] for the rules it reproduces).
//!
//! Data layout:
//!
//! ```text
//! Board      cands[81]: u16, bit d-1 = digit d still possible; values[81]: 0 or the digit
//! key        cand * 2 + on, cand = cell * 9 + (digit - 1)        (0 .. 1458)
//! Arena      nodes: [Node]  one per potential made, in the order it was made
//!            parents: [u32] every node's parents, a slice per node (its first parent is the
//!                           one it was deduced from, the others are "hidden" parents)
//! PotSet     one polarity's potentials of one propagation: by cand (index into nodes, or
//!            NONE) and in the order they were added
//! ```
//!
//! SE compares potentials by candidate and polarity only, so two nodes with one key are the
//! same potential wherever ancestors are counted.

use crate::model::cell::{Cell, House};

/// No node.
pub(crate) const NONE: u32 = u32::MAX;

/// The nine cells of each house by lapiz house index (rows 0..9, columns 9..18, boxes
/// 18..27), in SE's order within the house (boxes row by row).
pub(crate) const HOUSE_CELLS: [[u8; 9]; 27] = {
    let mut a = [[0u8; 9]; 27];
    let mut h = 0;
    while h < 27 {
        let list = House::from_index(h as u8).cell_list();
        let mut i = 0;
        while i < 9 {
            a[h][i] = list[i].index() as u8;
            i += 1;
        }
        h += 1;
    }
    a
};

/// The houses of each cell in SE's order: box, row, column.
pub(crate) const CELL_HOUSES: [[u8; 3]; 81] = {
    let mut a = [[0u8; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let c = Cell::new(i as u8);
        a[i] = [18 + c.box_index(), c.row(), 9 + c.col()];
        i += 1;
    }
    a
};

/// Candidate index of `digit` (1..=9) in `cell`.
#[inline]
pub(crate) const fn cand(cell: usize, digit: u8) -> u16 {
    (cell * 9 + digit as usize - 1) as u16
}

/// The key of a candidate with a polarity.
#[inline]
pub(crate) const fn key(cand: u16, on: bool) -> u16 {
    cand * 2 + on as u16
}

/// The cell of a candidate index.
#[inline]
pub(crate) const fn cell_of(cand: u16) -> usize {
    cand as usize / 9
}

/// The digit (1..=9) of a candidate index.
#[inline]
pub(crate) const fn digit_of(cand: u16) -> u8 {
    (cand % 9) as u8 + 1
}

/// SE's grid: the values and the candidates still possible (by cell, and by digit).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Board {
    pub cands: [u16; 81],
    pub values: [u8; 81],
    /// Per digit (0-based), the cells where it is still possible (bit = cell index).
    pub digits: [u128; 9],
    /// The cells without a value.
    pub empty: u128,
    /// Per digit (0-based), how many cells hold it.
    pub value_counts: [u8; 9],
}

impl Board {
    /// The board of a lapiz grid.
    pub fn of(grid: &crate::model::grid::Grid) -> Board {
        let mut cands = [0u16; 81];
        let mut values = [0u8; 81];
        let mut digits = [0u128; 9];
        for cell in Cell::all() {
            let i = cell.index();
            values[i] = grid.value(cell);
            if values[i] == 0 {
                cands[i] = grid.candidates(cell);
                for (d, bits) in digits.iter_mut().enumerate() {
                    *bits |= ((cands[i] >> d & 1) as u128) << i;
                }
            }
        }
        let mut empty = 0u128;
        let mut value_counts = [0u8; 9];
        for (i, &v) in values.iter().enumerate() {
            if v == 0 {
                empty |= 1 << i;
            } else {
                value_counts[v as usize - 1] += 1;
            }
        }
        Board {
            cands,
            values,
            digits,
            empty,
            value_counts,
        }
    }

    #[inline]
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.cands[cell] >> (digit - 1) & 1 != 0
    }

    #[inline]
    pub fn remove(&mut self, c: u16) {
        let (cell, d) = (cell_of(c), digit_of(c) - 1);
        self.cands[cell] &= !(1 << d);
        self.digits[d as usize] &= !(1u128 << cell);
    }

    /// The cells of house `h` where `digit` is still possible.
    #[inline]
    pub fn places(&self, h: usize, digit: u8) -> u128 {
        self.digits[digit as usize - 1] & House::from_index(h as u8).cells().bits()
    }

    /// The positions (bit i = the house's i-th cell) of `digit` in house `h`.
    #[inline]
    pub fn positions(&self, h: usize, digit: u8) -> u16 {
        let m = self.digits[digit as usize - 1];
        match h {
            0..9 => (m >> (9 * h) & 0x1ff) as u16,
            9..18 => {
                let mut rest = m & House::from_index(h as u8).cells().bits();
                let mut pos = 0u16;
                while rest != 0 {
                    pos |= 1 << (rest.trailing_zeros() / 9);
                    rest &= rest - 1;
                }
                pos
            }
            _ => {
                let b = h - 18;
                let base = 27 * (b / 3) + 3 * (b % 3);
                ((m >> base & 7) | (m >> (base + 9) & 7) << 3 | (m >> (base + 18) & 7) << 6) as u16
            }
        }
    }
}

/// Why a potential holds (SE's `Potential.Cause`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cause {
    /// An assumption (no cause).
    None,
    /// The cell: its only value left (on), or another value of a cell that is on (off).
    Cell,
    /// A house (lapiz index): the digit's last place left (on), or another place of the digit
    /// in a house where it is on (off).
    House(u8),
    /// Removed by another rule on the hypothetical grid: index into [`Arena::advanced`].
    Advanced(u32),
}

/// One potential: a candidate on or off, why, and what it rests on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub key: u16,
    pub cause: Cause,
    start: u32,
    len: u32,
}

impl Node {
    #[inline]
    pub fn cand(&self) -> u16 {
        self.key >> 1
    }
    #[inline]
    pub fn on(&self) -> bool {
        self.key & 1 != 0
    }
}

/// What another rule used on the hypothetical grid was: kept for the proof and, for a nested
/// chain, for the length SE counts.
#[derive(Clone, Debug)]
pub(crate) enum Advanced {
    /// Locked candidates: the digit's places in the first house lie in the second.
    Locked { base: u8, cover: u8 },
    /// A hidden pair of these digits (mask) in the house.
    HiddenPair { house: u8, digits: u16 },
    /// A naked pair in these two cells of the house.
    NakedPair { house: u8, cells: [u8; 2] },
    /// An X-Wing on the digit with these base lines.
    XWing { bases: [u8; 2] },
    /// A forcing chain one level down.
    Chain(Box<super::hints::Nested>),
}

/// Every potential made while following assumptions, with their parents.
#[derive(Default)]
pub(crate) struct Arena {
    pub nodes: Vec<Node>,
    parents: Vec<u32>,
    pub advanced: Vec<Advanced>,
}

impl Arena {
    /// Forgets everything (keeping the memory).
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.parents.clear();
        self.advanced.clear();
    }

    /// A new node.
    #[inline]
    pub fn push(&mut self, key: u16, cause: Cause, parents: &[u32]) -> u32 {
        let start = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.nodes.push(Node {
            key,
            cause,
            start,
            len: parents.len() as u32,
        });
        (self.nodes.len() - 1) as u32
    }

    /// A new node whose parents are `first` and then those `more` lists.
    #[inline]
    pub fn push_with(&mut self, key: u16, cause: Cause, first: u32, more: &[u32]) -> u32 {
        let start = self.parents.len() as u32;
        self.parents.push(first);
        self.parents.extend_from_slice(more);
        self.nodes.push(Node {
            key,
            cause,
            start,
            len: 1 + more.len() as u32,
        });
        (self.nodes.len() - 1) as u32
    }

    #[inline]
    pub fn node(&self, n: u32) -> &Node {
        &self.nodes[n as usize]
    }

    #[inline]
    pub fn parents(&self, n: u32) -> &[u32] {
        let node = &self.nodes[n as usize];
        &self.parents[node.start as usize..(node.start + node.len) as usize]
    }

    /// Whether a potential with `key` lies on the first-parent path above `child` (SE's
    /// `isParent`).
    pub fn is_parent(&self, child: u32, key: u16) -> bool {
        let mut p = child;
        while let Some(&q) = self.parents(p).first() {
            p = q;
            if self.nodes[p as usize].key == key {
                return true;
            }
        }
        false
    }

    /// SE's `getChain`: the distinct potentials (by key) above `target`, target first,
    /// breadth first; a key met again is not followed again.
    pub fn chain(&self, target: u32, seen: &mut KeySet, out: &mut Vec<u32>) {
        seen.clear();
        out.clear();
        let mut level = vec![target];
        let mut next = Vec::new();
        while !level.is_empty() {
            next.clear();
            for &p in &level {
                if seen.insert(self.nodes[p as usize].key) {
                    out.push(p);
                    next.extend_from_slice(self.parents(p));
                }
            }
            std::mem::swap(&mut level, &mut next);
        }
    }

    /// SE's `getAncestorCount`: how many distinct potentials (by key) `target` rests on, itself
    /// included.
    pub fn ancestor_count(&self, target: u32, seen: &mut KeySet, scratch: &mut Vec<u32>) -> u32 {
        self.chain(target, seen, scratch);
        scratch.len() as u32
    }
}

/// A set of keys (1,458 bits).
#[derive(Clone, Default)]
pub(crate) struct KeySet([u64; 23]);

impl KeySet {
    #[inline]
    pub fn clear(&mut self) {
        self.0 = [0; 23];
    }
    /// Adds `k`; whether it was new.
    #[inline]
    pub fn insert(&mut self, k: u16) -> bool {
        let (w, b) = (k as usize / 64, k % 64);
        let new = self.0[w] >> b & 1 == 0;
        self.0[w] |= 1 << b;
        new
    }
}

/// One polarity's potentials of a propagation (SE's `LinkedSet`): by candidate, and in the
/// order they were added.
#[derive(Clone)]
pub(crate) struct PotSet {
    map: Vec<u32>,
    /// The nodes, in the order they were added.
    pub order: Vec<u32>,
    cands: Vec<u16>,
}

impl Default for PotSet {
    fn default() -> Self {
        PotSet {
            map: vec![NONE; 729],
            order: Vec::new(),
            cands: Vec::new(),
        }
    }
}

impl PotSet {
    /// Empties the set.
    pub fn clear(&mut self) {
        for &c in &self.cands {
            self.map[c as usize] = NONE;
        }
        self.order.clear();
        self.cands.clear();
    }

    #[inline]
    pub fn get(&self, c: u16) -> Option<u32> {
        let n = self.map[c as usize];
        (n != NONE).then_some(n)
    }

    #[inline]
    pub fn contains(&self, c: u16) -> bool {
        self.map[c as usize] != NONE
    }

    /// Adds node `n` for candidate `c` unless the candidate is there already.
    #[inline]
    pub fn add(&mut self, c: u16, n: u32) {
        if self.map[c as usize] == NONE {
            self.map[c as usize] = n;
            self.order.push(n);
            self.cands.push(c);
        }
    }

    /// The candidates, in the order they were added.
    pub fn cands(&self) -> &[u16] {
        &self.cands
    }

    /// A copy of `other` (same nodes, same order).
    pub fn copy_from(&mut self, other: &PotSet) {
        self.clear();
        for (&n, &c) in other.order.iter().zip(&other.cands) {
            self.add(c, n);
        }
    }

    /// Keeps only the candidates `other` has too, in this set's order.
    pub fn retain_in(&mut self, other: &PotSet) {
        let mut w = 0;
        for r in 0..self.order.len() {
            let c = self.cands[r];
            if other.contains(c) {
                self.order[w] = self.order[r];
                self.cands[w] = c;
                w += 1;
            } else {
                self.map[c as usize] = NONE;
            }
        }
        self.order.truncate(w);
        self.cands.truncate(w);
    }
}

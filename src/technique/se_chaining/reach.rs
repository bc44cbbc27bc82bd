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
//! assumed on, reaches the start (on or off). The starts worth following are therefore the
//! candidates the new links' ends reach, found by one breadth-first pass per end, on bitsets.

use super::engine::{Board, CELL_HOUSES, HOUSE_CELLS};
use crate::geometry::{Cell, House};

/// A set of candidate indices (729 bits).
pub(crate) type CandSet = [u64; 12];

/// Whether candidate index `c` is in `set`.
#[inline]
pub(crate) fn contains(set: &CandSet, c: u16) -> bool {
    set[c as usize / 64] >> (c % 64) & 1 != 0
}

/// The candidates worth starting static chains from on `board` (cell links `y`, house links
/// `x`), given that `reference` (a superset of `board`) has no chain with a hint.
#[inline(never)]
pub(crate) fn sources(board: &Board, reference: &Board, y: bool, x: bool) -> CandSet {
    let mut bits = [0u128; 9];
    let mut ref_bits = [0u128; 9];
    for cell in 0..81 {
        for d in 0..9 {
            bits[d] |= ((board.cands[cell] >> d & 1) as u128) << cell;
            ref_bits[d] |= ((reference.cands[cell] >> d & 1) as u128) << cell;
        }
    }
    let mut ends: Vec<(usize, usize)> = Vec::new();
    if y {
        for cell in 0..81 {
            let (m, r) = (board.cands[cell], reference.cands[cell]);
            if m.count_ones() == 2 && r.count_ones() != 2 {
                for d in 0..9 {
                    if m >> d & 1 != 0 {
                        ends.push((cell, d));
                    }
                }
            }
        }
    }
    if x {
        for h in 0..27 {
            let hc = House::from_index(h as u8).cells().bits();
            for d in 0..9 {
                let here = bits[d] & hc;
                if here.count_ones() == 2 && (ref_bits[d] & hc).count_ones() != 2 {
                    let mut rest = here;
                    while rest != 0 {
                        let cell = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        ends.push((cell, d));
                    }
                }
            }
        }
    }
    let mut out: CandSet = [0; 12];
    let mut seen_on = [0u128; 9];
    for (cell, d) in ends {
        if seen_on[d] >> cell & 1 != 0 {
            // Already reached on from an earlier end: everything it reaches is in.
            continue;
        }
        let (on, off) = reach(board, &bits, y, x, cell, d);
        for e in 0..9 {
            seen_on[e] |= on[e];
            let mut any = on[e] | off[e];
            while any != 0 {
                let c = any.trailing_zeros() as usize;
                any &= any - 1;
                let i = c * 9 + e;
                out[i / 64] |= 1 << (i % 64);
            }
        }
    }
    out
}

/// Everything `digit` (0-based) in `cell`, assumed on, reaches on the static links of the
/// grid (`bits`: cells per digit).
fn reach(
    board: &Board,
    bits: &[u128; 9],
    y: bool,
    x: bool,
    cell: usize,
    digit: usize,
) -> ([u128; 9], [u128; 9]) {
    let (on, off, _) = walk(board, bits, y, x, cell, digit, true);
    (on, off)
}

/// Everything `digit` (0-based) in `cell`, assumed on (`start_on`) or off, reaches on the
/// static links of the grid: the potentials on, off, and on other than the start.
fn walk(
    board: &Board,
    bits: &[u128; 9],
    y: bool,
    x: bool,
    cell: usize,
    digit: usize,
    start_on: bool,
) -> ([u128; 9], [u128; 9], [u128; 9]) {
    let mut on = [0u128; 9];
    let mut off = [0u128; 9];
    let mut later_on = [0u128; 9];
    let mut frontier = [0u128; 9];
    let mut first = true;
    if start_on {
        on[digit] = 1 << cell;
        frontier = on;
    }
    loop {
        // On to off: the digit's peers, and (cell links) the cell's other values.
        let mut new_off = [0u128; 9];
        for d in 0..9 {
            let mut f = frontier[d];
            while f != 0 {
                let c = f.trailing_zeros() as usize;
                f &= f - 1;
                new_off[d] |= Cell::new(c as u8).peers().bits() & bits[d];
                if y {
                    let others = board.cands[c] & !(1 << d);
                    for e in 0..9 {
                        if others >> e & 1 != 0 {
                            new_off[e] |= 1 << c;
                        }
                    }
                }
            }
        }
        if !start_on && first {
            new_off[digit] |= 1 << cell;
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
        // Off to on: the other value of a cell with two, the other place of a house with two.
        let mut new_on = [0u128; 9];
        for d in 0..9 {
            let mut f = new_off[d];
            while f != 0 {
                let c = f.trailing_zeros() as usize;
                f &= f - 1;
                if y && board.cands[c].count_ones() == 2 {
                    let e = (board.cands[c] & !(1 << d)).trailing_zeros() as usize;
                    new_on[e] |= 1 << c;
                }
                if x {
                    for &h in &CELL_HOUSES[c] {
                        let hc = House::from_index(h).cells().bits();
                        let here = bits[d] & hc;
                        if here.count_ones() == 2 {
                            new_on[d] |= here & !(1 << c);
                        }
                    }
                }
            }
        }
        let mut any = false;
        for d in 0..9 {
            new_on[d] &= !on[d];
            on[d] |= new_on[d];
            later_on[d] |= new_on[d];
            any |= new_on[d] != 0;
        }
        first = false;
        if !any {
            break;
        }
        frontier = new_on;
    }
    let _ = HOUSE_CELLS;
    (on, off, later_on)
}

/// Whether a start can have a static chain hint at all (a sound test: `false` means the
/// breadth-first search from it finds nothing). A forcing chain from it on needs its off
/// reached; from it off, its on reached from its off; a cycle needs a strong partner of it
/// (what turns it on when off) turned off by a potential on other than itself.
pub(crate) fn may_have_hint(board: &Board, y: bool, x: bool, cell: usize, digit: usize) -> bool {
    let bits = &board.digits;
    let (_, off, later_on) = walk(board, bits, y, x, cell, digit, true);
    if off[digit] >> cell & 1 != 0 {
        return true;
    }
    // The start's strong partners: (cell, digit) pairs.
    let mut partners: [(usize, usize); 4] = [(0, 0); 4];
    let mut n = 0;
    if y && board.cands[cell].count_ones() == 2 {
        partners[n] = (
            cell,
            (board.cands[cell] & !(1 << digit)).trailing_zeros() as usize,
        );
        n += 1;
    }
    if x {
        for &h in &CELL_HOUSES[cell] {
            let here = bits[digit] & House::from_index(h).cells().bits();
            if here.count_ones() == 2 {
                let other = (here & !(1u128 << cell)).trailing_zeros() as usize;
                if !partners[..n].contains(&(other, digit)) {
                    partners[n] = (other, digit);
                    n += 1;
                }
            }
        }
    }
    if n == 0 {
        return false;
    }
    let cycle = partners[..n].iter().any(|&(pc, pd)| {
        later_on[pd] & Cell::new(pc as u8).peers().bits() != 0
            || (y && (0..9).any(|f| f != pd && later_on[f] >> pc & 1 != 0))
    });
    if cycle {
        return true;
    }
    let (on_from_off, _, _) = walk(board, bits, y, x, cell, digit, false);
    on_from_off[digit] >> cell & 1 != 0
}

//! How one potential implies others, as SE links them (on to off, off to on, and the parents a
//! rule one level down needed removed), and the single chains built from those links: unary
//! chains, cycles and forcing chains.

use std::collections::VecDeque;

use super::chaining::{Depth, Rule, conclusion};
use super::engine::{
    Arena, Board, CELL_HOUSES, Cause, HOUSE_CELLS, KeySet, NONE, PotSet, cand, cell_of, digit_of,
    key,
};
use super::hints::{Hint, Kind};
use super::reach;
use crate::model::cell::House;

/// SE's `getRuleParents` of a chaining hint used one level down: for every potential on in
/// its chains, the candidates (removed since `save`) its cell or house needed gone.
#[inline(never)]
pub(super) fn rule_parents(
    arena: &Arena,
    hint: &Hint,
    save: &Board,
    board: &Board,
    seen: &mut KeySet,
) -> Vec<u16> {
    let mut result: Vec<u16> = Vec::new();
    let mut added = [0u64; 12];
    let mut add = |c: u16, result: &mut Vec<u16>| {
        let (w, b) = (c as usize / 64, c % 64);
        if added[w] >> b & 1 == 0 {
            added[w] |= 1 << b;
            result.push(c);
        }
    };
    for t in hint.chain_targets() {
        seen.clear();
        let mut level = vec![t];
        let mut next = Vec::new();
        while !level.is_empty() {
            next.clear();
            for &p in &level {
                let node = *arena.node(p);
                if !seen.insert(node.key) {
                    continue;
                }
                let cause = match (node.cause, hint.kind) {
                    (Cause::None, Kind::Cell { .. }) => Cause::Cell,
                    (Cause::None, Kind::Region { house, .. }) => Cause::House(house),
                    (cause, _) => cause,
                };
                if node.on() {
                    let (cell, d) = (cell_of(node.cand()), digit_of(node.cand()));
                    match cause {
                        Cause::Cell => {
                            let gone = save.cands[cell] & !board.cands[cell];
                            for v in 1..=9u8 {
                                if gone >> (v - 1) & 1 != 0 {
                                    add(cand(cell, v), &mut result);
                                }
                            }
                        }
                        Cause::House(h) => {
                            for &c in &HOUSE_CELLS[h as usize] {
                                let c = c as usize;
                                if save.has(c, d) && !board.has(c, d) {
                                    add(cand(c, d), &mut result);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                next.extend_from_slice(arena.parents(p));
            }
            std::mem::swap(&mut level, &mut next);
        }
    }
    result
}

/// The off potentials a potential on makes (SE's `getOnToOff`), in SE's order: the cell's
/// other values (with cell links), then the digit's other places in its box, row and column.
pub(super) fn on_to_off(board: &Board, c: u16, y: bool, out: &mut Vec<(u16, Cause)>) {
    out.clear();
    let (cell, d) = (cell_of(c), digit_of(c));
    if y {
        for v in 1..=9u8 {
            if v != d && board.has(cell, v) {
                out.push((cand(cell, v), Cause::Cell));
            }
        }
    }
    let all = board.digits[d as usize - 1] & !(1u128 << cell);
    let mut done = 0u128;
    for &h in &CELL_HOUSES[cell] {
        let mut here = all & House::from_index(h).cells().bits() & !done;
        done |= here;
        while here != 0 {
            let o = here.trailing_zeros() as usize;
            here &= here - 1;
            out.push((cand(o, d), Cause::House(h)));
        }
    }
}

/// The on potentials a potential off makes (SE's `getOffToOn`): the cell's other value when
/// two are left (with cell links), the digit's other place in a house with two left; each
/// resting on the potential and, when `hidden` gives the start of a dynamic propagation, on
/// the removals since then that left the cell or house with two.
pub(super) fn off_to_on(
    arena: &mut Arena,
    board: &Board,
    hidden: Option<(&Board, &PotSet)>,
    p: u32,
    y: bool,
    x: bool,
    out: &mut Vec<u32>,
) {
    out.clear();
    let c = arena.node(p).cand();
    let (cell, d) = (cell_of(c), digit_of(c));
    let mut more: Vec<u32> = Vec::new();
    if y && board.cands[cell].count_ones() == 2 {
        let rest = board.cands[cell] & !(1 << (d - 1));
        let other = rest.trailing_zeros() as u8 + 1;
        if let Some((save, offs)) = hidden {
            let gone = save.cands[cell] & !board.cands[cell];
            for v in 1..=9u8 {
                if gone >> (v - 1) & 1 != 0 {
                    more.push(offs.get(cand(cell, v)).expect("a removed value is off"));
                }
            }
        }
        out.push(arena.push_with(key(cand(cell, other), true), Cause::Cell, p, &more));
    }
    if x {
        for &h in &CELL_HOUSES[cell] {
            let h = h as usize;
            let places = board.places(h, d);
            if places.count_ones() != 2 {
                continue;
            }
            let other = (places & !(1u128 << cell)).trailing_zeros() as usize;
            let k = key(cand(other, d), true);
            if out.iter().any(|&n| arena.node(n).key == k) {
                continue;
            }
            more.clear();
            if let Some((save, offs)) = hidden {
                let mut gone = save.places(h, d) & !places;
                while gone != 0 {
                    let g = gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    more.push(offs.get(cand(g, d)).expect("a removed place is off"));
                }
            }
            out.push(arena.push_with(k, Cause::House(h as u8), p, &more));
        }
    }
}

/// SE's `doUnaryChaining`: the cycles through `c` on and the forcing chains from `c` on and
/// off to their own negation, on the static links of `board` (`y`: cell links, `x`: house
/// links); only the searches of the `kinds` (see [`super::reach::Walks::hint_kinds`]) that can find
/// anything are made.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(super) fn unary(
    depths: &mut [Depth],
    board: &Board,
    c: u16,
    y: bool,
    x: bool,
    kinds: u8,
    result: &mut Vec<Hint>,
) {
    if board.cands[cell_of(c)].count_ones() > 2 && !x {
        return;
    }
    let mut cycles = Vec::new();
    let mut chains = Vec::new();
    let mut on = depths[0].take();
    let mut off = depths[0].take();
    {
        let arena = &mut depths[0].arena;
        if kinds & reach::CYCLE != 0 {
            let n = arena.push(key(c, true), Cause::None, &[]);
            on.add(c, n);
            cycles_from(
                arena,
                board,
                &mut on,
                &mut off,
                y,
                x,
                &mut cycles,
                key(c, true),
            );
        }
        if x {
            for src_on in [true, false] {
                let kind = if src_on {
                    reach::CONTRADICTION
                } else {
                    reach::FROM_OFF
                };
                if kinds & kind == 0 {
                    continue;
                }
                on.clear();
                off.clear();
                let n = arena.push(key(c, src_on), Cause::None, &[]);
                if src_on {
                    on.add(c, n);
                } else {
                    off.add(c, n);
                }
                forcing_from(
                    arena,
                    board,
                    &mut on,
                    &mut off,
                    y,
                    &mut chains,
                    key(c, src_on),
                );
            }
        }
    }
    depths[0].give(on);
    depths[0].give(off);
    for dst_on in cycles {
        let dst_off = reversed(&mut depths[0].arena, dst_on);
        let removals = cycle_removals(&depths[0].arena, board, dst_on);
        if removals.is_empty() {
            continue;
        }
        let kind = Kind::Cycle {
            dst_on,
            dst_off,
            x,
            y,
        };
        result.push(Rule::LOOPS.finish(depths, kind, vec![], removals, None));
    }
    for target in chains {
        let t = *depths[0].arena.node(target);
        let (removals, placement) = conclusion(board, t.cand(), t.on());
        if removals.is_empty() {
            continue;
        }
        let kind = Kind::Forcing { target, x, y };
        result.push(Rule::LOOPS.finish(depths, kind, vec![], removals, placement));
    }
}

/// SE's `doCycles`: breadth first from the source on, one layer of offs then one of ons,
/// noting every path back to the source after at least four steps.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn cycles_from(
    arena: &mut Arena,
    board: &Board,
    on: &mut PotSet,
    off: &mut PotSet,
    y: bool,
    x: bool,
    cycles: &mut Vec<u32>,
    source: u16,
) {
    let mut pend_on: VecDeque<u32> = on.order.iter().copied().collect();
    let mut pend_off: VecDeque<u32> = VecDeque::new();
    let mut offs = Vec::new();
    let mut ons = Vec::new();
    // An off potential met again is followed again (SE keeps every path to it), but a second
    // copy only makes potentials on that the first already made, so it only matters when it
    // can close a cycle: when it is a strong partner of the source.
    let src = source >> 1;
    let (src_cell, src_digit) = (cell_of(src), digit_of(src));
    let closes = |c: u16| -> bool {
        let (cell, d) = (cell_of(c), digit_of(c));
        if cell == src_cell {
            return y && board.cands[cell].count_ones() == 2;
        }
        x && d == src_digit
            && CELL_HOUSES[cell]
                .iter()
                .any(|&h| board.places(h as usize, d) == (1u128 << cell | 1u128 << src_cell))
    };
    let mut length = 0;
    while !pend_on.is_empty() || !pend_off.is_empty() {
        length += 1;
        while let Some(p) = pend_on.pop_front() {
            on_to_off(board, arena.node(p).cand(), y, &mut offs);
            for &(c, cause) in &offs {
                if off.contains(c) && !closes(c) {
                    continue;
                }
                if !arena.is_parent(p, key(c, false)) {
                    let n = arena.push(key(c, false), cause, &[p]);
                    pend_off.push_back(n);
                    off.add(c, n);
                }
            }
        }
        length += 1;
        while let Some(p) = pend_off.pop_front() {
            off_to_on(arena, board, None, p, y, x, &mut ons);
            for &n in &ons {
                let node = *arena.node(n);
                if length >= 4 && node.key == source {
                    cycles.push(n);
                }
                if !on.contains(node.cand()) {
                    pend_on.push_back(n);
                    on.add(node.cand(), n);
                }
            }
        }
    }
}

/// SE's `doForcingChains`: breadth first from the source, noting the first path to the
/// source's negation.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn forcing_from(
    arena: &mut Arena,
    board: &Board,
    on: &mut PotSet,
    off: &mut PotSet,
    y: bool,
    chains: &mut Vec<u32>,
    source: u16,
) {
    let mut pend_on: VecDeque<u32> = on.order.iter().copied().collect();
    let mut pend_off: VecDeque<u32> = off.order.iter().copied().collect();
    let mut offs = Vec::new();
    let mut ons = Vec::new();
    while !pend_on.is_empty() || !pend_off.is_empty() {
        while let Some(p) = pend_on.pop_front() {
            on_to_off(board, arena.node(p).cand(), y, &mut offs);
            for &(c, cause) in &offs {
                let k = key(c, false);
                let mut made = NONE;
                if source == key(c, true) && !chains.iter().any(|&n| arena.node(n).key == k) {
                    made = arena.push(k, cause, &[p]);
                    chains.push(made);
                }
                if !arena.is_parent(p, k) && !off.contains(c) {
                    if made == NONE {
                        made = arena.push(k, cause, &[p]);
                    }
                    pend_off.push_back(made);
                    off.add(c, made);
                }
            }
        }
        while let Some(p) = pend_off.pop_front() {
            off_to_on(arena, board, None, p, y, true, &mut ons);
            for &n in &ons {
                let node = *arena.node(n);
                if source == key(node.cand(), false)
                    && !chains.iter().any(|&m| arena.node(m).key == node.key)
                {
                    chains.push(n);
                }
                if !on.contains(node.cand()) {
                    pend_on.push_back(n);
                    on.add(node.cand(), n);
                }
            }
        }
    }
}

/// SE's `getReversedCycle`: the cycle walked the other way, each potential negated (keeping
/// its cause); the reversed source.
#[inline(never)]
pub(super) fn reversed(arena: &mut Arena, dst_on: u32) -> u32 {
    let mut path = vec![dst_on];
    let mut p = dst_on;
    while let Some(&q) = arena.parents(p).first() {
        path.push(q);
        p = q;
    }
    let mut prev: Option<u32> = None;
    for &org in &path {
        let node = *arena.node(org);
        let parents: Vec<u32> = prev.into_iter().collect();
        prev = Some(arena.push(node.key ^ 1, node.cause, &parents));
    }
    prev.expect("a path")
}

/// The candidates a cycle removes (SE's `createCycleHint`): those that see an on potential of
/// the cycle one way round and an off one the other way, outside the cycle's cells.
#[inline(never)]
pub(super) fn cycle_removals(arena: &Arena, board: &Board, dst_on: u32) -> Vec<u16> {
    let mut cells = 0u128;
    let mut p = dst_on;
    while let Some(&q) = arena.parents(p).first() {
        cells |= 1 << cell_of(arena.node(p).cand());
        p = q;
    }
    let mut forward: Vec<u16> = Vec::new();
    let mut back = [0u64; 12];
    let mut p = dst_on;
    while let Some(&q) = arena.parents(p).first() {
        let node = arena.node(p);
        let (cell, d) = (cell_of(node.cand()), digit_of(node.cand()));
        let mut done = 0u128;
        for &h in &CELL_HOUSES[cell] {
            for &o in &HOUSE_CELLS[h as usize] {
                let o = o as usize;
                if o == cell || done >> o & 1 != 0 {
                    continue;
                }
                done |= 1 << o;
                if cells >> o & 1 == 0 && board.has(o, d) {
                    let r = cand(o, d);
                    if node.on() {
                        if !forward.contains(&r) {
                            forward.push(r);
                        }
                    } else {
                        back[r as usize / 64] |= 1 << (r % 64);
                    }
                }
            }
        }
        p = q;
    }
    let mut removals: Vec<u16> = forward
        .into_iter()
        .filter(|&r| back[r as usize / 64] >> (r % 64) & 1 != 0)
        .collect();
    removals.sort_unstable();
    removals
}

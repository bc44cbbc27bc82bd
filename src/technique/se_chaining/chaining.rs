//! SE's chaining rule at one level: the search over every candidate of every cell (binary,
//! house and cell chains), the static forcing chains and cycles, the propagation of one
//! assumption, and the rules one level down.

use std::collections::VecDeque;

use super::engine::{
    Advanced, Arena, Board, CELL_HOUSES, Cause, HOUSE_CELLS, KeySet, PotSet, cand, cell_of,
    digit_of, key,
};
use super::hints::{Hint, Kind, Meter, Nested, chain_targets, length_bonus};
use super::links::{off_to_on, on_to_off, rule_parents, unary};
use super::reach;
use super::rules::{Changed, RuleHint, Simple};
use crate::model::cellset::CellSet;

/// One of SE's chaining rules (its `Chaining` producer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rule {
    /// Cell and house chains (several assumptions meeting in one conclusion).
    pub multiple: bool,
    /// Implications may use the ones before (the grid is updated as potentials go off).
    pub dynamic: bool,
    /// Follow the assumption's digit only (no cell links), contradictions only.
    pub nishio: bool,
    /// 0, or 1 (simple rules on the hypothetical grid), or 2..=5 (chains one level down).
    pub level: u8,
}

impl Rule {
    /// Forcing chains and cycles, static (6.5 - 7.0).
    pub const LOOPS: Rule = Rule::new(false, false, false, 0);
    /// Nishio (7.5).
    pub const NISHIO: Rule = Rule::new(false, true, true, 0);
    /// Multiple forcing chains, static (8.0).
    pub const MULTIPLE: Rule = Rule::new(true, false, false, 0);
    /// Dynamic forcing chains (8.5).
    pub const DYNAMIC: Rule = Rule::new(true, true, false, 0);

    /// A rule.
    pub const fn new(multiple: bool, dynamic: bool, nishio: bool, level: u8) -> Rule {
        Rule {
            multiple,
            dynamic,
            nishio,
            level,
        }
    }

    /// Dynamic forcing chains at `level` (1: (+), 2..=5: nested).
    pub const fn nested(level: u8) -> Rule {
        Rule::new(true, true, false, level)
    }

    /// The difficulty before the length bonus.
    pub fn base(self) -> f64 {
        if self.level >= 2 {
            9.5 + 0.5 * (self.level - 2) as f64
        } else if self.level > 0 {
            8.5 + 0.5 * self.level as f64
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }

    /// How many levels of scratch a search at this rule uses (itself and the rules below).
    pub fn depth(self) -> usize {
        1 + self
            .inner_rules()
            .iter()
            .map(|r| r.depth())
            .max()
            .unwrap_or(0)
    }

    /// The chaining rules tried one level down, after the simple ones.
    fn inner_rules(self) -> Vec<Rule> {
        match self.level {
            0 | 1 => vec![],
            2 => vec![Rule::LOOPS],
            3 => vec![Rule::LOOPS, Rule::MULTIPLE],
            4 => vec![Rule::DYNAMIC],
            l => vec![Rule::DYNAMIC, Rule::nested(l - 3)],
        }
    }

    /// SE's hints of this rule on `board`, in SE's order (difficulty, complexity, kind), with
    /// later hints that remove the same candidates dropped. The hints' potentials live in
    /// `depths[0]`'s arena until the next search at that depth.
    pub fn hints(self, depths: &mut [Depth], board: &mut Board) -> Vec<Hint> {
        if self.known_without_hints(board) {
            return Vec::new();
        }
        let hints = self.hints_from(depths, board, 0..81);
        // a search cut short by the stop proves nothing
        if hints.is_empty() && !crate::model::stop::poll() {
            self.note_without_hints(board);
        }
        hints
    }

    /// The hints the search finds from these cells only, in SE's order (as [`Rule::hints`]).
    pub fn hints_from(
        self,
        depths: &mut [Depth],
        board: &mut Board,
        cells: std::ops::Range<usize>,
    ) -> Vec<Hint> {
        depths[0].clear();
        if self.level > 0 {
            // Whether the simple rules remove nothing on the start grid: then each
            // propagation's first try of them looks only where its grid changed.
            let mut found = Vec::new();
            depths[0].start_clean = Simple::ALL.iter().all(|rule| {
                rule.hints(board, board, &Changed::ALL, &mut found);
                found.is_empty()
            });
        }
        let mut result = Vec::new();
        if self.multiple || self.dynamic {
            // Static multiple chains: only the cells and houses whose branches can meet are
            // followed SE's way (see `Filter`).
            let filter = (!self.dynamic).then(|| Filter::new(board));
            for cell in cells {
                if board.values[cell] != 0 || crate::model::stop::poll() {
                    continue;
                }
                let card = board.cands[cell].count_ones();
                if card > 2 || (card > 1 && self.dynamic) {
                    depths[0].origin = cell as u8;
                    self.cell_chains(depths, board, cell, card, filter.as_ref(), &mut result);
                }
            }
        } else {
            // Only the starts that can have a hint are followed SE's way (see `reach`). The
            // graph with both kinds of links holds the others' links, so a start that can
            // have no hint there can have none with one kind either.
            let board: &Board = board;
            let both = reach::Graph::new(board, true, true);
            let mut walks = reach::Walks::new(&both);
            let starts = depths[0]
                .reference
                .as_deref()
                .map(|r| walks.loop_sources(r));
            let mut maybe: reach::CandSet = [0; 12];
            let mut kinds = [0u8; 729];
            for cell in cells.clone() {
                if board.values[cell] != 0 || board.cands[cell].count_ones() <= 1 {
                    continue;
                }
                for d in 1..=9u8 {
                    let c = cand(cell, d);
                    if board.has(cell, d) && starts.is_none_or(|s| reach::contains(&s, c)) {
                        kinds[c as usize] = walks.hint_kinds(cell, d as usize - 1);
                        if kinds[c as usize] != 0 {
                            maybe[c as usize / 64] |= 1 << (c % 64);
                        }
                    }
                }
            }
            if maybe != [0; 12] {
                for (y, x) in [(false, true), (true, false), (true, true)] {
                    let one_kind = (!(y && x)).then(|| reach::Graph::new(board, y, x));
                    let mut one_walks = one_kind.as_ref().map(reach::Walks::new);
                    for c in reach::members(&maybe) {
                        if crate::model::stop::poll() {
                            break;
                        }
                        let cell = cell_of(c);
                        let kinds = match &mut one_walks {
                            Some(w) => w.hint_kinds(cell, digit_of(c) as usize - 1),
                            None => kinds[c as usize],
                        };
                        if kinds != 0 {
                            depths[0].origin = cell as u8;
                            unary(depths, board, c, y, x, kinds, &mut result);
                        }
                    }
                }
            }
        }
        result.sort_by(|a, b| a.order(b));
        let mut seen: Vec<&[u16]> = Vec::with_capacity(result.len());
        let mut keep = vec![true; result.len()];
        for (i, h) in result.iter().enumerate() {
            if seen.contains(&h.removals.as_slice()) {
                keep[i] = false;
            } else {
                seen.push(&h.removals);
            }
        }
        let mut k = keep.into_iter();
        result.retain(|_| k.next().unwrap_or(true));
        result
    }

    /// The hints starting from one cell: each value on and off (binary chains), the houses
    /// where the value's first place is this cell (house chains), and the cell's values
    /// together (cell chains).
    fn cell_chains(
        self,
        depths: &mut [Depth],
        board: &mut Board,
        cell: usize,
        card: u32,
        filter: Option<&Filter>,
        result: &mut Vec<Hint>,
    ) {
        let need_cell = filter.is_none_or(|f| f.cell_may_have_hint(cell));
        let mut value_on: Vec<(u8, PotSet)> = Vec::new();
        let mut value_off: Vec<(u8, PotSet)> = Vec::new();
        let mut cell_on = depths[0].take();
        let mut cell_off = depths[0].take();
        let mut first = true;
        for d in 1..=9u8 {
            if !board.has(cell, d) {
                continue;
            }
            if !need_cell && !self.houses_from(board, cell, d, filter) {
                continue;
            }
            let mut on_set = depths[0].take();
            let mut off_set = depths[0].take();
            let do_double = card >= 3 && !self.nishio && self.dynamic;
            let do_contradiction = self.dynamic || self.nishio;
            self.binary(
                depths,
                board,
                cand(cell, d),
                &mut on_set,
                &mut off_set,
                do_double,
                do_contradiction,
                result,
            );
            if !self.nishio {
                self.house_chains(depths, board, cell, d, &on_set, &off_set, filter, result);
            }
            if first {
                cell_on.copy_from(&on_set);
                cell_off.copy_from(&off_set);
                first = false;
            } else {
                cell_on.retain_in(&on_set);
                cell_off.retain_in(&off_set);
            }
            value_on.push((d, on_set));
            value_off.push((d, off_set));
        }
        if need_cell && !self.nishio && (card == 2 || (self.multiple && card > 2)) {
            for (sets, common) in [(&value_on, &cell_on), (&value_off, &cell_off)] {
                for &c in common.cands() {
                    let targets: Vec<u32> = sets
                        .iter()
                        .map(|(_, s)| s.get(c).expect("in every value's set"))
                        .collect();
                    let kind = Kind::Cell { cell: cell as u8 };
                    let first_target = common.get(c).expect("common");
                    if let Some(h) =
                        self.conclusion_hint(depths, board, kind, targets, first_target)
                    {
                        result.push(h);
                    }
                }
            }
        }
        for (_, s) in value_on.into_iter().chain(value_off) {
            depths[0].give(s);
        }
        depths[0].give(cell_on);
        depths[0].give(cell_off);
    }

    /// A cell or house hint whose chains end in `targets`, concluding `result` (a node of
    /// the first chain): its removals, or `None` when it removes nothing.
    fn conclusion_hint(
        self,
        depths: &mut [Depth],
        board: &Board,
        kind: Kind,
        targets: Vec<u32>,
        result: u32,
    ) -> Option<Hint> {
        let node = *depths[0].arena.node(result);
        let (removals, placement) = conclusion(board, node.cand(), node.on());
        if removals.is_empty() {
            return None;
        }
        Some(self.finish(depths, kind, targets, removals, placement))
    }

    /// A hint with its complexity and difficulty.
    #[inline(never)]
    pub(super) fn finish(
        self,
        depths: &mut [Depth],
        kind: Kind,
        targets: Vec<u32>,
        removals: Vec<u16>,
        placement: Option<u16>,
    ) -> Hint {
        let d = &mut depths[0];
        let chain_targets = chain_targets(&kind, &targets);
        let complexity = d.meter.complexity(&d.arena, &kind, &chain_targets);
        let base = match kind {
            Kind::Cycle { x, y, .. } => {
                if x && y {
                    7.0
                } else {
                    6.5
                }
            }
            Kind::Forcing { x, y, .. } => {
                if x && y {
                    7.0
                } else {
                    6.6
                }
            }
            _ => self.base(),
        };
        Hint {
            kind,
            targets,
            removals,
            placement,
            complexity,
            difficulty: base + length_bonus(complexity),
            origin: self_origin(&depths[0]),
        }
    }

    /// One candidate assumed on, then off: contradictions and double chains.
    #[allow(clippy::too_many_arguments)]
    fn binary(
        self,
        depths: &mut [Depth],
        board: &mut Board,
        c: u16,
        on_set: &mut PotSet,
        off_set: &mut PotSet,
        do_double: bool,
        do_contradiction: bool,
        result: &mut Vec<Hint>,
    ) {
        if let Some((dst_on, dst_off)) = self.assume_on(depths, board, c, on_set, off_set)
            && do_contradiction
        {
            let kind = Kind::Binary {
                src: key(c, true),
                dst_on,
                dst_off,
                absurd: true,
                nishio: self.nishio,
            };
            result.push(self.finish(depths, kind, vec![], vec![c], None));
        }
        if !do_contradiction && !do_double {
            return;
        }
        let mut off_on = depths[0].take();
        let mut off_off = depths[0].take();
        let p_off = depths[0].arena.push(key(c, false), Cause::None, &[]);
        off_off.add(c, p_off);
        if let Some((dst_on, dst_off)) = self.propagate(depths, board, &mut off_on, &mut off_off)
            && do_contradiction
        {
            let (removals, placement) = conclusion(board, c, true);
            if !removals.is_empty() {
                let kind = Kind::Binary {
                    src: key(c, false),
                    dst_on,
                    dst_off,
                    absurd: true,
                    nishio: self.nishio,
                };
                result.push(self.finish(depths, kind, vec![], removals, placement));
            }
        }
        if do_double {
            for (&from_on, &t) in on_set.order.iter().zip(on_set.cands()) {
                if let Some(from_off) = off_on.get(t) {
                    let (removals, placement) = conclusion(board, t, true);
                    if !removals.is_empty() {
                        let kind = Kind::Binary {
                            src: key(c, true),
                            dst_on: from_on,
                            dst_off: from_off,
                            absurd: false,
                            nishio: false,
                        };
                        result.push(self.finish(depths, kind, vec![], removals, placement));
                    }
                }
            }
            for (&from_on, &t) in off_set.order.iter().zip(off_set.cands()) {
                if let Some(from_off) = off_off.get(t) {
                    let kind = Kind::Binary {
                        src: key(c, false),
                        dst_on: from_on,
                        dst_off: from_off,
                        absurd: false,
                        nishio: false,
                    };
                    result.push(self.finish(depths, kind, vec![], vec![t], None));
                }
            }
        }
        depths[0].give(off_on);
        depths[0].give(off_off);
    }

    /// The houses where `digit`'s first place is `cell`: every place assumed on in turn, and
    /// what they all lead to.
    #[allow(clippy::too_many_arguments)]
    fn house_chains(
        self,
        depths: &mut [Depth],
        board: &mut Board,
        cell: usize,
        digit: u8,
        on_set: &PotSet,
        off_set: &PotSet,
        filter: Option<&Filter>,
        result: &mut Vec<Hint>,
    ) {
        for &h in &CELL_HOUSES[cell] {
            let h = h as usize;
            if !self.house_from(board, cell, digit, h, filter) {
                continue;
            }
            let pos = board.positions(h, digit);
            let card = pos.count_ones();
            let mut house_on = depths[0].take();
            let mut house_off = depths[0].take();
            house_on.copy_from(on_set);
            house_off.copy_from(off_set);
            let mut others: Vec<(PotSet, PotSet)> = Vec::new();
            for (i, &other) in HOUSE_CELLS[h].iter().enumerate() {
                let other = other as usize;
                if pos >> i & 1 == 0 || other == cell {
                    continue;
                }
                let mut o_on = depths[0].take();
                let mut o_off = depths[0].take();
                self.assume_on(depths, board, cand(other, digit), &mut o_on, &mut o_off);
                house_on.retain_in(&o_on);
                house_off.retain_in(&o_off);
                others.push((o_on, o_off));
            }
            for on in [true, false] {
                let common = if on { &house_on } else { &house_off };
                for &c in common.cands() {
                    let mut targets = Vec::with_capacity(card as usize);
                    let mut k = 0;
                    for (i, &at) in HOUSE_CELLS[h].iter().enumerate() {
                        if pos >> i & 1 == 0 {
                            continue;
                        }
                        let set = if at as usize == cell {
                            if on { on_set } else { off_set }
                        } else {
                            k += 1;
                            if on {
                                &others[k - 1].0
                            } else {
                                &others[k - 1].1
                            }
                        };
                        targets.push(set.get(c).expect("in every place's set"));
                    }
                    let kind = Kind::Region {
                        house: h as u8,
                        digit,
                    };
                    let first = common.get(c).expect("common");
                    if let Some(hint) = self.conclusion_hint(depths, board, kind, targets, first) {
                        result.push(hint);
                    }
                }
            }
            for (a, b) in others {
                depths[0].give(a);
                depths[0].give(b);
            }
            depths[0].give(house_on);
            depths[0].give(house_off);
        }
    }

    /// `c` assumed on and followed (SE's `doChaining` from it), into the empty `on` and `off`;
    /// the contradiction met, if any. SE follows a candidate on again for each house chain it
    /// takes part in, the same way each time: the first result is kept and copied.
    fn assume_on(
        self,
        depths: &mut [Depth],
        board: &mut Board,
        c: u16,
        on: &mut PotSet,
        off: &mut PotSet,
    ) -> Option<(u32, u32)> {
        if let Some(m) = &depths[0].memo[c as usize] {
            on.copy_from(&m.0);
            off.copy_from(&m.1);
            return m.2;
        }
        let n = depths[0].arena.push(key(c, true), Cause::None, &[]);
        on.add(c, n);
        let clash = self.propagate(depths, board, on, off);
        let (mut a, mut b) = (depths[0].take(), depths[0].take());
        a.copy_from(on);
        b.copy_from(off);
        depths[0].memo[c as usize] = Some(Box::new((a, b, clash)));
        clash
    }

    /// Whether the house chain of `digit` in house `h` is searched from `cell`: SE's (the
    /// house has two places, or more for multiple chains, and `cell` is the first), and the
    /// filter's (it may have a hint).
    fn house_from(
        self,
        board: &Board,
        cell: usize,
        digit: u8,
        h: usize,
        filter: Option<&Filter>,
    ) -> bool {
        let places = board.places(h, digit);
        let card = places.count_ones();
        (card == 2 || (self.multiple && card > 2))
            && places.trailing_zeros() as usize == cell
            && filter.is_none_or(|f| f.house_may_have_hint(h, digit))
    }

    /// Whether any house chain of `digit` is searched from `cell`.
    fn houses_from(self, board: &Board, cell: usize, digit: u8, filter: Option<&Filter>) -> bool {
        !self.nishio
            && CELL_HOUSES[cell]
                .iter()
                .any(|&h| self.house_from(board, cell, digit, h as usize, filter))
    }

    /// SE's `doChaining`: completes `to_on` and `to_off` with everything that follows from
    /// them; the first potential met both on and off (its on and off nodes), if any. The
    /// board is as it was afterwards.
    pub fn propagate(
        self,
        depths: &mut [Depth],
        board: &mut Board,
        to_on: &mut PotSet,
        to_off: &mut PotSet,
    ) -> Option<(u32, u32)> {
        let save = board.clone();
        let mut pend_on: VecDeque<u32> = to_on.order.iter().copied().collect();
        let mut pend_off: VecDeque<u32> = to_off.order.iter().copied().collect();
        let y = !self.nishio;
        let mut offs: Vec<(u16, Cause)> = Vec::new();
        let mut ons: Vec<u32> = Vec::new();
        // The digits' cells of the last grid of this propagation where no simple rule removes
        // anything.
        let mut clean: Option<[u128; 9]> = depths[0].start_clean.then_some(save.digits);
        let result = 'run: loop {
            if crate::model::stop::poll() {
                break 'run None;
            }
            if let Some(p) = pend_on.pop_front() {
                let arena = &mut depths[0].arena;
                on_to_off(board, arena.node(p).cand(), y, &mut offs);
                for &(c, cause) in &offs {
                    if let Some(on) = to_on.get(c) {
                        let off = arena.push(key(c, false), cause, &[p]);
                        break 'run Some((on, off));
                    } else if !to_off.contains(c) {
                        let n = arena.push(key(c, false), cause, &[p]);
                        to_off.add(c, n);
                        pend_off.push_back(n);
                    }
                }
            } else if let Some(p) = pend_off.pop_front() {
                let arena = &mut depths[0].arena;
                let pc = arena.node(p).cand();
                let hidden = self.dynamic.then_some((&save, &*to_off));
                off_to_on(arena, board, hidden, p, y, true, &mut ons);
                if self.dynamic {
                    board.remove(pc);
                }
                for &n in &ons {
                    let c = arena.node(n).cand();
                    if let Some(off) = to_off.get(c) {
                        break 'run Some((n, off));
                    } else if !to_on.contains(c) {
                        to_on.add(c, n);
                        pend_on.push_back(n);
                    }
                }
            } else {
                break None;
            }
            if pend_on.is_empty() && pend_off.is_empty() && self.level > 0 {
                let changed = clean.map_or(Changed::ALL, |c| Changed::since(&c, board));
                let (found, simple_clean) = self.advanced(depths, board, &save, to_off, &changed);
                if simple_clean {
                    clean = Some(board.digits);
                }
                for (c, n) in found {
                    if !to_off.contains(c) {
                        to_off.add(c, n);
                        pend_off.push_back(n);
                    }
                }
            }
        };
        *board = save;
        result
    }

    /// SE's `getAdvancedPotentials`: the removals of the first rule (simple ones first, then
    /// chains one level down) that finds any on the hypothetical `board`, as off potentials
    /// resting on the removals (since `save`) the rule needs; and whether no simple rule
    /// removes anything on `board` (the rules look only where it `changed`).
    #[inline(never)]
    fn advanced(
        self,
        depths: &mut [Depth],
        board: &mut Board,
        save: &Board,
        to_off: &PotSet,
        changed: &Changed,
    ) -> (Vec<(u16, u32)>, bool) {
        let mut result = Vec::new();
        let mut found: Vec<RuleHint> = Vec::new();
        let mut simple_clean = true;
        for rule in Simple::ALL {
            found.clear();
            rule.hints(board, save, changed, &mut found);
            simple_clean &= found.is_empty();
            for h in found.drain(..) {
                add_rule_hint(&mut depths[0].arena, to_off, h, &mut result);
            }
            if !result.is_empty() {
                return (result, false);
            }
        }
        let keep = depths[0].keep_proofs;
        for inner in self.inner_rules() {
            let (here, below) = depths.split_first_mut().expect("a depth per level");
            below[0].keep_proofs = keep;
            let hints = inner.hints(below, board);
            for h in &hints {
                let d = &mut below[0];
                let parents = rule_parents(&d.arena, h, save, board, &mut d.seen);
                if parents.is_empty() {
                    continue;
                }
                let targets = h.chain_targets();
                let nested = Nested {
                    complexity: h.complexity,
                    fingerprint: d.meter.fingerprint(&d.arena, &targets),
                    proof: keep.then(|| super::proof::nested_branch(d, h)),
                };
                let rh = RuleHint {
                    removals: h.removals.clone(),
                    parents,
                    what: Advanced::Chain(Box::new(nested)),
                };
                add_rule_hint(&mut here.arena, to_off, rh, &mut result);
            }
            if !result.is_empty() {
                return (result, simple_clean);
            }
        }
        (result, simple_clean)
    }
}

/// The removals a conclusion makes: a candidate off removes itself; on, it removes the other
/// values of its cell (and places it).
pub(super) fn conclusion(board: &Board, c: u16, on: bool) -> (Vec<u16>, Option<u16>) {
    if !on {
        return (vec![c], None);
    }
    let cell = cell_of(c);
    let others = board.cands[cell] & !(1 << (digit_of(c) - 1));
    let removals = (1..=9u8)
        .filter(|d| others >> (d - 1) & 1 != 0)
        .map(|d| cand(cell, d))
        .collect();
    (removals, Some(c))
}

/// Adds a rule's removals as off potentials resting on its parents (skipped when it rests on
/// none: then it holds without the assumption).
fn add_rule_hint(arena: &mut Arena, to_off: &PotSet, h: RuleHint, out: &mut Vec<(u16, u32)>) {
    if h.parents.is_empty() {
        return;
    }
    let parents: Vec<u32> = h.parents.iter().filter_map(|&c| to_off.get(c)).collect();
    debug_assert_eq!(parents.len(), h.parents.len(), "a rule parent not removed");
    let index = arena.advanced.len() as u32;
    arena.advanced.push(h.what);
    for &c in &h.removals {
        let n = arena.push(key(c, false), Cause::Advanced(index), &parents);
        out.push((c, n));
    }
}

/// A grid as the rules see it (the digits' cells, and the cells without a value), with the
/// rule (its [`Rule::id`]).
type GridKey = ([u128; 9], u128, u8);

/// How many grids [`WITHOUT_HINTS`] keeps before it starts again (about 6 MB).
const WITHOUT_HINTS_CAP: usize = 1 << 15;

thread_local! {
    /// Grids on which a rule has no hint at all. That is a fact about the grid alone, and
    /// searches meet the same grids again: propagations from different assumptions, at
    /// different levels and steps, often end on the same grid, where the search one level
    /// down is the costliest part (it proves there is nothing); and a nested level first
    /// checks that the levels below it find nothing, as the pipeline has just seen.
    static WITHOUT_HINTS: std::cell::RefCell<std::collections::HashSet<GridKey>> =
        Default::default();
}

impl Rule {
    /// The rule as a small number (for [`GridKey`]).
    fn id(self) -> u8 {
        self.multiple as u8 | (self.dynamic as u8) << 1 | (self.nishio as u8) << 2 | self.level << 3
    }

    /// Whether this rule is known to have no hint on `board`.
    fn known_without_hints(self, board: &Board) -> bool {
        WITHOUT_HINTS.with(|w| w.borrow().contains(&(board.digits, board.empty, self.id())))
    }

    /// Notes that this rule has no hint on `board`.
    fn note_without_hints(self, board: &Board) {
        WITHOUT_HINTS.with(|w| {
            let mut w = w.borrow_mut();
            if w.len() >= WITHOUT_HINTS_CAP {
                w.clear();
            }
            w.insert((board.digits, board.empty, self.id()));
        });
    }
}

/// Which static multiple chains can have a hint, found without following them SE's way: a
/// cell's or a house's chains conclude only what every branch reaches, and a walk on the
/// grid's links (see `reach`) reaches at least what SE's propagation does.
pub(crate) struct Filter {
    /// The cells whose cell chains may have a hint.
    cells: u128,
    /// Per digit (0-based), the houses (bit = house index) whose house chains may have one.
    houses: [u32; 9],
}

impl Filter {
    fn new(board: &Board) -> Filter {
        let graph = reach::Graph::new(board, true, true);
        let mut walks = reach::Walks::new(&graph);
        let mut cells = 0u128;
        for cell in 0..81 {
            let m = board.cands[cell];
            if board.values[cell] != 0 || m.count_ones() <= 2 {
                continue;
            }
            let group = (1..=9u8)
                .filter(|&d| m >> (d - 1) & 1 != 0)
                .map(|d| cand(cell, d));
            if walks.may_meet(group) {
                cells |= 1 << cell;
            }
        }
        let mut houses = [0u32; 9];
        for (di, bits) in houses.iter_mut().enumerate() {
            let d = di as u8 + 1;
            for h in 0..27 {
                let places = board.places(h, d);
                if places.count_ones() < 2 {
                    continue;
                }
                let group = CellSet::from_bits(places)
                    .iter()
                    .map(|c| cand(c.index(), d));
                if walks.may_meet(group) {
                    *bits |= 1 << h;
                }
            }
        }
        Filter { cells, houses }
    }

    fn cell_may_have_hint(&self, cell: usize) -> bool {
        self.cells >> cell & 1 != 0
    }

    fn house_may_have_hint(&self, h: usize, digit: u8) -> bool {
        self.houses[digit as usize - 1] >> h & 1 != 0
    }
}

/// Scratch for one level of nesting: the potentials of its searches and spare sets.
#[derive(Default)]
pub(crate) struct Depth {
    pub arena: Arena,
    pool: Vec<PotSet>,
    pub meter: Meter,
    seen: KeySet,
    /// Keep the proofs of nested chains (for the step shown, not for the search).
    pub keep_proofs: bool,
    /// The cell being searched from.
    origin: u8,
    /// Whether no simple rule removes anything on the grid the current search started from.
    start_clean: bool,
    /// A grid with no static chain hint that every grid searched at this depth is part of
    /// (the whole search's start), to skip the static chains' starts that cannot have one.
    pub reference: Option<Box<Board>>,
    /// Each candidate's propagation on, once made in the current search.
    memo: Vec<Option<Box<Memo>>>,
}

/// A propagation kept for reuse: what became on, what became off, the contradiction.
type Memo = (PotSet, PotSet, Option<(u32, u32)>);

fn self_origin(d: &Depth) -> u8 {
    d.origin
}

impl Depth {
    fn clear(&mut self) {
        self.arena.clear();
        if self.memo.is_empty() {
            self.memo = (0..729).map(|_| None).collect();
        }
        for i in 0..729 {
            if let Some(m) = self.memo[i].take() {
                let (a, b, _) = *m;
                self.give(a);
                self.give(b);
            }
        }
    }

    pub(super) fn take(&mut self) -> PotSet {
        self.pool.pop().unwrap_or_default()
    }

    pub(super) fn give(&mut self, mut set: PotSet) {
        set.clear();
        self.pool.push(set);
    }
}

//! Whether a position can hold any chain at all: one pass over the link graph that lets every
//! chain technique skip its searches where they would find nothing (most positions).
//!
//! Nearly every step this family reports proves some candidate or group node `x`
//! contradictory: a *walk* of implications (links followed in the graph's direction, nodes
//! possibly repeated) from `x` on to `x` off, or from `x` off to `x` on.
//!
//! - A discontinuous loop is such a walk from its start (`s` on to `s` off, or `s` off to `s`
//!   on); one that ends in another digit `t` of the start's cell eliminates a third digit `e`
//!   of the cell by `e` on, `s` off, …, `t` on, `e` off.
//! - An AIC from `s` off to `t` on eliminates `e` seeing both: `e` on, `s` off, …, `t` on, `e`
//!   off (X- and XY-chains are AICs on fewer links).
//! - A continuous loop eliminates `e` seeing both ends of a weak link `p - q` of the loop: `e`
//!   on, `q` off, round the loop to `p` on, `e` off; and a digit `z` seen by an ALS whose two
//!   nodes `p = q` the loop joins: `e` on, `z` off, `q` on, round to `p` off, `z` on, `e` off.
//!
//! The one exception is a continuous loop through the strong link of an ALS that takes a cell
//! ([`super::graph::als_takes_cell`]): its eliminations reason over all of the cell's digits
//! at once, which no walk need follow. Such a loop is a cycle through that link, so the link's
//! two ends lie in one strongly connected component.
//!
//! So when no candidate or group state reaches its opposite, no chain technique reports
//! anything, whatever its length limit, link filter or paths per state (a search's chain is a
//! walk of the graph, and its eliminations add only links the graph has), except a continuous
//! loop when some ALS-takes-cell link lies on a cycle. Where some states do, a search still
//! passes over the starts none of whose chains could need one: an AIC from a start that rules
//! out no contradictory candidate, a discontinuous loop from a start whose "on" state is not
//! contradictory (its search from "on"), or whose "off" state is not and that rules out no
//! contradictory candidate (from "off").
//!
//! The check is exact about the searches' output (they are skipped only where they would
//! find nothing) and cheap: strongly connected components (Tarjan's algorithm), then the
//! reachability of the condensation, kept only for the components that hold a candidate or
//! group state, 256 of them at a time.

use super::graph::{LinkGraph, LinkVia, NodeKind};
use super::search::state;
use crate::model::Shape;
use crate::model::candset::CandSet;
use crate::model::grid::Candidate;

/// What the walks of a position's link graph allow (see the module's doc).
#[derive(Clone, Debug)]
pub(crate) struct Walks<S: Shape> {
    /// Per state (`node * 2 + on`, a bit each): a candidate or group state that reaches its
    /// opposite. ALS states are never marked.
    contradictory: Vec<u64>,
    /// The candidates whose "on" state is contradictory: the only ones a chain can eliminate
    /// (but a continuous loop through an ALS-takes-cell link).
    pub eliminable: CandSet<S>,
    /// Some ALS-takes-cell link lies on a cycle.
    pub als_cell_cycle: bool,
    /// Per state, its strongly connected component.
    component: Vec<u32>,
    /// Per state (a bit each): the states some walk from a contradictory state to its
    /// opposite may pass, a superset of them: those reached, with their opposite, from the
    /// contradictory states.
    on_walk: Vec<u64>,
}

impl<S: Shape> Default for Walks<S> {
    /// Nothing known: no contradictory state (what a graph holds until it is linked).
    fn default() -> Walks<S> {
        Walks {
            contradictory: Vec::new(),
            eliminable: CandSet::EMPTY,
            als_cell_cycle: false,
            component: Vec::new(),
            on_walk: Vec::new(),
        }
    }
}

impl<S: Shape> Walks<S> {
    /// What `graph`'s walks allow.
    pub fn of(graph: &LinkGraph<S>) -> Walks<S> {
        let states = Successors::build(graph);
        let comp = components(&states);
        let als_cell_cycle = (0..graph.len() as u32).any(|id| {
            graph
                .strong_links(id)
                .iter()
                .filter(|e| e.via == LinkVia::AlsCell)
                .any(|e| comp.of[state(id, false) as usize] == comp.of[state(e.to, true) as usize])
        });
        let is_start = |x: usize| !matches!(graph.node((x / 2) as u32).kind, NodeKind::Als(_));
        let contradictory = contradictory(&states, &comp, is_start);
        let on_walk = on_walk(&states, &contradictory);
        let mut walks = Walks {
            contradictory,
            eliminable: CandSet::EMPTY,
            als_cell_cycle,
            component: comp.of,
            on_walk,
        };
        for id in 0..graph.len() as u32 {
            let n = graph.node(id);
            if n.kind == NodeKind::Candidate && walks.contradictory(state(id, true)) {
                let cell = n.cells.first().expect("a candidate node has a cell");
                walks.eliminable.insert(Candidate::new(cell, n.digit));
            }
        }
        walks
    }

    /// Whether no candidate or group state reaches its opposite.
    pub fn none(&self) -> bool {
        self.contradictory.iter().all(|&w| w == 0)
    }

    /// Whether `state` (a candidate's or group node's) reaches its opposite.
    #[inline]
    pub fn contradictory(&self, state: u32) -> bool {
        let s = state as usize;
        self.contradictory[s / 64] >> (s % 64) & 1 == 1
    }

    /// Whether `a` and `b` lie in one strongly connected component (every state of a cycle
    /// does, so a loop through `a` passes only states of `a`'s component).
    #[inline]
    pub fn same_component(&self, a: u32, b: u32) -> bool {
        self.component[a as usize] == self.component[b as usize]
    }

    /// Whether `state` may lie on a walk from a contradictory state to its opposite: `false`
    /// for a state that none passes (no chain but a continuous loop passes it).
    #[inline]
    pub fn on_walk(&self, state: u32) -> bool {
        let s = state as usize;
        self.on_walk[s / 64] >> (s % 64) & 1 == 1
    }
}

/// Per state, a bit: the states that the contradictory states reach, and whose opposite they
/// reach too. A state on a walk from a contradictory `x` to its opposite is reached from `x`,
/// and reaches `x`'s opposite, so (by the graph's symmetry: `a` leads to `b` when `b`'s
/// opposite leads to `a`'s) its own opposite is reached from `x` as well. (`contradictory`
/// may instead hold the states those lead to directly, where they are not in `states`.)
pub(crate) fn on_walk(states: &Successors, contradictory: &[u64]) -> Vec<u64> {
    let n = states.len();
    let mut reached = vec![0u64; n.div_ceil(64)];
    let mut stack: Vec<u32> = (0..n)
        .filter(|&x| contradictory[x / 64] >> (x % 64) & 1 == 1)
        .map(|x| x as u32)
        .collect();
    for &x in &stack {
        reached[x as usize / 64] |= 1 << (x % 64);
    }
    while let Some(x) = stack.pop() {
        for &y in states.of(x as usize) {
            let (w, b) = (y as usize / 64, 1u64 << (y % 64));
            if reached[w] & b == 0 {
                reached[w] |= b;
                stack.push(y);
            }
        }
    }
    let mut out = vec![0u64; reached.len()];
    for x in 0..n {
        if reached[x / 64] >> (x % 64) & 1 == 1 && reached[(x ^ 1) / 64] >> ((x ^ 1) % 64) & 1 == 1
        {
            out[x / 64] |= 1 << (x % 64);
        }
    }
    out
}

/// The words of target bits each component holds in one pass of [`contradictory`].
const PASS_WORDS: usize = 4;
/// The targets one pass of [`contradictory`] asks about.
const TARGETS_PER_PASS: usize = PASS_WORDS * 64;

/// Per state, a bit: the states `is_start` admits (a link graph's candidate and group
/// states) that reach their opposite.
///
/// A state reaches only its own component and components of smaller numbers, so a state `x`
/// can reach its opposite only when that one's component is `x`'s own (then it does) or a
/// smaller one. Of the two states of a node in different components, one at most is asked
/// about, and a target component only by the components from its own number up to its
/// highest-numbered asker: the targets are numbered in component order, 256 to a pass, and each
/// pass visits only that range of components.
fn contradictory(
    states: &Successors,
    comp: &Components,
    is_start: impl Fn(usize) -> bool,
) -> Vec<u64> {
    let n = states.len();
    let mut out = vec![0u64; n.div_ceil(64)];
    // the components asked about (the opposite's, where smaller), and for each the highest
    // component asking
    const NOT_ASKED: u32 = u32::MAX;
    let mut asker = vec![NOT_ASKED; comp.count];
    for x in (0..n).filter(|&x| is_start(x)) {
        let (own, opposite) = (comp.of[x], comp.of[x ^ 1]);
        if opposite == own {
            out[x / 64] |= 1 << (x % 64);
        } else if opposite < own {
            let a = &mut asker[opposite as usize];
            if *a == NOT_ASKED || *a < own {
                *a = own;
            }
        }
    }
    // target bits in component order
    let mut bit = vec![u32::MAX; comp.count];
    let mut target_comp = Vec::new();
    for c in 0..comp.count {
        if asker[c] != NOT_ASKED {
            bit[c] = target_comp.len() as u32;
            target_comp.push(c as u32);
        }
    }
    // components are numbered sinks first, so every component a component reaches has a
    // smaller number and is done before it
    let (first, members) = comp.members();
    // the targets TARGETS_PER_PASS at a time, so that the memory stays a few words per
    // component however large the board
    let mut reach = vec![[0u64; PASS_WORDS]; comp.count];
    for chunk in target_comp.chunks(TARGETS_PER_PASS) {
        let lowest = bit[chunk[0] as usize];
        // a component's target bit in this pass: its word and the bit in it
        let bit_in_chunk = |c: usize| {
            bit[c]
                .checked_sub(lowest)
                .filter(|&b| (b as usize) < TARGETS_PER_PASS)
                .map(|b| (b as usize / 64, 1u64 << (b % 64)))
        };
        // below the chunk's first target nothing reaches it; above its last asker nobody asks
        let low = chunk[0] as usize;
        let high = chunk.iter().map(|&t| asker[t as usize]).max().unwrap_or(0) as usize;
        for c in low..=high {
            let mut own = [0u64; PASS_WORDS];
            if let Some((w, b)) = bit_in_chunk(c) {
                own[w] = b;
            }
            let xs = &members[first[c] as usize..first[c + 1] as usize];
            for &x in xs {
                for &y in states.of(x as usize) {
                    let d = comp.of[y as usize] as usize;
                    if d != c && d >= low {
                        for (o, r) in own.iter_mut().zip(&reach[d]) {
                            *o |= r;
                        }
                    }
                }
            }
            reach[c] = own;
            if own == [0; PASS_WORDS] {
                continue;
            }
            // a state reaches its opposite when that one's component is reached
            for &x in xs {
                let x = x as usize;
                if is_start(x)
                    && let Some((w, b)) = bit_in_chunk(comp.of[x ^ 1] as usize)
                    && own[w] & b != 0
                {
                    out[x / 64] |= 1 << (x % 64);
                }
            }
        }
    }
    out
}

/// The states of a graph (`node * 2 + on`) and where each leads, flat: an "on" state to the
/// nodes its weak links turn off, an "off" state to those its strong links turn on.
pub(crate) struct Successors {
    start: Vec<u32>,
    to: Vec<u32>,
}

impl Successors {
    fn build<S: Shape>(graph: &LinkGraph<S>) -> Successors {
        let nodes = graph.len();
        let mut states = Successors::with_capacity(nodes * 2);
        for id in 0..nodes as u32 {
            // off: the strong links
            states.extend(graph.strong_links(id).iter().map(|e| state(e.to, true)));
            states.end_state();
            // on: the weak links
            states.extend(graph.weak_links(id).iter().map(|e| state(e.to, false)));
            states.end_state();
        }
        states
    }

    /// No states yet, room for `states` of them; each is given by [`Successors::extend`]
    /// (its successors, in as many calls as needed), then [`Successors::end_state`].
    pub(crate) fn with_capacity(states: usize) -> Successors {
        let mut start = Vec::with_capacity(states + 1);
        start.push(0);
        Successors {
            start,
            to: Vec::new(),
        }
    }

    /// Adds successors to the state being given.
    #[inline]
    pub(crate) fn extend(&mut self, to: impl IntoIterator<Item = u32>) {
        self.to.extend(to);
    }

    /// Ends the state being given: the next call gives the next state.
    #[inline]
    pub(crate) fn end_state(&mut self) {
        self.start.push(self.to.len() as u32);
    }

    /// How many states there are.
    pub(crate) fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Where state `x` leads.
    pub(crate) fn of(&self, x: usize) -> &[u32] {
        &self.to[self.start[x] as usize..self.start[x + 1] as usize]
    }
}

/// The strongly connected components: each state's component, numbered in the order Tarjan's
/// algorithm completes them (a component only reaches components of smaller numbers).
pub(crate) struct Components {
    /// Per state, its component.
    pub of: Vec<u32>,
    /// How many components there are.
    pub count: usize,
}

impl Components {
    /// The states of each component, grouped: component `c`'s are
    /// `members[first[c]..first[c + 1]]`, as `(first, members)`.
    pub(crate) fn members(&self) -> (Vec<u32>, Vec<u32>) {
        let mut first = vec![0u32; self.count + 1];
        for &c in &self.of {
            first[c as usize + 1] += 1;
        }
        for c in 0..self.count {
            first[c + 1] += first[c];
        }
        let mut members = vec![0u32; self.of.len()];
        let mut fill = first.clone();
        for (x, &c) in self.of.iter().enumerate() {
            members[fill[c as usize] as usize] = x as u32;
            fill[c as usize] += 1;
        }
        (first, members)
    }
}

pub(crate) fn components(states: &Successors) -> Components {
    const UNSEEN: u32 = u32::MAX;
    let n = states.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut of = vec![UNSEEN; n];
    let mut stack: Vec<u32> = Vec::new();
    // the depth-first walk's own stack: a state and how many of its successors it has done
    let mut walk: Vec<(u32, u32)> = Vec::new();
    let mut next = 0;
    let mut count = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root as u32);
        walk.push((root as u32, 0));
        while let Some(&(u, i)) = walk.last() {
            let u = u as usize;
            let succ = states.of(u);
            if let Some(&v) = succ.get(i as usize) {
                walk.last_mut().expect("the walk is not empty").1 += 1;
                let v = v as usize;
                if index[v] == UNSEEN {
                    index[v] = next;
                    low[v] = next;
                    next += 1;
                    stack.push(v as u32);
                    walk.push((v as u32, 0));
                } else if of[v] == UNSEEN {
                    // still on the stack: in the component being built
                    low[u] = low[u].min(index[v]);
                }
                continue;
            }
            walk.pop();
            if let Some(&(p, _)) = walk.last() {
                low[p as usize] = low[p as usize].min(low[u]);
            }
            if low[u] == index[u] {
                while let Some(w) = stack.pop() {
                    of[w as usize] = count as u32;
                    if w as usize == u {
                        break;
                    }
                }
                count += 1;
            }
        }
    }
    Components { of, count }
}

#[cfg(test)]
mod tests {
    use super::super::ChainTechnique;
    use super::*;
    use crate::engine::pipeline::Pipeline;
    use crate::model::{S9, S16};
    use crate::technique::context::Context;
    use crate::text::Puzzle;

    /// At every position of the solve of `line` (the default pipeline), every chain search the
    /// graph's walks let a technique skip finds nothing when run anyway, and one that passes
    /// over some starts finds the same chains in the same order as one from every start:
    /// (positions where some search was skipped, positions where some search found a chain).
    fn skipped_searches_find_nothing<S: Shape>(line: &str) -> (usize, usize) {
        let puzzle = Puzzle::parse(line).expect("a puzzle");
        let trace = crate::engine::solve_sized(&puzzle, &Pipeline::default_pipeline());
        let mut grid = puzzle.grid(S::geometry(puzzle.layout()));
        let (mut skipped, mut found) = (0, 0);
        for step in trace.steps() {
            let ctx = Context::new(&grid);
            let (mut skipped_here, mut found_here) = (false, false);
            for t in ChainTechnique::ALL {
                let graph = ctx.link_graph(t.graph);
                // the search with more paths per state runs only after this one found a chain
                let every = t.chains(&ctx, graph, true, true);
                if !graph.may_hold(t.kind) {
                    assert!(
                        every.is_empty(),
                        "{} skipped before {}",
                        t.info.id,
                        step.explanation
                    );
                    skipped_here = true;
                } else {
                    let some = t.chains(&ctx, graph, true, false);
                    let key = |f: &super::super::Found<S>| (f.links, f.path.clone(), f.elims);
                    assert!(
                        some.iter().map(key).eq(every.iter().map(key)),
                        "{} from fewer starts before {}",
                        t.info.id,
                        step.explanation
                    );
                }
                found_here |= !every.is_empty();
            }
            skipped += skipped_here as usize;
            found += found_here as usize;
            step.apply(&mut grid);
        }
        (skipped, found)
    }

    #[test]
    fn a_skipped_chain_search_would_have_found_nothing() {
        // Easter Monster and AI Escargot (solved with forcing chains: many positions where
        // the chain techniques run and find nothing), and a 16x16 with ALS chains
        for line in [
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        ] {
            let (skipped, found) = skipped_searches_find_nothing::<S9>(line);
            assert!(
                skipped > 0 && found > 0,
                "{line}: {skipped} skipped, {found} found"
            );
        }
        let line = concat!(
            "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6",
            ".....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.",
            "D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1"
        );
        let (skipped, found) = skipped_searches_find_nothing::<S16>(line);
        assert!(
            skipped > 0 && found > 0,
            "16x16: {skipped} skipped, {found} found"
        );
    }

    /// The contradictory states of every graph kind at every position of a solve, against a
    /// breadth-first search from each state.
    #[test]
    fn contradictory_states_are_those_reaching_their_opposite() {
        use super::super::graph::GraphKind;
        let line =
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";
        let puzzle = Puzzle::parse(line).expect("a puzzle");
        let trace = crate::engine::solve_sized(&puzzle, &Pipeline::default_pipeline());
        let mut grid = puzzle.grid(S9::geometry(puzzle.layout()));
        let mut contradictory_seen = 0;
        for (i, step) in trace.steps().enumerate() {
            let ctx = Context::new(&grid);
            for kind in [GraphKind::Plain, GraphKind::Grouped, GraphKind::WithAls] {
                if i % 3 != 0 {
                    break;
                }
                let graph = ctx.link_graph(kind);
                let states = Successors::build(graph);
                let walks = graph.walks();
                for x in 0..states.len() {
                    if matches!(graph.node((x / 2) as u32).kind, NodeKind::Als(_)) {
                        continue;
                    }
                    let mut seen = vec![false; states.len()];
                    let mut queue = vec![x];
                    seen[x] = true;
                    while let Some(u) = queue.pop() {
                        for &v in states.of(u) {
                            if !seen[v as usize] {
                                seen[v as usize] = true;
                                queue.push(v as usize);
                            }
                        }
                    }
                    assert_eq!(
                        walks.contradictory(x as u32),
                        seen[x ^ 1],
                        "state {x} of {kind:?} before {}",
                        step.explanation
                    );
                    if !seen[x ^ 1] {
                        continue;
                    }
                    contradictory_seen += 1;
                    // every state on a walk from x to its opposite is marked on a walk
                    let mut back = vec![false; states.len()];
                    back[x ^ 1] = true;
                    let mut changed = true;
                    while changed {
                        changed = false;
                        for u in 0..states.len() {
                            if !back[u] && states.of(u).iter().any(|&v| back[v as usize]) {
                                back[u] = true;
                                changed = true;
                            }
                        }
                    }
                    for y in (0..states.len()).filter(|&y| seen[y] && back[y]) {
                        assert!(
                            walks.on_walk(y as u32),
                            "state {y} between {x} and its opposite"
                        );
                    }
                }
            }
            step.apply(&mut grid);
        }
        assert!(contradictory_seen > 0);
    }

    fn flat(lists: &[&[u32]]) -> Successors {
        let mut start = vec![0];
        let mut to = Vec::new();
        for l in lists {
            to.extend_from_slice(l);
            start.push(to.len() as u32);
        }
        Successors { start, to }
    }

    #[test]
    fn components_come_sinks_first() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3, 4 alone
        let s = flat(&[&[1], &[2], &[1, 3], &[], &[]]);
        let c = components(&s);
        assert_eq!(c.count, 4);
        assert_eq!(c.of[1], c.of[2]);
        assert!(c.of[3] < c.of[1] && c.of[1] < c.of[0]);
        assert_ne!(c.of[4], c.of[0]);
    }
}

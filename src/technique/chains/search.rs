//! The alternating-inference search: a breadth-first walk of a [`LinkGraph`]'s implications
//! from one assumption, shortest chains first.
//!
//! A search state is a node with a truth value (`id * 2 + on`). From an "on" state the weak
//! links lead to "off" states; from an "off" state the strong links lead to "on" states, so
//! every path alternates and is an alternating inference chain. The buffers are allocated
//! once per search and reused from one start to the next.

use super::graph::{Edge, LinkGraph, LinkVia};
use crate::model::Shape;

/// Which links a search may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct LinkFilter {
    /// Strong links between the two digits of a bivalue cell.
    pub strong_cell: bool,
    /// Strong links in a house (conjugate pairs, groups) and inside an ALS.
    pub strong_house: bool,
    /// Weak links between digits of one cell.
    pub weak_cell: bool,
    /// Weak links of one digit in a house.
    pub weak_house: bool,
}

impl LinkFilter {
    /// Every link.
    pub const ALL: LinkFilter = LinkFilter {
        strong_cell: true,
        strong_house: true,
        weak_cell: true,
        weak_house: true,
    };
    /// One digit: links in houses only (X-chains).
    pub const X: LinkFilter = LinkFilter {
        strong_cell: false,
        strong_house: true,
        weak_cell: false,
        weak_house: true,
    };
    /// Bivalue cells joined by one digit in a house (XY-chains).
    pub const XY: LinkFilter = LinkFilter {
        strong_cell: true,
        strong_house: false,
        weak_cell: false,
        weak_house: true,
    };

    #[inline]
    fn strong(&self, e: &Edge) -> bool {
        match e.via {
            LinkVia::Cell => self.strong_cell,
            LinkVia::House | LinkVia::Als | LinkVia::AlsCell => self.strong_house,
        }
    }

    /// Whether the search may take the weak link `e`.
    #[inline]
    pub fn weak(&self, e: &Edge) -> bool {
        match e.via {
            LinkVia::Cell => self.weak_cell,
            LinkVia::House | LinkVia::Als | LinkVia::AlsCell => self.weak_house,
        }
    }
}

/// The state of node `id` with truth value `on`.
#[inline]
pub fn state(id: u32, on: bool) -> u32 {
    id * 2 + on as u32
}

/// The node of a state.
#[inline]
pub(crate) fn node_of(state: u32) -> u32 {
    state / 2
}

/// Whether a state is "on".
#[inline]
pub(crate) fn is_on(state: u32) -> bool {
    state & 1 == 1
}

/// A breadth-first search over the states of one graph, with reusable buffers.
///
/// The search keeps up to `max_paths` different simple paths to every state ("labels"), so a
/// longer chain through other nodes is found beside the shortest one: a loop's or a chain's
/// eliminations depend on the nodes it passes, not only on its ends. Labels are numbered in
/// the order they are reached, which is shortest first.
pub(crate) struct Bfs {
    stamp: Vec<u32>,
    count: Vec<u8>,
    generation: u32,
    label_state: Vec<u32>,
    label_parent: Vec<u32>,
    label_depth: Vec<u16>,
}

impl Bfs {
    /// Buffers for a graph of `nodes` nodes.
    pub fn new(nodes: usize) -> Bfs {
        Bfs {
            stamp: vec![0; nodes * 2],
            count: vec![0; nodes * 2],
            generation: 0,
            label_state: Vec::with_capacity(nodes * 2),
            label_parent: Vec::with_capacity(nodes * 2),
            label_depth: Vec::with_capacity(nodes * 2),
        }
    }

    /// Walks the states reachable from `start` in at most `max_links` links along simple
    /// paths (no node twice on one path), shortest first, reaching each state by at most
    /// `max_paths` different paths, and calls `reached(self, label, state, links)` for each
    /// arrival; stops early when `reached` returns true. The start's own node may be reached
    /// again (that closes a loop) but is not walked on from. Only states `keep` accepts are
    /// reached: a caller passes over states from which no chain it looks for can go on (the
    /// states reached and their order are otherwise the same, since what is reached from a
    /// state passed over is passed over too).
    #[allow(clippy::too_many_arguments)]
    pub fn run<S: Shape>(
        &mut self,
        graph: &LinkGraph<S>,
        filter: LinkFilter,
        start: u32,
        max_links: u16,
        max_paths: u8,
        keep: impl Fn(u32) -> bool,
        mut reached: impl FnMut(&Bfs, u32, u32, u16) -> bool,
    ) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        let generation = self.generation;
        let start_node = node_of(start);
        self.label_state.clear();
        self.label_parent.clear();
        self.label_depth.clear();
        self.label_state.push(start);
        self.label_parent.push(0);
        self.label_depth.push(0);
        self.stamp[start as usize] = generation;
        self.count[start as usize] = max_paths;
        let mut head = 0;
        while head < self.label_state.len() {
            if crate::model::stop::poll() {
                return;
            }
            let l = head as u32;
            head += 1;
            let s = self.label_state[l as usize];
            let d = self.label_depth[l as usize];
            let node = node_of(s);
            if d >= max_links || (l != 0 && node == start_node) {
                continue;
            }
            let on = is_on(s);
            let edges = if on {
                graph.weak_links(node)
            } else {
                graph.strong_links(node)
            };
            for e in edges {
                let allowed = if on { filter.weak(e) } else { filter.strong(e) };
                if !allowed {
                    continue;
                }
                let t = state(e.to, !on);
                if !keep(t) {
                    continue;
                }
                let seen_t = self.stamp[t as usize] == generation;
                if seen_t && self.count[t as usize] >= max_paths {
                    continue;
                }
                let closes = e.to == start_node;
                // keep the path simple
                if !closes
                    && (seen_t || self.stamp[(t ^ 1) as usize] == generation)
                    && self.on_path(l, e.to)
                {
                    continue;
                }
                if !seen_t {
                    self.stamp[t as usize] = generation;
                    self.count[t as usize] = 0;
                }
                self.count[t as usize] += 1;
                let nl = self.label_state.len() as u32;
                self.label_state.push(t);
                self.label_parent.push(l);
                self.label_depth.push(d + 1);
                if reached(self, nl, t, d + 1) {
                    return;
                }
            }
        }
    }

    /// Whether `node` is on the path of label `l`.
    fn on_path(&self, mut l: u32, node: u32) -> bool {
        loop {
            if node_of(self.label_state[l as usize]) == node {
                return true;
            }
            if l == 0 {
                return false;
            }
            l = self.label_parent[l as usize];
        }
    }

    /// The states from the start to label `end` (of the last run).
    pub fn path(&self, end: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut l = end;
        loop {
            out.push(self.label_state[l as usize]);
            if l == 0 {
                break;
            }
            l = self.label_parent[l as usize];
        }
        out.reverse();
        out
    }

    /// The label label `l` was reached from (the start, label 0, is its own parent).
    #[inline]
    pub fn parent(&self, l: u32) -> u32 {
        self.label_parent[l as usize]
    }

    /// Whether the path of label `end` visits each node once.
    pub(crate) fn path_is_simple(&self, end: u32, seen: &mut Vec<u32>) -> bool {
        seen.clear();
        let mut l = end;
        loop {
            let n = node_of(self.label_state[l as usize]);
            if seen.contains(&n) {
                return false;
            }
            seen.push(n);
            if l == 0 {
                return true;
            }
            l = self.label_parent[l as usize];
        }
    }

    /// Calls `f(from, to)` with the states of every link of the path of label `end`, from
    /// the end back to the start.
    pub(crate) fn for_each_link(&self, end: u32, mut f: impl FnMut(u32, u32)) {
        let mut l = end;
        while l != 0 {
            let p = self.label_parent[l as usize];
            f(self.label_state[p as usize], self.label_state[l as usize]);
            l = p;
        }
    }
}

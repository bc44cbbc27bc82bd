//! The alternating-inference search: a breadth-first walk of a [`LinkGraph`]'s implications
//! from one assumption, shortest chains first.
//!
//! A search state is a node with a truth value (`id * 2 + on`). From an "on" state the weak
//! links lead to "off" states; from an "off" state the strong links lead to "on" states, so
//! every path alternates and is an alternating inference chain. The buffers are allocated
//! once per search and reused from one start to the next.

use super::graph::{Edge, LinkGraph, LinkVia};

/// Which links a search may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LinkFilter {
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
            LinkVia::House | LinkVia::Als => self.strong_house,
        }
    }

    #[inline]
    fn weak(&self, e: &Edge) -> bool {
        match e.via {
            LinkVia::Cell => self.weak_cell,
            LinkVia::House | LinkVia::Als => self.weak_house,
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
pub fn node_of(state: u32) -> u32 {
    state / 2
}

/// Whether a state is "on".
#[inline]
pub fn is_on(state: u32) -> bool {
    state & 1 == 1
}

/// A breadth-first search over the states of one graph, with reusable buffers.
pub struct Bfs {
    stamp: Vec<u32>,
    generation: u32,
    parent: Vec<u32>,
    depth: Vec<u16>,
    queue: Vec<u32>,
}

impl Bfs {
    /// Buffers for a graph of `nodes` nodes.
    pub fn new(nodes: usize) -> Bfs {
        Bfs {
            stamp: vec![0; nodes * 2],
            generation: 0,
            parent: vec![0; nodes * 2],
            depth: vec![0; nodes * 2],
            queue: Vec::with_capacity(nodes * 2),
        }
    }

    /// Walks the states reachable from `start` in at most `max_links` links along simple
    /// paths (no node twice on one path), shortest first, calling `reached(self, state, links)`
    /// for each state when it is first reached; stops early when `reached` returns true. The
    /// start's own node may be reached again (that closes a loop) but is not walked on from.
    pub fn run(
        &mut self,
        graph: &LinkGraph,
        filter: LinkFilter,
        start: u32,
        max_links: u16,
        mut reached: impl FnMut(&Bfs, u32, u16) -> bool,
    ) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        let generation = self.generation;
        let start_node = node_of(start);
        self.queue.clear();
        self.queue.push(start);
        self.stamp[start as usize] = generation;
        self.depth[start as usize] = 0;
        self.parent[start as usize] = start;
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head];
            head += 1;
            let d = self.depth[s as usize];
            if d >= max_links {
                continue;
            }
            let node = node_of(s);
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
                if self.stamp[t as usize] == generation {
                    continue;
                }
                let closes = e.to == start_node;
                // the other state of the node was reached: keep the path simple
                if !closes && self.stamp[(t ^ 1) as usize] == generation && self.on_path(s, e.to) {
                    continue;
                }
                self.stamp[t as usize] = generation;
                self.parent[t as usize] = s;
                self.depth[t as usize] = d + 1;
                if !closes {
                    self.queue.push(t);
                }
                if reached(self, t, d + 1) {
                    return;
                }
            }
        }
    }

    /// Whether `node` is on the path from the start to state `s`.
    fn on_path(&self, mut s: u32, node: u32) -> bool {
        loop {
            if node_of(s) == node {
                return true;
            }
            let p = self.parent[s as usize];
            if p == s {
                return false;
            }
            s = p;
        }
    }

    /// The states from the start to `end` (which must have been reached by the last run).
    pub fn path(&self, end: u32) -> Vec<u32> {
        let mut out = vec![end];
        let mut s = end;
        while self.parent[s as usize] != s {
            s = self.parent[s as usize];
            out.push(s);
        }
        out.reverse();
        out
    }

    /// The state `s` was reached from (the start is its own parent).
    #[inline]
    pub fn parent(&self, s: u32) -> u32 {
        self.parent[s as usize]
    }

    /// Whether the path from the start to `end` visits each node once.
    pub fn path_is_simple(&self, end: u32, seen: &mut Vec<u32>) -> bool {
        seen.clear();
        let mut s = end;
        loop {
            let n = node_of(s);
            if seen.contains(&n) {
                return false;
            }
            seen.push(n);
            let p = self.parent[s as usize];
            if p == s {
                return true;
            }
            s = p;
        }
    }

    /// Calls `f(from, to)` for every link of the path from the start to `end`.
    pub fn for_each_link(&self, end: u32, mut f: impl FnMut(u32, u32)) {
        let mut s = end;
        loop {
            let p = self.parent[s as usize];
            if p == s {
                return;
            }
            f(p, s);
            s = p;
        }
    }
}

//! The link graph: chain nodes (candidates, group nodes, ALS nodes) and the implications
//! between them.
//!
//! Every node is a statement that can be true ("on") or false ("off"): a candidate is the
//! digit in its cell, a group node is the digit in one of its cells, an ALS node is the digit
//! in one of the set's cells. A **strong** link `a = b` means they are not both off: `a` off
//! implies `b` on. A **weak** link `a - b` means they are not both on: `a` on implies `b`
//! off. The graph stores, for every node, the nodes its being off turns on (strong out-links)
//! and the nodes its being on turns off (weak out-links), in flat arrays built once per
//! position.
//!
//! An ALS node is also strongly linked to a candidate outside the set whose cell's other
//! digits (two or more) are all digits of the set that the cell sees in every cell of the set
//! holding them: without the node's digit the set's other digits are locked in it and leave the
//! cell that one candidate ([`als_takes_cell`]).

use rustc_hash::FxHashMap as HashMap;

use crate::model::candset::CandSet;
use crate::model::cell::{Cell, digit_mask, digits};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Shape};
use crate::technique::context::{Als, Context};

use super::ChainKind;
use super::walks::Walks;

/// Which nodes a graph holds besides candidates.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) enum GraphKind {
    /// Candidates only.
    Plain,
    /// Candidates and group nodes.
    Grouped,
    /// Candidates, group nodes and ALS nodes.
    WithAls,
}

/// What a node stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NodeKind {
    /// One candidate.
    Candidate,
    /// A digit in two or three cells of a box-line intersection.
    Group,
    /// A digit in an almost locked set (index into [`Context::als`]).
    Als(u32),
}

/// One node of the graph.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Node<S: Shape> {
    /// The digit.
    pub digit: u8,
    /// The cells where the digit may be (one for a candidate).
    pub cells: CellSet<S>,
    /// What the node stands for.
    pub kind: NodeKind,
}

impl<S: Shape> Node<S> {
    /// The candidates this node being on rules out: for a candidate, its digit in peer cells
    /// and the other digits of its cell; for a group or ALS node, its digit in every cell
    /// seeing all of its cells.
    ///
    /// An ALS node whose digit is in one cell of the set is that candidate: the cell's other
    /// digits go too.
    pub(crate) fn weak_set(&self, grid: &Grid<S>) -> CandSet<S> {
        match self.cells.single_cell() {
            Some(cell) => CandSet::weak_of(grid, Candidate::new(cell, self.digit)),
            None => CandSet::seeing_all(grid, self.digit, self.cells),
        }
    }
}

/// How a link is made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LinkVia {
    /// Two digits of one cell.
    Cell,
    /// One digit in one house.
    House,
    /// Two digits of one almost locked set.
    Als,
    /// An almost locked set and a candidate outside it ([`als_takes_cell`]): without the
    /// set's digit, its other digits are locked in it and take every other digit of the
    /// candidate's cell.
    AlsCell,
}

/// A link to another node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Edge {
    /// The node at the other end.
    pub to: u32,
    /// How the link is made.
    pub via: LinkVia,
}

/// The nodes and links of one position.
pub(crate) struct LinkGraph<S: Shape> {
    als_cells: Vec<CellSet<S>>,
    nodes: Vec<Node<S>>,
    /// Node of candidate `(digit - 1) * cells + cell`, or `u32::MAX`.
    cand_node: Vec<u32>,
    strong_start: Vec<u32>,
    strong: Vec<Edge>,
    weak_start: Vec<u32>,
    weak: Vec<Edge>,
    /// Per node, the candidates of the grid its being on rules out.
    weak_sets: Vec<CandSet<S>>,
    /// What its walks allow: whether a chain can be found here at all ([`super::walks`]).
    walks: Walks<S>,
}

const NONE: u32 = u32::MAX;

/// The largest almost locked set used as a chain node, in cells.
pub(crate) const MAX_ALS_NODE_CELLS: u32 = 8;

impl<S: Shape> LinkGraph<S> {
    /// Builds the graph of `kind` for the context's position.
    pub fn build(ctx: &Context<'_, S>, kind: GraphKind) -> LinkGraph<S> {
        let grid = ctx.grid();
        let mut nodes = Vec::new();
        let mut cand_node = vec![NONE; S::N * S::CELLS];
        for d in grid.all_digits() {
            for cell in grid.digit_cells(d) {
                cand_node[(d as usize - 1) * S::CELLS + S::bit_of(cell)] = nodes.len() as u32;
                nodes.push(Node {
                    digit: d,
                    cells: CellSet::single(cell),
                    kind: NodeKind::Candidate,
                });
            }
        }
        let mut group_of: HashMap<(u8, CellSet<S>), u32> = HashMap::default();
        if kind != GraphKind::Plain {
            for g in ctx.group_nodes() {
                if group_of.contains_key(&(g.digit, g.cells)) {
                    continue;
                }
                group_of.insert((g.digit, g.cells), nodes.len() as u32);
                nodes.push(Node {
                    digit: g.digit,
                    cells: g.cells,
                    kind: NodeKind::Group,
                });
            }
        }
        if kind == GraphKind::WithAls {
            for (i, als) in ctx.als().iter().enumerate() {
                if als.cells.len() < 2 || als.cells.len() > MAX_ALS_NODE_CELLS {
                    continue;
                }
                for d in digits(als.digits) {
                    let cells = als.cells_of(d);
                    // the digit in two cells or more of the set, seen in all of them by no
                    // candidate outside: a dead end ([`als_node_is_dead_end`])
                    if als_node_is_dead_end(grid, als, d, cells) {
                        continue;
                    }
                    nodes.push(Node {
                        digit: d,
                        cells,
                        kind: NodeKind::Als(i as u32),
                    });
                }
            }
        }
        let mut graph = LinkGraph {
            als_cells: if kind == GraphKind::WithAls {
                ctx.als().iter().map(|a| a.cells).collect()
            } else {
                Vec::new()
            },
            nodes,
            cand_node,
            strong_start: Vec::new(),
            strong: Vec::new(),
            weak_start: Vec::new(),
            weak: Vec::new(),
            weak_sets: Vec::new(),
            walks: Walks::default(),
        };
        let present = CandSet::of_grid(grid);
        graph.weak_sets = graph
            .nodes
            .iter()
            .map(|n| match n.kind {
                // the digit in the cells seeing all of the node's: the set's own list of them
                NodeKind::Als(i) if n.cells.len() > 1 => {
                    let mut ws = CandSet::EMPTY;
                    let cells = ctx.als()[i as usize].seen_by(n.digit) & present.cells(n.digit);
                    ws.add_cells(n.digit, cells);
                    ws
                }
                _ => n.weak_set(grid) & present,
            })
            .collect();
        graph.link(ctx, &group_of);
        graph.walks = Walks::of(&graph);
        graph
    }

    /// Whether a chain of `kind` may be found in this position: `false` when every search for
    /// one would find nothing ([`super::walks`]).
    pub(crate) fn may_hold(&self, kind: ChainKind) -> bool {
        match kind {
            ChainKind::ContinuousLoop => {
                !self.walks.eliminable.is_empty() || self.walks.als_cell_cycle
            }
            ChainKind::DiscontinuousLoop => !self.walks.none(),
            ChainKind::Aic | ChainKind::XChain | ChainKind::XyChain => {
                !self.walks.eliminable.is_empty()
            }
        }
    }

    /// What the graph's walks allow, for the searches from each start ([`super::walks`]).
    pub(crate) fn walks(&self) -> &Walks<S> {
        &self.walks
    }

    /// The cells of the almost locked set `index` of the context (for ALS nodes).
    pub(crate) fn als_cells(&self, index: u32) -> CellSet<S> {
        self.als_cells[index as usize]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The node with this id.
    #[inline]
    pub(crate) fn node(&self, id: u32) -> &Node<S> {
        &self.nodes[id as usize]
    }

    /// The node of a candidate, if the candidate is in the grid.
    #[inline]
    pub(crate) fn candidate_node(&self, c: Candidate) -> Option<u32> {
        let id = self.cand_node[(c.digit as usize - 1) * S::CELLS + S::bit_of(c.cell)];
        (id != NONE).then_some(id)
    }

    /// The candidates of the grid that node `id` being on rules out ([`Node::weak_set`]).
    #[inline]
    pub(crate) fn weak_set(&self, id: u32) -> &CandSet<S> {
        &self.weak_sets[id as usize]
    }

    /// The nodes turned on when `id` is off.
    #[inline]
    pub(crate) fn strong_links(&self, id: u32) -> &[Edge] {
        let i = id as usize;
        &self.strong[self.strong_start[i] as usize..self.strong_start[i + 1] as usize]
    }

    /// The nodes turned off when `id` is on.
    #[inline]
    pub(crate) fn weak_links(&self, id: u32) -> &[Edge] {
        let i = id as usize;
        &self.weak[self.weak_start[i] as usize..self.weak_start[i + 1] as usize]
    }

    /// The nodes of the almost locked set that node `id` belongs to: consecutive, in digit
    /// order (the set's dead ends left out).
    fn als_set_nodes(&self, id: usize) -> std::ops::Range<usize> {
        let kind = self.nodes[id].kind;
        let same = |n: &usize| self.nodes[*n].kind == kind;
        let first = (0..id).rev().take_while(same).last().unwrap_or(id);
        let end = (id..self.nodes.len())
            .find(|n| !same(n))
            .unwrap_or(self.nodes.len());
        first..end
    }

    fn link(&mut self, ctx: &Context<'_, S>, group_of: &HashMap<(u8, CellSet<S>), u32>) {
        let grid = ctx.grid();
        let geo = grid.geometry();
        // the almost locked sets, only where the graph has ALS nodes (collecting them costs as
        // much as linking a graph without them)
        let als: &[Als<S>] = if self.als_cells.is_empty() {
            &[]
        } else {
            ctx.als()
        };
        // group and ALS nodes by digit, for the weak links into and out of them
        let mut als_nodes: Vec<Vec<u32>> = vec![Vec::new(); S::N];
        let mut groups: Vec<Vec<u32>> = vec![Vec::new(); S::N];
        // ALS nodes whose digit is in one cell of the set, by that cell: they are that
        // candidate, so the cell's other digits are weakly linked to them
        let mut als_in_cell: Vec<Vec<u32>> = vec![Vec::new(); S::CELLS];
        for (i, n) in self.nodes.iter().enumerate() {
            match n.kind {
                NodeKind::Als(_) => {
                    als_nodes[n.digit as usize - 1].push(i as u32);
                    if let Some(cell) = n.cells.single_cell() {
                        als_in_cell[S::bit_of(cell)].push(i as u32);
                    }
                }
                NodeKind::Group => groups[n.digit as usize - 1].push(i as u32),
                NodeKind::Candidate => {}
            }
        }
        // the ALS nodes each candidate sees all of (its weak links to them): per candidate
        // node, a range of one list, ALS nodes in order (counted, then filled in node order)
        let seen_by_als = |n: &Node<S>| match n.kind {
            NodeKind::Als(ai) => grid.digit_cells(n.digit) & als[ai as usize].seen_by(n.digit),
            _ => CellSet::EMPTY,
        };
        let mut seen_als_start = vec![0u32; self.nodes.len() + 1];
        for n in &self.nodes {
            for p in seen_by_als(n) {
                let c = self.candidate_node(Candidate::new(p, n.digit));
                seen_als_start[c.expect("a candidate of the grid has a node") as usize + 1] += 1;
            }
        }
        for i in 0..self.nodes.len() {
            seen_als_start[i + 1] += seen_als_start[i];
        }
        let mut seen_als = vec![0u32; seen_als_start[self.nodes.len()] as usize];
        let mut fill = seen_als_start.clone();
        for (i, n) in self.nodes.iter().enumerate() {
            for p in seen_by_als(n) {
                let c = self.candidate_node(Candidate::new(p, n.digit)).unwrap() as usize;
                seen_als[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
        // strong links between ALS nodes and the candidates whose cells they take, both ways,
        // by the node they leave
        let mut als_cell: Vec<(u32, u32)> = Vec::new();
        let mut als_node = 0;
        while als_node < self.nodes.len() {
            let NodeKind::Als(ai) = self.nodes[als_node].kind else {
                als_node += 1;
                continue;
            };
            let set = &als[ai as usize];
            let set_nodes = self.als_set_nodes(als_node);
            for (c, d, x) in als_takes_cell(grid, set) {
                let Some(from) = set_nodes.clone().find(|&n| self.nodes[n].digit == d) else {
                    continue; // a dead end: its "off" state is never reached
                };
                let to = self.candidate_node(Candidate::new(c, x)).unwrap();
                als_cell.push((from as u32, to));
                als_cell.push((to, from as u32));
            }
            als_node = set_nodes.end;
        }
        als_cell.sort_unstable();
        let mut als_cell = als_cell.into_iter().peekable();
        let mut strong = Vec::new();
        let mut weak = Vec::new();
        self.strong_start.push(0);
        self.weak_start.push(0);
        for id in 0..self.nodes.len() {
            let node = self.nodes[id];
            let d = node.digit;
            let dc = grid.digit_cells(d);
            match node.kind {
                NodeKind::Candidate | NodeKind::Group => {
                    let cells = node.cells;
                    // strong: the rest of the digit in a house is one candidate or one group
                    // (the houses holding the node: of its first cell's, those holding all)
                    let first = cells.first().expect("a node has a cell");
                    let houses = geo.houses_of(first);
                    let start = strong.len();
                    for h in houses
                        .into_iter()
                        .filter(|&h| cells.is_subset(geo.house(h)))
                    {
                        let rest = (dc & geo.house(h)) - cells;
                        let target = match rest.len() {
                            0 => None,
                            1 => self.candidate_node(Candidate::new(rest.first().unwrap(), d)),
                            _ => group_of.get(&(d, rest)).copied(),
                        };
                        if let Some(t) = target
                            && !strong[start..].iter().any(|e: &Edge| e.to == t)
                        {
                            strong.push(Edge {
                                to: t,
                                via: LinkVia::House,
                            });
                        }
                    }
                    if let Some(cell) = cells.single_cell() {
                        let mask = grid.candidates(cell);
                        if mask.count() == 2 {
                            let other = digits(mask).find(|&x| x != d).unwrap();
                            strong.push(Edge {
                                to: self.candidate_node(Candidate::new(cell, other)).unwrap(),
                                via: LinkVia::Cell,
                            });
                        }
                    }
                    // weak: the digit in cells seeing every cell of this node
                    let seeing = geo.common_peers(cells);
                    for p in dc & seeing {
                        weak.push(Edge {
                            to: self.candidate_node(Candidate::new(p, d)).unwrap(),
                            via: LinkVia::House,
                        });
                    }
                    if let Some(cell) = cells.single_cell() {
                        for x in digits(grid.candidates(cell)) {
                            if x != d {
                                weak.push(Edge {
                                    to: self.candidate_node(Candidate::new(cell, x)).unwrap(),
                                    via: LinkVia::Cell,
                                });
                            }
                        }
                    }
                    if node.kind == NodeKind::Candidate {
                        let cell = cells.first().unwrap();
                        for &a in &als_in_cell[S::bit_of(cell)] {
                            if self.nodes[a as usize].digit != d {
                                weak.push(Edge {
                                    to: a,
                                    via: LinkVia::Cell,
                                });
                            }
                        }
                    }
                    for &g in &groups[d as usize - 1] {
                        let gn = &self.nodes[g as usize];
                        if g as usize != id && gn.cells.is_subset(seeing) {
                            weak.push(Edge {
                                to: g,
                                via: LinkVia::House,
                            });
                        }
                    }
                    if node.kind == NodeKind::Candidate {
                        let range = seen_als_start[id] as usize..seen_als_start[id + 1] as usize;
                        weak.extend(seen_als[range].iter().map(|&a| Edge {
                            to: a,
                            via: LinkVia::House,
                        }));
                    } else {
                        for &a in &als_nodes[d as usize - 1] {
                            let an = &self.nodes[a as usize];
                            let NodeKind::Als(ai) = an.kind else { continue };
                            if cells.is_subset(als[ai as usize].seen_by(d)) {
                                weak.push(Edge {
                                    to: a,
                                    via: LinkVia::House,
                                });
                            }
                        }
                    }
                }
                NodeKind::Als(ai) => {
                    let set = &als[ai as usize];
                    // strong: without this digit the set's other digits are all placed in it
                    for other in self.als_set_nodes(id) {
                        if other != id {
                            strong.push(Edge {
                                to: other as u32,
                                via: LinkVia::Als,
                            });
                        }
                    }
                    let seen = set.seen_by(d);
                    for p in dc & seen {
                        weak.push(Edge {
                            to: self.candidate_node(Candidate::new(p, d)).unwrap(),
                            via: LinkVia::House,
                        });
                    }
                    for &g in &groups[d as usize - 1] {
                        let gn = &self.nodes[g as usize];
                        if gn.cells.is_subset(seen) {
                            weak.push(Edge {
                                to: g,
                                via: LinkVia::House,
                            });
                        }
                    }
                    if let Some(cell) = node.cells.single_cell() {
                        for x in digits(grid.candidates(cell)) {
                            if x != d {
                                weak.push(Edge {
                                    to: self.candidate_node(Candidate::new(cell, x)).unwrap(),
                                    via: LinkVia::Cell,
                                });
                            }
                        }
                    }
                }
            }
            while let Some(&(from, to)) = als_cell.peek()
                && from as usize == id
            {
                strong.push(Edge {
                    to,
                    via: LinkVia::AlsCell,
                });
                als_cell.next();
            }
            self.strong_start.push(strong.len() as u32);
            self.weak_start.push(weak.len() as u32);
        }
        self.strong = strong;
        self.weak = weak;
    }
}

/// Whether the node of digit `d` in the almost locked set `set` (`cells`, the set's cells
/// holding it) leads nowhere: with the digit in two cells or more, no candidate outside the
/// set sees all of them, so the node has no weak links (a group node's cells hold the digit,
/// so none sees them all either). Its "off" state is then never reached (only weak links turn
/// an ALS node off) and its "on" state leads nowhere: no chain passes it, and the graph leaves
/// it out. A digit in one cell of the set is that candidate, linked to the cell's other digits.
fn als_node_is_dead_end<S: Shape>(grid: &Grid<S>, set: &Als<S>, d: u8, cells: CellSet<S>) -> bool {
    cells.len() > 1 && (set.seen_by(d) & grid.digit_cells(d)).is_empty()
}

/// The cells an almost locked set takes: every `(cell, d, x)` where, without digit `d` in the
/// set (its other digits then locked in it), the cell outside the set keeps only digit `x`, for
/// it sees every cell of the set holding each of its other digits, two or more of them. Then
/// `d` in the set and `x` in the cell are not both false: a strong link. (With one other digit
/// the link is the chain `d = y` in the set, `y - y` to the cell, `y = x` in the cell, which the
/// graph has already.)
pub(crate) fn als_takes_cell<S: Shape>(grid: &Grid<S>, set: &Als<S>) -> Vec<(Cell, u8, u8)> {
    let mut out = Vec::new();
    let mut taken = S::per_cell(S::Mask::ZERO);
    let taken = taken.as_mut();
    let mut touched = CellSet::<S>::EMPTY;
    for y in digits(set.digits) {
        let cells = set.seen_by(y) & grid.digit_cells(y);
        touched |= cells;
        for c in cells {
            taken[S::bit_of(c)].set(usize::from(y) - 1);
        }
    }
    for c in touched {
        let cands = grid.candidates(c);
        let t = taken[S::bit_of(c)];
        if t.count() < 2 {
            continue;
        }
        for d in digits(set.digits) {
            let others = t.and_not(digit_mask::<S::Mask>(d));
            let rest = cands.and_not(others);
            if others.count() >= 2 && rest.count() == 1 {
                out.push((c, d, rest.first().unwrap() as u8 + 1));
            }
        }
    }
    out
}

/// `r1c23`-style name of cells (in row, then column order): one row or one column compressed,
/// otherwise a list (`r1c2,r3c4`). Rows and columns of 10 and up are not run together: cells
/// beyond the ninth row or column are listed.
pub(crate) fn cells_name(list: &[Cell]) -> String {
    let list_text = || {
        let names: Vec<String> = list.iter().map(|c| c.to_string()).collect();
        names.join(",")
    };
    let Some(&first) = list.first() else {
        return String::new();
    };
    if list.len() == 1 {
        return first.to_string();
    }
    let figure = |i: u8| (b'1' + i) as char;
    if list.iter().any(|c| c.row() >= 9 || c.col() >= 9) {
        list_text()
    } else if list.iter().all(|c| c.row() == first.row()) {
        let cols: String = list.iter().map(|c| figure(c.col())).collect();
        format!("r{}c{cols}", first.row() + 1)
    } else if list.iter().all(|c| c.col() == first.col()) {
        let rows: String = list.iter().map(|c| figure(c.row())).collect();
        format!("r{rows}c{}", first.col() + 1)
    } else {
        list_text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::nine::parse_puzzle;

    #[test]
    fn links_are_sound_implications() {
        // every strong link has at least one end true and every weak link at most one, in
        // the solution
        let grid = parse_puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let solution = crate::engine::check_puzzle(&grid).unwrap();
        let ctx = Context::new(&grid);
        let truth =
            |n: &Node<crate::model::S9>| n.cells.iter().any(|c| solution[c.index()] == n.digit);
        for kind in [GraphKind::Plain, GraphKind::Grouped, GraphKind::WithAls] {
            let g = LinkGraph::build(&ctx, kind);
            assert_ne!(g.len(), 0);
            for id in 0..g.len() as u32 {
                let a = truth(g.node(id));
                for e in g.strong_links(id) {
                    assert!(a || truth(g.node(e.to)), "{kind:?} strong {id} {e:?}");
                }
                for e in g.weak_links(id) {
                    assert!(!(a && truth(g.node(e.to))), "{kind:?} weak {id} {e:?}");
                }
            }
        }
    }

    #[test]
    fn als_nodes_are_the_digits_seen_from_outside_linked_to_their_siblings() {
        let grid = parse_puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let ctx = Context::new(&grid);
        let g = LinkGraph::build(&ctx, GraphKind::WithAls);
        let (mut kept, mut dead) = (0, 0);
        for (i, set) in ctx.als().iter().enumerate() {
            if set.cells.len() < 2 || set.cells.len() > MAX_ALS_NODE_CELLS {
                continue;
            }
            let ids: Vec<u32> = (0..g.len() as u32)
                .filter(|&id| g.node(id).kind == NodeKind::Als(i as u32))
                .collect();
            for d in digits(set.digits) {
                let node = ids.iter().find(|&&id| g.node(id).digit == d);
                let seen = set.seen_by(d) & grid.digit_cells(d);
                let one_cell = set.cells_of(d).len() == 1;
                assert_eq!(
                    node.is_some(),
                    one_cell || !seen.is_empty(),
                    "set {i} digit {d}"
                );
                let Some(&id) = node else {
                    dead += 1;
                    continue;
                };
                kept += 1;
                assert!(!g.weak_links(id).is_empty(), "set {i} digit {d}");
                let siblings: Vec<u32> = (g.strong_links(id).iter())
                    .filter(|e| e.via == LinkVia::Als)
                    .map(|e| e.to)
                    .collect();
                let expected: Vec<u32> = ids.iter().copied().filter(|&o| o != id).collect();
                assert_eq!(siblings, expected, "set {i} digit {d}");
            }
        }
        // the position has both kinds
        assert!(kept > 0 && dead > 0, "{kept} kept, {dead} left out");
    }

    #[test]
    fn compact_cell_names() {
        assert_eq!(cells_name(&[Cell::at(0, 1), Cell::at(0, 2)]), "r1c23");
        assert_eq!(cells_name(&[Cell::at(3, 4), Cell::at(5, 4)]), "r46c5");
        assert_eq!(cells_name(&[Cell::at(0, 1), Cell::at(2, 4)]), "r1c2,r3c5");
        // beyond the ninth column the figures would run together
        assert_eq!(cells_name(&[Cell::at(0, 8), Cell::at(0, 10)]), "r1c9,r1c11");
    }
}

//! Chains and loops of alternating inference, all on one engine.
//!
//! The position's link graph (`graph::LinkGraph`) holds the chain nodes (candidates, group
//! nodes, ALS nodes) and their strong and weak links; the breadth-first search (`search::Bfs`)
//! walks its implications from one assumption, shortest chains first. Each chain technique is a
//! configuration of that search ([`ChainTechnique`]): which nodes (plain, grouped, with ALS),
//! which links (X: one digit; XY: bivalue cells; all), and what a found chain must prove:
//!
//! - **AIC** (`a = … = b`): `a` off forces `b` on, so one of them is true and every candidate
//!   that sees both goes. X-Chains and XY-Chains are AICs on one digit and on bivalue cells.
//! - **Discontinuous Nice Loop**: `a` on forces `a` off (eliminate `a`), `a` off forces `a` on
//!   (place `a`), or `a` off forces another digit of its cell on (the cell keeps only those two).
//! - **Continuous Nice Loop**: an AIC whose ends are weakly linked closes into a loop; every
//!   weak link of the loop then holds exactly one true end, and whatever sees both ends of a
//!   weak link goes.
//!
//! Remote Pairs ([`remote_pairs`]) are here too, as the chains they are.

use crate::model::Sym;
use crate::technique::round_tenth;
use std::ops::ControlFlow;

use crate::model::candset::CandSet;
use crate::model::cell::{digit_mask, digits};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Bits, Shape};
use crate::step::{Chain, ChainNode, LinkType, Role, Step, eliminations_text};
use crate::technique::SizedBuiltin;
use crate::technique::catalogue::entry;
use crate::technique::context::Context;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

pub(crate) mod graph;
pub mod remote_pairs;
pub(crate) mod search;
pub(crate) mod walks;

use graph::{GraphKind, LinkGraph, NodeKind, cells_name};
pub use remote_pairs::RemotePairs;
use search::{Bfs, LinkFilter, is_on, node_of, state};

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    let mut all: Vec<Box<dyn Technique>> = vec![Box::new(RemotePairs)];
    for t in ChainTechnique::ALL {
        all.push(Box::new(t));
    }
    all
}

/// Sudoku Explainer's length bonus for a chain of `links` inferences: 0.1 each time the
/// length passes 4, 6, 8, 12, 16, 24, 32, … (the ceiling grows by 3/2 and 4/3 in turn).
pub(crate) fn length_bonus(links: usize) -> f32 {
    let mut added = 0.0;
    let mut ceil = 4usize;
    let mut odd = false;
    while links > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// `base` plus the length bonus of `links`, to a tenth.
pub(crate) fn chain_difficulty(base: f32, links: usize) -> f32 {
    round_tenth(base + length_bonus(links))
}

/// The longest chain searched, in links.
pub(crate) const MAX_LINKS: u16 = 24;

/// How many different paths the search keeps to each state (see [`search::Bfs`]).
pub(crate) const PATHS_PER_STATE: u8 = 3;

/// What a chain technique looks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChainKind {
    /// An AIC on one digit, both ends the same digit.
    XChain,
    /// An AIC of bivalue cells, both ends the same digit.
    XyChain,
    /// A loop whose every link alternates.
    ContinuousLoop,
    /// A loop broken at its start, which is eliminated or placed.
    DiscontinuousLoop,
    /// An alternating inference chain with strong links at both ends.
    Aic,
}

/// A chain technique: one configuration of the alternating-inference search.
#[derive(Clone, Copy, Debug)]
pub struct ChainTechnique {
    info: &'static TechniqueInfo,
    kind: ChainKind,
    graph: GraphKind,
}

impl ChainTechnique {
    /// X-Chain (6.6 plus length): one digit, strong links at both ends.
    pub const X_CHAIN: ChainTechnique =
        ChainTechnique::new("x-chain", ChainKind::XChain, GraphKind::Plain);
    /// XY-Chain (6.6 plus length): bivalue cells.
    pub const XY_CHAIN: ChainTechnique =
        ChainTechnique::new("xy-chain", ChainKind::XyChain, GraphKind::Plain);
    /// Continuous Nice Loop (7.0 plus length).
    pub const CONTINUOUS: ChainTechnique = ChainTechnique::new(
        "continuous-nice-loop",
        ChainKind::ContinuousLoop,
        GraphKind::Plain,
    );
    /// Discontinuous Nice Loop (7.0 plus length).
    pub const DISCONTINUOUS: ChainTechnique = ChainTechnique::new(
        "discontinuous-nice-loop",
        ChainKind::DiscontinuousLoop,
        GraphKind::Plain,
    );
    /// AIC (7.0 plus length).
    pub const AIC: ChainTechnique = ChainTechnique::new("aic", ChainKind::Aic, GraphKind::Plain);
    /// Grouped Continuous Nice Loop (7.1 plus length).
    pub const GROUPED_CONTINUOUS: ChainTechnique = ChainTechnique::new(
        "grouped-continuous-nice-loop",
        ChainKind::ContinuousLoop,
        GraphKind::Grouped,
    );
    /// Grouped Discontinuous Nice Loop (7.1 plus length).
    pub const GROUPED_DISCONTINUOUS: ChainTechnique = ChainTechnique::new(
        "grouped-discontinuous-nice-loop",
        ChainKind::DiscontinuousLoop,
        GraphKind::Grouped,
    );
    /// Grouped AIC (7.1 plus length).
    pub const GROUPED_AIC: ChainTechnique =
        ChainTechnique::new("grouped-aic", ChainKind::Aic, GraphKind::Grouped);
    /// Continuous Nice Loop through almost locked sets (7.3 plus length).
    pub const ALS_CONTINUOUS: ChainTechnique = ChainTechnique::new(
        "als-continuous-nice-loop",
        ChainKind::ContinuousLoop,
        GraphKind::WithAls,
    );
    /// Discontinuous Nice Loop through almost locked sets (7.3 plus length).
    pub const ALS_DISCONTINUOUS: ChainTechnique = ChainTechnique::new(
        "als-discontinuous-nice-loop",
        ChainKind::DiscontinuousLoop,
        GraphKind::WithAls,
    );
    /// AIC through almost locked sets (7.3 plus length).
    pub const ALS_AIC: ChainTechnique =
        ChainTechnique::new("als-aic", ChainKind::Aic, GraphKind::WithAls);

    /// Every chain technique, easiest first.
    pub const ALL: [ChainTechnique; 11] = [
        Self::X_CHAIN,
        Self::XY_CHAIN,
        Self::CONTINUOUS,
        Self::DISCONTINUOUS,
        Self::AIC,
        Self::GROUPED_CONTINUOUS,
        Self::GROUPED_DISCONTINUOUS,
        Self::GROUPED_AIC,
        Self::ALS_CONTINUOUS,
        Self::ALS_DISCONTINUOUS,
        Self::ALS_AIC,
    ];

    /// The chain technique of catalogue id `id`.
    const fn new(id: &str, kind: ChainKind, graph: GraphKind) -> ChainTechnique {
        ChainTechnique {
            info: entry(id),
            kind,
            graph,
        }
    }

    fn filter(&self) -> LinkFilter {
        match self.kind {
            ChainKind::XChain => LinkFilter::X,
            ChainKind::XyChain => LinkFilter::XY,
            _ => LinkFilter::ALL,
        }
    }
}

/// A chain found, before it becomes a step.
#[derive(Clone, Debug)]
struct Found<S: Shape> {
    links: u16,
    /// The states of the chain, start first.
    path: Vec<u32>,
    /// A loop closing from `end` back to the start node with a weak link.
    closes: bool,
    elims: CandSet<S>,
    place: Option<Candidate>,
}

impl<S: Shape> Found<S> {
    /// A chain that is not a closed loop and places nothing.
    fn open(links: u16, path: Vec<u32>, elims: CandSet<S>) -> Found<S> {
        Found {
            links,
            path,
            closes: false,
            elims,
            place: None,
        }
    }
}

impl SizedBuiltin for ChainTechnique {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| {
            let graph = ctx.link_graph(self.graph);
            if !graph.may_hold(self.kind) {
                return ControlFlow::Continue(());
            }
            let mut emitted: Vec<(CandSet<S>, Option<Candidate>)> = Vec::new();
            // First the shortest chains, one path kept per state (the search stops deepening past
            // the shortest chain found so far: all a pipeline wants is the first step); then, if
            // there were some and the caller wants more, every chain, with more paths per state.
            for shortest_only in [true, false] {
                let mut found = self.chains(ctx, graph, shortest_only, false);
                if found.is_empty() {
                    return ControlFlow::Continue(());
                }
                found.sort_by_key(|f| (f.links, std::cmp::Reverse(f.elims.len())));
                for f in found {
                    if emitted.iter().any(|(e, p)| *e == f.elims && *p == f.place) {
                        continue;
                    }
                    emitted.push((f.elims, f.place));
                    let step = self.step(graph, &f);
                    sink(step)?;
                }
            }
            ControlFlow::Continue(())
        })
    }
}

impl ChainTechnique {
    /// Every chain of this kind in the graph, unsorted; with `shortest_only`, the search keeps
    /// one path per state and each start's search goes no deeper than the shortest chain found
    /// so far. Unless `every_start`, a start is passed over where the graph's walks show that
    /// its searches would find nothing ([`walks`]); the tests search from every start too.
    fn chains<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        graph: &LinkGraph<S>,
        shortest_only: bool,
        every_start: bool,
    ) -> Vec<Found<S>> {
        let walks = graph.walks();
        let grid = ctx.grid();
        let filter = self.filter();
        let paths = if shortest_only { 1 } else { PATHS_PER_STATE };
        let present = CandSet::of_grid(grid);
        let mut bfs = Bfs::new(graph.len());
        let mut found = Vec::new();
        let mut seen = Vec::new();
        let mut links_of_loop = Vec::new();
        let mut max_links = MAX_LINKS;
        let mut bounded = 0;
        // the states a chain may pass: a continuous loop stays in its start's component, every
        // other chain on walks between contradictory states ([`walks`]); the tests search
        // every state too
        let on_walk = |t: u32| every_start || walks.on_walk(t);
        for s in 0..graph.len() as u32 {
            if shortest_only {
                // the shortest chain found so far bounds the next searches
                max_links = found[bounded..]
                    .iter()
                    .fold(max_links, |m, f: &Found<S>| m.min(f.links));
                bounded = found.len();
            }
            let sn = *graph.node(s);
            // chains start at candidates and group nodes: a chain through an ALS node is found
            // from another node on it (only chains made of nothing but ALS nodes are left out)
            if matches!(sn.kind, NodeKind::Als(_)) {
                continue;
            }
            let ws = *graph.weak_set(s);
            // what a chain from s could eliminate: a candidate it rules out that leads to its
            // own opposite
            let eliminates = every_start || !(ws & walks.eliminable).is_empty();
            match self.kind {
                ChainKind::DiscontinuousLoop => {
                    // s on forces s off: s goes
                    let goal = state(s, false);
                    let on_fails = every_start || walks.contradictory(state(s, true));
                    let off_fails = walks.contradictory(state(s, false)) || eliminates;
                    if on_fails {
                        bfs.run(
                            graph,
                            filter,
                            state(s, true),
                            max_links,
                            paths,
                            on_walk,
                            |b, l, t, links| {
                                if t != goal {
                                    return false;
                                }
                                if b.path_is_simple(b.parent(l), &mut seen) {
                                    found.push(Found::open(
                                        links,
                                        b.path(l),
                                        node_cands(grid, &sn),
                                    ));
                                }
                                true
                            },
                        );
                    }
                    // s off forces s on, or another digit of its cell on: the cell keeps only
                    // those digits (a placement is written, as HoDoKu does, as the elimination
                    // of the cell's other digits)
                    if off_fails {
                        bfs.run(
                            graph,
                            filter,
                            state(s, false),
                            max_links,
                            paths,
                            on_walk,
                            |b, l, t, links| {
                                if !is_on(t) {
                                    return false;
                                }
                                let tid = node_of(t);
                                let tn = graph.node(tid);
                                let same_cell =
                                    tn.kind == NodeKind::Candidate && tn.cells == sn.cells;
                                if tid != s && (!same_cell || links < 3) {
                                    return false;
                                }
                                let path_end = if tid == s { b.parent(l) } else { l };
                                if !b.path_is_simple(path_end, &mut seen) {
                                    return false;
                                }
                                let elims = if tid == s && sn.kind != NodeKind::Candidate {
                                    ws & present
                                } else if tid == s {
                                    let cell = sn.cells.first().unwrap();
                                    let mut e = CandSet::<S>::EMPTY;
                                    for d in digits(grid.candidates(cell)) {
                                        if d != sn.digit {
                                            e.insert(Candidate::new(cell, d));
                                        }
                                    }
                                    e
                                } else {
                                    ws & *graph.weak_set(tid)
                                };
                                if !elims.is_empty() {
                                    found.push(Found::open(links, b.path(l), elims));
                                }
                                tid == s
                            },
                        );
                    }
                }
                ChainKind::Aic | ChainKind::XChain | ChainKind::XyChain => {
                    if !eliminates {
                        continue;
                    }
                    let start = state(s, false);
                    bfs.run(
                        graph,
                        filter,
                        start,
                        max_links,
                        paths,
                        on_walk,
                        |b, l, t, links| {
                            if !is_on(t) || links < 3 {
                                return false;
                            }
                            let tid = node_of(t);
                            let tn = graph.node(tid);
                            if tid == s {
                                return false;
                            }
                            if self.kind != ChainKind::Aic && tn.digit != sn.digit {
                                return false;
                            }
                            // ends in one cell make a discontinuous loop, which reports them (ends
                            // that see each other with one digit close a continuous loop, which may
                            // prove more and comes first in the pipeline; the AIC is still one)
                            if tn.kind == NodeKind::Candidate && tn.cells == sn.cells {
                                return false;
                            }
                            let elims = ws & *graph.weak_set(tid);
                            if !elims.is_empty() && b.path_is_simple(l, &mut seen) {
                                found.push(Found::open(links, b.path(l), elims));
                            }
                            false
                        },
                    );
                }
                ChainKind::ContinuousLoop => {
                    let start = state(s, false);
                    let in_loop = |t: u32| every_start || walks.same_component(t, start);
                    bfs.run(
                        graph,
                        filter,
                        start,
                        max_links,
                        paths,
                        in_loop,
                        |b, l, t, links| {
                            if !is_on(t) || links < 3 {
                                return false;
                            }
                            let tid = node_of(t);
                            if tid == s {
                                return false;
                            }
                            let closes = graph
                                .weak_links(tid)
                                .iter()
                                .any(|e| e.to == s && filter.weak(e));
                            if !closes || !b.path_is_simple(l, &mut seen) {
                                return false;
                            }
                            links_of_loop.clear();
                            b.for_each_link(l, |p, q| links_of_loop.push((p, q)));
                            links_of_loop.push((t, state(s, false)));
                            let elims = loop_elims(ctx, graph, &links_of_loop);
                            if !elims.is_empty() {
                                found.push(Found {
                                    links: links + 1,
                                    path: b.path(l),
                                    closes: true,
                                    elims,
                                    place: None,
                                });
                            }
                            false
                        },
                    );
                }
            }
        }
        found
    }

    /// The step for a found chain: rebuilds the path and writes it out.
    fn step<S: Shape>(&self, graph: &LinkGraph<S>, f: &Found<S>) -> Step {
        let mut chain = chain_of(graph, &f.path);
        if f.closes {
            let first = chain.nodes[0].clone();
            chain.nodes.push(first);
            chain.links.push(LinkType::Weak);
        }
        let text = chain_text(&chain);
        let result = match f.place {
            Some(p) => format!("{}={}", p.cell, Sym(p.digit)),
            None => eliminations_text(&f.elims.to_sorted_vec()),
        };
        let step = Step::new(
            self.info.id,
            chain_difficulty(self.info.difficulty, f.links as usize),
        );
        let (mut on, mut off) = (Vec::new(), Vec::new());
        for n in &chain.nodes {
            let dst = if n.on { &mut on } else { &mut off };
            for &c in &n.cells {
                let cand = Candidate::new(c, n.digit);
                if !dst.contains(&cand) {
                    dst.push(cand);
                }
            }
        }
        let step = step
            .highlight(Role::ColorA, on)
            .highlight(Role::ColorB, off)
            .explain(format!("{}: {text} => {result}", self.info.name));
        let step = match f.place {
            Some(p) => step.place(p.cell, p.digit),
            None => step.eliminations(f.elims.to_sorted_vec()),
        };
        step.chain(chain)
    }
}

/// What a continuous loop eliminates, given its links as `(from, to)` states (the closing
/// weak link included). Every weak link of the loop has exactly one true end: what sees both
/// goes (in a house, outside the loop's cells; in a cell, the cell's other digits); an almost
/// locked set entered and left by two digits holds exactly one of them, so its other digits
/// are locked in it (and likewise for a set taking a cell, [`als_cell_elims`]).
fn loop_elims<S: Shape>(
    ctx: &Context<'_, S>,
    graph: &LinkGraph<S>,
    links: &[(u32, u32)],
) -> CandSet<S> {
    let grid = ctx.grid();
    let mut house_elims = CandSet::<S>::EMPTY;
    let mut cell_elims = CandSet::<S>::EMPTY;
    let mut als_elims = CandSet::<S>::EMPTY;
    let mut loop_cells = CellSet::<S>::EMPTY;
    for &(p, q) in links {
        let (pn, qn) = (graph.node(node_of(p)), graph.node(node_of(q)));
        loop_cells |= pn.cells;
        if is_on(p) {
            let both = *graph.weak_set(node_of(p)) & *graph.weak_set(node_of(q));
            if pn.kind == NodeKind::Candidate
                && qn.kind == NodeKind::Candidate
                && pn.cells == qn.cells
            {
                cell_elims |= both;
            } else {
                house_elims |= both;
            }
        } else {
            match (pn.kind, qn.kind) {
                (NodeKind::Als(i), NodeKind::Als(j)) if i == j => {
                    let set = &ctx.als()[i as usize];
                    for z in digits(set.digits) {
                        if z != pn.digit && z != qn.digit {
                            als_elims.add_cells(z, set.seen_by(z));
                        }
                    }
                }
                (NodeKind::Als(i), NodeKind::Candidate) => {
                    als_elims |= als_cell_elims(ctx, i, pn, qn);
                }
                (NodeKind::Candidate, NodeKind::Als(i)) => {
                    als_elims |= als_cell_elims(ctx, i, qn, pn);
                }
                _ => {}
            }
        }
    }
    for cells in house_elims.0.as_mut() {
        *cells -= loop_cells;
    }
    (house_elims | cell_elims | als_elims) & CandSet::of_grid(grid)
}

/// What a loop's strong link between the ALS node `als` (set `index`) and the candidate `cand`
/// whose cell the set takes ([`graph::als_takes_cell`]) eliminates: either the set lacks the
/// node's digit and the cell holds the candidate, or the set has it and the cell holds one of
/// its other digits `y`, which the set then lacks. Either way the set holds every other digit
/// of its own (locked in it), and each `y` lies in the set or in the cell.
fn als_cell_elims<S: Shape>(
    ctx: &Context<'_, S>,
    index: u32,
    als: &graph::Node<S>,
    cand: &graph::Node<S>,
) -> CandSet<S> {
    let set = &ctx.als()[index as usize];
    let cell = cand.cells.first().expect("a candidate node has a cell");
    let others = ctx
        .grid()
        .candidates(cell)
        .and_not(digit_mask::<S::Mask>(cand.digit));
    let mut elims = CandSet::<S>::EMPTY;
    for z in digits(set.digits) {
        if z == als.digit {
            continue;
        }
        if others.has(usize::from(z) - 1) {
            elims.add_cells(z, set.seen_by(z) & ctx.grid().geometry().peers(cell));
        } else {
            elims.add_cells(z, set.seen_by(z));
        }
    }
    elims
}

/// The candidates a node stands for.
fn node_cands<S: Shape>(grid: &Grid<S>, n: &graph::Node<S>) -> CandSet<S> {
    let mut s = CandSet::<S>::EMPTY;
    s.add_cells(n.digit, n.cells & grid.digit_cells(n.digit));
    s
}

/// The chain data of a path of states.
fn chain_of<S: Shape>(graph: &LinkGraph<S>, path: &[u32]) -> Chain {
    let nodes = path
        .iter()
        .map(|&s| {
            let n = graph.node(node_of(s));
            ChainNode {
                digit: n.digit,
                cells: n.cells.iter().collect(),
                on: is_on(s),
                als: match n.kind {
                    NodeKind::Als(i) => graph.als_cells(i).iter().collect(),
                    _ => Vec::new(),
                },
            }
        })
        .collect();
    let links = path
        .windows(2)
        .map(|w| LinkType::out_of(is_on(w[0])))
        .collect();
    Chain { nodes, links }
}

fn node_name(n: &ChainNode) -> String {
    let sorted = |cells: &[crate::model::cell::Cell]| {
        let mut v = cells.to_vec();
        v.sort();
        v.dedup();
        v
    };
    if !n.als.is_empty() {
        format!("ALS:{}", cells_name(&sorted(&n.als)))
    } else {
        cells_name(&sorted(&n.cells))
    }
}

/// A chain in the usual nice-loop notation: each node's cells, links written `=d=` (strong)
/// or `-d-` (weak) with their digit; two digits of one cell (or one ALS) are written once.
pub(crate) fn chain_text(chain: &Chain) -> String {
    let mut out = node_name(&chain.nodes[0]);
    for (i, link) in chain.links.iter().enumerate() {
        let (a, b) = (&chain.nodes[i], &chain.nodes[i + 1]);
        let (an, bn) = (node_name(a), node_name(b));
        if an == bn && a.digit != b.digit {
            // a link inside one cell or one ALS: the next link carries the new digit
            continue;
        }
        let sym = match link {
            LinkType::Strong => '=',
            LinkType::Weak => '-',
        };
        out.push_str(&format!(" {sym}{}{sym} {bn}", Sym(b.digit)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn se_length_bonus() {
        assert_eq!(length_bonus(4), 0.0);
        assert!((length_bonus(5) - 0.1).abs() < 1e-6);
        assert!((length_bonus(7) - 0.2).abs() < 1e-6);
        assert!((length_bonus(11) - 0.3).abs() < 1e-6);
        assert_eq!(chain_difficulty(7.0, 12), 7.3);
        assert!(chain_difficulty(7.0, 12) > chain_difficulty(7.0, 4));
    }
}

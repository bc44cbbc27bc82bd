//! Forcing chains and nets: follow an assumption (a candidate true, or false) as far as a
//! [`Level`] of rules allows, and conclude from where the branches lead.
//!
//! - **Contradiction**: a candidate assumed true (or false) leads to an empty cell, a digit
//!   without a place in a house, or a candidate both true and false, so the opposite holds.
//! - **Cell** and **house** forcing (verity): every candidate of a cell, or every place of a digit
//!   in a house, leads to the same conclusion, which therefore holds.
//! - **Double**: a candidate true and the same candidate false lead to the same conclusion.
//!
//! The levels follow Sudoku Explainer's: static links (forcing chains, 8.0), singles on the
//! hypothetical grid (dynamic, 8.5), the cheaper techniques too (dynamic +, 9.0), and nested
//! levels whose propagation removes every candidate that leads to a contradiction one level
//! down (9.5, 10.5, 11.0 and 11.5 by inner level). Each step keeps its proof as a
//! [`ForcingNet`]; its difficulty is the level's base plus SE's length bonus over the net's size.

pub mod kraken;
pub(crate) mod propagate;

use rustc_hash::FxHashMap as HashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;

use crate::model::Sym;
use crate::model::cell::{digits, digits_compact};
use crate::model::grid::{Candidate, Grid};
use crate::model::stop;
use crate::model::{Bits, Shape};
use crate::step::net::{ForcingKind, ForcingNet, NetBranch, literal};
use crate::step::{Role, Step};
use crate::technique::catalogue::entry;
use crate::technique::chains::chain_difficulty;
use crate::technique::context::Context;
use crate::technique::{
    SizedBuiltin, StepSink, Technique, TechniqueError, TechniqueInfo, stoppable,
};

pub use propagate::Level;
use propagate::{
    Aids, Cands, NoRecord, Record, State, Trail, candidates, index, record_branch_with,
    sketch_branch_with,
};

/// The forcing techniques, cheapest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(Forcing::STATIC),
        Box::new(Forcing::DYNAMIC),
        Box::new(Forcing::PLUS),
        Box::new(Forcing::NESTED),
        Box::new(Forcing::NESTED_DYNAMIC),
        Box::new(Forcing::NESTED_PLUS),
        Box::new(Forcing::NESTED_TWICE),
    ]
}

/// A forcing technique: the search for contradictions, verities and double implications at
/// one [`Level`].
pub struct Forcing {
    info: &'static TechniqueInfo,
    level: Level,
}

impl Forcing {
    /// Forcing chains over the position's links (8.0).
    pub const STATIC: Forcing = Forcing {
        info: entry("forcing-chain"),
        level: Level::Static,
    };
    /// Dynamic forcing chains: singles on the hypothetical grid (8.5).
    pub const DYNAMIC: Forcing = Forcing {
        info: entry("dynamic-forcing-chain"),
        level: Level::Dynamic,
    };
    /// Dynamic forcing chains with the cheaper techniques (9.0).
    pub const PLUS: Forcing = Forcing {
        info: entry("dynamic-forcing-chain-plus"),
        level: Level::Plus,
    };
    /// Nested forcing chains, static chains one level down (9.5).
    pub const NESTED: Forcing = Forcing {
        info: entry("nested-forcing-chain"),
        level: Level::Nested(&Level::Static),
    };
    /// Nested forcing chains, dynamic chains one level down (10.5).
    pub const NESTED_DYNAMIC: Forcing = Forcing {
        info: entry("nested-dynamic-forcing-chain"),
        level: Level::Nested(&Level::Dynamic),
    };
    /// Nested forcing chains, dynamic (+) chains one level down (11.0).
    pub const NESTED_PLUS: Forcing = Forcing {
        info: entry("nested-dynamic-forcing-chain-plus"),
        level: Level::Nested(&Level::Plus),
    };
    /// Forcing chains nested twice: nested dynamic chains one level down (11.5).
    pub const NESTED_TWICE: Forcing = Forcing {
        info: entry("double-nested-forcing-chain"),
        level: Level::Nested(&Level::Nested(&Level::Dynamic)),
    };
}

impl SizedBuiltin for Forcing {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| Search::new(self, ctx).run(sink))
    }
}

impl Forcing {
    /// Whether this technique's search stops a window past its first contradiction on grids
    /// of shape `S` (nested levels on grids larger than [`EXHAUSTIVE_UP_TO`]).
    fn windowed<S: Shape>(&self) -> bool {
        self.level.depth() > 0 && S::N > EXHAUSTIVE_UP_TO
    }
}

/// Every candidate of `grid`, easiest assumptions first (cells with fewer candidates), then by
/// cell and digit.
fn cell_order<S: Shape>(grid: &Grid<S>) -> Vec<Candidate> {
    let mut order: Vec<Candidate> = grid
        .empty_cells()
        .iter()
        .flat_map(|cell| digits(grid.candidates(cell)).map(move |d| Candidate::new(cell, d)))
        .collect();
    order.sort_by_key(|c| (grid.candidates(c.cell).count(), c.cell, c.digit));
    order
}

/// `order` (every candidate of `start`) rearranged for a windowed search: the assumptions that
/// reach furthest at the dynamic (+) level first (the most candidates made true or false),
/// ties in `order`'s order. A nested contradiction is far likelier there: at a 25x25 position
/// of a minimal puzzle, the first assumptions of this order contradicted one level up, where
/// in cell order the first contradiction came after more than 300.
fn by_reach<S: Shape>(start: &State<S>, order: Vec<Candidate>) -> Vec<Candidate> {
    let reach = |c: Candidate| {
        let mut st = start.clone();
        if st.assume(c, true, Level::Plus, &mut NoRecord).is_err() {
            return usize::MAX;
        }
        let count = |sets: Cands<S>| {
            sets.as_ref()
                .iter()
                .map(|s| s.len() as usize)
                .sum::<usize>()
        };
        count(st.on_since(start)) + count(st.off_since(start))
    };
    let mut keyed: Vec<(usize, Candidate)> = order.into_iter().map(|c| (reach(c), c)).collect();
    keyed.sort_by_key(|&(r, _)| Reverse(r));
    keyed.into_iter().map(|(_, c)| c).collect()
}

/// The length SE's bonus counts for `net` at `level`: its implications, less two for static
/// chains (as SE counts them: calibrated on SE's ratings of `top1465.txt`; docs/rating.md
/// gives the agreement with and without).
fn rated_length(level: Level, net: &ForcingNet) -> usize {
    match level {
        Level::Static => net.length().saturating_sub(2),
        _ => net.length(),
    }
}

/// What one branch reached: the candidates it made true and false.
struct Outcome<S: Shape> {
    on: Cands<S>,
    off: Cands<S>,
}

fn meet<S: Shape>(a: &mut Outcome<S>, b: &Outcome<S>) {
    for d in 0..S::N {
        a.on.as_mut()[d] &= b.on.as_ref()[d];
        a.off.as_mut()[d] &= b.off.as_ref()[d];
    }
}

fn conclusions<S: Shape>(o: &Outcome<S>) -> impl Iterator<Item = (Candidate, bool)> + '_ {
    let of = move |sets: &'_ Cands<S>, d: usize, on: bool| {
        sets.as_ref()[d]
            .iter()
            .map(move |c| (Candidate::new(c, d as u8 + 1), on))
    };
    let on = (0..S::N).flat_map(move |d| of(&o.on, d, true));
    let off = (0..S::N).flat_map(move |d| of(&o.off, d, false));
    on.chain(off)
}

/// A conclusion found by the search, before its proof is rebuilt.
struct Found {
    kind: ForcingKind,
    /// The assumptions of the branches (each candidate true, except a Double's second).
    branches: Vec<(Candidate, bool)>,
    /// The conclusion: a candidate true or false.
    target: (Candidate, bool),
    /// For a contradiction at a nested level, the candidates its branch's nested passes
    /// removed, to record the branch again without searching.
    trail: Option<Vec<Candidate>>,
    /// The fewest implications its net can have (for the smallest net to be found without
    /// building every net).
    floor: usize,
}

struct Search<'a, S: Shape> {
    tech: &'a Forcing,
    grid: &'a Grid<S>,
    start: State<S>,
    /// What is built once from `start` for the many assumptions followed from it.
    aids: Aids<S>,
    /// Every candidate, in the order followed: [`cell_order`], or [`by_reach`] on a windowed
    /// search.
    order: Vec<Candidate>,
    /// The index in `outcomes` of each candidate's true-branch (`u16::MAX` when it
    /// contradicted).
    at: Vec<u16>,
    outcomes: Vec<Outcome<S>>,
}

const NO_OUTCOME: u16 = u16::MAX;

/// The largest grid side on which a nested search follows every assumption before it chooses
/// the smallest net.
///
/// A nested search costs about the square of the candidates (every outer assumption runs a
/// pass of inner ones), and on 25x25 a minimal puzzle's nested dynamic (+) search took minutes
/// a step. On larger grids a nested search follows the assumptions that reach furthest first
/// ([`by_reach`]), stops [`LARGE_GRID_WINDOW`] assumptions past its first contradiction and
/// takes the smallest net among those found: still a proved step of that level, though not
/// always the smallest net of the whole position. A search that finds no contradiction still
/// follows every assumption (verities and double implications need them all).
const EXHAUSTIVE_UP_TO: usize = 16;

/// How many assumptions past its first contradiction a nested search follows on a grid larger
/// than [`EXHAUSTIVE_UP_TO`].
const LARGE_GRID_WINDOW: usize = 32;

impl<'a, S: Shape> Search<'a, S> {
    fn new(tech: &'a Forcing, ctx: &Context<'a, S>) -> Search<'a, S> {
        let grid = ctx.grid();
        let start = State::settled_of(grid);
        let order = if tech.windowed::<S>() {
            ctx.forcing_order(|| by_reach(&start, cell_order(grid)))
                .to_vec()
        } else {
            cell_order(grid)
        };
        Search {
            tech,
            grid,
            aids: Aids::for_search(&start, tech.level),
            start,
            order,
            at: vec![NO_OUTCOME; candidates::<S>()],
            outcomes: Vec::new(),
        }
    }

    fn run(&mut self, sink: &mut StepSink<'_>) -> ControlFlow<()> {
        let level = self.tech.level;
        let nested = level.depth() > 0;
        let mut contradictions = Vec::new();
        // At a nested level, a candidate that a branch without contradiction made true cannot
        // lead to a contradiction either: the state it reaches holds less than that branch's
        // (every rule only removes candidates, and that branch's end already holds it), so a
        // unit empty there would be empty in the branch's end too. Such candidates are
        // followed only if their outcomes are needed (for verities and doubles).
        let mut consistent = S::NO_DIGIT_CELLS;
        let mut deferred = Vec::new();
        let windowed = self.tech.windowed::<S>();
        let mut stop_at = usize::MAX;
        for i in 0..self.order.len() {
            // (the assumption before may have been cut short: nothing more is concluded)
            if stop::poll() {
                return ControlFlow::Break(());
            }
            if i >= stop_at {
                // a window past the first contradiction: its smallest net is the step
                return self.emit_shortest(contradictions, sink);
            }
            let c = self.order[i];
            if nested && consistent.as_ref()[c.digit as usize - 1].contains(c.cell) {
                deferred.push(c);
                continue;
            }
            let mut st = self.start.clone();
            // At a nested level, keep which candidates the nested passes removed: the
            // proofs of the contradictions are then recorded by replaying them.
            let mut trail = Trail::default();
            let clash = if nested {
                st.assume_with(c, true, level, &mut trail, &self.aids)
            } else {
                st.assume_with(c, true, level, &mut NoRecord, &self.aids)
            };
            if clash.is_err() {
                contradictions.push(Found {
                    kind: ForcingKind::Contradiction,
                    branches: vec![(c, true)],
                    target: (c, false),
                    trail: nested.then_some(trail.removed),
                    floor: st.dynamic_proof_floor(&self.start, level),
                });
                if windowed && stop_at == usize::MAX {
                    stop_at = i + 1 + LARGE_GRID_WINDOW;
                }
                continue;
            }
            self.keep_outcome(c, &st);
            for (d, on) in st.on_since(&self.start).as_ref().iter().enumerate() {
                consistent.as_mut()[d] |= *on;
            }
        }
        self.emit_shortest(contradictions, sink)?;
        for c in deferred {
            let mut st = self.start.clone();
            let r = st.assume_with(c, true, level, &mut NoRecord, &self.aids);
            debug_assert!(
                r.is_ok(),
                "{c} was made true by a branch without contradiction"
            );
            if r.is_ok() {
                self.keep_outcome(c, &st);
            }
        }
        if stop::reached().is_some() {
            return ControlFlow::Break(());
        }
        let verities = self.verities();
        self.emit_shortest(verities, sink)?;
        let doubles = self.false_branches();
        if stop::reached().is_some() {
            return ControlFlow::Break(());
        }
        self.emit_shortest(doubles, sink)
    }

    /// Keeps what `c`'s true-branch reached (`st`) for verities and doubles.
    fn keep_outcome(&mut self, c: Candidate, st: &State<S>) {
        self.at[index::<S>(c)] = self.outcomes.len() as u16;
        self.outcomes.push(Outcome {
            on: st.on_since(&self.start),
            off: st.off_since(&self.start),
        });
    }

    /// Cell and house forcing from the true-branches.
    fn verities(&self) -> Vec<Found> {
        let mut found = Vec::new();
        let mut groups: Vec<(ForcingKind, Vec<Candidate>)> = Vec::new();
        for cell in self.grid.empty_cells() {
            let cands: Vec<Candidate> = digits(self.grid.candidates(cell))
                .map(|d| Candidate::new(cell, d))
                .collect();
            groups.push((ForcingKind::Cell(cell), cands));
        }
        for house in self.grid.geometry().houses() {
            for d in self.grid.all_digits() {
                let places = self.grid.digit_cells_in(d, house);
                if places.len() < 2 {
                    continue;
                }
                let cands = places.iter().map(|c| Candidate::new(c, d)).collect();
                groups.push((ForcingKind::House(d, house), cands));
            }
        }
        for (kind, cands) in groups {
            if cands.len() < 2 || cands.iter().any(|&c| self.at[index::<S>(c)] == NO_OUTCOME) {
                continue;
            }
            let first = &self.outcomes[self.at[index::<S>(cands[0])] as usize];
            let mut common = Outcome {
                on: first.on,
                off: first.off,
            };
            for c in &cands[1..] {
                meet(
                    &mut common,
                    &self.outcomes[self.at[index::<S>(*c)] as usize],
                );
            }
            for target in conclusions(&common) {
                found.push(Found {
                    kind,
                    branches: cands.iter().map(|&c| (c, true)).collect(),
                    target,
                    trail: None,
                    floor: 0,
                });
            }
        }
        found
    }

    /// Candidates whose falsity leads to a contradiction, and double implications (the same
    /// conclusion from a candidate true and false). Candidates with a strong link are left
    /// out: their false-branch is the true-branch of the link's other end.
    fn false_branches(&self) -> Vec<Found> {
        let level = self.tech.level;
        let mut found = Vec::new();
        for &c in &self.order {
            if stop::poll() {
                break;
            }
            if self.grid.candidates(c.cell).count() == 2
                || (self.grid.geometry().houses_of(c.cell).iter())
                    .any(|h| self.grid.digit_cells_in(c.digit, *h).len() == 2)
            {
                continue;
            }
            let mut st = self.start.clone();
            if st
                .assume_with(c, false, level, &mut NoRecord, &self.aids)
                .is_err()
            {
                found.push(Found {
                    kind: ForcingKind::Contradiction,
                    branches: vec![(c, false)],
                    target: (c, true),
                    trail: None,
                    floor: st.dynamic_proof_floor(&self.start, level),
                });
                continue;
            }
            let at = self.at[index::<S>(c)];
            if at == NO_OUTCOME {
                continue;
            }
            let mut common = Outcome {
                on: st.on_since(&self.start),
                off: st.off_since(&self.start),
            };
            meet(&mut common, &self.outcomes[at as usize]);
            for target in conclusions(&common) {
                found.push(Found {
                    kind: ForcingKind::Double,
                    branches: vec![(c, true), (c, false)],
                    target,
                    trail: None,
                    floor: 0,
                });
            }
        }
        found
    }

    /// Rebuilds the proofs of `found` and hands the steps to `sink`, smallest net first.
    fn emit_shortest(&self, found: Vec<Found>, sink: &mut StepSink<'_>) -> ControlFlow<()> {
        // Many conclusions share a branch (a cell's candidates, a house's places): follow each
        // assumption once with a record, and rebuild every proof from it.
        // (a few assumptions per search: a map, not a slot for every candidate)
        let mut records = HashMap::default();
        // How many conclusions not yet built use each branch: a record no later net needs is
        // dropped (at 25x25 a record with its nested proofs holds megabytes).
        let mut uses: HashMap<(Candidate, bool), usize> = HashMap::default();
        for f in &found {
            for &b in &f.branches {
                *uses.entry(b).or_default() += 1;
            }
        }
        // Smallest proof first; placements before eliminations; then search order. A net is
        // built only when its floor comes first: a conclusion waits in the queue at its floor
        // (never more than its net's size) until built, then at its size, so the steps come
        // out in the order of sorting every net, and the ones past the sink's last are never
        // built. Only the steps the sink takes are written out (the engine takes the first).
        // (size or floor, elimination, index, whether the net is built)
        let mut queue: BinaryHeap<Reverse<(usize, bool, usize, bool)>> = found
            .iter()
            .enumerate()
            .map(|(i, f)| {
                // a nested contradiction's floor from a sketch of its record, when there is a
                // choice (its full record proves every nested removal again: costly)
                let floor = match &f.trail {
                    Some(trail) if found.len() > 1 => self.sketch_floor(f, trail),
                    _ => f.floor,
                };
                Reverse((floor, !f.target.1, i, false))
            })
            .collect();
        let mut nets: Vec<Option<ForcingNet>> = found.iter().map(|_| None).collect();
        while let Some(Reverse((size, elimination, i, built))) = queue.pop() {
            if stop::poll() {
                return ControlFlow::Break(());
            }
            if built {
                let net = nets[i].take().expect("a built net is queued once");
                sink(self.step(&found[i], net))?;
                continue;
            }
            let net = self.net(&found[i], &mut records);
            for b in &found[i].branches {
                let left = uses.get_mut(b).expect("every branch is counted");
                *left -= 1;
                if *left == 0 {
                    records.remove(b);
                }
            }
            let Some(net) = net else {
                continue;
            };
            debug_assert!(net.size() >= size, "a net under its floor");
            queue.push(Reverse((net.size(), elimination, i, true)));
            nets[i] = Some(net);
        }
        ControlFlow::Continue(())
    }

    /// The fewest implications the net of `found`, a contradiction at a nested level whose
    /// branch left `trail`, can have: from a sketch of its record ([`Record::sketch`]).
    fn sketch_floor(&self, found: &Found, trail: &[Candidate]) -> usize {
        let (c, on) = found.branches[0];
        let (rec, r) = sketch_branch_with(
            &self.start,
            c,
            on,
            self.tech.level,
            &self.aids,
            trail.to_vec(),
        );
        debug_assert!(r.is_err(), "the sketch meets the contradiction too");
        rec.proof_floor().max(found.floor)
    }

    /// The net proving `found`; `records` keeps each assumption's recorded branch for the
    /// next calls.
    fn net(
        &self,
        found: &Found,
        records: &mut HashMap<(Candidate, bool), Record<S>>,
    ) -> Option<ForcingNet> {
        let level = self.tech.level;
        let base = &self.start.cands;
        let mut branches: Vec<NetBranch> = Vec::new();
        for &(c, on) in &found.branches {
            let rec = records.entry((c, on)).or_insert_with(|| {
                let replay = found.trail.clone();
                let (rec, r) =
                    record_branch_with(&self.start, base, c, on, level, &self.aids, replay);
                debug_assert_eq!(r.is_err(), found.kind == ForcingKind::Contradiction);
                rec
            });
            let branch = match found.kind {
                ForcingKind::Contradiction => rec.proof(None).0,
                _ => {
                    let (t, t_on) = found.target;
                    let at = rec.fact_of(t, t_on);
                    debug_assert!(at.is_some(), "{t} {t_on} not found again");
                    rec.proof(Some(at?)).0
                }
            };
            branches.push(branch);
        }
        Some(ForcingNet {
            kind: found.kind,
            branches,
        })
    }

    /// The step for `found`, proved by `net`.
    fn step(&self, found: &Found, net: ForcingNet) -> Step {
        let (t, t_on) = found.target;
        let name = self.tech.info.name;
        let conclusion = literal(t, t_on);
        let premise = match found.kind {
            ForcingKind::Contradiction => {
                let (c, on) = found.branches[0];
                format!("{} leads to a contradiction", literal(c, on))
            }
            ForcingKind::Double => {
                let c = found.branches[0].0;
                format!(
                    "{} and {} both lead to {conclusion}",
                    literal(c, true),
                    literal(c, false)
                )
            }
            ForcingKind::Cell(cell) => {
                let ds = digits_compact(self.grid.candidates(cell));
                format!("each candidate of {cell} ({ds}) leads to {conclusion}")
            }
            ForcingKind::Fish(d) => {
                format!("every fin of a fish on {} leads to {conclusion}", Sym(d))
            }
            ForcingKind::House(d, house) => {
                let cells: Vec<String> = self
                    .grid
                    .digit_cells_in(d, house)
                    .iter()
                    .map(|c| c.to_string())
                    .collect();
                format!(
                    "each place for {} in {house} ({}) leads to {conclusion}",
                    Sym(d),
                    cells.join(",")
                )
            }
        };
        let mut step = Step::new(
            self.tech.info.id,
            chain_difficulty(
                self.tech.info.difficulty,
                rated_length(self.tech.level, &net),
            ),
        );
        step = if t_on {
            step.place(t.cell, t.digit)
        } else {
            step.eliminate(t.cell, t.digit)
        };
        if let ForcingKind::House(_, house) = found.kind {
            step = step.house(house);
        }
        let assumed: Vec<Candidate> = found.branches.iter().map(|&(c, _)| c).collect();
        step.highlight(Role::Pattern, assumed)
            .net(net)
            .explain(format!("{name}: {premise} => {conclusion}"))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::pipeline::Pipeline;
    use crate::technique::find_all;
    use crate::text::nine::parse_puzzle;

    /// A puzzle of the "top 1465" list: chains and ALS stall on it.
    pub(crate) const STALLS: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    /// Where the default pipeline without forcing techniques gets stuck on `puzzle`.
    pub(crate) fn stuck_position(puzzle: &str) -> Grid {
        let mut pipeline = Pipeline::default_pipeline();
        let forcing: Vec<String> = techniques().iter().map(|t| t.id().to_string()).collect();
        pipeline.retain(|t| !forcing.iter().any(|f| f == t.id()));
        let start = parse_puzzle(puzzle).expect("valid");
        let trace = crate::engine::solve_grid(&start, &pipeline);
        assert!(!trace.is_solved(), "chains finish {puzzle}");
        crate::engine::replay(&start, &trace)
    }

    #[test]
    fn every_step_is_sound_and_proved() {
        let grid = stuck_position(STALLS);
        let sol = crate::brute::nine::solve(&grid.given_values()).expect("unique");
        let mut found = 0;
        for tech in [Forcing::STATIC, Forcing::DYNAMIC, Forcing::PLUS] {
            let steps = find_all(&tech, &grid).expect("runs");
            found += steps.len();
            for s in &steps {
                assert_eq!(s.contradiction(&sol), None, "{}", s.explanation);
                let net = s.net.as_ref().expect("a net");
                assert!(!net.branches.is_empty());
                assert!(s.difficulty >= tech.info.difficulty);
                assert_eq!(s.placements.len() + s.eliminations.len(), 1);
            }
        }
        assert!(found > 0);
    }

    /// [`by_reach`] keeps every candidate once and puts the ones whose assumption reaches
    /// furthest at the dynamic (+) level first.
    #[test]
    fn the_reach_order_puts_the_furthest_reaching_first() {
        let grid = stuck_position(STALLS);
        let start = State::settled_of(&grid);
        let cells_first = cell_order(&grid);
        let order = by_reach(&start, cells_first.clone());
        let (mut a, mut b) = (order.clone(), cells_first);
        a.sort_by_key(|c| (c.cell, c.digit));
        b.sort_by_key(|c| (c.cell, c.digit));
        assert_eq!(a, b, "not a permutation");
        let reach = |c: &Candidate| {
            let mut st = start.clone();
            if st.assume(*c, true, Level::Plus, &mut NoRecord).is_err() {
                return u32::MAX;
            }
            let count = |sets: Cands<crate::model::S9>| sets.iter().map(|s| s.len()).sum::<u32>();
            count(st.on_since(&start)) + count(st.off_since(&start))
        };
        let reaches: Vec<u32> = order.iter().map(reach).collect();
        assert!(reaches.windows(2).all(|w| w[0] >= w[1]), "{reaches:?}");
        assert!(
            reaches[0] > reaches[reaches.len() - 1],
            "all alike: {reaches:?}"
        );
    }

    /// On a grid larger than 16x16 a nested search stops [`LARGE_GRID_WINDOW`] assumptions past
    /// its first contradiction: at a minimal 25x25 puzzle's position where the nested dynamic
    /// (+) chains are first needed (1,710 candidates), its steps all come from one window, and
    /// each is a sound, proved contradiction.
    #[test]
    fn a_nested_search_on_a_large_grid_stops_in_its_window() {
        use crate::model::S25;
        use crate::text::Puzzle;
        let text = include_str!("../../../tests/fixtures/grids/25x25-nested-plus.txt");
        let puzzle = Puzzle::parse(text).expect("a 25x25 pencil-mark grid");
        let grid = puzzle.grid(S25::geometry(puzzle.layout()));
        let solution = puzzle.solution().expect("one solution");
        let tech = Forcing::NESTED_PLUS;
        let steps = crate::technique::find_all_sized(&tech, &grid).expect("runs");
        assert!(!steps.is_empty(), "no step at the position");
        let order = Search::new(&tech, &Context::new(&grid)).order;
        let at = |s: &Step| {
            let assumed = s.highlights.iter().find(|h| h.role == Role::Pattern);
            let c = assumed.expect("the assumption").candidates[0];
            order.iter().position(|&o| o == c).expect("a candidate")
        };
        let places: Vec<usize> = steps.iter().map(at).collect();
        let (first, last) = (places.iter().min(), places.iter().max());
        assert!(
            last.unwrap() - first.unwrap() <= LARGE_GRID_WINDOW,
            "steps from assumptions {places:?}"
        );
        for s in &steps {
            assert_eq!(
                s.contradiction_in(solution.values(), 25),
                None,
                "{}",
                s.explanation
            );
            let net = s.net.as_ref().expect("a net");
            assert_eq!(net.kind, ForcingKind::Contradiction);
            assert!(s.difficulty >= tech.info.difficulty);
        }
    }
}

//! Sudoku Explainer's "Forcing Chains & Cycles": chains of static implications between
//! candidates, as SE searches and rates them, for the `se` pipeline.
//!
//! From every candidate assumed true (or false), the implications of the position's links are
//! followed breadth first, shortest first, alternating: a true candidate turns off its peers of
//! the same digit and the other digits of its cell (weak links); a false candidate turns on the
//! other end of a bivalue cell or of a house with two places for its digit (strong links).
//!
//! - A **forcing chain** leads from a candidate true to the same candidate false (it is
//!   eliminated), or from it false to it true (it is placed).
//! - A **bidirectional cycle** leads from a candidate true back to itself: the loop alternates
//!   all round, each link holds exactly one true end, and whatever sees both ends of a link goes.
//!
//! Each is rated by its kind and length, as SE rates them: on one digit (X), 6.6 for a forcing
//! X-chain and 6.5 for an X-cycle; with bivalue cells only for strong links and houses for weak
//! ones (Y), a Y-cycle 6.6; otherwise 7.0; plus SE's length bonus. The step taken is the easiest
//! found anywhere on the grid, as SE applies the easiest hint of this family.

use crate::cellset::CellSet;
use crate::geometry::{Cell, digit_bit, digits};
use crate::grid::{Candidate, Grid};
use crate::step::{Chain, ChainNode, LinkType, Role, Step, eliminations_text};
use crate::technique::catalogue::entry;
use crate::technique::chains::{chain_difficulty, chain_text};
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![Box::new(ForcingChainsAndCycles)]
}

/// Sudoku Explainer's static forcing chains and bidirectional cycles (6.5 and up).
pub struct ForcingChainsAndCycles;

/// The id of [`ForcingChainsAndCycles`].
pub const ID: &str = "forcing-chains-and-cycles";

/// Which links a search may follow.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// One digit: house links only.
    X,
    /// Strong links in bivalue cells, weak links in houses.
    Y,
    /// Every link.
    Xy,
}

/// What a chain proves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// A candidate true leads to itself false.
    Elimination,
    /// A candidate false leads to itself true.
    Placement,
    /// A candidate true leads back to itself around a loop.
    Cycle,
}

/// A literal: candidate index (`cell * 9 + digit - 1`) times two, plus one when true.
type Lit = u16;

const NONE: u16 = u16::MAX;
const LITS: usize = 729 * 2;

fn lit(cell: Cell, digit: u8, on: bool) -> Lit {
    ((cell.index() * 9 + digit as usize - 1) * 2 + on as usize) as Lit
}

fn cell_of(l: Lit) -> Cell {
    Cell::new((l as usize / 2 / 9) as u8)
}

fn digit_of(l: Lit) -> u8 {
    (l as usize / 2 % 9) as u8 + 1
}

fn is_on(l: Lit) -> bool {
    l & 1 == 1
}

/// A chain found: its literals from the assumption to the conclusion.
struct Found {
    difficulty: f32,
    kind: Kind,
    mode: Mode,
    path: Vec<Lit>,
    eliminations: Vec<Candidate>,
}

/// The breadth-first search, with its buffers kept between starts.
struct Search<'g> {
    grid: &'g Grid,
    bivalue: CellSet,
    parent: Vec<Lit>,
    dist: Vec<u16>,
    queue: Vec<Lit>,
}

impl<'g> Search<'g> {
    fn new(grid: &'g Grid) -> Search<'g> {
        let bivalue = grid
            .empty_cells()
            .iter()
            .filter(|&c| grid.candidates(c).count_ones() == 2)
            .collect();
        Search {
            grid,
            bivalue,
            parent: vec![NONE; LITS],
            dist: vec![NONE; LITS],
            queue: Vec::with_capacity(LITS),
        }
    }

    /// Calls `f` with every literal `l` implies directly under `mode`.
    fn for_each_implied(&self, l: Lit, mode: Mode, mut f: impl FnMut(Lit)) {
        let (cell, digit) = (cell_of(l), digit_of(l));
        if is_on(l) {
            for other in self.grid.digit_cells(digit) & cell.peers() {
                f(lit(other, digit, false));
            }
            if mode == Mode::Xy {
                for d in digits(self.grid.candidates(cell) & !digit_bit(digit)) {
                    f(lit(cell, d, false));
                }
            }
        } else {
            if mode != Mode::X && self.bivalue.contains(cell) {
                let d = digits(self.grid.candidates(cell) & !digit_bit(digit))
                    .next()
                    .expect("bivalue");
                f(lit(cell, d, true));
            }
            if mode != Mode::Y {
                for house in cell.houses() {
                    let rest = self.grid.digit_cells_in(digit, house) - CellSet::single(cell);
                    if let Some(other) = rest.single_cell() {
                        f(lit(other, digit, true));
                    }
                }
            }
        }
    }

    fn path_to(&self, mut l: Lit) -> Vec<Lit> {
        let mut path = vec![l];
        while self.parent[l as usize] != NONE {
            l = self.parent[l as usize];
            path.push(l);
        }
        path.reverse();
        path
    }

    /// Searches from `start` under `mode`, going no deeper than `max_links`, and returns what
    /// it proves first: the shortest forcing chain, else the shortest productive cycle.
    fn run(&mut self, start: Lit, mode: Mode, max_links: u16) -> Option<(Kind, Vec<Lit>)> {
        // Y-chains are rated as any forcing chain; only Y-cycles are looked for.
        let chains = mode != Mode::Y;
        for &l in &self.queue {
            self.dist[l as usize] = NONE;
            self.parent[l as usize] = NONE;
        }
        self.queue.clear();
        self.queue.push(start);
        self.dist[start as usize] = 0;
        let target = start ^ 1;
        let mut cycle: Option<Vec<Lit>> = None;
        let mut head = 0;
        while head < self.queue.len() {
            let l = self.queue[head];
            head += 1;
            let d = self.dist[l as usize];
            if d >= max_links {
                break;
            }
            let mut hit = false;
            let mut closes = false;
            let mut next: [Lit; 32] = [0; 32];
            let mut n = 0;
            self.for_each_implied(l, mode, |m| {
                if m == target && chains {
                    hit = true;
                } else if m == start {
                    closes = true;
                } else if n < next.len() {
                    next[n] = m;
                    n += 1;
                }
            });
            if hit {
                let mut path = self.path_to(l);
                path.push(target);
                return Some((
                    if is_on(start) {
                        Kind::Elimination
                    } else {
                        Kind::Placement
                    },
                    path,
                ));
            }
            if closes && is_on(start) && d >= 3 && cycle.is_none() {
                let mut path = self.path_to(l);
                path.push(start);
                if !cycle_eliminations(self.grid, &path).is_empty() {
                    cycle = Some(path);
                }
            }
            for &m in &next[..n] {
                if self.dist[m as usize] == NONE {
                    self.dist[m as usize] = d + 1;
                    self.parent[m as usize] = l;
                    self.queue.push(m);
                }
            }
        }
        cycle.map(|p| (Kind::Cycle, p))
    }
}

/// What a continuous loop `path` (first literal repeated at the end) eliminates: whatever sees
/// both ends of a link between two cells of one digit, and the other digits of a cell the loop
/// passes through with two of its digits.
fn cycle_eliminations(grid: &Grid, path: &[Lit]) -> Vec<Candidate> {
    let mut on_loop = [0u16; 81];
    for &l in path {
        on_loop[cell_of(l).index()] |= digit_bit(digit_of(l));
    }
    let mut out: Vec<Candidate> = Vec::new();
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (ca, cb) = (cell_of(a), cell_of(b));
        if ca == cb {
            for d in digits(grid.candidates(ca) & !on_loop[ca.index()]) {
                out.push(Candidate::new(ca, d));
            }
        } else {
            let d = digit_of(a);
            for c in grid.digit_cells(d) & ca.peers() & cb.peers() {
                if on_loop[c.index()] & digit_bit(d) == 0 {
                    out.push(Candidate::new(c, d));
                }
            }
        }
    }
    out.sort_by_key(|c| (c.cell, c.digit));
    out.dedup();
    out
}

/// SE's base difficulty of a chain of `kind` found under `mode`.
fn base(kind: Kind, mode: Mode) -> f32 {
    match (kind, mode) {
        (Kind::Cycle, Mode::X) => 6.5,
        (Kind::Cycle, Mode::Y) => 6.6,
        (_, Mode::X) => 6.6,
        _ => 7.0,
    }
}

/// The length SE's bonus counts for a chain of `links` links.
fn rated_length(links: usize) -> usize {
    links.saturating_sub(2)
}

impl Technique for ForcingChainsAndCycles {
    fn info(&self) -> Option<&'static TechniqueInfo> {
        Some(entry(ID))
    }
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let mut search = Search::new(grid);
        let mut best: Option<Found> = None;
        let starts: Vec<Candidate> = grid
            .empty_cells()
            .iter()
            .flat_map(|cell| digits(grid.candidates(cell)).map(move |d| Candidate::new(cell, d)))
            .collect();
        for mode in [Mode::X, Mode::Y, Mode::Xy] {
            for &c in &starts {
                for on in [true, false] {
                    if mode == Mode::Y && !on {
                        continue;
                    }
                    // No deeper than a chain that could still beat the best so far (an equal
                    // one does not: the first found is kept).
                    let max_links = match &best {
                        None => u16::MAX,
                        Some(b) => {
                            let easiest = base(Kind::Cycle, mode);
                            let too_long = (0..200u16)
                                .find(|&k| {
                                    chain_difficulty(easiest, rated_length(k as usize))
                                        >= b.difficulty
                                })
                                .unwrap_or(200);
                            if too_long <= 1 {
                                continue;
                            }
                            too_long - 1
                        }
                    };
                    let Some((kind, path)) = search.run(lit(c.cell, c.digit, on), mode, max_links)
                    else {
                        continue;
                    };
                    let links = path.len() - 1;
                    let difficulty = chain_difficulty(base(kind, mode), rated_length(links));
                    if best.as_ref().is_some_and(|b| b.difficulty <= difficulty) {
                        continue;
                    }
                    let eliminations = match kind {
                        Kind::Elimination => vec![c],
                        Kind::Placement => Vec::new(),
                        Kind::Cycle => cycle_eliminations(grid, &path),
                    };
                    best = Some(Found {
                        difficulty,
                        kind,
                        mode,
                        path,
                        eliminations,
                    });
                }
            }
        }
        let Some(found) = best else {
            return Ok(());
        };
        stoppable(|| sink(step_of(&found)))
    }
}

fn step_of(found: &Found) -> Step {
    let nodes: Vec<ChainNode> = found
        .path
        .iter()
        .map(|&l| ChainNode {
            digit: digit_of(l),
            cells: vec![cell_of(l)],
            on: is_on(l),
            als: Vec::new(),
        })
        .collect();
    let links: Vec<LinkType> = found
        .path
        .windows(2)
        .map(|w| LinkType::out_of(is_on(w[0])))
        .collect();
    let chain = Chain { nodes, links };
    let name = match (found.kind, found.mode) {
        (Kind::Cycle, Mode::X) => "Bidirectional X-Cycle",
        (Kind::Cycle, Mode::Y) => "Bidirectional Y-Cycle",
        (Kind::Cycle, Mode::Xy) => "Bidirectional Cycle",
        (_, Mode::X) => "Forcing X-Chain",
        _ => "Forcing Chain",
    };
    let start = found.path[0];
    let target = Candidate::new(cell_of(start), digit_of(start));
    let mut step = Step::new(ID, found.difficulty);
    let conclusion = match found.kind {
        Kind::Placement => {
            step = step.place(target.cell, target.digit);
            format!("{}={}", target.cell, target.digit)
        }
        _ => {
            step = step.eliminations(found.eliminations.iter().copied());
            eliminations_text(&found.eliminations)
        }
    };
    let candidates: Vec<Candidate> = found
        .path
        .iter()
        .map(|&l| Candidate::new(cell_of(l), digit_of(l)))
        .collect();
    let text = format!("{name}: {} => {conclusion}", chain_text(&chain));
    step.highlight(Role::Link, candidates)
        .chain(chain)
        .explain(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solve_grid;
    use crate::parse::parse_puzzle;
    use crate::pipeline::Pipeline;
    use crate::trace::Outcome;

    /// A puzzle Sudoku Explainer rates 6.6: its hardest step is a short forcing X-chain.
    const X_CHAIN: &str =
        "12.74.6.94..8......89..3.1....4.2..1..........4.6..9..3...2...62....6.....8...4..";

    #[test]
    fn the_se_pipeline_takes_a_forcing_x_chain_where_se_does() {
        let pipeline = Pipeline::se_pipeline();
        let trace = solve_grid(&parse_puzzle(X_CHAIN).expect("valid"), &pipeline);
        assert_eq!(trace.outcome, Outcome::Solved);
        assert_eq!(trace.summary.rejected, 0);
        let chains: Vec<_> = trace.steps().filter(|s| s.technique == ID).collect();
        assert!(!chains.is_empty(), "no chain step");
        let hardest = trace.summary.hardest.as_ref().expect("steps");
        assert_eq!(hardest.difficulty, 6.6);
        for s in chains {
            // The chain is kept as data: alternating links, from the candidate to itself.
            let chain = &s.chains[0];
            assert_eq!(chain.links.len() + 1, chain.nodes.len());
            assert!(
                s.explanation.starts_with("Forcing X-Chain") || s.explanation.contains("Cycle")
            );
        }
    }

    #[test]
    fn the_length_bonus_counts_links_less_two() {
        // A skyscraper as a forcing X-chain: five links, rated 6.6; seven links, 6.7.
        assert_eq!(
            chain_difficulty(base(Kind::Elimination, Mode::X), rated_length(5)),
            6.6
        );
        assert_eq!(
            chain_difficulty(base(Kind::Elimination, Mode::X), rated_length(7)),
            6.7
        );
        assert_eq!(
            chain_difficulty(base(Kind::Cycle, Mode::X), rated_length(4)),
            6.5
        );
        assert_eq!(
            chain_difficulty(base(Kind::Elimination, Mode::Xy), rated_length(8)),
            7.1
        );
    }
}

//! Nishio, as Sudoku Explainer rates it (7.5 plus length): a candidate assumed true, followed
//! on its own digit only (its peers turned off, a house left one place turns that place on,
//! each implication resting on all the earlier ones), leads to a contradiction: a house with no
//! place for the digit, or two places of one house both on. The candidate is eliminated. The
//! step taken is the one with the shortest proof on the grid, kept as a [`ForcingNet`].

use crate::cellset::CellSet;
use crate::geometry::{Cell, House, digit_bit};
use crate::grid::{Candidate, Grid};
use crate::net::{BranchEnd, ForcingKind, ForcingNet, Implication, NetBranch, Reason, literal};
use crate::step::{Role, Step};
use crate::technique::catalogue::entry;
use crate::technique::chains::chain_difficulty;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![Box::new(Nishio)]
}

/// Nishio: a single-digit dynamic contradiction (7.5 plus length).
pub struct Nishio;

const BASE: f32 = 7.5;
const NONE: u16 = u16::MAX;

/// One implication while following an assumption: the cell, whether the digit is placed
/// there, why, and the facts it rests on.
struct Fact {
    cell: Cell,
    on: bool,
    reason: Reason,
    parents: Vec<u16>,
}

/// The contradiction an assumption meets, with every fact found on the way.
struct Clash {
    facts: Vec<Fact>,
    end: BranchEnd,
    end_parents: Vec<u16>,
}

/// Follows `start` true on its digit; the contradiction it meets, if any.
fn follow(grid: &Grid, start: Candidate) -> Option<Clash> {
    let d = start.digit;
    let places = grid.digit_cells(d);
    let placed: Vec<bool> = House::all()
        .map(|h| grid.placed_in(h) & digit_bit(d) != 0)
        .collect();
    let mut facts: Vec<Fact> = Vec::new();
    let mut fact_on = [NONE; 81];
    let mut fact_off = [NONE; 81];
    let (mut on, mut off) = (CellSet::EMPTY, CellSet::EMPTY);
    let mut queue: Vec<Cell> = Vec::new();
    fact_on[start.cell.index()] = 0;
    facts.push(Fact {
        cell: start.cell,
        on: true,
        reason: Reason::Assumption,
        parents: Vec::new(),
    });
    on.insert(start.cell);
    queue.push(start.cell);
    loop {
        let mut head = 0;
        while head < queue.len() {
            let x = queue[head];
            head += 1;
            let from = fact_on[x.index()];
            for y in (places & x.peers()) - off {
                if on.contains(y) {
                    return Some(Clash {
                        facts,
                        end: BranchEnd::Both(Candidate::new(y, d)),
                        end_parents: vec![from, fact_on[y.index()]],
                    });
                }
                fact_off[y.index()] = facts.len() as u16;
                facts.push(Fact {
                    cell: y,
                    on: false,
                    reason: Reason::Peer,
                    parents: vec![from],
                });
                off.insert(y);
            }
        }
        queue.clear();
        for h in House::all() {
            if placed[h.index()] || !(h.cells() & on).is_empty() {
                continue;
            }
            let all = places & h.cells();
            let left = all - off;
            let gone: Vec<u16> = (all & off).iter().map(|c| fact_off[c.index()]).collect();
            if left.is_empty() {
                return Some(Clash {
                    facts,
                    end: BranchEnd::NoPlace(d, h),
                    end_parents: gone,
                });
            }
            if let Some(z) = left.single_cell()
                && !on.contains(z)
            {
                fact_on[z.index()] = facts.len() as u16;
                facts.push(Fact {
                    cell: z,
                    on: true,
                    reason: Reason::LastInHouse(h),
                    parents: gone,
                });
                on.insert(z);
                queue.push(z);
            }
        }
        if queue.is_empty() {
            return None;
        }
    }
}

/// The facts `roots` rest on, themselves included.
fn closure(facts: &[Fact], roots: &[u16]) -> usize {
    ancestors(facts, roots).iter().filter(|&&a| a).count()
}

/// Which facts `roots` rest on, themselves included.
fn ancestors(facts: &[Fact], roots: &[u16]) -> Vec<bool> {
    let mut needed = vec![false; facts.len()];
    let mut stack: Vec<u16> = roots.to_vec();
    while let Some(i) = stack.pop() {
        if !std::mem::replace(&mut needed[i as usize], true) {
            stack.extend(&facts[i as usize].parents);
        }
    }
    needed
}

/// The size SE gives the proof: it sees every contradiction as one candidate both true and
/// false, and adds up the two chains that lead there (what they share counted twice). A house
/// left without a place is the last place of it turned on by the others going off and off by
/// its own peer.
fn se_size(clash: &Clash) -> usize {
    match clash.end {
        BranchEnd::Both(_) => {
            let [on, off] = [clash.end_parents[1], clash.end_parents[0]];
            closure(&clash.facts, &[on]) + closure(&clash.facts, &[off]) + 1
        }
        _ => {
            let last = *clash.end_parents.iter().max().expect("a house with places");
            let others: Vec<u16> = clash
                .end_parents
                .iter()
                .copied()
                .filter(|&p| p != last)
                .collect();
            closure(&clash.facts, &others) + 1 + closure(&clash.facts, &[last])
        }
    }
}

/// The facts the contradiction rests on, in order, re-indexed: the proof.
fn proof(clash: Clash) -> NetBranch {
    let needed = ancestors(&clash.facts, &clash.end_parents);
    let mut new_index = vec![NONE; clash.facts.len()];
    let mut implications = Vec::new();
    for (i, f) in clash.facts.into_iter().enumerate() {
        if !needed[i] {
            continue;
        }
        new_index[i] = implications.len() as u16;
        implications.push(Implication {
            candidate: Candidate::new(f.cell, 0),
            on: f.on,
            reason: f.reason,
            parents: f.parents.iter().map(|&p| new_index[p as usize]).collect(),
        });
    }
    NetBranch {
        implications,
        end: clash.end,
        end_parents: clash
            .end_parents
            .iter()
            .map(|&p| new_index[p as usize])
            .collect(),
    }
}

/// The length SE's bonus counts for a proof of SE size `facts` (see [`se_size`]): calibrated on
/// SE's ratings of `top1465.txt`, it makes 85% of the puzzles SE rates 7.5-8.1 exact.
fn rated_length(facts: usize) -> usize {
    facts.saturating_sub(2)
}

impl Technique for Nishio {
    fn info(&self) -> Option<&'static TechniqueInfo> {
        Some(entry("nishio"))
    }
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let mut best: Option<(usize, Candidate, NetBranch)> = None;
        for d in 1..=9u8 {
            for cell in grid.digit_cells(d) {
                let start = Candidate::new(cell, d);
                let Some(clash) = follow(grid, start) else {
                    continue;
                };
                let size = se_size(&clash);
                let mut branch = proof(clash);
                if best.as_ref().is_some_and(|(s, _, _)| *s <= size) {
                    continue;
                }
                for imp in &mut branch.implications {
                    imp.candidate.digit = d;
                }
                best = Some((size, start, branch));
            }
        }
        let Some((size, start, branch)) = best else {
            return Ok(());
        };
        let difficulty = chain_difficulty(BASE, rated_length(size));
        let end = match branch.end {
            BranchEnd::NoPlace(d, h) => format!("leaves {d} no place in {h}"),
            BranchEnd::Both(c) => format!("makes {c} both true and false"),
            _ => "leads to a contradiction".to_string(),
        };
        let step = Step::new("nishio", difficulty)
            .eliminate(start.cell, start.digit)
            .highlight(Role::Pattern, [start])
            .explain(format!(
                "Nishio: {} {end} => {}",
                literal(start, true),
                literal(start, false)
            ))
            .net(ForcingNet {
                kind: ForcingKind::Contradiction,
                branches: vec![branch],
            });
        stoppable(|| sink(step))
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::solve_grid;
    use crate::net::Reason;
    use crate::parse::parse_puzzle;
    use crate::pipeline::Pipeline;
    use crate::trace::Outcome;

    /// A puzzle of `top1465.txt` Sudoku Explainer rates 7.6, with a Nishio.
    const NISHIO: &str =
        "....75....1..2.....4...3...5.....3.2...8...1.......6.....1..48.2........7........";

    #[test]
    fn the_se_pipeline_rates_a_nishio_puzzle_as_se_does() {
        let pipeline = Pipeline::se_pipeline();
        let trace = solve_grid(&parse_puzzle(NISHIO).expect("valid"), &pipeline);
        assert_eq!(trace.outcome, Outcome::Solved);
        assert_eq!(trace.summary.rejected, 0);
        let hardest = trace.summary.hardest.as_ref().expect("steps");
        assert_eq!(
            (hardest.technique.as_str(), hardest.difficulty),
            ("nishio", 7.6)
        );
        for step in trace.steps().filter(|s| s.technique == "nishio") {
            // One digit throughout, the assumption first, every parent earlier.
            let net = step.net.as_ref().expect("a proof");
            let branch = &net.branches[0];
            let digit = branch.implications[0].candidate.digit;
            assert_eq!(branch.implications[0].reason, Reason::Assumption);
            for (i, imp) in branch.implications.iter().enumerate() {
                assert_eq!(imp.candidate.digit, digit);
                assert!(imp.parents.iter().all(|&p| (p as usize) < i));
            }
            assert_eq!(step.eliminations, vec![branch.implications[0].candidate]);
        }
    }
}

//! The step a chaining hint becomes: what it places or removes, SE's difficulty, and its
//! chains as a [`ForcingNet`] (nested chains as nested branches).

use super::chaining::Depth;
use super::engine::cell_of;
use super::hints::{Hint, Kind, candidate};
use crate::model::cell::{Cell, House};
use crate::step::net::{BranchEnd, ForcingKind, ForcingNet, NetBranch, literal};
use crate::step::{Role, Step};
use crate::technique::round_tenth;

/// The branch a nested hint shows as, inside the proof of the step that uses it.
pub(crate) fn nested_branch(d: &mut Depth, h: &Hint) -> NetBranch {
    let targets = h.chain_targets();
    let (implications, ends) = d.meter.implications(&d.arena, &targets);
    let both = |cand, ends: Vec<u16>| NetBranch {
        end: BranchEnd::Both(cand),
        end_parents: ends,
        implications: Vec::new(),
    };
    let mut branch = match h.kind {
        Kind::Binary {
            absurd: true,
            dst_on,
            ..
        } => both(candidate(d.arena.node(dst_on).cand()), ends),
        Kind::Forcing { target, .. } => {
            let t = *d.arena.node(target);
            let start = implications
                .iter()
                .position(|i| i.candidate == candidate(t.cand()) && i.on != t.on())
                .map(|i| i as u16);
            both(candidate(t.cand()), start.into_iter().chain(ends).collect())
        }
        _ => NetBranch {
            implications: Vec::new(),
            end: BranchEnd::Conclusion,
            end_parents: ends,
        },
    };
    branch.implications = implications;
    branch
}

/// The step of the chosen hint `h`, found by `technique` at `base` difficulty (`name` for
/// the explanation); its potentials are in `d`'s arena.
pub(crate) fn step(technique: &str, name: &str, d: &mut Depth, h: &Hint) -> Step {
    let difficulty = round_tenth(h.difficulty as f32);
    let mut step = Step::new(technique, difficulty);
    step = match h.placement {
        Some(c) => step.placements([candidate(c)]),
        None => step.eliminations(h.removals.iter().map(|&c| candidate(c))),
    };
    let conclusion = match h.placement {
        Some(c) => literal(candidate(c), true),
        None => h
            .removals
            .iter()
            .map(|&c| literal(candidate(c), false))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let (kind, branches, premise) = match h.kind {
        Kind::Binary {
            src,
            dst_on,
            dst_off,
            absurd,
            ..
        } => {
            let src_c = candidate(src >> 1);
            let src_on = src & 1 != 0;
            if absurd {
                let (implications, ends) = d.meter.implications(&d.arena, &[dst_on, dst_off]);
                let both = candidate(d.arena.node(dst_on).cand());
                let branch = NetBranch {
                    implications,
                    end: BranchEnd::Both(both),
                    end_parents: ends,
                };
                step = step.highlight(Role::Pattern, [src_c]);
                (
                    ForcingKind::Contradiction,
                    vec![branch],
                    format!(
                        "{} leads to {} both true and false",
                        literal(src_c, src_on),
                        both
                    ),
                )
            } else {
                let target = *d.arena.node(dst_on);
                let branches = conclusion_branches(d, &[dst_on, dst_off]);
                step = step.highlight(Role::Pattern, [src_c]);
                (
                    ForcingKind::Double,
                    branches,
                    format!(
                        "{src_c} true and {src_c} false both lead to {}",
                        literal(candidate(target.cand()), target.on())
                    ),
                )
            }
        }
        Kind::Cell { cell } => {
            let cell = Cell::new(cell);
            (
                ForcingKind::Cell(cell),
                conclusion_branches(d, &h.targets),
                format!("each value of {cell} leads to the same"),
            )
        }
        Kind::Region { house, digit } => {
            let house = House::from_index(house);
            step = step.house(house);
            (
                ForcingKind::House(digit, house),
                conclusion_branches(d, &h.targets),
                format!("each place for {digit} in {house} leads to the same"),
            )
        }
        Kind::Forcing { target, .. } => {
            let t = *d.arena.node(target);
            let (implications, ends) = d.meter.implications(&d.arena, &[target]);
            let start = implications
                .iter()
                .position(|i| i.candidate == candidate(t.cand()) && i.on != t.on())
                .map_or(0, |i| i as u16);
            let branch = NetBranch {
                implications,
                end: BranchEnd::Both(candidate(t.cand())),
                end_parents: vec![start, ends[0]],
            };
            step = step.highlight(Role::Pattern, [candidate(t.cand())]);
            (
                ForcingKind::Contradiction,
                vec![branch],
                format!(
                    "{} leads to {}",
                    literal(candidate(t.cand()), !t.on()),
                    literal(candidate(t.cand()), t.on())
                ),
            )
        }
        Kind::Cycle {
            dst_on, dst_off, ..
        } => {
            let branches = conclusion_branches(d, &[dst_on, dst_off]);
            let mut cells: Vec<String> = Vec::new();
            for i in &branches[0].implications {
                let c = i.candidate.cell.to_string();
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            let start = candidate(d.arena.node(dst_on).cand());
            step = step.highlight(Role::Pattern, [start]);
            (
                ForcingKind::Double,
                branches,
                format!(
                    "a cycle through {}, true or false at {start}",
                    cells.join(",")
                ),
            )
        }
    };
    let nodes: usize = branches.iter().map(|b| b.implications.len()).sum();
    let cells: Vec<Cell> = h
        .removals
        .iter()
        .map(|&c| Cell::new(cell_of(c) as u8))
        .collect();
    debug_assert!(!cells.is_empty());
    step.net(ForcingNet { kind, branches }).explain(format!(
        "{name}, {}: {premise} => {conclusion} (SE counts {} nodes, {nodes} shown)",
        se_name(&h.kind),
        h.complexity.saturating_sub(2)
    ))
}

/// What SE calls a hint of this kind.
fn se_name(kind: &Kind) -> &'static str {
    match *kind {
        Kind::Binary { nishio: true, .. } => "Nishio Forcing Chain",
        Kind::Binary { absurd: true, .. } => "Contradiction Forcing Chain",
        Kind::Binary { .. } => "Double Forcing Chain",
        Kind::Cell { .. } => "Cell Forcing Chains",
        Kind::Region { .. } => "Region Forcing Chains",
        Kind::Forcing {
            x: true, y: true, ..
        } => "Forcing Chain",
        Kind::Forcing { .. } => "Forcing X-Chain",
        Kind::Cycle {
            x: true, y: true, ..
        } => "Bidirectional Cycle",
        Kind::Cycle { y: true, .. } => "Bidirectional Y-Cycle",
        Kind::Cycle { .. } => "Bidirectional X-Cycle",
    }
}

fn conclusion_branches(d: &mut Depth, targets: &[u32]) -> Vec<NetBranch> {
    targets
        .iter()
        .map(|&t| {
            let (implications, ends) = d.meter.implications(&d.arena, &[t]);
            NetBranch {
                implications,
                end: BranchEnd::Conclusion,
                end_parents: ends,
            }
        })
        .collect()
}

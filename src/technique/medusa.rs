//! 3D Medusa: colouring over every digit at once.
//!
//! The candidates joined by strong links (a digit with two places in a house, or the two
//! digits of a bivalue cell) form clusters; each cluster is coloured in two colours so the two
//! ends of every strong link differ. In a cluster exactly one colour is true. A colour is false
//! when two of its candidates share a cell, or a digit twice in one house, or when it would
//! empty a cell (every candidate of some cell outside the colour sees that colour's candidate
//! of its digit); all its candidates go. Otherwise, with exactly one colour true:
//!
//! - a candidate seeing both colours of its digit goes;
//! - a cell holding both colours keeps only those two candidates;
//! - a candidate in a cell holding one colour that sees the other colour of its digit goes.
//!
//! Simple colours are the one-digit case; the pipeline tries them first.

use std::ops::ControlFlow;

use crate::model::Shape;
use crate::model::Sym;
use crate::model::candset::CandSet;
use crate::model::cell::digits;
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::SizedBuiltin;
use crate::technique::catalogue::entry;
use crate::technique::context::Context;
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![Box::new(Medusa3d)]
}

/// 3D Medusa (6.8): multi-digit colouring.
pub struct Medusa3d;

/// The candidates of `set` seeing `c` (same digit in a peer cell).
#[inline]
fn digit_peers<S: Shape>(grid: &Grid<S>, set: &CandSet<S>, c: Candidate) -> CellSet<S> {
    set.cells(c.digit) & grid.geometry().peers(c.cell)
}

/// One cluster's two colours.
struct Cluster<S: Shape> {
    colors: [CandSet<S>; 2],
}

impl<S: Shape> Cluster<S> {
    fn size(&self) -> u32 {
        self.colors[0].len() + self.colors[1].len()
    }
}

/// Every cluster of two or more candidates.
fn clusters<S: Shape>(grid: &Grid<S>, ctx: &Context<'_, S>) -> Vec<Cluster<S>> {
    let present = CandSet::of_grid(grid);
    // strong-link partners of each candidate: conjugates in houses, the other digit of a
    // bivalue cell
    let mut done = CandSet::<S>::EMPTY;
    let mut out = Vec::new();
    let mut stack: Vec<(Candidate, usize)> = Vec::new();
    let bivalue = ctx.bivalue_cells();
    for start in present.iter() {
        if done.contains(start) {
            continue;
        }
        let mut colors = [CandSet::EMPTY, CandSet::EMPTY];
        colors[0].insert(start);
        done.insert(start);
        stack.clear();
        stack.push((start, 0));
        while let Some((c, k)) = stack.pop() {
            let mut visit = |n: Candidate, stack: &mut Vec<(Candidate, usize)>| {
                if !done.contains(n) {
                    done.insert(n);
                    colors[1 - k].insert(n);
                    stack.push((n, 1 - k));
                }
            };
            if bivalue.contains(c.cell) {
                for d in digits(grid.candidates(c.cell)) {
                    if d != c.digit {
                        visit(Candidate::new(c.cell, d), &mut stack);
                    }
                }
            }
            for l in ctx.strong_links_of(c.digit) {
                if l.a == c.cell {
                    visit(Candidate::new(l.b, c.digit), &mut stack);
                } else if l.b == c.cell {
                    visit(Candidate::new(l.a, c.digit), &mut stack);
                }
            }
        }
        let cluster = Cluster { colors };
        if cluster.size() >= 2 {
            out.push(cluster);
        }
    }
    out
}

/// Why `color` is false, if it is (`other` is the cluster's other colour, false when `color`
/// is true).
fn contradiction<S: Shape>(
    grid: &Grid<S>,
    color: &CandSet<S>,
    other: &CandSet<S>,
) -> Option<String> {
    let geo = grid.geometry();
    // two candidates of the colour in one cell
    let mut cells = CellSet::<S>::EMPTY;
    for d in grid.all_digits() {
        let dc = color.cells(d);
        if !(cells & dc).is_empty() {
            let cell = (cells & dc).first().unwrap();
            return Some(format!("two candidates of one colour in {cell}"));
        }
        cells |= dc;
        // one digit twice in one house
        for c in dc {
            if let Some(other) = (dc & geo.peers(c)).first() {
                return Some(format!(
                    "{} twice in one colour, in {c} and {other}",
                    Sym(d)
                ));
            }
        }
    }
    // a cell outside the colour whose every candidate sees the colour's candidate of its digit
    for cell in grid.empty_cells() {
        if cells.contains(cell) {
            continue;
        }
        let mask = grid.candidates(cell);
        let gone = |d: u8| other.has(cell, d) || !(color.cells(d) & geo.peers(cell)).is_empty();
        if digits(mask).all(gone) {
            return Some(format!("every candidate of {cell} would be false"));
        }
    }
    None
}

/// What the cluster eliminates with exactly one colour true.
fn eliminations<S: Shape>(grid: &Grid<S>, cluster: &Cluster<S>) -> CandSet<S> {
    let [a, b] = &cluster.colors;
    let coloured = *a | *b;
    let mut elims = CandSet::<S>::EMPTY;
    for cell in grid.empty_cells() {
        let mask = grid.candidates(cell);
        let in_a = digits(mask).any(|d| a.has(cell, d));
        let in_b = digits(mask).any(|d| b.has(cell, d));
        for d in digits(mask) {
            let c = Candidate::new(cell, d);
            if coloured.contains(c) {
                continue;
            }
            let sees_a = !digit_peers(grid, a, c).is_empty();
            let sees_b = !digit_peers(grid, b, c).is_empty();
            // false whichever colour is true: it sees or shares a cell with each colour
            let remove = (sees_a || in_a) && (sees_b || in_b);
            if remove {
                elims.insert(c);
            }
        }
    }
    elims
}

fn colour_text<S: Shape>(set: &CandSet<S>) -> String {
    let list: Vec<String> = set.to_sorted_vec().iter().map(|c| c.to_string()).collect();
    list.join(" ")
}

impl SizedBuiltin for Medusa3d {
    fn info(&self) -> &'static TechniqueInfo {
        const { entry("3d-medusa") }
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| {
            let grid = ctx.grid();
            let mut all = clusters(grid, ctx);
            // larger clusters first: they prove more
            all.sort_by_key(|c| std::cmp::Reverse(c.size()));
            for cluster in &all {
                let [a, b] = &cluster.colors;
                let mut step =
                    [("A", a, b), ("B", b, a)]
                        .into_iter()
                        .find_map(|(name, color, other)| {
                            contradiction(grid, color, other).map(|why| {
                                (
                                    color.to_sorted_vec(),
                                    format!("colour {name} is false ({why})"),
                                )
                            })
                        });
                if step.is_none() {
                    let elims = eliminations(grid, cluster);
                    if !elims.is_empty() {
                        step = Some((elims.to_sorted_vec(), "one colour is true".to_string()));
                    }
                }
                let Some((elims, why)) = step else { continue };
                let text = format!(
                    "3D Medusa: A = {}, B = {}; {why} => {}",
                    colour_text(&cluster.colors[0]),
                    colour_text(&cluster.colors[1]),
                    eliminations_text(&elims)
                );
                let s = Step::new(self.id(), self.difficulty())
                    .highlight(Role::ColorA, cluster.colors[0].to_sorted_vec())
                    .highlight(Role::ColorB, cluster.colors[1].to_sorted_vec())
                    .explain(text)
                    .eliminations(elims);
                sink(s)?;
            }
            ControlFlow::Continue(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::technique::find_all;
    use crate::text::nine::parse_puzzle;

    #[test]
    fn steps_on_a_hard_position_are_sound() {
        // (the integration tests check it over thousands of positions met solving)
        let grid = parse_puzzle(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .unwrap();
        let solution = crate::engine::check_puzzle(&grid).unwrap();
        for s in find_all(&Medusa3d, &grid).unwrap() {
            assert!(s.contradiction(&solution).is_none(), "{}", s.explanation);
        }
    }
}

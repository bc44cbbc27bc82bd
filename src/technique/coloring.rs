//! Colouring: Simple Colors (trap and wrap) and Multi-Colors (types 1 and 2).
//!
//! For one digit, the strong links (a digit with exactly two places in a house) join
//! candidates into clusters; each cluster is coloured in two colours so that the two ends of a
//! strong link differ. In every cluster exactly one colour is true.

use std::ops::ControlFlow;

use crate::model::Sym;
use crate::model::cell::Cell;
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Geometry, Shape};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::SizedBuiltin;
use crate::technique::catalogue::entry;
use crate::technique::context::{Context, StrongLink};
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(Coloring::SIMPLE_TRAP),
        Box::new(Coloring::SIMPLE_WRAP),
        Box::new(Coloring::MULTI_1),
        Box::new(Coloring::MULTI_2),
    ]
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Trap,
    Wrap,
    Multi1,
    Multi2,
}

/// One colouring technique; the constants are the built-ins.
pub struct Coloring {
    kind: Kind,
    info: &'static TechniqueInfo,
}

impl Coloring {
    /// Simple Colors Trap (4.5): a candidate seeing both colours of a cluster is false.
    pub const SIMPLE_TRAP: Coloring = Coloring {
        kind: Kind::Trap,
        info: entry("simple-colors-trap"),
    };
    /// Simple Colors Wrap (4.5): a colour with two candidates in one house is false.
    pub const SIMPLE_WRAP: Coloring = Coloring {
        kind: Kind::Wrap,
        info: entry("simple-colors-wrap"),
    };
    /// Multi-Colors 1 (4.7): when a colour of one cluster sees a colour of another, one of the
    /// two opposite colours is true; candidates seeing both opposite colours are false.
    pub const MULTI_1: Coloring = Coloring {
        kind: Kind::Multi1,
        info: entry("multi-colors-1"),
    };
    /// Multi-Colors 2 (4.7): a colour of one cluster that sees both colours of another is false.
    pub const MULTI_2: Coloring = Coloring {
        kind: Kind::Multi2,
        info: entry("multi-colors-2"),
    };
}

/// A cluster of one digit: its two colours.
#[derive(Clone, Copy, Debug)]
struct Cluster<S: Shape> {
    colors: [CellSet<S>; 2],
}

impl<S: Shape> Cluster<S> {
    const EMPTY: Cluster<S> = Cluster {
        colors: [CellSet::EMPTY; 2],
    };

    fn cells(&self) -> CellSet<S> {
        self.colors[0] | self.colors[1]
    }
}

/// Every cell that sees some cell of `set`.
fn seen_by_any<S: Shape>(geo: &Geometry<S>, set: CellSet<S>) -> CellSet<S> {
    let mut out = CellSet::EMPTY;
    for c in set {
        out |= geo.peers(c);
    }
    out
}

/// Two cells of `set` that share a house, if any.
fn mutual_peers<S: Shape>(geo: &Geometry<S>, set: CellSet<S>) -> Option<(Cell, Cell)> {
    set.iter()
        .find_map(|c| (geo.peers(c) & set).first().map(|other| (c, other)))
}

/// The clusters of one digit (two or more candidates each) joined by its strong `links`,
/// written to `out` (room for one per cell); returns how many.
fn clusters<S: Shape>(links: &[StrongLink], out: &mut S::PerCell<Cluster<S>>) -> usize {
    let out = out.as_mut();
    // strong-link neighbours of every cell
    let mut partners = S::per_cell(CellSet::<S>::EMPTY);
    let partners = partners.as_mut();
    let mut linked = CellSet::<S>::EMPTY;
    for &StrongLink { a, b, .. } in links {
        partners[S::bit_of(a)].insert(b);
        partners[S::bit_of(b)].insert(a);
        linked.insert(a);
        linked.insert(b);
    }
    let mut n = 0;
    let mut left = linked;
    while let Some(start) = left.first() {
        let mut colors = [CellSet::single(start), CellSet::EMPTY];
        let mut frontier = [CellSet::single(start), CellSet::EMPTY];
        while !(frontier[0] | frontier[1]).is_empty() {
            let mut next = [CellSet::EMPTY; 2];
            for (side, cells) in frontier.iter().enumerate() {
                for c in *cells {
                    next[1 - side] |= partners[S::bit_of(c)];
                }
            }
            for side in 0..2 {
                next[side] -= colors[0] | colors[1];
                colors[side] |= next[side];
            }
            frontier = next;
        }
        left -= colors[0] | colors[1];
        out[n] = Cluster { colors };
        n += 1;
    }
    n
}

fn candidates<S: Shape>(cells: CellSet<S>, digit: u8) -> Vec<Candidate> {
    cells.iter().map(|c| Candidate::new(c, digit)).collect()
}

impl SizedBuiltin for Coloring {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        stoppable(|| {
            let grid = ctx.grid();
            let mut found = S::per_cell(Cluster::<S>::EMPTY);
            for digit in grid.all_digits() {
                let n = clusters::<S>(ctx.strong_links_of(digit), &mut found);
                let found = &found.as_ref()[..n];
                match self.kind {
                    Kind::Trap | Kind::Wrap => self.simple(grid, digit, found, sink)?,
                    Kind::Multi1 | Kind::Multi2 => self.multi(grid, digit, found, sink)?,
                }
            }
            ControlFlow::Continue(())
        })
    }
}

impl Coloring {
    /// A step of one cluster, or of two (`second`), eliminating `elims`.
    fn step<S: Shape>(
        &self,
        digit: u8,
        first: &Cluster<S>,
        second: Option<&Cluster<S>>,
        elims: CellSet<S>,
        detail: &str,
    ) -> Step {
        let elims = candidates(elims, digit);
        let [a, b] = first.colors;
        let mut text = format!("{}: {} {a} / {b}", self.info.name, Sym(digit));
        let mut step = Step::new(self.info.id, self.info.difficulty)
            .highlight(Role::ColorA, candidates(a, digit))
            .highlight(Role::ColorB, candidates(b, digit));
        if let Some(c2) = second {
            let [c, d] = c2.colors;
            text.push_str(&format!(", {c} / {d}"));
            step = step
                .highlight(Role::ColorA, candidates(c, digit))
                .highlight(Role::ColorB, candidates(d, digit));
        }
        let text = format!("{text}{detail} => {}", eliminations_text(&elims));
        step.eliminations(elims).explain(text)
    }

    fn simple<S: Shape>(
        &self,
        grid: &Grid<S>,
        digit: u8,
        clusters: &[Cluster<S>],
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let (all, geo) = (grid.digit_cells(digit), grid.geometry());
        for cl in clusters {
            let [a, b] = cl.colors;
            match self.kind {
                Kind::Trap => {
                    let elims = (all & seen_by_any(geo, a) & seen_by_any(geo, b)) - cl.cells();
                    if !elims.is_empty() {
                        sink(self.step(digit, cl, None, elims, ""))?;
                    }
                }
                _ => {
                    for bad in [a, b] {
                        if let Some((x, y)) = mutual_peers(geo, bad) {
                            let detail = format!(" ({x} and {y} share a house)");
                            sink(self.step(digit, cl, None, bad, &detail))?;
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn multi<S: Shape>(
        &self,
        grid: &Grid<S>,
        digit: u8,
        clusters: &[Cluster<S>],
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let (all, geo) = (grid.digit_cells(digit), grid.geometry());
        for (i, c1) in clusters.iter().enumerate() {
            for (j, c2) in clusters.iter().enumerate() {
                if i == j || (self.kind == Kind::Multi1 && j < i) {
                    continue;
                }
                let seen = [
                    seen_by_any(geo, c1.colors[0]),
                    seen_by_any(geo, c1.colors[1]),
                ];
                if self.kind == Kind::Multi1 {
                    // whenever a colour of one cluster sees a colour of the other, one of the
                    // two opposite colours is true: all such eliminations of the pair together
                    let mut elims = CellSet::EMPTY;
                    for (s1, seen1) in seen.iter().enumerate() {
                        for s2 in 0..2 {
                            if !seen1.intersects(c2.colors[s2]) {
                                continue;
                            }
                            let (ox, oy) = (c1.colors[1 - s1], c2.colors[1 - s2]);
                            elims |=
                                (all & seen_by_any(geo, ox) & seen_by_any(geo, oy)) - (ox | oy);
                        }
                    }
                    if !elims.is_empty() {
                        sink(self.step(digit, c1, Some(c2), elims, ""))?;
                    }
                } else {
                    for (x, seen1) in c1.colors.into_iter().zip(seen) {
                        if seen1.intersects(c2.colors[0]) && seen1.intersects(c2.colors[1]) {
                            let detail = format!(" ({x} sees both colours of the second cluster)");
                            sink(self.step(digit, c1, Some(c2), x, &detail))?;
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::S9;
    use crate::text::nine::parse_library_line;

    #[test]
    fn clusters_alternate_colours() {
        let line = ":0500:1:+23.7.+68+955972+8...+6+6..+9+3+5.+7.+3.+6.9.5.7+7+5.+36...+9+4.+9+5+7.+683+872.+5396.+94+5+6.7..+8+1638.+9+7+5.:439:127 128 132 133::";
        let case = parse_library_line(line).unwrap();
        let ctx = Context::new(&case.grid);
        let mut out = S9::per_cell(Cluster::<S9>::EMPTY);
        let n = clusters::<S9>(ctx.strong_links_of(1), &mut out);
        assert!(n > 0);
        for cl in &out[..n] {
            assert!(!cl.colors[0].intersects(cl.colors[1]));
            assert!(!cl.colors[1].is_empty());
        }
    }
}

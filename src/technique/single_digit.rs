//! Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle and the
//! dual forms of the kite and the empty rectangle.
//!
//! All of them are short X-chains on one digit: two strong links (a digit with exactly two
//! places in a house) joined by a weak link, `a = b - c = d`, so `a` or `d` holds the digit and
//! every cell seeing both loses it. The Empty Rectangle replaces one strong link by a box whose
//! candidates lie on one row and one column of the box (a grouped strong link).

use std::ops::ControlFlow;

use crate::model::Sym;
use crate::model::cell::{Cell, House, HouseKind};
use crate::model::cellset::CellSet;
use crate::model::grid::{Candidate, Grid};
use crate::model::{Layout, Shape};
use crate::step::{Role, Step, eliminations_text};
use crate::technique::SizedBuiltin;
use crate::technique::catalogue::entry;
use crate::technique::context::{Context, StrongLink};
use crate::technique::{StepSink, Technique, TechniqueError, TechniqueInfo, stoppable};

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    vec![
        Box::new(SingleDigitPattern::SKYSCRAPER),
        Box::new(SingleDigitPattern::TWO_STRING_KITE),
        Box::new(SingleDigitPattern::DUAL_TWO_STRING_KITE),
        Box::new(SingleDigitPattern::TURBOT_FISH),
        Box::new(SingleDigitPattern::EMPTY_RECTANGLE),
        Box::new(SingleDigitPattern::DUAL_EMPTY_RECTANGLE),
    ]
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Skyscraper,
    Kite,
    DualKite,
    Turbot,
    EmptyRectangle,
    DualEmptyRectangle,
}

/// One single-digit pattern technique; the constants are the built-ins.
pub struct SingleDigitPattern {
    kind: Kind,
    info: &'static TechniqueInfo,
}

impl SingleDigitPattern {
    /// Skyscraper (4.0): two strong links in parallel lines whose bases share a line.
    pub const SKYSCRAPER: SingleDigitPattern = SingleDigitPattern {
        kind: Kind::Skyscraper,
        info: entry("skyscraper"),
    };
    /// 2-String Kite (4.1): a strong link in a row and one in a column joined in a box.
    pub const TWO_STRING_KITE: SingleDigitPattern = SingleDigitPattern {
        kind: Kind::Kite,
        info: entry("2-string-kite"),
    };
    /// Dual 2-String Kite (4.1): two kites on the same pair of box cells, reported together.
    pub const DUAL_TWO_STRING_KITE: SingleDigitPattern = SingleDigitPattern {
        kind: Kind::DualKite,
        info: entry("dual-2-string-kite"),
    };
    /// Turbot Fish (4.2): any other strong-weak-strong chain on one digit (a box involved).
    pub const TURBOT_FISH: SingleDigitPattern = SingleDigitPattern {
        kind: Kind::Turbot,
        info: entry("turbot-fish"),
    };
    /// Empty Rectangle (4.3): a box's candidates on one row and one column, plus a strong link.
    pub const EMPTY_RECTANGLE: SingleDigitPattern = SingleDigitPattern {
        kind: Kind::EmptyRectangle,
        info: entry("empty-rectangle"),
    };
    /// Dual Empty Rectangle (4.3): two empty rectangles in the same box, reported together.
    pub const DUAL_EMPTY_RECTANGLE: SingleDigitPattern = SingleDigitPattern {
        kind: Kind::DualEmptyRectangle,
        info: entry("dual-empty-rectangle"),
    };
}

impl SizedBuiltin for SingleDigitPattern {
    fn info(&self) -> &'static TechniqueInfo {
        self.info
    }
    fn search<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        if self.kind == Kind::DualKite {
            return stoppable(|| self.find_dual_kites(ctx, sink));
        }
        stoppable(|| {
            for digit in ctx.grid().all_digits() {
                // these patterns read nothing but their digit's candidates
                ctx.per_digit(self.info.id, digit, sink, |sink| match self.kind {
                    Kind::Skyscraper | Kind::Kite | Kind::Turbot => {
                        self.find_chains(ctx, digit, sink)
                    }
                    Kind::DualKite => ControlFlow::Continue(()),
                    Kind::EmptyRectangle => self.find_empty_rectangles(ctx, digit, sink),
                    Kind::DualEmptyRectangle => self.find_dual_empty_rectangles(ctx, digit, sink),
                })?;
            }
            ControlFlow::Continue(())
        })
    }
}

/// A strong link: the only two places of a digit in a line, a box, or both.
#[derive(Clone, Copy)]
struct Link {
    a: Cell,
    b: Cell,
    line: Option<House>,
    boxed: Option<House>,
}

impl Default for Link {
    fn default() -> Link {
        Link {
            a: Cell::new(0),
            b: Cell::new(0),
            line: None,
            boxed: None,
        }
    }
}

impl Link {
    /// A house the link lives in (its line if it has one).
    fn house(&self) -> House {
        self.line.or(self.boxed).expect("a link has a house")
    }
}

/// The strong links of one digit (the context's, by house), one per pair of cells (a pair in
/// a line and a box is one link), in `out` (room for the 75 houses of 25x25); returns how many.
fn merge_links(links: &[StrongLink], out: &mut [Link; 75]) -> usize {
    let mut n = 0;
    for &StrongLink { house, a, b, .. } in links {
        let slot = match out[..n].iter().position(|l| l.a == a && l.b == b) {
            Some(i) => i,
            None => {
                out[n] = Link {
                    a,
                    b,
                    ..Link::default()
                };
                n += 1;
                n - 1
            }
        };
        if house.kind() == HouseKind::Box {
            out[slot].boxed = Some(house);
        } else {
            out[slot].line = Some(house);
        }
    }
    n
}

/// The box of `cell` on a board of `layout`.
fn box_of(layout: Layout, cell: Cell) -> usize {
    layout.box_of(usize::from(cell.row()), usize::from(cell.col()))
}

/// What a chain `a = b - c = d` of two strong links is called (on a board of `layout`).
fn classify(layout: Layout, l1: &Link, l2: &Link, [a, b, c, d]: [Cell; 4]) -> Option<Kind> {
    let box_index = |cell| box_of(layout, cell);
    if let (Some(h1), Some(h2)) = (l1.line, l2.line) {
        match (h1.kind(), h2.kind()) {
            (HouseKind::Row, HouseKind::Row) if b.col() == c.col() => {
                // both ends in one column too: an X-Wing, not this family's
                return (a.col() != d.col()).then_some(Kind::Skyscraper);
            }
            (HouseKind::Column, HouseKind::Column) if b.row() == c.row() => {
                return (a.row() != d.row()).then_some(Kind::Skyscraper);
            }
            (HouseKind::Row, HouseKind::Column) | (HouseKind::Column, HouseKind::Row)
                if box_index(b) == box_index(c)
                    && box_index(a) != box_index(b)
                    && box_index(d) != box_index(c) =>
            {
                return Some(Kind::Kite);
            }
            _ => {}
        }
    }
    Some(Kind::Turbot)
}

/// A chain `a = b - c = d` found on one digit, with what it eliminates.
#[derive(Clone, Copy)]
struct Chain<S: Shape> {
    a: Cell,
    b: Cell,
    c: Cell,
    d: Cell,
    h1: House,
    h2: House,
    elims: CellSet<S>,
}

/// Calls `f` with every chain of two strong links of `digit` and its kind.
fn for_each_chain<S: Shape>(
    ctx: &Context<'_, S>,
    digit: u8,
    f: &mut dyn FnMut(Kind, &Chain<S>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut links = [Link::default(); 75];
    let n = merge_links(ctx.strong_links_of(digit), &mut links);
    let cells = ctx.grid().digit_cells(digit);
    let geo = ctx.grid().geometry();
    for i in 0..n {
        for j in i + 1..n {
            let (l1, l2) = (&links[i], &links[j]);
            for (a, b) in [(l1.a, l1.b), (l1.b, l1.a)] {
                for (c, d) in [(l2.a, l2.b), (l2.b, l2.a)] {
                    if a == c || a == d || b == c || b == d || !geo.sees(b, c) {
                        continue;
                    }
                    let Some(kind) = classify(geo.layout(), l1, l2, [a, b, c, d]) else {
                        continue;
                    };
                    let pattern: CellSet<S> = [a, b, c, d].into_iter().collect();
                    let elims = (cells & geo.peers(a) & geo.peers(d)) - pattern;
                    if elims.is_empty() {
                        continue;
                    }
                    let (h1, h2) = match kind {
                        Kind::Skyscraper | Kind::Kite => {
                            (l1.line.expect("line"), l2.line.expect("line"))
                        }
                        _ => (l1.house(), l2.house()),
                    };
                    let chain = Chain {
                        a,
                        b,
                        c,
                        d,
                        h1,
                        h2,
                        elims,
                    };
                    f(kind, &chain)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

fn candidates(cells: impl IntoIterator<Item = Cell>, digit: u8) -> Vec<Candidate> {
    let mut v: Vec<Candidate> = cells
        .into_iter()
        .map(|c| Candidate::new(c, digit))
        .collect();
    v.sort();
    v.dedup();
    v
}

impl SingleDigitPattern {
    fn find_chains<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        digit: u8,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        for_each_chain(ctx, digit, &mut |kind, ch| {
            if kind != self.kind {
                return ControlFlow::Continue(());
            }
            let elims = candidates(ch.elims, digit);
            let text = format!(
                "{}: {} in {},{} (connected by {},{}) => {}",
                self.info.name,
                Sym(digit),
                ch.a,
                ch.d,
                ch.b,
                ch.c,
                eliminations_text(&elims)
            );
            let step = Step::new(self.info.id, self.info.difficulty)
                .house(ch.h1)
                .house(ch.h2)
                .highlight(Role::Pincer, candidates([ch.a, ch.d], digit))
                .highlight(Role::Link, candidates([ch.b, ch.c], digit))
                .explain(text)
                .eliminations(elims);
            sink(step)
        })
    }

    /// Pairs of kites whose weak link joins the same two box cells. Usually one digit with the
    /// two strings of each kite swapped; HoDoKu also pairs kites of two digits that run
    /// through the same two (bivalue) box cells, so those are reported too.
    fn find_dual_kites<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let mut kites: Vec<(u8, Chain<S>)> = Vec::new();
        for digit in ctx.grid().all_digits() {
            let _ = for_each_chain(ctx, digit, &mut |kind, ch| {
                if kind == Kind::Kite {
                    kites.push((digit, *ch));
                }
                ControlFlow::Continue(())
            });
        }
        for (i, (d1, k1)) in kites.iter().enumerate() {
            for (d2, k2) in &kites[i + 1..] {
                let same_cells = (k1.b == k2.c && k1.c == k2.b) || (k1.b == k2.b && k1.c == k2.c);
                if !same_cells || (d1 == d2 && k1.b == k2.b) {
                    continue;
                }
                let mut elims = candidates(k1.elims, *d1);
                elims.extend(candidates(k2.elims, *d2));
                elims.sort();
                let second = if d1 == d2 {
                    String::new()
                } else {
                    format!("{} in ", Sym(*d2))
                };
                let text = format!(
                    "{}: {} in {},{} / {second}{},{} (connected by {},{}) => {}",
                    self.info.name,
                    Sym(*d1),
                    k1.a,
                    k1.d,
                    k2.a,
                    k2.d,
                    k1.b,
                    k1.c,
                    eliminations_text(&elims)
                );
                let mut pincers = candidates([k1.a, k1.d], *d1);
                pincers.extend(candidates([k2.a, k2.d], *d2));
                let mut links = candidates([k1.b, k1.c], *d1);
                links.extend(candidates([k2.b, k2.c], *d2));
                let step = Step::new(self.info.id, self.info.difficulty)
                    .house(k1.h1)
                    .house(k1.h2)
                    .house(k2.h1)
                    .house(k2.h2)
                    .highlight(Role::Pincer, pincers)
                    .highlight(Role::Link, links)
                    .explain(text)
                    .eliminations(elims);
                sink(step)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn find_empty_rectangles<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        digit: u8,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        for_each_empty_rectangle(ctx, digit, &mut |er| {
            let elims = candidates([er.target], digit);
            let step = self.er_step(ctx.grid(), digit, &[*er], elims);
            sink(step)
        })
    }

    fn find_dual_empty_rectangles<S: Shape>(
        &self,
        ctx: &Context<'_, S>,
        digit: u8,
        sink: &mut StepSink<'_>,
    ) -> ControlFlow<()> {
        let mut found: Vec<EmptyRectangle> = Vec::new();
        let _ = for_each_empty_rectangle(ctx, digit, &mut |er| {
            found.push(*er);
            ControlFlow::Continue(())
        });
        for (i, e1) in found.iter().enumerate() {
            for e2 in &found[i + 1..] {
                if e1.boxed != e2.boxed || e1.target == e2.target {
                    continue;
                }
                let elims = candidates([e1.target, e2.target], digit);
                let step = self.er_step(ctx.grid(), digit, &[*e1, *e2], elims);
                sink(step)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn er_step<S: Shape>(
        &self,
        grid: &Grid<S>,
        digit: u8,
        ers: &[EmptyRectangle],
        elims: Vec<Candidate>,
    ) -> Step {
        let boxed = ers[0].boxed;
        let links: Vec<String> = ers.iter().map(|e| format!("{}/{}", e.p, e.q)).collect();
        let text = format!(
            "{}: {} in {boxed} ({}) => {}",
            self.info.name,
            Sym(digit),
            links.join(", "),
            eliminations_text(&elims)
        );
        Step::new(self.info.id, self.info.difficulty)
            .house(boxed)
            .houses(ers.iter().map(|e| e.link))
            .highlight(
                Role::Pattern,
                candidates(grid.digit_cells_in(digit, boxed), digit),
            )
            .highlight(
                Role::Link,
                candidates(ers.iter().flat_map(|e| [e.p, e.q]), digit),
            )
            .eliminations(elims)
            .explain(text)
    }
}

/// An empty rectangle: the box, the strong link `p = q` (`p` on the box's row or column line),
/// and the cell that loses the digit.
#[derive(Clone, Copy)]
struct EmptyRectangle {
    boxed: House,
    link: House,
    p: Cell,
    q: Cell,
    target: Cell,
}

/// Calls `f` with every empty rectangle of `digit` that eliminates something.
fn for_each_empty_rectangle<S: Shape>(
    ctx: &Context<'_, S>,
    digit: u8,
    f: &mut dyn FnMut(&EmptyRectangle) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let geo = ctx.grid().geometry();
    let layout = geo.layout();
    let (box_rows, box_cols) = (layout.box_rows() as u8, layout.box_cols() as u8);
    let stacks = S::N as u8 / box_cols;
    let all = ctx.grid().digit_cells(digit);
    // the digit's strong links are by house: rows, then columns (each in index order), then boxes
    let links = ctx.strong_links_of(digit);
    let cols_start = links.partition_point(|l| l.house.kind() == HouseKind::Row);
    let boxes_start =
        cols_start + links[cols_start..].partition_point(|l| l.house.kind() == HouseKind::Column);
    let (row_links, col_links) = (&links[..cols_start], &links[cols_start..boxes_start]);
    for b in 0..S::N as u8 {
        let boxed = House::boxed(b);
        let in_box = all & geo.house(boxed);
        if in_box.len() < 2 {
            continue;
        }
        let (band, stack) = (b / stacks * box_rows, b % stacks * box_cols);
        for row in band..band + box_rows {
            for col in stack..stack + box_cols {
                let (r_cells, c_cells) = (geo.house(House::row(row)), geo.house(House::col(col)));
                if !in_box.is_subset(r_cells | c_cells)
                    || (in_box & (r_cells - c_cells)).is_empty()
                    || (in_box & (c_cells - r_cells)).is_empty()
                {
                    continue;
                }
                // a strong link in a column that starts on the box's row, outside the box
                for link in col_links {
                    let x = link.a.col();
                    if (stack..stack + box_cols).contains(&x) {
                        continue;
                    }
                    let (line, p) = (link.house, Cell::at(row, x));
                    let Some(q) = link.other(p) else {
                        continue;
                    };
                    if (band..band + box_rows).contains(&q.row()) {
                        continue;
                    }
                    let target = Cell::at(q.row(), col);
                    if all.contains(target) {
                        let er = EmptyRectangle {
                            boxed,
                            link: line,
                            p,
                            q,
                            target,
                        };
                        f(&er)?;
                    }
                }
                // a strong link in a row that starts on the box's column, outside the box
                for link in row_links {
                    let y = link.a.row();
                    if (band..band + box_rows).contains(&y) {
                        continue;
                    }
                    let (line, p) = (link.house, Cell::at(y, col));
                    let Some(q) = link.other(p) else {
                        continue;
                    };
                    if (stack..stack + box_cols).contains(&q.col()) {
                        continue;
                    }
                    let target = Cell::at(row, q.col());
                    if all.contains(target) {
                        let er = EmptyRectangle {
                            boxed,
                            link: line,
                            p,
                            q,
                            target,
                        };
                        f(&er)?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::technique::find_all;
    use crate::text::nine::parse_library_line;

    #[test]
    fn skyscraper_explanation() {
        let line = ":0400:1:+6+9+7.....+2..19+72.6+3..+3..679.9+12...6.+737+4+2+6.95.+8+65+7.+9.+2414+8+6+93+2+757.9.24..+6..+68.+7..+9::117 118 134 135::";
        let case = parse_library_line(line).unwrap();
        let steps = find_all(&SingleDigitPattern::SKYSCRAPER, &case.grid).unwrap();
        assert!(!steps.is_empty());
        assert!(steps[0].explanation.starts_with("Skyscraper: 1 in "));
    }
}

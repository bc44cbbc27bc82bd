//! The grid of one frame as SVG: the cells, the candidates coloured by role, the houses the
//! step names, chains and forcing nets as arrows.

use std::fmt::Write as _;

use super::position::Measures;
use super::{Frame, escape};
use crate::model::cell::{Cell, House, HouseKind};
use crate::model::grid::Candidate;
use crate::step::net::{BranchEnd, ForcingNet, NetBranch, Reason};
use crate::step::{Chain, LinkType, Role, Step};

/// Cell size in SVG units on 9x9 (and up to 9x9; larger boards take larger cells, see
/// [`Measures`]).
pub(super) const CELL: f32 = 54.0;
/// Margin around the grid, for the row and column labels.
pub(super) const MARGIN: f32 = 22.0;
/// Radius of a candidate's highlight disc.
const DISC: f32 = 8.0;

/// The grid as SVG: shaded houses, role discs, values, pencil marks, chains and lines, drawn
/// with the measures of the frame's layout.
pub(super) fn write_svg(out: &mut String, k: usize, frame: &Frame<'_>) {
    let m = &Measures::of(frame.position.layout);
    let size = m.side();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" role=\"img\" \
         aria-label=\"{}\">",
        escape(&frame.title)
    );
    // marker ids are unique per frame: a marker in a hidden frame would not be drawn
    let _ = writeln!(
        out,
        "<defs>{}{}</defs>",
        arrow_marker("strong", k, 6, "#1c7ed6"),
        arrow_marker("weak", k, 6, "#e8590c")
    );
    if frame.step.is_some_and(|s| s.net.is_some()) {
        let _ = writeln!(
            out,
            "<defs>{}{}</defs>",
            arrow_marker("on", k, 5, "#2b8a3e"),
            arrow_marker("off", k, 5, "#c92a2a")
        );
    }
    for i in 0..m.n() as u8 {
        let c = MARGIN + (f32::from(i) + 0.5) * m.cell;
        let _ = write!(
            out,
            "<text class=\"label\" x=\"{c}\" y=\"{}\">c{}</text><text class=\"label\" x=\"{}\" y=\"{c}\">r{}</text>",
            MARGIN / 2.0,
            i + 1,
            MARGIN / 2.0,
            i + 1
        );
    }
    out.push('\n');
    let board = &frame.position;
    if let Some(step) = frame.step {
        write_step_background(out, m, step);
    }
    // values and pencil marks
    let mut marks: Vec<(Candidate, &'static str)> = Vec::new();
    if let Some(step) = frame.step {
        for h in &step.highlights {
            for &c in &h.candidates {
                marks.push((c, h.role.name()));
            }
        }
        for &c in &step.placements {
            marks.push((c, "placed-c"));
        }
        for &c in &step.eliminations {
            marks.push((c, "eliminated"));
        }
    }
    for (i, cell) in board.cells() {
        let (x, y) = m.cell_origin(cell);
        let (cx, cy) = (x + m.cell / 2.0, y + m.cell / 2.0);
        match board.values[i] {
            0 => {
                let cands = board.cands[i];
                if cands == 0
                    && let Some(&s) = frame.solution.as_ref().and_then(|s| s.get(i))
                {
                    let _ = write!(
                        out,
                        "<text class=\"solution\" x=\"{cx}\" y=\"{cy}\">{}</text>",
                        board.symbol(s)
                    );
                }
                for d in (1..=m.n() as u8).filter(|d| cands >> (d - 1) & 1 != 0) {
                    let cand = Candidate::new(cell, d);
                    let (px, py) = m.candidate_centre(cand);
                    // the last role given to a candidate wins (placed and eliminated come last)
                    if let Some((_, class)) = marks.iter().rev().find(|(c, _)| *c == cand) {
                        let _ = write!(
                            out,
                            "<circle class=\"hl {class}\" cx=\"{px}\" cy=\"{py}\" r=\"{DISC}\"/>"
                        );
                    }
                    let state = if frame.step.is_some_and(|s| s.eliminations.contains(&cand)) {
                        " gone"
                    } else if frame.step.is_some_and(|s| s.placements.contains(&cand)) {
                        " put"
                    } else {
                        ""
                    };
                    let _ = write!(
                        out,
                        "<text class=\"pm{state}\" x=\"{px}\" y=\"{py}\">{}</text>",
                        board.symbol(d)
                    );
                }
            }
            v => {
                let class = if board.givens[i] { "given" } else { "placed" };
                let _ = write!(
                    out,
                    "<text class=\"{class}\" x=\"{cx}\" y=\"{cy}\">{}</text>",
                    board.symbol(v)
                );
            }
        }
    }
    out.push('\n');
    for i in 0..=m.n() {
        let p = MARGIN + i as f32 * m.cell;
        let (across, down) = (m.line_class(i, true), m.line_class(i, false));
        let end = MARGIN + m.n() as f32 * m.cell;
        let _ = write!(
            out,
            "<line class=\"{across}\" x1=\"{MARGIN}\" y1=\"{p}\" x2=\"{end}\" y2=\"{p}\"/>\
             <line class=\"{down}\" x1=\"{p}\" y1=\"{MARGIN}\" x2=\"{p}\" y2=\"{end}\"/>"
        );
    }
    out.push('\n');
    if let Some(step) = frame.step {
        for chain in &step.chains {
            write_chain(out, m, k, chain);
        }
        if let Some(net) = &step.net {
            write_net(out, m, k, net);
        }
    }
    out.push_str("</svg>\n");
}

/// Whether `cell` (row, column) is in house `h` of the layout `m` draws.
fn in_house(m: &Measures, h: House, (row, col): (usize, usize)) -> bool {
    let number = usize::from(h.number()) - 1;
    match h.kind() {
        HouseKind::Row => row == number,
        HouseKind::Column => col == number,
        HouseKind::Box => m.layout.box_of(row, col) == number,
    }
}

/// The cells of the board `m` draws, row by row, for which `keep` (row, column) holds.
fn cells_where(m: &Measures, keep: impl Fn((usize, usize)) -> bool) -> impl Iterator<Item = Cell> {
    let n = m.n();
    (0..n * n)
        .map(move |i| (i / n, i % n))
        .filter(move |&rc| keep(rc))
        .map(|(r, c)| Cell::at(r as u8, c as u8))
}

/// Shading under the step: its houses, and the cells of its ALS nodes (each cell once, row by
/// row).
fn write_step_background(out: &mut String, m: &Measures, step: &Step) {
    let cell_size = m.cell;
    let shaded = cells_where(m, |rc| step.houses.iter().any(|&h| in_house(m, h, rc)));
    for cell in shaded {
        let (x, y) = m.cell_origin(cell);
        let _ = write!(
            out,
            "<rect class=\"house\" x=\"{x}\" y=\"{y}\" width=\"{cell_size}\" height=\"{cell_size}\"/>"
        );
    }
    // the sets of an almost-locked-set step: their cells tinted in their colours
    if super::draws_sets(&step.technique) {
        for h in &step.highlights {
            if h.role == Role::Link || h.role == Role::Pincer {
                continue;
            }
            let at = |(r, c): (usize, usize)| Cell::at(r as u8, c as u8);
            let cells = cells_where(m, |rc| h.candidates.iter().any(|c| c.cell == at(rc)));
            for cell in cells {
                let (x, y) = m.cell_origin(cell);
                let _ = write!(
                    out,
                    "<rect class=\"tint {}\" x=\"{x}\" y=\"{y}\" width=\"{cell_size}\" height=\"{cell_size}\"/>",
                    h.role.name()
                );
            }
        }
    }
    let als: Vec<Cell> = step
        .chains
        .iter()
        .flat_map(|chain| &chain.nodes)
        .flat_map(|node| node.als.iter().copied())
        .collect();
    let at = |(r, c): (usize, usize)| Cell::at(r as u8, c as u8);
    for cell in cells_where(m, |rc| als.contains(&at(rc))) {
        let (x, y) = m.cell_origin(cell);
        let _ = write!(
            out,
            "<rect class=\"als\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"/>",
            x + 2.0,
            y + 2.0,
            cell_size - 4.0,
            cell_size - 4.0
        );
    }
    out.push('\n');
}

/// Centre of a chain node: the mean of its candidates' positions.
fn node_centre(m: &Measures, digit: u8, cells: &[Cell]) -> Option<(f32, f32)> {
    if cells.is_empty() {
        return None;
    }
    let n = cells.len() as f32;
    let (sx, sy) = cells
        .iter()
        .map(|&c| m.candidate_centre(Candidate::new(c, digit)))
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    Some((sx / n, sy / n))
}

/// A chain: a ring on each node (green on, red off) and an arrow along each link (solid strong,
/// dashed weak), shortened so it starts and ends at the rings.
fn write_chain(out: &mut String, m: &Measures, k: usize, chain: &Chain) {
    out.push_str("<g class=\"chain\">");
    for node in &chain.nodes {
        let state = if node.on { "on" } else { "off" };
        for &cell in &node.cells {
            let (x, y) = m.candidate_centre(Candidate::new(cell, node.digit));
            let _ = write!(
                out,
                "<circle class=\"node {state}\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>",
                DISC + 1.5
            );
        }
    }
    for (i, link) in chain.links.iter().enumerate() {
        let (Some(a), Some(b)) = (chain.nodes.get(i), chain.nodes.get(i + 1)) else {
            continue;
        };
        let (Some((x1, y1)), Some((x2, y2))) = (
            node_centre(m, a.digit, &a.cells),
            node_centre(m, b.digit, &b.cells),
        ) else {
            continue;
        };
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt();
        let cut = DISC + 3.0;
        if len <= 2.0 * cut {
            continue;
        }
        let (ux, uy) = (dx / len, dy / len);
        let (kind, marker) = match link {
            LinkType::Strong => ("strong", "arrow-strong"),
            LinkType::Weak => ("weak", "arrow-weak"),
        };
        let _ = write!(
            out,
            "<line class=\"{kind}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" marker-end=\"url(#{marker}-{k})\"/>",
            x1 + ux * cut,
            y1 + uy * cut,
            x2 - ux * cut,
            y2 - uy * cut
        );
    }
    out.push_str("</g>\n");
}

/// Dash patterns telling a net's branches apart, the first branch solid, and their names in
/// the legend.
pub(super) const BRANCH_DASH: [(&str, &str); 5] = [
    ("", "solid"),
    ("7 3", "dashed"),
    ("2 3", "dotted"),
    ("9 3 2 3", "dash-dot"),
    ("4 6", "sparse dashes"),
];

/// An arrow from one candidate to another, shortened to leave the rings free and shifted
/// sideways by `shift` (so branches running along the same pair stay apart).
#[allow(clippy::too_many_arguments)]
fn write_net_arrow(
    out: &mut String,
    m: &Measures,
    k: usize,
    from: Candidate,
    to: Candidate,
    on: bool,
    shift: f32,
    leads_to: u16,
) {
    let ((x1, y1), (x2, y2)) = (m.candidate_centre(from), m.candidate_centre(to));
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1.0 {
        return;
    }
    let cut = (DISC + 2.0).min(len * 0.3);
    let (ux, uy) = (dx / len, dy / len);
    let (px, py) = (-uy * shift, ux * shift);
    let state = if on { "on" } else { "off" };
    let _ = write!(
        out,
        "<line class=\"{state}\" data-to=\"{leads_to}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" marker-end=\"url(#arrow-{state}-{k})\"/>",
        x1 + ux * cut + px,
        y1 + uy * cut + py,
        x2 - ux * cut + px,
        y2 - uy * cut + py
    );
}

/// The arrows of one branch, from each implication to those resting on it, each with the
/// implication it leads to (`data-to`, the index in the top branch: a nested branch's arrows all
/// stand for `owner`, the implication they prove); a branch one level down (the reason an
/// implication is false: assuming it true fails) is drawn inside its own `inner` group, in
/// thinner dotted lines, with the cross where it fails.
fn write_branch_arrows(
    out: &mut String,
    m: &Measures,
    k: usize,
    branch: &NetBranch,
    shift: f32,
    owner: Option<u16>,
) {
    for (i, imp) in branch.implications.iter().enumerate() {
        let to = owner.unwrap_or(i as u16);
        for &p in &imp.parents {
            if let Some(parent) = branch.implications.get(usize::from(p)) {
                write_net_arrow(
                    out,
                    m,
                    k,
                    parent.candidate,
                    imp.candidate,
                    imp.on,
                    shift,
                    to,
                );
            }
        }
        if let Reason::Nested(inner) = &imp.reason {
            out.push_str("<g class=\"inner\">");
            write_branch_arrows(out, m, k, inner, shift, Some(to));
            write_branch_end(out, m, inner);
            out.push_str("</g>");
        }
    }
}

/// A cross where a branch ends in a contradiction: over the cell left without candidates, or
/// on the candidate found both true and false.
fn write_branch_end(out: &mut String, m: &Measures, branch: &NetBranch) {
    let cross = match branch.end {
        BranchEnd::EmptyCell(c) => {
            let (x, y) = m.cell_origin(c);
            Some((x + m.cell / 2.0, y + m.cell / 2.0, m.cell / 3.0))
        }
        BranchEnd::Both(c) => {
            let (x, y) = m.candidate_centre(c);
            Some((x, y, DISC))
        }
        BranchEnd::Conclusion | BranchEnd::NoPlace(..) => None,
    };
    if let Some((x, y, r)) = cross {
        let _ = write!(
            out,
            "<path class=\"contradiction\" d=\"M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}\"/>",
            x - r,
            y - r,
            x + r,
            y + r,
            x - r,
            y + r,
            x + r,
            y - r
        );
    }
}

/// A forcing net: each branch's implications as arrows from the implications they rest on
/// (green to a candidate made true, red to one made false), each branch in its own dash
/// pattern and numbered at its assumption; a ring on every candidate the branches make true
/// (green) or false (red); a cross where a branch ends in a contradiction.
fn write_net(out: &mut String, m: &Measures, k: usize, net: &ForcingNet) {
    out.push_str("<g class=\"net\">");
    let n = net.branches.len();
    for (b, branch) in net.branches.iter().enumerate() {
        let (dash, _) = BRANCH_DASH[b % BRANCH_DASH.len()];
        let style = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let _ = write!(out, "<g class=\"branch\" data-branch=\"{}\"{style}>", b + 1);
        let shift = (b as f32 - (n as f32 - 1.0) / 2.0) * 2.0;
        write_branch_arrows(out, m, k, branch, shift, None);
        if let Some((a, _)) = branch.assumption() {
            let (x, y) = m.candidate_centre(a);
            let _ = write!(
                out,
                "<text class=\"branch-no\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                x + DISC + 3.0,
                y - DISC - 1.0,
                b + 1
            );
        }
        write_branch_end(out, m, branch);
        out.push_str("</g>");
    }
    // one ring per candidate made true or false, with where it is in each branch
    // (`data-in="B:I …"`, for the page's walk)
    let mut rings: Vec<((Candidate, bool), Vec<String>)> = Vec::new();
    for (b, branch) in net.branches.iter().enumerate() {
        for (i, imp) in branch.implications.iter().enumerate() {
            let key = (imp.candidate, imp.on);
            let at = format!("{}:{i}", b + 1);
            match rings.iter_mut().find(|(k, _)| *k == key) {
                Some((_, places)) => places.push(at),
                None => rings.push((key, vec![at])),
            }
        }
    }
    for ((candidate, on), places) in rings {
        let (x, y) = m.candidate_centre(candidate);
        let state = if on { "on" } else { "off" };
        let _ = write!(
            out,
            "<circle class=\"node {state}\" data-in=\"{}\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>",
            places.join(" "),
            DISC + 1.5
        );
    }
    // the ring the page's walk moves onto the candidate of the proof line shown
    let _ = write!(
        out,
        "<circle class=\"focus\" cx=\"-99\" cy=\"-99\" r=\"{}\"/>",
        DISC + 5.0
    );
    out.push_str("</g>\n");
}

/// An SVG arrowhead marker `arrow-{kind}-{frame}` of `size` units in `colour`; ids are unique per
/// frame, since a marker in a hidden frame would not be drawn.
fn arrow_marker(kind: &str, frame: usize, size: u8, colour: &str) -> String {
    format!(
        "<marker id=\"arrow-{kind}-{frame}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
         markerWidth=\"{size}\" markerHeight=\"{size}\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0L10,5L0,10z\" fill=\"{colour}\"/></marker>"
    )
}

//! A solve (or a hint) as one self-contained HTML page: the grid at every step drawn as SVG, the
//! step's candidates coloured by [`Role`], chains as arrows, houses shaded, a step list to click
//! or walk with the arrow keys, and the explanation in words below the grid.
//!
//! Everything is built from the [`Trace`] alone (steps, highlights, houses, chains, nets), so it
//! works for every technique, built-in, scripted or plugin. The page is inline HTML, CSS, SVG and
//! a few lines of script: nothing is fetched, it opens from a file and works offline.
//!
//! Frames: frame 0 is the start; frame `K` (1..=N) shows the grid *before* step `K` with the
//! step drawn on it (its list entry carries `data-step="K"`); frame N+1 shows how the solve ended
//! (solved, stuck, step limit). An invalid puzzle gives one frame saying what is wrong.
//!
//! Every size is drawn by the same code: the frames are built once on the puzzle's own grid
//! (generic over its shape), each kept as a size-free `Position` (`html/position.rs`); the drawing takes its
//! measures from the position's layout (cell size, pencil-mark sub-grid, box borders) and
//! writes digits in the puzzle's alphabet. A 9x9 page is what it always was.

use std::fmt::Write as _;

use crate::engine::trace::{Entry, Outcome, Trace};
use crate::model::grid::Grid;
use crate::model::on_size;
use crate::model::{Alphabet, Geometry, Layout, Shape};
use crate::step::net::literal;
use crate::step::{Role, Step};
use crate::text::Puzzle;
use crate::text::nine::parse_puzzle;
use crate::text::printable::printable;

mod glossary;
mod position;
mod proof;
mod svg;

use position::{Measures, Position};
use svg::{BRANCH_DASH, write_svg};

/// Which page to write: a whole solve, or the next step only (a hint).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PageKind {
    /// Every step of the solve, the start and the end.
    Solve,
    /// The first step only, shown on the grid (for `lapiz hint`).
    Hint,
}

/// Escapes text for HTML element content and attribute values (control characters are also
/// made visible with [`printable`]).
pub(crate) fn escape(text: &str) -> String {
    let text = printable(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page's styles: one colour per role, strong and weak links, on and off nodes.
const STYLE: &str = include_str!("page.css");

/// The page's script (after `walk.js`, the forcing nets' walker it shares with `lapiz serve`'s
/// page): shows one frame, follows clicks and the arrow keys, Home and End. A URL
/// fragment `#K` opens frame K; `#selftest` drives the navigation itself and writes the result to
/// `body[data-selftest]` (what the browser test reads).
const SCRIPT: &str = concat!(include_str!("walk.js"), include_str!("page.js"));

/// One picture of the page.
struct Frame<'a> {
    /// Shown above the grid and in the list, e.g. `Step 3`.
    title: String,
    /// The board drawn.
    position: Position,
    /// The step drawn on it, if any.
    step: Option<&'a Step>,
    /// The words below the grid.
    explanation: String,
    /// Whether the words say something went wrong.
    bad: bool,
    /// The solution's values row by row, drawn faintly in empty cells (the end of a stuck solve
    /// shows none).
    solution: Option<Vec<u8>>,
    /// The step's chains in words, one line each (9x9: the words name its houses).
    words: Vec<String>,
}

/// The solution of a trace as values row by row, when it has one of `layout`'s size (written
/// in `alphabet`).
fn solution_of(trace: &Trace, layout: Layout, alphabet: Alphabet) -> Option<Vec<u8>> {
    let s = trace.solution.as_deref()?;
    let boxes = (layout.box_rows() as u8, layout.box_cols() as u8);
    let p = Puzzle::parse_with(s, Some(alphabet), Some(boxes)).ok()?;
    (p.layout() == layout && p.is_solved()).then(|| p.values().to_vec())
}

/// What a page starts from: a 9x9 grid (the full engine's), or a puzzle of another size.
enum Start {
    /// A 9x9 grid, pencil marks and placed digits included.
    Nine(Box<Grid>),
    /// A puzzle of another size (its pencil marks, when read with some, included).
    Sized(Puzzle),
}

/// The board a trace starts from, read back from it: its start line or puzzle, 9x9 or of
/// another size (the box shape as square as the size allows).
fn start_of(trace: &Trace) -> Option<Start> {
    let text = trace.start.as_deref().unwrap_or(&trace.puzzle);
    match parse_puzzle(text) {
        Ok(grid) => Some(Start::Nine(Box::new(grid))),
        Err(_) => Puzzle::parse(text)
            .ok()
            .filter(|p| p.layout() != Layout::NINE)
            .map(Start::Sized),
    }
}

/// The page for a trace. `start` is the 9x9 grid the solve started from (read back from the
/// trace when `None`, of any size); `kind` says whether it is a whole solve or a hint.
pub fn trace_page(trace: &Trace, start: Option<&Grid>, kind: PageKind) -> String {
    let start = start
        .map(|g| Start::Nine(Box::new(g.clone())))
        .or_else(|| start_of(trace));
    write_page(trace, start, kind)
}

/// The page for a trace of a puzzle of any size: `start` is the puzzle (or grid being solved)
/// the solve started from, as [`Puzzle::read`] read it, its box shape and alphabet
/// included; the grid writes digits in the puzzle's alphabet.
///
/// ```
/// use lapiz::Pipeline;
/// use lapiz::html::{PageKind, puzzle_page};
/// use lapiz::text::Puzzle;
///
/// let puzzle = Puzzle::parse(".5.3.2.....63.....16......2.6.6....3").unwrap();
/// let trace = puzzle.solve(&Pipeline::default_pipeline());
/// let page = puzzle_page(&trace, &puzzle, PageKind::Solve);
/// assert!(page.contains("Solved in") && page.contains("6x6 (2x3 boxes)"));
/// // 6 cells of 54 units, and the margins for the labels
/// assert!(page.contains("viewBox=\"0 0 368 368\""));
/// ```
pub fn puzzle_page(trace: &Trace, start: &Puzzle, kind: PageKind) -> String {
    let start = match start.nine() {
        Some(grid) => Start::Nine(Box::new(grid)),
        None => Start::Sized(start.clone()),
    };
    write_page(trace, Some(start), kind)
}

/// [`SizedFrames`]' work: the frames of a solve of a puzzle of another size, on its grid.
struct SizedFrames<'t, 'p> {
    trace: &'t Trace,
    puzzle: &'p Puzzle,
    kind: PageKind,
}

impl<'t> SizedFrames<'t, '_> {
    /// Runs it on shape `S`.
    fn call<S: Shape>(self, geo: &'static Geometry<S>) -> Vec<Frame<'t>> {
        let grid = self.puzzle.grid(geo);
        let words =
            |step: &Step, grid: &Grid<S>| crate::step::words::step_chain_lines(step, Some(grid));
        frames(self.trace, grid, self.puzzle.alphabet(), self.kind, words)
    }
}

/// The page for a trace from `start` (none: the trace's puzzle cannot be read).
fn write_page(trace: &Trace, start: Option<Start>, kind: PageKind) -> String {
    match &start {
        // the nets' and chains' words follow the puzzle's symbols, as its steps do
        Some(Start::Sized(p)) => p
            .clone()
            .in_its_symbols(|| write_page_in(trace, start, kind)),
        _ => write_page_in(trace, start, kind),
    }
}

/// [`write_page`] in the symbols already set.
fn write_page_in(trace: &Trace, start: Option<Start>, kind: PageKind) -> String {
    let invalid = |position: Position, explanation: String| Frame {
        title: "Invalid puzzle".into(),
        position,
        step: None,
        explanation,
        bad: true,
        solution: None,
        words: Vec::new(),
    };
    let frames = match (&trace.outcome, &start) {
        (Outcome::Invalid { reason }, start) => {
            let position = match start {
                Some(Start::Nine(grid)) => Position::of(grid, Alphabet::Standard),
                Some(Start::Sized(p)) => Position::of_puzzle(p),
                None => Position::empty(Layout::NINE),
            };
            let why = format!("This is not a puzzle lapiz can solve: {reason}.");
            vec![invalid(position, why)]
        }
        (_, None) => vec![invalid(
            Position::empty(Layout::NINE),
            "The puzzle of this trace cannot be read.".into(),
        )],
        (_, Some(Start::Nine(grid))) => {
            let words =
                |step: &Step, grid: &Grid| crate::step::words::step_chain_lines(step, Some(grid));
            frames(trace, (**grid).clone(), Alphabet::Standard, kind, words)
        }
        (_, Some(Start::Sized(puzzle))) => on_size!(puzzle.layout().by_size(), geo => SizedFrames {
            trace,
            puzzle,
            kind,
        }.call(geo)),
    };
    let layout = frames[0].position.layout;
    let mut out = String::new();
    let title = match kind {
        PageKind::Solve => "lapiz: the solve, step by step",
        PageKind::Hint => "lapiz: a hint",
    };
    // a 9x9 page needs neither the size's styles nor the key to its symbols
    let (size_style, key) = if layout == Layout::NINE {
        (String::new(), String::new())
    } else {
        let style = Measures::of(layout).size_style();
        (
            if style.is_empty() {
                style
            } else {
                format!("<style>{style}</style>\n")
            },
            format!(
                "<p class=\"key\">{}</p>",
                escape(&symbol_key(layout, frames[0].position.alphabet))
            ),
        )
    };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n{size_style}</head>\n<body data-current=\"0\">\n\
         <header><h1>{title}</h1><p>{}</p>{key}</header>\n<main>\n<section id=\"view\">\n",
        escape(&trace.puzzle)
    );
    let _ = writeln!(
        out,
        "<div class=\"nav\"><button id=\"prev\" type=\"button\" aria-label=\"previous step\">&larr;</button>\
         <button id=\"next\" type=\"button\" aria-label=\"next step\">&rarr;</button>\
         <span id=\"pos\">{}</span> <small>(arrow keys, Home, End; or click a step)</small></div>",
        escape(&frames[0].title)
    );
    let used = glossary::used(trace);
    for (k, frame) in frames.iter().enumerate() {
        write_frame(&mut out, k, frame, &used);
    }
    out.push_str("</section>\n<ol id=\"steps\">\n");
    write_list(&mut out, trace, &frames, kind, &used);
    out.push_str("</ol>\n</main>\n");
    glossary::write_glossary(&mut out, &used);
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// The layout and, where they are not plain digits, the symbols, as the text trace's first
/// line gives them: `16x16 (4x4 boxes), symbols 1-9A` (the steps write digits in them too).
fn symbol_key(layout: Layout, alphabet: Alphabet) -> String {
    if alphabet == Alphabet::Standard && layout.n() <= 9 {
        layout.to_string()
    } else {
        format!("{layout}, symbols {alphabet}")
    }
}

/// The frames of a solve or a hint on `grid` (of any size), its digits drawn in `alphabet`;
/// `words` spells out a step's chains in the grid it was found in.
fn frames<'t, S: Shape>(
    trace: &'t Trace,
    mut grid: Grid<S>,
    alphabet: Alphabet,
    kind: PageKind,
    words: impl Fn(&Step, &Grid<S>) -> Vec<String>,
) -> Vec<Frame<'t>> {
    let layout = grid.geometry().layout();
    let solution = solution_of(trace, layout, alphabet);
    let mut frames = vec![Frame {
        title: "Start".into(),
        position: Position::of(&grid, alphabet),
        step: None,
        explanation: format!(
            "The puzzle: {} givens, {} cells to fill. Step through the solve with the arrow keys \
             or click a step.",
            grid.givens().iter().count(),
            grid.empty_cells().iter().count()
        ),
        bad: false,
        solution: None,
        words: Vec::new(),
    }];
    let steps: Vec<&Step> = trace.steps().collect();
    if kind == PageKind::Hint {
        if let Some(step) = steps.first() {
            frames[0] = Frame {
                title: "Hint".into(),
                position: Position::of(&grid, alphabet),
                step: Some(step),
                explanation: step.explanation.clone(),
                bad: false,
                solution: None,
                words: words(step, &grid),
            };
        } else {
            frames[0].explanation = "No technique of the pipeline finds a step here.".into();
            frames[0].bad = true;
        }
        return frames;
    }
    for (k, step) in steps.iter().enumerate() {
        frames.push(Frame {
            title: format!("Step {}", k + 1),
            position: Position::of(&grid, alphabet),
            step: Some(step),
            explanation: step.explanation.clone(),
            bad: false,
            solution: None,
            words: words(step, &grid),
        });
        step.apply(&mut grid);
    }
    let n = steps.len();
    let (title, explanation, bad, show_solution) = match &trace.outcome {
        Outcome::Solved => (
            "Solved".to_string(),
            format!("Solved in {n} steps."),
            false,
            false,
        ),
        Outcome::Stuck { .. } => (
            "Stuck".to_string(),
            format!(
                "Stuck after {n} steps: no technique of the pipeline `{}` finds anything more in \
                 these pencil marks. The {} empty cells still need a harder technique (or a \
                 guess).",
                trace.pipeline,
                grid.empty_cells().iter().count()
            ),
            true,
            false,
        ),
        Outcome::StepLimit { limit } => (
            "Step limit".to_string(),
            format!("Stopped at the step limit ({limit}) after {n} steps."),
            true,
            false,
        ),
        Outcome::Stopped { cause, .. } => (
            "Stopped".to_string(),
            format!("Stopped ({cause}) after {n} steps."),
            true,
            false,
        ),
        Outcome::Invalid { reason } => ("Invalid".to_string(), reason.clone(), true, false),
    };
    frames.push(Frame {
        title,
        position: Position::of(&grid, alphabet),
        step: None,
        explanation,
        bad,
        solution: if show_solution { solution } else { None },
        words: Vec::new(),
    });
    frames
}

/// The step list: the start, one `data-step="K"` item per step, rejected and failed
/// techniques as notes, and the end.
fn write_list(
    out: &mut String,
    trace: &Trace,
    frames: &[Frame<'_>],
    kind: PageKind,
    used: &[(&'static crate::technique::TechniqueInfo, String)],
) {
    if kind == PageKind::Hint || frames.len() == 1 {
        let _ = writeln!(
            out,
            "<li class=\"meta\" data-frame=\"0\"{}>{}</li>",
            if frames[0].step.is_some() {
                " data-step=\"1\""
            } else {
                ""
            },
            escape(&frames[0].explanation)
        );
        return;
    }
    let _ = writeln!(out, "<li class=\"meta\" data-frame=\"0\">Start</li>");
    let mut k = 0;
    for entry in &trace.entries {
        match entry {
            Entry::Step(step) => {
                k += 1;
                // the technique's description as the item's tooltip
                let title = used
                    .iter()
                    .find(|(i, _)| i.id == step.technique)
                    .map(|(i, d)| format!(" title=\"{}: {}\"", escape(i.name), escape(d)))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "<li value=\"{k}\" data-step=\"{k}\" data-frame=\"{k}\"{title}>{}</li>",
                    escape(&step.explanation)
                );
            }
            Entry::Rejected { step, reason } => {
                let _ = writeln!(
                    out,
                    "<li class=\"note\">rejected {} ({}): {}</li>",
                    escape(&step.technique),
                    escape(&reason.to_string()),
                    escape(&step.explanation)
                );
            }
            Entry::Failed { technique, error } => {
                let _ = writeln!(
                    out,
                    "<li class=\"note\">failed {}: {}</li>",
                    escape(technique),
                    escape(error)
                );
            }
        }
    }
    let last = frames.len() - 1;
    let _ = writeln!(
        out,
        "<li class=\"meta\" data-frame=\"{last}\">{}</li>",
        escape(&frames[last].title)
    );
}

/// One frame: its SVG grid, its explanation, the legend and a forcing net's proof.
fn write_frame(
    out: &mut String,
    k: usize,
    frame: &Frame<'_>,
    used: &[(&'static crate::technique::TechniqueInfo, String)],
) {
    let hidden = if k == 0 { "" } else { " hidden" };
    let step_attr = match frame.step {
        Some(_) if frame.title == "Hint" => " data-shows-step=\"1\"".to_string(),
        Some(_) => format!(" data-shows-step=\"{k}\""),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "<div class=\"frame\" data-frame=\"{k}\" data-title=\"{}\"{step_attr}{hidden}>",
        escape(&frame.title)
    );
    write_svg(out, k, frame);
    let explanation = match frame.step {
        Some(step) => glossary::linked(&step.technique, &frame.explanation, used),
        None => escape(&frame.explanation),
    };
    let _ = writeln!(
        out,
        "<p class=\"explanation{}\">{explanation}</p>",
        if frame.bad { " bad" } else { "" },
    );
    if let Some(step) = frame.step {
        if !frame.words.is_empty() {
            out.push_str("<ul class=\"chain-words\">");
            for line in &frame.words {
                let _ = write!(out, "<li>{}</li>", escape(line));
            }
            out.push_str("</ul>\n");
        }
        write_legend(out, step);
        if let Some(net) = &step.net {
            proof::write_proof(out, &Measures::of(frame.position.layout), net);
        }
    }
    out.push_str("</div>\n");
}

/// Whether a step of `technique` shows almost locked sets by their roles (set A, set B, …),
/// their cells tinted.
fn draws_sets(technique: &str) -> bool {
    matches!(technique, "als-xz" | "als-xy-wing" | "death-blossom")
}

/// What a role stands for in the legend: for the almost-locked-set techniques, the sets, the
/// restricted commons and the digits they eliminate; else the role's own words.
fn role_words(technique: &str, role: Role) -> &'static str {
    let petals = technique == "death-blossom";
    let als = draws_sets(technique);
    match role {
        _ if !als => role.words(),
        Role::ColorA if petals => "petal (1st, 5th)",
        Role::ColorB if petals => "petal (2nd, 6th)",
        Role::Cover if petals => "petal (3rd, 7th)",
        Role::Base if petals => "petal (4th, 8th)",
        Role::ColorA => "set A (its cells tinted)",
        Role::ColorB => "set B (its cells tinted)",
        Role::Cover => "set C (its cells tinted)",
        Role::Pivot => "stem",
        Role::Link if petals => "the stem's digit in its petal",
        Role::Link => "X (and Y): restricted commons",
        Role::Pincer => "Z: in the sets, gone from every cell seeing all of them",
        other => other.words(),
    }
}

/// The legend of the roles, marks and links a step uses.
fn write_legend(out: &mut String, step: &Step) {
    let mut items: Vec<(String, String)> = Vec::new();
    let mut push = |class: &str, words: &str| {
        if !items.iter().any(|(c, _)| c == class) {
            items.push((class.to_string(), words.to_string()));
        }
    };
    if !step.houses.is_empty() {
        push("house-l", "house");
    }
    for h in &step.highlights {
        push(h.role.name(), role_words(&step.technique, h.role));
    }
    if !step.placements.is_empty() {
        push("placed-c", "placed");
    }
    if !step.eliminations.is_empty() {
        push("eliminated", "eliminated");
    }
    if !step.chains.is_empty() {
        push("strong-l", "strong link");
        push("weak-l", "weak link");
        push("on-l", "on (true)");
        push("off-l", "off (false)");
    } else if let Some(net) = &step.net {
        push("on-l", "true in a branch (green ring, green arrow)");
        push("off-l", "false in a branch (red ring, red arrow)");
        for (b, branch) in net.branches.iter().enumerate() {
            let (_, dash) = BRANCH_DASH[b % BRANCH_DASH.len()];
            let from = branch
                .assumption()
                .map(|(c, on)| format!(": assume {}", literal(c, on)))
                .unwrap_or_default();
            push(
                &format!("branch-l b{}", b + 1),
                &format!("branch {} ({dash} arrows){from}", b + 1),
            );
        }
    }
    out.push_str("<ul class=\"legend\">");
    for (class, words) in items {
        let style = if class == "house-l" {
            " style=\"--c:#fff4c2\""
        } else {
            ""
        };
        let _ = write!(out, "<li class=\"{class}\"{style}>{}</li>", escape(&words));
    }
    out.push_str("</ul>\n");
}

/// The class of the `<svg>` element [`grid_svg`] writes; its styles are scoped to it.
const GRID_SVG_CLASS: &str = "lapiz-grid";

/// One grid drawn as a standalone SVG image, as the page draws a frame: the values and pencil
/// marks and, with `step`, that step on it (roles coloured, chains as arrows, houses shaded).
/// The image carries the drawing's styles, scoped to its own class so that, inline in a larger
/// document (a notebook), they style nothing else.
pub fn grid_svg(grid: &Grid, step: Option<&Step>) -> String {
    svg_of(Position::of(grid, Alphabet::Standard), step)
}

/// [`grid_svg`] for a puzzle of any size (or a grid being solved, its pencil marks included),
/// its digits written in the puzzle's symbols; a 9x9 puzzle is drawn as [`grid_svg`] draws
/// the grid it holds.
///
/// ```
/// use lapiz::html::puzzle_svg;
/// use lapiz::text::Puzzle;
/// let svg = puzzle_svg(&Puzzle::parse("3.1...2.2....4..").unwrap(), None);
/// assert!(svg.starts_with("<svg class=\"lapiz-grid\""));
/// ```
pub fn puzzle_svg(puzzle: &Puzzle, step: Option<&Step>) -> String {
    match puzzle.nine() {
        Some(grid) => grid_svg(&grid, step),
        None => puzzle.in_its_symbols(|| svg_of(Position::of_puzzle(puzzle), step)),
    }
}

/// One position drawn as a standalone SVG image, with `step` on it.
fn svg_of(position: Position, step: Option<&Step>) -> String {
    let layout = position.layout;
    let frame = Frame {
        title: step.map_or_else(|| "Grid".to_string(), |s| s.explanation.clone()),
        position,
        step,
        explanation: String::new(),
        bad: false,
        solution: None,
        words: Vec::new(),
    };
    let mut svg = String::new();
    write_svg(&mut svg, 0, &frame);
    let size = Measures::of(layout).side();
    let head = format!("<svg class=\"{GRID_SVG_CLASS}\" width=\"{size}\" height=\"{size}\" ");
    let svg = svg.replacen("<svg ", &head, 1);
    // the styles go right after the opening tag
    let at = svg.find('>').map_or(0, |i| i + 1);
    format!(
        "{}\n<style>{}</style>{}",
        &svg[..at],
        scoped_svg_style(),
        &svg[at..]
    )
}

/// The drawing's rules of [`STYLE`] (from `.thin` on, without the legend's), each selector
/// prefixed with `svg.lapiz-grid`.
fn scoped_svg_style() -> String {
    let drawing = STYLE.find(".thin{").map_or("", |i| &STYLE[i..]);
    let mut out = String::new();
    for rule in drawing.split('}') {
        let Some((selectors, body)) = rule.split_once('{') else {
            continue;
        };
        let selectors: Vec<String> = selectors
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty() && !s.starts_with(".legend"))
            .map(|s| format!("svg.{GRID_SVG_CLASS} {s}"))
            .collect();
        if !selectors.is_empty() {
            let _ = write!(out, "{}{{{}}}", selectors.join(","), body.trim());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pipeline::Pipeline;
    use crate::engine::solve_grid;
    use crate::model::cell::Cell;
    use crate::model::grid::Candidate;
    use crate::step::net::{BranchEnd, ForcingNet, NetBranch, Reason};
    use crate::step::{Chain, ChainNode, LinkType};

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    /// Solved by the default pipeline with locked sets and discontinuous nice loops.
    const CHAINS: &str =
        "....9.7..8....3.6.7.3....2...6.471............2.1....5.9.6........5..68...4....5.";

    fn solve(text: &str) -> (Trace, Grid) {
        let grid = parse_puzzle(text).unwrap();
        (solve_grid(&grid, &Pipeline::default_pipeline()), grid)
    }

    /// Every `data-step="K"` value of the page, in order.
    fn step_numbers(page: &str) -> Vec<usize> {
        page.match_indices("data-step=\"")
            .map(|(i, m)| {
                let rest = &page[i + m.len()..];
                rest[..rest.find('"').unwrap()].parse().unwrap()
            })
            .collect()
    }

    #[test]
    fn a_grid_draws_alone_with_its_styles_scoped() {
        let (trace, grid) = solve(CHAINS);
        let svg = grid_svg(&grid, None);
        assert!(svg.starts_with("<svg class=\"lapiz-grid\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("class=\"given\""));
        // every rule is scoped: nothing styles the document around the image
        let style = &svg[svg.find("<style>").unwrap() + 7..svg.find("</style>").unwrap()];
        for rule in style.split('}').filter(|r| !r.is_empty()) {
            let selectors = rule.split('{').next().unwrap();
            assert!(
                selectors
                    .split(',')
                    .all(|s| s.starts_with("svg.lapiz-grid ")),
                "{rule}"
            );
        }
        assert!(!style.contains("body") && !style.contains("legend"));
        let step = trace.steps().find(|s| !s.chains.is_empty()).unwrap();
        let mut before = grid.clone();
        for s in trace.steps().take_while(|s| !std::ptr::eq(*s, step)) {
            s.apply(&mut before);
        }
        let drawn = grid_svg(&before, Some(step));
        assert!(drawn.contains("class=\"chain\""));
        assert!(drawn.contains("class=\"hl eliminated\""));
    }

    #[test]
    fn every_step_has_its_item_and_its_frame() {
        let (trace, grid) = solve(EASY);
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        let n = trace.steps().count();
        assert!(n > 10);
        assert_eq!(step_numbers(&page), (1..=n).collect::<Vec<_>>());
        // start, one per step, the end
        assert_eq!(page.matches("<div class=\"frame\"").count(), n + 2);
        for k in 1..=n {
            assert!(page.contains(&format!("data-shows-step=\"{k}\"")));
        }
        assert!(page.contains("Solved in"));
    }

    #[test]
    fn nothing_is_fetched_from_elsewhere() {
        let (trace, grid) = solve(EASY);
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        // the only URL is the SVG namespace, which is a name, not a fetch
        let without_ns = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        for bad in [
            "http:", "https:", "//cdn", "src=", "@import", "url(http", "<link",
        ] {
            assert!(!without_ns.contains(bad), "the page holds `{bad}`");
        }
        assert!(page.contains("<style>") && page.contains("<script>"));
    }

    #[test]
    fn roles_placements_and_eliminations_are_coloured() {
        let (trace, grid) = solve(CHAINS);
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        for class in [
            "pattern",
            "base",
            "color-a",
            "color-b",
            "eliminated",
            "placed-c",
        ] {
            assert!(
                page.contains(&format!("class=\"hl {class}\"")),
                "no {class}"
            );
        }
        assert!(page.contains("class=\"pm gone\"") && page.contains("class=\"pm put\""));
        assert!(page.contains("class=\"hl placed-c\""));
        assert!(page.contains("class=\"given\""));
        assert!(page.contains("class=\"placed\""));
        assert!(page.contains("class=\"house\""));
    }

    #[test]
    fn chains_are_drawn_as_arrows_strong_and_weak_apart() {
        let (_, grid) = solve(EASY);
        let c = |r, col| Cell::at(r, col);
        let node = |d, cells: Vec<Cell>, on| ChainNode {
            digit: d,
            cells,
            on,
            als: Vec::new(),
        };
        let step = Step::new("x-chain", 6.6)
            .eliminate(c(0, 0), 4)
            .chain(Chain {
                nodes: vec![
                    node(4, vec![c(0, 3)], false),
                    node(4, vec![c(0, 7)], true),
                    node(4, vec![c(4, 7), c(5, 7)], false),
                ],
                links: vec![LinkType::Strong, LinkType::Weak],
            })
            .explain("X-Chain <test> & more");
        let mut trace = solve_grid(&grid, &Pipeline::default_pipeline());
        trace.entries.insert(0, Entry::Step(step));
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        assert!(page.contains("<line class=\"strong\""));
        assert!(page.contains("<line class=\"weak\""));
        assert!(page.contains("marker-end=\"url(#arrow-strong-1)\""));
        assert!(page.contains("<marker id=\"arrow-strong-1\""));
        assert!(page.contains("class=\"node on\"") && page.contains("class=\"node off\""));
        assert!(page.contains("X-Chain &lt;test&gt; &amp; more"));
        assert!(!page.contains("<test>"));
    }

    #[test]
    fn a_forcing_net_is_drawn_as_arrows_branch_by_branch() {
        use crate::step::net::{ForcingKind, Implication, NetBranch, Reason};
        let (_, grid) = solve(EASY);
        let cand = |r, c, d| Candidate::new(Cell::at(r, c), d);
        let imp = |c, on, reason, parents: Vec<u16>| Implication {
            candidate: c,
            on,
            reason,
            parents,
        };
        let branch = |a: Candidate| NetBranch {
            implications: vec![
                imp(a, true, Reason::Assumption, vec![]),
                imp(cand(0, 0, 4), false, Reason::Peer, vec![0]),
                imp(cand(0, 0, 5), true, Reason::LastInCell, vec![1]),
            ],
            end: BranchEnd::Conclusion,
            end_parents: vec![],
        };
        let step = Step::new("cell-forcing-chain", 8.0)
            .place(Cell::at(0, 0), 5)
            .net(ForcingNet {
                kind: ForcingKind::Cell(Cell::at(0, 3)),
                branches: vec![branch(cand(0, 3, 4)), branch(cand(0, 3, 7))],
            })
            .explain("Cell Forcing Chain");
        let mut trace = solve_grid(&grid, &Pipeline::default_pipeline());
        trace.entries.insert(0, Entry::Step(step));
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        let frame = &page[page.find("data-shows-step=\"1\"").unwrap()..];
        let frame = &frame[..frame.find("</svg>").unwrap()];
        assert!(frame.contains("<g class=\"branch\" data-branch=\"1\">"));
        // the second branch is dashed, so the two stay apart
        assert!(frame.contains("<g class=\"branch\" data-branch=\"2\" stroke-dasharray="));
        // two arrows per branch: to a candidate made false, then to one made true
        assert_eq!(frame.matches("marker-end=\"url(#arrow-off-1)\"").count(), 2);
        assert_eq!(frame.matches("marker-end=\"url(#arrow-on-1)\"").count(), 2);
        assert!(frame.contains("<marker id=\"arrow-on-1\""));
        assert!(page.contains("branch 2 (dashed arrows): assume r1c4=7"));
        // the proof in words below, one implication a line, tied to the arrows into it and the
        // peer elimination it tells of (`data-imps`), and walkable
        assert!(frame.contains("<line class=\"on\" data-to=\"2\" "));
        assert!(page.contains("<button type=\"button\" class=\"w-next\""));
        assert!(page.contains(
            "<p class=\"pl d0\" data-branch=\"1\" data-imps=\"0\" data-at=\"193.0,49.0\">assume r1c4=4</p>\n\
             <p class=\"pl d0\" data-branch=\"1\" data-imps=\"2 1\" data-at=\"49.0,49.0\">1. r1c1=5 (last candidate of r1c1: 4 sees r1c4)</p>"
        ));
    }

    #[test]
    fn a_nested_branch_is_drawn_inside_the_branch_that_uses_it() {
        use crate::step::net::{ForcingKind, Implication};
        let (_, grid) = solve(EASY);
        let cand = |r, c, d| Candidate::new(Cell::at(r, c), d);
        let imp = |c, on, reason, parents: Vec<u16>| Implication {
            candidate: c,
            on,
            reason,
            parents,
        };
        // one level down: r1c1=4 makes r1c2 lose 4 and r1c2=4 true elsewhere, both at once
        let inner = NetBranch {
            implications: vec![
                imp(cand(0, 0, 4), true, Reason::Assumption, vec![]),
                imp(cand(0, 1, 4), false, Reason::Peer, vec![0]),
                imp(cand(1, 1, 4), true, Reason::LastInCell, vec![1]),
            ],
            end: BranchEnd::Both(cand(1, 1, 4)),
            end_parents: vec![1, 2],
        };
        let outer = NetBranch {
            implications: vec![
                imp(cand(0, 3, 7), true, Reason::Assumption, vec![]),
                imp(
                    cand(0, 0, 4),
                    false,
                    Reason::Nested(Box::new(inner)),
                    vec![0],
                ),
                imp(cand(0, 0, 5), true, Reason::LastInCell, vec![1]),
            ],
            end: BranchEnd::Conclusion,
            end_parents: vec![],
        };
        let mut step = Step::new("nested-forcing-chain", 9.0).place(Cell::at(0, 0), 5);
        step.net = Some(Box::new(ForcingNet {
            kind: ForcingKind::Contradiction,
            branches: vec![outer],
        }));
        step.explanation = "Nested Forcing Chain".into();
        let mut trace = solve_grid(&grid, &Pipeline::default_pipeline());
        trace.entries.insert(0, Entry::Step(step));
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        let frame = &page[page.find("data-shows-step=\"1\"").unwrap()..];
        let frame = &frame[..frame.find("</svg>").unwrap()];
        let inner = &frame[frame.find("<g class=\"inner\">").expect("an inner group")..];
        let inner = &inner[..inner.find("</g>").unwrap()];
        // the inner branch's two arrows and the cross where it fails
        assert_eq!(inner.matches("marker-end=\"url(#arrow-off-1)\"").count(), 1);
        assert_eq!(inner.matches("marker-end=\"url(#arrow-on-1)\"").count(), 1);
        assert_eq!(inner.matches("class=\"contradiction\"").count(), 1);
        // the outer branch keeps its own two arrows
        assert_eq!(frame.matches("marker-end=").count(), 4);
        assert!(page.contains(".net .inner line{"));
    }

    #[test]
    fn technique_names_link_to_their_description_in_the_glossary() {
        let (trace, grid) = solve(EASY);
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        assert!(page.contains(
            "<p class=\"explanation\"><a class=\"tech\" href=\"#t-hidden-single\" title=\"A digit that has one place left in a house goes there."
        ));
        // the target: the glossary under the page, one entry per technique of the solve
        assert!(page.contains("<section id=\"glossary\">"));
        assert!(page.contains("<dt id=\"t-hidden-single\">Hidden Single <small>(hidden-single, 1.2)</small></dt><dd>A digit that has one place left"));
        let used: std::collections::BTreeSet<&str> =
            trace.steps().map(|s| s.technique.as_str()).collect();
        assert_eq!(page.matches("<dt id=").count(), used.len());
        for id in used {
            assert!(page.contains(&format!("href=\"#t-{id}\"")), "{id}");
        }
    }

    #[test]
    fn als_sets_are_told_apart_with_their_commons_and_z() {
        let step = Step::new("als-xz", 7.0)
            .highlight(Role::ColorA, [Candidate::new(Cell::at(0, 0), 2)])
            .highlight(Role::ColorB, [Candidate::new(Cell::at(4, 4), 2)])
            .highlight(Role::Link, [Candidate::new(Cell::at(0, 0), 3)])
            .highlight(Role::Pincer, [Candidate::new(Cell::at(0, 0), 1)])
            .explain("ALS-XZ: …");
        let mut legend = String::new();
        write_legend(&mut legend, &step);
        for words in [
            "set A",
            "set B",
            "X (and Y): restricted commons",
            "Z: in the sets",
        ] {
            assert!(legend.contains(words), "{words}: {legend}");
        }
        assert!(legend.contains("<li class=\"color-a\">set A (its cells tinted)</li>"));
        // other techniques keep the roles' own words
        let mut legend = String::new();
        write_legend(
            &mut legend,
            &Step::new("x-wing", 3.2).highlight(Role::ColorA, []),
        );
        assert!(legend.contains(">colour A<"), "{legend}");
    }

    #[test]
    fn a_chain_step_is_spelled_out_below_the_grid() {
        let (trace, grid) = solve(CHAINS);
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        assert!(
            page.contains("<ul class=\"chain-words\"><li>if r"),
            "no chain in words"
        );
    }

    #[test]
    fn a_stuck_solve_says_where_it_stopped() {
        let (grid, pipeline) = (
            parse_puzzle(EASY).unwrap(),
            Pipeline::from_techniques(
                "singles",
                vec![crate::technique::builtin("full-house").unwrap()],
            )
            .unwrap(),
        );
        let trace = solve_grid(&grid, &pipeline);
        assert!(matches!(trace.outcome, Outcome::Stuck { .. }));
        let page = trace_page(&trace, Some(&grid), PageKind::Solve);
        assert!(page.contains("Stuck after"));
        assert!(page.contains("explanation bad"));
    }

    #[test]
    fn an_invalid_puzzle_gives_a_page_saying_what_is_wrong() {
        let trace = Trace::invalid(
            "12".into(),
            &Pipeline::default_pipeline(),
            "the puzzle has 2 characters, not 81".into(),
        );
        let page = trace_page(&trace, None, PageKind::Solve);
        assert!(page.contains("Invalid puzzle"));
        assert!(page.contains("the puzzle has 2 characters, not 81"));
        assert!(step_numbers(&page).is_empty());
        assert_eq!(page.matches("<div class=\"frame\"").count(), 1);
    }

    #[test]
    fn a_hint_page_shows_only_the_first_step() {
        let (trace, grid) = solve(EASY);
        let page = trace_page(&trace, Some(&grid), PageKind::Hint);
        assert_eq!(step_numbers(&page), vec![1]);
        assert_eq!(page.matches("<div class=\"frame\"").count(), 1);
        let first = &trace.steps().next().unwrap().explanation;
        assert!(page.contains(&escape(first)));
    }
}

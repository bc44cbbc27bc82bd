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

use std::fmt::Write as _;

use crate::geometry::{Cell, digits};
use crate::grid::{Candidate, Grid};
use crate::net::{BranchEnd, ForcingNet, NetBranch, Reason, literal};
use crate::parse::parse_puzzle;
use crate::printable::printable;
use crate::step::{Chain, LinkType, Role, Step};
use crate::trace::{Entry, Outcome, Rejection, Trace};

/// Cell size in SVG units.
const CELL: f32 = 54.0;
/// Margin around the grid, for the row and column labels.
const MARGIN: f32 = 22.0;
/// Radius of a candidate's highlight disc.
const DISC: f32 = 8.0;

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

/// The CSS class of a role (also its colour in the legend).
fn role_class(role: Role) -> &'static str {
    match role {
        Role::Pattern => "pattern",
        Role::Base => "base",
        Role::Cover => "cover",
        Role::Fin => "fin",
        Role::Pivot => "pivot",
        Role::Pincer => "pincer",
        Role::Link => "link",
        Role::ColorA => "color-a",
        Role::ColorB => "color-b",
    }
}

/// The words for a role in the legend.
fn role_words(role: Role) -> &'static str {
    match role {
        Role::Pattern => "pattern",
        Role::Base => "base",
        Role::Cover => "cover",
        Role::Fin => "fin",
        Role::Pivot => "pivot",
        Role::Pincer => "pincer",
        Role::Link => "link",
        Role::ColorA => "colour A",
        Role::ColorB => "colour B",
    }
}

/// Top-left corner of a cell.
fn cell_origin(cell: Cell) -> (f32, f32) {
    (
        MARGIN + f32::from(cell.col()) * CELL,
        MARGIN + f32::from(cell.row()) * CELL,
    )
}

/// Centre of a candidate's pencil-mark position (digit 1 top left, 9 bottom right).
fn candidate_centre(c: Candidate) -> (f32, f32) {
    let (x, y) = cell_origin(c.cell);
    let d = f32::from(c.digit.clamp(1, 9) - 1);
    let third = CELL / 3.0;
    (
        x + ((d % 3.0) + 0.5) * third,
        y + ((d / 3.0).floor() + 0.5) * third,
    )
}

/// The page's styles: one colour per role, strong and weak links, on and off nodes.
const STYLE: &str = r#"
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f6f3;color:#222}
header{padding:.6em 1em;background:#2d3e50;color:#fff}
header h1{font-size:1.2em;margin:0}
header p{margin:.2em 0 0;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;word-break:break-all}
main{display:flex;flex-wrap:wrap;gap:1em;padding:1em;align-items:flex-start}
#view{flex:0 1 560px;min-width:300px}
#view svg{width:100%;height:auto;background:#fff;border-radius:4px;box-shadow:0 1px 3px #0003}
.nav{display:flex;gap:.5em;align-items:center;margin:.4em 0}
.nav button{font-size:1em;padding:.2em .8em}
.explanation{font-size:1.05em;line-height:1.4;margin:.4em 0}
.explanation.bad{color:#a00;font-weight:bold}
.chain-words{margin:.2em 0 .5em;padding-left:1.2em;font-size:.92em;line-height:1.35}
pre.net{font-size:.8em;background:#fff;padding:.5em;overflow:auto;max-height:20em}
.legend{display:flex;flex-wrap:wrap;gap:.3em .8em;font-size:.85em;margin:.3em 0;padding:0;list-style:none}
.legend li::before{content:"";display:inline-block;width:.9em;height:.9em;border-radius:50%;margin-right:.3em;vertical-align:-.1em;background:var(--c)}
#steps{flex:1 1 300px;max-height:90vh;overflow:auto;margin:0;padding:0 0 0 2.8em;background:#fff;border-radius:4px;box-shadow:0 1px 3px #0003}
#steps li{padding:.25em .4em;cursor:pointer;font-size:.9em;border-bottom:1px solid #eee}
#steps li.meta{list-style:none;margin-left:-2.4em;font-weight:bold}
#steps li.note{list-style:none;margin-left:-2.4em;color:#a00;cursor:default;font-size:.8em}
#steps li.current{background:#ffe9a8}
#steps li:hover{background:#f3f3f3}
#steps li.current:hover{background:#ffe9a8}
.thin{stroke:#999;stroke-width:1}
.thick{stroke:#222;stroke-width:2.5}
.label{font-size:11px;fill:#777;text-anchor:middle;dominant-baseline:central}
.given{font-size:32px;font-weight:700;fill:#111;text-anchor:middle;dominant-baseline:central}
.placed{font-size:32px;fill:#1f5fbf;text-anchor:middle;dominant-baseline:central}
.solution{font-size:32px;fill:#1f5fbf;opacity:.35;text-anchor:middle;dominant-baseline:central}
.pm{font-size:13px;fill:#555;text-anchor:middle;dominant-baseline:central}
.pm.gone{fill:#c00;text-decoration:line-through;font-weight:700}
.pm.put{fill:#060;font-weight:700}
.house{fill:#fff4c2}
.als{fill:#e8dcff}
.hl{fill:var(--c)}
.pattern{--c:#8fcdf7}.base{--c:#7fb2ff}.cover{--c:#c9a7f5}.fin{--c:#ffa94d}.pivot{--c:#ffd43b}
.pincer{--c:#a9e34b}.link{--c:#96e0cf}.color-a{--c:#74c0fc}.color-b{--c:#ffc078}
.eliminated{--c:#ff8787}.placed-c{--c:#69db7c}
.node{fill:none;stroke-width:2}
.node.on{stroke:#2b8a3e}.node.off{stroke:#c92a2a}
.chain line{stroke-width:2.2;fill:none}
.chain .strong{stroke:#1c7ed6}
.chain .weak{stroke:#e8590c;stroke-dasharray:5 4}
.legend .strong-l::before{border-radius:0;height:.25em;vertical-align:.2em;background:#1c7ed6}
.legend .weak-l::before{border-radius:0;height:.25em;vertical-align:.2em;background:repeating-linear-gradient(90deg,#e8590c 0 4px,transparent 4px 7px)}
.net line{stroke-width:1.6;fill:none}
.net line.on{stroke:#2b8a3e}.net line.off{stroke:#c92a2a}
.net .branch-no{font-size:10px;font-weight:700;fill:#333}
.net .contradiction{stroke:#c92a2a;stroke-width:3;fill:none}
.net .inner line{stroke-width:1;stroke-dasharray:1.5 2}.net .inner .contradiction{stroke-width:1.5}
.legend .branch-l::before{display:none}
.legend .on-l::before{background:none;border:2px solid #2b8a3e}
.legend .off-l::before{background:none;border:2px solid #c92a2a}
"#;

/// The page's script: shows one frame, follows clicks and the arrow keys, Home and End. A URL
/// fragment `#K` opens frame K; `#selftest` drives the navigation itself and writes the result to
/// `body[data-selftest]` (what the browser test reads).
const SCRIPT: &str = r#"
(function(){
  var frames=Array.prototype.slice.call(document.querySelectorAll('.frame'));
  var items=Array.prototype.slice.call(document.querySelectorAll('#steps li[data-frame]'));
  var pos=document.getElementById('pos');
  var cur=0;
  function show(k){
    k=Math.max(0,Math.min(frames.length-1,k));
    frames.forEach(function(f,i){f.hidden=(i!==k);});
    items.forEach(function(li){
      var on=(+li.getAttribute('data-frame')===k);
      li.classList.toggle('current',on);
      if(on){li.setAttribute('aria-current','step');if(li.scrollIntoView)li.scrollIntoView({block:'nearest'});}
      else li.removeAttribute('aria-current');
    });
    cur=k;
    document.body.setAttribute('data-current',String(k));
    if(pos)pos.textContent=frames[k].getAttribute('data-title');
  }
  items.forEach(function(li){li.addEventListener('click',function(){show(+li.getAttribute('data-frame'));});});
  document.addEventListener('keydown',function(e){
    var moves={ArrowRight:1,ArrowDown:1,PageDown:1,ArrowLeft:-1,ArrowUp:-1,PageUp:-1};
    if(e.key in moves){show(cur+moves[e.key]);e.preventDefault();}
    else if(e.key==='Home'){show(0);e.preventDefault();}
    else if(e.key==='End'){show(frames.length-1);e.preventDefault();}
  });
  var prev=document.getElementById('prev'),next=document.getElementById('next');
  if(prev)prev.addEventListener('click',function(){show(cur-1);});
  if(next)next.addEventListener('click',function(){show(cur+1);});
  function grid(){var f=frames[cur];var s=f&&f.querySelector('svg');return s?s.outerHTML:'';}
  var hash=location.hash.slice(1);
  if(hash==='selftest'){
    var results=[];
    show(0);var first=grid();
    document.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowRight',bubbles:true}));
    results.push(frames.length<2||(cur===1&&grid()!==first));
    items[items.length-1].click();
    results.push(cur===frames.length-1);
    document.dispatchEvent(new KeyboardEvent('keydown',{key:'Home',bubbles:true}));
    results.push(cur===0&&grid()===first);
    var visible=frames.filter(function(f){return !f.hidden;}).length;
    results.push(visible===1);
    document.body.setAttribute('data-selftest',results.every(Boolean)?'pass':'fail '+results.join(','));
  } else {
    show(/^[0-9]+$/.test(hash)?+hash:0);
  }
})();
"#;

/// One picture of the page.
struct Frame<'a> {
    /// Shown above the grid and in the list, e.g. `Step 3`.
    title: String,
    /// The grid drawn.
    grid: Grid,
    /// The step drawn on it, if any.
    step: Option<&'a Step>,
    /// The words below the grid.
    explanation: String,
    /// Whether the words say something went wrong.
    bad: bool,
    /// The solution, drawn faintly in empty cells (the end of a stuck solve shows none).
    solution: Option<[u8; 81]>,
}

/// The solution of a trace as 81 digits, when it has one.
fn solution_of(trace: &Trace) -> Option<[u8; 81]> {
    let s = trace.solution.as_ref()?;
    let bytes = s.as_bytes();
    if bytes.len() != 81 || !bytes.iter().all(|b| (b'1'..=b'9').contains(b)) {
        return None;
    }
    let mut out = [0u8; 81];
    for (o, b) in out.iter_mut().zip(bytes) {
        *o = b - b'0';
    }
    Some(out)
}

/// The grid the trace starts from: `start` when given, else the trace's start line or puzzle.
fn start_grid(trace: &Trace, start: Option<&Grid>) -> Option<Grid> {
    if let Some(g) = start {
        return Some(g.clone());
    }
    let text = trace.start.as_deref().unwrap_or(&trace.puzzle);
    parse_puzzle(text).ok()
}

/// The page for a trace. `start` is the grid the solve started from (read back from the trace
/// when `None`); `kind` says whether it is a whole solve or a hint.
pub fn trace_page(trace: &Trace, start: Option<&Grid>, kind: PageKind) -> String {
    let grid = start_grid(trace, start);
    let frames = match (&trace.outcome, grid) {
        (Outcome::Invalid { reason }, grid) => vec![Frame {
            title: "Invalid puzzle".into(),
            grid: grid.unwrap_or_else(empty_board),
            step: None,
            explanation: format!("This is not a puzzle lapiz can solve: {reason}."),
            bad: true,
            solution: None,
        }],
        (_, None) => vec![Frame {
            title: "Invalid puzzle".into(),
            grid: empty_board(),
            step: None,
            explanation: "The puzzle of this trace cannot be read.".into(),
            bad: true,
            solution: None,
        }],
        (_, Some(grid)) => frames(trace, grid, kind),
    };
    let mut out = String::new();
    let title = match kind {
        PageKind::Solve => "lapiz: the solve, step by step",
        PageKind::Hint => "lapiz: a hint",
    };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body data-current=\"0\">\n\
         <header><h1>{title}</h1><p>{}</p></header>\n<main>\n<section id=\"view\">\n",
        escape(&trace.puzzle)
    );
    let _ = writeln!(
        out,
        "<div class=\"nav\"><button id=\"prev\" type=\"button\" aria-label=\"previous step\">&larr;</button>\
         <button id=\"next\" type=\"button\" aria-label=\"next step\">&rarr;</button>\
         <span id=\"pos\">{}</span> <small>(arrow keys, Home, End; or click a step)</small></div>",
        escape(&frames[0].title)
    );
    for (k, frame) in frames.iter().enumerate() {
        write_frame(&mut out, k, frame);
    }
    out.push_str("</section>\n<ol id=\"steps\">\n");
    write_list(&mut out, trace, &frames, kind);
    out.push_str("</ol>\n</main>\n");
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// A grid with no values and no candidates (drawn when there is no puzzle to draw).
fn empty_board() -> Grid {
    let mut g = Grid::empty();
    for c in Cell::all() {
        g.set_candidates(c, 0);
    }
    g
}

/// The frames of a solve or a hint on `grid`.
fn frames(trace: &Trace, mut grid: Grid, kind: PageKind) -> Vec<Frame<'_>> {
    let solution = solution_of(trace);
    let mut frames = vec![Frame {
        title: "Start".into(),
        grid: grid.clone(),
        step: None,
        explanation: format!(
            "The puzzle: {} givens, {} cells to fill. Step through the solve with the arrow keys \
             or click a step.",
            grid.givens().iter().count(),
            grid.empty_cells().iter().count()
        ),
        bad: false,
        solution: None,
    }];
    let steps: Vec<&Step> = trace.steps().collect();
    if kind == PageKind::Hint {
        if let Some(step) = steps.first() {
            frames[0] = Frame {
                title: "Hint".into(),
                grid,
                step: Some(step),
                explanation: step.explanation.clone(),
                bad: false,
                solution: None,
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
            grid: grid.clone(),
            step: Some(step),
            explanation: step.explanation.clone(),
            bad: false,
            solution: None,
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
        Outcome::Invalid { reason } => ("Invalid".to_string(), reason.clone(), true, false),
    };
    frames.push(Frame {
        title,
        grid,
        step: None,
        explanation,
        bad,
        solution: if show_solution { solution } else { None },
    });
    frames
}

/// The step list: the start, one `data-step="K"` item per step, rejected and failed
/// techniques as notes, and the end.
fn write_list(out: &mut String, trace: &Trace, frames: &[Frame<'_>], kind: PageKind) {
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
                let _ = writeln!(
                    out,
                    "<li value=\"{k}\" data-step=\"{k}\" data-frame=\"{k}\">{}</li>",
                    escape(&step.explanation)
                );
            }
            Entry::Rejected { step, reason } => {
                let why = match reason {
                    Rejection::Unsound { candidate } => {
                        format!("unsound, contradicts the solution at {candidate}")
                    }
                    Rejection::NoChange => "changes nothing".into(),
                    Rejection::Malformed { message } => message.clone(),
                };
                let _ = writeln!(
                    out,
                    "<li class=\"note\">rejected {} ({}): {}</li>",
                    escape(&step.technique),
                    escape(&why),
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
fn write_frame(out: &mut String, k: usize, frame: &Frame<'_>) {
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
    let _ = writeln!(
        out,
        "<p class=\"explanation{}\">{}</p>",
        if frame.bad { " bad" } else { "" },
        escape(&frame.explanation)
    );
    if let Some(step) = frame.step {
        let words = crate::chain_words::step_chain_lines(step, Some(&frame.grid));
        if !words.is_empty() {
            out.push_str("<ul class=\"chain-words\">");
            for line in words {
                let _ = write!(out, "<li>{}</li>", escape(&line));
            }
            out.push_str("</ul>\n");
        }
        write_legend(out, step);
        if let Some(net) = &step.net {
            let mut text = String::new();
            net.write_text(&mut text, 0);
            // line by line: `escape` would show the newlines as `\n`
            let lines: Vec<String> = text.lines().map(escape).collect();
            let _ = writeln!(out, "<pre class=\"net\">{}</pre>", lines.join("\n"));
        }
    }
    out.push_str("</div>\n");
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
        push(role_class(h.role), role_words(h.role));
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

/// The grid as SVG: shaded houses, role discs, values, pencil marks, chains and lines.
fn write_svg(out: &mut String, k: usize, frame: &Frame<'_>) {
    let size = 2.0 * MARGIN + 9.0 * CELL;
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
    for i in 0..9u8 {
        let c = MARGIN + (f32::from(i) + 0.5) * CELL;
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
    let grid = &frame.grid;
    if let Some(step) = frame.step {
        write_step_background(out, step);
    }
    // values and pencil marks
    let mut marks: Vec<(Candidate, &'static str)> = Vec::new();
    if let Some(step) = frame.step {
        for h in &step.highlights {
            for &c in &h.candidates {
                marks.push((c, role_class(h.role)));
            }
        }
        for &c in &step.placements {
            marks.push((c, "placed-c"));
        }
        for &c in &step.eliminations {
            marks.push((c, "eliminated"));
        }
    }
    for cell in Cell::all() {
        let (x, y) = cell_origin(cell);
        let (cx, cy) = (x + CELL / 2.0, y + CELL / 2.0);
        match grid.value(cell) {
            0 => {
                let cands = grid.candidates(cell);
                if cands == 0
                    && let Some(s) = frame.solution
                {
                    let _ = write!(
                        out,
                        "<text class=\"solution\" x=\"{cx}\" y=\"{cy}\">{}</text>",
                        s[cell.index()]
                    );
                }
                for d in digits(cands) {
                    let cand = Candidate::new(cell, d);
                    let (px, py) = candidate_centre(cand);
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
                        "<text class=\"pm{state}\" x=\"{px}\" y=\"{py}\">{d}</text>"
                    );
                }
            }
            v => {
                let class = if grid.is_given(cell) {
                    "given"
                } else {
                    "placed"
                };
                let _ = write!(
                    out,
                    "<text class=\"{class}\" x=\"{cx}\" y=\"{cy}\">{v}</text>"
                );
            }
        }
    }
    out.push('\n');
    for i in 0..=9u8 {
        let p = MARGIN + f32::from(i) * CELL;
        let class = if i % 3 == 0 { "thick" } else { "thin" };
        let end = MARGIN + 9.0 * CELL;
        let _ = write!(
            out,
            "<line class=\"{class}\" x1=\"{MARGIN}\" y1=\"{p}\" x2=\"{end}\" y2=\"{p}\"/>\
             <line class=\"{class}\" x1=\"{p}\" y1=\"{MARGIN}\" x2=\"{p}\" y2=\"{end}\"/>"
        );
    }
    out.push('\n');
    if let Some(step) = frame.step {
        for chain in &step.chains {
            write_chain(out, k, chain);
        }
        if let Some(net) = &step.net {
            write_net(out, k, net);
        }
    }
    out.push_str("</svg>\n");
}

/// Shading under the step: its houses, and the cells of its ALS nodes.
fn write_step_background(out: &mut String, step: &Step) {
    let mut shaded = crate::cellset::CellSet::default();
    for h in &step.houses {
        for cell in h.cells().iter() {
            shaded.insert(cell);
        }
    }
    for cell in shaded.iter() {
        let (x, y) = cell_origin(cell);
        let _ = write!(
            out,
            "<rect class=\"house\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\"/>"
        );
    }
    let mut als = crate::cellset::CellSet::default();
    for chain in &step.chains {
        for node in &chain.nodes {
            for &cell in &node.als {
                als.insert(cell);
            }
        }
    }
    for cell in als.iter() {
        let (x, y) = cell_origin(cell);
        let _ = write!(
            out,
            "<rect class=\"als\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"/>",
            x + 2.0,
            y + 2.0,
            CELL - 4.0,
            CELL - 4.0
        );
    }
    out.push('\n');
}

/// Centre of a chain node: the mean of its candidates' positions.
fn node_centre(digit: u8, cells: &[Cell]) -> Option<(f32, f32)> {
    if cells.is_empty() {
        return None;
    }
    let n = cells.len() as f32;
    let (sx, sy) = cells
        .iter()
        .map(|&c| candidate_centre(Candidate::new(c, digit)))
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    Some((sx / n, sy / n))
}

/// A chain: a ring on each node (green on, red off) and an arrow along each link (solid strong,
/// dashed weak), shortened so it starts and ends at the rings.
fn write_chain(out: &mut String, k: usize, chain: &Chain) {
    out.push_str("<g class=\"chain\">");
    for node in &chain.nodes {
        let state = if node.on { "on" } else { "off" };
        for &cell in &node.cells {
            let (x, y) = candidate_centre(Candidate::new(cell, node.digit));
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
            node_centre(a.digit, &a.cells),
            node_centre(b.digit, &b.cells),
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
const BRANCH_DASH: [(&str, &str); 5] = [
    ("", "solid"),
    ("7 3", "dashed"),
    ("2 3", "dotted"),
    ("9 3 2 3", "dash-dot"),
    ("4 6", "sparse dashes"),
];

/// An arrow from one candidate to another, shortened to leave the rings free and shifted
/// sideways by `shift` (so branches running along the same pair stay apart).
fn write_net_arrow(
    out: &mut String,
    k: usize,
    from: Candidate,
    to: Candidate,
    on: bool,
    shift: f32,
) {
    let ((x1, y1), (x2, y2)) = (candidate_centre(from), candidate_centre(to));
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
        "<line class=\"{state}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" marker-end=\"url(#arrow-{state}-{k})\"/>",
        x1 + ux * cut + px,
        y1 + uy * cut + py,
        x2 - ux * cut + px,
        y2 - uy * cut + py
    );
}

/// The arrows of one branch, from each implication to those resting on it; a branch one
/// level down (the reason an implication is false: assuming it true fails) is drawn inside its
/// own `inner` group, in thinner dotted lines, with the cross where it fails.
fn write_branch_arrows(out: &mut String, k: usize, branch: &NetBranch, shift: f32) {
    for imp in &branch.implications {
        for &p in &imp.parents {
            if let Some(parent) = branch.implications.get(usize::from(p)) {
                write_net_arrow(out, k, parent.candidate, imp.candidate, imp.on, shift);
            }
        }
        if let Reason::Nested(inner) = &imp.reason {
            out.push_str("<g class=\"inner\">");
            write_branch_arrows(out, k, inner, shift);
            write_branch_end(out, inner);
            out.push_str("</g>");
        }
    }
}

/// A cross where a branch ends in a contradiction: over the cell left without candidates, or
/// on the candidate found both true and false.
fn write_branch_end(out: &mut String, branch: &NetBranch) {
    let cross = match branch.end {
        BranchEnd::EmptyCell(c) => {
            let (x, y) = cell_origin(c);
            Some((x + CELL / 2.0, y + CELL / 2.0, CELL / 3.0))
        }
        BranchEnd::Both(c) => {
            let (x, y) = candidate_centre(c);
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
fn write_net(out: &mut String, k: usize, net: &ForcingNet) {
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
        write_branch_arrows(out, k, branch, shift);
        if let Some((a, _)) = branch.assumption() {
            let (x, y) = candidate_centre(a);
            let _ = write!(
                out,
                "<text class=\"branch-no\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                x + DISC + 3.0,
                y - DISC - 1.0,
                b + 1
            );
        }
        write_branch_end(out, branch);
        out.push_str("</g>");
    }
    let mut seen: Vec<(Candidate, bool)> = Vec::new();
    for branch in &net.branches {
        for imp in &branch.implications {
            if seen.contains(&(imp.candidate, imp.on)) {
                continue;
            }
            seen.push((imp.candidate, imp.on));
            let (x, y) = candidate_centre(imp.candidate);
            let state = if imp.on { "on" } else { "off" };
            let _ = write!(
                out,
                "<circle class=\"node {state}\" cx=\"{x}\" cy=\"{y}\" r=\"{}\"/>",
                DISC + 1.5
            );
        }
    }
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

/// The class of the `<svg>` element [`grid_svg`] writes; its styles are scoped to it.
const GRID_SVG_CLASS: &str = "lapiz-grid";

/// One grid drawn as a standalone SVG image, as the page draws a frame: the values and pencil
/// marks and, with `step`, that step on it (roles coloured, chains as arrows, houses shaded).
/// The image carries the drawing's styles, scoped to its own class so that, inline in a larger
/// document (a notebook), they style nothing else.
pub fn grid_svg(grid: &Grid, step: Option<&Step>) -> String {
    let frame = Frame {
        title: step.map_or_else(|| "Grid".to_string(), |s| s.explanation.clone()),
        grid: grid.clone(),
        step,
        explanation: String::new(),
        bad: false,
        solution: None,
    };
    let mut svg = String::new();
    write_svg(&mut svg, 0, &frame);
    let size = 2.0 * MARGIN + 9.0 * CELL;
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
    use crate::engine::{invalid_trace, solve_grid};
    use crate::pipeline::Pipeline;
    use crate::step::ChainNode;

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
        use crate::net::{ForcingKind, Implication, NetBranch, Reason};
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
        // the proof in words below, one implication a line
        assert!(
            page.contains("<pre class=\"net\">assume r1c4=4\nr1c1=5 (last candidate of r1c1)\n")
        );
    }

    #[test]
    fn a_nested_branch_is_drawn_inside_the_branch_that_uses_it() {
        use crate::net::{ForcingKind, Implication};
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
        let trace = invalid_trace(
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

//! The page and hints of other sizes than 9x9: `lapiz solve --format html`, `lapiz hint` (full,
//! nudge, HTML) on 6x6, 12x12 and 16x16 boards, their box shapes and alphabets. (The 9x9 page
//! and hints are tested in `cli_hint.rs` and the `html` module.)
//!
//! The puzzles are our own, made by lapiz's generator: `lapiz generate --size 6 --seed 1`,
//! `--size 6 --box 3x2 --seed 2`, `--size 12 --seed 1`, and `--size 16 --clues 110 --seed 11
//! --count 6`, the fourth (solved with fish, wings, nice loops and ALS-XZ); the 0-9A-F grid is
//! the shared data's.

mod common;

use common::cli::run_lapiz;
use lapiz::Pipeline;
use lapiz::engine::Trace;
use lapiz::model::{Layout, S16, Shape};
use lapiz::text::Puzzle;
use lapiz::{Cell, Grid, House, Step};

/// 6x6 (2x3 boxes).
const SIX: &str = ".5.3.2.....63.....16......2.6.6....3";
/// 6x6 with 3x2 boxes (`--box 3x2`).
const SIX_TALL: &str = ".1..6.5....2.21......1....2.....3..5";
/// 12x12 (3x4 boxes), 1-9A-C.
const TWELVE: &str = "4.6..AC.52..........6..8...A27...C..6......3..8973.1...4.B..9..8....4.3..7..4.......1.9.....B.....867..29.A.....5.9.3.1...A.....28.554..3..6A..C";
/// 16x16 (4x4 boxes), 110 clues, 1-9A-G.
const SIXTEEN: &str = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";

/// `lapiz ARGS`'s stdout, which must succeed.
fn lapiz_ok(args: &[&str]) -> String {
    let (ok, out, err) = run_lapiz(args);
    assert!(ok, "lapiz {args:?} failed: {err}");
    out
}

/// The default pipeline's trace of `line`.
fn trace(line: &str) -> Trace {
    (Puzzle::parse(line).unwrap()).solve(&Pipeline::default_pipeline())
}

/// The first frame's grid of a page.
fn first_svg(page: &str) -> &str {
    let at = page.find("<svg").expect("a grid");
    &page[at..at + page[at..].find("</svg>").expect("its end") + "</svg>".len()]
}

/// Where the thick (box border) lines of a grid are: the `y` of the horizontal ones and the
/// `x` of the vertical ones.
fn thick_lines(svg: &str) -> (Vec<String>, Vec<String>) {
    let attr = |tag: &str, name: &str| {
        let key = format!(" {name}=\"");
        let at = tag.find(&key).unwrap() + key.len();
        tag[at..at + tag[at..].find('"').unwrap()].to_string()
    };
    let (mut across, mut down) = (Vec::new(), Vec::new());
    for tag in svg.split("<line class=\"thick\"").skip(1) {
        let tag = &tag[..tag.find("/>").unwrap()];
        if attr(tag, "y1") == attr(tag, "y2") {
            across.push(attr(tag, "y1"));
        } else {
            down.push(attr(tag, "x1"));
        }
    }
    (across, down)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_six_by_six_page_draws_its_boxes_labels_and_every_step() {
    let page = lapiz_ok(&["solve", SIX, "--format", "html"]);
    let steps = trace(SIX).steps().count();
    assert!(steps > 5);
    assert_eq!(page.matches("<li value=").count(), steps);
    // the start, one frame per step, the end
    assert_eq!(page.matches("<div class=\"frame\"").count(), steps + 2);
    assert!(page.contains("Solved in"));
    let svg = first_svg(&page);
    // 6 cells of 54 units and the labels' margins
    assert!(svg.contains("viewBox=\"0 0 368 368\""), "{svg}");
    assert!(svg.contains(">r6</text>") && svg.contains(">c6</text>"));
    assert!(!svg.contains(">r7</text>"));
    // 2x3 boxes: a band every two rows, a stack every three columns
    let (across, down) = thick_lines(svg);
    assert_eq!(across, strings(&["22", "130", "238", "346"]));
    assert_eq!(down, strings(&["22", "184", "346"]));
    // no key needed (the digits are the numbers), no styles for large boards
    assert!(page.contains("<p class=\"key\">6x6 (2x3 boxes)</p>"));
    assert!(!page.contains("flex-wrap:nowrap"));
}

#[test]
fn tall_boxes_are_drawn_as_asked() {
    let page = lapiz_ok(&["solve", "--box", "3x2", SIX_TALL, "--format", "html"]);
    let (across, down) = thick_lines(first_svg(&page));
    assert_eq!(across, strings(&["22", "184", "346"]));
    assert_eq!(down, strings(&["22", "130", "238", "346"]));
    assert!(page.contains("6x6 (3x2 boxes)"));
}

#[test]
fn a_twelve_by_twelve_page_has_larger_cells_and_letters() {
    let page = lapiz_ok(&["solve", TWELVE, "--format", "html"]);
    let svg = first_svg(&page);
    // 12 cells of 72 units: four pencil marks of 18 units across
    assert!(svg.contains("viewBox=\"0 0 908 908\""));
    let (across, down) = thick_lines(svg);
    assert_eq!(across, strings(&["22", "238", "454", "670", "886"]));
    assert_eq!(down, strings(&["22", "310", "598", "886"]));
    // r1c1 is a given 4, r1c7 a given C (12), each in the middle of its cell
    assert!(svg.contains("<text class=\"given\" x=\"58\" y=\"58\">4</text>"));
    assert!(svg.contains("<text class=\"given\" x=\"490\" y=\"58\">C</text>"));
    assert!(page.contains("12x12 (3x4 boxes), symbols 1-9A"));
    // the values scaled to the cell, the view wider than 9x9's
    assert!(page.contains(".given,.placed,.solution{font-size:43px}"));
    assert!(page.contains("#view{flex:1 1 726px;max-width:726px}"));
}

#[test]
fn a_sixteen_by_sixteen_page_and_its_chains() {
    let page = lapiz_ok(&["solve", SIXTEEN, "--format", "html"]);
    let t = trace(SIXTEEN);
    assert_eq!(
        page.matches("<div class=\"frame\"").count(),
        t.steps().count() + 2
    );
    let svg = first_svg(&page);
    assert!(svg.contains("viewBox=\"0 0 1196 1196\""));
    assert!(svg.contains(">r16</text>") && svg.contains(">c16</text>"));
    let (across, down) = thick_lines(svg);
    assert_eq!(across.len(), 5);
    assert_eq!(down.len(), 5);
    // every value written in 1-9A-G, none as a number above 9
    assert!(svg.contains(">G</text>"));
    assert!(!svg.contains(">16</text>") && !svg.contains(">10</text>"));
    // r1c1 is empty, candidates 7, A (10) and F (15): in a 4x4 sub-grid of 18 units, row by
    // row from 1 top left, 7 is in the second row, A the third, F the last
    for (x, y, d) in [(67, 49, "7"), (49, 67, "A"), (67, 85, "F")] {
        let mark = format!("<text class=\"pm\" x=\"{x}\" y=\"{y}\">{d}</text>");
        assert!(svg.contains(&mark), "no {mark}");
    }
    // the steps write digits in the grid's symbols: 14 is E
    assert!(page.contains("Hidden Single: E in b1 =&gt; r4c2=E"));
    // chains and almost locked sets are drawn on the larger grid too
    assert!(page.contains("<g class=\"chain\">"));
    assert!(page.contains("class=\"hl eliminated\""));
    // and spelled out in words, in the board's houses and symbols
    assert!(page.contains("<ul class=\"chain-words\">"));
    let words: Vec<&str> = page
        .split("<ul class=\"chain-words\">")
        .skip(1)
        .map(|w| &w[..w.find("</ul>").expect("the list ends")])
        .collect();
    // r5c5 and r7c5,r7c6 share the sixth 4x4 box; 14 is E
    let said = |s: &str| words.iter().any(|w| w.contains(s));
    assert!(said(
        "if r5c5 is E, E is not in r7c5,r7c6 (they see r5c5 in b6)"
    ));
    assert!(said("so r7c9 is E (the only other place for E in r7)"));
}

#[test]
fn a_zero_first_grid_writes_sixteen_as_zero() {
    let Some(grid) = common::read_data("puzzles/16x16/grid-a-0f.txt") else {
        return;
    };
    let page = lapiz_ok(&["hint", &grid, "--format", "html"]);
    assert!(page.contains("16x16 (4x4 boxes), symbols 0-9A"));
    assert!(first_svg(&page).contains("class=\"given\"") && page.contains(">0</text>"));
}

#[test]
fn a_six_by_six_hint_page_snapshot() {
    let page = lapiz_ok(&["hint", SIX, "--format", "html"]);
    assert_eq!(page.matches("<div class=\"frame\"").count(), 1);
    assert!(page.contains("data-step=\"1\""));
    insta::assert_snapshot!("six_by_six_hint_svg", first_svg(&page));
}

#[test]
fn hints_of_other_sizes_are_the_trace_s_first_step() {
    for line in [SIX, TWELVE, SIXTEEN] {
        let first = trace(line).steps().next().unwrap().explanation.clone();
        let out = lapiz_ok(&["hint", line]);
        assert_eq!(out.lines().next(), Some(first.as_str()), "{line}");
        let nudge = lapiz_ok(&["hint", line, "--level", "nudge"]);
        assert!(nudge.starts_with("Look for "), "{nudge}");
        assert!(!nudge.contains("=>") && !nudge.contains("<>"), "{nudge}");
    }
    let out = lapiz_ok(&["hint", "--box", "3x2", SIX_TALL]);
    let puzzle = Puzzle::parse_with(SIX_TALL, None, Some((3, 2))).unwrap();
    let t = puzzle.solve(&Pipeline::default_pipeline());
    assert_eq!(
        out.lines().next(),
        Some(t.steps().next().unwrap().explanation.as_str())
    );
}

#[test]
fn a_hint_takes_a_sixteen_by_sixteen_grid_with_its_pencil_marks() {
    let t = trace(SIXTEEN);
    let steps: Vec<&Step> = t.steps().collect();
    // the grid as a player has it after the first 30 steps, pencil marks included
    let puzzle = Puzzle::parse(SIXTEEN).unwrap();
    let geo = S16::geometry(puzzle.layout());
    let mut grid = Grid::from_value_slice(geo, puzzle.values());
    for s in &steps[..30] {
        s.apply(&mut grid);
    }
    let symbol = |d: u8| puzzle.alphabet().symbol(d, 16);
    let mut marks = String::new();
    for i in 0..S16::CELLS {
        let cell = S16::cell(i);
        let group: String = match grid.value(cell) {
            0 => {
                let cands: String = (1..=16u8)
                    .filter(|&d| grid.has_candidate(cell, d))
                    .map(symbol)
                    .collect();
                // one candidate left: `(X)`, not a value
                if cands.len() == 1 {
                    format!("({cands})")
                } else {
                    cands
                }
            }
            v => symbol(v),
        };
        marks.push_str(&group);
        marks.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    let out = lapiz_ok(&["hint", &marks]);
    assert_eq!(out.lines().next(), Some(steps[30].explanation.as_str()));
    let page = lapiz_ok(&["hint", &marks, "--format", "html", "--level", "nudge"]);
    assert!(page.contains("Look for "));
    // `lapiz candidates` prints a grid the hint reads back
    let marks = lapiz_ok(&["candidates", SIXTEEN]);
    let out = lapiz_ok(&["hint", &marks]);
    assert_eq!(out.lines().next(), Some(steps[0].explanation.as_str()));
}

#[test]
fn a_solved_grid_and_bad_input_say_so() {
    let solved = Puzzle::parse(SIX).unwrap().solution().unwrap().to_line();
    let out = lapiz_ok(&["hint", &solved]);
    assert_eq!(out.trim(), "The grid is already solved.");
    let bad = format!("{}H{}", &SIXTEEN[..17], &SIXTEEN[18..]);
    let (ok, _, err) = run_lapiz(&["hint", &bad]);
    assert!(!ok);
    assert!(err.contains("`H` at line 1, column 18"), "{err}");
    // two solutions: an invalid puzzle, as on 9x9
    let (ok, _, err) = run_lapiz(&["hint", &format!("......{}", &SIX[6..])]);
    assert!(!ok && err.contains("invalid puzzle"), "{err}");
}

#[test]
fn a_nudge_names_the_boxes_of_its_layout() {
    // a step with no house of its own: the nudge names its cell's box, r3c1 is in b3 on 6x6
    // (2x3 boxes) and in b1 on 9x9
    let step = Step::new("naked-single", 2.3)
        .place(Cell::at(2, 0), 5)
        .explain("Naked Single: r3c1=5");
    let pipeline = Pipeline::default_pipeline();
    let six = pipeline.nudge(&step, Layout::new(6).unwrap());
    assert_eq!(six.houses, vec![House::boxed(2)]);
    assert_eq!(six.explanation, "Look for a Naked Single on digit 5 in b3.");
    assert_eq!(
        pipeline.nudge(&step, Layout::NINE).houses,
        vec![House::boxed(0)]
    );
}

//! `lapiz hint` and `lapiz solve --format html` / `--html FILE` from the command line.

mod common;

use common::cli::text;

use common::cli::run_lapiz_stdin as lapiz;
use lapiz::Puzzle;
use lapiz::engine::Outcome;
use lapiz::text::{format_pencil_marks, parse_puzzle};
use lapiz::{Pipeline, solve_puzzle};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Solved by the default pipeline with discontinuous nice loops.
const CHAINS: &str =
    "....9.7..8....3.6.7.3....2...6.471............2.1....5.9.6........5..68...4....5.";
/// Stuck without the forcing chains.
const STUCK: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

#[test]
fn hint_gives_the_next_step_as_the_trace_does() {
    let trace = solve_puzzle(EASY, &Pipeline::default_pipeline());
    let out = lapiz(&["hint", EASY], None);
    assert!(out.status.success());
    let first = text(&out.stdout).lines().next().unwrap().to_string();
    assert_eq!(first, trace.steps().next().unwrap().explanation);
}

#[test]
fn hint_takes_a_players_grid_with_pencil_marks() {
    let grid = parse_puzzle(CHAINS).unwrap();
    let trace = Puzzle::from_nine(&grid).solve(&Pipeline::default_pipeline());
    let steps: Vec<_> = trace.steps().collect();
    // the grid as a player has it after the first ten steps (pencil marks included)
    let mut g = grid.clone();
    for s in &steps[..10] {
        s.apply(&mut g);
    }
    let marks = format_pencil_marks(&g);
    let out = lapiz(&["hint", &marks], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = text(&out.stdout).lines().next().unwrap().to_string();
    assert_eq!(first, steps[10].explanation);
}

#[test]
fn a_nudge_names_the_technique_and_where_but_gives_nothing_away() {
    let grid = parse_puzzle(CHAINS).unwrap();
    let trace = Puzzle::from_nine(&grid).solve(&Pipeline::default_pipeline());
    let steps: Vec<_> = trace.steps().collect();
    let mut g = grid.clone();
    for (k, step) in steps.iter().enumerate().take(14) {
        let marks = format_pencil_marks(&g);
        let out = lapiz(&["hint", &marks, "--level", "nudge"], None);
        assert!(out.status.success());
        let nudge = text(&out.stdout);
        assert!(nudge.starts_with("Look for "), "step {}: {nudge}", k + 1);
        let name = step.explanation.split(':').next().unwrap();
        // the name is the technique's, e.g. `Hidden Single`, not the step's details
        assert!(
            nudge.contains(" in ") || nudge.contains(" on digit "),
            "{nudge}"
        );
        assert!(!nudge.contains("=>") && !nudge.contains("<>") && !nudge.contains('='));
        for c in step.placements.iter().chain(&step.eliminations) {
            assert!(
                !nudge.contains(&c.cell.to_string()),
                "step {} ({name}): the nudge names {}: {nudge}",
                k + 1,
                c.cell
            );
        }
        step.apply(&mut g);
    }
}

#[test]
fn hint_as_html_shows_the_step_on_the_grid() {
    let out = lapiz(&["hint", EASY, "--format", "html"], None);
    assert!(out.status.success());
    let page = text(&out.stdout);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches("data-step=\"").count(), 1);
    assert_eq!(page.matches("<svg").count(), 1);
    let first = solve_puzzle(EASY, &Pipeline::default_pipeline());
    let first = &first.steps().next().unwrap().explanation;
    assert!(page.contains(first.replace('>', "&gt;").as_str()));
    // a nudge page shows the houses and the nudge, not the step
    let out = lapiz(
        &["hint", EASY, "--format", "html", "--level", "nudge"],
        None,
    );
    let page = text(&out.stdout);
    assert!(page.contains("Look for a Hidden Single"));
    assert!(!page.contains("=&gt;"));
    assert!(!page.contains("class=\"hl "));
}

#[test]
fn hint_where_the_pipeline_is_stuck_says_so() {
    let pipeline = common::no_forcing_pipeline_file();
    let trace = Puzzle::from_nine(&parse_puzzle(STUCK).unwrap())
        .solve(&Pipeline::from_file(std::path::Path::new(pipeline)).unwrap());
    let Outcome::Stuck { pencil_marks } = &trace.outcome else {
        panic!("not stuck")
    };
    let marks = pencil_marks.join("\n");
    let out = lapiz(&["hint", &marks, "--pipeline", pipeline], None);
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("No technique of the pipeline"));
}

#[test]
fn hint_on_bad_input_is_a_clear_error() {
    let out = lapiz(&["hint", "12"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read the puzzle"));
    let two = EASY.replacen('.', "1", 1);
    let out = lapiz(&["hint", &two], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("invalid puzzle"));
}

#[test]
fn solve_writes_an_html_page() {
    let out = lapiz(&["solve", EASY, "--format", "html"], None);
    assert!(out.status.success());
    let page = text(&out.stdout);
    let n = solve_puzzle(EASY, &Pipeline::default_pipeline())
        .steps()
        .count();
    for k in 1..=n {
        assert!(page.contains(&format!("data-step=\"{k}\"")));
    }
    let dir = common::temp_dir("html");
    let path = dir.path().join("page.html");
    let out = lapiz(&["solve", EASY, "--html", path.to_str().unwrap()], None);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("Solved in"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), page);
}

#[test]
fn an_invalid_puzzle_gives_a_page_saying_what_is_wrong() {
    let out = lapiz(&["solve", "12<b>", "--format", "html"], None);
    assert_eq!(out.status.code(), Some(1));
    let page = text(&out.stdout);
    assert!(page.contains("Invalid puzzle"));
    assert!(page.contains("cannot read the puzzle"));
    assert!(page.contains("12&lt;b&gt;") && !page.contains("12<b>"));
    let out = lapiz(&["solve", "--file", "-", "--format", "html"], Some(EASY));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("HTML page shows one puzzle"));
}

//! Sue de Coq and the templates: every HoDoKu regression-library case of their codes passes,
//! and on real puzzles every step they find is sound.

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use lapiz::Pipeline;
use lapiz::brute;
use lapiz::technique::{Technique, find_all, find_first};
use lapiz::text::parse_line;
use lapiz::tools::run_library;

fn family() -> Vec<Box<dyn Technique>> {
    let mut v = lapiz::technique::family("sue-de-coq").expect("a family");
    v.extend(lapiz::technique::family("templates").expect("a family"));
    v
}

#[test]
fn every_sdc_and_template_case_passes() {
    let Some(text) = common::reglib::library() else {
        return;
    };
    let techniques = family();
    let report = run_library(&text, &techniques);
    let messages = common::reglib::failures(&report);
    assert!(messages.is_empty(), "{}", messages.join("\n"));
    for code in ["1101", "1201", "1202"] {
        let t = report.per_code.get(code).copied().unwrap_or_default();
        eprintln!("{code}: {} passed, {} failed", t.passed, t.failed);
        assert!(t.passed >= 8, "{code}: only {} cases passed", t.passed);
        assert_eq!(t.skipped, 0, "{code} cases skipped");
    }
}

/// Solves the first puzzles of top1465 with the default pipeline, one step at a time, and at
/// every position checks every step each technique of the family finds against the solution
/// (printing, per technique, how many steps it found and the time its searches took).
#[test]
fn sound_on_top1465() {
    let Some(puzzles) = common::puzzles("top1465.txt", 300) else {
        return;
    };
    let pipeline = Pipeline::default_pipeline();
    let fam = family();
    let mut found: BTreeMap<String, (usize, Duration)> = BTreeMap::new();
    let (mut applied, mut positions) = (0, 0);
    for (i, p) in puzzles.iter().enumerate() {
        let mut grid = parse_line(p).expect("puzzle");
        let solution = brute::solve(grid.values()).expect("solvable");
        for _ in 0..500 {
            positions += 1;
            for t in &fam {
                let start = Instant::now();
                let steps = find_all(t.as_ref(), &grid).expect("search");
                let entry = found.entry(t.id().to_string()).or_default();
                entry.1 += start.elapsed();
                for step in steps {
                    assert!(
                        step.contradiction(&solution).is_none(),
                        "puzzle {}: unsound {} step on {}: {}",
                        i + 1,
                        t.id(),
                        lapiz::text::format_grid_library_line(&grid),
                        step.explanation
                    );
                    assert!(!step.is_empty(), "empty step: {}", step.explanation);
                    entry.0 += 1;
                }
            }
            let step = pipeline
                .techniques()
                .iter()
                .find_map(|t| find_first(t.as_ref(), &grid).expect("search"));
            let Some(step) = step else { break };
            assert!(
                step.contradiction(&solution).is_none(),
                "{}",
                step.explanation
            );
            if step.technique == "sue-de-coq" {
                applied += 1;
            }
            step.apply(&mut grid);
            if grid.is_solved() {
                break;
            }
        }
    }
    eprintln!(
        "{positions} positions; steps found and search time: {found:#?}; sue de coq applied {applied} times"
    );
    for t in &fam {
        let n = found.get(t.id()).map_or(0, |e| e.0);
        assert!(n > 0, "{} found nothing", t.id());
    }
    assert!(
        applied > 0,
        "sue de coq never applied in the default pipeline"
    );
}

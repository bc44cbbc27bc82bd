//! HoDoKu regression-library cases of the single-digit patterns, colourings and remote pairs
//! all pass, and the techniques are sound on a real collection.

mod common;

use std::collections::BTreeMap;

use lapiz::Pipeline;
use lapiz::solve_puzzle;
use lapiz::technique::Technique;
use lapiz::tools::run_library;

fn family() -> Vec<Box<dyn Technique>> {
    let mut v = lapiz::technique::family("single-digit").expect("a family");
    v.extend(lapiz::technique::family("coloring").expect("a family"));
    v.extend(lapiz::technique::family("chains").expect("a family"));
    v
}

#[test]
fn every_family_case_passes() {
    let Some(text) = common::reglib::library() else {
        return;
    };
    let techniques = family();
    let report = run_library(&text, &techniques);
    let mut messages = common::reglib::failures(&report);
    messages.extend(common::reglib::gaps_unchanged(&report));
    common::reglib::print_codes(&report, common::reglib::ran);
    assert!(messages.is_empty(), "{}", messages.join("\n"));
    for t in &techniques {
        for code in t.library_codes() {
            let passed = common::reglib::of_code(&report, &code).passed;
            assert!(passed > 0, "no case of {code} ({}) passed", t.id());
        }
    }
}

fn basics_then(extra: Vec<Box<dyn Technique>>) -> Pipeline {
    common::reglib::basics_then_pipeline("family", extra)
}

/// Solves `puzzles` with `pipeline`, asserting no step is rejected; counts the steps of `ids`.
fn fired(puzzles: &[String], pipeline: &Pipeline, ids: &[String]) -> BTreeMap<String, usize> {
    let mut fired = BTreeMap::<String, usize>::new();
    for p in puzzles {
        let trace = solve_puzzle(p, pipeline);
        assert_eq!(trace.summary.rejected, 0, "rejected step in {p}");
        for s in trace.steps() {
            if ids.contains(&s.technique) {
                *fired.entry(s.technique.clone()).or_default() += 1;
            }
        }
    }
    fired
}

#[test]
fn family_is_sound_on_top1465() {
    let Some(puzzles) = common::puzzles("top1465.txt", 300) else {
        return;
    };
    let ids: Vec<String> = family().iter().map(|t| t.id().to_string()).collect();
    // all together, easiest first
    let together = fired(&puzzles, &basics_then(family()), &ids);
    eprintln!("together: {together:?}");
    assert!(together.values().sum::<usize>() >= 10, "{together:?}");
    // each alone after the basics, so every one of them gets to fire
    for t in family() {
        let id = t.id().to_string();
        let alone = fired(&puzzles, &basics_then(vec![t]), std::slice::from_ref(&id));
        let n = alone.get(&id).copied().unwrap_or(0);
        eprintln!("{id} alone: {n}");
        assert!(n > 0, "{id} never fired");
    }
}

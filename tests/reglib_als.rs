//! HoDoKu regression-library cases of the ALS family (0901–0904) all pass, and the ALS
//! techniques are sound on real positions: along the default pipeline's solves of top1465 and
//! where the pipeline without them gets stuck.

mod common;

use std::time::{Duration, Instant};

use lapiz::Puzzle;
use lapiz::engine::Outcome;
use lapiz::engine::check_puzzle;
use lapiz::technique::{Technique, builtin, family, find_all};
use lapiz::text::parse_puzzle;
use lapiz::tools::run_library;
use lapiz::{Grid, Pipeline};

#[test]
fn every_als_case_passes() {
    let Some(text) = common::reglib::library() else {
        return;
    };
    let cases: String = text
        .lines()
        .filter(|l| l.trim_start().starts_with(":09"))
        .map(|l| format!("{l}\n"))
        .collect();
    let techniques = family("als").expect("a family");
    let report = run_library(&cases, &techniques);
    let messages = common::reglib::failures(&report);
    common::reglib::print_codes(&report, |_, _| true);
    assert!(messages.is_empty(), "{}", messages.join("\n"));
    let total = report.total();
    assert_eq!(total.skipped, 0);
    assert_eq!(total.passed, cases.lines().count());
    for code in ["0901", "0902", "0903", "0904"] {
        let passed = common::reglib::of_code(&report, code).passed;
        assert!(passed > 0, "no case of {code} passed");
    }
}

/// Every step of every ALS technique on `grid` keeps the solution; adds the time taken per
/// technique to `times` and returns the steps found.
fn check(grid: &Grid, solution: &[u8; 81], times: &mut [Duration; 4]) -> (usize, usize) {
    let (mut n, mut stem_z) = (0, 0);
    for (i, t) in family("als").expect("a family").iter().enumerate() {
        let start = Instant::now();
        let steps = find_all(t.as_ref(), grid).expect("search runs");
        times[i] += start.elapsed();
        for s in &steps {
            assert!(
                s.eliminations
                    .iter()
                    .all(|e| grid.has_candidate(e.cell, e.digit))
            );
            assert!(!s.eliminations.is_empty());
            assert_eq!(
                s.contradiction(solution),
                None,
                "unsound {}: {} on {}",
                t.id(),
                s.explanation,
                grid.to_line()
            );
        }
        n += steps.len();
        stem_z += steps
            .iter()
            .filter(|s| s.explanation.contains("in the stem"))
            .count();
    }
    (n, stem_z)
}

/// The default pipeline without the ALS techniques and without the forcing chains after them
/// (which finish every puzzle): it gets stuck where the ALS techniques would be needed.
fn before_als() -> Pipeline {
    let ids: Vec<String> = family("als")
        .expect("a family")
        .iter()
        .map(|t| t.id().to_string())
        .collect();
    let techniques: Vec<Box<dyn Technique>> = common::pipeline_without_forcing()
        .ids()
        .iter()
        .filter(|id| !ids.contains(id))
        .map(|id| builtin(id).expect("built-in"))
        .collect();
    Pipeline::from_techniques("before-als", techniques).expect("unique ids")
}

#[test]
fn als_family_is_sound_on_top1465() {
    let Some(puzzles) = common::puzzles("top1465.txt", 200) else {
        return;
    };
    let full = Pipeline::default_pipeline();
    let before = before_als();
    let als_ids: Vec<String> = family("als")
        .expect("a family")
        .iter()
        .map(|t| t.id().to_string())
        .collect();
    let mut stuck_times = [Duration::ZERO; 4];
    let mut along_times = [Duration::ZERO; 4];
    let (mut stuck, mut positions, mut found, mut fired, mut stem_z) = (0, 0, 0, 0, 0);
    let mut tally = |(n, z): (usize, usize)| {
        found += n;
        stem_z += z;
    };
    for p in &puzzles {
        let grid = parse_puzzle(p).expect("puzzle");
        let solution = check_puzzle(&grid).expect("valid puzzle");
        // where the pipeline without ALS (and without the forcing chains) gets stuck
        let trace = Puzzle::from_nine(&grid).solve(&before);
        if matches!(trace.outcome, Outcome::Stuck { .. }) {
            let mut g = grid.clone();
            for s in trace.steps() {
                s.apply(&mut g);
            }
            stuck += 1;
            tally(check(&g, &solution, &mut stuck_times));
        }
        // the full pipeline: no step rejected, and a sample of positions along the way
        let trace = Puzzle::from_nine(&grid).solve(&full);
        assert_eq!(trace.summary.rejected, 0, "rejected step in {p}");
        let mut g = grid.clone();
        for s in trace.steps() {
            if als_ids.contains(&s.technique) {
                fired += 1;
                if fired % 8 == 0 {
                    positions += 1;
                    tally(check(&g, &solution, &mut along_times));
                }
            }
            s.apply(&mut g);
        }
    }
    let ms = |d: &[Duration; 4], n: usize| -> Vec<String> {
        d.iter()
            .zip(family("als").expect("a family"))
            .map(|(d, t)| {
                format!(
                    "{} {:.2} ms",
                    t.id(),
                    d.as_secs_f64() * 1000.0 / n.max(1) as f64
                )
            })
            .collect()
    };
    eprintln!(
        "{stuck} stuck positions, mean time per position: {:?}",
        ms(&stuck_times, stuck)
    );
    eprintln!(
        "{positions} positions along the solves, mean: {:?}",
        ms(&along_times, positions)
    );
    eprintln!(
        "ALS steps in the solves: {fired}; steps checked: {found}, death blossoms with z in the stem: {stem_z}"
    );
    assert!(stuck > 0 && fired > 0 && found > 0 && stem_z > 0);
}

/// The roles of every step `id` finds on a library line.
fn roles(id: &str, line: &str) -> Vec<Vec<lapiz::step::Role>> {
    let case = lapiz::text::parse_library_line(line).unwrap();
    let steps = find_all(builtin(id).unwrap().as_ref(), &case.grid).unwrap();
    assert!(!steps.is_empty());
    steps
        .iter()
        .map(|s| s.highlights.iter().map(|h| h.role).collect())
        .collect()
}

#[test]
fn sets_are_drawn_apart_with_their_commons_and_z() {
    use lapiz::step::Role;
    let xz = ":0901-1:1:...2..6..67...8....853+6.......+4.6...5..19...2+1.4...79+6.....426....7..8.3.1.+6.29..:719 427 345 545 845 365 579:128::";
    for r in roles("als-xz", xz) {
        assert_eq!(r[..2], [Role::ColorA, Role::ColorB], "{r:?}");
        // the commons and z drawn over the sets
        assert!(
            r[2..].iter().all(|&x| x == Role::Link || x == Role::Pincer),
            "{r:?}"
        );
        assert!(
            r.contains(&Role::Link) && r.contains(&Role::Pincer),
            "{r:?}"
        );
    }
    let blossom = ":0904-1:9:8+7+14..6..5+42...7..+93+6+8+57+42+1.28.7.+3.....3.6+2....+3+21.54..1.7..+93.+3.9...8+72.+87..3+1.4:915 919 924 929 641 946 948 958 959 669 475 675 476 584 694:966::";
    for r in roles("death-blossom", blossom) {
        assert!(
            r.contains(&Role::ColorA) && r.contains(&Role::ColorB),
            "{r:?}"
        );
        assert!(
            r.contains(&Role::Pivot) && r.contains(&Role::Pincer),
            "{r:?}"
        );
    }
}

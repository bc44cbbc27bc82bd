//! The `se` pipeline against Sudoku Explainer 1.2.1.3's own ratings (`ratings/se-*.tsv` in the
//! shared data): every puzzle rated, the share of exact ERs (and, where the file has them, EPs
//! and EDs) and the rank correlation may not fall below what they are today (see docs/rating.md
//! for the figures and what still differs).
//!
//! CI rates a sample of the hardest file (every 100th puzzle); `LAPIZ_SE_FULL=1 cargo test
//! --test se_rating` rates every puzzle of every file (the hardest file alone takes over an hour
//! on two cores).

mod common;

use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::engine::rate;
use lapiz::text::parse_line;
use rayon::prelude::*;

/// `step`, or 1 (every puzzle) when `LAPIZ_SE_FULL` is set.
fn sample_step(step: usize) -> usize {
    if std::env::var_os("LAPIZ_SE_FULL").is_some() {
        1
    } else {
        step
    }
}

/// The puzzles and SE's figures of a ratings file (`puzzle<TAB>ER[<TAB>EP<TAB>ED]`, `#`
/// comments), every `step`-th row from the first.
fn se_ratings(file: &str, step: usize) -> Option<Vec<(String, Vec<f32>)>> {
    let text = common::read_data(&format!("ratings/{file}"))?;
    let rows = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(step)
        .map(|l| {
            let mut cols = l.split('\t');
            let p = cols.next().expect("a puzzle").to_string();
            let figures = cols
                .map(|c| c.trim().parse::<f32>().expect("a number"))
                .collect();
            (p, figures)
        })
        .collect();
    Some(rows)
}

/// Ranks of `v` (ties share the mean rank).
fn ranks(v: &[f32]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            r[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation of two series.
fn spearman(a: &[f32], b: &[f32]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = ra.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = rb.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

/// Rates every `step`-th puzzle of `file` with the `se` pipeline; checks every one is rated,
/// and that the exact shares of ER (and of EP and ED where the file has them) and Spearman's
/// rho of the ERs are at least the floors.
fn agreement(file: &str, step: usize, exact_floors: &[f64], rho_floor: f64) {
    let step = sample_step(step);
    let Some(rows) = se_ratings(file, step) else {
        return;
    };
    let pipeline = Pipeline::se_pipeline();
    let ours: Vec<[f32; 3]> = rows
        .par_iter()
        .map(|(p, _)| {
            let grid = parse_line(p).unwrap_or_else(|e| panic!("{file}: {p}: {e}"));
            let trace = Puzzle::from_nine(&grid).solve(&pipeline);
            assert_eq!(trace.summary.rejected, 0, "{file}: {p}: a rejected step");
            let r = rate(&trace, &pipeline).unwrap_or_else(|e| panic!("{file}: {p}: {e:?}"));
            assert!(r.is_solved() && !r.is_guessed(), "{file}: {p}: not rated");
            [
                r.hardest.expect("a step"),
                r.pearl.unwrap_or(0.0),
                r.diamond.unwrap_or(0.0),
            ]
        })
        .collect();
    let names = ["ER", "EP", "ED"];
    for (k, &floor) in exact_floors.iter().enumerate() {
        let exact = ours
            .iter()
            .zip(&rows)
            .filter(|(a, (_, se))| (a[k] - se[k]).abs() < 0.05)
            .count();
        let share = exact as f64 / rows.len() as f64;
        eprintln!(
            "{file} (every {step}): {} exact on {exact}/{} ({:.1}%)",
            names[k],
            rows.len(),
            100.0 * share
        );
        assert!(
            share >= floor,
            "{file}: exact {} on {:.1}% of the puzzles, below the floor {:.1}%",
            names[k],
            100.0 * share,
            100.0 * floor
        );
    }
    let er: Vec<f32> = ours.iter().map(|a| a[0]).collect();
    let se: Vec<f32> = rows.iter().map(|(_, f)| f[0]).collect();
    let rho = spearman(&er, &se);
    eprintln!("{file} (every {step}): Spearman {rho:.4}");
    assert!(
        rho >= rho_floor,
        "{file}: Spearman {rho:.4} below the floor {rho_floor}"
    );
}

#[test]
fn se_agreement_on_unbiased_1000() {
    agreement("se-unbiased-1000.tsv", 1, &[0.99], 0.998);
}

#[test]
fn se_agreement_on_top1465() {
    agreement("se-top1465.tsv", 1, &[0.995], 0.999);
}

/// A sample of the hardest puzzles (every 100th of 23,411, SE 10.6 and above: 235 puzzles,
/// about a minute on two cores); docs/rating.md has the figures for a sample of 5,000.
#[test]
fn se_agreement_on_the_hardest() {
    agreement(
        "se-eleven-hardest-dev.tsv",
        100,
        &[0.985, 0.995, 0.995],
        0.998,
    );
}

#[test]
fn spearman_of_a_monotone_series_is_one() {
    let a = [1.0, 2.0, 2.0, 5.0];
    let b = [0.5, 0.7, 0.7, 9.0];
    assert!((spearman(&a, &b) - 1.0).abs() < 1e-9);
    let c = [9.0, 0.7, 0.7, 0.5];
    assert!((spearman(&a, &c) + 1.0).abs() < 1e-9);
}

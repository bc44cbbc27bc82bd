//! Generated puzzles of sizes other than 9x9 to a rating target: clues put back where the
//! solve needs a step harder than the ceiling (`Puzzle::generate` with a target, `lapiz generate
//! --size N --rating` / `--difficulty`).

mod common;

use common::cli::run_lapiz;
use lapiz::Pipeline;
use lapiz::engine::{Level, rate};
use lapiz::model::{Alphabet, Layout};
use lapiz::puzzle::generate::{Clues, GenerateError, GenerateOptions, Symmetry};
use lapiz::text::Puzzle;

fn options(rating: (f32, f32)) -> GenerateOptions {
    GenerateOptions {
        rating: Some(rating),
        attempts: Some(20),
        ..GenerateOptions::default()
    }
}

/// Every size's puzzles meet the ceiling, have one solution and their solution's values, and
/// carry the rating `lapiz rate` gives them.
#[test]
fn a_rating_ceiling_is_met_on_every_size() {
    let pipeline = Pipeline::default_pipeline();
    for (n, ceiling) in [
        (4, 2.3),
        (6, 2.3),
        (8, 3.4),
        (12, 3.4),
        (16, 2.3),
        (16, 4.2),
    ] {
        let layout = Layout::new(n).unwrap();
        for index in 0..3 {
            let made = Puzzle::generate(
                layout,
                Alphabet::Standard,
                &options((0.0, ceiling)),
                &pipeline,
                11,
                index,
            )
            .unwrap();
            let at = format!("{n}x{n} #{index}: {}", made.puzzle);
            let rating = made.rating.clone().expect("a rated puzzle");
            assert!(rating.is_solved(), "{at}");
            assert!(rating.hardest.unwrap() <= ceiling + 1e-4, "{at}");
            assert_eq!(made.puzzle.count_solutions(2), 1, "{at}");
            assert_eq!(made.puzzle.solution().unwrap(), made.solution, "{at}");
            let trace = made.puzzle.solve(&pipeline);
            assert_eq!(trace.summary.rejected, 0, "{at}");
            assert_eq!(rate(&trace, &pipeline).unwrap(), rating, "{at}");
        }
    }
}

/// A minimal puzzle that is already within the ceiling gets nothing back: the same puzzle as
/// without a target. One that is not gets clues back, and stays unique.
#[test]
fn clues_come_back_only_where_the_ceiling_needs_them() {
    let pipeline = Pipeline::default_pipeline();
    let layout = Layout::new(16).unwrap();
    let mut put_back = 0;
    for index in 0..4 {
        let minimal = Puzzle::generate(
            layout,
            Alphabet::Standard,
            &GenerateOptions::default(),
            &pipeline,
            5,
            index,
        )
        .unwrap()
        .puzzle;
        let lenient = Puzzle::generate(
            layout,
            Alphabet::Standard,
            &options((0.0, 20.0)),
            &pipeline,
            5,
            index,
        )
        .unwrap();
        assert_eq!(lenient.puzzle, minimal, "#{index}: nothing to put back");
        assert!(lenient.puzzle.is_minimal(Symmetry::None));
        let easy = Puzzle::generate(
            layout,
            Alphabet::Standard,
            &options((0.0, 2.3)),
            &pipeline,
            5,
            index,
        )
        .unwrap();
        assert_eq!(
            easy.attempts, 1,
            "#{index}: a ceiling is met on the first board"
        );
        // the minimal puzzle's clues are all kept; any more come from its solution
        for (i, (&m, &e)) in minimal
            .values()
            .iter()
            .zip(easy.puzzle.values())
            .enumerate()
        {
            assert!(m == 0 || m == e, "#{index}: clue {i} changed");
            assert!(
                e == 0 || e == easy.solution.values()[i],
                "#{index}: clue {i} wrong"
            );
        }
        let minimal_rating = rate(&minimal.solve(&pipeline), &pipeline).unwrap();
        if minimal_rating.hardest.is_some_and(|h| h > 2.3) {
            assert!(easy.puzzle.clues() > minimal.clues(), "#{index}");
            put_back += 1;
        } else {
            assert_eq!(easy.puzzle, minimal, "#{index}");
        }
    }
    assert!(
        put_back > 0,
        "no minimal 16x16 puzzle was harder than singles"
    );
}

/// Clues come back a symmetry group at a time, and a level's ceiling is its highest rating.
#[test]
fn a_symmetric_pattern_stays_symmetric_and_a_level_is_met() {
    let pipeline = Pipeline::default_pipeline();
    let layout = Layout::new(12).unwrap();
    let target = GenerateOptions {
        symmetry: Symmetry::Rot180,
        level: Some(Level::Easy),
        attempts: Some(20),
        ..GenerateOptions::default()
    };
    assert_eq!(target.ceiling(), Some(2.3));
    for index in 0..3 {
        let made =
            Puzzle::generate(layout, Alphabet::Standard, &target, &pipeline, 2, index).unwrap();
        let values = made.puzzle.values();
        let cells = values.len();
        for i in 0..cells {
            assert_eq!(
                values[i] == 0,
                values[cells - 1 - i] == 0,
                "#{index}: not half-turn symmetric: {}",
                made.puzzle
            );
        }
        assert_eq!(made.rating.unwrap().level, Level::Easy, "#{index}");
    }
}

/// A target no puzzle of the size meets uses up its attempts; a bad target is refused.
#[test]
fn targets_out_of_reach_are_named() {
    let pipeline = Pipeline::default_pipeline();
    let layout = Layout::new(4).unwrap();
    let beyond = GenerateOptions {
        attempts: Some(3),
        ..options((12.0, 20.0))
    };
    let err = Puzzle::generate(layout, Alphabet::Standard, &beyond, &pipeline, 1, 0);
    assert!(
        matches!(err, Err(GenerateError::BudgetExhausted { attempts: 3, .. })),
        "{err:?}"
    );
    let unknown = GenerateOptions {
        requires: vec!["no-such-technique".to_string()],
        ..options((0.0, 20.0))
    };
    let err = Puzzle::generate(layout, Alphabet::Standard, &unknown, &pipeline, 1, 0);
    assert!(matches!(err, Err(GenerateError::Impossible(_))), "{err:?}");
    let too_many = GenerateOptions {
        clues: Clues::AtMost(17),
        ..options((0.0, 20.0))
    };
    let err = Puzzle::generate(layout, Alphabet::Standard, &too_many, &pipeline, 1, 0);
    assert!(matches!(err, Err(GenerateError::Impossible(_))), "{err:?}");
}

/// From the command line: the rating columns, the same on any number of threads, each row
/// within the range; `--difficulty` on another size.
#[test]
fn generate_rates_other_sizes_from_the_command_line() {
    let six = |threads: &str| {
        run_lapiz(&[
            "--threads",
            threads,
            "generate",
            "--size",
            "6",
            "--count",
            "6",
            "--seed",
            "3",
            "--rating",
            "..2.3",
            "--rate",
        ])
    };
    let (ok, one, err) = six("1");
    assert!(ok, "{err}");
    assert_eq!(six("2").1, one);
    let mut lines = one.lines();
    assert!(lines.next().unwrap().starts_with("puzzle\trating\tlevel"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 6);
    for row in rows {
        let cols: Vec<&str> = row.split('\t').collect();
        let rating: f32 = cols[1].parse().unwrap();
        assert!(rating <= 2.3, "{row}");
        assert_eq!(
            Puzzle::parse(cols[0]).unwrap().count_solutions(2),
            1,
            "{row}"
        );
    }
    let (ok, out, err) = run_lapiz(&[
        "generate",
        "--size",
        "16",
        "--count",
        "2",
        "--seed",
        "9",
        "--difficulty",
        "easy",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 2);
    let (ok, _, err) = run_lapiz(&["generate", "--size", "6", "--rating", "3..2"]);
    assert!(!ok && err.contains("empty range"), "{err}");
}

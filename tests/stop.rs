//! A solve, a search, a rating and a generation can be stopped: by a deadline already past or
//! by a cancel flag, the stopped work says so and keeps what it had done.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use lapiz::engine::{Entry, Outcome, RatingError, rate};
use lapiz::model::{Alphabet, Layout, Stop, StopCause};
use lapiz::puzzle::generate::{Clues, GenerateError, GenerateOptions};
use lapiz::technique::{StepSink, Technique, TechniqueError, builtin, builtins, find_all};
use lapiz::{Grid, Pipeline, Puzzle};

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// Arto Inkala's puzzle: only forcing chains finish it.
const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn puzzle(text: &str) -> Puzzle {
    Puzzle::read(text, None, None).expect("a puzzle")
}

fn expired() -> Stop {
    Stop::at(Instant::now())
}

/// Finds nothing, and sets its flag when it is searched for the `after`-th time.
struct Tripwire {
    flag: Arc<AtomicBool>,
    calls: AtomicUsize,
    after: usize,
}

impl Technique for Tripwire {
    fn id(&self) -> &str {
        "tripwire"
    }
    fn name(&self) -> &str {
        "Tripwire"
    }
    fn difficulty(&self) -> f32 {
        0.5
    }
    fn find(&self, _: &Grid, _: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        if self.calls.fetch_add(1, Ordering::Relaxed) + 1 == self.after {
            self.flag.store(true, Ordering::Relaxed);
        }
        Ok(())
    }
}

#[test]
fn a_solve_past_its_deadline_is_stopped_with_no_step() {
    let pipeline = Pipeline::default_pipeline();
    let trace = puzzle(PUZZLE).solve_until(&pipeline, &expired());
    match &trace.outcome {
        Outcome::Stopped {
            cause,
            pencil_marks,
        } => {
            assert_eq!(*cause, StopCause::TimeLimit);
            assert!(!pencil_marks.is_empty(), "where it stopped");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(trace.summary.steps, 0);
    assert!(
        trace
            .to_text(None)
            .contains("Stopped (time limit reached) after 0 steps")
    );
    assert!(trace.to_ron().contains("Stopped"));
    assert!(matches!(
        rate(&trace, &pipeline),
        Err(RatingError::Stopped {
            cause: StopCause::TimeLimit,
            steps: 0
        })
    ));
    // without a stop the same solve ends
    assert!(
        puzzle(PUZZLE)
            .solve_until(&pipeline, &Stop::never())
            .is_solved()
    );
}

#[test]
fn a_cancelled_solve_keeps_the_steps_before() {
    let full = puzzle(PUZZLE).solve(&Pipeline::from_techniques("all", builtins()).unwrap());
    assert!(full.is_solved() && full.summary.steps > 5);
    let flag = Arc::new(AtomicBool::new(false));
    let mut techniques: Vec<Box<dyn Technique>> = vec![Box::new(Tripwire {
        flag: flag.clone(),
        calls: AtomicUsize::new(0),
        after: 6,
    })];
    techniques.extend(builtins());
    let pipeline = Pipeline::from_techniques("test", techniques).expect("unique ids");
    let trace = puzzle(PUZZLE).solve_until(&pipeline, &Stop::on_flag(flag));
    assert!(matches!(
        trace.outcome,
        Outcome::Stopped {
            cause: StopCause::Cancelled,
            ..
        }
    ));
    // the tripwire was searched first in six positions: five steps were applied before
    assert_eq!(trace.summary.steps, 5);
    let kept: Vec<_> = trace.steps().collect();
    let first: Vec<_> = full.steps().take(5).collect();
    assert_eq!(kept, first);
    assert!(trace.entries.iter().all(|e| matches!(e, Entry::Step(_))));
}

#[test]
fn a_stopped_forcing_search_ends_without_its_steps() {
    let grid = {
        let mut pipeline = Pipeline::default_pipeline();
        pipeline.retain(|t| !t.id().contains("forcing"));
        let start = lapiz::text::parse_puzzle(HARD).expect("a puzzle");
        let trace = lapiz::Puzzle::from_nine(&start).solve(&pipeline);
        assert!(!trace.is_solved());
        lapiz::engine::replay(&start, &trace)
    };
    let (forcing, found) = [
        "forcing-chain",
        "dynamic-forcing-chain",
        "nested-forcing-chain",
    ]
    .into_iter()
    .map(|id| builtin(id).expect("a built-in"))
    .map(|t| {
        let found = find_all(t.as_ref(), &grid).expect("a search");
        (t, found)
    })
    .find(|(_, found)| !found.is_empty())
    .expect("forcing chains finish this position");
    // searched directly, not through the engine: the search itself sees the stop
    let stopped = expired().during(|| find_all(forcing.as_ref(), &grid).expect("a search"));
    assert!(
        stopped.len() < found.len(),
        "{} of {} steps found past the deadline",
        stopped.len(),
        found.len()
    );
}

#[test]
fn a_larger_grid_solve_past_its_deadline_is_stopped() {
    let p = puzzle("3.1...2.2....4..");
    let trace = p.solve_until(&Pipeline::default_pipeline(), &expired());
    assert!(matches!(trace.outcome, Outcome::Stopped { .. }));
    assert!(p.solve(&Pipeline::default_pipeline()).is_solved());
}

#[test]
fn generation_past_its_deadline_is_stopped() {
    let layout = Layout::new(16).expect("a size");
    let options = GenerateOptions::default();
    let pipeline = Pipeline::default_pipeline();
    let made = expired()
        .during(|| Puzzle::generate(layout, Alphabet::Standard, &options, &pipeline, 1, 0));
    assert!(
        matches!(made, Err(GenerateError::Stopped { .. })),
        "{made:?}"
    );
    let nine = |o: &GenerateOptions| {
        Puzzle::generate(Layout::NINE, Alphabet::Standard, o, &pipeline, 1, 0)
    };
    let made = expired().during(|| nine(&options));
    assert!(
        matches!(made, Err(GenerateError::Stopped { attempts: 0, .. })),
        "{made:?}"
    );
    assert!(nine(&options).is_ok());
}

#[test]
fn impossible_targets_are_refused_with_the_reason() {
    let pipeline = Pipeline::default_pipeline();
    for (n, clues, least) in [
        (25, 17, 24),
        (16, 14, 15),
        (9, 16, 17),
        (4, 3, 4),
        (8, 13, 14),
    ] {
        let layout = Layout::new(n).expect("a size");
        let exactly = GenerateOptions {
            clues: Clues::Exactly(clues),
            ..GenerateOptions::default()
        };
        let made = Puzzle::generate(layout, Alphabet::Standard, &exactly, &pipeline, 1, 0);
        match made {
            Err(GenerateError::Impossible(why)) => {
                assert!(why.contains(&format!("fewer than {least}")), "{why}")
            }
            other => panic!("{n}x{n}, {clues} clues: {other:?}"),
        }
    }
    let options = GenerateOptions {
        rating: Some((20.5, 100.0)),
        ..GenerateOptions::default()
    };
    match Puzzle::generate(Layout::NINE, Alphabet::Standard, &options, &pipeline, 1, 0) {
        Err(GenerateError::Impossible(why)) => assert!(why.contains("20.0"), "{why}"),
        other => panic!("{other:?}"),
    }
    let layout = Layout::new(16).expect("a size");
    let rated = Puzzle::generate(layout, Alphabet::Standard, &options, &pipeline, 1, 0);
    assert!(
        matches!(rated, Err(GenerateError::Impossible(_))),
        "{rated:?}"
    );
}

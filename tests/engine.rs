//! The solve loop's safety nets: verification, failing techniques, step limits.

use std::ops::ControlFlow;

use lapiz::Puzzle;
use lapiz::brute::solve;
use lapiz::engine::{Entry, Outcome, Rejection};
use lapiz::technique::{StepSink, Technique, TechniqueError, builtins};
use lapiz::text::parse_line;
use lapiz::{Cell, Grid, Pipeline, Step};

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// Removes the solution's digit from the first empty cell: always unsound.
struct Liar {
    solution: [u8; 81],
}

impl Technique for Liar {
    fn id(&self) -> &str {
        "liar"
    }
    fn name(&self) -> &str {
        "Liar"
    }
    fn difficulty(&self) -> f32 {
        0.5
    }
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        if let Some(cell) = grid.empty_cells().first() {
            let d = self.solution[cell.index()];
            let _ = sink(Step::new("liar", 0.5).eliminate(cell, d).explain("Liar"));
        }
        Ok(())
    }
}

/// Always fails.
struct Broken;

impl Technique for Broken {
    fn id(&self) -> &str {
        "broken"
    }
    fn name(&self) -> &str {
        "Broken"
    }
    fn difficulty(&self) -> f32 {
        0.5
    }
    fn find(&self, _: &Grid, _: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        Err(TechniqueError::Failed {
            technique: "broken".into(),
            message: "out of cheese".into(),
        })
    }
}

/// Eliminates a candidate that is already gone.
struct Idle;

impl Technique for Idle {
    fn id(&self) -> &str {
        "idle"
    }
    fn name(&self) -> &str {
        "Idle"
    }
    fn difficulty(&self) -> f32 {
        0.5
    }
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let cell = grid.filled_cells().first().unwrap_or(Cell::new(0));
        let _ = sink(Step::new("idle", 0.5).eliminate(cell, 1).explain("Idle"));
        Ok(())
    }
}

/// Places a digit in a given cell.
struct Overwriter;

impl Technique for Overwriter {
    fn id(&self) -> &str {
        "overwriter"
    }
    fn name(&self) -> &str {
        "Overwriter"
    }
    fn difficulty(&self) -> f32 {
        0.5
    }
    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        let cell = grid.givens().first().expect("has givens");
        if let ControlFlow::Break(()) =
            sink(Step::new("overwriter", 0.5).place(cell, grid.value(cell)))
        {
            return Ok(());
        }
        Ok(())
    }
}

fn pipeline_with(first: Vec<Box<dyn Technique>>) -> Pipeline {
    let mut techniques = first;
    techniques.extend(builtins());
    Pipeline::from_techniques("test", techniques).expect("unique ids")
}

#[test]
fn unsound_step_is_rejected_and_the_solve_goes_on() {
    let grid = parse_line(PUZZLE).unwrap();
    let solution = solve(grid.values()).unwrap();
    let trace = Puzzle::from_nine(&grid).solve(&pipeline_with(vec![Box::new(Liar { solution })]));
    assert!(trace.is_solved(), "{:?}", trace.outcome);
    assert_eq!(trace.summary.rejected, 1);
    match &trace.entries[0] {
        Entry::Rejected {
            step,
            reason: Rejection::Unsound { candidate },
        } => {
            assert_eq!(step.technique, "liar");
            assert_eq!(candidate.digit, solution[candidate.cell.index()]);
        }
        other => panic!("{other:?}"),
    }
    // disabled for the rest of the solve: exactly one rejection
    let liars = trace
        .entries
        .iter()
        .filter(|e| matches!(e, Entry::Rejected { .. }))
        .count();
    assert_eq!(liars, 1);
}

#[test]
fn without_verification_the_unsound_step_is_applied() {
    let grid = parse_line(PUZZLE).unwrap();
    let solution = solve(grid.values()).unwrap();
    let mut p = pipeline_with(vec![Box::new(Liar { solution })]);
    p.set_verify(false);
    p.set_step_limit(3);
    let trace = Puzzle::from_nine(&grid).solve(&p);
    assert!(matches!(&trace.entries[0], Entry::Step(s) if s.technique == "liar"));
    assert!(!trace.is_solved());
}

#[test]
fn failing_technique_is_recorded_and_skipped() {
    let grid = parse_line(PUZZLE).unwrap();
    let trace = Puzzle::from_nine(&grid).solve(&pipeline_with(vec![Box::new(Broken)]));
    assert!(trace.is_solved());
    let failures: Vec<_> = trace
        .entries
        .iter()
        .filter_map(|e| match e {
            Entry::Failed { technique, error } => Some((technique.clone(), error.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        failures,
        [(
            "broken".to_string(),
            "technique broken failed: out of cheese".to_string()
        )]
    );
}

#[test]
fn steps_that_change_nothing_or_overwrite_are_rejected() {
    let grid = parse_line(PUZZLE).unwrap();
    let trace =
        Puzzle::from_nine(&grid).solve(&pipeline_with(vec![Box::new(Idle), Box::new(Overwriter)]));
    assert!(trace.is_solved());
    assert!(matches!(
        &trace.entries[0],
        Entry::Rejected {
            reason: Rejection::NoChange,
            ..
        }
    ));
    assert!(
        matches!(&trace.entries[1], Entry::Rejected { reason: Rejection::Malformed { message }, .. } if message.contains("already holds"))
    );
}

#[test]
fn step_limit_stops_the_solve() {
    let grid = parse_line(PUZZLE).unwrap();
    let mut p = Pipeline::default_pipeline();
    p.set_step_limit(5);
    let trace = Puzzle::from_nine(&grid).solve(&p);
    assert_eq!(trace.outcome, Outcome::StepLimit { limit: 5 });
    assert_eq!(trace.summary.steps, 5);
}

#[test]
fn empty_pipeline_is_stuck_at_once() {
    let grid = parse_line(PUZZLE).unwrap();
    let trace = Puzzle::from_nine(&grid)
        .solve(&Pipeline::from_techniques("none", Vec::new()).expect("unique ids"));
    assert!(matches!(trace.outcome, Outcome::Stuck { .. }));
}

/// Claims to need uniqueness and fails whenever it is asked to search: the engine must not ask
/// when the givens are not unique.
struct NeedsUniqueness;

impl Technique for NeedsUniqueness {
    fn id(&self) -> &str {
        "needs-uniqueness"
    }
    fn name(&self) -> &str {
        "Needs uniqueness"
    }
    fn difficulty(&self) -> f32 {
        0.5
    }
    fn needs_uniqueness(&self) -> bool {
        true
    }
    fn find(&self, _: &Grid, _: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        Err(TechniqueError::Failed {
            technique: "needs-uniqueness".into(),
            message: "searched".into(),
        })
    }
}

/// A HoDoKu 0600 case (Unique Rectangle type 1) with every digit written as placed (`+`): the position has one solution, its givens (none) have many.
const PLACED_ONLY: &str = ":0600-1:23:+1+9+7+8+4+6+5+3+2..+8.+5.+7+1+9+3+5+2+9+1+7+6+4+8+8+3+1+7+6+9+4+2+5+5+2+4+1+3+8+9+7+6..+9+5+2+4+1+8+3.+8+6+4....+1..+3+6....+7+9.+5....+6+4::296 396::";
/// The same case as the library has it: its givens are unique.
const WITH_GIVENS: &str = ":0600-1:23:+1+97+84+6+532..+8.+5.7+1+9+3+5+291+76+4+883+17694+2+55+2+4+1+38+9+7+6..+9+524+1+8+3.8+6+4....1..3+6....+79.+5....64::296 396::";

#[test]
fn uniqueness_techniques_are_skipped_when_the_givens_are_not_unique() {
    let grid = lapiz::text::parse_puzzle(PLACED_ONLY).unwrap();
    let p = pipeline_with(vec![Box::new(NeedsUniqueness)]);
    let trace = Puzzle::from_nine(&grid).solve(&p);
    let skipped = trace
        .uniqueness_skipped
        .as_ref()
        .expect("the skip is recorded");
    assert_eq!((skipped.givens_solutions, skipped.at_least), (100, true));
    assert!(skipped.techniques.contains(&"needs-uniqueness".to_string()));
    assert!(
        skipped
            .techniques
            .contains(&"unique-rectangle-1".to_string())
    );
    let uniqueness: Vec<&str> = p
        .techniques()
        .iter()
        .filter(|t| t.needs_uniqueness())
        .map(|t| t.id())
        .collect();
    for entry in &trace.entries {
        let id = match entry {
            Entry::Step(s) | Entry::Rejected { step: s, .. } => s.technique.as_str(),
            Entry::Failed { technique, .. } => technique.as_str(),
        };
        assert!(!uniqueness.contains(&id), "{id} ran: {entry:?}");
    }
    assert!(trace.is_solved(), "the other techniques solve it");
    assert!(!trace.summary.uniqueness_assumed);
    let text = trace.to_text(None);
    assert_eq!(
        text.matches(
            "uniqueness technique(s) skipped: the givens alone have at least 100 solutions"
        )
        .count(),
        1,
        "{text}"
    );
    let back = lapiz::engine::Trace::from_ron(&trace.to_ron()).unwrap();
    assert_eq!(back.uniqueness_skipped, trace.uniqueness_skipped);

    // With unique givens the same position runs them: the Unique Rectangle fires.
    let only_urs = Pipeline::from_ron(
        r#"Pipeline(techniques: [Technique("full-house"), Technique("hidden-single"),
            Technique("naked-single"), Technique("unique-rectangle-1")])"#,
        "urs.ron",
    )
    .unwrap();
    let trace =
        Puzzle::from_nine(&lapiz::text::parse_puzzle(WITH_GIVENS).unwrap()).solve(&only_urs);
    assert_eq!(trace.uniqueness_skipped, None);
    assert!(trace.steps().any(|s| s.technique == "unique-rectangle-1"));
    assert!(!trace.to_ron().contains("uniqueness_skipped"));
    let trace =
        Puzzle::from_nine(&lapiz::text::parse_puzzle(PLACED_ONLY).unwrap()).solve(&only_urs);
    assert!(trace.steps().all(|s| s.technique != "unique-rectangle-1"));
}

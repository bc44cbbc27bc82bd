mod common;
use lapiz::engine::solve_grid;
use lapiz::parse::parse_puzzle;
use lapiz::pipeline::Pipeline;
use lapiz::script::{Limits, ScriptHost, ScriptTechnique};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

const BASICS: &str = r#"Technique("full-house"), Technique("hidden-single"), Technique("naked-single"),
    Technique("pointing"), Technique("claiming"), Technique("locked-pair"), Technique("naked-pair"),
    Technique("hidden-pair"), Technique("locked-triple"), Technique("naked-triple"),
    Technique("hidden-triple"), Technique("naked-quad"), Technique("hidden-quad")"#;

#[test]
#[ignore]
fn measure_shipped() {
    let puzzles = common::puzzles("top1465.txt", 200).unwrap();
    for (name, ron) in [
        (
            "after basics",
            format!("Pipeline(techniques: [{BASICS}, Scripts(\"techniques\")])"),
        ),
        (
            "default+scripts first",
            "Pipeline(techniques: [Scripts(\"techniques\")])".to_string(),
        ),
    ] {
        let mut p = Pipeline::from_ron(&ron, "p.ron").unwrap();
        if name.starts_with("default") {
            let d = Pipeline::default_pipeline();
            p.techniques.extend(d.techniques);
        }
        let mut max: std::collections::BTreeMap<String, (u64, Duration, u64)> = Default::default();
        let mut failed = 0;
        let start = Instant::now();
        for pz in &puzzles {
            let t = solve_grid(&parse_puzzle(pz).unwrap(), &p);
            failed += t
                .entries
                .iter()
                .filter(|e| matches!(e, lapiz::trace::Entry::Failed { .. }))
                .count();
            for u in lapiz::script::last_solve_usage() {
                let m = max.entry(u.script.clone()).or_default();
                m.0 = m.0.max(u.operations);
                m.1 = m.1.max(u.time);
                m.2 = m.2.max(u.calls);
            }
        }
        println!(
            "{name}: {} puzzles in {:?}, failures {failed}",
            puzzles.len(),
            start.elapsed()
        );
        for (s, (o, t, c)) in max {
            println!("  {s}: max ops {o}, max time {t:?}, max calls {c}");
        }
    }
}

#[test]
#[ignore]
fn measure_deep() {
    let host = Arc::new(ScriptHost::new(Limits {
        max_operations: 0,
        time_limit: Duration::from_secs(600),
        ..Limits::default()
    }));
    let t = ScriptTechnique::load_with(Path::new("/tmp/sb_h/deep.rhai"), host).unwrap();
    let g = parse_puzzle(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    )
    .unwrap();
    let s = Instant::now();
    let r = t.run(&g);
    println!("deep call: {:?} {:?}", s.elapsed(), r.map(|v| v.len()));
}

#[test]
#[ignore]
fn measure_depth() {
    let depth: usize = std::env::var("DEPTH").unwrap().parse().unwrap();
    let op = std::env::var("OP").unwrap();
    let body = match op.as_str() {
        "build" => "()",
        "format" => "let s = `${a}`; ()",
        "eq" => "let b = a == a; ()",
        _ => panic!(),
    };
    let text = format!(
        "const ID = \"deep\";\nconst DIFFICULTY = 1.0;\nfn find(grid) {{\n let a = []; for i in 0..{depth} {{ a = [a]; }}\n {body}\n}}\n"
    );
    let host = Arc::new(ScriptHost::new(Limits {
        max_operations: 0,
        time_limit: Duration::from_secs(600),
        ..Limits::default()
    }));
    let t = ScriptTechnique::from_source(&text, "d.rhai", host).unwrap();
    let g = parse_puzzle(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    )
    .unwrap();
    let s = Instant::now();
    let r = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || t.run(&g).map(|v| v.len()).map_err(|e| e.to_string()))
        .unwrap()
        .join()
        .unwrap();
    println!("depth {depth} {op}: {:?} {:?}", s.elapsed(), r);
}

//! Scripted techniques against their native twins: `cargo bench --bench scripts`.
//!
//! For each shipped script (`techniques/*.rhai`) with a built-in twin, it times a full search
//! (`find_all`) of both on the same grids: the regression-library cases of the script's codes,
//! and the positions met while solving `top1465.txt` with the default pipeline (every fifth
//! step plus the end position). It prints µs per search and the script/native ratio (the
//! target is within 25×). It also times one script call on an empty `find` (the fixed cost of
//! a call: the grid copy and the Rhai call).
//!
//! The data is read from `$LAPIZ_DATA` or `../shared/data`; the bench skips what is missing.

use std::path::{Path, PathBuf};
use std::time::Instant;

use lapiz::engine::solve_grid;
use lapiz::parse::{parse_library_line, parse_line};
use lapiz::script::{ScriptHost, ScriptTechnique};
use lapiz::technique::{Technique, builtin, find_all};
use lapiz::{Grid, Pipeline};

const SCRIPTS: &[&str] = &[
    "techniques/x-wing.rhai",
    "techniques/skyscraper.rhai",
    "techniques/2-string-kite.rhai",
    "techniques/xy-wing.rhai",
];

fn data_dir() -> PathBuf {
    match std::env::var_os("LAPIZ_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

/// Mean µs per `find_all` of `t` over `grids`, best of `rounds`, and the steps found.
fn time(t: &dyn Technique, grids: &[Grid], rounds: usize) -> (f64, usize) {
    let mut best = f64::INFINITY;
    let mut found = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        found = 0;
        for g in grids {
            found += find_all(t, g).map(|s| s.len()).unwrap_or(0);
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    (best * 1e6 / grids.len().max(1) as f64, found)
}

fn compare(label: &str, grids: &[Grid], rounds: usize) {
    println!(
        "{label}: {} grids\n{:<24} {:>12} {:>12} {:>8} {:>8}",
        grids.len(),
        "script",
        "script µs",
        "native µs",
        "ratio",
        "steps"
    );
    for path in SCRIPTS {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let script = ScriptTechnique::load(&root.join(path)).expect("shipped scripts load");
        let native_id = script.id().trim_end_matches("-script");
        let (s_us, s_found) = time(&script, grids, rounds);
        match builtin(native_id) {
            Some(native) => {
                let (n_us, n_found) = time(native.as_ref(), grids, rounds);
                println!(
                    "{:<24} {:>12.2} {:>12.2} {:>7.1}x {:>8}",
                    script.id(),
                    s_us,
                    n_us,
                    s_us / n_us,
                    format!("{s_found}/{n_found}")
                );
            }
            None => println!(
                "{:<24} {:>12.2} {:>12} {:>8} {:>8}",
                script.id(),
                s_us,
                "-",
                "-",
                s_found
            ),
        }
    }
}

fn main() {
    // The fixed cost of a call.
    let empty = ScriptTechnique::from_source(
        "const ID = \"empty\"; const DIFFICULTY = 1; fn find(grid) { () }",
        "empty.rhai",
        ScriptHost::shared(),
    )
    .unwrap();
    let g = Grid::empty();
    let n = 200_000;
    let start = Instant::now();
    for _ in 0..n {
        let _ = std::hint::black_box(empty.run(&g));
    }
    println!(
        "empty find call: {:.2} µs",
        start.elapsed().as_secs_f64() * 1e6 / n as f64
    );

    let lib_path = data_dir().join("reglib/reglib-1.4-dev.txt");
    match std::fs::read_to_string(&lib_path) {
        Ok(text) => {
            let codes = [":0300:", ":0400:", ":0401:", ":0800:"];
            let grids: Vec<Grid> = text
                .lines()
                .filter(|l| codes.iter().any(|c| l.starts_with(c)))
                .filter_map(|l| parse_library_line(l).ok())
                .map(|c| c.grid)
                .collect();
            compare("reglib cases 0300/0400/0401/0800", &grids, 200);
        }
        Err(_) => eprintln!("skipping reglib: {} not found", lib_path.display()),
    }

    let path = data_dir().join("puzzles/top1465.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "skipping top1465: {} not found; set LAPIZ_DATA",
            path.display()
        );
        return;
    };
    let pipeline = Pipeline::default_pipeline();
    let mut positions = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let Ok(g) = parse_line(&line.chars().take(81).collect::<String>()) else {
            continue;
        };
        let trace = solve_grid(&g, &pipeline);
        let mut grid = g.clone();
        for (i, step) in trace.steps().enumerate() {
            if i % 5 == 0 {
                positions.push(grid.clone());
            }
            step.apply(&mut grid);
        }
        if !grid.is_solved() {
            positions.push(grid);
        }
    }
    compare("top1465 positions", &positions, 3);
}

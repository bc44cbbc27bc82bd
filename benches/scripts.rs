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

mod common;

use std::path::Path;
use std::time::Instant;

use common::{data_dir, positions, puzzles, time};
use lapiz::script::{ScriptHost, ScriptTechnique};
use lapiz::technique::{Technique, builtin};
use lapiz::text::parse_library_line;
use lapiz::{Grid, Pipeline};

const SCRIPTS: &[&str] = &[
    "techniques/x-wing.rhai",
    "techniques/skyscraper.rhai",
    "techniques/2-string-kite.rhai",
    "techniques/xy-wing.rhai",
];

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

    let Some(puzzles) = puzzles("top1465.txt") else {
        return;
    };
    let positions = positions(&puzzles, &Pipeline::default_pipeline(), 5);
    compare("top1465 positions", &positions, 3);
}

//! Plugin techniques against their built-in twins: `cargo bench --bench plugins`.
//!
//! Builds the example plugins in release mode (a nested `cargo build` into
//! `target/plugin-bench`; the C one with the system compiler at -O2), then times a full search
//! (`find_all`) of each plugin technique and of its built-in twin on the same grids: the
//! positions met while solving `top1465.txt` with the default pipeline (every fifth step plus
//! the end position). BUG+1 returns at the first cell with more than three candidates on almost
//! every position, so its time is close to the fixed cost of a plugin call (grid copy, buffers,
//! the call through the C ABI).
//!
//! The data is read from `$LAPIZ_DATA` or `../shared/data`; the bench skips what is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use lapiz::engine::solve_grid;
use lapiz::parse::parse_line;
use lapiz::technique::{Technique, builtin, find_all};
use lapiz::{Grid, Pipeline};

fn data_dir() -> PathBuf {
    match std::env::var_os("LAPIZ_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

fn library_file(name: &str) -> String {
    format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    )
}

/// Builds the example plugins in release mode; returns the Rust and C library paths.
fn build_plugins(root: &Path) -> (PathBuf, PathBuf) {
    let target = root.join("target/plugin-bench");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["build", "--release", "--quiet", "-p", "example-rust"])
        .arg("--target-dir")
        .arg(&target)
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building example-rust failed");
    let c = target.join(library_file("lapiz_example_c"));
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-shared", "-fPIC", "-O2", "-I"])
        .arg(root.join("plugins/lapiz-plugin-api/include"))
        .arg("-o")
        .arg(&c)
        .arg(root.join("plugins/example-c/xy_wing.c"))
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "building example-c failed");
    (
        target.join("release").join(library_file("lapiz_example_rust")),
        c,
    )
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

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = data_dir().join("puzzles/top1465.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} not found; set LAPIZ_DATA", path.display());
        return;
    };
    let (rust, c) = build_plugins(root);
    let mut plugins = Vec::new();
    for lib in [&rust, &c] {
        plugins.extend(lapiz::plugin::load(lib).expect("example plugins load").techniques());
    }
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
    println!(
        "top1465 positions: {} grids\n{:<18} {:>12} {:>12} {:>8} {:>12}",
        positions.len(),
        "plugin",
        "plugin µs",
        "native µs",
        "ratio",
        "steps"
    );
    for p in &plugins {
        let twin = builtin(p.id().trim_end_matches("-rs").trim_end_matches("-c"))
            .expect("every example has a built-in twin");
        let (p_us, p_found) = time(p.as_ref(), &positions, 5);
        let (n_us, n_found) = time(twin.as_ref(), &positions, 5);
        println!(
            "{:<18} {:>12.2} {:>12.2} {:>7.1}x {:>12}",
            p.id(),
            p_us,
            n_us,
            p_us / n_us,
            format!("{p_found}/{n_found}")
        );
    }
}

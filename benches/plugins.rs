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

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{positions, puzzles, time};
use lapiz::Pipeline;
use lapiz::technique::builtin;

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
        target
            .join("release")
            .join(library_file("lapiz_example_rust")),
        c,
    )
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(puzzles) = puzzles("top1465.txt") else {
        return;
    };
    let (rust, c) = build_plugins(root);
    let mut plugins = Vec::new();
    for lib in [&rust, &c] {
        plugins.extend(
            lapiz::plugin::load(lib)
                .expect("example plugins load")
                .techniques(),
        );
    }
    let positions = positions(&puzzles, &Pipeline::default_pipeline(), 5);
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

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
//! Then the same searches through plugin hosts (the default plugin mode: each library in a
//! `lapiz plugin-host` process, one round trip per search and per step), and whole solves of
//! the first `LAPIZ_BENCH_SOLVES` (default 300) top1465 puzzles with the default pipeline and
//! the example plugins, in-process and hosted, alternated (best of two each), on one thread.
//!
//! Each hosted figure is given twice, with the host's sandbox on (the default) and off
//! (`--plugin-sandbox off`), and the time to start a host (from spawning
//! `lapiz plugin-host --sandbox on|off -- LIB` to its description of the library) is the median
//! of `LAPIZ_BENCH_STARTS` (default 30) starts of each.
//!
//! The data is read from `$LAPIZ_DATA` or `../shared/data`; the bench skips what is missing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use std::time::Instant;

use common::{positions, puzzles, time};
use lapiz::Pipeline;
use lapiz::Puzzle;
use lapiz::plugin::{HostSettings, PluginMode, Sandbox};
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

    hosted(&rust, &c, &positions, &puzzles);
}

/// Per-call cost through plugin hosts, and whole solves in each plugin mode.
fn hosted(rust: &Path, c: &Path, positions: &[lapiz::Grid], puzzles: &[lapiz::Grid]) {
    HostSettings {
        program: Some(PathBuf::from(env!("CARGO_BIN_EXE_lapiz"))),
        ..HostSettings::default()
    }
    .install();
    let starts: usize = std::env::var("LAPIZ_BENCH_STARTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30);
    println!("\nplugin host start, median of {starts} (spawn to description)");
    for lib in [rust, c] {
        let on = host_start(lib, Sandbox::On, starts);
        let off = host_start(lib, Sandbox::Off, starts);
        println!(
            "{:<28} sandbox on {:>7.2} ms, off {:>7.2} ms, extra {:>6.2} ms",
            lib.file_name().unwrap_or_default().to_string_lossy(),
            on,
            off,
            on - off
        );
    }
    let load = |mode, sandbox| -> Vec<Box<dyn lapiz::Technique>> {
        [rust, c]
            .iter()
            .flat_map(|lib| {
                lapiz::plugin::load_with(lib, mode, sandbox)
                    .expect("example plugins load")
                    .techniques()
            })
            .collect()
    };
    let direct = load(PluginMode::InProcess, Sandbox::Off);
    let sandboxed = load(PluginMode::Host, Sandbox::On);
    let open = load(PluginMode::Host, Sandbox::Off);
    println!(
        "\nper search, {} grids\n{:<18} {:>12} {:>14} {:>14} {:>12}",
        positions.len(),
        "plugin",
        "in-process µs",
        "hosted, on µs",
        "hosted, off µs",
        "sandbox µs"
    );
    for ((d, h), o) in direct.iter().zip(&sandboxed).zip(&open) {
        let (d_us, d_found) = time(d.as_ref(), positions, 3);
        let (h_us, h_found) = time(h.as_ref(), positions, 3);
        let (o_us, o_found) = time(o.as_ref(), positions, 3);
        assert_eq!(
            (d_found, d_found),
            (h_found, o_found),
            "{}: hosted and in-process disagree",
            d.id()
        );
        println!(
            "{:<18} {:>12.2} {:>14.2} {:>14.2} {:>12.2}",
            d.id(),
            d_us,
            h_us,
            o_us,
            h_us - o_us
        );
    }
    let count: usize = std::env::var("LAPIZ_BENCH_SOLVES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
        .min(puzzles.len());
    let pipeline = |mode, sandbox| {
        let mut p = Pipeline::default_pipeline();
        p.set_plugin_mode(mode);
        p.set_plugin_sandbox(sandbox);
        p.add_plugin(rust).expect("loads");
        p.add_plugin(c).expect("loads");
        p
    };
    let modes = [
        ("in-process", pipeline(PluginMode::InProcess, Sandbox::Off)),
        ("hosted", pipeline(PluginMode::Host, Sandbox::On)),
        ("hosted, off", pipeline(PluginMode::Host, Sandbox::Off)),
    ];
    let mut best = [f64::INFINITY; 3];
    for _ in 0..2 {
        for (i, (_, p)) in modes.iter().enumerate() {
            let start = Instant::now();
            for g in &puzzles[..count] {
                let t = Puzzle::from_nine(g).solve(p);
                assert!(
                    !t.entries
                        .iter()
                        .any(|e| matches!(e, lapiz::engine::Entry::Failed { .. })),
                    "a plugin failed"
                );
            }
            best[i] = best[i].min(start.elapsed().as_secs_f64());
        }
    }
    println!("\nwhole solves, first {count} top1465 puzzles, default pipeline + example plugins");
    for (i, (name, _)) in modes.iter().enumerate() {
        println!(
            "{:<12} {:>10.2} ms/puzzle",
            name,
            best[i] * 1e3 / count.max(1) as f64
        );
    }
    println!("hosted / in-process: {:.2}x", best[1] / best[0]);
    println!("hosted, sandbox on / off: {:.3}x", best[1] / best[2]);
}

/// The median time, in ms, from spawning a plugin host for `lib` to reading its description
/// of the library (its first frame), over `n` starts.
fn host_start(lib: &Path, sandbox: Sandbox, n: usize) -> f64 {
    use std::io::Read;
    use std::process::Stdio;
    let mut times: Vec<f64> = (0..n.max(1))
        .map(|_| {
            let start = Instant::now();
            let mut child = Command::new(env!("CARGO_BIN_EXE_lapiz"))
                .args(["plugin-host", "--memory-mib", "4096", "--sandbox"])
                .arg(match sandbox {
                    Sandbox::On => "on",
                    Sandbox::Off => "off",
                })
                .arg("--")
                .arg(lib)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("the plugin host starts");
            let mut out = child.stdout.take().expect("piped");
            let mut len = [0u8; 4];
            out.read_exact(&mut len).expect("a frame");
            let mut frame = vec![0u8; u32::from_le_bytes(len) as usize];
            out.read_exact(&mut frame).expect("a frame");
            let elapsed = start.elapsed().as_secs_f64() * 1e3;
            assert_eq!(frame.first(), Some(&b'D'), "the host describes the library");
            drop(child.stdin.take());
            let _ = child.wait();
            elapsed
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

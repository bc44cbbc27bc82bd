//! The code's layout (issue 17): a thin `main.rs`, the command line's crates only behind the
//! `cli` feature, and none of them used by the library.

use std::path::Path;

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn main_rs_is_a_dispatcher() {
    let main = std::fs::read_to_string("src/main.rs").unwrap();
    let lines = main.lines().count();
    assert!(lines <= 150, "src/main.rs has {lines} lines, at most 150");
    // the command modules do not reach back into main.rs for helpers
    let mut files = Vec::new();
    rust_files(Path::new("src/cli"), &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for line in text
            .lines()
            .filter(|l| l.trim_start().starts_with("use crate::"))
        {
            assert!(
                line.contains("crate::cli::"),
                "{}: `{line}` imports from main.rs",
                f.display()
            );
        }
    }
}

#[test]
fn the_command_line_crates_are_the_cli_features() {
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap();
    for name in [
        "clap",
        "anyhow",
        "indicatif",
        "axum",
        "tokio",
        "serde_json",
        "rayon",
    ] {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name} =")))
            .unwrap_or_else(|| panic!("no {name} in Cargo.toml"));
        assert!(line.contains("optional = true"), "{line}");
        assert!(
            manifest.contains(&format!("\"dep:{name}\"")),
            "the cli feature lacks {name}"
        );
    }
    // what a browser has not (plugins, files) is on by default too, and the command line's
    assert!(manifest.contains("default = [\"cli\", \"plugins\", \"files\"]"));
    assert!(manifest.contains("cli = [\"plugins\", \"files\", "));
    assert!(manifest.contains("required-features = [\"cli\"]"));
    // and the library does not use them (it builds without them)
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    for f in files {
        if f.starts_with("src/cli") || f == Path::new("src/main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for name in [
            "anyhow",
            "clap",
            "indicatif",
            "axum",
            "tokio",
            "serde_json",
            "rayon",
        ] {
            assert!(
                !text.contains(&format!("{name}::")),
                "{} uses {name}, a crate of the command line only",
                f.display()
            );
        }
    }
}

/// The text of every `.rs` file under `dir`, with its path.
fn sources(dir: &str) -> Vec<(std::path::PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(Path::new(dir), &mut files);
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect()
}

#[test]
fn finders_stop_one_way_and_build_steps_with_the_builder() {
    let fields = [
        "technique",
        "difficulty",
        "placements",
        "eliminations",
        "houses",
        "highlights",
        "chains",
        "net",
        "explanation",
    ];
    for (f, text) in sources("src/technique") {
        assert!(!text.contains("emit!"), "{}: emit! macro", f.display());
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            // `step.field = ...` or `step.field.push(...)`: a step built around the builder
            for field in fields {
                for var in ["step", "s"] {
                    for op in [" = ", ".push(", ".extend("] {
                        let pattern = format!("{var}.{field}{op}");
                        assert!(
                            !code.trim_start().starts_with(&pattern),
                            "{}:{}: `{}` sets a Step field directly",
                            f.display(),
                            n + 1,
                            line.trim()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn pipeline_fields_and_search_internals_are_private() {
    let pipeline = std::fs::read_to_string("src/engine/pipeline.rs").unwrap();
    let body = pipeline
        .split("pub struct Pipeline {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("struct Pipeline");
    assert!(!body.contains("pub "), "Pipeline has a public field");
    let chains = std::fs::read_to_string("src/technique/chains/mod.rs").unwrap();
    for module in ["graph", "search"] {
        assert!(
            chains.contains(&format!("pub(crate) mod {module};")),
            "chains::{module} is public"
        );
    }
}

#[test]
fn internal_modules_are_private_and_entry_points_have_examples() {
    // A layer's files are private to the crate: the layer's module re-exports what it offers.
    // The public namespaces inside a layer are cohesive groups: the generator's targets, the
    // lines of puzzle files, the rating table, the shapes, a trace's parts, a forcing net's.
    for layer in [
        "model", "text", "brute", "step", "engine", "puzzle", "tools",
    ] {
        let path = format!("src/{layer}/mod.rs");
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| l.starts_with("pub mod ")) {
            assert!(
                [
                    "pub mod generate;",
                    "pub mod lines;",
                    "pub mod table;",
                    "pub mod shape;",
                    "pub mod trace;",
                    "pub mod net;",
                ]
                .contains(&line),
                "{path}: a public file module: {line}"
            );
        }
    }
    // The candidate sets and the capped file reading stay inside the crate.
    let model = std::fs::read_to_string("src/model/mod.rs").unwrap();
    assert!(!model.contains("CandSet"), "CandSet is re-exported");
    let text = std::fs::read_to_string("src/text/mod.rs").unwrap();
    assert!(
        !text.contains("pub use files"),
        "the file readers are re-exported"
    );
    // The technique families are reached through the registry (`builtins`, `family`,
    // `builtin`), not as modules: only the catalogue is public.
    let technique = std::fs::read_to_string("src/technique/mod.rs").unwrap();
    for line in technique.lines().filter(|l| l.starts_with("pub mod ")) {
        assert_eq!(line, "pub mod catalogue;", "a public technique module");
    }
    // The entry points of the public API show how they are used.
    for file in [
        "src/model/grid.rs",
        "src/engine/pipeline.rs",
        "src/engine/mod.rs",
        "src/engine/trace.rs",
        "src/technique/mod.rs",
        "src/plugin/mod.rs",
        "src/script/mod.rs",
        "src/text/nine.rs",
        "src/text/puzzle.rs",
        "src/engine/rating.rs",
        "src/puzzle/generate/mod.rs",
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            text.lines().any(|l| {
                let l = l.trim_start();
                (l.starts_with("///") || l.starts_with("//!")) && l.contains("```")
            }),
            "{file} has no doc example"
        );
    }
}

#[test]
fn no_source_file_is_over_a_thousand_lines() {
    let mut files = sources("src");
    files.extend(sources("plugins"));
    files.extend(sources("wasm/src"));
    for (f, text) in files {
        let lines = text.lines().count();
        assert!(lines <= 1000, "{}: {lines} lines", f.display());
    }
}

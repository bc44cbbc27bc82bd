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
    for name in ["clap", "anyhow", "indicatif"] {
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
    assert!(manifest.contains("default = [\"cli\"]"));
    assert!(manifest.contains("required-features = [\"cli\"]"));
    // and the library does not use them (it builds without them)
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    for f in files {
        if f.starts_with("src/cli") || f == Path::new("src/main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for name in ["anyhow", "clap", "indicatif"] {
            assert!(
                !text.contains(&format!("{name}::")),
                "{} uses {name}, a crate of the command line only",
                f.display()
            );
        }
    }
}

//! The library's layers hold: each top-level module of `src/` names, through `crate::` paths in
//! its non-test source, only the modules of the layers below it (docs/architecture.md, "The
//! layers"). `ALLOWED` lists the known exceptions; it shrinks, and a listed edge that no longer
//! occurs fails the test too, so the list never keeps a stale entry.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The top-level modules, lowest layer first. A module may name the modules before it, never
/// those after it.
const LAYERS: &[&str] = &[
    "model",
    "text",
    "brute",
    "step",
    "technique",
    "script",
    "plugin",
    "engine",
    "puzzle",
    "html",
    "tools",
];

/// Known edges from a module to a higher one, to be removed.
const ALLOWED: &[(&str, &str)] = &[];

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a file that counts: up to its first column-0 `#[cfg(test)]`, without comment
/// lines (doc links may name any module).
fn non_test_code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        if line.trim_start().starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The first path segment after each `crate::` in `code`, with each first segment of a
/// `crate::{a::x, b}` group.
fn named_modules(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut expect = true;
            let mut word = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                if depth == 1 {
                    if expect && is_ident(c) {
                        word.push(c);
                        continue;
                    }
                    if !word.is_empty() {
                        names.insert(std::mem::take(&mut word));
                        expect = false;
                    }
                    if c == ',' {
                        expect = true;
                    }
                }
            }
            if !word.is_empty() {
                names.insert(word);
            }
        } else {
            let word: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !word.is_empty() {
                names.insert(word);
            }
        }
    }
    names
}

#[test]
fn each_module_names_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let rank: BTreeMap<&str, usize> = LAYERS.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let mut edges: BTreeSet<(String, String)> = BTreeSet::new();
    let mut unknown = BTreeSet::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("below src");
        let first = rel.components().next().expect("a component");
        let first = first.as_os_str().to_string_lossy();
        let top = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        if ["lib", "main", "cli"].contains(&top.as_str()) || file.ends_with("tests.rs") {
            continue;
        }
        if !rank.contains_key(top.as_str()) {
            unknown.insert(top.clone());
            continue;
        }
        let text = fs::read_to_string(file).expect("read a source file");
        for name in named_modules(&non_test_code(&text)) {
            if name != top && name != "self" && name != "super" && rank.contains_key(name.as_str())
            {
                edges.insert((top.clone(), name));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "top-level modules missing from LAYERS: {unknown:?}"
    );
    let upward: BTreeSet<(String, String)> = edges
        .into_iter()
        .filter(|(from, to)| rank[from.as_str()] < rank[to.as_str()])
        .collect();
    let allowed: BTreeSet<(String, String)> = ALLOWED
        .iter()
        .map(|&(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let new: Vec<_> = upward.difference(&allowed).collect();
    let stale: Vec<_> = allowed.difference(&upward).collect();
    assert!(
        new.is_empty(),
        "modules naming a higher layer (from, to): {new:?}"
    );
    assert!(
        stale.is_empty(),
        "ALLOWED lists edges that no longer occur; remove them: {stale:?}"
    );
}

#[test]
fn no_loose_files_at_the_root() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut loose: Vec<String> = fs::read_dir(&src)
        .expect("read src")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            p.file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name != "lib.rs" && name != "main.rs")
        .collect();
    loose.sort();
    assert!(
        loose.is_empty(),
        "src/ holds only lib.rs, main.rs and the layers' folders; move {loose:?} into one"
    );
}

#[test]
fn the_scanner_reads_paths_and_groups() {
    let code =
        "use crate::grid::Grid;\nuse crate::{step::{Step, Role}, net};\nlet x = crate::shape::S9;";
    let names: Vec<String> = named_modules(code).into_iter().collect();
    assert_eq!(names, ["grid", "net", "shape", "step"]);
    assert_eq!(
        non_test_code("a\n// crate::x\n#[cfg(test)]\ncrate::y"),
        "a\n"
    );
}

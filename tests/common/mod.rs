//! Helpers shared by the integration tests: where the shared data lives, and temporary
//! folders and files that are removed when the test ends.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared data folder: `$LAPIZ_DATA`, else `../shared/data` beside the project.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("LAPIZ_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

/// The text of a shared data file, or `None` (with a message saying the test is skipped).
/// With `LAPIZ_REQUIRE_DATA` set (CI sets it when the shared data is there), a missing file
/// fails the test instead, so no test can skip silently where the data should be.
pub fn read_data(relative: &str) -> Option<String> {
    let path = data_dir().join(relative);
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) if std::env::var_os("LAPIZ_REQUIRE_DATA").is_some() => {
            panic!(
                "{} not found ({e}) and LAPIZ_REQUIRE_DATA is set",
                path.display()
            )
        }
        Err(e) => {
            eprintln!(
                "skipping: {} not found ({e}); set LAPIZ_DATA to the shared data folder to run this test",
                path.display()
            );
            None
        }
    }
}

/// The path of a shared data file, or `None` as [`read_data`] decides.
pub fn data_file(relative: &str) -> Option<PathBuf> {
    read_data(relative).map(|_| data_dir().join(relative))
}

/// A fresh temporary folder `lapiz-<tag>-XXXXXX` (in the system's temporary folder) for one
/// test. The guard removes it, with everything in it, when it is dropped, so also when the test
/// fails and unwinds: keep it alive (bound to a name, not `_`) for as long as the test, or a
/// `lapiz` it runs, uses the folder's paths.
pub fn temp_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("lapiz-{tag}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// A file written by [`temp_file`]: its path (through `Deref` and `AsRef<Path>`), and the
/// guard of its own temporary folder, removed with the file when this is dropped.
pub struct TempFile {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for TempFile {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempFile {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// Writes `contents` to a file `name` in a fresh [`temp_dir`] (`tag` tells the tests' folders
/// apart). The folder lasts as long as the returned [`TempFile`]: keep it while the file is used.
pub fn temp_file(tag: &str, name: &str, contents: impl AsRef<[u8]>) -> TempFile {
    let dir = temp_dir(tag);
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    TempFile { path, _dir: dir }
}

/// The first `limit` puzzles of a shared puzzle file (comments and blank lines skipped).
pub fn puzzles(file: &str, limit: usize) -> Option<Vec<String>> {
    let text = read_data(&format!("puzzles/{file}"))?;
    Some(
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(limit)
            .map(|l| l.chars().take(81).collect())
            .collect(),
    )
}

/// The default pipeline without the forcing chains and nets, as a file for `--pipeline`: the
/// pipeline for tests that need a solve to get stuck, since the default one now finishes every
/// known puzzle. [`pipeline_without_forcing`] checks it against the default pipeline.
pub const NO_FORCING_PIPELINE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/pipelines/no-forcing.ron"
);

/// The pipeline of [`NO_FORCING_PIPELINE`], checked to be the default pipeline with the
/// techniques of [`lapiz::technique::forcing::techniques`] left out (same order, same
/// `verify` and `step_limit`), so the fixture cannot drift from the default pipeline.
pub fn pipeline_without_forcing() -> lapiz::Pipeline {
    let forcing: Vec<String> = lapiz::technique::family("forcing")
        .expect("a family")
        .iter()
        .map(|t| t.id().to_string())
        .collect();
    let mut expected = lapiz::Pipeline::default_pipeline();
    expected.retain(|t| !forcing.iter().any(|f| f == t.id()));
    let p = lapiz::Pipeline::from_file(std::path::Path::new(NO_FORCING_PIPELINE))
        .expect("the no-forcing pipeline fixture loads");
    assert_eq!(
        p.ids(),
        expected.ids(),
        "{NO_FORCING_PIPELINE} is not the default pipeline without the forcing techniques"
    );
    assert_eq!(
        (p.verify(), p.step_limit()),
        (expected.verify(), expected.step_limit())
    );
    assert!(p.warnings().is_empty(), "{:?}", p.warnings());
    assert_eq!(p.name(), "default-without-forcing");
    p
}

/// [`NO_FORCING_PIPELINE`], once [`pipeline_without_forcing`] has checked it.
pub fn no_forcing_pipeline_file() -> &'static str {
    pipeline_without_forcing();
    NO_FORCING_PIPELINE
}

pub mod browser;
pub mod cli;
pub mod forcing;
pub mod plugins;
pub mod reglib;
pub mod serve;

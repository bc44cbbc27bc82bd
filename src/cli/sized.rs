//! Puzzles of every size on the command line: `--symbols` and `--box`, and reading a puzzle as
//! 9x9 (the full engine) or as another size (the size-generic core: brute force, singles,
//! pencil marks, generator).

use clap::Args;

use lapiz::ParseError;
use lapiz::model::Alphabet;

/// How to read puzzles of other sizes than 9x9.
#[derive(Args, Clone, Default)]
pub struct SizeArgs {
    /// The symbols of the puzzle, when not detected: `1-9A` (1-9 then A-Z; 16x16 `1-9A-G`),
    /// `0-9A` (16x16 `0-9A-F`, 0 standing for 16), `A-Z` (A for 1; 16x16 `A-P`) or `numbers`
    /// (whitespace-separated 1..n). Output is written in the input's symbols.
    #[arg(long, value_name = "ALPHABET")]
    pub symbols: Option<Alphabet>,
    /// The box shape, rows x columns (`3x4`), where several fit the size (6: 2x3 or 3x2, 8, 12,
    /// 16); the default is as square as the size allows, never taller than wide.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
    pub boxes: Option<(u8, u8)>,
}

/// Reads `RxC` (`--box`, and the server's `box` field).
pub fn parse_box(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("`{text}` is not a box shape (rows x columns, like 3x4)");
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    ))
}

impl SizeArgs {
    /// Reads a puzzle of any size with these options ([`lapiz::Puzzle::read`]).
    pub fn read(&self, text: &str) -> Result<lapiz::Puzzle, ParseError> {
        lapiz::Puzzle::read(text, self.symbols, self.boxes)
    }
}

/// Says once per run, on stderr, which plugin techniques of `pipeline` an `n x n` puzzle goes
/// without: ``note: plugin `x` (ABI v2) runs on 9x9 only; skipped on this 16x16 puzzle``
/// (plugins built before ABI version 3 run on 9x9 boards only; techniques of version 3 on the
/// sizes they declare). Each plugin and size is named once, however many puzzles follow.
pub fn note_skipped_plugins(pipeline: &lapiz::Pipeline, n: usize) {
    use std::sync::Mutex;
    static NOTED: Mutex<Vec<(String, usize, String)>> = Mutex::new(Vec::new());
    if n == 9 {
        return;
    }
    for skipped in lapiz::plugin::skipped_on(pipeline.techniques(), n) {
        let key = (skipped.path.clone(), n, skipped.why.clone());
        let mut noted = NOTED.lock().unwrap_or_else(|e| e.into_inner());
        if noted.contains(&key) {
            continue;
        }
        noted.push(key);
        drop(noted);
        super::diag(&format!(
            "note: {}",
            lapiz::text::printable(&skipped.to_string())
        ));
    }
}

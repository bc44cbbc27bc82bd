//! The `#[repr(C)]` types and constants of the plugin ABI, mirrored by
//! `include/lapiz_plugin.h` (a test compiles the header and checks every size, offset and
//! constant against these definitions).
//!
//! The host owns every buffer: a plugin never frees memory it did not allocate, and the
//! host never frees a plugin's. Strings in the descriptor are NUL-terminated UTF-8 that the
//! plugin keeps alive for the life of the process.

use std::ffi::{c_char, c_void};

/// The ABI version this crate describes. Any change to the types or rules below bumps it.
///
/// - Version 2 appended the houses buffer to [`LpOutput`].
/// - Version 3 carries the board's size: it appended [`LpTechnique::search_sized`] and
///   [`LpTechnique::sizes`], and a sized search reads an [`LpBoard`] (any size from 4x4 to
///   25x25: `n`, the box shape, `n * n` values and 32-bit candidate masks) and writes
///   [`LpSizedOutput`] (cells up to 624, digits up to 25, houses up to 74).
///
/// A host of version 3 also loads plugins built for versions 1 and 2, which run on 9x9 boards
/// only and never see the new fields (docs/plugins.md, "Versioning").
pub const LP_ABI_VERSION: u32 = 3;

/// The oldest ABI version whose [`LpTechnique`] has the sized fields (version 3); a table of an
/// older version has [`LpTechniqueV2`] entries.
pub const LP_ABI_SIZED: u32 = 3;

/// The symbol every plugin exports: `const LpPlugin *lapiz_plugin(void)`.
pub const LP_ENTRY_SYMBOL: &str = "lapiz_plugin";

/// Search status: the search ran to the end (or stopped because `emit` asked it to).
pub const LP_OK: i32 = 0;
/// Search status: the search failed; the explanation buffer holds the message.
pub const LP_ERROR: i32 = 1;
/// Search status: the search panicked (Rust) or aborted its work; the explanation buffer
/// may hold the message.
pub const LP_PANIC: i32 = 2;

/// `emit` answer: keep searching.
pub const LP_CONTINUE: i32 = 0;
/// `emit` answer: the host wants no more steps; return `LP_OK` now.
pub const LP_STOP: i32 = 1;
/// `emit` answer: the host refused the step (overflowing lengths, a cell or digit out of
/// range, a bad role or text); the technique is disabled, so return now.
pub const LP_REJECTED: i32 = 2;

/// Technique flag: the technique is only sound on puzzles with a unique solution
/// (uniqueness techniques such as BUG+1); the host runs it only on such puzzles.
pub const LP_NEEDS_UNIQUENESS: u32 = 1;

/// Roles of highlighted candidates, so a renderer can colour them (`LpHighlight::role`).
pub const LP_ROLE_PATTERN: u8 = 0;
/// Base candidates (fish, locked candidates).
pub const LP_ROLE_BASE: u8 = 1;
/// Cover candidates (fish).
pub const LP_ROLE_COVER: u8 = 2;
/// Fin candidates (fish).
pub const LP_ROLE_FIN: u8 = 3;
/// Pivot of a wing.
pub const LP_ROLE_PIVOT: u8 = 4;
/// Pincer of a wing.
pub const LP_ROLE_PINCER: u8 = 5;
/// A link of a chain.
pub const LP_ROLE_LINK: u8 = 6;
/// First colour of a colouring or chain.
pub const LP_ROLE_COLOR_A: u8 = 7;
/// Second colour of a colouring or chain.
pub const LP_ROLE_COLOR_B: u8 = 8;

/// Capacities of the buffers the host hands to a search (a host may give more, never less).
pub const LP_MIN_PLACEMENTS: u32 = 81;
/// At least this many eliminations fit.
pub const LP_MIN_ELIMINATIONS: u32 = 729;
/// At least this many highlighted candidates fit.
pub const LP_MIN_HIGHLIGHTS: u32 = 1024;
/// At least this many bytes of explanation (or error message) fit.
pub const LP_MIN_EXPLANATION: u32 = 1024;
/// At least this many houses fit (version 2).
pub const LP_MIN_HOUSES: u32 = 27;

/// The largest board side a sized search may get (version 3): boards are 4x4 to 25x25.
pub const LP_MAX_SIZE: u32 = 25;
/// The cells of the largest board, the length of [`LpBoard`]'s arrays (version 3).
pub const LP_MAX_CELLS: u32 = 625;
/// [`LpTechnique::sizes`]: every size lapiz runs (now and later).
pub const LP_EVERY_SIZE: u32 = u32::MAX;
/// Capacities of a sized search's buffers, whatever the board's size (version 3): at least
/// this many placements fit ...
pub const LP_SIZED_MIN_PLACEMENTS: u32 = 625;
/// ... this many eliminations (every candidate of a 25x25 board) ...
pub const LP_SIZED_MIN_ELIMINATIONS: u32 = 15625;
/// ... this many highlighted candidates ...
pub const LP_SIZED_MIN_HIGHLIGHTS: u32 = 15625;
/// ... and this many houses (the 75 of a 25x25 board). The explanation holds at least
/// [`LP_MIN_EXPLANATION`] bytes, as in a 9x9 search.
pub const LP_SIZED_MIN_HOUSES: u32 = 75;

/// The bit of [`LpTechnique::sizes`] that says a technique runs on `n x n` boards.
pub const fn lp_size(n: u32) -> u32 {
    if n < 32 { 1 << n } else { 0 }
}

/// The grid a search reads. Cells are numbered 0..81 row by row (`r1c1` is 0, `r9c9` 80).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LpGrid {
    /// The digit of each cell, 0 when empty.
    pub values: [u8; 81],
    /// The candidates of each empty cell: bit `d - 1` for digit `d`; 0 for filled cells.
    pub candidates: [u16; 81],
}

/// A candidate: a cell (0..81) and a digit (1..=9).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LpCandidate {
    /// Cell index, 0..81.
    pub cell: u8,
    /// Digit, 1..=9.
    pub digit: u8,
}

/// A highlighted candidate with its role (`LP_ROLE_*`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LpHighlight {
    /// Cell index, 0..81.
    pub cell: u8,
    /// Digit, 1..=9.
    pub digit: u8,
    /// One of the `LP_ROLE_*` constants.
    pub role: u8,
}

/// Called by a search for each step it has written into the output buffers. The host copies
/// the step out, sets every length back to 0 and answers `LP_CONTINUE`, `LP_STOP` or
/// `LP_REJECTED`. Call it only on the thread running the search, before the search returns,
/// and never from two threads at once.
pub type LpEmitFn = unsafe extern "C" fn(out: *mut LpOutput) -> i32;

/// The host-owned output of one search: buffers with capacities and lengths, the step's
/// difficulty, and the `emit` callback. A search fills the buffers for one step (lengths
/// never above capacities), calls `emit(out)`, and goes on to the next step. Fields are only
/// ever appended, in a new ABI version; `struct_size` says how many the host's output has.
#[repr(C)]
#[derive(Debug)]
pub struct LpOutput {
    /// Placements of the step.
    pub placements: *mut LpCandidate,
    /// Capacity of `placements` (at least `LP_MIN_PLACEMENTS`).
    pub placements_cap: u32,
    /// Placements written.
    pub placements_len: u32,
    /// Eliminations of the step.
    pub eliminations: *mut LpCandidate,
    /// Capacity of `eliminations` (at least `LP_MIN_ELIMINATIONS`).
    pub eliminations_cap: u32,
    /// Eliminations written.
    pub eliminations_len: u32,
    /// The candidates that justify the step, with their roles.
    pub highlights: *mut LpHighlight,
    /// Capacity of `highlights` (at least `LP_MIN_HIGHLIGHTS`).
    pub highlights_cap: u32,
    /// Highlights written.
    pub highlights_len: u32,
    /// UTF-8 explanation of the step (no NUL needed), or the error message with `LP_ERROR`.
    pub explanation: *mut u8,
    /// Capacity of `explanation` in bytes (at least `LP_MIN_EXPLANATION`).
    pub explanation_cap: u32,
    /// Bytes written.
    pub explanation_len: u32,
    /// The step's difficulty; 0 (the host's reset value) means the technique's.
    pub difficulty: f32,
    /// `sizeof(LpOutput)` as the host sees it.
    pub struct_size: u32,
    /// The host's context for `emit`; a plugin leaves it alone.
    pub host: *mut c_void,
    /// Hands the written step to the host.
    pub emit: LpEmitFn,
    /// Version 2: the houses the step's pattern uses, by index: rows 0-8, columns 9-17,
    /// boxes 18-26 (lapiz names them in explanations, the viewer draws them).
    pub houses: *mut u8,
    /// Capacity of `houses` (at least `LP_MIN_HOUSES`).
    pub houses_cap: u32,
    /// Houses written.
    pub houses_len: u32,
}

/// The board a sized search reads (version 3): any size from 4x4 to 25x25. Cells are
/// numbered `0 .. n * n` row by row (`r1c1` is 0, the last cell `n * n - 1`); houses are the
/// `n` rows (`0 .. n`), the `n` columns (`n .. 2n`) and the `n` boxes (`2n .. 3n`, boxes
/// numbered row by row, each `box_rows` rows by `box_cols` columns). Entries past
/// `cells` are 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LpBoard {
    /// The side `n`: 4, 6, 8, 9, 12, 16 or 25 (digits are `1..=n`).
    pub n: u32,
    /// Rows of a box.
    pub box_rows: u32,
    /// Columns of a box (`box_rows * box_cols == n`).
    pub box_cols: u32,
    /// `n * n`.
    pub cells: u32,
    /// The candidates of each empty cell: bit `d - 1` for digit `d`; 0 for filled cells.
    pub candidates: [u32; 625],
    /// The digit of each cell, 0 when empty.
    pub values: [u8; 625],
}

/// A candidate of a sized search (version 3): a cell (`0 .. n * n`) and a digit (`1..=n`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LpSizedCandidate {
    /// Cell index, `0 .. n * n`.
    pub cell: u16,
    /// Digit, `1..=n`.
    pub digit: u8,
}

/// A highlighted candidate of a sized search with its role (`LP_ROLE_*`), version 3.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LpSizedHighlight {
    /// Cell index, `0 .. n * n`.
    pub cell: u16,
    /// Digit, `1..=n`.
    pub digit: u8,
    /// One of the `LP_ROLE_*` constants.
    pub role: u8,
}

/// `emit` of a sized search: as [`LpEmitFn`], for an [`LpSizedOutput`].
pub type LpSizedEmitFn = unsafe extern "C" fn(out: *mut LpSizedOutput) -> i32;

/// The host-owned output of one sized search (version 3): [`LpOutput`]'s fields and rules,
/// with wide candidates and every capacity at least the `LP_SIZED_MIN_*` constants.
#[repr(C)]
#[derive(Debug)]
pub struct LpSizedOutput {
    /// Placements of the step.
    pub placements: *mut LpSizedCandidate,
    /// Capacity of `placements` (at least `LP_SIZED_MIN_PLACEMENTS`).
    pub placements_cap: u32,
    /// Placements written.
    pub placements_len: u32,
    /// Eliminations of the step.
    pub eliminations: *mut LpSizedCandidate,
    /// Capacity of `eliminations` (at least `LP_SIZED_MIN_ELIMINATIONS`).
    pub eliminations_cap: u32,
    /// Eliminations written.
    pub eliminations_len: u32,
    /// The candidates that justify the step, with their roles.
    pub highlights: *mut LpSizedHighlight,
    /// Capacity of `highlights` (at least `LP_SIZED_MIN_HIGHLIGHTS`).
    pub highlights_cap: u32,
    /// Highlights written.
    pub highlights_len: u32,
    /// The houses the step's pattern uses: rows `0 .. n`, columns `n .. 2n`, boxes
    /// `2n .. 3n`.
    pub houses: *mut u8,
    /// Capacity of `houses` (at least `LP_SIZED_MIN_HOUSES`).
    pub houses_cap: u32,
    /// Houses written.
    pub houses_len: u32,
    /// UTF-8 explanation of the step (no NUL needed), or the error message with `LP_ERROR`.
    pub explanation: *mut u8,
    /// Capacity of `explanation` in bytes (at least `LP_MIN_EXPLANATION`).
    pub explanation_cap: u32,
    /// Bytes written.
    pub explanation_len: u32,
    /// The step's difficulty; 0 (the host's reset value) means the technique's.
    pub difficulty: f32,
    /// `sizeof(LpSizedOutput)` as the host sees it.
    pub struct_size: u32,
    /// The host's context for `emit`; a plugin leaves it alone.
    pub host: *mut c_void,
    /// Hands the written step to the host.
    pub emit: LpSizedEmitFn,
}

/// A sized search (version 3): reads `board`, writes steps to `out`, returns `LP_OK`,
/// `LP_ERROR` or `LP_PANIC`, under the rules of [`LpSearchFn`].
pub type LpSizedSearchFn = unsafe extern "C" fn(
    context: *const c_void,
    board: *const LpBoard,
    out: *mut LpSizedOutput,
) -> i32;

/// A technique's search: reads `grid`, writes steps to `out`, returns `LP_OK`, `LP_ERROR` or
/// `LP_PANIC`. It may be called from several threads at once (with different outputs), so it
/// must not mutate shared state without synchronisation.
pub type LpSearchFn =
    unsafe extern "C" fn(context: *const c_void, grid: *const LpGrid, out: *mut LpOutput) -> i32;

/// One technique a plugin offers (version 3; [`LpTechniqueV2`] in tables of versions 1 and 2).
///
/// A technique has one search: `search` (the 9x9 grid of versions 1 and 2: it runs on 9x9
/// boards only) or `search_sized` (any size: it runs on the sizes `sizes` names, 9x9 among
/// them if named), never both.
#[repr(C)]
#[derive(Debug)]
pub struct LpTechnique {
    /// Stable id, e.g. `remote-pairs-rs`: lowercase letters, digits, `-` and `_`.
    pub id: *const c_char,
    /// Display name, e.g. `Remote Pair`.
    pub name: *const c_char,
    /// HoDoKu library codes it answers, comma separated (e.g. `0703`), or null.
    pub codes: *const c_char,
    /// Difficulty on Sudoku Explainer's scale.
    pub difficulty: f32,
    /// `LP_NEEDS_UNIQUENESS` or 0.
    pub flags: u32,
    /// Passed back to `search` untouched.
    pub context: *const c_void,
    /// The 9x9 search, or null when `search_sized` is given.
    pub search: Option<LpSearchFn>,
    /// Version 3: the search of every size, or null when `search` is given.
    pub search_sized: Option<LpSizedSearchFn>,
    /// Version 3: the sizes `search_sized` runs on, `lp_size(n)` for each (`LP_EVERY_SIZE`
    /// for every size); bits of sizes lapiz does not have are ignored. 0 with `search`.
    pub sizes: u32,
}

/// A technique as tables of versions 1 and 2 describe it: [`LpTechnique`] without the sized
/// fields (what `#define LP_ABI_TARGET 2` gives in C).
#[repr(C)]
#[derive(Debug)]
pub struct LpTechniqueV2 {
    /// As in [`LpTechnique`].
    pub id: *const c_char,
    /// As in [`LpTechnique`].
    pub name: *const c_char,
    /// As in [`LpTechnique`].
    pub codes: *const c_char,
    /// As in [`LpTechnique`].
    pub difficulty: f32,
    /// As in [`LpTechnique`].
    pub flags: u32,
    /// As in [`LpTechnique`].
    pub context: *const c_void,
    /// The 9x9 search.
    pub search: Option<LpSearchFn>,
}

/// What `lapiz_plugin()` returns: the plugin's descriptor table, alive for the life of the
/// process.
#[repr(C)]
#[derive(Debug)]
pub struct LpPlugin {
    /// `LP_ABI_VERSION` of the headers the plugin was built with.
    pub abi_version: u32,
    /// `sizeof(LpPlugin)` as the plugin sees it.
    pub struct_size: u32,
    /// `sizeof(LpTechnique)` as the plugin sees it (the version's: [`LpTechniqueV2`]'s
    /// below version 3).
    pub technique_size: u32,
    /// How many techniques `techniques` points to.
    pub technique_count: u32,
    /// The techniques.
    pub techniques: *const LpTechnique,
    /// The plugin's name, e.g. `example-rust`.
    pub name: *const c_char,
}

/// The type of the entry symbol `lapiz_plugin`.
pub type LpEntryFn = unsafe extern "C" fn() -> *const LpPlugin;

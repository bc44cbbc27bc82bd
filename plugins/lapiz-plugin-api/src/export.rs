//! The safe Rust side: [`PluginTechnique`], [`Step`], [`Output`] and the [`export_plugin!`](crate::export_plugin!)
//! machinery that turns them into the C descriptor table.

use std::ffi::{CString, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::abi::*;
use crate::grid::{Board, Grid};

/// What a highlighted candidate does in a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Role {
    /// The candidates that make the pattern.
    Pattern = LP_ROLE_PATTERN,
    /// Base candidates.
    Base = LP_ROLE_BASE,
    /// Cover candidates.
    Cover = LP_ROLE_COVER,
    /// Fin candidates.
    Fin = LP_ROLE_FIN,
    /// Pivot of a wing.
    Pivot = LP_ROLE_PIVOT,
    /// Pincer of a wing.
    Pincer = LP_ROLE_PINCER,
    /// A chain link.
    Link = LP_ROLE_LINK,
    /// First colour.
    ColorA = LP_ROLE_COLOR_A,
    /// Second colour.
    ColorB = LP_ROLE_COLOR_B,
}

/// One step a plugin found: placements and/or eliminations, highlighted candidates, the
/// houses its pattern uses, the explanation, and optionally its own difficulty.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    /// `(cell, digit)` placed. Cells are `0 .. n * n` row by row (0..81 on 9x9).
    pub placements: Vec<(u16, u8)>,
    /// `(cell, digit)` removed.
    pub eliminations: Vec<(u16, u8)>,
    /// `(cell, digit, role)` that justify the step.
    pub highlights: Vec<(u16, u8, Role)>,
    /// The houses the pattern uses: rows `0 .. n`, columns `n .. 2n`, boxes `2n .. 3n` (on
    /// 9x9: rows 0-8, columns 9-17, boxes 18-26, as in [`HOUSES`]).
    ///
    /// [`HOUSES`]: crate::HOUSES
    pub houses: Vec<u8>,
    /// E.g. `Remote Pair: 1/2 r1c1-r1c5-r3c4-r3c9 => r1c8<>1,2`.
    pub explanation: String,
    /// The step's difficulty when it differs from the technique's.
    pub difficulty: Option<f32>,
}

impl Step {
    /// An empty step with its explanation.
    pub fn new(explanation: impl Into<String>) -> Step {
        Step {
            explanation: explanation.into(),
            ..Step::default()
        }
    }

    /// Adds a placement (a 9x9 grid's `u8` cells and a board's `u16` cells both fit).
    pub fn place(mut self, cell: impl Into<u16>, digit: u8) -> Step {
        self.placements.push((cell.into(), digit));
        self
    }

    /// Adds an elimination.
    pub fn eliminate(mut self, cell: impl Into<u16>, digit: u8) -> Step {
        self.eliminations.push((cell.into(), digit));
        self
    }

    /// Adds a highlighted candidate.
    pub fn highlight(mut self, cell: impl Into<u16>, digit: u8, role: Role) -> Step {
        self.highlights.push((cell.into(), digit, role));
        self
    }

    /// Adds a house the pattern uses: rows `0 .. n`, columns `n .. 2n`, boxes `2n .. 3n`
    /// (9x9: rows 0-8, columns 9-17, boxes 18-26).
    pub fn house(mut self, house: u8) -> Step {
        self.houses.push(house);
        self
    }

    /// Sets the step's own difficulty.
    pub fn rated(mut self, difficulty: f32) -> Step {
        self.difficulty = Some(difficulty);
        self
    }
}

/// Why a search ended early: the host asked for no more steps (not a failure), or the search
/// failed with a message.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The host wants no more steps (or refused one): return at once. Not a failure.
    Stop,
    /// The search failed; the message reaches the user.
    Failed(String),
}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Failed(message)
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Error {
        Error::Failed(message.to_string())
    }
}

/// Where a search hands its steps: a safe wrapper of the host's [`LpSizedOutput`].
pub struct Output<'a> {
    raw: &'a mut LpSizedOutput,
}

impl Output<'_> {
    /// Copies `step` into the host's buffers and hands it over. `Err(Error::Stop)` means
    /// return now (`?` does it); a step too large for the buffers is an error.
    pub fn emit(&mut self, step: &Step) -> Result<(), Error> {
        emit_sized(self.raw, step)
    }

    /// The host's raw output, for authors who write the buffers themselves (lengths never
    /// above capacities, then call `emit`).
    ///
    /// # Safety
    /// Writes through the buffer pointers must stay within their capacities.
    pub unsafe fn raw(&mut self) -> &mut LpSizedOutput {
        self.raw
    }
}

/// Checks a buffer's capacity.
fn fits(what: &str, len: usize, cap: u32) -> Result<(), Error> {
    if len > cap as usize {
        return Err(Error::Failed(format!(
            "step has {len} {what}, the host's buffer holds {cap}"
        )));
    }
    Ok(())
}

fn emit_sized(o: &mut LpSizedOutput, step: &Step) -> Result<(), Error> {
    fits("placements", step.placements.len(), o.placements_cap)?;
    fits("eliminations", step.eliminations.len(), o.eliminations_cap)?;
    fits("highlights", step.highlights.len(), o.highlights_cap)?;
    fits("houses", step.houses.len(), o.houses_cap)?;
    // SAFETY: the host guarantees each pointer is valid for its capacity, checked above.
    unsafe {
        for (i, &(cell, digit)) in step.placements.iter().enumerate() {
            *o.placements.add(i) = LpSizedCandidate { cell, digit };
        }
        for (i, &(cell, digit)) in step.eliminations.iter().enumerate() {
            *o.eliminations.add(i) = LpSizedCandidate { cell, digit };
        }
        for (i, &(cell, digit, role)) in step.highlights.iter().enumerate() {
            *o.highlights.add(i) = LpSizedHighlight {
                cell,
                digit,
                role: role as u8,
            };
        }
        std::ptr::copy_nonoverlapping(step.houses.as_ptr(), o.houses, step.houses.len());
    }
    let text = truncate(&step.explanation, o.explanation_cap as usize);
    // SAFETY: `text` fits the explanation buffer.
    unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), o.explanation, text.len()) };
    o.placements_len = step.placements.len() as u32;
    o.eliminations_len = step.eliminations.len() as u32;
    o.highlights_len = step.highlights.len() as u32;
    o.houses_len = step.houses.len() as u32;
    o.explanation_len = text.len() as u32;
    o.difficulty = step.difficulty.unwrap_or(0.0);
    // SAFETY: `emit` is the host's callback for this very output.
    match unsafe { (o.emit)(o) } {
        LP_CONTINUE => Ok(()),
        _ => Err(Error::Stop),
    }
}

/// The longest prefix of `text` of at most `cap` bytes that ends on a character boundary.
fn truncate(text: &str, cap: usize) -> &str {
    if text.len() <= cap {
        return text;
    }
    let mut end = cap;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A technique written in Rust, exported with [`export_plugin!`](crate::export_plugin!). Searches may run on
/// several threads at once, hence `Sync`.
pub trait PluginTechnique: Send + Sync + 'static {
    /// Stable id: lowercase letters, digits, `-` and `_` (e.g. `remote-pairs-rs`).
    fn id(&self) -> &str;
    /// Display name.
    fn name(&self) -> &str;
    /// Difficulty on Sudoku Explainer's scale.
    fn difficulty(&self) -> f32;
    /// HoDoKu library codes it answers, comma separated (e.g. `0703`).
    fn codes(&self) -> &str {
        ""
    }
    /// Whether it is only sound on puzzles with one solution.
    fn needs_uniqueness(&self) -> bool {
        false
    }
    /// Searches a 9x9 `grid` and emits every step found (stop when `emit` says so). What a
    /// technique of ABI versions 1 and 2 implements; one that overrides
    /// [`PluginTechnique::find_sized`] need not (the default fails).
    fn find(&self, grid: &Grid<'_>, out: &mut Output<'_>) -> Result<(), Error> {
        let _ = (grid, out);
        Err(Error::Failed(format!(
            "`{}` implements neither find nor find_sized",
            self.id()
        )))
    }
    /// Whether the technique runs on `n x n` boards (ABI version 3; the default: 9x9 only).
    /// Asked once, when lapiz loads the plugin, for every `n` below 32.
    fn runs_on(&self, n: usize) -> bool {
        n == 9
    }
    /// Searches a board of any size it runs on ([`PluginTechnique::runs_on`]) and emits every
    /// step found. The default hands a 9x9 board to [`PluginTechnique::find`] and fails on
    /// other sizes.
    fn find_sized(&self, board: &Board<'_>, out: &mut Output<'_>) -> Result<(), Error> {
        match board.to_grid() {
            Some(grid) => self.find(&Grid::new(&grid), out),
            None => Err(Error::Failed(format!(
                "`{}` runs on 9x9 boards only, not {n}x{n}",
                self.id(),
                n = board.n()
            ))),
        }
    }
}

/// The descriptor table built once per plugin: the C strings and arrays it points into live
/// with it, for the life of the process. Used by [`export_plugin!`].
#[doc(hidden)]
pub struct Table {
    plugin: LpPlugin,
    _entries: Vec<LpTechnique>,
    _strings: Vec<CString>,
    // Boxed twice: the outer box gives each technique a thin pointer that stays put, which is
    // the search's `context`.
    #[allow(clippy::vec_box)]
    _techniques: Vec<Box<Box<dyn PluginTechnique>>>,
}

// SAFETY: the table is immutable once built; its raw pointers point into data it owns, and the
// techniques are `Sync`.
unsafe impl Send for Table {}
// SAFETY: as above.
unsafe impl Sync for Table {}

fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "")).expect("NULs removed")
}

/// Builds the descriptor table (once; `cell` is the exporting function's static). Returns null
/// when building panics. Used by [`export_plugin!`].
#[doc(hidden)]
pub fn __describe(
    cell: &'static std::sync::OnceLock<Option<Table>>,
    name: &str,
    make: fn() -> Vec<Box<dyn PluginTechnique>>,
) -> *const LpPlugin {
    let built = cell.get_or_init(|| {
        quiet_panics_in_searches();
        catch_unwind(AssertUnwindSafe(|| {
            let techniques: Vec<Box<Box<dyn PluginTechnique>>> =
                make().into_iter().map(Box::new).collect();
            let mut strings = Vec::new();
            let mut entries = Vec::new();
            for t in &techniques {
                let (id, tname, codes) =
                    (c_string(t.id()), c_string(t.name()), c_string(t.codes()));
                let sizes = (0..32u32)
                    .filter(|&n| t.runs_on(n as usize))
                    .fold(0, |mask, n| mask | lp_size(n));
                entries.push(LpTechnique {
                    id: id.as_ptr(),
                    name: tname.as_ptr(),
                    codes: codes.as_ptr(),
                    difficulty: t.difficulty(),
                    flags: if t.needs_uniqueness() {
                        LP_NEEDS_UNIQUENESS
                    } else {
                        0
                    },
                    context: &**t as *const Box<dyn PluginTechnique> as *const c_void,
                    search: None,
                    search_sized: Some(sized_trampoline),
                    sizes,
                });
                strings.extend([id, tname, codes]);
            }
            let plugin_name = c_string(name);
            let plugin = LpPlugin {
                abi_version: LP_ABI_VERSION,
                struct_size: size_of::<LpPlugin>() as u32,
                technique_size: size_of::<LpTechnique>() as u32,
                technique_count: entries.len() as u32,
                techniques: entries.as_ptr(),
                name: plugin_name.as_ptr(),
            };
            strings.push(plugin_name);
            Table {
                plugin,
                _entries: entries,
                _strings: strings,
                _techniques: techniques,
            }
        }))
        .ok()
    });
    match built {
        Some(table) => &table.plugin,
        None => std::ptr::null(),
    }
}

thread_local! {
    /// Whether this thread is inside a search, whose panics are caught and reported to the host.
    static IN_SEARCH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs (in this plugin's own copy of std) a panic hook that stays silent for panics
/// inside a search, which reach the user through the host's error, and prints the others as
/// before.
fn quiet_panics_in_searches() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !IN_SEARCH.with(|s| s.get()) {
            previous(info);
        }
    }));
}

/// Runs `find` with panics caught; `Err` is the status and message of a failed search.
fn run_caught(find: impl FnOnce() -> Result<(), Error>) -> Result<(), (i32, String)> {
    IN_SEARCH.with(|s| s.set(true));
    let result = catch_unwind(AssertUnwindSafe(find));
    IN_SEARCH.with(|s| s.set(false));
    match result {
        Ok(Ok(())) | Ok(Err(Error::Stop)) => Ok(()),
        Ok(Err(Error::Failed(m))) => Err((LP_ERROR, m)),
        Err(payload) => {
            let m = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic with a non-text payload".into());
            // A payload whose destructor panics must not unwind out of here either.
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            Err((LP_PANIC, m))
        }
    }
}

/// Writes a failed search's message into the explanation buffer; returns its status.
///
/// # Safety
/// `buffer` holds `cap` bytes.
unsafe fn report(status: i32, message: &str, buffer: *mut u8, cap: u32, len: &mut u32) -> i32 {
    let text = truncate(message, cap as usize);
    // SAFETY: the explanation buffer holds `cap` bytes.
    unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), buffer, text.len()) };
    *len = text.len() as u32;
    status
}

/// The sized C search function (ABI version 3) of every Rust technique: runs `find_sized`
/// with panics caught.
unsafe extern "C" fn sized_trampoline(
    context: *const c_void,
    board: *const LpBoard,
    out: *mut LpSizedOutput,
) -> i32 {
    if context.is_null() || board.is_null() || out.is_null() {
        return LP_ERROR;
    }
    // SAFETY: `context` is the technique box this table made; the host passes a valid board
    // and output for the duration of the call.
    let (technique, board, out) = unsafe {
        (
            &*(context as *const Box<dyn PluginTechnique>),
            &*board,
            &mut *out,
        )
    };
    let result = run_caught(|| {
        let mut output = Output { raw: &mut *out };
        technique.find_sized(&Board::new(board), &mut output)
    });
    match result {
        Ok(()) => LP_OK,
        // SAFETY: the explanation buffer holds `explanation_cap` bytes.
        Err((status, m)) => unsafe {
            report(
                status,
                &m,
                out.explanation,
                out.explanation_cap,
                &mut out.explanation_len,
            )
        },
    }
}

/// Exports a plugin: `export_plugin!("name", [TechniqueA, TechniqueB::new(3)]);` defines the
/// entry symbol `lapiz_plugin` returning the descriptor of these techniques.
#[macro_export]
macro_rules! export_plugin {
    ($name:expr, [$($technique:expr),* $(,)?]) => {
        /// The lapiz plugin entry point.
        #[unsafe(no_mangle)]
        pub extern "C" fn lapiz_plugin() -> *const $crate::abi::LpPlugin {
            static TABLE: ::std::sync::OnceLock<::std::option::Option<$crate::__Table>> =
                ::std::sync::OnceLock::new();
            fn make() -> ::std::vec::Vec<::std::boxed::Box<dyn $crate::PluginTechnique>> {
                ::std::vec![$(::std::boxed::Box::new($technique)),*]
            }
            $crate::__describe(&TABLE, $name, make)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_keeps_characters_whole() {
        assert_eq!(truncate("r1c1<>5", 100), "r1c1<>5");
        assert_eq!(truncate("ab€", 4), "ab");
        assert_eq!(truncate("ab€", 5), "ab€");
    }
}

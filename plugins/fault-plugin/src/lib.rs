//! A misbehaving plugin, built only by lapiz's tests: each technique breaks one rule of the
//! plugin ABI, so the tests can show that the host reports it clearly and carries on. Every
//! technique runs on every size (ABI version 3), so each rule is broken on 16x16 boards too.

use lapiz_plugin_api::abi::{LP_REJECTED, LpSizedCandidate, LpSizedHighlight};
use lapiz_plugin_api::{Board, Error, Output, PluginTechnique, Step};

lapiz_plugin_api::export_plugin!(
    "fault-plugin",
    [
        Fault::Panic,
        Fault::Error,
        Fault::CellOutOfRange,
        Fault::DigitOutOfRange,
        Fault::Overflow,
        Fault::BadRole,
        Fault::BadText,
        Fault::BadDifficulty,
        Fault::SwappedBuffers,
        Fault::HouseOutOfRange,
        Fault::Flood,
        Fault::Unsound,
    ]
);

/// The ways this plugin misbehaves, one technique each.
pub enum Fault {
    /// Panics inside the search.
    Panic,
    /// Returns an error status with a message.
    Error,
    /// Eliminates a candidate of cell `n * n` (cells are `0 .. n * n`).
    CellOutOfRange,
    /// Eliminates digit `n + 1` from a cell (digits are `1..=n`).
    DigitOutOfRange,
    /// Reports more eliminations than the buffer holds.
    Overflow,
    /// Highlights a candidate with role 200.
    BadRole,
    /// Writes an explanation that is not UTF-8.
    BadText,
    /// Rates its step 99.
    BadDifficulty,
    /// Shrinks the eliminations buffer's capacity before emitting.
    SwappedBuffers,
    /// Names house `3n` (houses are `0 .. 3n`).
    HouseOutOfRange,
    /// Emits the same sound step again and again, whatever the host answers.
    Flood,
    /// Eliminates every candidate of the first empty cell, the solution's among them.
    Unsound,
}

impl PluginTechnique for Fault {
    fn id(&self) -> &str {
        match self {
            Fault::Panic => "fault-panic",
            Fault::Error => "fault-error",
            Fault::CellOutOfRange => "fault-cell-range",
            Fault::DigitOutOfRange => "fault-digit-range",
            Fault::Overflow => "fault-overflow",
            Fault::BadRole => "fault-bad-role",
            Fault::BadText => "fault-bad-text",
            Fault::BadDifficulty => "fault-bad-difficulty",
            Fault::SwappedBuffers => "fault-swapped-buffers",
            Fault::HouseOutOfRange => "fault-house-range",
            Fault::Flood => "fault-flood",
            Fault::Unsound => "fault-unsound",
        }
    }
    fn name(&self) -> &str {
        "Fault"
    }
    fn difficulty(&self) -> f32 {
        1.0
    }
    fn runs_on(&self, _n: usize) -> bool {
        true
    }
    fn find_sized(&self, grid: &Board<'_>, out: &mut Output<'_>) -> Result<(), Error> {
        let Some(first) = grid.empty_cells().next() else {
            return Ok(());
        };
        let n = grid.n();
        match self {
            Fault::Panic => panic!("deliberate panic in the fault plugin"),
            Fault::Error => Err("deliberate failure: the search gave up".into()),
            Fault::CellOutOfRange => {
                out.emit(&Step::new("bad cell").eliminate(grid.cell_count() as u16, 1))
            }
            Fault::DigitOutOfRange => {
                out.emit(&Step::new("bad digit").eliminate(first, n as u8 + 1))
            }
            Fault::Overflow => {
                // SAFETY: only lengths are written; the host must catch the lie.
                let raw = unsafe { out.raw() };
                raw.eliminations_len = raw.eliminations_cap + 1;
                // SAFETY: the host's own callback for this output.
                unsafe { (raw.emit)(raw) };
                Ok(())
            }
            Fault::BadRole => {
                // SAFETY: one highlight fits every host buffer (capacity at least 1024).
                let raw = unsafe { out.raw() };
                unsafe {
                    *raw.highlights = LpSizedHighlight {
                        cell: first,
                        digit: 1,
                        role: 200,
                    };
                    *raw.eliminations = LpSizedCandidate {
                        cell: first,
                        digit: grid.candidates(first).trailing_zeros() as u8 + 1,
                    };
                }
                raw.highlights_len = 1;
                raw.eliminations_len = 1;
                // SAFETY: the host's own callback for this output.
                unsafe { (raw.emit)(raw) };
                Ok(())
            }
            Fault::BadText => {
                // SAFETY: two bytes fit every host's explanation buffer.
                let raw = unsafe { out.raw() };
                unsafe {
                    *raw.explanation = 0xff;
                    *raw.explanation.add(1) = 0xfe;
                }
                raw.explanation_len = 2;
                // SAFETY: the host's own callback for this output.
                unsafe { (raw.emit)(raw) };
                Ok(())
            }
            Fault::BadDifficulty => out.emit(&Step::new("rated 99").rated(99.0)),
            Fault::HouseOutOfRange => out.emit(&Step::new("bad house").house(3 * n as u8)),
            Fault::SwappedBuffers => {
                // SAFETY: only a capacity is changed; the host must notice.
                let raw = unsafe { out.raw() };
                raw.eliminations_cap -= 1;
                // SAFETY: the host's own callback for this output.
                unsafe { (raw.emit)(raw) };
                Ok(())
            }
            Fault::Flood => {
                // a filled cell's digit is never a candidate: the step changes nothing, but
                // the host must stop the flood before memory runs out
                let step = Step::new("again and again").place(first, 1);
                // SAFETY: the raw output is only used to call the host's `emit` again.
                let raw = unsafe { out.raw() };
                for _ in 0..1_000_000 {
                    unsafe {
                        (*raw.placements) = LpSizedCandidate {
                            cell: step.placements[0].0,
                            digit: step.placements[0].1,
                        };
                        raw.placements_len = 1;
                        if (raw.emit)(raw) == LP_REJECTED {
                            break;
                        }
                    }
                }
                Ok(())
            }
            Fault::Unsound => {
                let mut step = Step::new("Fault: removes every candidate of a cell");
                for d in 1..=n as u8 {
                    if grid.has(first, d) {
                        step = step.eliminate(first, d);
                    }
                }
                out.emit(&step)
            }
        }
    }
}

//! A plugin's search in lapiz's own process: the C ABI's output buffers, the `emit` callback and
//! the checks every emitted step passes before it reaches the pipeline.

use std::ffi::c_void;

use lapiz_plugin_api::abi::*;

use super::{Descriptor, MAX_STEPS_PER_SEARCH, PluginTechnique};
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::model::cell::{Cell, House};
use crate::model::grid::{Candidate, Grid};
use crate::step::{Highlight, Role, Step, eliminations_text};
use crate::technique::{StepSink, TechniqueError};

const PLACEMENTS_CAP: usize = LP_MIN_PLACEMENTS as usize;
const ELIMINATIONS_CAP: usize = LP_MIN_ELIMINATIONS as usize;
const HIGHLIGHTS_CAP: usize = LP_MIN_HIGHLIGHTS as usize;
const EXPLANATION_CAP: usize = LP_MIN_EXPLANATION as usize;
const HOUSES_CAP: usize = LP_MIN_HOUSES as usize;

/// The host's side of one search, reached from `emit` through `LpOutput::host`.
struct Session<'a, 'b> {
    technique: &'a Descriptor,
    sink: &'a mut StepSink<'b>,
    /// The buffers as handed out, to catch a plugin that swaps them.
    buffers: [(usize, u32); 5],
    /// Whether the plugin knows the houses buffer (ABI version 2 or later); an older one's
    /// steps have no houses.
    houses: bool,
    /// Why the host refused a step; the search fails with it.
    refused: Option<String>,
    /// The sink wants no more steps (or a step was refused).
    stopped: bool,
    /// Steps emitted so far.
    emitted: usize,
}

/// Runs a plugin's search in this process: the grid and the output buffers on the stack, each
/// step the plugin emits read and checked ([`read_step`]) and handed to `sink`.
pub(super) fn search(
    technique: &PluginTechnique,
    context: *const c_void,
    search: LpSearchFn,
    houses: bool,
    grid: &Grid,
    sink: &mut StepSink<'_>,
) -> Result<(), TechniqueError> {
    let mut raw = LpGrid {
        values: *grid.values(),
        candidates: [0; 81],
    };
    for cell in grid.empty_cells() {
        raw.candidates[cell.index()] = grid.candidates(cell);
    }
    let mut placements = [LpCandidate::default(); PLACEMENTS_CAP];
    let mut eliminations = [LpCandidate::default(); ELIMINATIONS_CAP];
    let mut highlights = [LpHighlight::default(); HIGHLIGHTS_CAP];
    let mut explanation = [0u8; EXPLANATION_CAP];
    let mut house_buffer = [0u8; HOUSES_CAP];
    let mut out = LpOutput {
        placements: placements.as_mut_ptr(),
        placements_cap: PLACEMENTS_CAP as u32,
        placements_len: 0,
        eliminations: eliminations.as_mut_ptr(),
        eliminations_cap: ELIMINATIONS_CAP as u32,
        eliminations_len: 0,
        highlights: highlights.as_mut_ptr(),
        highlights_cap: HIGHLIGHTS_CAP as u32,
        highlights_len: 0,
        explanation: explanation.as_mut_ptr(),
        explanation_cap: EXPLANATION_CAP as u32,
        explanation_len: 0,
        difficulty: 0.0,
        struct_size: size_of::<LpOutput>() as u32,
        host: std::ptr::null_mut(),
        emit: host_emit,
        houses: house_buffer.as_mut_ptr(),
        houses_cap: HOUSES_CAP as u32,
        houses_len: 0,
    };
    let mut session = Session {
        technique: &technique.descriptor,
        sink,
        buffers: buffers_of(&out),
        houses,
        refused: None,
        stopped: false,
        emitted: 0,
    };
    out.host = &mut session as *mut Session<'_, '_> as *mut c_void;
    // SAFETY: the search gets the context its plugin gave, a valid grid, and an output
    // whose buffers live until it returns.
    let status = unsafe { search(context, &raw, &mut out) };
    let len = out.explanation_len as usize;
    outcome(technique, status, session.refused.take(), &explanation, len)
}

/// What a search that returned `status` comes to: the refusal of one of its steps first, then
/// its status, with the explanation it left (`explanation`, `len` bytes used) as the message.
fn outcome(
    technique: &PluginTechnique,
    status: i32,
    refused: Option<String>,
    explanation: &[u8],
    len: usize,
) -> Result<(), TechniqueError> {
    let fail = |message: String| TechniqueError::Plugin {
        technique: technique.descriptor.id.clone(),
        message: format!("{} (plugin {})", message, technique.path),
    };
    if let Some(why) = refused {
        return Err(fail(why));
    }
    let message =
        || String::from_utf8_lossy(&explanation[..len.min(explanation.len())]).into_owned();
    match status {
        LP_OK => Ok(()),
        LP_ERROR => Err(fail(with_reason("the search failed", &message()))),
        LP_PANIC => Err(fail(with_reason("the search panicked", &message()))),
        other => Err(fail(format!("the search returned unknown status {other}"))),
    }
}

/// The `emit` callback the host gives every search. Never unwinds into the plugin.
unsafe extern "C" fn host_emit(out: *mut LpOutput) -> i32 {
    if out.is_null() {
        return LP_REJECTED;
    }
    // SAFETY: `out` is the output this host made for the running search, and `host` points to
    // that search's session, alive until the search returns.
    let out = unsafe { &mut *out };
    let session = unsafe { &mut *(out.host as *mut Session<'_, '_>) };
    if let Some(code) = admit(
        &mut session.stopped,
        &mut session.refused,
        &mut session.emitted,
    ) {
        return code;
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the checks in `read_step` keep every read inside the host's buffers.
        let step = unsafe { read_step(out, session) };
        out.placements_len = 0;
        out.eliminations_len = 0;
        out.highlights_len = 0;
        out.explanation_len = 0;
        out.houses_len = 0;
        out.difficulty = 0.0;
        step
    }));
    deliver(
        result,
        &mut session.stopped,
        &mut session.refused,
        session.sink,
    )
}

/// The address and capacity of each buffer of `out`.
fn buffers_of(out: &LpOutput) -> [(usize, u32); 5] {
    [
        (out.placements as usize, out.placements_cap),
        (out.eliminations as usize, out.eliminations_cap),
        (out.highlights as usize, out.highlights_cap),
        (out.explanation as usize, out.explanation_cap),
        (out.houses as usize, out.houses_cap),
    ]
}

/// Reads and checks the step written in `out`.
///
/// # Safety
/// `out` is the host's output of `session`'s search.
unsafe fn read_step(out: &LpOutput, session: &Session<'_, '_>) -> Result<Step, String> {
    if buffers_of(out) != session.buffers {
        return Err("the plugin changed the output's buffer pointers or capacities".into());
    }
    // a plugin built before the houses (version 1) never wrote their length
    let houses_len = if session.houses { out.houses_len } else { 0 };
    let lengths = [
        ("placements", out.placements_len, out.placements_cap),
        ("eliminations", out.eliminations_len, out.eliminations_cap),
        ("highlights", out.highlights_len, out.highlights_cap),
        (
            "explanation bytes",
            out.explanation_len,
            out.explanation_cap,
        ),
        ("houses", houses_len, out.houses_cap),
    ];
    for (what, len, cap) in lengths {
        if len > cap {
            return Err(format!(
                "{len} {what} overflow a buffer of {cap} (lengths must stay within capacities)"
            ));
        }
    }
    // SAFETY: pointers and capacities are the host's own, lengths are within them.
    let (places, elims, lights, text, houses) = unsafe {
        (
            std::slice::from_raw_parts(out.placements, out.placements_len as usize),
            std::slice::from_raw_parts(out.eliminations, out.eliminations_len as usize),
            std::slice::from_raw_parts(out.highlights, out.highlights_len as usize),
            std::slice::from_raw_parts(out.explanation, out.explanation_len as usize),
            std::slice::from_raw_parts(out.houses, houses_len as usize),
        )
    };
    let candidate = |what: &str, i: usize, cell: u8, digit: u8| -> Result<Candidate, String> {
        if cell >= 81 {
            return Err(format!("{what}[{i}] names cell {cell} (cells are 0 to 80)"));
        }
        if !(1..=9).contains(&digit) {
            return Err(format!(
                "{what}[{i}] names digit {digit} (digits are 1 to 9)"
            ));
        }
        Ok(Candidate::new(Cell::new(cell), digit))
    };
    let technique = session.technique;
    let difficulty = match out.difficulty {
        0.0 => technique.difficulty,
        d if d.is_finite() && d > 0.0 && d <= 20.0 => d,
        d => return Err(format!("difficulty {d} is not in (0, 20]")),
    };
    let mut step = Step::new(&technique.id, difficulty);
    for (i, p) in places.iter().enumerate() {
        step.placements
            .push(candidate("placements", i, p.cell, p.digit)?);
    }
    for (i, e) in elims.iter().enumerate() {
        step.eliminations
            .push(candidate("eliminations", i, e.cell, e.digit)?);
    }
    for (i, h) in lights.iter().enumerate() {
        let c = candidate("highlights", i, h.cell, h.digit)?;
        let role = Role::from_code(h.role)
            .ok_or_else(|| format!("highlights[{i}] has role {} (roles are 0 to 8)", h.role))?;
        match step.highlights.last_mut() {
            Some(last) if last.role == role => last.candidates.push(c),
            _ => step.highlights.push(Highlight {
                role,
                candidates: vec![c],
            }),
        }
    }
    for (i, &h) in houses.iter().enumerate() {
        if h >= 27 {
            return Err(format!("houses[{i}] names house {h} (houses are 0 to 26)"));
        }
        step.houses.push(House::from_index(h));
    }
    let text =
        std::str::from_utf8(text).map_err(|e| format!("the explanation is not UTF-8: {e}"))?;
    step.explanation = if text.trim().is_empty() {
        format!(
            "{}: => {}",
            technique.name,
            eliminations_text(&step.eliminations)
        )
    } else {
        text.to_string()
    };
    Ok(step)
}

/// The buffers of a sized search (version 3), the same capacities for every size; kept per
/// thread between searches (a 25x25 board's eliminations make them about 130 KB).
struct SizedBuffers {
    placements: Vec<LpSizedCandidate>,
    eliminations: Vec<LpSizedCandidate>,
    highlights: Vec<LpSizedHighlight>,
    houses: Vec<u8>,
    explanation: Vec<u8>,
}

impl SizedBuffers {
    fn new() -> SizedBuffers {
        SizedBuffers {
            placements: vec![LpSizedCandidate::default(); LP_SIZED_MIN_PLACEMENTS as usize],
            eliminations: vec![LpSizedCandidate::default(); LP_SIZED_MIN_ELIMINATIONS as usize],
            highlights: vec![LpSizedHighlight::default(); LP_SIZED_MIN_HIGHLIGHTS as usize],
            houses: vec![0; LP_SIZED_MIN_HOUSES as usize],
            explanation: vec![0; EXPLANATION_CAP],
        }
    }
}

thread_local! {
    /// Idle sized buffers of this thread (a search that runs inside another's sink takes its
    /// own).
    static SIZED_BUFFERS: std::cell::RefCell<Vec<SizedBuffers>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The host's side of one sized search, reached from `emit` through `LpSizedOutput::host`.
struct SizedSession<'a, 'b> {
    technique: &'a Descriptor,
    sink: &'a mut StepSink<'b>,
    /// The board's side.
    n: usize,
    /// The buffers as handed out, to catch a plugin that swaps them.
    buffers: [(usize, u32); 5],
    refused: Option<String>,
    stopped: bool,
    emitted: usize,
}

/// Runs a plugin's sized search (ABI version 3) in this process: the board and the output
/// buffers handed out, each step the plugin emits read and checked against the board's size
/// ([`read_sized_step`]) and handed to `sink`.
pub(super) fn search_sized(
    technique: &PluginTechnique,
    context: *const c_void,
    search: LpSizedSearchFn,
    board: &LpBoard,
    sink: &mut StepSink<'_>,
) -> Result<(), TechniqueError> {
    let mut b = SIZED_BUFFERS
        .with(|pool| pool.borrow_mut().pop())
        .unwrap_or_else(SizedBuffers::new);
    let result = search_sized_in(technique, context, search, board, sink, &mut b);
    SIZED_BUFFERS.with(|pool| pool.borrow_mut().push(b));
    result
}

fn search_sized_in(
    technique: &PluginTechnique,
    context: *const c_void,
    search: LpSizedSearchFn,
    board: &LpBoard,
    sink: &mut StepSink<'_>,
    b: &mut SizedBuffers,
) -> Result<(), TechniqueError> {
    let mut out = LpSizedOutput {
        placements: b.placements.as_mut_ptr(),
        placements_cap: b.placements.len() as u32,
        placements_len: 0,
        eliminations: b.eliminations.as_mut_ptr(),
        eliminations_cap: b.eliminations.len() as u32,
        eliminations_len: 0,
        highlights: b.highlights.as_mut_ptr(),
        highlights_cap: b.highlights.len() as u32,
        highlights_len: 0,
        houses: b.houses.as_mut_ptr(),
        houses_cap: b.houses.len() as u32,
        houses_len: 0,
        explanation: b.explanation.as_mut_ptr(),
        explanation_cap: b.explanation.len() as u32,
        explanation_len: 0,
        difficulty: 0.0,
        struct_size: size_of::<LpSizedOutput>() as u32,
        host: std::ptr::null_mut(),
        emit: host_emit_sized,
    };
    let mut session = SizedSession {
        technique: &technique.descriptor,
        sink,
        n: board.n as usize,
        buffers: sized_buffers_of(&out),
        refused: None,
        stopped: false,
        emitted: 0,
    };
    out.host = &mut session as *mut SizedSession<'_, '_> as *mut c_void;
    // SAFETY: the search gets the context its plugin gave, a valid board, and an output
    // whose buffers live until it returns.
    let status = unsafe { search(context, board, &mut out) };
    let len = out.explanation_len as usize;
    outcome(
        technique,
        status,
        session.refused.take(),
        &b.explanation,
        len,
    )
}

/// The `emit` callback of every sized search. Never unwinds into the plugin.
unsafe extern "C" fn host_emit_sized(out: *mut LpSizedOutput) -> i32 {
    if out.is_null() {
        return LP_REJECTED;
    }
    // SAFETY: `out` is the output this host made for the running search, and `host` points to
    // that search's session, alive until the search returns.
    let out = unsafe { &mut *out };
    let session = unsafe { &mut *(out.host as *mut SizedSession<'_, '_>) };
    if let Some(code) = admit(
        &mut session.stopped,
        &mut session.refused,
        &mut session.emitted,
    ) {
        return code;
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the checks in `read_sized_step` keep every read inside the host's buffers.
        let step = unsafe { read_sized_step(out, session) };
        out.placements_len = 0;
        out.eliminations_len = 0;
        out.highlights_len = 0;
        out.houses_len = 0;
        out.explanation_len = 0;
        out.difficulty = 0.0;
        step
    }));
    deliver(
        result,
        &mut session.stopped,
        &mut session.refused,
        session.sink,
    )
}

/// The first half of every `emit` callback, before the step is read: the status to return at
/// once when the search was stopped (or a step refused), or when the plugin passes
/// [`MAX_STEPS_PER_SEARCH`]; `None` to go on.
fn admit(stopped: &mut bool, refused: &mut Option<String>, emitted: &mut usize) -> Option<i32> {
    if *stopped {
        return Some(if refused.is_some() {
            LP_REJECTED
        } else {
            LP_STOP
        });
    }
    *emitted += 1;
    if *emitted > MAX_STEPS_PER_SEARCH {
        *refused = Some(format!(
            "refused a step: more than {MAX_STEPS_PER_SEARCH} steps in one search"
        ));
        *stopped = true;
        return Some(LP_REJECTED);
    }
    None
}

/// The second half of every `emit` callback: the step as read (or why it was refused, or the
/// reader's panic) handed to `sink`, and the status the plugin gets back.
fn deliver(
    read: std::thread::Result<Result<crate::step::Step, String>>,
    stopped: &mut bool,
    refused: &mut Option<String>,
    sink: &mut StepSink<'_>,
) -> i32 {
    let step = match read {
        Ok(Ok(step)) => step,
        Ok(Err(why)) => {
            *refused = Some(format!("refused a step: {why}"));
            *stopped = true;
            return LP_REJECTED;
        }
        Err(_) => {
            *refused = Some("refused a step: the host failed reading it".into());
            *stopped = true;
            return LP_REJECTED;
        }
    };
    match catch_unwind(AssertUnwindSafe(|| sink(step))) {
        Ok(ControlFlow::Continue(())) => LP_CONTINUE,
        Ok(ControlFlow::Break(())) => {
            *stopped = true;
            LP_STOP
        }
        Err(_) => {
            *refused = Some(
                "lapiz itself failed while taking a step (a bug in lapiz, not in the plugin)"
                    .into(),
            );
            *stopped = true;
            LP_REJECTED
        }
    }
}

/// The address and capacity of each buffer of a sized output.
fn sized_buffers_of(out: &LpSizedOutput) -> [(usize, u32); 5] {
    [
        (out.placements as usize, out.placements_cap),
        (out.eliminations as usize, out.eliminations_cap),
        (out.highlights as usize, out.highlights_cap),
        (out.houses as usize, out.houses_cap),
        (out.explanation as usize, out.explanation_cap),
    ]
}

/// Reads and checks the step written in a sized output: cells below `n * n`, digits `1..=n`,
/// houses below `3n` on the session's `n x n` board.
///
/// # Safety
/// `out` is the host's output of `session`'s search.
unsafe fn read_sized_step(
    out: &LpSizedOutput,
    session: &SizedSession<'_, '_>,
) -> Result<Step, String> {
    if sized_buffers_of(out) != session.buffers {
        return Err("the plugin changed the output's buffer pointers or capacities".into());
    }
    let lengths = [
        ("placements", out.placements_len, out.placements_cap),
        ("eliminations", out.eliminations_len, out.eliminations_cap),
        ("highlights", out.highlights_len, out.highlights_cap),
        ("houses", out.houses_len, out.houses_cap),
        (
            "explanation bytes",
            out.explanation_len,
            out.explanation_cap,
        ),
    ];
    for (what, len, cap) in lengths {
        if len > cap {
            return Err(format!(
                "{len} {what} overflow a buffer of {cap} (lengths must stay within capacities)"
            ));
        }
    }
    // SAFETY: pointers and capacities are the host's own, lengths are within them.
    let (places, elims, lights, houses, text) = unsafe {
        (
            std::slice::from_raw_parts(out.placements, out.placements_len as usize),
            std::slice::from_raw_parts(out.eliminations, out.eliminations_len as usize),
            std::slice::from_raw_parts(out.highlights, out.highlights_len as usize),
            std::slice::from_raw_parts(out.houses, out.houses_len as usize),
            std::slice::from_raw_parts(out.explanation, out.explanation_len as usize),
        )
    };
    let n = session.n;
    let candidate = |what: &str, i: usize, cell: u16, digit: u8| -> Result<Candidate, String> {
        if usize::from(cell) >= n * n {
            return Err(format!(
                "{what}[{i}] names cell {cell} (cells are 0 to {} on a {n}x{n} board)",
                n * n - 1
            ));
        }
        if !(1..=n).contains(&usize::from(digit)) {
            return Err(format!(
                "{what}[{i}] names digit {digit} (digits are 1 to {n} on a {n}x{n} board)"
            ));
        }
        Ok(Candidate::new(
            Cell::from_index_in(usize::from(cell), n),
            digit,
        ))
    };
    let technique = session.technique;
    let difficulty = match out.difficulty {
        0.0 => technique.difficulty,
        d if d.is_finite() && d > 0.0 && d <= 20.0 => d,
        d => return Err(format!("difficulty {d} is not in (0, 20]")),
    };
    let mut step = Step::new(&technique.id, difficulty);
    for (i, p) in places.iter().enumerate() {
        step.placements
            .push(candidate("placements", i, p.cell, p.digit)?);
    }
    for (i, e) in elims.iter().enumerate() {
        step.eliminations
            .push(candidate("eliminations", i, e.cell, e.digit)?);
    }
    for (i, h) in lights.iter().enumerate() {
        let c = candidate("highlights", i, h.cell, h.digit)?;
        let role = Role::from_code(h.role)
            .ok_or_else(|| format!("highlights[{i}] has role {} (roles are 0 to 8)", h.role))?;
        match step.highlights.last_mut() {
            Some(last) if last.role == role => last.candidates.push(c),
            _ => step.highlights.push(Highlight {
                role,
                candidates: vec![c],
            }),
        }
    }
    for (i, &h) in houses.iter().enumerate() {
        if usize::from(h) >= 3 * n {
            return Err(format!(
                "houses[{i}] names house {h} (houses are 0 to {} on a {n}x{n} board)",
                3 * n - 1
            ));
        }
        step.houses.push(House::from_index_in(usize::from(h), n));
    }
    let text =
        std::str::from_utf8(text).map_err(|e| format!("the explanation is not UTF-8: {e}"))?;
    step.explanation = if text.trim().is_empty() {
        format!(
            "{}: => {}",
            technique.name,
            eliminations_text(&step.eliminations)
        )
    } else {
        text.to_string()
    };
    Ok(step)
}

/// `what: reason`, or `what (no reason given)` when the plugin gave none.
fn with_reason(what: &str, reason: &str) -> String {
    if reason.trim().is_empty() {
        format!("{what} (no reason given)")
    } else {
        format!("{what}: {reason}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_reason_is_said_to_be_missing() {
        assert_eq!(
            with_reason("the search panicked", " "),
            "the search panicked (no reason given)"
        );
        assert_eq!(
            with_reason("the search failed", "x"),
            "the search failed: x"
        );
    }
}

//! Rhai's errors in lapiz's words: `runtime error: …` or the limit broken, the call chain, and a
//! "did you mean" for names slipped in from other languages.

use super::*;

/// `line:column` of a position, or `?` when Rhai has none.
pub(super) struct PosText(pub(super) Position);

impl fmt::Display for PosText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0.line(), self.0.position()) {
            (Some(l), Some(c)) => write!(f, "{l}:{c}"),
            (Some(l), None) => write!(f, "{l}"),
            _ => f.write_str("?"),
        }
    }
}

/// Describes a Rhai runtime error, stripped of Rhai's own position text, with the innermost
/// position (the line that failed, inside whichever function).
pub(super) fn describe(
    err: Box<EvalAltResult>,
    limits: &Limits,
    budget: Option<ScriptBudget>,
) -> (Position, String) {
    use EvalAltResult as E;
    // Unwrap the call chain so the message can say which function failed.
    let mut chain = Vec::new();
    let mut e = err;
    while let E::ErrorInFunctionCall(name, _, inner, pos) = *e {
        chain.push(format!("{name} (called at {})", PosText(pos)));
        e = inner;
    }
    let mut inner = *e;
    let pos = inner.take_position();
    let mut message = match &inner {
        E::ErrorTooManyOperations(_) => format!(
            "operation limit exceeded ({} operations per call)",
            limits.max_operations
        ),
        E::ErrorTerminated(token, _) if token.to_string() == OPERATIONS_UP => format!(
            "operation limit exceeded ({} operations per call)",
            limits.max_operations
        ),
        E::ErrorStackOverflow(_) => format!(
            "call depth limit exceeded ({} levels; runaway recursion?)",
            limits.max_call_levels
        ),
        E::ErrorDataTooLarge(what, _) => {
            let limit = match what.as_str() {
                w if w.contains("rray") => format!("{} elements", limits.max_array_size),
                w if w.contains("ap") => format!("{} entries", limits.max_map_size),
                w if w.contains("tring") => format!("{} bytes", limits.max_string_size),
                _ => "the size limit".to_string(),
            };
            format!("{what} exceeds the size limit ({limit})")
        }
        E::ErrorTerminated(token, _) if token.to_string() == TIME_UP => format!(
            "time limit exceeded ({} ms per call)",
            limits.time_limit.as_millis()
        ),
        E::ErrorTerminated(token, _) if token.to_string() == BUDGET_TIME_UP => format!(
            "per-solve time budget spent ({} ms per script per solve); script disabled for this solve",
            budget.unwrap_or_default().time_ms
        ),
        E::ErrorTerminated(token, _) if token.to_string() == BUDGET_OPERATIONS_UP => format!(
            "per-solve operation budget spent ({} operations per script per solve); script disabled for this solve",
            budget.unwrap_or_default().operations
        ),
        // a thrown value, or an API helper's error message
        E::ErrorRuntime(d, _) => format!("runtime error: {d}"),
        E::ErrorFunctionNotFound(signature, _) => function_not_found(signature),
        other => format!("runtime error: {other}"),
    };
    if !chain.is_empty() {
        message = format!("{message} (in {})", chain.join(" <- "));
    }
    (pos, message)
}

/// Names slipped into a script from other languages, and what lapiz's API calls them.
const SLIPS: &[(&str, &str)] = &[
    ("length", "len"),
    ("size", "len"),
    ("count", "len"),
    ("lenght", "len"),
    ("append", "push"),
    ("push_back", "push"),
    ("add", "push"),
    ("includes", "contains"),
    ("has", "contains"),
    ("is_empty?", "is_empty"),
    ("toString", "to_string"),
];

/// A call to a function that does not exist: `runtime error: no function length(CellSet)`, with
/// `; did you mean `len`?` for a known slip.
fn function_not_found(signature: &str) -> String {
    // Rhai's signature: `length (CellSet)` or `Grid.cells_with (i64)`
    let (name, args) = signature
        .split_once(" (")
        .map_or((signature, ""), |(n, a)| (n, a.trim_end_matches(')')));
    let bare = name.rsplit('.').next().unwrap_or(name);
    let mut message = format!("runtime error: no function {bare}({args})");
    if let Some((_, right)) = SLIPS.iter().find(|(wrong, _)| *wrong == bare) {
        message.push_str(&format!(" (did you mean `{right}`?)"));
    }
    message
}

/// The VM wraps an error of the function it was asked to call in a call frame of its own
/// (at no position), which the interpreter's `call_fn` does not: removed, so both give the same
/// message.
#[allow(clippy::boxed_local)] // the shape `map_err` hands it
pub(super) fn unwrap_find(e: Box<EvalAltResult>) -> Box<EvalAltResult> {
    match *e {
        EvalAltResult::ErrorInFunctionCall(name, _, inner, pos)
            if name == "find" && pos.is_none() =>
        {
            inner
        }
        other => Box::new(other),
    }
}

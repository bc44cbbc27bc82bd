//! A script's text as the loader takes it: a technique or an error, never a panic.
#![no_main]

use std::sync::{Arc, OnceLock};

use lapiz::script::{Limits, ScriptHost, ScriptTechnique};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    static HOST: OnceLock<Arc<ScriptHost>> = OnceLock::new();
    let host = HOST.get_or_init(|| Arc::new(ScriptHost::new(Limits::default())));
    let _ = ScriptTechnique::from_source(text, "fuzz.rhai", host.clone());
});

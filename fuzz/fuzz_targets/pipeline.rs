//! A pipeline file's text: a pipeline or an error, never a panic. Plugins it names cannot be
//! loaded (no host program), so the fuzzer never runs a library it stumbles on.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lapiz::plugin::PluginMode;
use lapiz::plugin::host::{HostSettings, configure};

fuzz_target!(|text: &str| {
    configure(HostSettings {
        program: None,
        force_mode: Some(PluginMode::Host),
        ..HostSettings::default()
    });
    let _ = lapiz::Pipeline::from_ron(text, "fuzz.ron");
});

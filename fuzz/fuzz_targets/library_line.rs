//! A HoDoKu library line: a case or an error, never a panic; a case prints as a line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(case) = lapiz::text::parse_library_line(text) {
        let _ = lapiz::text::format_library_line(&case);
    }
});

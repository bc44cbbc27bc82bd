//! The pencil-mark grid parser: any text is a grid or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(grid) = lapiz::text::parse_pencil_marks(text) {
        let _ = lapiz::text::format_pencil_marks(&grid);
    }
});

//! The 81-character line parser: any text is a grid or an error, and a grid read from a line
//! reads back the same from its own 81 characters.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(values) = lapiz::text::line_values(text) {
        let line: String = values
            .iter()
            .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
            .collect();
        assert_eq!(lapiz::text::line_values(&line).ok(), Some(values));
        let _ = lapiz::text::parse_line(text);
    }
});

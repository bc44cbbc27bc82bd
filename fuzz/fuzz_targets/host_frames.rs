//! The plugin wire frames as lapiz reads them from a host: whatever a hostile host writes is
//! read as frames or refused, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = lapiz::plugin::host::read_host_output(bytes);
});

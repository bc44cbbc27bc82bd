//! The plugin host's wire handshake: each side's first frame names the protocol version it
//! speaks, and a side that hears another version stops with an error naming both (a host
//! program from another lapiz build is refused before it loads anything). Unix only: the
//! stand-in host is a shell script.
#![cfg(unix)]

mod common;

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

use lapiz::plugin::{self, HostSettings, PluginError, PluginMode};

/// One frame: a little-endian `u32` length, then the payload.
fn frame(payload: &[u8]) -> Vec<u8> {
    let mut f = (payload.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(payload);
    f
}

#[test]
fn a_host_of_another_protocol_version_is_a_typed_error_naming_both() {
    let dir = common::temp_dir("wire-version");
    let host = dir.path().join("old-lapiz");
    // a host that says hello in version 99, then reads until lapiz is done with it
    std::fs::write(
        &host,
        "#!/bin/sh\nprintf '\\005\\000\\000\\000H\\143\\000\\000\\000'\nexec cat >/dev/null\n",
    )
    .unwrap();
    std::fs::set_permissions(&host, std::fs::Permissions::from_mode(0o755)).unwrap();
    HostSettings {
        program: Some(host.clone()),
        ..HostSettings::default()
    }
    .install();
    let err = plugin::load_as(&host, PluginMode::Host).unwrap_err();
    assert!(
        matches!(
            err,
            PluginError::WireVersion {
                lapiz: 1,
                host: 99,
                ..
            }
        ),
        "{err:?}"
    );
    let said = err.to_string();
    assert!(
        said.contains("version 1") && said.contains("version 99"),
        "{said}"
    );
}

#[test]
fn a_host_hearing_another_protocol_version_loads_nothing() {
    let mut host = Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(["plugin-host", "--", "/no/such/library.so"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = host.stdin.take().unwrap();
    input.write_all(&frame(&[b'H', 99, 0, 0, 0])).unwrap();
    drop(input);
    let mut out = Vec::new();
    host.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    let mut err = String::new();
    host.stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = host.wait().unwrap();
    // its own hello, then nothing: no description, no loader's message
    assert_eq!(out, frame(&[b'H', 1, 0, 0, 0]));
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains("version 99") && err.contains("version 1"),
        "{err}"
    );
}

//! Helpers for the tests that run the `lapiz` binary (`tests/cli*.rs` and others).

/// Runs the `lapiz` binary: (exit success, stdout, stderr).
pub fn run_lapiz(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(args)
        .output()
        .expect("lapiz runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the `lapiz` binary with `stdin` (if any) as its standard input.
pub fn run_lapiz_stdin(args: &[&str], stdin: Option<&str>) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lapiz runs");
    {
        let mut input = child.stdin.take().expect("piped stdin");
        if let Some(s) = stdin {
            input.write_all(s.as_bytes()).expect("stdin written");
        }
    }
    child.wait_with_output().expect("lapiz ends")
}

/// Runs the `lapiz` binary from the project root: (exit code, stdout, stderr).
pub fn run_lapiz_in_root(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("lapiz runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

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
            // lapiz may end before it reads its input (an invalid argument): a closed pipe
            // then is not the test's failure, what lapiz printed is
            if let Err(e) = input.write_all(s.as_bytes()) {
                assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "stdin: {e}");
            }
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

/// Runs the `lapiz` binary with stdin from /dev/null, killing it after `seconds`: its
/// output, or `None` when it had to be killed. For runs with little output: the pipes are
/// read once it has ended.
pub fn run_lapiz_within(args: &[&str], seconds: u64) -> Option<std::process::Output> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lapiz runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while std::time::Instant::now() < deadline {
        if child.try_wait().expect("lapiz is waited for").is_some() {
            return Some(child.wait_with_output().expect("lapiz ends"));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Makes a FIFO (named pipe) at `path` (Unix).
#[cfg(unix)]
pub fn make_fifo(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

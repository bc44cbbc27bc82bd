//! The plugin host's sandbox (issue 35): small hostile C plugins
//! (`tests/fixtures/plugins/sandbox.c`) each try one thing a technique never needs — read a
//! file of the user's, write a file, connect to a local port, run `/bin/sh` (directly and
//! through `system`), kill lapiz, kill another process, trace lapiz, have the kernel signal
//! lapiz (`F_SETOWN`). In a sandboxed host each
//! attempt is refused with the call's error, the technique is named as failed, the solve
//! finishes and lapiz exits 0; nothing is written, no connection is made, no process dies.
//! Each test also runs the same plugin with `--plugin-sandbox off` and sees the attempt work,
//! so the checks can fail.
//!
//! Linux only (the sandbox is Landlock and seccomp). Where the kernel lacks either, the tests
//! skip with a message, unless `LAPIZ_REQUIRE_SANDBOX` is set (CI sets it), when they fail.
#![cfg(target_os = "linux")]

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::plugins::{fixture_case, sandbox_ready};

/// SIGKILL's number (on every Linux architecture).
const SIGKILL: i32 = 9;

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// Whether the sandboxed tests can run here (see [`sandbox_ready`]).
fn ready() -> bool {
    sandbox_ready()
}

/// The hostile plugin of `case` (see the fixture's header).
fn plugin(case: u32) -> PathBuf {
    fixture_case("sandbox", case)
}

/// A fresh folder of the user's, outside the plugin's own folder, for this test: its guard
/// removes it when the test ends.
fn user_folder(tag: &str) -> tempfile::TempDir {
    common::temp_dir(&format!("sandbox-{tag}"))
}

/// `lapiz solve PUZZLE --plugin LIB`, sandboxed or not, with the plugin's targets in `env`.
fn solve(lib: &Path, sandbox: bool, env: &[(&str, String)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lapiz"));
    cmd.args(["solve", PUZZLE, "--plugin"])
        .arg(lib)
        .args(["--plugin-time-limit", "10"]);
    if !sandbox {
        cmd.args(["--plugin-sandbox", "off"]);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("lapiz runs")
}

/// The solve finished with status 0 and named `id` as failed with `refused: …`; the message
/// is returned.
fn refused(out: &Output, id: &str, lib: &Path) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("Solved in"), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.contains(&format!("FAILED {id};")))
        .unwrap_or_else(|| panic!("{id} is not named as failed:\n{stdout}"))
        .to_string();
    assert!(line.contains("the search failed: refused: "), "{line}");
    assert!(line.contains(&lib.display().to_string()), "{line}");
    line
}

/// The failure line of `id` when the attempt worked (sandbox off).
fn did_it(out: &Output, id: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Solved in"), "{stdout}");
    stdout
        .lines()
        .find(|l| l.contains(&format!("FAILED {id};")))
        .unwrap_or_else(|| panic!("{id} is not named:\n{stdout}"))
        .to_string()
}

#[test]
fn reading_a_file_of_the_users_is_refused() {
    if !ready() {
        return;
    }
    let dir = user_folder("read");
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "the user's secret 4711").unwrap();
    let lib = plugin(1);
    let env = [("LAPIZ_PLUGIN_HOSTILE_READ", secret.display().to_string())];
    let out = solve(&lib, true, &env);
    let line = refused(&out, "hostile-read", &lib);
    assert!(line.contains("refused: open: Permission denied"), "{line}");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains("4711"), "{all}");
    // without the sandbox the plugin reads it and shows it
    let line = did_it(&solve(&lib, false, &env), "hostile-read");
    assert!(
        line.contains("did it: read the user's secret 4711"),
        "{line}"
    );
}

#[test]
fn writing_a_file_is_refused() {
    if !ready() {
        return;
    }
    let dir = user_folder("write");
    let target = dir.path().join("written.txt");
    let lib = plugin(2);
    let env = [("LAPIZ_PLUGIN_HOSTILE_WRITE", target.display().to_string())];
    let line = refused(&solve(&lib, true, &env), "hostile-write", &lib);
    assert!(line.contains("refused: open: "), "{line}");
    assert!(!target.exists(), "the plugin wrote {}", target.display());
    // nor in its own folder
    let own = lib.parent().unwrap().join("written-by-a-plugin.txt");
    let _ = std::fs::remove_file(&own);
    let env_own = [("LAPIZ_PLUGIN_HOSTILE_WRITE", own.display().to_string())];
    refused(&solve(&lib, true, &env_own), "hostile-write", &lib);
    assert!(!own.exists(), "the plugin wrote {}", own.display());
    let line = did_it(&solve(&lib, false, &env), "hostile-write");
    assert!(line.contains("did it: wrote the file"), "{line}");
    assert!(target.exists());
}

#[test]
fn connecting_to_a_local_port_is_refused() {
    if !ready() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let lib = plugin(3);
    let env = [("LAPIZ_PLUGIN_HOSTILE_PORT", port.to_string())];
    let line = refused(&solve(&lib, true, &env), "hostile-connect", &lib);
    assert!(
        line.contains("refused: socket: Operation not permitted"),
        "{line}"
    );
    let no_one = listener.accept();
    assert!(
        matches!(&no_one, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "a connection was made: {no_one:?}"
    );
    // without the sandbox the connection reaches the listener
    let line = did_it(&solve(&lib, false, &env), "hostile-connect");
    assert!(line.contains("did it: connected"), "{line}");
    assert!(
        listener.accept().is_ok(),
        "no connection without the sandbox"
    );
}

#[test]
fn running_a_shell_is_refused() {
    if !ready() {
        return;
    }
    let dir = user_folder("exec");
    for (case, id, call) in [
        (4, "hostile-exec", "execve"),
        (5, "hostile-spawn", "system"),
    ] {
        let mark = dir.path().join(format!("ran-{case}"));
        let lib = plugin(case);
        let env = [("LAPIZ_PLUGIN_HOSTILE_MARK", mark.display().to_string())];
        let line = refused(&solve(&lib, true, &env), id, &lib);
        assert!(
            line.contains(&format!("refused: {call}: Operation not permitted")),
            "{line}"
        );
        assert!(!mark.exists(), "{id}: /bin/sh ran");
        // without the sandbox /bin/sh runs (and, for execve, replaces the host)
        let _ = did_it(&solve(&lib, false, &env), id);
        assert!(
            mark.exists(),
            "{id}: /bin/sh did not run without the sandbox"
        );
    }
}

#[test]
fn killing_lapiz_is_refused() {
    if !ready() {
        return;
    }
    let lib = plugin(6);
    let line = refused(&solve(&lib, true, &[]), "hostile-kill", &lib);
    assert!(
        line.contains("refused: kill: Operation not permitted"),
        "{line}"
    );
    // without the sandbox lapiz dies, the solve lost
    let out = solve(&lib, false, &[]);
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(SIGKILL), "{out:?}");
}

#[test]
fn killing_another_process_is_refused() {
    if !ready() {
        return;
    }
    let lib = plugin(7);
    let mut victim = Command::new("sleep").arg("60").spawn().unwrap();
    let env = [("LAPIZ_PLUGIN_HOSTILE_PID", victim.id().to_string())];
    let line = refused(&solve(&lib, true, &env), "hostile-kill-other", &lib);
    assert!(
        line.contains("refused: kill: Operation not permitted"),
        "{line}"
    );
    if let Some(status) = victim.try_wait().unwrap() {
        panic!("the other process died: {status:?}");
    }
    // without the sandbox it dies
    let _ = did_it(&solve(&lib, false, &env), "hostile-kill-other");
    let status = victim.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(SIGKILL), "{status:?}");
}

#[test]
fn tracing_lapiz_is_refused() {
    if !ready() {
        return;
    }
    // only sandboxed: an unsandboxed attach would stop lapiz
    let lib = plugin(8);
    let line = refused(&solve(&lib, true, &[]), "hostile-ptrace", &lib);
    assert!(
        line.contains("refused: ptrace: Operation not permitted"),
        "{line}"
    );
}

#[test]
fn having_the_kernel_signal_lapiz_is_refused() {
    if !ready() {
        return;
    }
    let lib = plugin(9);
    let line = refused(&solve(&lib, true, &[]), "hostile-sigio", &lib);
    assert!(
        line.contains("refused: fcntl: Operation not permitted"),
        "{line}"
    );
    // without the sandbox the call works (one solve survives it: the failed technique's host
    // gets no further request, whose arrival would send lapiz SIGIO)
    let line = did_it(&solve(&lib, false, &[]), "hostile-sigio");
    assert!(
        line.contains("did it: lapiz owns the host's stdin"),
        "{line}"
    );
}

#[test]
fn every_hostile_plugin_at_once_in_a_file_run_costs_only_its_technique() {
    if !ready() {
        return;
    }
    let dir = user_folder("file");
    let puzzles = dir.path().join("puzzles.txt");
    let second =
        "..34.67.94..9........5...26.9.....15..2...8...1.357....6173.5..9.............82..";
    std::fs::write(&puzzles, format!("{PUZZLE}\n{second}\n")).unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "4711").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let written = dir.path().join("written.txt");
    let mark = dir.path().join("ran");
    let mut victim = Command::new("sleep").arg("60").spawn().unwrap();
    let libs: Vec<PathBuf> = (1..=9).map(plugin).collect();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lapiz"));
    cmd.args(["solve", "--file"])
        .arg(&puzzles)
        .args(["--threads", "2"]);
    for lib in &libs {
        cmd.arg("--plugin").arg(lib);
    }
    let out = cmd
        .env("LAPIZ_PLUGIN_HOSTILE_READ", &secret)
        .env("LAPIZ_PLUGIN_HOSTILE_WRITE", &written)
        .env("LAPIZ_PLUGIN_HOSTILE_MARK", &mark)
        .env(
            "LAPIZ_PLUGIN_HOSTILE_PORT",
            listener.local_addr().unwrap().port().to_string(),
        )
        .env("LAPIZ_PLUGIN_HOSTILE_PID", victim.id().to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("solved: 2, guessed: 0, stuck: 0, invalid: 0"),
        "{stdout}"
    );
    for line in [1, 2] {
        for id in [
            "hostile-read",
            "hostile-write",
            "hostile-connect",
            "hostile-exec",
            "hostile-spawn",
            "hostile-kill",
            "hostile-kill-other",
            "hostile-ptrace",
            "hostile-sigio",
        ] {
            let prefix = format!(
                "{}:{line}: warning: technique {id} failed: the search failed: refused: ",
                puzzles.display()
            );
            assert!(
                stderr.lines().any(|l| l.starts_with(&prefix)),
                "{prefix}\n{stderr}"
            );
        }
    }
    assert!(!stderr.contains("4711") && !stdout.contains("4711"));
    assert!(!written.exists() && !mark.exists());
    assert!(listener.accept().is_err());
    assert!(
        victim.try_wait().unwrap().is_none(),
        "the other process died"
    );
    let _ = victim.kill();
    let _ = victim.wait();
}

#[test]
fn the_sandbox_is_named_and_turned_off_by_the_option_not_by_a_pipeline() {
    if !ready() {
        return;
    }
    let lib = plugin(1);
    let techniques = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_lapiz"))
            .arg("techniques")
            .arg("--plugin")
            .arg(&lib)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        // a full sandbox needs no warning
        assert!(out.stderr.is_empty(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let on = techniques(&[]);
    assert!(
        on.contains("plugin sandbox: on (Landlock ABI ") && on.contains(", seccomp)"),
        "{on}"
    );
    assert!(techniques(&["--plugin-sandbox", "off"]).contains("plugin sandbox: off"));
    assert!(
        techniques(&["--plugin-mode", "in-process"])
            .contains("plugin sandbox: none (in-process plugins run inside lapiz)")
    );

    // a pipeline's field asks for it off
    let dir = user_folder("pipeline");
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "4711").unwrap();
    let ron = dir.path().join("trusted.ron");
    std::fs::write(
        &ron,
        format!(
            "Pipeline(name: \"trusted\", plugin_sandbox: Off, plugins: [{:?}], techniques: [Technique(\"hostile-read\"), Technique(\"full-house\"), Technique(\"hidden-single\"), Technique(\"naked-single\")])",
            lib.display().to_string()
        ),
    )
    .unwrap();
    let with = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_lapiz"))
            .args(["solve", PUZZLE, "--pipeline"])
            .arg(&ron)
            .args(extra)
            .env("LAPIZ_PLUGIN_HOSTILE_READ", &secret)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // the file alone does not turn the sandbox off: it stays on, and a warning names the file
    // and the setting
    let (alone, warned) = with(&[]);
    assert!(
        alone.contains("refused: open: Permission denied") && !alone.contains("4711"),
        "{alone}"
    );
    assert!(
        warned.contains(&format!("{}: `plugin_sandbox: Off` ignored", ron.display())),
        "{warned}"
    );
    // with the user's own option it is off
    let (off, _) = with(&["--plugin-sandbox", "off"]);
    assert!(off.contains("did it: read 4711"), "{off}");
    let (forced, _) = with(&["--plugin-sandbox", "on"]);
    assert!(
        forced.contains("refused: open: Permission denied") && !forced.contains("4711"),
        "{forced}"
    );
}

//! Plugin hosts contained (issue 65): small hostile C plugins (`tests/fixtures/plugins/
//! contained.c`) each try one way out of their host, as a hostile plugin author would — read
//! lapiz's environment, use descriptors lapiz inherited, forge and flood the frame channel,
//! outlive lapiz, start thousands of threads — and a pipeline file tries to turn the sandbox
//! off or to swap its plugin for one in the current folder. Each test also shows the attempt
//! working where the protection is off (in-process, `--plugin-sandbox off`, a host started
//! by hand, or the user's own option), so that it can fail.
//!
//! Linux only (parent-death signals, `/proc`, the sandbox). Where the kernel lacks Landlock or
//! seccomp the tests that need them skip with a message, unless `LAPIZ_REQUIRE_SANDBOX` is set.
#![cfg(target_os = "linux")]

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::plugins::{c_compiler_available, fixture_case, sandbox_ready};

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// A C compiler is there (and, when `sandboxed`, the kernel's sandbox, or a failure under
/// `LAPIZ_REQUIRE_SANDBOX`).
fn ready(sandboxed: bool) -> bool {
    if sandboxed {
        sandbox_ready()
    } else {
        c_compiler_available()
    }
}

/// The hostile plugin of `case` (see the fixture's header).
fn plugin(case: u32) -> PathBuf {
    fixture_case("contained", case)
}

fn lapiz() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lapiz"))
}

/// `lapiz solve PUZZLE --plugin LIB EXTRA…`.
fn solve(lib: &Path, extra: &[&str]) -> Output {
    lapiz()
        .args(["solve", PUZZLE, "--plugin"])
        .arg(lib)
        .args(["--plugin-time-limit", "3"])
        .args(extra)
        .output()
        .expect("lapiz runs")
}

/// The solve ended with status 0 and named `id` as failed: that line.
fn failure(out: &Output, id: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("Solved in"), "{stdout}");
    stdout
        .lines()
        .find(|l| l.contains(&format!("FAILED {id};")))
        .unwrap_or_else(|| panic!("{id} is not named as failed:\n{stdout}\n{stderr}"))
        .to_string()
}

#[test]
fn lapizs_environment_never_reaches_a_hosted_plugin() {
    if !ready(false) {
        return;
    }
    let lib = plugin(1);
    let with_token = |extra: &[&str]| {
        let out = lapiz()
            .args(["solve", PUZZLE, "--plugin"])
            .arg(&lib)
            .args(extra)
            .env("MY_TOKEN", "s3cr3t")
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (failure(&out, "hostile-env"), all)
    };
    for extra in [&[][..], &["--plugin-sandbox", "off"][..]] {
        let (line, all) = with_token(extra);
        assert!(line.contains("refused: no MY_TOKEN"), "{line}");
        assert!(!all.contains("s3cr3t"), "{all}");
    }
    // inside lapiz's own process the plugin reads it
    let (line, _) = with_token(&["--plugin-mode", "in-process"]);
    assert!(line.contains("did it: MY_TOKEN=s3cr3t"), "{line}");
}

/// `lapiz solve … EXTRA` started by a shell with descriptor 5 appending to `out` and 7
/// reading `secret`, as `5>>out 7<secret` does.
fn solve_with_descriptors(lib: &Path, out: &Path, secret: &Path, extra: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec \"$0\" solve {PUZZLE} --plugin \"$1\" {extra} 5>>\"$2\" 7<\"$3\""
        ))
        .arg(env!("CARGO_BIN_EXE_lapiz"))
        .arg(lib)
        .arg(out)
        .arg(secret)
        .output()
        .unwrap()
}

#[test]
fn descriptors_lapiz_inherited_are_closed_in_its_hosts() {
    if !ready(false) {
        return;
    }
    let dir = common::temp_dir("contained-fds");
    let out = dir.path().join("out.txt");
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "the user's secret 4711").unwrap();
    let lib = plugin(2);
    for extra in ["", "--plugin-sandbox off"] {
        let run = solve_with_descriptors(&lib, &out, &secret, extra);
        let line = failure(&run, "hostile-fds");
        assert!(
            line.contains("refused: write fd 5: Bad file descriptor"),
            "{line}"
        );
        assert!(!String::from_utf8_lossy(&run.stdout).contains("4711"));
        assert!(!out.exists() || std::fs::read(&out).unwrap().is_empty());
    }
    // inside lapiz's own process both descriptors are there
    let run = solve_with_descriptors(&lib, &out, &secret, "--plugin-mode in-process");
    let line = failure(&run, "hostile-fds");
    assert!(
        line.contains("did it: wrote fd 5, read fd 7: the user's secret 4711"),
        "{line}"
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "written by a plugin\n"
    );
}

#[test]
fn a_sandboxed_plugin_cannot_reach_the_frame_channel() {
    if !ready(true) {
        return;
    }
    for (case, id) in [(3, "hostile-forge"), (4, "hostile-flood")] {
        let lib = plugin(case);
        let line = failure(&solve(&lib, &[]), id);
        assert!(
            line.contains("refused: write: Bad file descriptor"),
            "{line}"
        );
    }
}

#[test]
fn forged_frames_never_block_lapiz() {
    if !ready(false) {
        return;
    }
    // unsandboxed, the plugin writes frames on the host's channel and never reads: lapiz's
    // answers fill the host's stdin, and lapiz gives up at the time limit instead of blocking
    let lib = plugin(3);
    let line = failure(&solve(&lib, &["--plugin-sandbox", "off"]), "hostile-forge");
    assert!(
        line.contains(
            "the search ran past the time limit of 3 s (the host did not read what lapiz wrote); its host process was stopped"
        ),
        "{line}"
    );
}

#[test]
fn a_frame_flood_is_bounded_and_named() {
    if !ready(false) {
        return;
    }
    // unsandboxed, the plugin floods the channel while draining its stdin, so lapiz never
    // waits: the bound on frames per search stops it
    let lib = plugin(4);
    // a time limit no machine reaches first: the bound must be what stops the flood
    let out = lapiz()
        .args(["solve", PUZZLE, "--plugin"])
        .arg(&lib)
        .args(["--plugin-time-limit", "600", "--plugin-sandbox", "off"])
        .output()
        .unwrap();
    let line = failure(&out, "hostile-flood");
    assert!(
        line.contains("the plugin host broke the protocol: more than 100000 frames"),
        "{line}"
    );
}

/// Whether process `pid` is gone (or a zombie, dead and waiting for its reaper), waiting up
/// to a minute for it: the test asserts that it ends, not how fast.
fn ends(pid: u32) -> bool {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok();
        let dead = state.as_deref().is_none_or(|s| {
            s.rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X'))
        });
        if dead {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The host's pid, from the plugin's message `did it: pid N; …`.
fn host_pid(line: &str) -> u32 {
    let at = line.find("pid ").expect("a pid") + 4;
    line[at..]
        .split(';')
        .next()
        .unwrap()
        .parse()
        .expect("a pid")
}

#[test]
fn no_host_outlives_lapiz() {
    if !ready(false) {
        return;
    }
    let lib = plugin(5);
    // the plugin ignores SIGTERM, leaves a spinning thread and has a destructor that never
    // returns; sandboxed or not, its host is gone once lapiz has exited
    for extra in [&[][..], &["--plugin-sandbox", "off"][..]] {
        let line = failure(&solve(&lib, extra), "hostile-linger");
        assert!(line.contains("setsid refused"), "{line}");
        let pid = host_pid(&line);
        assert!(ends(pid), "the plugin host {pid} outlived lapiz: {line}");
    }
    // a host started by hand, without lapiz's containment, outlives its stdin: its
    // destructor never returns
    let mut host = lapiz()
        .args(["plugin-host", "--sandbox", "off", "--"])
        .arg(&lib)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = host.stdin.take().unwrap();
    input.write_all(&[5, 0, 0, 0, b'H', 1, 0, 0, 0]).unwrap();
    let mut output = host.stdout.take().unwrap();
    let mut hello = [0u8; 9];
    output.read_exact(&mut hello).unwrap();
    let mut len = [0u8; 4];
    output.read_exact(&mut len).unwrap();
    let mut describe = vec![0u8; u32::from_le_bytes(len) as usize];
    output.read_exact(&mut describe).unwrap();
    assert_eq!(describe[0], b'D', "the library loaded");
    drop(input);
    std::thread::sleep(Duration::from_secs(3));
    let still = host.try_wait().unwrap().is_none();
    let _ = host.kill();
    let _ = host.wait();
    assert!(still, "the uncontained host ended by itself");
}

#[test]
fn a_host_that_leaves_threads_running_after_a_search_is_stopped() {
    if !ready(false) {
        return;
    }
    common::plugins::use_built_host();
    let lib = plugin(5);
    let loaded = lapiz::plugin::load_as(&lib, lapiz::plugin::PluginMode::Host).unwrap();
    let technique = loaded.technique("hostile-linger").unwrap();
    let grid = lapiz::text::parse_line(PUZZLE).unwrap();
    let err = lapiz::technique::find_all(technique.as_ref(), &grid)
        .unwrap_err()
        .to_string();
    assert!(err.contains("spinning thread started"), "{err}");
    // this process lives on, but the host whose thread spins is gone
    let pid = host_pid(&err);
    assert!(ends(pid), "the host {pid} still runs: {err}");
}

#[test]
fn a_pipelines_plugins_are_its_folders_and_it_cannot_lower_their_protection() {
    if !ready(true) {
        return;
    }
    let dir = common::temp_dir("contained-pipeline");
    let own = dir.path().join("pipeline");
    let here = dir.path().join("here");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::create_dir_all(&here).unwrap();
    // the pipeline's own libtech.so reads the environment; one in the current folder is
    // another plugin, which must not replace it
    std::fs::copy(plugin(1), own.join("libtech.so")).unwrap();
    std::fs::copy(plugin(2), here.join("libtech.so")).unwrap();
    let ron = own.join("p.ron");
    std::fs::write(
        &ron,
        "Pipeline(name: \"p\", plugin_mode: InProcess, plugin_sandbox: Off, techniques: [Plugin(\"libtech.so\"), Technique(\"full-house\"), Technique(\"hidden-single\"), Technique(\"naked-single\")])",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        lapiz()
            .current_dir(&here)
            .args(["solve", PUZZLE, "--pipeline"])
            .arg(&ron)
            .args(extra)
            .env("MY_TOKEN", "s3cr3t")
            .output()
            .unwrap()
    };
    let out = run(&[]);
    let line = failure(&out, "hostile-env");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("hostile-fds"));
    // asked by the file alone: hosted (no environment) and sandboxed, with warnings naming
    // the file and each setting
    assert!(line.contains("refused: no MY_TOKEN"), "{line}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    for setting in [
        "`plugin_mode: InProcess` ignored",
        "`plugin_sandbox: Off` ignored",
    ] {
        assert!(
            stderr.contains(&format!("{}: {setting}", ron.display())),
            "{stderr}"
        );
    }
    // asked by the user too: in lapiz's process, as the user wants
    let out = run(&["--plugin-mode", "in-process"]);
    let line = failure(&out, "hostile-env");
    assert!(line.contains("did it: MY_TOKEN=s3cr3t"), "{line}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("ignored"));
}

/// The number in the plugin's message `… started N threads …`.
fn started(line: &str) -> usize {
    let at = line.find("started ").expect("a count") + 8;
    line[at..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .expect("a count")
}

#[test]
fn a_sandboxed_host_runs_a_bounded_number_of_threads() {
    if !ready(true) {
        return;
    }
    let lib = plugin(6);
    // the plugin tries 10,000 threads: sandboxed, the host's cap refuses past it
    let out = solve(&lib, &[]);
    let line = failure(&out, "hostile-threads");
    assert!(line.contains("Resource temporarily unavailable"), "{line}");
    let capped = started(&line);
    assert!(
        capped < lapiz_max_host_threads(),
        "{capped} threads started: {line}"
    );
    // and the threads it left are stopped with their host
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("its host still ran threads after a search returned; it was stopped"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // unsandboxed, all 10,000 start
    let line = failure(
        &solve(&lib, &["--plugin-sandbox", "off"]),
        "hostile-threads",
    );
    assert_eq!(started(&line), 10_000, "{line}");
}

/// The host's thread cap, as docs/plugins.md states it.
fn lapiz_max_host_threads() -> usize {
    64
}

/// The child processes of process `pid` (from each of its threads' `children`).
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

#[test]
fn a_host_dies_with_lapiz_when_a_signal_ends_lapiz() {
    if !ready(false) {
        return;
    }
    // the plugin ignores SIGTERM and SIGHUP and never returns; lapiz is ended by SIGTERM (as
    // `timeout` or a closed terminal ends it), and its host goes with it
    let lib = plugin(7);
    for extra in [&[][..], &["--plugin-sandbox", "off"][..]] {
        let mut lapiz = lapiz()
            .args(["solve", PUZZLE, "--plugin"])
            .arg(&lib)
            .args(["--plugin-time-limit", "600"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let until = Instant::now() + Duration::from_secs(60);
        let host = loop {
            if let Some(&h) = children(lapiz.id()).first() {
                break h;
            }
            assert!(Instant::now() < until, "no plugin host started");
            std::thread::sleep(Duration::from_millis(20));
        };
        // give the host time to be in its search (and to have ignored the signals)
        std::thread::sleep(Duration::from_millis(500));
        let pid = lapiz.id() as libc::pid_t;
        assert!(pid > 1);
        // SAFETY: kill with a positive pid signals that one process, the lapiz just started.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
        let _ = lapiz.wait();
        assert!(ends(host), "the plugin host {host} outlived lapiz");
    }
}

/// A `lapiz serve` child, killed when dropped.
struct Serving(std::process::Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn lapiz_serve_with_hostile_plugins_loses_no_slot_and_leaks_nothing() {
    if !ready(false) {
        return;
    }
    // one slot; a plugin that forges frames and never reads (unsandboxed, so that it can),
    // and one that puts $MY_TOKEN in its message
    let mut child = lapiz()
        .args(["serve", "--port", "0", "--jobs", "1", "--plugin"])
        .arg(plugin(3))
        .arg("--plugin")
        .arg(plugin(1))
        .args(["--plugin-sandbox", "off", "--plugin-time-limit", "2"])
        .env("MY_TOKEN", "s3cr3t")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let _serving = Serving(child);
    let addr: std::net::SocketAddr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let body = format!("{{\"puzzle\":\"{PUZZLE}\"}}");
    // each request gets its answer, the slot comes back, and the token is nowhere
    for _ in 0..3 {
        let (status, text) = common::serve::request_from(
            addr,
            None,
            "POST",
            "/api/solve",
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        )
        .expect("an answer");
        assert_eq!(status, 200, "{text}");
        assert!(text.contains("hostile-forge"), "{text}");
        assert!(text.contains("no MY_TOKEN"), "{text}");
        assert!(!text.contains("s3cr3t"), "{text}");
    }
}

/// Whether `pid` is a process a plugin host forked: a fork does not exec, so it keeps the name
/// of the host's thread that forked (the search thread's).
fn is_host_fork(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .is_ok_and(|c| matches!(c.trim(), "plugin-search" | "lapiz"))
}

#[test]
fn what_a_plugin_forks_ends_with_lapiz_sandbox_off_too() {
    if !ready(false) {
        return;
    }
    let lib = plugin(8);
    let out = solve(&lib, &["--plugin-sandbox", "off"]);
    let line = failure(&out, "hostile-fork");
    assert!(line.contains("forked"), "{line}");
    let child = host_pid(&line);
    let gone = ends(child);
    if !gone && is_host_fork(child) {
        // only the process this test's plugin forked, named by its own pid
        // SAFETY: a positive pid, checked above to be the plugin's fork.
        unsafe {
            libc::kill(child as libc::pid_t, libc::SIGKILL);
        }
    }
    assert!(gone, "the plugin's child {child} outlived lapiz: {line}");
}

//! Builds the plugins the tests load: the Rust ones with a nested `cargo build` into their own
//! target folder (so it never waits on the outer build's lock), the C ones with the system C
//! compiler. Each is built once per test binary.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The project root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where test-built plugins go.
pub fn build_dir() -> PathBuf {
    root().join("target").join("plugin-tests")
}

/// `lib{name}.so` (or the platform's equivalent).
pub fn library_file(name: &str) -> String {
    format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    )
}

fn rust_plugins() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let target = build_dir().join("cargo");
        let status = Command::new(cargo)
            .current_dir(root())
            .args([
                "build",
                "--quiet",
                "-p",
                "example-rust",
                "-p",
                "fault-plugin",
            ])
            .arg("--target-dir")
            .arg(&target)
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("RUSTFLAGS")
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the Rust plugins failed");
        target.join("debug")
    })
}

/// The example Rust plugin (Remote Pairs, BUG+1), built once.
pub fn example_rust() -> PathBuf {
    rust_plugins().join(library_file("lapiz_example_rust"))
}

/// The fault plugin, built once.
pub fn fault_plugin() -> PathBuf {
    rust_plugins().join(library_file("lapiz_fault_plugin"))
}

/// Whether a C compiler (`$CC`, else `cc`) runs here, for the tests that build C plugins. A test
/// calls it first and returns when it says no, after a message saying why; with
/// `LAPIZ_REQUIRE_CC` set (CI sets it) a missing compiler fails the test instead.
pub fn c_compiler_available() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let found = *FOUND.get_or_init(|| {
        Command::new(&cc)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !found {
        assert!(
            std::env::var_os("LAPIZ_REQUIRE_CC").is_none(),
            "no C compiler (`{cc}`) and LAPIZ_REQUIRE_CC is set"
        );
        eprintln!("skipping: this test builds C plugins and no C compiler (`{cc}`) runs here");
    }
    found
}

/// Compiles a C plugin source into `build_dir()/c/lib{name}.so` with the header's folder on
/// the include path and `defines` (e.g. `CASE=2`) set.
pub fn c_plugin(source: &Path, name: &str, defines: &[String]) -> PathBuf {
    let dir = build_dir().join("c");
    std::fs::create_dir_all(&dir).expect("plugin build folder");
    let out = dir.join(library_file(name));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let output = Command::new(&cc)
        .args([
            "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-std=c99",
        ])
        .arg("-I")
        .arg(root().join("plugins/lapiz-plugin-api/include"))
        .args(defines.iter().map(|d| format!("-D{d}")))
        .arg("-o")
        .arg(&out)
        .arg(source)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}`: {e}"));
    assert!(
        output.status.success(),
        "compiling {} failed:\n{}",
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    out
}

/// The example C plugin (XY-Wing), built once.
pub fn example_c() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            c_plugin(
                &root().join("plugins/example-c/xy_wing.c"),
                "lapiz_example_c",
                &[],
            )
        })
        .clone()
}

/// A C fixture of `tests/fixtures/plugins/{name}.c`, built once per name (a library already
/// loaded by this process must not be rewritten).
pub fn fixture(name: &str) -> PathBuf {
    fixture_case(name, 0)
}

/// A C fixture compiled with `-DCASE={case}`, built once per name and case.
pub fn fixture_case(name: &str, case: u32) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<(String, PathBuf)>> = std::sync::Mutex::new(Vec::new());
    let key = format!("fixture_{name}_{case}");
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = built.iter().find(|(n, _)| *n == key) {
        return p.clone();
    }
    let out = c_plugin(
        &root().join(format!("tests/fixtures/plugins/{name}.c")),
        &key,
        &[format!("CASE={case}")],
    );
    built.push((key, out.clone()));
    out
}

/// The hostile plugin of `tests/fixtures/plugins/hostile.c` (a segfault, an abort, an endless
/// loop, `exit(0)`, a stack overflow, a memory hog and one that prints to stdout), built once.
/// Never load it in-process: it takes the process down.
pub fn hostile() -> PathBuf {
    fixture("hostile")
}

/// The time limit per plugin search the tests give hosts (kept low so the endless loop costs
/// little; nothing asserts on time).
pub const TEST_TIME_LIMIT_SECS: f64 = 2.0;

/// The memory limit the tests give hosts, in MiB: well below the hostile hog's 1 GiB.
pub const TEST_MEMORY_MIB: u64 = 256;

/// Makes this test binary's hosted plugins run in the `lapiz` binary Cargo built (a test
/// binary is not `lapiz`, so there is no host program otherwise), with the tests' limits.
pub fn use_built_host() {
    lapiz::plugin::HostSettings {
        program: Some(PathBuf::from(env!("CARGO_BIN_EXE_lapiz"))),
        time_limit: std::time::Duration::from_secs_f64(TEST_TIME_LIMIT_SECS),
        memory_limit_mib: TEST_MEMORY_MIB,
        force_mode: None,
        force_sandbox: None,
    }
    .install();
}

/// Whether the sandboxed tests can run here: a C compiler, and a kernel with Landlock and
/// seccomp (or a failure when `LAPIZ_REQUIRE_SANDBOX` is set and it has not).
pub fn sandbox_ready() -> bool {
    if !c_compiler_available() {
        return false;
    }
    if let Some(shortfall) = lapiz::plugin::sandbox::Support::probe().shortfall() {
        assert!(
            std::env::var_os("LAPIZ_REQUIRE_SANDBOX").is_none(),
            "LAPIZ_REQUIRE_SANDBOX is set but {shortfall}"
        );
        eprintln!("skipping: {shortfall}");
        return false;
    }
    true
}

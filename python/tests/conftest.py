"""Shared fixtures: the project's folders, the shared puzzle collections, the `lapiz` binary
to compare with, and a C plugin built for the plugin tests.

Like the Rust tests, a test that needs something missing skips with a message, unless CI
says it must be there: `LAPIZ_REQUIRE_DATA` (the shared data), `LAPIZ_BIN` (the binary:
when set, it must exist), `LAPIZ_REQUIRE_CC` (a C compiler)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def data_dir() -> Path:
    env = os.environ.get("LAPIZ_DATA")
    return Path(env) if env else ROOT.parent / "shared" / "data"


def data_file(relative: str) -> Path:
    path = data_dir() / relative
    if not path.is_file():
        if os.environ.get("LAPIZ_REQUIRE_DATA"):
            pytest.fail(f"{path} not found and LAPIZ_REQUIRE_DATA is set")
        pytest.skip(f"{path} not found: the shared data is absent (set LAPIZ_DATA)")
    return path


def lapiz_binary() -> Path:
    env = os.environ.get("LAPIZ_BIN")
    if env:
        if not Path(env).is_file():
            pytest.fail(f"LAPIZ_BIN={env} does not exist")
        return Path(env)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        p = target / profile / "lapiz"
        if p.is_file():
            return p
    found = shutil.which("lapiz")
    if found:
        return Path(found)
    pytest.skip("no lapiz binary to compare with: build it (cargo build --release) or set LAPIZ_BIN")


@pytest.fixture(scope="session")
def lapiz_bin() -> Path:
    return lapiz_binary()


def run_cli(binary: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *args], input=stdin, capture_output=True, check=False)


@pytest.fixture(scope="session")
def c_plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example C plugin (an XY-Wing), compiled."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        if os.environ.get("LAPIZ_REQUIRE_CC"):
            pytest.fail("no C compiler and LAPIZ_REQUIRE_CC is set")
        pytest.skip("no C compiler to build the example plugin")
    out = tmp_path_factory.mktemp("plugin") / "libxy_wing.so"
    subprocess.run(
        [cc, "-shared", "-fPIC", "-O2", "-std=c99", "-I",
         str(ROOT / "plugins/lapiz-plugin-api/include"), "-o", str(out),
         str(ROOT / "plugins/example-c/xy_wing.c")],
        check=True,
    )
    return out

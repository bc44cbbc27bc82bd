"""What a Python user expects (issue 68): no panic from any input, a time limit on the
longest solves, `python -m lapiz` and the `lapiz` command as the binary, records as dicts and
DataFrames, files streamed, quiet progress in logs, a small notebook trace, the Dask recipe
as a script, and an install that leaves the clone clean."""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import lapiz
from conftest import ROOT, data_file, run_cli

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
MINIMAL_25 = (ROOT / "tests" / "fixtures" / "minimal-25x25.txt").read_text().strip()

HOSTILE = [None, -1, 0, 81, 2**64, -(2**63), 3.5, float("nan"), float("inf"), "", "r10c1",
           "r0c0", "r1c10", "r99999999999999999999c1", "\x00", "x" * 10_000, "é" * 81,
           b"\xff" * 81, [], {}, (3, 4), (0, 0), (2**40, 1), "0x0", "3x", object()]


def hostile_calls():
    """Every function and method, each with one argument made hostile."""
    board = lapiz.Board(EASY)
    trace = lapiz.solve(EASY)
    step = trace.steps[0]
    rating = lapiz.rate(EASY)
    error = lapiz.rate_many(["bad"])[0]
    for v in HOSTILE:
        yield "Board", lambda v=v: lapiz.Board(v)
        yield "Board(symbols)", lambda v=v: lapiz.Board(EASY, symbols=v)
        yield "Board(box)", lambda v=v: lapiz.Board("3.1...2.2....4..", box=v)
        for name in ("value", "candidates", "is_given"):
            yield f"Board.{name}", lambda v=v, name=name: getattr(board, name)(v)
        yield "Board.count_solutions", lambda v=v: board.count_solutions(v)
        yield "Candidate(cell)", lambda v=v: lapiz.Candidate(v, 5)
        yield "Candidate(digit)", lambda v=v: lapiz.Candidate(0, v)
        yield "Candidate(size)", lambda v=v: lapiz.Candidate(0, 1, v)
        yield "solve", lambda v=v: lapiz.solve(v)
        yield "solve(pipeline)", lambda v=v: lapiz.solve(EASY, v)
        yield "solve(time_limit)", lambda v=v: lapiz.solve(EASY, time_limit=v)
        yield "hint", lambda v=v: lapiz.hint(v)
        yield "hint(level)", lambda v=v: lapiz.hint(EASY, v)
        yield "rate", lambda v=v: lapiz.rate(v)
        yield "rate(time_limit)", lambda v=v: lapiz.rate(EASY, time_limit=v)
        yield "count", lambda v=v: lapiz.count(v)
        yield "count(limit)", lambda v=v: lapiz.count(EASY, v)
        yield "canonical", lambda v=v: lapiz.canonical(v)
        yield "rating_header", lambda v=v: lapiz.rating_header(format=v)
        yield "puzzle_of_line", lambda v=v: lapiz.puzzle_of_line(v)
        yield "Pipeline", lambda v=v: lapiz.Pipeline(v)
        yield "Pipeline.from_ron", lambda v=v: lapiz.Pipeline.from_ron(v)
        yield "Trace.from_ron", lambda v=v: lapiz.Trace.from_ron(v)
        yield "Trace.rating", lambda v=v: trace.rating(v)
        yield "Rating.row", lambda v=v: rating.row(format=v)
        yield "ErrorRecord.row", lambda v=v: error.row(format=v)
        yield "Step.board", lambda v=v: step.board.value(v)
        yield "rate_many", lambda v=v: lapiz.rate_many([v])
        yield "solve_many", lambda v=v: lapiz.solve_many([v])
        yield "count_many", lambda v=v: lapiz.count_many([v], 2)
        yield "count_many(limit)", lambda v=v: lapiz.count_many([EASY], v)
        yield "rate_many(threads)", lambda v=v: lapiz.rate_many([EASY], threads=v)
        # one attempt: a target no puzzle meets fails at once
        for option in ("size", "box", "symbols", "symmetry", "difficulty", "rating", "seed",
                       "clues", "max_clues", "requires"):
            yield f"generate({option})", lambda v=v, o=option: lapiz.generate(1, attempts=1,
                                                                               **{o: v})
        yield "generate(attempts)", lambda v=v: lapiz.generate(1, attempts=v, clues=30)
        yield "generate(size=4, box)", lambda v=v: lapiz.generate(1, size=4, box=v, seed=1)
        yield "generate(size=4, symbols)", lambda v=v: lapiz.generate(1, size=4, symbols=v,
                                                                       seed=1)


def test_no_input_makes_a_panic_reach_python() -> None:
    calls = 0
    for name, call in hostile_calls():
        calls += 1
        try:
            call()
        except Exception:
            pass  # a proper Python error (ValueError, TypeError, ParseError ...)
        except BaseException as e:  # pyo3_runtime.PanicException is not an Exception
            pytest.fail(f"{name}: {type(e).__name__}: {e}")
    assert calls > 1000


def test_cell_names_off_the_board_are_value_errors_never_other_cells() -> None:
    board = lapiz.Board(EASY)
    for name in ("r10c1", "r9c10", "r1c10", "r0c1"):
        with pytest.raises(ValueError, match=name):
            board.value(name)
        with pytest.raises(ValueError):
            lapiz.Candidate(name, 5)
    assert lapiz.Board("3.1...2.2....4..").value("r1c1") == 3
    with pytest.raises(ValueError, match="r1c5"):
        lapiz.Board("3.1...2.2....4..").value("r1c5")


def test_a_25x25_solve_and_rating_stop_at_their_time_limit() -> None:
    t = lapiz.solve(MINIMAL_25, time_limit=0.5)
    assert t.status == "stopped" and not t.solved
    assert lapiz.Board(t.puzzle).size == 25
    with pytest.raises(TimeoutError, match="stopped"):
        lapiz.rate(MINIMAL_25, time_limit=0.5)
    # a limit the solve beats changes nothing
    assert lapiz.solve(EASY, time_limit=60).ron == lapiz.solve(EASY).ron
    for bad in (0, -1, float("nan")):
        with pytest.raises(ValueError, match="time_limit"):
            lapiz.solve(EASY, time_limit=bad)


def python_m(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lapiz", *args], input=stdin,
                          capture_output=True, check=False)


@pytest.mark.parametrize("args", [
    ["solve", EASY], ["rate", "--se-all", HARD], ["hint", "--level", "nudge", EASY],
    ["count", "3.1...2.2....4.."], ["--version"], ["--help"], ["rate", "--help"],
    ["solve", "not a puzzle"], ["no-such-command"], ["techniques"],
])
def test_python_m_lapiz_is_the_command_line(lapiz_bin, args: list) -> None:
    ours, theirs = python_m(*args), run_cli(lapiz_bin, *args)
    assert (ours.stdout, ours.stderr, ours.returncode) == \
        (theirs.stdout, theirs.stderr.replace(str(lapiz_bin).encode(), b"lapiz"), theirs.returncode)


def test_the_package_installs_a_lapiz_command(lapiz_bin, tmp_path) -> None:
    script = Path(sysconfig.get_path("scripts")) / "lapiz"
    if not script.is_file():
        pytest.skip(f"{script} is not installed (the package is not installed in this Python)")
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{EASY}\nbad\n{HARD}\n")
    ours = subprocess.run([str(script), "rate", "--file", "-"], input=puzzles.read_bytes(),
                          capture_output=True, check=False)
    theirs = run_cli(lapiz_bin, "rate", "--file", "-", stdin=puzzles.read_bytes())
    assert ours.stdout == theirs.stdout and ours.returncode == theirs.returncode == 1


def test_batches_convert_to_dicts_and_data_frames() -> None:
    results = lapiz.rate_many([EASY, "bad", HARD])
    dicts = results.to_dicts()
    assert [d["ok"] for d in dicts] == [True, False, True]
    assert dicts[0]["puzzle"] == EASY and dicts[0]["level"] == results[0].level
    assert dicts[1]["kind"] == "parse" and "unexpected character" in dicts[1]["message"]
    assert lapiz.as_dict(lapiz.solve(EASY))["steps"] == 49
    assert lapiz.count_many([EASY, EASY[1:] + "."]).to_dicts()[0] == {"index": 0, "count": 1}
    json.dumps(dicts)  # plain values
    pd = pytest.importorskip("pandas")
    frame = results.to_pandas()
    assert isinstance(frame, pd.DataFrame) and len(frame) == 3
    assert list(frame["ok"]) == [True, False, True]
    assert frame.loc[2, "er"] == results[2].er


def test_rate_file_and_solve_file_stream_a_file(lapiz_bin, tmp_path) -> None:
    source = tmp_path / "p.txt"
    source.write_text(f"# two\n{EASY}\nbad\n{HARD}\n")
    out = tmp_path / "r.tsv"
    # chunks of one: the file goes through piece by piece
    counts = lapiz.rate_file(source, out, se_all=True, chunk_size=1)
    assert counts == {"rated": 2, "errors": 1}
    assert out.read_bytes() == run_cli(lapiz_bin, "rate", "--se-all", "--file", str(source)).stdout
    jl = tmp_path / "s.jsonl"
    assert lapiz.solve_file(source, jl, chunk_size=2) == {"solved": 2, "errors": 1}
    rows = [json.loads(line) for line in jl.read_text().splitlines()]
    assert [r["ok"] for r in rows] == [True, False, True] and rows[0]["steps"] == 49


def test_progress_without_tqdm_writes_no_carriage_return_to_a_log(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    monkeypatch.setattr(lapiz._batch.time, "monotonic", iter(range(0, 10**6, 11)).__next__)
    lapiz.count_many([EASY] * 5, chunk_size=1, progress=True)
    err = capsys.readouterr().err
    assert "\r" not in err and err.splitlines()[-1] == "count: 5 puzzles"
    assert len(err.splitlines()) > 2


def test_the_notebook_trace_is_small_and_unpacks_to_the_page() -> None:
    t = lapiz.solve(EASY)
    assert len(t) == 49
    html = t._repr_html_()
    assert len(html.encode()) <= 100_000, len(html)
    packed = re.search(r'atob\("([A-Za-z0-9+/=]+)"\)', html)
    assert packed and gzip.decompress(base64.b64decode(packed.group(1))).decode() == t.html
    # without JavaScript, the frame shows the solve as text
    assert "Hidden Single: 6 in b1 =&amp;gt; r2c2=6" in html


def test_the_dask_recipe_runs_as_a_script(lapiz_bin, tmp_path) -> None:
    pytest.importorskip("distributed")
    top = data_file("puzzles/top1465.txt").read_text().splitlines()
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join(["# sample"] + top[:12] + ["not a puzzle"]) + "\n")
    out = tmp_path / "ratings.tsv"
    script = ROOT / "python" / "examples" / "dask_rate.py"
    run = subprocess.run([sys.executable, str(script), str(source), str(out), "2"],
                         capture_output=True, check=False, timeout=600)
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    assert out.read_bytes() == run_cli(lapiz_bin, "rate", "--se-all", "--file", str(source)).stdout
    # every worker thread gets several partitions
    import dask.bag as db
    parts = db.read_text(str(source), blocksize=lapiz.dask.blocksize_for(str(source), 2))
    assert parts.npartitions >= 2 * 2


def test_the_docs_show_the_recipe_file_as_it_is() -> None:
    docs = (ROOT / "docs" / "python.md").read_text()
    script = (ROOT / "python" / "examples" / "dask_rate.py").read_text()
    assert f"```python\n{script}```" in docs


def test_the_lock_file_is_current() -> None:
    """`pip install ./python` leaves a clean clone clean: the tracked lock file needs no
    change (cargo would rewrite a stale one during the build)."""
    cargo = shutil.which("cargo")
    if not cargo:
        pytest.skip("no cargo to check python/Cargo.lock with")
    run = subprocess.run([cargo, "metadata", "--locked", "--offline", "--format-version", "1",
                          "--manifest-path", str(ROOT / "python" / "Cargo.toml")],
                         capture_output=True, check=False, env={**os.environ})
    assert run.returncode == 0, run.stderr.decode()


def test_the_extension_has_every_crate_of_the_command_line() -> None:
    """The extension builds the root's `src/cli` in: every crate of the root's `cli` feature
    must be a dependency of python/Cargo.toml too, or `pip install ./python` fails."""
    tomllib = pytest.importorskip("tomllib")
    root = tomllib.loads((ROOT / "Cargo.toml").read_text())
    ours = tomllib.loads((ROOT / "python" / "Cargo.toml").read_text())
    have = set(ours["dependencies"]) | {
        name for target in ours.get("target", {}).values()
        for name in target.get("dependencies", {})
    }
    cli = root["features"]["cli"]
    # `dep:NAME` is a crate; a bare name is another of the root's features, which the
    # extension asks for on its `lapiz` dependency
    wanted = {d.removeprefix("dep:") for d in cli if d.startswith("dep:")}
    assert wanted <= have, f"add to python/Cargo.toml: {sorted(wanted - have)}"
    features = set(ours["dependencies"]["lapiz"].get("features", []))
    missing = {d for d in cli if not d.startswith("dep:")} - features
    assert not missing, f"add to lapiz's features in python/Cargo.toml: {sorted(missing)}"

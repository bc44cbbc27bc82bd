"""The batches: results in input order, bad lines as error records (never a lost line), the
same bytes as `lapiz rate --file`, the threads, the progress, Ctrl-C."""

from __future__ import annotations

import threading

import pytest

import lapiz
from conftest import data_file, run_cli

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def messy_file(tmp_path, puzzles: list[str]):
    """A puzzle file with everything a file may hold: a byte-order mark, comments, blank
    lines, trailing fields, CRLF, a line that is not UTF-8, one too long, bad puzzles."""
    lines = [b"\xef\xbb\xbf# a comment", b""]
    for i, p in enumerate(puzzles):
        lines.append(p.encode() + (b"\t10.5 name" if i % 3 == 0 else b""))
        if i == 2:
            lines += [b"12x", b"\xff\xfe not utf-8", b"9" * 9000, b"11" + b"." * 79, b"." * 81,
                      b"   ", b":0000:x:" + EASY.encode() + b":::", b"#end"]
    path = tmp_path / "messy.txt"
    path.write_bytes(b"\r\n".join(lines) + b"\n")
    return path


def sample(name: str, n: int, every: int = 1) -> list[str]:
    text = data_file(f"puzzles/{name}").read_text()
    lines = [l.split()[0] for l in text.splitlines() if l.strip() and not l.startswith("#")]
    return lines[::every][:n]


def cli_rows(lapiz_bin, path, *extra: str) -> bytes:
    out = run_cli(lapiz_bin, "rate", "--se-all", *extra, "--file", str(path))
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


def py_rows(results, se_all: bool = True, format: str = "tsv") -> bytes:
    rows = [lapiz.rating_header(se_all=se_all, format=format)]
    rows += [r.row(se_all=se_all, format=format) for r in results]
    return ("\n".join(rows) + "\n").encode()


def test_rate_many_gives_rate_files_bytes_with_every_bad_line(tmp_path, lapiz_bin) -> None:
    puzzles = sample("top1465.txt", 40, every=30)
    path = messy_file(tmp_path, puzzles)
    items = list(lapiz.read_puzzles(path))
    results = lapiz.rate_many(items, threads=2)
    # 40 puzzles and 6 bad lines (comments and blank lines are skipped, as the CLI skips them)
    assert len(results) == len(items) == 40 + 6
    assert [r.index for r in results] == list(range(len(items)))
    bad = [r for r in results if not r.ok]
    assert {r.kind for r in bad} == {"parse", "invalid"}
    assert any("not UTF-8" in r.message for r in bad)
    assert any("longer than 8192 bytes" in r.message for r in bad)
    assert py_rows(results) == cli_rows(lapiz_bin, path)
    assert py_rows(results, se_all=False, format="csv") == run_cli(
        lapiz_bin, "rate", "--format", "csv", "--file", str(path)).stdout
    # a stream read from stdin is the same
    with open(path, "rb") as f:
        assert [r.row() for r in lapiz.rate_many(lapiz.read_puzzles(f))] == [r.row() for r in results]


def test_results_keep_input_order_across_chunks_and_threads() -> None:
    puzzles = sample("top1465.txt", 60, every=20)
    one = lapiz.rate_many(puzzles, threads=1)
    many = lapiz.rate_many(puzzles + ["bad"], threads=3, chunk_size=7)
    assert [r.row() for r in many[:-1]] == [r.row() for r in one]
    assert many[-1].index == 60 and not many[-1].ok
    assert [r.puzzle for r in one] == [lapiz.Board(p).givens() for p in puzzles]
    # a generator works as well as a list, and a Board as well as a string
    gen = lapiz.rate_many(lapiz.Board(p) for p in puzzles[:5])
    assert [r.row() for r in gen] == [r.row() for r in one[:5]]
    with pytest.raises(ValueError):
        lapiz.rate_many(puzzles, threads=0)
    with pytest.raises(ValueError):
        lapiz.rate_many(puzzles, chunk_size=0)
    assert lapiz.rate_many([]) == []


def test_solve_many_and_count_many(tmp_path, lapiz_bin) -> None:
    puzzles = sample("top1465.txt", 12, every=100)
    traces = lapiz.solve_many(puzzles + ["11" + "." * 79], threads=2)
    assert [t.ok for t in traces] == [True] * 12 + [False]
    assert traces[-1].kind == "invalid" and traces[-1].message.startswith("invalid puzzle:")
    for p, t in zip(puzzles[:3], traces):
        assert t.ron == lapiz.solve(p).ron
    multi = sample("multi-solution-10000.txt", 30)
    path = messy_file(tmp_path, multi)
    counts = lapiz.count_many(lapiz.read_puzzles(path), limit=3)
    cli = run_cli(lapiz_bin, "count", "--limit", "3", "--file", str(path)).stdout.decode().splitlines()
    assert len(cli) == len(counts) + 1
    for c, line in zip(counts, cli):
        field = line.split("\t")[-1]
        assert (str(c) if isinstance(c, int) else "error") == field


def test_progress_reports_and_the_gil_is_released() -> None:
    puzzles = sample("top1465.txt", 30, every=40)
    seen: list[int] = []
    lapiz.rate_many(puzzles, progress=seen.append, threads=2, chunk_size=8)
    assert seen and seen[-1] == 30 and seen == sorted(seen)
    # while a batch runs, other Python threads run
    ticks = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.01)

    th = threading.Thread(target=tick)
    th.start()
    lapiz.rate_many(puzzles * 2, threads=1)
    stop.set()
    th.join()
    assert len(ticks) > 5


def test_progress_bar_shows(capsys) -> None:
    lapiz.rate_many([EASY] * 3, progress=True)
    # tqdm or the plain line: either way something was drawn on stderr
    assert "3" in capsys.readouterr().err


def test_ctrl_c_stops_a_batch() -> None:
    import _thread
    import time

    import signal

    hard = sample("hardest-1905-11plus.txt", 40, every=100)
    # Python's own Ctrl-C handler, also where SIGINT came ignored (a background job's)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            lapiz.rate_many(hard, threads=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    # the puzzles being rated finish; the rest are not started (40 take well over 10 s)
    assert time.monotonic() - start < 8

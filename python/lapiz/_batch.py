"""The batches: an iterable of puzzles rated, solved or counted on all cores, results in input
order, an input that fails as an ``ErrorRecord`` in its place; and generation."""

from __future__ import annotations

import itertools
import os
import sys
import time
from typing import IO, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _lapiz
from ._lapiz import ErrorRecord, Generated, Pipeline, Rating, Trace, UnreadableLine
from ._records import Results, as_dict

#: Items per chunk handed to the workers: enough to keep every core busy, small enough to
#: keep memory flat (as the command line's batches).
CHUNK_SIZE = 4096

PipelineArg = Union[Pipeline, str, "os.PathLike[str]", None]
Progress = Union[bool, Callable[[int], Any], None]


def _pipeline(pipeline: PipelineArg) -> Optional[Pipeline]:
    """A pipeline named by a name or path is loaded once for the whole batch."""
    if pipeline is None or isinstance(pipeline, Pipeline):
        return pipeline
    return Pipeline(pipeline)


class _Bar:
    """The progress of a batch: tqdm's bar when tqdm is installed, else a line on stderr
    rewritten at most once a second on a terminal (a new line every 10 seconds on anything
    else: a log file gets no carriage returns); or the caller's callable, given the items done
    so far."""

    def __init__(self, progress: Progress, total: Optional[int], what: str) -> None:
        self.callback: Optional[Callable[[int], Any]] = None
        self.tqdm: Any = None
        self.done = 0
        self.total = total
        self.what = what
        self.last = 0.0
        self.plain = False
        self.terminal = False
        if callable(progress) and not isinstance(progress, bool):
            self.callback = progress
        elif progress:
            try:
                from tqdm.auto import tqdm

                self.tqdm = tqdm(total=total, unit=" puzzles", desc=what)
            except ImportError:
                self.plain = True
                isatty = getattr(sys.stderr, "isatty", None)
                self.terminal = bool(isatty and isatty())

    def chunk(self, base: int) -> Optional[Callable[[int], None]]:
        if self.callback is None and self.tqdm is None and not self.plain:
            return None

        def report(done_in_chunk: int) -> None:
            self.update(base + done_in_chunk)

        return report

    def update(self, done: int) -> None:
        if done == self.done:
            return
        if self.callback is not None:
            self.callback(done)
        elif self.tqdm is not None:
            self.tqdm.update(done - self.done)
        elif self.plain:
            now = time.monotonic()
            if now - self.last >= (1.0 if self.terminal else 10.0):
                self.last = now
                of = f" of {self.total}" if self.total is not None else ""
                line = f"{self.what}: {done}{of} puzzles"
                if self.terminal:
                    print(f"\r{line}", end="", file=sys.stderr, flush=True)
                else:
                    print(line, file=sys.stderr, flush=True)
        self.done = done

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
        elif self.plain and self.done:
            start = "\r" if self.terminal else ""
            print(f"{start}{self.what}: {self.done} puzzles", file=sys.stderr, flush=True)


def _chunks(items: Iterable[Any], size: int) -> Iterator[List[Any]]:
    it = iter(items)
    while True:
        chunk = list(itertools.islice(it, size))
        if not chunk:
            return
        yield chunk


def _stream(run: Callable[..., list], items: Iterable[Any], what: str, progress: Progress,
            chunk_size: int, **kwargs: Any) -> Iterator[list]:
    """The results chunk by chunk: only one chunk of inputs and results is held at a time."""
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    total = len(items) if hasattr(items, "__len__") else None  # type: ignore[arg-type]
    bar = _Bar(progress, total, what)
    done = 0
    try:
        for chunk in _chunks(items, chunk_size):
            results = run(chunk, start=done, progress=bar.chunk(done), **kwargs)
            done += len(results)
            bar.update(done)
            yield results
    finally:
        bar.close()


def _batch(run: Callable[..., list], items: Iterable[Any], what: str, progress: Progress,
           chunk_size: int, **kwargs: Any) -> Results:
    out = Results()
    for results in _stream(run, items, what, progress, chunk_size, **kwargs):
        out.extend(results)
    return out


def rate_many(
    puzzles: Iterable[Any],
    pipeline: PipelineArg = None,
    *,
    threads: Optional[int] = None,
    progress: Progress = False,
    chunk_size: int = CHUNK_SIZE,
) -> "Results[Union[Rating, ErrorRecord]]":
    """Rates every puzzle, of any size and mixed sizes, as ``lapiz rate --file`` does (the
    ``se`` pipeline on 9x9 and ``default`` on the other sizes unless told), on
    ``threads`` workers (default: one per core) with the GIL released. One result per input,
    in input order: a ``Rating``, or an ``ErrorRecord`` for an input that cannot be read or is
    not a proper puzzle. ``progress=True`` shows a bar (tqdm when installed); a callable is
    called with the number of puzzles done. The list converts with ``to_dicts()`` and
    ``to_pandas()``."""
    return _batch(_lapiz._rate_batch, puzzles, "rate", progress, chunk_size,
                  pipeline=_pipeline(pipeline), threads=threads)


def solve_many(
    puzzles: Iterable[Any],
    pipeline: PipelineArg = None,
    *,
    threads: Optional[int] = None,
    progress: Progress = False,
    chunk_size: int = CHUNK_SIZE,
) -> "Results[Union[Trace, ErrorRecord]]":
    """Solves every puzzle of any size (the ``default`` pipeline unless told) as ``rate_many``
    rates them:
    a ``Trace`` or an ``ErrorRecord`` per input, in input order."""
    return _batch(_lapiz._solve_batch, puzzles, "solve", progress, chunk_size,
                  pipeline=_pipeline(pipeline), threads=threads)


def count_many(
    puzzles: Iterable[Any],
    limit: int = 2,
    *,
    threads: Optional[int] = None,
    progress: Progress = False,
    chunk_size: int = CHUNK_SIZE,
) -> "Results[Union[int, ErrorRecord]]":
    """Brute-force solution counts (capped at ``limit``) of puzzles of any size (4x4 to 25x25,
    one per input), as ``lapiz count --file``: an ``int`` or an ``ErrorRecord`` per input, in
    input order."""
    return _batch(_lapiz._count_batch, puzzles, "count", progress, chunk_size,
                  limit=limit, threads=threads)


def read_puzzles(source: Union[str, "os.PathLike[str]", IO[bytes]]) -> Iterator[Union[str, UnreadableLine]]:
    """The puzzles of a puzzle file as ``lapiz … --file`` reads it (``-`` for stdin): blank
    lines and ``#`` comments skipped, the first field of a line when it is a whole board long
    (81 characters, or 16 to 625 for other sizes), a byte-order mark at the start dropped; a line that is not UTF-8 or longer than
    8 KiB comes as an ``UnreadableLine``, which a batch turns into that line's
    ``ErrorRecord``."""
    if isinstance(source, (str, os.PathLike)):
        if os.fspath(source) == "-":
            yield from read_puzzles(sys.stdin.buffer)
            return
        with open(source, "rb") as f:
            yield from read_puzzles(f)
        return
    for number, raw in enumerate(source, 1):
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        p = _lapiz.puzzle_of_line(raw, number)
        if p is not None:
            yield p


def _output(dest: Union[str, "os.PathLike[str]", IO[str]]) -> Tuple[IO[str], bool]:
    if isinstance(dest, (str, os.PathLike)):
        if os.fspath(dest) == "-":
            return sys.stdout, False
        return open(dest, "w", encoding="utf-8", newline="\n"), True
    return dest, False


def rate_file(
    source: Union[str, "os.PathLike[str]", IO[bytes]],
    output: Union[str, "os.PathLike[str]", IO[str]],
    pipeline: PipelineArg = None,
    *,
    se_all: bool = False,
    format: str = "tsv",
    header: bool = True,
    threads: Optional[int] = None,
    progress: Progress = False,
    chunk_size: int = CHUNK_SIZE,
) -> Dict[str, int]:
    """Rates a puzzle file into ``output`` (a path, ``-`` for stdout, or a text file): the
    bytes ``lapiz rate [--se-all] [--format csv] [--no-header] --file SOURCE`` prints. The file
    streams through, one chunk at a time, so it may be larger than memory. Gives the number of
    ``rated`` puzzles and of ``errors`` (lines that became an error row)."""
    p = _pipeline(pipeline)
    out, close = _output(output)
    counts = {"rated": 0, "errors": 0}
    try:
        if header:
            out.write(_lapiz.rating_header(se_all=se_all, format=format) + "\n")
        for results in _stream(_lapiz._rate_batch, read_puzzles(source), "rate", progress,
                               chunk_size, pipeline=p, threads=threads):
            out.writelines(r.row(se_all=se_all, format=format) + "\n" for r in results)
            for r in results:
                counts["rated" if r.ok else "errors"] += 1
    finally:
        if close:
            out.close()
    return counts


def solve_file(
    source: Union[str, "os.PathLike[str]", IO[bytes]],
    output: Union[str, "os.PathLike[str]", IO[str]],
    pipeline: PipelineArg = None,
    *,
    threads: Optional[int] = None,
    progress: Progress = False,
    chunk_size: int = CHUNK_SIZE,
) -> Dict[str, int]:
    """Solves a puzzle file into ``output`` (a path, ``-`` for stdout, or a text file) as JSON
    lines: one object per puzzle line, in file order, as ``as_dict`` gives it (``pandas.read_json
    (path, lines=True)`` reads it back). The file streams through, one chunk at a time. Gives
    the number of puzzles per ``status`` (``solved``, ``stuck`` ...) and of ``errors``."""
    import json

    p = _pipeline(pipeline)
    out, close = _output(output)
    counts: Dict[str, int] = {}
    try:
        for results in _stream(_lapiz._solve_batch, read_puzzles(source), "solve", progress,
                               chunk_size, pipeline=p, threads=threads):
            for r in results:
                out.write(json.dumps(as_dict(r), ensure_ascii=False) + "\n")
                key = r.status if r.ok else "errors"
                counts[key] = counts.get(key, 0) + 1
    finally:
        if close:
            out.close()
    return counts


def parse_rating_range(text: Union[str, float, Tuple[float, float], Sequence[float]]) -> Tuple[float, float]:
    """``MIN..MAX``, ``MIN..``, ``..MAX`` or one value (as ``lapiz generate --rating``), or a
    number or a ``(min, max)`` pair."""
    import math

    if isinstance(text, (int, float)):
        return float(text), float(text)
    if not isinstance(text, str):
        lo, hi = text
        return float(lo), float(hi)

    def num(t: str, default: float) -> float:
        t = t.strip()
        if not t:
            return default
        try:
            v = float(t)
        except ValueError:
            raise ValueError(f"rating: `{t}` is not a number") from None
        if not math.isfinite(v):
            raise ValueError(f"rating: `{t}` is not a number")
        return v

    if ".." in text:
        a, b = text.split("..", 1)
        lo, hi = num(a, 0.0), num(b.lstrip("="), 3.4028234663852886e38)
    else:
        lo = hi = num(text, math.nan)
    if math.isnan(lo) or lo > hi:
        raise ValueError(f"rating: `{text}` is an empty range")
    return lo, hi


def _clock_seed() -> int:
    return (time.time_ns() ^ (os.getpid() << 32)) & ((1 << 64) - 1)


def generate(
    count: int = 1,
    *,
    seed: Optional[int] = None,
    symmetry: str = "none",
    clues: Optional[int] = None,
    max_clues: Optional[int] = None,
    difficulty: Optional[str] = None,
    rating: Union[str, float, Tuple[float, float], None] = None,
    requires: Iterable[str] = (),
    rate: bool = False,
    attempts: Optional[int] = None,
    pipeline: PipelineArg = None,
    threads: Optional[int] = None,
    progress: Progress = False,
    size: int = 9,
    box: Union[str, Tuple[int, int], None] = None,
    symbols: Optional[str] = None,
) -> List[Generated]:
    """Puzzles with one solution, as ``lapiz generate`` makes them (the same options; the same
    seed gives the same puzzles): minimal unless ``clues``/``max_clues``; ``symmetry``;
    targets ``difficulty`` (a level), ``rating`` (``"MIN..MAX"``), ``requires`` (technique
    ids); ``rate=True`` rates every puzzle. ``size`` is 4, 6, 8, 9, 12, 16 or 25 (an n x n
    board, as ``--size``), ``box`` the box shape (``"3x4"`` or ``(3, 4)``, as ``--box``) and
    ``symbols`` the output's symbols (``"1-9A"``, ``"0-9A"``, ``"A-Z"``, ``"numbers"``, as
    ``--symbols``; other sizes than 9x9). Targets are rated as ``lapiz rate`` rates: the ``se``
    pipeline on 9x9 and ``default`` on other sizes, unless a pipeline is given; on other sizes
    a puzzle whose solve needs a step harder than the target's ceiling gets clues back (so it
    may not be minimal). ``attempts`` (solved grids tried per puzzle) defaults to the
    generator's own limit for the size and clue target. Raises ``GenerateError`` when a target
    is not met within ``attempts``."""
    if count < 0:
        raise ValueError("count must be at least 0")
    if seed is None:
        seed = _clock_seed()
    bounds = None if rating is None else parse_rating_range(rating)
    p = _pipeline(pipeline)
    bar = _Bar(progress, count, "generate")
    out: List[Generated] = []
    # as the command line: small chunks on other sizes, where each puzzle takes longer
    per = 16 if size == 9 and box is None else 4
    step = max(1, per * (threads or _lapiz.default_threads()))
    try:
        while len(out) < count:
            n = min(step, count - len(out))
            out.extend(_lapiz._generate_batch(
                n, seed, symmetry, clues, max_clues, difficulty, bounds, list(requires),
                rate, attempts, p, threads, len(out), bar.chunk(len(out)),
                size, box, symbols))
            bar.update(len(out))
    finally:
        bar.close()
    return out

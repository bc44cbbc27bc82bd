"""Rating a puzzle file on a Dask cluster (docs/python.md, "Distributed"): the file's lines as
``dask.bag`` partitions, each partition rated by ``rate_many`` on the worker's own lapiz
thread pool; the rows come back in file order, the same bytes as ``lapiz rate --file``.

Importing this module does not import Dask: the helpers take the bag or client you give."""

from __future__ import annotations

import math
import os
from typing import Any, Iterable, List, Optional

from . import _lapiz
from ._batch import PipelineArg, rate_many


def rate_partition(
    lines: Iterable[str],
    pipeline: PipelineArg = None,
    threads: Optional[int] = None,
    se_all: bool = False,
    format: str = "tsv",
) -> List[str]:
    """The rating rows of one partition of a puzzle file's lines (as ``dask.bag.read_text``
    gives them), as ``lapiz rate --file`` prints them: blank lines and comments skipped, one
    row per puzzle line, an error row for a bad one. Runs on ``threads`` workers of this
    process's lapiz pool (default: one per core)."""
    puzzles = []
    for line in lines:
        p = _lapiz.puzzle_of_line(line.encode("utf-8", "surrogateescape"))
        if p is not None:
            puzzles.append(p)
    return [r.row(se_all=se_all, format=format) for r in rate_many(puzzles, pipeline, threads=threads)]


#: Partitions per worker thread when ``rate_file`` picks the block size: enough that a worker
#: finishing early takes another, few enough that each partition's ``rate_many`` fills a pool.
PARTITIONS_PER_THREAD = 4


def worker_threads() -> int:
    """The worker threads of the current Dask client's cluster (this machine's cores when
    there is no client: Dask's default scheduler)."""
    try:
        from distributed import get_client

        info = get_client().scheduler_info()
        return max(1, sum(w.get("nthreads", 1) for w in info["workers"].values()))
    except (ImportError, ValueError):
        return os.cpu_count() or 1


def blocksize_for(path: str, threads: int) -> int:
    """A block size that cuts the file into ``PARTITIONS_PER_THREAD`` partitions per worker
    thread (a file of a few KB still makes several partitions; a block holds at least a line
    of 81 characters)."""
    size = os.path.getsize(path)
    return max(100, math.ceil(size / (threads * PARTITIONS_PER_THREAD)))


def rate_file(
    path: str,
    *,
    pipeline: PipelineArg = None,
    threads: Optional[int] = None,
    se_all: bool = False,
    format: str = "tsv",
    header: bool = True,
    blocksize: Any = None,
) -> List[str]:
    """Rates a puzzle file on the current Dask client (or Dask's default scheduler): the
    table ``lapiz rate --file PATH`` prints, as a list of lines without line ends. Each
    partition is a ``blocksize`` block of the file (default: ``blocksize_for`` the cluster's
    worker threads, so every worker is busy); ``threads`` is what each task's ``rate_many``
    uses (the cores of a worker divided by its tasks at once)."""
    import dask.bag as db

    if blocksize is None:
        blocksize = blocksize_for(path, worker_threads())
    bag = db.read_text(path, blocksize=blocksize, encoding="utf-8")
    rows = bag.map_partitions(
        rate_partition, pipeline=pipeline, threads=threads, se_all=se_all, format=format
    ).compute()
    out = [_lapiz.rating_header(se_all=se_all, format=format)] if header else []
    return out + list(rows)

"""The distributed recipes of docs/python.md: the Dask one on a LocalCluster with two worker
processes, and the Spark `RDD.pipe` one's mechanics (partitions piped through
`lapiz rate --file -`); both must give `lapiz rate --file`'s bytes."""

from __future__ import annotations

import pickle

import pytest

import lapiz
from conftest import data_file, run_cli


@pytest.fixture(scope="module")
def sample(tmp_path_factory, lapiz_bin):
    return sample_file(tmp_path_factory.mktemp("sample"), lapiz_bin)


def sample_file(tmp_path, lapiz_bin):
    """Hard puzzles (every 400th of the hardest list) and easier ones, with a comment and a
    bad line, as one file; and what `lapiz rate --se-all --file` prints for it."""
    hardest = data_file("puzzles/hardest-1905-11plus.txt").read_text().splitlines()
    top = data_file("puzzles/top1465.txt").read_text().splitlines()
    lines = ["# sample"] + hardest[::400][:12] + ["not a puzzle"] + top[::50][:16]
    path = tmp_path / "sample.txt"
    path.write_text("\n".join(lines) + "\n")
    cli = run_cli(lapiz_bin, "rate", "--se-all", "--file", str(path))
    assert cli.returncode == 1  # the bad line
    return path, cli.stdout


def test_the_dask_recipe_on_two_worker_processes(sample) -> None:
    distributed = pytest.importorskip("distributed")
    path, expected = sample
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        # small blocks: several partitions, spread over both workers
        lines = lapiz.dask.rate_file(str(path), se_all=True, threads=1, blocksize=500)
        # both worker processes took part
        import dask.bag as db
        parts = db.read_text(str(path), blocksize=500).npartitions
        assert parts >= 4
        who = client.run(lambda: __import__("os").getpid())
        assert len(set(who.values())) == 2
        # rate_many itself runs on a worker: inputs and results pickle across
        future = client.submit(lapiz.rate_many, [lapiz.Board(l) for l in
                               path.read_text().splitlines()[1:4]], "se", threads=1)
        remote = future.result()
    assert ("\n".join(lines) + "\n").encode() == expected
    local = lapiz.rate_many(list(lapiz.read_puzzles(path))[:3])
    assert [r.row() for r in remote] == [r.row() for r in local]


def test_the_spark_pipe_recipe_gives_the_same_bytes(sample, lapiz_bin) -> None:
    """`RDD.pipe("lapiz rate --se-all --no-header --file -")` feeds each partition's lines to
    the command's stdin and collects its stdout lines: done here by hand, partition by
    partition."""
    path, expected = sample
    lines = path.read_text().splitlines()
    rows: list[str] = []
    for k in range(0, len(lines), 9):
        part = ("\n".join(lines[k:k + 9]) + "\n").encode()
        out = run_cli(lapiz_bin, "rate", "--se-all", "--no-header", "--file", "-", stdin=part)
        assert out.returncode in (0, 1)
        rows += out.stdout.decode().splitlines()
    header = lapiz.rating_header(se_all=True)
    assert ("\n".join([header] + rows) + "\n").encode() == expected
    # and the Python rows match too, as pickled through a process boundary would carry them
    results = pickle.loads(pickle.dumps(lapiz.rate_many(lapiz.read_puzzles(path))))
    assert [r.row(se_all=True) for r in results] == rows

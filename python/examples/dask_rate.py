"""Rates a puzzle file on a Dask cluster: the rows of ``lapiz rate --se-all --file``, byte for
byte (docs/python.md, "Distributed").

    python dask_rate.py puzzles.txt ratings.tsv [WORKERS]          # a LocalCluster
    python dask_rate.py puzzles.txt ratings.tsv tcp://host:8786    # a running cluster
"""

import sys

from dask.distributed import Client, LocalCluster

import lapiz


def main(source: str, output: str, cluster: str = "2") -> None:
    if cluster.isdigit():
        # one single-threaded worker process per core: each task's rate_many gets one thread
        with LocalCluster(n_workers=int(cluster), threads_per_worker=1) as local, Client(local):
            # the file cut into 4 partitions per worker thread, rated where they land
            lines = lapiz.dask.rate_file(source, se_all=True, threads=1)
    else:
        with Client(cluster):
            lines = lapiz.dask.rate_file(source, se_all=True, threads=1)
    with open(output, "w", encoding="utf-8", newline="\n") as out:
        out.write("\n".join(lines) + "\n")


# Dask starts its workers as new Python processes that import this file: the guard keeps
# them from starting clusters of their own.
if __name__ == "__main__":
    main(*sys.argv[1:4])

"""lapiz: a Sudoku engine that solves like a strong human and explains every move.

>>> import lapiz
>>> board = lapiz.Board("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> trace = lapiz.solve(board)
>>> trace.status
'solved'
>>> trace.steps[0].explanation
'Hidden Single: 6 in b1 => r2c2=6'

See docs/python.md for the whole API, the notebook views and the distributed recipes.
"""

from __future__ import annotations

import os
import shutil
import sysconfig

from . import _lapiz, dask
from ._batch import (
    CHUNK_SIZE,
    count_many,
    generate,
    parse_rating_range,
    rate_file,
    rate_many,
    read_puzzles,
    solve_file,
    solve_many,
)
from ._records import Results, as_dict
from ._errors import GenerateError, InvalidPuzzleError, LapizError, ParseError, PipelineError
from ._lapiz import (
    DEFAULT_ATTEMPTS,
    MAX_THREADS,
    Board,
    Candidate,
    ErrorRecord,
    Generated,
    Hint,
    Pipeline,
    Rating,
    Step,
    Technique,
    Trace,
    UnreadableLine,
    __version__,
    canonical,
    count,
    default_threads,
    hint,
    puzzle_of_line,
    rate,
    rating_header,
    solve,
)

__all__ = [
    "Board", "Candidate", "CHUNK_SIZE", "DEFAULT_ATTEMPTS", "ErrorRecord", "Generated",
    "GenerateError", "Hint", "InvalidPuzzleError", "LapizError", "MAX_THREADS", "ParseError",
    "Pipeline", "PipelineError", "Rating", "Step", "Technique", "Trace", "UnreadableLine",
    "__version__", "canonical", "count", "count_many", "default_threads", "generate", "hint",
    "parse_rating_range", "puzzle_of_line", "rate", "rate_many", "rating_header",
    "read_puzzles", "solve", "solve_many", "rate_file", "solve_file", "Results", "as_dict",
]


def _plugin_host() -> str | None:
    """The package's ``lapiz-plugin-host`` script, which runs plugins in their own process."""
    name = "lapiz-plugin-host" + (".exe" if os.name == "nt" else "")
    scripts = sysconfig.get_path("scripts")
    if scripts and os.path.isfile(os.path.join(scripts, name)):
        return os.path.join(scripts, name)
    return shutil.which("lapiz-plugin-host")


_lapiz._set_plugin_host(_plugin_host())

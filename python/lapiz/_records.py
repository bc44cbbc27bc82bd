"""Batch results as plain data: each record as a dict, a batch as a list of dicts or a pandas
DataFrame (pandas optional)."""

from __future__ import annotations

from typing import Any, Dict, List, TypeVar

from ._lapiz import ErrorRecord, Rating, Trace

#: The fields of each record's dict, in column order.
_RATING = ("index", "ok", "puzzle", "er", "ep", "ed", "rating", "level", "score",
           "hardest_technique", "steps", "guesses", "solved", "techniques")
_TRACE = ("index", "ok", "puzzle", "status", "solved", "guessed", "reason", "solution",
          "pipeline", "hardest_technique", "hardest_difficulty")
_ERROR = ("index", "ok", "puzzle", "kind", "message")


def as_dict(record: Any) -> Dict[str, Any]:
    """One batch result as a dict of plain values: a ``Rating`` (its columns, ``techniques``
    a ``{id: count}`` dict), a ``Trace`` (``steps`` is the number of steps), an
    ``ErrorRecord`` (``ok`` False, ``kind``, ``message``) or a count (``{"count": n}``)."""
    if isinstance(record, Rating):
        return {k: getattr(record, k) for k in _RATING}
    if isinstance(record, Trace):
        d = {k: getattr(record, k) for k in _TRACE}
        d["steps"] = len(record)
        return d
    if isinstance(record, ErrorRecord):
        return {k: getattr(record, k) for k in _ERROR}
    if isinstance(record, int) and not isinstance(record, bool):
        return {"count": record}
    raise TypeError(f"not a batch result: {type(record).__name__}")


T = TypeVar("T")


class Results(List[T]):
    """A batch's results, in input order: a list, which also converts to dicts and to a
    pandas DataFrame."""

    def to_dicts(self) -> List[Dict[str, Any]]:
        """Each result as ``as_dict`` gives it (a count gets its ``index`` too)."""
        out = []
        for i, r in enumerate(self):
            d = as_dict(r)
            if "index" not in d:
                d = {"index": i, **d}
            out.append(d)
        return out

    def to_pandas(self) -> Any:
        """A pandas DataFrame with one row per result (error records have their ``kind`` and
        ``message``, the other columns empty). Needs pandas (``pip install pandas``)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_pandas needs pandas: pip install pandas") from None
        return pd.DataFrame.from_records(self.to_dicts())

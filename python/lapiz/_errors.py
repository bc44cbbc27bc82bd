"""The exceptions lapiz raises, each with lapiz's own message."""

from __future__ import annotations


class LapizError(Exception):
    """Anything lapiz refuses: the base of every lapiz exception."""


class ParseError(LapizError, ValueError):
    """A puzzle text that cannot be read (what is wrong, and where)."""


class InvalidPuzzleError(LapizError, ValueError):
    """A puzzle that reads but is not a proper puzzle: a clash, no solution, several."""


class PipelineError(LapizError):
    """A pipeline, technique script or plugin library that does not load."""


class GenerateError(LapizError):
    """A generation target that no puzzle met within the attempts."""

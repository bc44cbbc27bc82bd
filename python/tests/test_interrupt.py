"""Ctrl-C inside one long solve or rating raises KeyboardInterrupt there, and the solve after
it runs as usual. The 25x25 puzzle's solve takes hours: a solve that could not be stopped
would hold the test until its time limit."""

from __future__ import annotations

import os
import signal
import threading

import pytest

import lapiz
from conftest import ROOT

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
# Rated 11.9 by the `se` pipeline: its rating takes seconds (nested dynamic forcing chains).
HARDEST = ".2.4...8.....8...68....71..2..5...9..95.......4..3.........1..7..28...4.....6.3.."
# `lapiz generate --size 25 --seed 1`: minimal, hours to solve by logic.
MINIMAL_25 = (ROOT / "tests" / "fixtures" / "minimal-25x25.txt").read_text().strip()


@pytest.fixture
def sigint_raises():
    """SIGINT raises KeyboardInterrupt during the test, as in a terminal, even in a process that
    started with SIGINT ignored (a background job of a non-interactive shell is): without the
    handler the signal would be ignored and the 25x25 solve would run for hours."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
@pytest.mark.usefixtures("sigint_raises")
@pytest.mark.parametrize(
    "call",
    [
        lambda: lapiz.rate(HARDEST),
        lambda: lapiz.solve(MINIMAL_25),
        lambda: lapiz.rate(MINIMAL_25),
    ],
)
def test_ctrl_c_interrupts_one_long_solve(call) -> None:
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    assert lapiz.solve(EASY).status == "solved"

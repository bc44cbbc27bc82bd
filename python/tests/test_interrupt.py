"""Ctrl-C inside one long solve or rating raises KeyboardInterrupt there, and the solve after
it runs as usual."""

from __future__ import annotations

import os
import signal
import threading

import pytest

import lapiz

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
# Rated 11.9 by the `se` pipeline: its rating takes seconds (nested dynamic forcing chains).
HARDEST = ".2.4...8.....8...68....71..2..5...9..95.......4..3.........1..7..28...4.....6.3.."


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("call", [lambda: lapiz.rate(HARDEST), lambda: lapiz.solve(HARDEST, "se")])
def test_ctrl_c_interrupts_one_long_solve(call) -> None:
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    assert lapiz.solve(EASY).status == "solved"

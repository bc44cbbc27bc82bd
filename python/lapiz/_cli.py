"""The package's ``lapiz`` command (and ``python -m lapiz``): the command line itself, built
into the extension from the same source as the ``lapiz`` binary, so the commands, options,
output and exit statuses are the binary's."""

from __future__ import annotations

import signal
import sys
import threading
from typing import Optional, Sequence

from . import _lapiz


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs ``lapiz ARGV`` (default: this process's arguments) in this process and gives its
    exit status. The command line owns the process from here: it sets up its thread pool and
    its Ctrl-C handling as the binary does."""
    args = sys.argv[1:] if argv is None else list(argv)
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C ends a command as it ends the binary's (a command that stops cleanly on
        # Ctrl-C installs its own handler); Python's handler would wait for the command's end
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.stderr.flush()
    return _lapiz._cli(["lapiz", *args])

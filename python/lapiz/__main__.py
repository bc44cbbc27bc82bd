"""``python -m lapiz ARGS``: the ``lapiz`` command line, as the package's ``lapiz`` command runs it."""

from ._cli import main

if __name__ == "__main__":
    raise SystemExit(main())

"""``lapiz-plugin-host``: the program the extension starts to run a plugin library in a
process of its own (``lapiz-plugin-host plugin-host --memory-mib N --sandbox on -- LIB``),
as the ``lapiz`` binary's hidden ``plugin-host`` command does."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: lapiz-plugin-host plugin-host [--memory-mib N] [--sandbox on|off] [--] LIB"
    if not args or args[0] != "plugin-host":
        print(usage, file=sys.stderr)
        sys.exit(2)
    args = args[1:]
    memory, sandbox, library = 0, True, None
    while args:
        a = args.pop(0)
        if a == "--memory-mib" and args:
            memory = int(args.pop(0))
        elif a == "--sandbox" and args:
            sandbox = args.pop(0) != "off"
        elif a == "--" and len(args) == 1:
            library = args.pop(0)
        elif not a.startswith("-") and not args:
            library = a
        else:
            print(usage, file=sys.stderr)
            sys.exit(2)
    if library is None:
        print(usage, file=sys.stderr)
        sys.exit(2)
    from lapiz import _lapiz

    code = _lapiz._serve_plugin_host(library, memory, sandbox)
    # The sandbox is on: leave at once, without the interpreter's clean-up.
    sys.stdout.flush()
    os._exit(code)


if __name__ == "__main__":
    main()

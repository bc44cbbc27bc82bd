"""The README's Python example (and the package README's) runs as written and prints what
its comments say."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from conftest import ROOT


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


@pytest.mark.parametrize("readme", ["README.md", "python/README.md"])
def test_the_readmes_python_example_works(readme) -> None:
    blocks = python_blocks(ROOT / readme)
    assert blocks, f"no Python example in {readme}"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], readme, "exec"), {})
    printed = out.getvalue().splitlines()
    # each `print(...)   # what it prints` comment is what it printed
    said = [c.strip() for c in re.findall(r"print\(.*\)\s+#\s*(.*)", blocks[0])]
    for line, comment in zip(printed, said):
        if comment.startswith("the rows"):
            continue
        assert line == comment, (line, comment)
    assert printed


def test_the_readme_says_pip_install_python() -> None:
    assert "pip install ./python" in (ROOT / "README.md").read_text()


def test_the_package_readmes_every_size_example_works() -> None:
    text = (ROOT / "python/README.md").read_text()
    section = text.split("## Every grid size", 1)[1]
    block = python_blocks_of(section)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "python/README.md", "exec"), {})
    printed = out.getvalue().splitlines()
    said = [c.strip() for c in re.findall(r"print\(.*\)\s+#\s*(.*)", block)]
    assert len(printed) == len(said) and printed == said


def python_blocks_of(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)

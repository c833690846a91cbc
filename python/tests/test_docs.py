"""Every Python example of docs/python.md runs as written, from the repository's root."""

from __future__ import annotations

import os
import re

import pytest

from conftest import REPO

DOC = REPO / "docs" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index: int) -> None:
    code = BLOCKS[index]
    if "from agents import" in code:
        pytest.importorskip("agents")
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        exec(compile(code, f"{DOC}:example {index + 1}", "exec"), {"__name__": "docs_example"})
    finally:
        os.chdir(cwd)

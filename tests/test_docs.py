"""The Python examples of the README and of docs/ run as written.

Each page's ```python blocks run in order in one namespace, from the repository's
root (their paths are relative to it), so an example that drifts from the API fails
here rather than in a reader's hands.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


def python_blocks(page: Path) -> List[str]:
    return BLOCK.findall(page.read_text(encoding="utf-8"))


def test_the_pages_with_examples_are_found() -> None:
    with_examples = {p.name for p in PAGES if python_blocks(p)}
    assert {"README.md", "api.md", "analyze.md", "formats.md", "notation.md"} <= with_examples


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)], ids=lambda p: p.name)
def test_a_pages_python_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    for i, block in enumerate(python_blocks(page)):
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, f"{page.name}, python block {i + 1}", "exec"), namespace)

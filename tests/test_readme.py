"""README and CI must not drift apart: CI runs the README's own test command."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from tarot_solver.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _block(name: str) -> str:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(rf"<!-- ci:{name} -->\n```\n(.*?)\n```\n<!-- /ci:{name} -->", text, re.S)
    assert len(blocks) == 1, f"README.md needs exactly one ci:{name} block"
    return blocks[0].strip()


def test_ci_runs_the_readme_test_command() -> None:
    cmd = _block("test")
    assert "pytest" in cmd and "pip install" in cmd
    ci = (ROOT / ".ci" / "run").read_text()
    assert "<!-- ci:test -->" in ci and 'bash -euo pipefail -c "$cmd"' in ci


def test_readme_main_command_is_a_valid_cli_call() -> None:
    cmd = _block("main")
    call = cmd.split("&&")[-1].strip()
    args = shlex.split(call)
    assert args[0].endswith("tarot-solve")
    assert (ROOT / args[2]).exists()
    # the same call, with a tiny budget so the test stays fast
    res = CliRunner().invoke(main, [args[1], str(ROOT / args[2]), "--nodes", "1000", "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output

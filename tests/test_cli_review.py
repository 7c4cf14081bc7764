"""Bad input to `solve`, `bid` and `discard` named as the contract asks: the file, the
record, the key (a user's review of the command line)."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest
from click.testing import CliRunner

from tarot_solver.cli import main


def run(args: List[str]) -> Any:
    return CliRunner().invoke(main, args)


def one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tarot-solve: error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("dropped, key", [(("taker", "contract", "discard", "bids"), "taker"),
                                          (("contract", "discard", "bids"), "contract"),
                                          (("dealer", "bids"), "dealer")])
def test_solve_names_the_missing_key(deal_obj: Dict[str, Any], write: Any, dropped: Any, key: str) -> None:
    path = write("deal.json", json.dumps({k: v for k, v in deal_obj.items() if k not in dropped}))
    for args in (["solve", str(path), "--nodes", "1000"], ["solve", str(path), "--made-only", "--nodes", "1000"]):
        line = one_line_error(run(args))
        assert f"deal.json: line 1 (id 'example-deal'): key '{key}': the deal cannot be played without" in line

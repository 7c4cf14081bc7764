"""The benchmark scripts' bookkeeping that their recorded figures rest on."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def advice_quality():
    spec = importlib.util.spec_from_file_location("advice_quality", BENCHMARKS / "advice_quality.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["advice_quality"] = module  # its worker functions are found by name
    spec.loader.exec_module(module)
    yield module
    del sys.modules["advice_quality"]


QUALITY = ["quality", "--deals", "3", "--worlds", "4", "--node-budget", "3000", "--margin-budget", "3000",
           "--eval-budget", "20000", "--eval-margin-budget", "20000", "-j", "1"]


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_saved_quality_run_resumes_and_settles(advice_quality, tmp_path, capsys):
    saved = tmp_path / "q.jsonl"
    advice_quality.main(QUALITY + ["--save", str(saved)])
    first = lines(saved)
    assert "params" in first[0]
    assert sum("advice" in o for o in first) == 3 and sum("question" in o for o in first) == 9
    report = capsys.readouterr().out
    # run again: everything is in the file, nothing is asked again, the same report
    advice_quality.main(QUALITY + ["--save", str(saved)])
    assert lines(saved) == first
    assert capsys.readouterr().out.split("\n", 3)[3] == report.split("\n", 3)[3]
    # another run's parameters are refused rather than mixed in
    with pytest.raises(SystemExit, match="another run"):
        advice_quality.main(QUALITY[:2] + ["4"] + QUALITY[3:] + ["--save", str(saved)])
    # settle asks the questions a policy bid on that are not settled, with more nodes
    run = advice_quality.Saved.open(saved)
    bid = {(i, advice_quality.family(c)) for i, row in run.rows.items() for c in row[:2] if c is not None}
    unsettled = {k for k in bid if run.real[k][1].low < run.real[k][1].high}
    assert unsettled, "the tiny budgets leave some question open"
    advice_quality.main(["settle", str(saved), "--eval-budget", "400000", "--eval-margin-budget", "200000",
                         "--table-mb", "16", "-j", "1"])
    added = lines(saved)[len(first):]
    assert {(o["deal"], o["question"]) for o in added} == {(i, q.value) for i, q in unsettled}
    settled = advice_quality.Saved.open(saved)
    for i, q in unsettled:
        budget, o = settled.real[i, q]
        assert budget == 400000
        before = run.real[i, q][1]
        assert before.low <= o.low <= o.high <= before.high  # within what was proven before
    assert "400,000 nodes" in capsys.readouterr().out

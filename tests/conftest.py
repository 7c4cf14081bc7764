"""Shared fixtures: the example files, fresh copies of their JSON, and bad inputs.

``bad_input`` is parametrized over every kind of invalid deal record; a test that
asks for it runs once per kind with a :class:`BadInput` (the file text, the file
name and the fragments its error message must contain).
"""

from __future__ import annotations

import copy
import json
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest
from hypothesis import settings

from tarot_solver.cards import card_token, cards_of
from tarot_solver.errors import TarotError
from tarot_solver.records import DealRecord

# property tests: the same examples on every run, and no deadline (a timing is no
# assertion: on a loaded machine a fast case can take 300 ms)
settings.register_profile("tarot", deadline=None, derandomize=True, database=None)
settings.load_profile("tarot")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def default_sigint() -> None:
    """For a child process: Ctrl-C's default disposition, even when the test run
    was started in the background (which makes it inherit an ignored SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def process_state(pid: int) -> str:
    """A process's state letter (Z: exited, waiting to be reaped), "" if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own Ctrl-C handler while a test runs (a runner started in the
    background may have left SIGINT ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def ctrl_c_at_call(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, k: int) -> None:
    """A Ctrl-C (KeyboardInterrupt) at the ``k``-th call of ``module.name`` from now on,
    the calls before it made as usual: a run with one job (in this process) stopped
    after ``k - 1`` of its tasks."""
    function = getattr(module, name)
    calls: List[Any] = []

    def stopping(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == k:
            raise KeyboardInterrupt
        return function(*args, **kwargs)
    monkeypatch.setattr(module, name, stopping)


def load_json(name: str) -> Dict[str, Any]:
    """A fresh copy of the JSON object of an example file."""
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def record_error(obj: Dict[str, Any]) -> TarotError:
    """The error reading ``obj`` as a record of file "f", line 1."""
    with pytest.raises(TarotError) as info:
        DealRecord.from_json(obj, file="f", record="line 1")
    return info.value


@pytest.fixture
def three_obj() -> Dict[str, Any]:
    """The three-player example game (examples/three.json) as a mutable JSON object."""
    return load_json("three.json")


@pytest.fixture
def five_obj() -> Dict[str, Any]:
    """The five-player example game (examples/five.json) as a mutable JSON object."""
    return load_json("five.json")


@pytest.fixture
def game_obj() -> Dict[str, Any]:
    """The complete example game (examples/game.json) as a mutable JSON object."""
    return load_json("game.json")


@pytest.fixture
def deal_obj() -> Dict[str, Any]:
    """The example deal to solve (examples/deal.json) as a mutable JSON object."""
    return load_json("deal.json")


@pytest.fixture
def example_game() -> DealRecord:
    return DealRecord.from_json(load_json("game.json"), file="game.json")


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    """``write(name, text)``: a file in a temporary directory."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


# Bad inputs --------------------------------------------------------------------------


@dataclass
class BadInput:
    kind: str
    name: str  # file name
    text: str  # file contents
    fragments: Tuple[str, ...]  # what the one-line error message must contain


def _illegal_play(obj: Dict[str, Any]) -> Tuple[int, str, int]:
    """(index, token, trick) of a held but illegal card to put in the example game's play."""
    record = DealRecord.from_json(obj)
    state = record.opening_state()
    for i, card in enumerate(record.played or ()):
        illegal = state.hands[state.to_play] & ~state.legal()
        if illegal:
            return i, card_token(cards_of(illegal)[0]), state.tricks_done + 1
        state.play(card)
    raise AssertionError("the example game has no position with an illegal card")


def _bad_inputs() -> List[BadInput]:
    game = load_json("game.json")
    out: List[BadInput] = []

    def add(kind: str, change: Callable[[Dict[str, Any]], None], *fragments: str) -> None:
        obj = copy.deepcopy(game)
        change(obj)
        out.append(BadInput(kind, "game.json", json.dumps(obj) + "\n", ("game.json: line 1", *fragments)))

    taker = game["taker"]
    add("unknown-token", lambda o: o["hands"][2].__setitem__(0, "ZZ"), "key 'hands[2]'", "unknown card 'ZZ'")
    add("duplicate-in-hand", lambda o: o["hands"][1].__setitem__(1, o["hands"][1][0]),
        "key 'hands[1]'", f"'{game['hands'][1][0]}' is twice in hands[1]", f"missing '{game['hands'][1][1]}'")
    add("duplicate-across-hands", lambda o: o["hands"][3].__setitem__(0, o["hands"][0][0]),
        "key 'hands[3]'", f"'{game['hands'][0][0]}' is in both hands[0] and hands[3]",
        f"missing '{game['hands'][3][0]}'")
    add("77-cards", lambda o: o["hands"][2].pop(), "key 'hands[2]'", "the deal holds 77 cards, not 78",
        "hands[2] has 17 cards, expected 18", f"missing '{game['hands'][2][-1]}'")
    add("79-cards", lambda o: o["dog"].append(o["hands"][0][0]), "key 'dog'", "the deal holds 79 cards, not 78",
        "dog has 7 cards, expected 6", f"'{game['hands'][0][0]}' is in both hands[0] and dog")
    add("wrong-hand-size", lambda o: o["hands"][1].append(o["hands"][0].pop()), "key 'hands[0]'",
        "hands[0] has 17 cards, expected 18", "hands[1] has 19 cards")
    king = next(t for t in game["hands"][taker] if t.startswith("K") and len(t) == 2)
    add("illegal-discard", lambda o: o["discard"].__setitem__(0, king), "key 'discard'",
        f"a king may not be discarded: '{king}'")
    index, token, trick = _illegal_play(game)
    add("illegal-played-card", lambda o: o["played"].__setitem__(index, token), f"key 'played[{index}]'",
        f"may not play '{token}' in trick {trick}")
    unheld = game["hands"][(game["dealer"] + 3) % 4][0]  # not the first leader's card
    add("unheld-played-card", lambda o: o["played"].__setitem__(0, unheld), "key 'played[0]'",
        f"does not hold '{unheld}' (trick 1)")
    add("bad-seat", lambda o: o.__setitem__("taker", 4), "key 'taker'", "bad seat '4'")
    add("bad-contract", lambda o: o.__setitem__("contract", "gardez"), "key 'contract'", "unknown contract 'gardez'")


    def all_pass(o: Dict[str, Any]) -> None:  # the taker kept
        for key in ("contract", "discard", "played"):
            del o[key]
        o["bids"] = ["pass"] * 4

    def no_contract(o: Dict[str, Any]) -> None:  # the taker and the discard kept
        for key in ("contract", "bids", "played"):
            del o[key]

    def played_string(o: Dict[str, Any]) -> None:  # one string of tokens, the 8th unknown
        o["played"] = " ".join(o["played"][:7] + ["T22"] + o["played"][8:])

    add("played-string-bad-token", played_string, "key 'played[7]'", "unknown card 'T22'")
    # characters that do not print (a NUL, a terminal's escape codes) shown escaped, not sent to the terminal
    add("control-characters", lambda o: o.update(contract="\x1b[2Jgarde\x00"), "key 'contract'",
        "unknown contract '\\x1b[2Jgarde\\x00'")
    add("huge-card-token", lambda o: o["hands"][2].__setitem__(0, "X" * 100_000), "key 'hands[2]'",
        "unknown card '" + "X" * 37 + "...'")  # cut short
    add("huge-id", lambda o: o.update(id="I" * 100_000, contract="gardez"),
        "game.json: line 1 (id '" + "I" * 37 + "...'): key 'contract'")
    add("all-pass-naming-a-taker", all_pass, "key 'bids'",
        "every player passed, yet the record names a taker or a contract")
    add("discard-without-contract", no_contract, "key 'contract'", "a record with a discard names its contract")
    add("discard-without-taker", lambda o: o.pop("taker"), "key 'taker'", "a record with a discard names its taker")
    out.append(BadInput("malformed-json", "game.json", '{"hands": [["KS", "QS"],\n  "dog": ]\n}\n',
                        ("game.json: line 2: malformed JSON at column", "Expecting")))
    out.append(BadInput("empty-file", "game.json", "\n  \n", ("game.json: empty file",)))
    utf16 = (json.dumps(game) + "\n").encode("utf-16-le").decode("ascii")  # no byte order mark: ASCII and NULs
    out.append(BadInput("utf-16-without-bom", "game.json", utf16,
                        ("game.json: not UTF-8 text: line 1 holds NUL bytes", "save it as UTF-8")))
    out.append(BadInput("not-an-object", "game.json", "[1, 2, 3]\n", ("game.json: line 1", "expected a JSON object")))
    return out


BAD_INPUTS = _bad_inputs()


@pytest.fixture(params=BAD_INPUTS, ids=[b.kind for b in BAD_INPUTS])
def bad_input(request: pytest.FixtureRequest) -> BadInput:
    return request.param


@pytest.fixture
def petit_sec_obj() -> Dict[str, Any]:
    """A deal in which seat 0 holds the Petit sec (its only trump, and no Excuse)."""
    plain = [card_token(c) for c in range(56)]
    rest = plain[17:] + [card_token(c) for c in range(57, 78)]  # T2..T21 and the Excuse
    hands = [["T1"] + plain[:17]] + [rest[18 * i:18 * (i + 1)] for i in range(3)]
    return {"hands": hands, "dog": rest[54:]}

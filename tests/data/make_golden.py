"""Write ``golden.jsonl`` beside this file: positions cut from the 52 realistic
benchmark deals (``benchmarks/deals.jsonl``) with 8 and 10 tricks left, after a seeded
random legal prefix (and 0-3 cards of the next trick), each with its exact margin.

Each margin is computed twice, by the core as it is and by the core with its sure
bounds and card merging switched off, and the script stops if they differ.  The
reference minimax cannot reach these depths; the positions are the kind the product
is for (a taker who would bid, near the target), where the bounds do most of their
work.  Regenerate only to add positions, never to make the test pass.

Run from anywhere: ``python tests/data/make_golden.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from tarot_solver.cards import card_token, cards_of
from tarot_solver.records import DealRecord
from tarot_solver.solver import Solver

HERE = Path(__file__).resolve().parent
DEALS = HERE.parents[1] / "benchmarks" / "deals.jsonl"
SEED = 20261205


def main() -> None:
    rng = random.Random(SEED)
    solver, check = Solver(64), Solver(256)
    check.set_options(bounds=False, merge=False)
    lines = []
    for text in DEALS.read_text(encoding="utf-8").splitlines():
        deal = json.loads(text)
        for left in (8, 10):
            state = DealRecord.from_json(deal).opening_state()
            played = []
            for _ in range(state.players * (state.total_tricks - left) + rng.randrange(state.players)):
                card = rng.choice(cards_of(state.legal()))
                state.play(card)
                played.append(card_token(card))
            solver.clear()
            check.clear()
            margin = solver.solve(state, pv=False).margin
            other = check.solve(state, pv=False).margin
            if margin != other:
                raise SystemExit(f"{deal['id']} with {left} tricks left: {margin} against {other} without bounds")
            lines.append(json.dumps({"position": {**deal, "id": f"{deal['id']}-{left}", "played": played},
                                     "margin": margin}))
    (HERE / "golden.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} positions written")


if __name__ == "__main__":
    main()

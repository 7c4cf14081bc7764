"""Regenerate the example files of this directory from fixed seeds.

Run from anywhere: ``python examples/make_examples.py``.  The games are not random
card play: each deal is bid by a point count, the taker discards to void short
suits, poignées are shown when held, and every seat plays a greedy legal card (cash
a king on lead, win a trick as cheaply as possible, feed points to a partner who
wins the trick, otherwise throw the cheapest card or the Excuse).  Every record is
built through :class:`tarot_solver.records.DealRecord`, so it is validated.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from tarot_solver import rules
from tarot_solver.cards import (
    EXCUSE,
    PETIT,
    TRUMP21,
    TRUMPS_MASK,
    cards_of,
    count,
    half_points,
    is_king,
    is_trump,
    mask_of,
    rank_of,
    suit_of,
)
from tarot_solver.handcount import simple_call
from tarot_solver.notation import format_hand
from tarot_solver.records import VARIANT, DealRecord, write_records
from tarot_solver.variant import FIVE_PLAYERS, THREE_PLAYERS, Contract, Variant

HERE = Path(__file__).resolve().parent
#: the least point count for each contract, strongest first
BID_THRESHOLDS = ((81, Contract.GARDE_CONTRE), (71, Contract.GARDE_SANS), (56, Contract.GARDE),
                  (40, Contract.PRISE))
OUDLER_COUNT = {TRUMP21: 10, PETIT: 8, EXCUSE: 7}
HONOUR_COUNT = {14: 6, 13: 3, 12: 2, 11: 1}  # king, queen, knight, jack


def strength(hand: List[int]) -> int:
    """A usual bidding count: 2 per trump and 1 more per major (16-20), 10/8/7 for the
    21/Petit/Excuse, honours 6/3/2/1, and per long suit (trumps included) 5 for five
    cards and 2 more for each further card."""
    total = 0
    for c in hand:
        total += OUDLER_COUNT.get(c, 0)
        if is_trump(c):
            total += 2 + (16 <= rank_of(c) <= 20)
        elif c < PETIT:
            total += HONOUR_COUNT.get(rank_of(c), 0)
    lengths = [sum(1 for c in hand if suit_of(c) == s) for s in range(5)]
    return total + sum(5 + 2 * (n - 5) for n in lengths if n >= 5)


def bidding(hands: List[List[int]], dealer: int) -> Tuple[List[str], Optional[Tuple[Contract, int]]]:
    """Each seat from the dealer's right bids the contract its count allows, if it beats the last
    (the count scaled to 18 cards in the three-player game's hands of 24)."""
    bids: List[str] = []
    best: Optional[Tuple[Contract, int]] = None
    players = len(hands)
    for i in range(players):
        seat = (dealer + 1 + i) % players
        count18 = strength(hands[seat]) * 18 // len(hands[seat])
        want = next((c for low, c in BID_THRESHOLDS if count18 >= low), None)
        if want is not None and (best is None or want.rank > best[0].rank):
            bids.append(want.value)
            best = (want, seat)
        else:
            bids.append("pass")
    return bids, best


def choose_discard(hand_and_dog: int, size: int = 6) -> List[int]:
    """``size`` cards: void the shortest suits, cheapest cards first; trumps only if forced."""
    allowed = rules.discardable(hand_and_dog)
    plain = cards_of(allowed & ~TRUMPS_MASK)
    length = {s: sum(1 for c in cards_of(hand_and_dog) if suit_of(c) == s) for s in range(4)}
    plain.sort(key=lambda c: (length[suit_of(c)], half_points(c), rank_of(c)))
    return sorted(plain[:size] + cards_of(allowed & TRUMPS_MASK)[:max(0, size - len(plain))])



def poignee(hand: int, variant: Variant) -> Optional[List[int]]:
    """The largest poignée the hand can show (the Excuse only when every trump is shown)."""
    trumps = cards_of(hand & TRUMPS_MASK)
    for size in reversed(variant.poignee_sizes):
        if len(trumps) >= size:
            return trumps[:size]
        if len(trumps) == size - 1 and hand >> EXCUSE & 1:
            return trumps + [EXCUSE]
    return None


def _cheap(card: int) -> Tuple[int, bool, int]:
    return (half_points(card), is_trump(card), rank_of(card))


def greedy_card(state: rules.PlayState) -> int:
    """A plausible legal card for the seat on turn (see the module docstring)."""
    seat = state.to_play
    legal = cards_of(state.legal())
    plain = [c for c in legal if c != EXCUSE]
    if EXCUSE in legal and (not plain or count(state.hands[seat]) == 2):
        return EXCUSE  # never keep the Excuse for the last trick
    if not state.trick:
        kings = [c for c in plain if is_king(c)]
        if kings:
            return kings[0]
        suits = [c for c in plain if not is_trump(c)] or plain
        longest = max(suits, key=lambda c: sum(1 for d in suits if suit_of(d) == suit_of(c)))
        return min((c for c in suits if suit_of(c) == suit_of(longest)), key=_cheap)
    winner = (state.leader + rules.trick_winner(state.trick)) % state.players
    if len(state.trick) == state.players - 1 and state.camps[winner] == state.camps[seat]:
        return max(plain, key=lambda c: (half_points(c), not is_trump(c), -rank_of(c)))
    winning = [c for c in plain if rules.trick_winner(state.trick + [c]) == len(state.trick)]
    if winning:
        return min(winning, key=_cheap)
    return EXCUSE if EXCUSE in legal else min(plain, key=_cheap)


def make_game(seed: int, ident: str, *, contract: Optional[Contract] = None, play: bool = True,
              variant: Variant = VARIANT) -> Optional[DealRecord]:
    """The game dealt from ``seed``, or None if it is void, passed out or not ``contract``."""
    rng = random.Random(seed)
    deck = list(range(78))
    rng.shuffle(deck)
    size, players = variant.hand_size, variant.players
    hands = [sorted(deck[s * size:(s + 1) * size]) for s in range(players)]
    dog = sorted(deck[players * size:])
    if any(rules.is_petit_sec(mask_of(h)) for h in hands):
        return None
    dealer = rng.randrange(players)
    bids, best = bidding(hands, dealer)
    if best is None or (contract is not None and best[0] is not contract):
        return None
    won, taker = best
    fields: Dict[str, Any] = dict(id=ident, dealer=dealer, hands=hands, dog=dog, bids=bids,
                                     taker=taker, contract=won)
    if variant is not VARIANT:
        fields["players"] = players
    if variant.partner_share:
        fields["called"] = simple_call(mask_of(hands[taker]))
    if won.taker_takes_dog:
        fields["discard"] = choose_discard(mask_of(hands[taker]) | mask_of(dog), variant.dog_size)
    record = DealRecord(**fields)
    if not play:
        return record
    shown = [(s, p) for s in range(players) if (p := poignee(record.playing_hand(s), variant)) is not None]
    state = record.opening_state()
    played = []
    while not state.over:
        played.append(greedy_card(state))
        state.play(played[-1])
    return DealRecord(**fields, poignees=shown or None, played=played)


def first_game(seed: int, ident: str, accept: Callable[[DealRecord], bool] = lambda r: True,
               **kwargs: Any) -> DealRecord:
    """The first game from ``seed`` on that exists and passes ``accept``."""
    while True:
        record = make_game(seed, ident, **kwargs)
        if record is not None and accept(record):
            return record
        seed += 1


def pretty(record: DealRecord) -> str:
    """A record as one JSON object, one key per line (the hands one per line)."""
    lines = []
    for key, value in record.to_json().items():
        if key == "hands":
            inner = ",\n".join("    " + json.dumps(h) for h in value)
            lines.append(f'  "hands": [\n{inner}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def strong_garde(record: DealRecord) -> bool:
    """The taker holds at least 8 trumps and 2 oudlers: a hand worth a garde."""
    hand = mask_of(record.hands[record.play_setup()[0]])
    oudlers = sum(1 for c in (PETIT, TRUMP21, EXCUSE) if hand >> c & 1)
    return count(hand & TRUMPS_MASK) >= 8 and oudlers >= 2


def main() -> None:
    game = first_game(2024, "example-game", contract=Contract.GARDE)
    deal = first_game(7, "example-deal", strong_garde, contract=Contract.GARDE, play=False)
    history: List[DealRecord] = []
    seed = 1000
    while len(history) < 20:
        seed += 1
        record = make_game(seed, f"h{len(history) + 1:02d}")
        if record is not None:
            history.append(record)
    (HERE / "game.json").write_text(pretty(game), encoding="utf-8")
    (HERE / "deal.json").write_text(pretty(deal), encoding="utf-8")
    # the game stopped in trick 7, the taker to ruff a spade: a position for `tarot-solve play`
    stopped = dataclasses.replace(game, id="example-play", played=(game.played or [])[:25])
    (HERE / "play.json").write_text(pretty(stopped), encoding="utf-8")
    (HERE / "hand.txt").write_text(format_hand(deal.hands[deal.play_setup()[0]]) + "\n", encoding="utf-8")
    (HERE / "history.jsonl").write_text(write_records(history), encoding="utf-8")
    # the history's games stopped with ten tricks to play: many positions for `tarot-solve solve`
    endgames = [dataclasses.replace(g, id=f"{g.id}-trick9", played=(g.played or [])[:4 * 8]) for g in history]
    (HERE / "endgames.jsonl").write_text(write_records(endgames), encoding="utf-8")
    # the three-player game: a whole game, and the same game with ten tricks to play
    three = first_game(2024, "example-three", contract=Contract.GARDE, variant=THREE_PLAYERS)
    (HERE / "three.json").write_text(pretty(three), encoding="utf-8")
    cut = THREE_PLAYERS.players * (THREE_PLAYERS.tricks - 10)
    three_mid = dataclasses.replace(three, id="example-three-midgame", played=(three.played or [])[:cut])
    (HERE / "three-midgame.json").write_text(pretty(three_mid), encoding="utf-8")
    # the five-player game: a whole game with a called partner, and the same with eight tricks to play
    five = first_game(2024, "example-five", lambda r: r.partner is not None, contract=Contract.GARDE,
                      variant=FIVE_PLAYERS)
    (HERE / "five.json").write_text(pretty(five), encoding="utf-8")
    cut = FIVE_PLAYERS.players * (FIVE_PLAYERS.tricks - 8)
    five_mid = dataclasses.replace(five, id="example-five-midgame", played=(five.played or [])[:cut])
    (HERE / "five-midgame.json").write_text(pretty(five_mid), encoding="utf-8")


if __name__ == "__main__":
    main()

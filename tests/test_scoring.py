"""FFT scoring: the federation's worked examples, rounding, multipliers, slams, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarot_solver.errors import RecordError, TarotError
from tarot_solver.records import read_records
from tarot_solver.scoring import SLAM_OUTCOMES, ScoreResult, margin_points, score, slam_outcome
from tarot_solver.variant import CONTRACTS, FIVE_PLAYERS, FOUR_PLAYERS, THREE_PLAYERS, Contract

G, GS, P, GC = Contract.GARDE, Contract.GARDE_SANS, Contract.PRISE, Contract.GARDE_CONTRE


# contract, points (whole or .5), oudlers, petit au bout, poignées, slam -> margin, U, taker score
FFT_EXAMPLES = [
    pytest.param(G, 49, 2, True, (0,), None, 8, 106, 318, id="a-garde-49-poignee-petit"),
    pytest.param(G, 87, 2, True, (0,), "announced-made", 46, 582, 1746, id="b-garde-announced-slam"),
    pytest.param(GS, 45, 2, False, (), None, 4, 76, 228, id="c-garde-sans-petit-to-defence"),
    pytest.param(P, 44, 1, True, (0,), None, -7, -42, -126, id="d-prise-fails-by-7"),
    pytest.param(G, 52, 2, None, (0,), None, 11, 92, 276, id="e-defender-poignee-to-taker"),
]


@pytest.mark.parametrize("contract, points, oudlers, petit, poignees, slam, margin, unit, taker", FFT_EXAMPLES)
def test_fft_worked_examples(contract, points, oudlers, petit, poignees, slam, margin, unit, taker):
    r = score(contract, int(points * 2), oudlers, petit_au_bout=petit, poignees=poignees, slam=slam)
    assert (r.margin, r.unit, r.taker, r.defender) == (margin, unit, taker, -unit)
    assert r.made is (margin >= 0)
    assert sum(r.scores(0)) == 0


@pytest.mark.parametrize(
    "points, oudlers, margin",
    [
        (41, 2, 0),  # exactly the target: made by 0
        (41.5, 2, 1),  # half a point over: made by 1
        (40.5, 2, -1),  # half a point short: fails by 1
        (42, 2, 1),
        (40, 2, -1),
        (55.5, 0, -1),
        (56, 0, 0),
        (50.5, 1, -1),
        (51, 1, 0),
        (36, 3, 0),
        (35.5, 3, -1),
        (91, 3, 55),
        (0, 0, -56),
        (0.5, 0, -56),  # 55.5 short rounds up to 56
        (78, 0, 22),  # the most without an oudler: the defence's three hold 13 points at least
    ],
)
def test_margin_rounding(points, oudlers, margin):
    hp = int(points * 2)
    assert margin_points(hp, oudlers) == margin
    # the ends a deal reaches only by a slam, in a garde contre for the taker's least
    # (a discard counts for him, and a trick he won)
    slam = "unannounced-made" if hp == 182 else "defence" if hp <= 1 else None
    r = score(GC if slam == "defence" else P, hp, oudlers, slam=slam)
    assert r.margin == margin
    assert r.made is (margin >= 0)
    base = (25 + abs(margin)) * (1 if margin >= 0 else -1)
    assert r.unit == {None: base, "unannounced-made": base + 200, "defence": base * 6 - 200}[slam]


@pytest.mark.parametrize(
    "contract, mult", [(P, 1), (G, 2), (GS, 4), (GC, 6)], ids=lambda v: getattr(v, "value", str(v))
)
def test_contract_multipliers(contract, mult):
    assert contract.multiplier == mult
    # made by 10: (25 + 10) * mult; failed by 10: the same, negative
    assert score(contract, 2 * 51, 2).unit == 35 * mult
    assert score(contract, 2 * 31, 2).unit == -35 * mult
    # petit au bout is multiplied too, whoever wins the contract
    assert score(contract, 2 * 51, 2, petit_au_bout=True).unit == 45 * mult
    assert score(contract, 2 * 51, 2, petit_au_bout=False).unit == 25 * mult
    assert score(contract, 2 * 31, 2, petit_au_bout=True).unit == -25 * mult
    assert score(contract, 2 * 31, 2, petit_au_bout=False).unit == -45 * mult
    # poignées are never multiplied
    assert score(contract, 2 * 51, 2, poignees=(2,)).unit == 35 * mult + 40


def test_contract_name_is_accepted():
    assert score("garde_sans", 90, 2) == score(GS, 90, 2)


@pytest.mark.parametrize(
    "poignees, made_bonus",
    [((), 0), ((0,), 20), ((1,), 30), ((2,), 40), ((0, 0), 40)],  # (no two others fit in 22 trumps)
)
def test_poignees_go_to_the_contract_winner(poignees, made_bonus):
    assert score(G, 2 * 41, 2, poignees=poignees).unit == 25 * 2 + made_bonus
    assert score(G, 2 * 40, 2, poignees=poignees).unit == -26 * 2 - made_bonus


@pytest.mark.parametrize(
    "slam, bonus",
    [(None, 0), ("announced-made", 400), ("unannounced-made", 200), ("announced-failed", -200), ("defence", -200)],
)
def test_slam_bonus(slam, bonus):
    # at points the slam leaves: 87 at least after the taker's, 23 at most after the defence's
    hp, oudlers = {"announced-made": (2 * 88, 3), "unannounced-made": (2 * 88, 3), "defence": (2 * 20, 0)}.get(
        slam or "", (2 * 60, 1))
    base = score(G, hp, oudlers).unit
    assert score(G, hp, oudlers, slam=slam).unit == base + bonus


def test_defence_slam():
    # garde, taker with nothing but a discard of six small cards: fails by 53, defence slam
    r = score(G, 6, 0, slam="defence")
    assert r.unit == -(25 + 53) * 2 - 200
    assert r.scores(2) == [-r.unit, -r.unit, 3 * r.unit, -r.unit]


def test_announced_slam_failed():
    # the taker announced, lost a trick, still made the contract by 20
    r = score(GS, 2 * 61, 2, slam="announced-failed")
    assert r.made and r.unit == 45 * 4 - 200


def test_taker_slam_with_the_defence_keeping_the_excuse():
    # the taker takes every trick but the defence kept the Excuse: 87 points, 2 oudlers
    r = score(G, 174, 2, slam="unannounced-made")
    assert r.margin == 46 and r.unit == (25 + 46) * 2 + 200


def test_slams_with_the_excuse_changing_camp_in_the_last_trick():
    # The Excuse played (not led) to the last trick goes to the other camp as 4.5 points,
    # whoever wins it: a defender's, to another defender's trick, leaves a defence slam's
    # taker 4.5 points and an oudler; at five players, the partner's, to the taker's trick,
    # leaves a taker's slam 86.5.  Whole games, scored from their play.
    path = Path(__file__).parent / "data" / "excuse_last_trick_slams.jsonl"
    got = {rec.id: (rec.final_state(), rec.score()) for rec in read_records(path)}
    assert {k: (end.taker_hp, end.taker_oudlers(), end.slam(), r.unit) for k, (end, r) in got.items()} == {
        "defence-slam-three-players": (9, 1, False, -(25 + 47) * 6 - 200),
        "defence-slam-four-players": (9, 1, False, -(25 + 47) * 6 - 200),
        "taker-slam-five-players": (173, 2, True, (25 + 46) * 4 + 400)}
    # the bounds on what a slam leaves, with and without the Excuse changing camp
    assert score(G, 47, 1, slam="defence").unit == -(25 + 28) * 2 - 200  # 23.5 points
    assert score(GC, 9, 1, slam="defence").unit == -(25 + 47) * 6 - 200
    assert score(G, 173, 2, slam="unannounced-made", variant=FIVE_PLAYERS,
                 partner=True).unit == (25 + 46) * 2 + 200
    with pytest.raises(RecordError, match="leaves him 87 points at least in a garde, not 86.5"):
        score(G, 173, 2, slam="unannounced-made")  # at four, the taker's camp has one Excuse player
    with pytest.raises(RecordError, match="the taker has 4.5 points at most in a garde_contre, not 5"):
        score(GC, 10, 1, slam="defence")
    # a garde sans dog counts for the taker: four kings, the 21 and the Petit are 27 points,
    # and a defender's Excuse played to another defender's last trick 4.5 more
    assert score(GS, 63, 3, slam="defence").unit == -(25 + 5) * 4 - 200  # 31.5 points, 4.5 short of 36
    with pytest.raises(RecordError, match="the taker has 31.5 points at most in a garde_sans, not 32"):
        score(GS, 64, 3, slam="defence")


@pytest.mark.parametrize(
    "announced, camp, outcome",
    [
        (True, True, "announced-made"),
        (False, True, "unannounced-made"),
        (True, None, "announced-failed"),
        (False, None, None),
        (False, False, "defence"),
        (True, False, "defence"),
    ],
)
def test_slam_outcome(announced, camp, outcome):
    assert slam_outcome(announced, camp) == outcome
    assert outcome is None or outcome in SLAM_OUTCOMES


@pytest.mark.parametrize("taker", range(4))
@pytest.mark.parametrize("contract, points, oudlers, petit, poignees, slam, margin, unit, taker_score", FFT_EXAMPLES)
def test_scores_by_seat_sum_to_zero(taker, contract, points, oudlers, petit, poignees, slam, margin, unit,
                                    taker_score):
    r = score(contract, int(points * 2), oudlers, petit_au_bout=petit, poignees=poignees, slam=slam)
    seats = r.scores(taker)
    assert sum(seats) == 0
    assert seats[taker] == taker_score
    assert all(s == -unit for i, s in enumerate(seats) if i != taker)


def test_three_player_shares():
    r = score(G, 2 * 51, 2, variant=THREE_PLAYERS)
    assert (r.unit, r.taker, r.defender) == (70, 140, -70)
    assert r.scores(1, players=3) == [-70, 140, -70]


def test_five_player_shares():
    with_partner = score(G, 2 * 51, 2, variant=FIVE_PLAYERS, partner=True)
    assert (with_partner.unit, with_partner.taker, with_partner.partner) == (70, 140, 70)
    assert with_partner.scores(1, players=5, partner=3) == [-70, 140, -70, 70, -70]
    alone = score(G, 2 * 51, 2, variant=FIVE_PLAYERS)
    assert (alone.taker, alone.partner) == (280, None)
    assert alone.scores(4, players=5) == [-70, -70, -70, -70, 280]
    for partner in (None, 1):  # no partner's seat, or the taker's own
        with pytest.raises(TarotError, match="do not agree"):
            with_partner.scores(1, players=5, partner=partner)
    with pytest.raises(TarotError, match="no called partner at 4 players"):
        score(G, 2 * 51, 2, partner=True)


def test_score_result_is_frozen():
    r = score(P, 100, 1)
    assert isinstance(r, ScoreResult)
    with pytest.raises(AttributeError):
        r.unit = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs, token",
    [
        (dict(contract="guarde"), "guarde"),
        (dict(contract=3), "3"),
        (dict(contract=None), "None"),
        (dict(taker_half_points=183), "183"),
        (dict(taker_half_points=-1), "-1"),
        (dict(taker_half_points=80.5), "80.5"),
        (dict(taker_half_points=True), "True"),
        (dict(oudlers=4), "4"),
        (dict(oudlers=-1), "-1"),
        (dict(oudlers="2"), "2"),
        (dict(slam="made"), "made"),
        (dict(slam="announced_made"), "announced_made"),
        (dict(poignees=(3,)), "3"),
        (dict(poignees=(-1,)), "-1"),
        (dict(poignees=("simple",)), "simple"),
        (dict(poignees="simple"), "simple"),
        (dict(poignees=1), "1"),
        (dict(petit_au_bout="attack"), "attack"),
    ],
)
def test_bad_inputs(kwargs, token):
    args = dict(contract=G, taker_half_points=100, oudlers=2)
    args.update(kwargs)
    contract, hp, oudlers = args.pop("contract"), args.pop("taker_half_points"), args.pop("oudlers")
    with pytest.raises(TarotError) as info:
        score(contract, hp, oudlers, **args)
    assert f"'{token}'" in str(info.value)
    assert info.value.token == token


@pytest.mark.parametrize("hp, oudlers", [(200, 1), (10, 5)])
def test_margin_points_validates(hp, oudlers):
    with pytest.raises(RecordError):
        margin_points(hp, oudlers)


@pytest.mark.parametrize("seat", [-1, 4, "0", True])
def test_scores_bad_seat(seat):
    with pytest.raises(TarotError):
        score(P, 100, 1).scores(seat)


def test_scores_checks_the_partner_seat_and_takes_numpy_seats():
    # partner=-1 gave the last seat the partner's share, 7 an IndexError; np.int64(1) was
    # "taker seat '1' is not in 0..3"
    import numpy as np

    with_partner = score(G, 2 * 51, 2, variant=FIVE_PLAYERS, partner=True)
    for partner in (-1, 5, 7):
        with pytest.raises(RecordError, match=f"partner seat '{partner}' is not an integer in 0..4") as e:
            with_partner.scores(1, players=5, partner=partner)
        assert e.value.key == "partner"
    assert with_partner.scores(np.int64(1), players=5, partner=np.int8(3)) == [-70, 140, -70, 70, -70]
    assert score(P, 100, 1).scores(np.int64(2)) == score(P, 100, 1).scores(2)


def test_scores_with_unbalanced_table_size():
    with pytest.raises(TarotError):
        score(P, 100, 1).scores(0, players=3)


def test_every_contract_scores_with_default_variant():
    for contract in CONTRACTS:
        r = score(contract, 2 * 56, 0, variant=FOUR_PLAYERS)
        assert r.made and r.margin == 0 and r.unit == 25 * contract.multiplier


def test_half_point_short_flips_petit_and_poignee_sides():
    # docs/rules.md: example (a) with 40.5 points fails by 1; the petit au bout stays with
    # the taker, the poignée goes to the defence
    r = score(G, 81, 2, petit_au_bout=True, poignees=(0,))
    assert (r.made, r.margin, r.unit, r.taker) == (False, -1, -52, -156)


@pytest.mark.parametrize("args, kwargs, key, fragment", [
    (("garde", 40, 0), {"slam": "announced-made"}, "slam", "a slam made by the taker leaves him 87 points at least"),
    (("garde", 0, 3), {}, "taker_half_points", "0 points with 3 oudlers: only 13 to 91 are possible"),
    (("garde", 80, 0), {"petit_au_bout": True}, "petit_au_bout", "a Petit au bout for the attack"),
    (("garde", 130, 2), {"poignees": [2, 2]}, "poignees", "poignées of 30 trumps in all"),
    # a slam leaves the camp that won no trick no Petit au bout (the oudlers alone allow it)
    (("garde", 47, 1), {"slam": "defence", "petit_au_bout": True}, "petit_au_bout",
     "a Petit au bout for the attack, but a defence slam leaves the taker no trick"),
    (("garde", 174, 2), {"slam": "announced-made", "petit_au_bout": False}, "petit_au_bout",
     "a Petit au bout for the defence, but the taker's slam leaves the defence no trick"),
    # the camp that wins the last trick with the Petit in it holds the Petit at the end
    (("garde", 120, 3), {"petit_au_bout": False}, "petit_au_bout",
     "a Petit au bout for the defence, but the taker has all three oudlers"),
    # without a slam each camp won a trick (three cards besides the Excuse at least, 1.5
    # points); a discard of six cards is half a point each at least, 3 points for the
    # taker; the dog of a garde contre the same for the defence
    (("garde", 8, 0), {}, "taker_half_points", "4 points: the taker of a garde has 4.5 to 89.5 at 4 players"),
    (("garde_contre", 2, 0), {}, "taker_half_points",
     "1 point: the taker of a garde_contre has 1.5 to 86.5 at 4 players"),
    (("garde_contre", 174, 3), {}, "taker_half_points",
     "87 points: the taker of a garde_contre has 1.5 to 86.5 at 4 players"),
])
def test_what_no_deal_ends_in_is_refused(args, kwargs, key, fragment):
    # as the command line refuses it (tests/test_cli.py: test_score_bad_values)
    with pytest.raises(RecordError, match=fragment) as e:
        score(*args, **kwargs)
    assert e.value.key == key


@pytest.mark.parametrize("args, kwargs, key", [
    (("garde", 300, 2), {}, "taker_half_points"),       # beyond the deck's 182 half-points
    (("garde", 98.0, 2), {}, "taker_half_points"),
    (("garde", 98, 4), {}, "oudlers"),
    (("gardé", 98, 2), {}, "contract"),
    ((None, 98, 2), {}, "contract"),
    (("garde", 98, 2), {"petit_au_bout": "attack"}, "petit_au_bout"),
    (("garde", 98, 2), {"poignees": "simple"}, "poignees"),
    (("garde", 98, 2), {"poignees": [3]}, "poignees"),
    (("garde", 98, 2), {"slam": "made"}, "slam"),
])
def test_a_bad_argument_is_keyed_by_its_name(args, kwargs, key):
    # docs/formats.md: score() refuses with a RecordError keyed by its argument, as
    # check_possible's refusals are (docs/api.md: errors carry the key where known)
    with pytest.raises(RecordError) as e:
        score(*args, **kwargs)
    assert e.value.key == key


def test_the_variant_must_be_a_variant():
    with pytest.raises(TypeError, match="variant must be a Variant"):
        score("garde", 98, 2, variant=3)


def test_a_five_player_taker_alone_has_no_partner_to_give_his_excuse_away():
    # At five, 86.5 points after a taker's slam need the Excuse played by the taker or his
    # partner to the other's last trick; a taker alone keeps his Excuse (played earlier,
    # or led to the last trick), and the defence's leaves him 87 as at four.  Likewise a
    # garde contre slam: 73 with a partner, 73.5 alone (a dog of three, 13.5 points at most).
    assert score(G, 173, 2, slam="unannounced-made", variant=FIVE_PLAYERS, partner=True).made
    assert score(GC, 146, 3, slam="announced-made", variant=FIVE_PLAYERS, partner=True).made
    with pytest.raises(RecordError, match="leaves him 87 points at least in a garde, not 86.5"):
        score(G, 173, 2, slam="unannounced-made", variant=FIVE_PLAYERS)
    with pytest.raises(RecordError, match="leaves him 73.5 points at least in a garde_contre, not 73"):
        score(GC, 146, 3, slam="announced-made", variant=FIVE_PLAYERS)
    assert score(G, 174, 2, slam="unannounced-made", variant=FIVE_PLAYERS).taker == 4 * ((25 + 46) * 2 + 200)


def test_scores_by_seat_default_to_the_table_the_deal_was_scored_for():
    # A three- or five-player result spreads over its own table without being told its size
    # again (formats.md's `game.score(state).scores(game.taker)`, on a three-player game).
    three = score(G, 2 * 51, 2, variant=THREE_PLAYERS)
    assert three.scores(1) == [-70, 140, -70]
    assert score(G, 2 * 51, 2, variant=FIVE_PLAYERS).scores(4) == [-70, -70, -70, -70, 280]
    assert score(G, 2 * 51, 2, variant=FIVE_PLAYERS, partner=True).scores(1, partner=3) == [-70, 140, -70, 70, -70]
    assert score(G, 2 * 51, 2).scores(1) == [-70, 210, -70, -70]
    record = read_records(Path(__file__).parent.parent / "examples" / "three.json")[0]
    assert record.score().scores(record.taker) == [144, -72, -72]


def test_numpy_integers_are_integers():
    # a bot's counts often come out of numpy arrays: np.int64(98) was "taker half-points
    # '98' is not an integer in 0..182"; the result holds Python ints (it goes to json.dumps)
    import numpy as np

    typed = score("garde", np.int64(98), np.int8(2), poignees=[np.int64(0)], petit_au_bout=True)
    assert typed == score("garde", 98, 2, poignees=[0], petit_au_bout=True)
    assert type(typed.taker) is int and type(typed.unit) is int and type(typed.margin) is int
    assert type(margin_points(np.int16(98), np.int8(2))) is int
    with pytest.raises(RecordError, match="taker half-points '98.0' is not an integer in 0..182"):
        score("garde", np.float64(98), 2)

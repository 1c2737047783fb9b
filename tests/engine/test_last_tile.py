"""海底牌得棄摸 (rules/001 item 25: 海底牌得棄摸，但摸牌即須打牌) and the rules/000 海底撈月
cases: 海底牌如為花牌, 不得補牌亦不須打牌; 海底倒數第二張牌如為花牌, 補牌成胡視同海底撈月,
並加計杠上開花; 如補得之牌又為花牌, 不得續補亦不須打牌.

With the dealer at seat 0 and no claims, the n-th normal draw goes to seat n % 4;
144 - 65 dealt - 16 (鐵八墩) = 63 draws, so the 63rd (seat 3) is 海底 and the 62nd
(seat 2) is the second-to-last.
"""

import json

import pytest

from twmahjong.engine import IllegalAction
from twmahjong.engine import actions as A
from twmahjong.engine.match import Match
from twmahjong.engine.record import replay
from twmahjong.selfplay import make_bots, play_hand
from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tile

from .helpers import legal, legal_types, nth_draw, play_until, quiet, snapshot, stacked_wall, table

T = parse_tile
# seat 3 waits on 7z alone; seat 0 holds none, so one 7z stays in the wall
SEAT0 = "1479m258p1369s123456z"
WAITS_7Z = "123m456m789m123p456p7z"


def _at_last_tile(h):
    play_until(h, lambda h: h.phase == "last_tile")
    assert h.drawable() == 1


def _normal_draws(h):
    return sum(1 for e in h.events if e["type"] == "draw" and not e["replacement"])


def test_the_seat_due_to_draw_the_last_tile_is_asked_draw_or_pass():
    h = table(quiet())
    _at_last_tile(h)
    assert _normal_draws(h) == 62
    assert h.pending() == {3: [A.DRAW, A.PASS]}
    obs = h.observation(3)
    assert obs["phase"] == "last_tile" and obs["wall_remaining"] == 1
    assert obs["legal"] == [{"type": "draw"}, {"type": "pass"}]
    assert "legal" not in h.observation(2)


def test_declining_the_last_tile_ends_the_hand_drawn_with_no_discard():
    h = table(quiet())
    _at_last_tile(h)
    n_events = len(h.events)
    h.act(3, A.PASS)
    assert h.over
    assert h.events[n_events:] == [{"type": "draw_game", "reason": "last_tile_declined", "seat": 3}]
    assert h.result == {"type": "draw_game", "reason": "last_tile_declined", "winners": []}
    assert h.wall.remaining == 17                 # 海底 stays in the wall


def test_a_declined_last_tile_is_a_drawn_hand_and_the_dealer_stays():
    # 荒局…莊家續莊 (rules/001 荒局)
    m = Match(load_profile("standard"), seed=4, rounds=1)
    dealer = m.dealer
    h = m.start_hand(wall=stacked_wall(quiet(dealer=dealer), dealer=dealer))
    _at_last_tile(h)
    (seat,) = h.pending()
    h.act(seat, A.PASS)
    m.end_hand()
    assert m.dealer == dealer and m.dealer_streak == 1 and m.scores == [0, 0, 0, 0]


def test_a_drawn_last_tile_must_be_discarded():
    # 摸牌即須打牌: no pass, no kong (nothing is left to replace it), only discards
    h = table(quiet())
    _at_last_tile(h)
    h.act(3, A.DRAW)
    assert h.phase == "turn" and h.turn_seat == 3 and h.drawable() == 0
    assert legal_types(h, 3) == {"discard"}
    assert h.events[-1] == {"type": "draw", "seat": 3, "tile": h.events[-1]["tile"], "replacement": False}
    k = h.drawn
    h.act(3, A.discard(k))
    assert h.over and h.result["reason"] == "wall_exhausted"


def test_a_drawn_last_tile_that_completes_the_hand_wins_as_haidi():
    h = table(quiet(s0=SEAT0, s3=WAITS_7Z), draws=nth_draw(63, "7z"))
    _at_last_tile(h)
    h.act(3, A.DRAW)
    assert h.drawn == T("7z") and "win" in legal_types(h, 3)
    h.act(3, A.win(T("7z")))
    win = next(e for e in h.events if e["type"] == "win")
    assert win["self_drawn"] and "last_tile" in win["conditions"]
    assert "kong_bloom" not in win["conditions"]


def test_an_illegal_action_at_the_last_tile_changes_nothing():
    h = table(quiet())
    _at_last_tile(h)
    before = snapshot(h)
    with pytest.raises(IllegalAction, match="海底"):
        h.act(3, A.discard(T("1m")))
    with pytest.raises(IllegalAction):
        h.act(2, A.DRAW)
    assert snapshot(h) == before


def test_casual_never_asks_the_last_tile_is_simply_drawn():
    # rules/003 says nothing of declining 海底: play.may_decline_last_tile = false
    h = table(quiet(), profile="casual")
    play_until(h, lambda h: h.phase == "last_tile" or (h.phase == "turn" and h.drawable() == 0))
    assert h.phase == "turn" and h.turn_seat == 3 and _normal_draws(h) == 63


@pytest.mark.parametrize("profile", ["classic", "standard"])
def test_a_flower_as_the_last_tile_is_not_replaced_and_nothing_is_discarded(profile):
    # 海底牌如為花牌, 不得補牌亦不須打牌
    h = table(quiet(), draws=nth_draw(63, "1f"), profile=profile)
    _at_last_tile(h)
    h.act(3, A.DRAW)
    assert h.over
    assert h.events[-3:] == [{"type": "draw", "seat": 3, "tile": "1f", "replacement": False},
                             {"type": "flower", "seat": 3, "tile": "1f"},
                             {"type": "draw_game", "reason": "wall_exhausted"}]
    assert h.wall.back_taken == 0


def test_a_flower_second_to_last_is_replaced_and_a_win_on_it_is_haidi_and_kong_bloom():
    # 海底倒數第二張牌如為花牌, 補牌成胡視同海底撈月, 並加計杠上開花
    h = table(quiet(s0=SEAT0, s2=WAITS_7Z, s3="147m258p369s1234567z"),
              draws=nth_draw(62, "1f"), back="7z", profile="classic")
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 2 and h.drawn == T("7z"))
    assert h.drawable() == 0 and _normal_draws(h) == 62
    assert [e["type"] for e in h.events[-3:]] == ["draw", "flower", "draw"]
    assert h.events[-1] == {"type": "draw", "seat": 2, "tile": "7z", "replacement": True}
    h.act(2, A.win(T("7z")))
    win = next(e for e in h.events if e["type"] == "win")
    assert {"last_tile", "kong_bloom"} <= set(win["conditions"])
    names = {p["id"] for p in win["score"]["patterns"]}
    assert {"last_tile", "kong_bloom"} <= names


def test_a_second_flower_from_the_replacement_is_not_replaced_either():
    # 如補得之牌又為花牌, 不得續補亦不須打牌
    h = table(quiet(), draws=nth_draw(62, "1f"), back="2f", profile="classic")
    play_until(h, lambda h: h.over or (h.phase == "turn" and h.turn_seat == 2 and h.drawable() == 0))
    assert h.over
    assert h.events[-5:] == [{"type": "draw", "seat": 2, "tile": "1f", "replacement": False},
                             {"type": "flower", "seat": 2, "tile": "1f"},
                             {"type": "draw", "seat": 2, "tile": "2f", "replacement": True},
                             {"type": "flower", "seat": 2, "tile": "2f"},
                             {"type": "draw_game", "reason": "wall_exhausted"}]
    assert legal(h, 3) == []                     # nobody is asked about 海底 after that


def _match_with_last_tile_outcomes(seed):
    """A few random-bot hands; the kinds of 海底 decision they contain."""
    m = Match(load_profile("standard"), seed=seed, rounds=1)
    bots = make_bots(["random"] * 4, seed)
    seen = set()
    while not m.over and m.hand_no < 4:
        h = m.start_hand()
        play_hand(h, bots)
        seen.add(h.result.get("reason", "win"))
        m.end_hand()
    return m, seen


def test_records_carry_the_decision_and_replay_it():
    # find seeds where 海底 was declined in one hand and drawn in another
    found = None
    for seed in range(40):
        m, seen = _match_with_last_tile_outcomes(seed)
        if {"last_tile_declined", "wall_exhausted"} <= seen:
            found = m
            break
    assert found is not None
    rec = json.loads(json.dumps(found.record()))
    declines = [e for e in rec["events"] if e["type"] == "draw_game" and e["reason"] == "last_tile_declined"]
    assert declines and all(e["seat"] in (0, 1, 2, 3) for e in declines)
    again = replay(rec)
    assert again.events == found.events and again.scores == found.scores
    # the decline is a decision, not a rule: a record that claims the seat drew instead is refused
    i = rec["events"].index(declines[0])
    bad = json.loads(json.dumps(rec))
    bad["events"][i] = {"type": "draw", "seat": declines[0]["seat"], "tile": "1m", "replacement": False}
    from twmahjong.engine.record import ReplayError
    with pytest.raises(ReplayError) as e:
        replay(bad)
    assert e.value.index == i

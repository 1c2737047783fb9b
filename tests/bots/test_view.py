"""What a seat can see (docs/architecture.md, "Observation") read into counts."""

from botobs import make_obs

from twmahjong.bots.view import View
from twmahjong.tiles import parse_tile


def test_a_claimed_discard_is_counted_once():
    # Seat 1 pung 7p from seat 3: the 7p stays in seat 3's river and is in the meld.
    obs = make_obs("123m", melds=[[], [{"type": "pon", "tiles": "777p", "from": 3}], [], []],
                   discards=[[], [], [], ["7p"]])
    v = View.from_observation(obs)
    assert v.visible[parse_tile("7p")] == 3
    assert v.unseen[parse_tile("7p")] == 1


def test_chow_claimed_tile_is_found_in_the_river():
    obs = make_obs("123m", melds=[[], [{"type": "chi", "tiles": "345s", "from": 0}], [], []],
                   discards=[["9m", "4s"], [], [], []])
    v = View.from_observation(obs)
    assert [v.visible[parse_tile(t)] for t in ("3s", "4s", "5s")] == [1, 1, 1]


def test_hidden_concealed_kong_and_drawn_tile():
    obs = make_obs("123m", drawn="5z", melds=[[], [], [{"type": "concealed_kong", "tiles": None}], []])
    v = View.from_observation(obs)
    assert v.counts[parse_tile("5z")] == 1 and v.drawn == parse_tile("5z")
    assert sum(v.visible) == 4
    assert v.concealed_hand


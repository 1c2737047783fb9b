"""Game records (formats.md) and replay: the same game back, or the first bad event named."""

import copy
import json

import pytest

from twmahjong.cli import main
from twmahjong.engine.record import RECORD_FORMAT, ReplayError, replay
from twmahjong.selfplay import play_match
from twmahjong.profiles import load_profile


@pytest.fixture(scope="module")
def record():
    m = play_match(load_profile("standard"), seed=11, rounds=1, max_hands=6)
    return json.loads(json.dumps(m.record())), m


def test_a_record_has_the_documented_shape(record):
    rec, _ = record
    assert rec["format"] == RECORD_FORMAT and rec["version"] == 1
    assert rec["profile"] == "standard" and rec["seed"] == 11 and rec["rounds"] == 1
    assert sorted(rec["seating"]) == [0, 1, 2, 3]
    types = {e["type"] for e in rec["events"]}
    assert {"deal", "draw", "discard", "draw_game"} <= types
    assert types <= {"deal", "draw", "flower", "discard", "chi", "pon", "kong", "declare", "win",
                     "draw_game", "settlement"}
    assert "pass" not in types


def test_replay_reproduces_every_event_and_the_scores(record):
    rec, m = record
    again = replay(rec)
    assert again.events == rec["events"] and again.scores == m.scores


def test_a_changed_draw_is_named_as_the_first_bad_event(record):
    rec, _ = record
    bad = copy.deepcopy(rec)
    i = next(i for i, e in enumerate(bad["events"]) if e["type"] == "draw" and i > 40)
    bad["events"][i]["tile"] = "1m" if bad["events"][i]["tile"] != "1m" else "2m"
    with pytest.raises(ReplayError) as e:
        replay(bad)
    assert e.value.index == i and f"event {i}" in str(e.value)


def test_a_discard_of_a_tile_not_held_is_rejected(record):
    rec, _ = record
    bad = copy.deepcopy(rec)
    i = next(i for i, e in enumerate(bad["events"]) if e["type"] == "discard")
    seat = bad["events"][i]["seat"]
    hand = bad["events"][0]["hands"][seat]
    from twmahjong.tiles import parse_tiles, tile_str
    missing = next(k for k in range(34) if k not in parse_tiles(hand))
    bad["events"][i]["tile"] = tile_str(missing)
    with pytest.raises(ReplayError) as e:
        replay(bad)
    assert e.value.index == i


def test_a_truncated_record_is_rejected(record):
    rec, _ = record
    bad = copy.deepcopy(rec)
    bad["events"] = bad["events"][:50]
    with pytest.raises(ReplayError) as e:
        replay(bad)
    assert e.value.index == 50


def test_a_custom_profile_travels_inside_the_record():
    base = load_profile("standard")
    custom = base.model_copy(update={"id": "mine", "play": base.play.model_copy(update={"multiple_winners": "all"})})
    m = play_match(custom, seed=4, rounds=1, max_hands=2)
    rec = json.loads(json.dumps(m.record()))
    assert isinstance(rec["profile"], dict) and rec["profile"]["play"]["multiple_winners"] == "all"
    assert replay(rec).scores == m.scores


def test_cli_replay_says_consistent_and_exits_zero(record, tmp_path, capsys):
    rec, _ = record
    f = tmp_path / "game.json"
    f.write_text(json.dumps(rec))
    with pytest.raises(SystemExit) as e:
        main(["replay", str(f)])
    assert e.value.code in (0, None)
    assert "consistent" in capsys.readouterr().out


def test_cli_replay_names_the_bad_event_and_exits_two(record, tmp_path, capsys):
    rec, _ = record
    bad = copy.deepcopy(rec)
    i = next(i for i, e in enumerate(bad["events"]) if e["type"] == "draw" and i > 40)
    bad["events"][i]["tile"] = "1m" if bad["events"][i]["tile"] != "1m" else "2m"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    with pytest.raises(SystemExit) as e:
        main(["replay", str(f)])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"event {i}" in err[0]

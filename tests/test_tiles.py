"""Tile notation as formats.md fixes it: MPSZ with f for flowers, Chinese names in."""

import pytest
from hypothesis import given, strategies as st

from twmahjong.tiles import (
    FULL_SET, NotationError, check_limits, format_tiles, parse_tile, parse_tiles,
    physical_kind, seat_flowers, zh_name,
)


def test_mpsz_kinds():
    assert parse_tiles("1m9m1p9p1s9s") == [0, 8, 9, 17, 18, 26]
    assert parse_tiles("1234567z") == list(range(27, 34))
    assert parse_tiles("12345678f") == list(range(34, 42))


def test_dragons_follow_riichi_order():
    # formats.md: 5z 白, 6z 發, 7z 中
    assert [zh_name(k) for k in parse_tiles("567z")] == ["白", "發", "中"]


def test_chinese_names():
    assert parse_tiles("一萬 九筒 三條 東 中 春 竹") == parse_tiles("1m9p3s1z7z1f8f")
    assert parse_tiles("五万二索发红中") == parse_tiles("5m2s6z7z")


def test_the_set_has_144_tiles():
    assert len(FULL_SET) == 144
    assert sorted(physical_kind(t) for t in range(144)) == sorted(FULL_SET)


@pytest.mark.parametrize("text, where", [
    ("123x", "'x' at position 3"),
    ("0m", "no tile 0m"),
    ("8z", "no tile 8z"),
    ("9f", "no tile 9f"),
    ("123", "position 0 have no suit"),
    ("m", "'m' at position 0 has no digits"),
])
def test_bad_notation_names_the_spot(text, where):
    with pytest.raises(NotationError, match=where):
        parse_tiles(text)


def test_fifth_copy_and_repeated_flower_rejected():
    with pytest.raises(NotationError, match="5 copies of 1m"):
        check_limits(parse_tiles("11111m"))
    with pytest.raises(NotationError, match="flower 1f"):
        check_limits(parse_tiles("11f"))
    check_limits(parse_tiles("1111m1f"))


def test_seat_flowers():
    # scoring.md: East 春/梅 (1f, 5f) ... North 冬/竹 (4f, 8f)
    assert seat_flowers(0) == tuple(parse_tiles("1f5f"))
    assert seat_flowers(3) == tuple(parse_tiles("4f8f"))


def test_parse_tile_exactly_one():
    assert parse_tile("7z") == 33
    with pytest.raises(NotationError):
        parse_tile("77z")


@given(st.lists(st.integers(0, 41), max_size=20))
def test_format_round_trips(kinds):
    assert parse_tiles(format_tiles(kinds)) == sorted(kinds)

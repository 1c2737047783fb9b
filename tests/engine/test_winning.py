"""The engine's fast win checks give the same answers as ``twmahjong.hand``."""

from hypothesis import given, settings
from hypothesis import strategies as st

from twmahjong import hand
from twmahjong.engine import winning
from twmahjong.tiles import counts34, parse_tiles


@st.composite
def near_complete(draw):
    """Five sets and a pair, then one tile removed and maybe one swapped (3k+1 tiles)."""
    c = [0] * 34
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            k = draw(st.integers(0, 33))
            if c[k] <= 1:
                c[k] += 3
        else:
            k = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            if max(c[k:k + 3]) < 4:
                for i in range(3):
                    c[k + i] += 1
    k = draw(st.integers(0, 33))
    if c[k] <= 2:
        c[k] += 2
    held = [x for x in range(34) for _ in range(c[x])]
    c[draw(st.sampled_from(held))] -= 1
    if draw(st.booleans()):
        out = draw(st.sampled_from([x for x in range(34) if c[x]]))
        into = draw(st.integers(0, 33))
        if c[into] < 4 and out != into:
            c[out] -= 1
            c[into] += 1
    return c


@settings(max_examples=400, deadline=None)
@given(near_complete())
def test_waits_and_completeness_match_the_hand_module(c):
    if sum(c) % 3 != 1:
        return
    assert winning.waits(c) == hand.waits(c)
    assert winning.waits(c, lilgu=True) == hand.waits(c, lilgu=True)
    for k in range(34):
        c[k] += 1
        assert winning.is_complete(c) == hand.is_complete(c)
        c[k] -= 1


def test_known_waits():
    assert winning.waits(counts34(parse_tiles("123m456m789m123p45p77z"))) == parse_tiles("36p")
    assert winning.waits(counts34(parse_tiles("123m456m789m123p456p5z"))) == parse_tiles("5z")
    assert winning.waits(counts34(parse_tiles("13m258p369s1234567z"))) == []
    assert winning.waits(counts34(parse_tiles("1112345678999m"))) == parse_tiles("123456789m")


@settings(max_examples=300, deadline=None)
@given(near_complete(), st.integers(0, 33))
def test_ready_discards_are_the_discards_that_leave_waits(c, extra):
    if sum(c) % 3 != 1 or c[extra] >= 4:
        return
    c[extra] += 1                                   # a 3k+2 hand, as at a turn
    expect = []
    for k in range(34):
        if c[k]:
            c[k] -= 1
            if hand.waits(c):
                expect.append(k)
            c[k] += 1
    assert winning.ready_discards(c) == expect

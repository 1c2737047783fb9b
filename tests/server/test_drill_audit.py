"""The chaos run's audit (twmahjong.drill): a discard a player saw counts as lost
only when it cannot be matched, in order, within what the game stored; the report
shows where the first one leaves the stored record."""

from twmahjong.drill import _first_missing, _stored_discards, _subsequence_missing


def test_a_seen_discard_missing_from_the_record_is_counted_and_located():
    stored = [(1, 0, "1m"), (1, 1, "2m"), (1, 2, "3m"), (2, 0, "9p")]
    # a player who reconnected saw only some of them, in order: nothing is lost
    assert _subsequence_missing([(1, 0, "1m"), (1, 2, "3m"), (2, 0, "9p")], stored) == 0
    assert _first_missing([(1, 0, "1m"), (1, 2, "3m")], stored) == {}
    # a discard the record does not hold (a move told and then not stored)
    seen = [(1, 0, "1m"), (1, 1, "2m"), (1, 3, "5s"), (2, 0, "9p")]
    assert _subsequence_missing(seen, stored) == 1
    where = _first_missing(seen, stored)
    assert where["seen"] == (1, 3, "5s") and where["seen_index"] == 2
    assert where["seen_before"] == [(1, 0, "1m"), (1, 1, "2m")]
    assert where["stored_after_match"] == [(1, 2, "3m"), (2, 0, "9p")]
    # seen out of the stored order also counts
    assert _subsequence_missing([(2, 0, "9p"), (1, 0, "1m")], stored) == 1


def test_a_ting_declared_with_a_discard_is_a_stored_discard():
    """Chaos run 9 counted 36 lost discards for each player of one game: seat 1
    declared 聽 with 4s (stored as a ``declare`` move), every player saw the discard,
    and the audit, which read only ``discard`` moves, lost its place there. The rows
    are that game's, from its 5th hand."""
    rows = [{"kind": "hand", "hand_no": 5, "seat": None, "data": {"seed": "1"}},
            {"kind": "action", "hand_no": 5, "seat": 0,
             "data": {"action": {"type": "discard", "tile": "3p"}}},
            {"kind": "action", "hand_no": 5, "seat": 2, "data": {"action": {"type": "pass"}}},
            {"kind": "action", "hand_no": 5, "seat": 1,
             "data": {"action": {"type": "declare", "tile": "4s"}}},
            {"kind": "action", "hand_no": 5, "seat": 2,
             "data": {"action": {"type": "discard", "tile": "2z"}}},
            {"kind": "action", "hand_no": 5, "seat": 3,
             "data": {"action": {"type": "discard", "tile": "2z"}}},
            {"kind": "action", "hand_no": 5, "seat": 0, "data": {"action": {"type": "declare"}}},
            {"kind": "settled", "hand_no": 5, "seat": None, "data": {}}]
    stored = _stored_discards(rows)
    assert stored == [(5, 0, "3p"), (5, 1, "4s"), (5, 2, "2z"), (5, 3, "2z")]
    seen = [(5, 0, "3p"), (5, 1, "4s"), (5, 2, "2z"), (5, 3, "2z")]
    assert _subsequence_missing(seen, stored) == 0

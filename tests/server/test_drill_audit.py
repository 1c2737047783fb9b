"""The chaos run's audit (twmahjong.drill): a discard a player saw counts as lost
only when it cannot be matched, in order, within what the game stored; the report
shows where the first one leaves the stored record."""

from twmahjong.drill import _first_missing, _subsequence_missing


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

"""Payment lines that add up: the dealer's and 連莊's 台 per payer."""

from __future__ import annotations

from twmahjong.profiles import load_profile
from twmahjong.settlement import Stakes, win
from twmahjong.tui.results import payment_parts, result_text

from .helpers import plain

STANDARD = load_profile("standard")
# a non-dealer (seat 1) self-draws a 3-台 hand while seat 0 deals on 連1拉1: the dealer
# pays 3 + 莊 1 + 連莊 2 = 6 台, the other two 3 台 each (rules/001 items 9-10)
WIN = {"type": "win", "seat": 1, "from": None, "tile": "5s", "self_drawn": True,
       "score": {"winning": True, "tai": 3, "patterns": [
           {"id": "self_drawn", "zh": "自摸", "en": "Self-drawn", "tai": 1},
           {"id": "ping_hu", "zh": "平胡", "en": "All chows", "tai": 2}]}}
SETTLEMENT = {"type": "settlement", **win(3, winner=1, payer=None, dealer=0, dealer_tai=3,
                                         stakes=Stakes(100, 20)).to_json()}


def test_the_dealers_payment_is_split_into_hand_dealer_and_streak():
    dealer_pays, other_pays = SETTLEMENT["transfers"][0], SETTLEMENT["transfers"][1]
    parts = payment_parts(dealer_pays, [WIN], 0, 1, STANDARD)
    assert parts == [("hand", 3), ("dealer", 1), ("streak", 2)]
    assert sum(n for _, n in parts) == dealer_pays["tai"] == 6
    assert payment_parts(other_pays, [WIN], 0, 1, STANDARD) == [("hand", 3)]


class _Fake:
    """Just what the result screen reads from a session."""
    seat, profile, online = 2, STANDARD, False

    def seat_name(self, lang, seat):
        return {0: "上家 電腦1", 1: "下家 電腦2", 2: "你", 3: "對家 電腦3"}[seat] if lang == "zh" else \
            {0: "Left", 1: "Right", 2: "You", 3: "Across"}[seat]

    def result_model(self):
        return {"hand_no": 0, "wins": [WIN], "settlement": SETTLEMENT, "draw_game": None,
                "revealed": [{"hand": "123m", "melds": [], "flowers": ["1f"]} for _ in range(4)],
                "scores": SETTLEMENT["net"], "match_over": False, "dealer": 0, "dealer_streak": 1}


def test_the_screen_shows_the_sum_on_the_payment_line():
    zh = plain(result_text(_Fake(), "zh", 78))
    line = next(x for x in zh.splitlines() if x.strip().startswith("上家 電腦1 → 下家 電腦2"))
    assert "自摸: 3 台 + 莊 1 + 連莊 2 = 6 台" in line and "合計 3 台" in zh
    en = plain(result_text(_Fake(), "en", 78))
    assert "You pay Right  160  (self-draw: 3 tai)" in en
    assert "Left pays Right  220  (self-draw: 3 tai + dealer 1 + streak 2 = 6 tai)" in en
    assert "Flowers" in en                                # revealed flowers are labelled


def test_english_says_dealt_in_by_you_in_lower_case():
    """The person's deal-in mid-sentence: "dealt in by you", as the browser says it."""
    dealt = {**WIN, "from": 2, "self_drawn": False}
    settlement = {"type": "settlement", **win(3, winner=1, payer=2, dealer=0, dealer_tai=3,
                                              stakes=Stakes(100, 20)).to_json()}

    class DealtIn(_Fake):
        def result_model(self):
            return {**super().result_model(), "wins": [dealt], "settlement": settlement,
                    "scores": settlement["net"]}
    en = plain(result_text(DealtIn(), "en", 78))
    assert "Right wins on 5s (dealt in by you)" in en
    zh = plain(result_text(DealtIn(), "zh", 78))
    assert "（你 放槍）" in zh

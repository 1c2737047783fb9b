"""The 台 scorer against the rule texts: every pattern of every profile, with a hand
that has it and a near miss that does not. Expected totals are worked out by hand
from rules/001 (standard), rules/000 (classic), rules/003 (casual) and
spec/scoring.md — never copied from the scorer.

Base hands used below (seat E, round E unless said):
  N0 = chi 123s + 456m 789m 234p 66s 88s, wins 8s on a discard: 888s is an exposed
       pung (completed by a discard), two waits (6s/8s 對碰), not 門清  -> 0 台.
  N1 = N0 with 123s concealed instead of melded                      -> 門清 1 台.
"""

from __future__ import annotations

import pytest

from twmahjong.profiles import load_profile
from twmahjong.scoring import HandSpec, ScoreInputError, score

MELD = {"chi": "chi", "pon": "pon", "kong": "kong", "akong": "added_kong", "ckong": "concealed_kong"}


def H(concealed, win, melds="", flowers="", drawn=False, seat="E", rnd="E", dealer=False,
      streak=0, cond=()):
    """A formats.md hand; melds as 'chi:123s pon:777p ckong:3333s'."""
    ms = [{"type": MELD[m.split(":")[0]], "tiles": m.split(":")[1]} for m in melds.split()]
    return {"concealed": concealed, "melds": ms, "flowers": flowers, "win_tile": win,
            "self_drawn": drawn, "seat_wind": seat, "round_wind": rnd, "dealer": dealer,
            "dealer_streak": streak, "conditions": list(cond)}


N0 = dict(concealed="456m789m234p66s88s", win="8s", melds="chi:123s")
N1 = dict(concealed="123s456m789m234p66s88s", win="8s")
ALL = ("standard", "classic", "casual")


def run(hand: dict, profile: str):
    r = score(HandSpec.from_json(hand), load_profile(profile))
    return r.tai, {p.id for p in r.patterns}, r


def ids(s: str) -> set[str]:
    return set(s.split())


# (case id, hand, {profile: (total, pattern ids)})
CASES = [
    # --- 作莊 / 連N拉N (001 items 9, 10; 003 莊家) ---------------------------------
    ("base_N0_zero", H(**N0), {p: (0, ids("")) for p in ALL}),
    ("base_N1_concealed", H(**N1), {p: (1, ids("concealed")) for p in ALL}),   # 門清1
    ("dealer", H(**N0, dealer=True), {p: (1, ids("dealer")) for p in ALL}),     # 作莊1
    ("dealer_streak_2", H(**N0, dealer=True, streak=2),                         # 作莊1 + 連2拉2 2×2=4 = 5
     {p: (5, ids("dealer dealer_streak")) for p in ALL}),
    ("streak_without_dealer_counts_nothing", H(**N0, streak=2), {p: (0, ids("")) for p in ALL}),
    # --- 自摸 / 門清 / 不求 (001 items 3, 4, 23; 003 門清自摸 3台) ------------------
    ("self_draw", H(**N0, drawn=True), {p: (1, ids("self_draw")) for p in ALL}),   # 自摸1
    ("concealed_kong_keeps_concealed",                                          # 暗杠 允許: 門清1
     H("456m789m234p66s88s", "8s", melds="ckong:9999p"), {p: (1, ids("concealed")) for p in ALL}),
    ("concealed_self_draw", H(**N1, drawn=True),                                # 門清1 + 不求自摸2 = 3
     {p: (3, ids("concealed concealed_self_draw")) for p in ALL}),
    # --- 風字刻 (001 item 1; 003 風牌, no 圈風) -------------------------------------
    ("seat_wind", H("456m789m234p66s22z", "2z", melds="chi:123s", seat="S"),   # 南 seat: 門風1
     {p: (1, ids("seat_wind")) for p in ALL}),
    ("wind_pung_of_nobody", H("456m789m234p66s22z", "2z", melds="chi:123s", seat="W"),
     {p: (0, ids("")) for p in ALL}),
    ("round_wind", H("456m789m234p66s22z", "2z", melds="chi:123s", seat="W", rnd="S"),
     {"standard": (1, ids("round_wind")), "classic": (1, ids("round_wind")),  # 合圈序1
      "casual": (0, ids(""))}),                                               # 003 has no 圈風
    ("seat_and_round_wind", H("456m789m234p66s22z", "2z", melds="chi:123s", seat="S", rnd="S"),
     {"standard": (2, ids("seat_wind round_wind")), "classic": (2, ids("seat_wind round_wind")),
      "casual": (1, ids("seat_wind"))}),
    # --- 箭字刻 each (001 item 2; 003 三元牌) ---------------------------------------
    ("dragon_pung_one", H("456m789m234p66s55z", "5z", melds="chi:123s"),
     {p: (1, ids("dragon_pung")) for p in ALL}),
    ("dragon_pung_two", H("456m789m55z88s", "5z", melds="chi:123s pon:666z"),   # 白+發 = 2
     {p: (2, ids("dragon_pung")) for p in ALL}),
    ("dragon_pung_miss_pair_only", H("456m789m234p88s55z", "8s", melds="chi:123s"),  # 白 as the pair
     {p: (0, ids("")) for p in ALL}),
    # --- 對對胡 (001 item 8; 003 碰碰胡) --------------------------------------------
    ("all_pungs", H("555s77s88s", "8s", melds="pon:999p pon:111m pon:333p"),   # 對對4
     {p: (4, ids("all_pungs")) for p in ALL}),
    ("all_pungs_near_miss_one_chow", H("456s77s88s", "8s", melds="pon:999p pon:111m pon:333p"),
     {p: (0, ids("")) for p in ALL}),
    # --- 平胡 (001 item 7: 有將、無花、無字、無刻、非獨聽、非自摸; 003: 順子+對子 only) --
    ("ping_hu", H("123m456m789p234s67s55p", "5s"),                              # 門清1 + 平胡2 = 3
     {p: (3, ids("concealed ping_hu")) for p in ALL}),
    ("ping_hu_with_chi_melds", H("456m789p234s67s55p", "8s", melds="chi:123m"),  # 平胡2
     {p: (2, ids("ping_hu")) for p in ALL}),
    ("ping_hu_miss_flower", H("123m456m789p234s67s55p", "5s", flowers="2f"),    # 夏 not East's flower
     {"standard": (1, ids("concealed")), "classic": (1, ids("concealed")),    # 有花: no 平胡
      "casual": (3, ids("concealed ping_hu"))}),                              # 003 asks only chows
    ("ping_hu_miss_honor_pair", H("123m456m789p234s67s22z", "5s"),
     {"standard": (1, ids("concealed")), "classic": (1, ids("concealed")),
      "casual": (3, ids("concealed ping_hu"))}),
    ("ping_hu_miss_pung", H("123m456m789p222s67s55p", "5s"),                   # 刻 222s: 門清1 only
     {p: (1, ids("concealed")) for p in ALL}),
    ("ping_hu_miss_single_wait", H("123m456m789p234s57s55p", "6s"),            # 只聽6s: 門清1 + 獨聽1
     {"standard": (2, ids("concealed single_wait")), "classic": (2, ids("concealed single_wait")),
      "casual": (4, ids("concealed ping_hu closed_wait"))}),                  # 1 + 2 + 中洞1
    ("ping_hu_miss_self_drawn", H("123m456m789p234s67s55p", "5s", drawn=True),  # 門清1 + 不求2
     {"standard": (3, ids("concealed concealed_self_draw")),
      "classic": (3, ids("concealed concealed_self_draw")),
      "casual": (5, ids("concealed concealed_self_draw ping_hu"))}),          # + 平胡2
    # --- 全求 / 半求 (001 items 5, 6; 003 全求人) -----------------------------------
    ("all_melded", H("5s", "5s", melds="chi:123m chi:456p pon:999s chi:789m pon:222p"),
     {"standard": (3, ids("all_melded single_wait")),                         # 全求2 + 獨聽1 = 3
      "classic": (3, ids("all_melded single_wait")),
      "casual": (3, ids("all_melded pair_wait"))}),                           # 全求人2 + 單吊1
    ("all_melded_miss_concealed_kong",                                        # 暗槓 is not 吃碰外露
     H("5s", "5s", melds="chi:123m chi:456p ckong:9999s chi:789m pon:222p"),
     {"standard": (1, ids("single_wait")), "classic": (1, ids("single_wait")),
      "casual": (1, ids("pair_wait"))}),
    ("half_melded", H("5s", "5s", drawn=True, melds="chi:123m chi:456p pon:999s chi:789m pon:222p"),
     {"standard": (3, ids("half_melded single_wait self_draw")),              # 半求1 + 獨聽1 + 自摸1
      "classic": (3, ids("half_melded single_wait self_draw")),
      "casual": (2, ids("self_draw pair_wait"))}),                            # no 半求 in 003
    ("half_melded_miss_concealed_kong",
     H("5s", "5s", drawn=True, melds="chi:123m chi:456p ckong:9999s chi:789m pon:222p"),
     {"standard": (2, ids("single_wait self_draw")), "classic": (2, ids("single_wait self_draw")),
      "casual": (2, ids("self_draw pair_wait"))}),
    # --- 獨聽 (001 item 11) and shape waits (003 邊張 中洞 單吊) ---------------------
    ("closed_single_wait", H("456m789m24p66s888s", "3p", melds="chi:123s"),    # 24p 只聽 3p
     {"standard": (1, ids("single_wait")), "classic": (1, ids("single_wait")),
      "casual": (1, ids("closed_wait"))}),
    ("edge_single_wait", H("456m789m12p66s888s", "3p", melds="chi:123s"),      # 12p 只聽 3p (站壁)
     {"standard": (1, ids("single_wait")), "classic": (1, ids("single_wait")),
      "casual": (1, ids("edge_wait"))}),
    ("pair_single_wait", H("456m789m234p999s5s", "5s", melds="chi:123s"),      # 單釣 5s
     {"standard": (1, ids("single_wait")), "classic": (1, ids("single_wait")),
      "casual": (1, ids("pair_wait"))}),
    ("fourth_copy_held_is_no_wait", H("456m789m234p23s66s", "1s", melds="kong:4444s"),
     {"standard": (1, ids("single_wait")), "classic": (1, ids("single_wait")),  # 1s/4s, 4s all held
      "casual": (0, ids(""))}),                                                 # 123s+1s is not 邊張
    ("two_waits_not_single", H("456m789m234p23s66s", "1s", melds="chi:789s"),  # waits 1s and 4s:
     {p: (2, ids("ping_hu")) for p in ALL}),          # no 獨聽; all chows, no flower/honor: 平胡2
    ("casual_edge_preferred_over_closed", H("12234m456p789p66s", "3m", melds="chi:123s"),
     {"casual": (3, ids("ping_hu edge_wait"))}),      # 平胡2 + 邊張1 (003: 優先組成邊張, not 中洞)
    # --- 搶槓 槓上開花 海底撈月 (001 items 12, 24, 25) --------------------------------
    ("robbing_kong", H(**N0, cond=["robbing_kong"]), {p: (1, ids("robbing_kong")) for p in ALL}),
    ("kong_bloom_adds_self_draw", H(**N0, cond=["kong_bloom"]),                # 開花1 + 自摸1
     {p: (2, ids("kong_bloom self_draw")) for p in ALL}),
    ("last_tile_adds_self_draw", H(**N0, cond=["last_tile"]),                  # 海底1 + 自摸1
     {p: (2, ids("last_tile self_draw")) for p in ALL}),
    # --- 報聽 (003 宣告聽牌); standard ignores the condition it lacks ------------------
    ("declared_ready", H(**N1, cond=["declared_ready"]),
     {"standard": (1, ids("concealed")), "classic": (1, ids("concealed")),
      "casual": (2, ids("concealed declared_ready"))}),                       # 門清1 + 報聽1
    # --- 花牌 花槓 滿花 (001 item 26; 003 花牌 花杠) ----------------------------------
    ("seat_flower_one", H(**N0, flowers="1f"), {p: (1, ids("seat_flower")) for p in ALL}),
    ("seat_flower_two", H(**N0, flowers="1f5f"), {p: (2, ids("seat_flower")) for p in ALL}),  # 春+梅
    ("seat_flower_miss", H(**N0, flowers="2f6f"), {p: (0, ids("")) for p in ALL}),  # South's flowers
    ("seat_flower_follows_seat", H(**N0, flowers="2f", seat="S"), {p: (1, ids("seat_flower")) for p in ALL}),
    ("flower_set", H(**N0, flowers="1234f"),
     {"standard": (2, ids("flower_set")), "classic": (2, ids("flower_set")),  # 花槓改計2
      "casual": (2, ids("seat_flower flower_set"))}),                         # 春1 + 花杠1
    ("flower_set_plus_other_seat_flower", H(**N0, flowers="12345f"),
     {"standard": (3, ids("flower_set seat_flower")), "classic": (3, ids("flower_set seat_flower")),  # 2 + 梅1
      "casual": (3, ids("seat_flower flower_set"))}),                         # 春梅2 + 1
    ("flower_set_miss", H(**N0, flowers="1235f"),                             # no full set: 春梅 = 2
     {p: (2, ids("seat_flower")) for p in ALL}),
    ("all_flowers", H(**N0, flowers="12345678f"),
     {"standard": (8, ids("all_flowers")), "classic": (8, ids("all_flowers")),  # 滿花改計8
      "casual": (4, ids("seat_flower flower_set"))}),                         # 春梅2 + 2 sets
    ("all_flowers_miss_seven", H(**N0, flowers="1234567f"),                   # 花槓2 + 梅1
     {"standard": (3, ids("flower_set seat_flower")), "classic": (3, ids("flower_set seat_flower")),
      "casual": (3, ids("seat_flower flower_set"))}),
    # --- 暗刻 (001 items 16-18; 000 四暗坎6 五暗坎16; 003 5/8) ------------------------
    ("three_concealed_by_placement", H("111m333p555s34s99s", "5s", melds="chi:123s"),
     {p: (2, ids("three_concealed_pungs")) for p in ALL}),  # 5s read into 345s keeps 555s 暗: 三暗刻2
    ("three_concealed_miss_discard_pung", H("111m333p456s88s99s", "9s", melds="chi:123s"),
     {p: (0, ids("")) for p in ALL}),                       # 999s by discard is 明: only 2 暗
    ("three_concealed_self_drawn", H("111m333p456s88s99s", "9s", melds="chi:123s", drawn=True),
     {p: (3, ids("three_concealed_pungs self_draw")) for p in ALL}),          # 三暗2 + 自摸1
    ("four_concealed", H("111m333p555s777s9s", "9s", melds="chi:789m"),    # waits 9s and 8s (77s+789s)
     {"standard": (5, ids("four_concealed_pungs")),                          # 四暗5, not 獨聽
      "classic": (6, ids("four_concealed_pungs")),                           # 四暗坎6
      "casual": (6, ids("four_concealed_pungs pair_wait"))}),                 # 5 + 單吊1 (by shape)
    ("four_concealed_miss_discard_pung", H("111m333p555s77s99s", "9s", melds="chi:789m"),
     {p: (2, ids("three_concealed_pungs")) for p in ALL}),
    ("four_concealed_with_all_pungs", H("111m333p555s777s8s", "8s", melds="pon:999p"),  # waits 8s, 6s
     {"standard": (9, ids("all_pungs four_concealed_pungs")),                # 對對4 + 四暗5
      "classic": (10, ids("all_pungs four_concealed_pungs")),                # 4 + 6
      "casual": (6, ids("four_concealed_pungs pair_wait"))}),                 # 003: 不計碰碰胡 → 5 + 1
    ("five_concealed", H("111m333p555s777s99s22p", "9s", drawn=True),
     {"standard": (14, ids("five_concealed_pungs concealed_self_draw")),     # 五暗12 + 不求2 (不計門清.對對)
      "classic": (18, ids("five_concealed_pungs concealed_self_draw")),      # 16 + 2
      "casual": (10, ids("five_concealed_pungs concealed_self_draw"))}),      # 8 + 2
    ("five_concealed_miss_discard", H("111m333p555s777s99s22p", "9s"),
     {"standard": (10, ids("concealed all_pungs four_concealed_pungs")),     # 門清1 + 對對4 + 四暗5
      "classic": (11, ids("concealed all_pungs four_concealed_pungs")),      # 1 + 4 + 6
      "casual": (6, ids("concealed four_concealed_pungs"))}),                 # 1 + 5
    # --- 一色 (001 items 13-15; 003 混一色4 清一色8) -----------------------------------
    ("half_flush", H("456m789m234m11m22z", "1m", melds="chi:123m"),
     {p: (4, ids("half_flush")) for p in ALL}),
    ("half_flush_miss_second_suit", H("456m789m234m11m22p", "1m", melds="chi:123m"),
     {p: (0, ids("")) for p in ALL}),
    ("full_flush_drops_half", H("456m789m234m11m99m", "9m", melds="chi:123m"),
     {"standard": (12, ids("full_flush")), "classic": (12, ids("full_flush")),
      "casual": (8, ids("full_flush"))}),
    ("all_honors_minus_4", H("555z66z77z", "6z", melds="pon:111z pon:222z pon:333z"),
     # 東南西 + 白發 pungs, 中 pair: 門風1 + 圈風1 + 小三元4 + 字一色16-4 = 18 (不計對對和)
     {"standard": (18, ids("seat_wind round_wind little_three_dragons all_honors")),
      "classic": (18, ids("seat_wind round_wind little_three_dragons all_honors")),
      "casual": (17, ids("seat_wind little_three_dragons all_honors"))}),     # no 圈風
    ("all_honors_miss_one_suited_pung", H("555z66z77z", "6z", melds="pon:111z pon:222z pon:999p"),
     # 門風1 + 圈風1 + 小三元4 + 對對4 + 湊一色4 = 14
     {"standard": (14, ids("seat_wind round_wind little_three_dragons all_pungs half_flush")),
      "classic": (14, ids("seat_wind round_wind little_three_dragons all_pungs half_flush")),
      "casual": (13, ids("seat_wind little_three_dragons all_pungs half_flush"))}),
    # --- 三元 四喜 (001 items 19-22) ------------------------------------------------
    ("little_three_dragons", H("456m99p555z666z77z", "9p", melds="chi:123s"),  # 小三元4, 箭刻不另計
     {p: (4, ids("little_three_dragons")) for p in ALL}),
    ("little_three_dragons_miss_pair", H("456m99p555z666z88s", "9p", melds="chi:123s"),
     {p: (2, ids("dragon_pung")) for p in ALL}),                              # 白1 + 發1
    ("big_three_dragons", H("456m99p555z666z77z", "7z", melds="chi:123s"),    # 大三元8
     {p: (8, ids("big_three_dragons")) for p in ALL}),
    ("little_four_winds_keeps_winds", H("333z44z99p456m", "9p", melds="pon:111z pon:222z"),
     {"standard": (10, ids("little_four_winds seat_wind round_wind")),        # 小四喜8 + 門1 + 圈1
      "classic": (10, ids("little_four_winds seat_wind round_wind")),
      "casual": (9, ids("little_four_winds seat_wind"))}),
    ("little_four_winds_miss_pair", H("333z88s99p456m", "9p", melds="pon:111z pon:222z"),
     {"standard": (2, ids("seat_wind round_wind")), "classic": (2, ids("seat_wind round_wind")),
      "casual": (1, ids("seat_wind"))}),
    ("big_four_winds", H("333z44z99p456m", "4z", melds="pon:111z pon:222z"),  # 大四喜16, 風刻不另計
     {p: (16, ids("big_four_winds")) for p in ALL}),
    ("big_four_winds_all_pungs", H("333z44z55s", "4z", melds="pon:111z pon:222z pon:999p"),
     {"standard": (20, ids("big_four_winds all_pungs")), "classic": (20, ids("big_four_winds all_pungs")),
      "casual": (16, ids("big_four_winds"))}),                                # 003: 不計碰碰胡
    # --- 四杠 (003 四杠牌 8台, 不計碰碰胡) -------------------------------------------
    ("four_kongs", H("456m7p", "7p", melds="kong:1111m kong:2222p ckong:3333s akong:9999s"),
     {"standard": (1, ids("single_wait")), "classic": (1, ids("single_wait")),
      "casual": (9, ids("four_kongs pair_wait"))}),                           # 四杠8 + 單吊1
    ("four_kongs_miss_pon", H("456m7p", "7p", melds="kong:1111m kong:2222p ckong:3333s pon:999s"),
     {"casual": (1, ids("pair_wait"))}),
    ("four_kongs_drops_all_pungs", H("555m7p", "7p", melds="kong:1111m kong:2222p ckong:3333s akong:9999s"),
     {"standard": (5, ids("all_pungs single_wait")), "classic": (5, ids("all_pungs single_wait")),
      "casual": (9, ids("four_kongs pair_wait"))}),
    # --- 天聽 地聽 人和 天胡 地胡 (001 items 31-35; 000 地聽4 人胡16; 003 天聽16 地聽8 天胡24) --
    ("heavenly_ready", H(**N1, cond=["heavenly_ready"]),                       # 不計門清
     {"standard": (8, ids("heavenly_ready")), "classic": (8, ids("heavenly_ready")),
      "casual": (16, ids("heavenly_ready"))}),
    ("heavenly_ready_self_drawn", H(**N1, drawn=True, cond=["heavenly_ready"]),  # 天聽8 + 不求2
     {"standard": (10, ids("heavenly_ready concealed_self_draw")),
      "classic": (10, ids("heavenly_ready concealed_self_draw")),
      "casual": (18, ids("heavenly_ready concealed_self_draw"))}),
    ("earthly_ready", H(**N1, cond=["earthly_ready"]),
     {"standard": (6, ids("earthly_ready")), "classic": (4, ids("earthly_ready")),
      "casual": (8, ids("earthly_ready"))}),
    ("casual_heavenly_ready_drops_declared", H(**N1, cond=["heavenly_ready", "declared_ready"]),
     {"casual": (16, ids("heavenly_ready"))}),
    ("casual_earthly_ready_drops_declared", H(**N1, cond=["earthly_ready", "declared_ready"]),
     {"casual": (8, ids("earthly_ready"))}),                                  # 地聽8 (is a 報聽; 不計門清)
    ("ready_first_win", H(**N1, cond=["earthly_ready", "ready_first_win"]),   # 人和8, 不計地聽.門清
     {"standard": (8, ids("ready_first_win")), "classic": (8, ids("ready_first_win")),
      "casual": (8, ids("earthly_ready"))}),                                  # 003 lacks 人和: 地聽8
    ("heavenly_ready_first_win", H(**N1, cond=["heavenly_ready", "heavenly_ready_first_win"]),
     {"standard": (8, ids("heavenly_ready")), "classic": (16, ids("heavenly_ready_first_win")),
      "casual": (16, ids("heavenly_ready"))}),
    ("heavenly_win", H(**N1, drawn=True, dealer=True, cond=["heavenly_win"]),  # 作莊1 + 天胡16 (不計門清一摸三)
     {"standard": (17, ids("dealer heavenly_win")), "classic": (17, ids("dealer heavenly_win")),
      "casual": (25, ids("dealer heavenly_win"))}),                           # 1 + 24
    ("heavenly_win_miss", H(**N1, drawn=True, dealer=True),                   # 作莊1 + 門清1 + 不求2
     {p: (4, ids("dealer concealed concealed_self_draw")) for p in ALL}),
    ("earthly_win", H(**N1, drawn=True, cond=["heavenly_ready", "earthly_win"]),  # 地胡16 + 不求2, 不計天聽
     {"standard": (18, ids("earthly_win concealed_self_draw")),
      "classic": (18, ids("earthly_win concealed_self_draw")),
      "casual": (18, ids("heavenly_ready concealed_self_draw"))}),            # 003 lacks 地胡: 16 + 2
    # --- 花和 (001 items 27-30) ---------------------------------------------------
    ("eight_immortals_incomplete", H("1479m258p369s1234567z", None, flowers="12345678f",
                                     cond=["eight_immortals"]),
     {p: (8, ids("eight_immortals")) for p in ALL}),                          # 八仙8, 手牌不計
    ("eight_immortals_incomplete_dealer", H("1479m258p369s1234567z", None, flowers="12345678f",
                                            dealer=True, streak=1, cond=["eight_immortals"]),
     {p: (11, ids("eight_immortals dealer dealer_streak")) for p in ALL}),    # 8 + 莊1 + 連1拉1 2
    ("eight_immortals_complete_hand", H(**N1, drawn=True, flowers="12345678f",
                                        cond=["eight_immortals", "kong_bloom"]),
     # 牌面照算: 門清1 + 不求2 + 開花1 + 八仙8 = 12 (滿花/花牌 replaced)
     {p: (12, ids("concealed concealed_self_draw kong_bloom eight_immortals")) for p in ALL}),
    ("seven_rob_one_incomplete", H("1479m258p369s1234567z", None, flowers="12345678f",
                                   cond=["seven_rob_one"]),
     {p: (8, ids("seven_rob_one")) for p in ALL}),
    ("seven_rob_one_complete_hand", H(**N0, flowers="12345678f", cond=["seven_rob_one"]),
     {p: (8, ids("seven_rob_one")) for p in ALL}),                            # N0 0 + 七搶一8
]


def _flat():
    for cid, hand, expect in CASES:
        for prof, (total, pats) in expect.items():
            yield pytest.param(hand, prof, total, pats, id=f"{cid}-{prof}")


@pytest.mark.parametrize("hand, prof, total, pats", list(_flat()))
def test_pattern_table(hand, prof, total, pats):
    tai, got, r = run(hand, prof)
    assert r.winning
    assert (tai, got) == (total, pats)


def test_every_pattern_of_every_profile_is_exercised():
    seen = {(prof, pid) for _, _, expect in CASES for prof, (_, pats) in expect.items() for pid in pats}
    seen |= {("standard", "lilgu"), ("classic", "lilgu")}  # test_lilgu_* below
    for prof in ALL:
        missing = set(load_profile(prof).patterns) - {pid for p, pid in seen if p == prof}
        assert not missing, f"{prof}: no positive case for {sorted(missing)}"


# --- specific fine points --------------------------------------------------------------

def test_highest_split_wins():
    # 111222333m reads as three pungs or three chows. Concealed, won on 9p by discard:
    # pungs: 門清1 + 三暗刻2 + 湊一色? no (p too). = 3; chows 123m×3 + 999p: 門清1 = 1.
    tai, pats, r = run(H("111222333m456s99p88p", "9p"), "standard")
    assert (tai, pats) == (3, {"concealed", "three_concealed_pungs"})
    assert r.split == ("111m", "222m", "333m", "999p", "456s", "88p")


def test_split_reports_melds_and_pair_last():
    hand = H("123m456p789s22z55s", "2z", melds="pon:777p", rnd="S")
    r = score(HandSpec.from_json(hand), load_profile("standard"))
    assert r.to_json() == {"winning": True, "tai": 1, "patterns": [
        {"id": "round_wind", "zh": "圈風刻", "en": "Round wind pung", "tai": 1}],
        "split": ["123m", "456p", "789s", "222z", "777p", "55s"]}


def test_not_winning_answers_with_reason():
    r = score(HandSpec.from_json(H("1479m258p369s123456z", "7z")), load_profile("standard"))
    j = r.to_json()
    assert j["winning"] is False and j["tai"] == 0 and j["patterns"] == [] and j["split"] == []
    assert "未成胡" in j["reason"]


def test_incomplete_four_kongs_wins_only_in_casual():
    hand = H("456m7p", "8p", melds="kong:1111m kong:2222p ckong:3333s akong:9999s")
    assert run(hand, "casual")[:2] == (8, {"four_kongs"})        # 003: 即以胡牌計算, 四杠8
    assert run(hand, "standard")[2].winning is False


@pytest.mark.parametrize("prof", ALL)
def test_eight_flowers_without_a_flower_win_claim_do_not_win_alone(prof):
    hand = H("1479m258p369s1234567z", None, flowers="12345678f")
    assert run(hand, prof)[2].winning is False


def test_flower_win_needs_eight_flowers():
    with pytest.raises(ScoreInputError, match="eight flowers"):
        HandSpec.from_json(H("1479m258p369s1234567z", None, flowers="1234567f", cond=["eight_immortals"]))


def test_lilgu_off_by_default(tmp_path):
    hand = H("11m22m33p44p55s66s77s99s", "9s")
    assert run(hand, "standard")[2].winning is False


@pytest.mark.parametrize("base", ["standard", "classic"])
def test_lilgu_when_switched_on(tmp_path, base):
    f = tmp_path / "mine.toml"
    f.write_text(f'extends = "{base}"\n[scoring]\nlilgu = true\n', encoding="utf-8")
    hand = H("11m22m33p44p55s66s77s99s", "9s")
    r = score(HandSpec.from_json(hand), load_profile(str(f)))
    # 嚦咕嚦咕8, 門清 implied (必須門清); the 16 tiles wait on 8 kinds, so no 獨聽
    assert (r.tai, {p.id for p in r.patterns}) == (8, {"lilgu"})
    near = H("11m22m33p44p55s66s78s99s", "9s")                    # 78s is not a pair
    assert score(HandSpec.from_json(near), load_profile(str(f))).winning is False


def test_user_profile_override_changes_score(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('extends = "standard"\n[patterns.all_pungs]\ntai = 6\n', encoding="utf-8")
    hand = H("555s77s88s", "8s", melds="pon:999p pon:111m pon:333p")
    assert run(hand, "standard")[0] == 4
    r = score(HandSpec.from_json(hand), load_profile(str(f)))
    assert r.tai == 6 and r.patterns[0].zh == "對對胡"   # zh/en kept from the base (deep merge)


# --- input validation --------------------------------------------------------------------

BAD = [
    ("formats_md_example_19_tiles", dict(H("123m456p789s1122z55s", "2z", melds="pon:777p")),
     r"counts 19 tiles .*17"),
    ("too_few", H("123m456p789s55s", "2z", melds="pon:777p"), r"counts 15 tiles \(11 concealed \+ 1 winning tile \+ 3 × 1 melds\)"),
    ("bad_notation", H("123m456x", "2z"), r"concealed: .*'x' at position 7"),
    ("bad_win_tile", H(**{**N0, "win": "0m"}), r"win_tile: no tile 0m"),
    ("chi_not_run", H("456m789m234p66s88s", "8s", melds="chi:135s"), r"melds\[0\]: chi 135s is not a run"),
    ("chi_across_suits", H("456m789m234p66s88s", "8s", melds="chi:89m1p"), r"not a run of three in one suit"),
    ("chi_of_honors", H("456m789m234p66s88s", "8s", melds="chi:123z"), r"not a run"),
    ("pon_not_three", H("456m789m234p66s88s", "8s", melds="pon:778p"), r"pon 778p is not three of a kind"),
    ("kong_not_four", H("456m789m234p66s88s", "8s", melds="kong:777p"), r"kong 777p is not four of a kind"),
    ("fifth_copy", H("456m789m234p66s88s", "8s", melds="ckong:8888s"), r"7 copies of 8s .*only 4"),
    ("flower_twice", H(**N0, flowers="1f1f"), r"flower 1f .* 2 times"),
    ("non_flower_in_flowers", H(**N0, flowers="1f5z"), r"flowers: 5z is not a flower"),
    ("flower_in_hand", H("456m789m234p66s8s1f", "8s", melds="chi:123s"), r"belongs in \"flowers\""),
    ("unknown_condition", H(**N0, cond=["double_ron"]), r"unknown condition 'double_ron'"),
    ("bad_wind", {**H(**N0), "seat_wind": "X"}, r"seat_wind: wind must be one of E S W N"),
    ("unknown_key", {**H(**N0), "riichi": True}, r"unknown key 'riichi'"),
    ("bool_as_text", {**H(**N0), "self_drawn": "yes"}, r"self_drawn must be true or false, not text"),
    ("streak_bool", {**H(**N0), "dealer_streak": True}, r"dealer_streak must be a whole number"),
    ("melds_not_list", {**H(**N0), "melds": "chi:123s"}, r"melds must be a list"),
    ("meld_bad_type", {**H(**N0), "melds": [{"type": "chow", "tiles": "123s"}]}, r"melds\[0\].type must be one of"),
    ("not_object", ["123m"], r"must be a JSON object"),
    ("win_tile_missing", {"concealed": "123s456m789m234p66s88s8s"}, r"win_tile is missing"),
]


@pytest.mark.parametrize("hand, message", [pytest.param(h, m, id=i) for i, h, m in BAD])
def test_bad_input_is_one_clear_error(hand, message):
    with pytest.raises(ScoreInputError, match=message):
        HandSpec.from_json(hand)


def test_no_profile_id_branches_in_the_scorer():
    import twmahjong.patterns as pm
    import twmahjong.scoring as sm
    for mod in (sm, pm):
        src = open(mod.__file__, encoding="utf-8").read()
        assert ".id ==" not in src and ".id !=" not in src and "profile.id in" not in src


def test_wait_shape_preference_is_profile_data(tmp_path):
    # 12234m + 3m reads as 123m+234m: 3m is 邊張 in 123m or 中洞 in 234m, both 1台.
    # casual prefers 邊張 (rules/003); a house file preferring 中洞 flips the report, not the total.
    hand = H("12234m456p789p66s", "3m", melds="chi:123s")
    f = tmp_path / "house.toml"
    f.write_text('extends = "casual"\n[scoring]\nprefer = ["closed_wait"]\n', encoding="utf-8")
    r = score(HandSpec.from_json(hand), load_profile(str(f)))
    assert (r.tai, {p.id for p in r.patterns}) == (3, {"ping_hu", "closed_wait"})
    assert run(hand, "casual")[:2] == (3, {"ping_hu", "edge_wait"})

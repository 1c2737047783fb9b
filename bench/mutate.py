"""Mutation sample for docs/rules-coverage.md: take a rule's line out of a scratch copy
of the engine and show that the test the doc names for that rule fails.

Each mutation below is (row of the doc, file, the line(s) as they stand, what they
become, tests). For each, ``src/`` is copied to a temporary directory, the edit is
made there (never in the checkout), and pytest runs the named tests from this
checkout with ``PYTHONPATH`` pointing at the copy. Every test is first run on the
unmutated copy: it must pass there, and fail once the rule's line is gone.

    .venv/bin/python bench/mutate.py            # prints the markdown table
    .venv/bin/python bench/mutate.py -k 禁制     # only rows whose label contains 禁制
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
E = "src/twmahjong/engine/"
P = "src/twmahjong/profiles/"
T = "tests/engine/"

# (row, file, old text (must occur exactly once), new text, tests); file, old and new
# may be lists of the same length when a rule is written in more than one place
MUTATIONS = [
    ("000/001 禁制 1 吃牌或碰牌之後不得接著開杠", E + "legal.py",
     "    if not h.no_kong and h.drawable() >= 1:", "    if h.drawable() >= 1:",
     [T + "test_prohibitions.py::test_1_no_kong_right_after_pon_or_chi"]),
    ("000/001 禁制 2 碰杠之補牌不得自摸胡牌", E + "claims.py",
     "            self.no_self_win = True          # 禁制 2\n", "",
     [T + "test_prohibitions.py::test_2_no_self_draw_on_the_replacement_after_a_kong_from_a_discard"]),
    ("001 禁制 3 碰杠補牌之後不得接著暗杠 (standard)", E + "claims.py",
     '            self.no_concealed_kong = self.rules.concealed_kong_after_exposed_kong == "forbidden"',
     "            self.no_concealed_kong = False",
     [T + "test_prohibitions.py::test_3_no_concealed_kong_after_a_kong_from_a_discard"]),
    ("000 禁制 3 碰杠後暗杠 allowed (classic)", P + "classic.toml",
     'concealed_kong_after_exposed_kong = "no_self_draw"', 'concealed_kong_after_exposed_kong = "forbidden"',
     [T + "test_prohibitions.py::test_3_classic_a_concealed_kong_may_follow_a_kong_from_a_discard"]),
    ("000 禁制 3 …暗杠補牌不得自摸胡牌 (classic)", E + "table.py",
     "            if furiten:\n                self.no_self_win = True\n",
     "            self.no_self_win = furiten\n",
     [T + "test_prohibitions.py::test_3_classic_a_concealed_kong_may_follow_a_kong_from_a_discard"]),
    ("000/001 禁制 4 自摸必須始於摸牌", E + "legal.py",
     '    if h.turn_src == "claim" or h.no_self_win:', "    if False:",
     [T + "test_prohibitions.py::test_4_a_self_drawn_win_must_start_with_a_draw",
      T + "test_prohibitions.py::test_4_casual_no_self_draw_in_a_turn_entered_by_a_claim"]),
    ("000/001 禁制 5 暗杠…可胡之牌包含同巡打過之牌，此自摸無效", E + "table.py",
     "            if furiten:\n                self.no_self_win = True\n", "",
     [T + "test_prohibitions.py::test_5_no_self_draw_after_a_concealed_kong_when_a_wait_went_out_this_go_around"]),
    ("000/001 禁制 6 吃入牌時不得打出同(絡)牌", E + "claims.py",
     "                self.forbidden = frozenset(bad)\n", "                pass\n",
     [T + "test_prohibitions.py::test_6_after_chi_not_the_same_tile_nor_the_other_end"]),
    ("000/001 碰牌後之舍牌不得為同牌", E + "claims.py",
     "                self.forbidden = frozenset({k})\n", "                pass\n",
     [T + "test_prohibitions.py::test_after_pon_not_the_same_tile"]),
    ("000/001 禁制 7 牌牆摸序末三張內不得吃、碰、碰杠", E + "legal.py",
     "    if may_meld and h.drawable() >= rules.no_claims_last:", "    if may_meld:",
     [T + "test_wall.py::test_no_claims_on_a_discard_among_the_last_three_drawable_tiles",
      T + "test_prohibitions.py::test_7_no_pon_on_a_discard_made_with_two_drawable_tiles_left"]),
    ("000/001 同一巡內出現之相同第二張牌不得碰牌", E + "claims.py",
     "                    st.passed_pon.add(o.tile)\n", "                    pass\n",
     [T + "test_passed.py::test_a_passed_pon_is_not_offered_again_in_the_same_go_around"]),
    ("000/001 過水: 得胡牌而未胡牌…不得胡牌", E + "claims.py",
     "                        st.passed_win = True\n", "                        pass\n",
     [T + "test_passed.py::test_a_passed_win_blocks_every_win_until_the_seat_discards"]),
    ("000/001 解除過水: 打出一張非胡之牌", E + "table.py",
     'self.rules.passed_win == "until_non_winning_discard" and k not in st.waits)',
     'self.rules.passed_win == "until_non_winning_discard")',
     [T + "test_passed.py::test_throwing_a_winning_tile_does_not_lift_a_passed_win"]),
    ("000/001 解除過水: (或加杠)", E + "table.py",
     "            self._put_out(st, k)             # 解除過水: 加槓 counts as putting a tile out\n", "",
     [T + "test_passed.py::test_an_added_kong_lifts_a_passed_win"]),
    ("000/001 攔胡: 離放銃者輪序較近者優先胡牌", E + "claims.py",
     "            return ws[:1]                    # 攔胡", "            return ws  # 攔胡",
     [T + "test_claims.py::test_two_winners_the_nearest_in_turn_order_takes_it"]),
    ("000/001 吃牌: 上家之舍牌", [E + "legal.py", E + "legal.py", E + "table.py"],
     # the rule is in three lines: the window's quick skip, the list's quick exit, the list
     ["        if next_seat and k < 27:", "and not (next_seat and k < 27):", "or (s == nxt and k < 27):"],
     ["        if k < 27:", "and not (k < 27):", "or k < 27:"],
     [T + "test_claims.py::test_only_the_next_player_may_chi"]),
    ("000/001 搶杠", E + "table.py",
     "                    robbers[s] = [A.win(k), A.PASS]\n", "                    pass\n",
     [T + "test_claims.py::test_robbing_an_added_kong"]),
    ("000/001 天聽: 閑家配牌補花後即宣布聽牌", E + "table.py",
     "            ready = [s for s in range(4) if s != self.dealer and self.seats[s].waits]",
     "            ready = []",
     [T + "test_declarations.py::test_a_ready_non_dealer_is_asked_to_declare_heavenly_ready_before_play"]),
    ("000/001 地聽: 打出第1張牌即宣布聽牌", E + "legal.py",
     '    return st.n_discards == 0 and not st.exposed_melds() and h.turn_src != "claim"',
     "    return not st.exposed_melds()",
     [T + "test_declarations.py::test_earthly_ready_is_only_for_the_first_discard"]),
    ("000/001 天聽/地聽: 曾過水未胡，不計天聽", E + "claims.py",
     "                    st.declare_valid = False\n", "",
     [T + "test_declarations.py::test_a_passed_win_voids_the_declaration"]),
    ("001 item 32 / 000 地聽: 不換牌則保持有效，否則解除 (standard)", P + "standard.toml",
     'declared_hand = "may_change"', 'declared_hand = "locked"',
     [T + "test_declarations.py::test_standard_earthly_ready_may_change_tiles_and_then_loses_the_declaration"]),
    ("000/001 天聽: 換牌則解除天聽", E + "table.py",
     "                self._hand_changed(seat)         # 換牌: kept the drawn tile, threw another\n",
     "                pass\n",
     [T + "test_declarations.py::test_heavenly_ready_may_change_tiles_and_then_loses_the_declaration"]),
    ("003 報聽後不可再換牌 (casual)", P + "casual.toml",
     'declared_hand = "locked"', 'declared_hand = "may_change"',
     [T + "test_declarations.py::test_casual_a_declared_hand_is_locked_it_throws_what_it_draws"]),
    ("000 地胡: 閑家摸入第一張牌未打牌前開暗杠…視同地胡", E + "conditions.py",
     '            if st.declared == "heavenly_ready" and st.n_discards == 0:\n                cond.add("earthly_win")\n',
     '            if False:\n                pass\n',
     [T + "test_declarations.py::test_classic_earthly_win_by_a_concealed_kong_on_the_first_draw"]),
    ("000 天胡: 莊家起手未打牌前開暗杠…視同天胡", E + "conditions.py",
     '            cond.add("heavenly_win")\n', "            pass\n",
     [T + "test_declarations.py::test_classic_heavenly_win_by_a_concealed_kong_before_the_first_discard"]),
    ("000 人胡: 閑家起手天聽…胡各家打出之第一張牌", E + "conditions.py",
     '                    cond.add("heavenly_ready_first_win")\n', "                    pass\n",
     [T + "test_declarations.py::test_and_heavenly_ready_first_win_in_classic"]),
    ("000/001 荒局: 除殘牌8墩外皆已摸完", P + "standard.toml",
     "dead_wall = 16", "dead_wall = 0",
     [T + "test_wall.py::test_the_last_sixteen_tiles_are_never_drawn_and_the_hand_is_drawn"]),
    ("000/001 海底牌得棄摸", P + "standard.toml",
     "may_decline_last_tile = true", "may_decline_last_tile = false",
     [T + "test_last_tile.py::test_the_seat_due_to_draw_the_last_tile_is_asked_draw_or_pass"]),
    ("000/001 定莊: 莊家胡牌或該盤荒局應連莊", E + "match.py",
     '        dealer_keeps = res["type"] == "draw_game" or (', "        dealer_keeps = False and (",
     [T + "test_match.py::test_a_drawn_hand_keeps_the_dealer_and_counts_the_streak"]),
    ("000/001 搬風: 次將起每將於原座位搬風", P + "classic.toml",
     "reseat_each_game = true", "reseat_each_game = false",
     [T + "test_match.py::test_a_two_game_match_replays_from_its_record"]),
    ("000/001 搬風: 相互順序不得與前一將完全相同，否則重搬", E + "wall.py",
     "        if new not in same_order:", "        if True:",
     [T + "test_match.py::test_a_draw_that_keeps_the_mutual_order_is_drawn_again"]),
    ("Illegal actions: an action naming a flower is refused with a message", E + "explain.py",
     "    if any(k >= 34 for k in named):", "    if False:",
     ["tests/engine/test_malformed.py::test_an_action_naming_a_flower_is_refused_with_a_message"]),
    ("Illegal actions: the action cache is bounded", E + "actions.py",
     "        if a._shared and a._json == _canonical(key) and len(_FROM_CACHE) < _CACHE_MAX:",
     "        if True:",
     ["tests/engine/test_malformed.py::test_the_action_cache_stays_bounded_under_a_flood_of_distinct_bad_actions"]),
]


def _pytest(src: Path, tests: list[str]) -> bool:
    env = dict(os.environ, PYTHONPATH=str(src))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    return r.returncode == 0


def run(label: str, rel, old, new, tests: list[str]) -> tuple[bool, bool]:
    """(passes on the scratch copy as it stands, fails with the line removed)."""
    with tempfile.TemporaryDirectory(prefix="twmj-mutate-") as tmp:
        copy = Path(tmp) / "src"
        shutil.copytree(ROOT / "src", copy, ignore=shutil.ignore_patterns("__pycache__"))
        before = _pytest(copy, tests)
        edits = zip(*(x if isinstance(x, list) else [x] for x in (rel, old, new)))
        for one_rel, one_old, one_new in edits:      # a rule written in two places: both go
            path = Path(tmp) / one_rel
            text = path.read_text(encoding="utf-8")
            n = text.count(one_old)
            if n != 1:
                raise SystemExit(f"{label}: the line to remove occurs {n} times in {one_rel}")
            path.write_text(text.replace(one_old, one_new), encoding="utf-8")
            if path.suffix == ".py":            # a mutant that does not compile proves nothing
                compile(path.read_text(encoding="utf-8"), str(path), "exec")
        after = _pytest(copy, tests)
    return before, not after


def _cell(text) -> str:
    if isinstance(text, list):
        return " + ".join(_cell(t) for t in text)
    one = " ⏎ ".join(x.strip() for x in text.strip("\n").splitlines()) or "(nothing)"
    return "`" + one.replace("|", "\\|").replace("`", "'") + "`"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", default="", help="only rows whose label contains this text")
    ap.add_argument("--start", type=int, default=1, help="begin at this row (1-based)")
    args = ap.parse_args()
    rows = [m for m in MUTATIONS[args.start - 1:] if args.k in m[0]]
    print("| row | file | line removed → becomes | test | unmutated | mutated |")
    print("|---|---|---|---|---|---|")
    caught = 0
    for label, rel, old, new, tests in rows:
        ok_before, fails_after = run(label, rel, old, new, tests)
        caught += ok_before and fails_after
        names = ", ".join("`" + t.split("/")[-1] + "`" for t in tests)
        files = ", ".join(f"`{r.split('/')[-1]}`" for r in (rel if isinstance(rel, list) else [rel]))
        print(f"| {label} | {files} | {_cell(old)} → {_cell(new)} | {names} | "
              f"{'passes' if ok_before else 'FAILS'} | {'fails' if fails_after else 'STILL PASSES'} |",
              flush=True)
    print(f"\n{caught} of {len(rows)} mutations caught by the named test (each passing unmutated).")
    return 0 if caught == len(rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""The table view rendered from fixture observations (docs/architecture.md, Observation)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from twmahjong.hints import discard_hints, ready_waits
from twmahjong.tiles import parse_tile
from twmahjong.tui.strings import tile_label

from .conftest import evaluate_async

CJK = re.compile(r"[\u4e00-\u9fff]")


def _open(p, state, extra=""):
    return p.open(f"dev/table.html?state={state}&clean{extra}")


def test_every_zone_of_the_table_is_drawn(web, fixtures):
    page = _open(web, "turn", "&timer&frozen")
    obs = fixtures["states"]["turn"]
    # Four rivers, each holding exactly that seat's discards in order.
    for seat in range(4):
        river = page.locator(f'.river[data-seat="{seat}"] .tile')
        assert [river.nth(i).get_attribute("data-tile") for i in range(river.count())] == obs["discards"][seat]
    # The last discard (上家 threw 西, seat 3) is the one marked, and only it.
    marked = page.locator(".river .last-discard")
    assert marked.count() == 1
    assert marked.get_attribute("data-tile") == "3z"
    assert page.locator('.river[data-seat="3"] .tile').last.get_attribute("class").count("last-discard") == 1
    # Opponents show backs, never faces: 13, 16 and 10 concealed tiles.
    for seat, n in ((1, 13), (2, 16), (3, 10)):
        assert page.locator(f'.band[data-seat="{seat}"] .concealed .tile.back').count() == n
    assert page.locator('.band[data-seat="0"] .concealed').count() == 0
    # Melds and flowers per seat; the concealed kong of seat 3 is four backs.
    assert page.locator('.band[data-seat="0"] .meld[data-type="pon"] .tile').count() == 3
    assert page.locator('.band[data-seat="3"] .meld[data-type="concealed_kong"] .tile.back').count() == 4
    assert page.locator('.band[data-seat="3"] .flowers .tile').count() == 3
    # Own hand: 13 concealed sorted, the drawn 東 standing apart at the right.
    tiles = page.locator(".hand .hand-tile")
    assert tiles.count() == 14
    codes = [tiles.nth(i).get_attribute("data-tile") for i in range(14)]
    assert codes == ["2m", "3m", "4m", "5m", "6m", "7m", "9m", "9m", "3p", "4p", "4s", "5s", "6s", "1z"]
    assert "drawn" in tiles.last.get_attribute("class")
    # Centre: 東風圈, 56 tiles left, dealer streak 連1拉1; seat winds; dealer badge.
    assert page.inner_text(".center-round") == "東風圈"
    assert page.inner_text(".center-wall") == "剩 56 張"
    assert page.inner_text(".center-streak") == "連1拉1"
    assert page.inner_text('.badge[data-seat="0"] .badge-dealer') == "莊"
    assert page.locator(".badge-dealer").count() == 1
    assert page.inner_text('.badge[data-seat="1"] .badge-wind') == "南"
    # Coins, this seat's timer, 聽 and 託管 markers.
    assert page.inner_text('.badge[data-seat="2"] .badge-coins') == "11,020"
    assert page.inner_text('.badge[data-seat="0"] .badge-timer') == "5 秒 ＋20"
    assert page.locator('.badge[data-seat="3"] .badge-ready').count() == 1
    assert page.locator('.badge[data-seat="3"] .badge-auto').count() == 1
    web.shot("turn")


def test_tap_lifts_then_tap_again_discards(web):
    page = _open(web, "turn")
    nine = page.locator('.hand-tile[data-tile="9m"]').first
    nine.click()
    assert web.sent() == []
    assert "lifted" in page.locator('.hand-tile[data-tile="9m"]').first.get_attribute("class")
    web.shot("lifted")
    page.locator('.hand-tile[data-tile="9m"]').first.click()
    assert web.sent() == [{"type": "discard", "tile": "9m"}]
    # The hand locks until the server answers: no double throw.
    page.locator('.hand-tile[data-tile="3p"]').click()
    page.locator('.hand-tile[data-tile="3p"]').click()
    assert web.sent() == [{"type": "discard", "tile": "9m"}]


def test_tapping_another_tile_moves_the_lift(web):
    page = _open(web, "turn")
    page.locator('.hand-tile[data-tile="2m"]').click()
    page.locator('.hand-tile[data-tile="6s"]').click()
    assert web.sent() == []
    assert page.locator(".hand-tile.lifted").get_attribute("data-tile") == "6s"


def _swipe(page, locator, dy):
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + dy / 2, steps=4)
    page.mouse.move(x, y + dy, steps=4)
    page.mouse.up()


def test_swipe_up_discards_at_once(web):
    page = _open(web, "turn")
    _swipe(page, page.locator(".hand-tile.drawn"), -90)
    assert web.sent() == [{"type": "discard", "tile": "1z"}]


def test_a_short_sideways_drag_is_neither_tap_nor_throw(web):
    page = _open(web, "turn")
    tile = page.locator('.hand-tile[data-tile="5m"]')
    box = tile.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 60, box["y"] + 22, steps=3)
    page.mouse.up()
    assert web.sent() == []
    assert page.locator(".hand-tile.lifted").count() == 0


def test_chi_offers_a_choice_of_sequences(web):
    page = _open(web, "claim", "&frozen")
    calls = page.locator(".calls .call")
    assert [calls.nth(i).inner_text() for i in range(calls.count())] == ["吃", "碰", "過"]
    assert page.locator(".countdown .countdown-n").inner_text() == "10"  # frozen clock
    page.click(".call-chi")
    choices = page.locator(".choices .choice")
    # 上家 threw 四萬 onto 二三萬 / 三五萬 / 五六萬: three sequences to pick from.
    assert [choices.nth(i).get_attribute("data-tiles") for i in range(3)] == ["2m3m4m", "3m4m5m", "4m5m6m"]
    assert choices.nth(1).get_attribute("aria-label") == "吃 三萬 四萬 五萬"
    web.shot("chi-choice")
    choices.nth(1).click()
    assert web.sent() == [{"type": "chi", "tile": "4m", "tiles": "35m"}]
    assert page.locator(".calls").count() == 0


def test_pon_and_pass_send_their_legal_entries(web):
    page = _open(web, "claim")
    page.click(".call-pon")
    assert web.sent() == [{"type": "pon", "tile": "4m"}]
    page = _open(web, "claim")
    page.click(".call-pass")
    assert web.sent() == [{"type": "pass"}]


def test_a_refused_action_offers_the_same_choices_again(web):
    page = _open(web, "claim")
    page.click(".call-pon")
    assert page.locator(".calls").count() == 0
    page.evaluate("window.__view.unlock()")
    page.click(".call-pass")
    assert web.sent() == [{"type": "pon", "tile": "4m"}, {"type": "pass"}]


def test_self_draw_is_offered_as_zimo(web):
    page = _open(web, "selfdraw")
    assert page.inner_text(".call-win") == "自摸"
    page.click(".call-win")
    assert web.sent() == [{"type": "win", "tile": "4m"}]


def test_declaring_ready_throws_a_chosen_tile(web):
    page = _open(web, "declare")
    page.click(".call-declare")
    assert page.get_attribute(".call-declare", "aria-pressed") == "true"
    # Only the tiles that leave the hand ready (東, 四筒) may be thrown now.
    blocked = page.locator(".hand-tile.blocked")
    assert blocked.count() == 12
    page.locator('.hand-tile[data-tile="9m"]').first.click()
    page.locator('.hand-tile[data-tile="9m"]').first.click()
    assert web.sent() == []
    page.locator('.hand-tile[data-tile="4p"]').click()
    page.locator('.hand-tile[data-tile="4p"]').click()
    assert web.sent() == [{"type": "declare", "tile": "4p"}]


def test_keyboard_players_discard_with_two_presses(web):
    page = _open(web, "turn")
    page.focus('.hand-tile[data-tile="4s"]')
    page.keyboard.press("Enter")
    assert web.sent() == []
    page.keyboard.press("Enter")
    assert web.sent() == [{"type": "discard", "tile": "4s"}]


def test_a_keyboard_plays_the_hand_with_the_terminal_s_keys(web, fixtures):
    """← → pick a tile (the first ← the drawn one), Enter or Space throws it, as in
    `twmj play` (docs/terminal.md); before, a keyboard player had to Tab through up
    to seventeen tiles."""
    obs = fixtures["states"]["turn"]
    page = _open(web, "turn")
    page.keyboard.press("ArrowLeft")
    lifted = page.locator(".hand-tile.lifted")
    assert lifted.get_attribute("data-tile") == obs["drawn"]
    assert web.sent() == []
    page.keyboard.press("Enter")
    assert web.sent() == [{"type": "discard", "tile": obs["drawn"]}]
    page = _open(web, "turn")
    page.keyboard.press("ArrowRight")               # the leftmost, then the next
    page.keyboard.press("ArrowRight")
    second = page.locator(".hand-tile").nth(1).get_attribute("data-tile")
    assert page.locator(".hand-tile.lifted").get_attribute("data-tile") == second
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")                # round the end to the drawn tile
    assert page.locator(".hand-tile.lifted").get_attribute("data-tile") == obs["drawn"]
    page.keyboard.press(" ")
    assert web.sent() == [{"type": "discard", "tile": obs["drawn"]}]


def test_a_keyboard_calls_with_c_p_k_w_t_x_and_a_digit_picks(web):
    page = _open(web, "claim")
    page.keyboard.press("Control+p")                # the browser's, not a 碰
    page.keyboard.press("k")                        # no 槓 offered: nothing
    assert web.sent() == []
    page.keyboard.press("c")
    assert page.locator(".choices .choice").count() == 3
    page.keyboard.press("2")                        # the second sequence, 三四五萬
    assert web.sent() == [{"type": "chi", "tile": "4m", "tiles": "35m"}]
    page = _open(web, "claim")
    page.keyboard.press("p")
    assert web.sent() == [{"type": "pon", "tile": "4m"}]
    page = _open(web, "claim")
    page.keyboard.press("x")
    assert web.sent() == [{"type": "pass"}]
    page = _open(web, "selfdraw")
    page.keyboard.press("w")
    assert web.sent() == [{"type": "win", "tile": "4m"}]
    page = _open(web, "declare")
    page.keyboard.press("t")                        # 聽: the hand picks the tile
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    assert web.sent() == [{"type": "declare", "tile": "1z"}]


def test_enter_at_the_hand_s_result_is_next_hand(web):
    page = _open(web, "end")
    page.wait_for_selector(".result-wrap .next-hand")
    page.keyboard.press("Enter")
    assert web.sent() == [{"type": "next"}]


def test_keys_do_not_play_under_the_settings_or_at_a_focused_button(web):
    page = _open(web, "claim")
    page.click(".settings-btn")
    page.wait_for_selector(".settings-dialog")
    page.keyboard.press("p")
    assert web.sent() == []
    page.keyboard.press("Escape")
    page.wait_for_selector(".settings-dialog", state="detached")
    # Enter at a focused call is that call's own: 過, not a thrown tile
    page.keyboard.press("ArrowLeft")
    page.focus(".call-pass")
    page.keyboard.press("Enter")
    assert web.sent() == [{"type": "pass"}]


def test_each_call_shows_its_key_where_there_is_a_keyboard(web, player, static_url):
    page = _open(web, "claim")
    badge = """(sel) => getComputedStyle(document.querySelector(sel), '::after').content"""
    assert page.get_attribute(".call-pon", "aria-keyshortcuts") == "P"
    assert page.evaluate(badge, ".call-pon") == '"P"'
    assert page.evaluate(badge, ".call-pass") == '"X"'
    assert page.inner_text(".call-pon") == "碰"              # the label is still the word
    page.keyboard.press("c")
    assert page.evaluate(badge, ".choices .choice:nth-of-type(1)") == '"1"'
    web.shot("keys")
    # a phone has no keyboard to show
    p = player(static_url, "phone")
    phone = p.open("dev/table.html?state=claim&clean")
    assert phone.evaluate(badge, ".call-pon") in ("none", "normal")


def _waits_zh(waits) -> str:
    """The prompt's list of waits, from the library's hint: "二筒(3) 五筒(3)，共 6 張"."""
    listed = " ".join(f"{tile_label('zh', parse_tile(w.tile))}({w.live})" for w in waits)
    return f"{listed}，共 {sum(w.live for w in waits)} 張"


def test_ready_hints_mark_the_discards_and_say_the_waits(web, fixtures):
    """聽牌提示 in the browser, as the terminal has it: the tiles whose discard leaves
    the hand ready carry a gold dot, and a lifted one says what the hand then waits on
    and how many of each are left; the figures are twmahjong.hints' own."""
    obs = fixtures["states"]["turn"]
    hints = discard_hints(obs, allowed=[a["tile"] for a in obs["legal"] if a["type"] == "discard"])
    assert set(hints) == {"1z"}                     # throw 東, wait on 二筒 / 五筒
    page = _open(web, "turn")
    marked = page.locator(".hand-tile.ready-discard")
    assert [marked.nth(i).get_attribute("data-tile") for i in range(marked.count())] == ["1z"]
    assert "打出可聽牌" in marked.first.get_attribute("aria-label")
    assert page.inner_text(".prompt") == "輪到你：打出有金點的牌就聽牌"
    page.keyboard.press("ArrowLeft")                # lift the drawn 東
    assert page.inner_text(".prompt") == f"打出東，聽 {_waits_zh(hints['1z'])}"
    web.shot("ready-hint")
    page.keyboard.press("ArrowLeft")                # another tile: no hint for it
    assert page.inner_text(".prompt") == "輪到你：打出有金點的牌就聽牌"
    # between turns, a ready hand says what it waits on
    after = {**obs, "hand": obs["hand"], "drawn": None, "legal": [],
             "discards": [["1z"], *obs["discards"][1:]]}
    waits = ready_waits(after)
    assert [w.tile for w in waits] == ["2p", "5p"]
    page.evaluate("(o) => window.__view.setObservation(o)", after)
    assert page.inner_text(".prompt") == f"聽 {_waits_zh(waits)}"
    assert page.locator(".hand-tile.ready-discard").count() == 0
    # every copy of both waits seen (thrown by the seat across): ready, and 空聽 in
    # words, each wait greyed; it used to say "二筒(0) 五筒(0)，共 0 張" and no more
    gone = [w.tile for w in waits for _ in range(w.live)]
    dead = {**after, "discards": [after["discards"][0], after["discards"][1],
                                  [*after["discards"][2], *gone], after["discards"][3]]}
    assert [(w.tile, w.live) for w in ready_waits(dead)] == [("2p", 0), ("5p", 0)]
    page.evaluate("(o) => window.__view.setObservation(o)", dead)
    assert page.inner_text(".prompt") == "聽 二筒(0) 五筒(0)，一張都不剩（空聽）"
    assert page.locator(".prompt .hint-wait.dead").count() == 2
    web.shot("ready-hint-dead")


def test_ready_hints_can_be_switched_off_in_the_settings(web):
    page = _open(web, "turn")
    page.click(".settings-btn")
    page.click('[data-set="hints"] input[value="off"]')
    page.keyboard.press("Escape")
    assert page.locator(".hand-tile.ready-discard").count() == 0
    assert page.inner_text(".prompt") == "輪到你：點一下牌拿起，再點一次打出"     # with a mouse
    page = _open(web, "turn")                       # remembered
    assert page.locator(".hand-tile.ready-discard").count() == 0


BUZZ = "navigator.vibrate = (ms) => { (window.__buzz = window.__buzz || []).push(ms); return true; }"
CUE = "document.documentElement.dataset.lastCue ?? null"
SET = "obs => window.__view.setObservation(obs)"


def test_a_move_asked_chimes_and_buzzes_once(web, fixtures):
    """A player who looked away let the countdown run out: nothing said that a move was
    asked. Now a new decision (the turn, a call other than 過) chimes and buzzes."""
    web.context.add_init_script(BUZZ)
    page = web.open("dev/table.html?state=waiting&clean")
    assert page.evaluate(CUE) is None                 # waiting: nothing asked
    claim = fixtures["states"]["claim"]
    page.evaluate(SET, claim)
    assert page.evaluate(CUE) == "chime+buzz"
    assert page.evaluate("window.__buzz") == [35]
    page.evaluate(SET, claim)                         # the same question again: no second cue
    assert page.evaluate("window.__buzz") == [35]
    page.evaluate(SET, {**claim, "legal": [{"type": "pass"}]})     # only 過: asks nothing
    page.evaluate(SET, fixtures["states"]["turn"])    # the turn: a new question
    assert page.evaluate("window.__buzz") == [35, 35]


def test_no_cue_for_a_move_an_auto_switch_makes_or_with_the_sound_off(web, fixtures):
    web.context.add_init_script(BUZZ)
    page = web.open("dev/table.html?state=waiting&clean")
    page.click('.pref-btn[data-pref="autoPass"]')
    page.evaluate(SET, fixtures["states"]["claim"])
    assert web.sent() == [{"type": "pass"}]
    assert page.evaluate(CUE) is None and page.evaluate("window.__buzz ?? null") is None
    web.context.add_init_script("localStorage.setItem('twmj.sound', '0')")
    page = web.open("dev/table.html?state=turn&clean")
    assert page.evaluate(CUE) is None and page.evaluate("window.__buzz ?? null") is None


def test_no_cue_while_the_server_plays_the_seat(web, fixtures):
    """On 託管 the server's bot moves for the seat: the page chimed, buzzed and flagged the
    tab's title at every one of its turns, calling back a player who had stepped away."""
    web.context.add_init_script(BUZZ)
    web.context.add_init_script(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
    page = web.open("dev/table.html?state=waiting&clean")
    base = page.title()
    turn = fixtures["states"]["turn"]
    me = turn["seat"]
    players = [dict(p, auto=s == me) for s, p in enumerate(fixtures["players"])]
    page.evaluate("p => window.__view.setPlayers(p)", players)
    page.evaluate(SET, turn)
    assert page.evaluate(CUE) is None and page.evaluate("window.__buzz ?? null") is None
    assert page.title() == base
    assert page.inner_text(".prompt") == ""          # not "輪到你：點一下牌…": the bot moves
    page.evaluate("p => window.__view.setPlayers(p)", [dict(p, auto=False) for p in players])
    page.evaluate(SET, fixtures["states"]["claim"])   # back in the player's hands: asked
    assert page.evaluate(CUE) == "chime+buzz" and page.title() == f"● 輪到你 — {base}"
    assert page.inner_text(".prompt") != ""
    page.evaluate("p => window.__view.setPlayers(p)", players)   # on 託管 mid-question
    assert page.title() == base


DEAL = {"dealer": 0, "dice": [5, 2, 3], "wall_break": [1], "seat_winds": ["N", "E", "S", "W"],
        "dealer_streak": 0}


def test_the_deal_panel_can_be_turned_off_and_on_again(web, fixtures):
    """The deal's panel stood over the top seats and the river across every hand until
    the player's first discard. It shows once a table now; 不再顯示 turns it off for
    good; 設定 turns it on again (for the next deal)."""
    page = web.open("dev/table.html?state=waiting&clean")
    fresh = dict(fixtures["states"]["waiting"], discards=[[], [], [], []],
                 melds=[[], [], [], []])
    page.evaluate(SET, fresh)
    box = page.locator(".deal-info")
    page.evaluate("d => window.__view.showDeal(d)", DEAL)
    expect(box).to_be_visible()
    page.click(".deal-never")
    expect(box).to_be_hidden()
    assert page.evaluate("localStorage.getItem('twmj.dealInfo')") == "0"
    page.evaluate("d => window.__view.showDeal(d)", DEAL)        # the next hand's deal
    expect(box).to_be_hidden()
    page.click(".settings-btn")
    page.click('[data-set="deal"] input[value="on"]')
    page.click(".settings-close")
    page.evaluate("d => window.__view.showDeal(d)", DEAL)
    expect(box).to_be_visible()
    page.click(".deal-close")                                    # 知道了
    expect(box).to_be_hidden()
    # once a table: the next hands' dice no longer sit over the board
    page.evaluate("d => window.__view.showDeal(d)", DEAL)
    expect(box).to_be_hidden()


def test_the_deal_panel_never_covers_the_board_while_a_move_is_asked(web, fixtures):
    """The dice banner sat over the board's top at the dealer's first turn (a decision).
    It stands aside while any move is asked and comes back when it is answered, until
    the player's own first discard or call."""
    page = web.open("dev/table.html?state=waiting&clean")
    empty = {"discards": [[], [], [], []], "melds": [[], [], [], []]}
    waiting = dict(fixtures["states"]["waiting"], **empty)
    turn = dict(fixtures["states"]["turn"], **empty)
    box = page.locator(".deal-info")
    page.evaluate(SET, turn)                                     # the dealer's first turn
    page.evaluate("d => window.__view.showDeal(d)", DEAL)
    expect(box).to_be_hidden()
    page.evaluate(SET, waiting)                                  # answered: it comes back
    expect(box).to_be_visible()
    page.evaluate(SET, fixtures["states"]["claim"] | empty)      # a move asked: it gives way
    expect(box).to_be_hidden()
    page.evaluate(SET, waiting)
    expect(box).to_be_visible()


def test_a_hidden_tab_s_title_says_a_move_is_asked(web, fixtures):
    web.context.add_init_script(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => !!window.__hidden})")
    page = web.open("dev/table.html?state=waiting&clean")
    base = page.title()
    page.evaluate("window.__hidden = true")
    page.evaluate(SET, fixtures["states"]["turn"])
    assert page.title() == f"● 輪到你 — {base}"
    page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    assert page.title() == base                       # seen: the title is the page's again
    page.evaluate("window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    assert page.title() == f"● 輪到你 — {base}"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")                      # the move is made
    assert web.sent() and page.title() == base


def _overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("state", ["turn", "selfdraw"])
def test_a_long_prompt_wraps_down_not_over_the_badges(player, static_url, state):
    """On a 360x640 phone in English the prompt takes two or three lines; anchored at
    its foot it grew upward over the bottom seats' badges (their coins unreadable).
    It now grows downward, above the calls."""
    p = player(static_url, "phone-small", "en")
    page = p.open(f"dev/table.html?state={state}&clean&frozen")
    page.keyboard.press("ArrowLeft")                # a lifted ready discard: its waits
    prompt = page.locator(".prompt").bounding_box()
    assert prompt["height"] > 30                    # it does wrap here
    for i in range(page.locator(".badge").count()):
        assert not _overlap(prompt, page.locator(".badge").nth(i).bounding_box()), i
    for el in page.locator(".actions-wrap .call").all():
        assert not _overlap(prompt, el.bounding_box())
    p.shot("long-prompt")


def test_auto_pass_never_passes_a_win(web, fixtures):
    page = web.open("dev/table.html?state=waiting&clean")
    page.click('.pref-btn[data-pref="autoPass"]')
    assert page.get_attribute('.pref-btn[data-pref="autoPass"]', "aria-pressed") == "true"
    claim = fixtures["states"]["claim"]
    page.evaluate("obs => window.__view.setObservation(obs)", claim)
    assert web.sent() == [{"type": "pass"}]
    with_win = dict(claim, legal=[{"type": "win", "tile": "4m"}, {"type": "pass"}])
    page.evaluate("obs => window.__view.setObservation(obs)", with_win)
    assert web.sent() == [{"type": "pass"}]
    assert page.locator(".call-win").inner_text() == "胡"


def test_auto_win_takes_the_win(web, fixtures):
    page = web.open("dev/table.html?state=waiting&clean")
    page.click('.pref-btn[data-pref="autoWin"]')
    page.evaluate("obs => window.__view.setObservation(obs)", fixtures["states"]["selfdraw"])
    assert web.sent() == [{"type": "win", "tile": "4m"}]


def test_discards_and_calls_are_announced_in_a_live_region(web, fixtures):
    page = web.open("dev/table.html?state=waiting&clean")
    live = page.locator(".live")
    assert live.get_attribute("aria-live") == "polite"
    obs = fixtures["states"]["waiting"]
    nxt = dict(obs, discards=[obs["discards"][0], obs["discards"][1] + ["7s"], obs["discards"][2], obs["discards"][3]],
               last_discard={"seat": 1, "tile": "7s"})
    page.evaluate("obs => window.__view.setObservation(obs)", nxt)
    assert live.inner_text() == "小華 打出 七條"
    melds = [m[:] for m in nxt["melds"]]
    melds[2] = [{"type": "pon", "tiles": "777s", "from": 1}]
    page.evaluate("obs => window.__view.setObservation(obs)", dict(nxt, melds=melds))
    assert live.inner_text() == "bot:穩健 碰"
    assert page.inner_text(".call-flash") == "碰"


def test_end_of_hand_shows_every_pattern_and_who_pays(web, fixtures):
    page = _open(web, "end")
    rows = page.locator(".patterns tr.pattern")
    got = [(rows.nth(i).get_attribute("data-pattern"), rows.nth(i).locator("td").inner_text())
           for i in range(rows.count())]
    assert got == [("dealer", "1 台"), ("dealer_streak", "2 台"), ("concealed", "1 台"),
                   ("dragon_pung", "1 台"), ("seat_flower", "1 台")]
    assert page.inner_text(".total-tai") == "6 台"
    # The winning hand is drawn set by set, every hand is revealed.
    assert page.locator(".split .set").count() == 6
    assert page.locator(".all-hands .hand-row").count() == 4
    assert page.locator('.hand-row[data-seat="2"] .tile').count() == 16
    assert page.inner_text(".transfer") .replace("\n", " ").split() == ["小美", "付", "你", "220"]
    assert page.inner_text('.score-table tr[data-seat="3"] .net') == "-220"
    # which number is which: this hand's, then the running total
    head = page.locator(".score-table thead th")
    assert [head.nth(i).inner_text() for i in range(head.count())] == ["", "本局", "累計"]
    web.shot("result")
    page.click(".next-hand")
    assert web.sent() == [{"type": "next"}]


def test_english_speaks_to_the_player_as_you(web, fixtures):
    """English conjugates for the player, as the terminal does: "You pay 小美", "小美 pays
    you", "dealt in by you", "You discard 7 Bamboo", "Your discards" — not "You pays",
    "pays You", "You discards", "You's discards"."""
    page = _open(web, "end", "&lang=en")
    assert page.inner_text(".transfer").split() == ["小美", "pays", "you", "220"]
    result = fixtures["result"]
    win = dict(result["wins"][0], seat=3, **{"from": 0})
    mine = dict(result, winners=[3], payer=0, net=[-220, 0, 0, 220], wins=[win],
                transfers=[[0, 3, 220]])
    page.evaluate("r => window.__view.showResult(r, {})", mine)
    assert page.inner_text(".win-how") == "dealt in by you"
    assert page.inner_text(".transfer").split() == ["You", "pay", "小美", "220"]

    page = _open(web, "waiting", "&lang=en")
    obs = fixtures["states"]["waiting"]
    me = obs["seat"]
    assert page.get_attribute(f'.river[data-seat="{me}"]', "aria-label") == "Your discards"
    rivers = [d + ["7s"] if s == me else d for s, d in enumerate(obs["discards"])]
    page.evaluate("obs => window.__view.setObservation(obs)",
                  dict(obs, discards=rivers, last_discard={"seat": me, "tile": "7s"}))
    assert page.inner_text(".live") == "You discard 7 Bamboo"


def test_language_switch_changes_every_string_and_persists(web):
    page = _open(web, "claim")
    page.click(".lang-btn")
    assert page.inner_text(".table-title") == "Taiwanese Mahjong"
    assert page.inner_text(".call-chi") == "Chi"
    assert page.inner_text(".call-pass") == "Pass"
    assert page.inner_text(".center-round") == "E round"
    assert page.locator(".hand-tile").first.get_attribute("aria-label") == "2 Characters"
    # Nothing Chinese is left in the interface text (names, tile art and the
    # button leading back to 中文 aside).
    assert page.inner_text(".lang-btn") == "中文"
    for sel in (".table-title", ".table-top .pref-btn", ".prompt", ".actions-wrap", ".toggles", ".center"):
        assert not CJK.search(page.inner_text(sel)), sel
    web.shot("english")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.inner_text(".call-chi") == "Chi"
    page.click(".lang-btn")
    assert page.inner_text(".call-chi") == "吃"


def test_phone_layout_fits_and_keeps_tiles_tappable(phone):
    page = _open(phone, "claim")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    board = page.locator(".board").bounding_box()
    assert board["width"] <= 390 and board["x"] >= 0
    # Big enough to hit with a thumb: hand tiles at least 36 px wide at 390 px.
    assert page.locator(".hand-tile").first.bounding_box()["width"] >= 36
    phone.shot("claim")
    page.click(".call-chi")
    phone.shot("chi-choice")
    page.locator(".choices .choice").first.click()
    assert phone.sent() == [{"type": "chi", "tile": "4m", "tiles": "23m"}]


def test_phone_swipe_and_result(phone):
    page = _open(phone, "turn")
    phone.shot("turn")
    _swipe(page, page.locator('.hand-tile[data-tile="3p"]'), -80)
    assert phone.sent() == [{"type": "discard", "tile": "3p"}]
    page = _open(phone, "end")
    assert page.locator(".patterns tr.pattern").count() == 5
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    phone.shot("result")


@pytest.mark.parametrize(
    "voices, hokkien, expected",
    [
        ([{"lang": "en-US", "name": "A"}, {"lang": "zh-TW", "name": "B"}, {"lang": "nan-TW", "name": "C"}], True, "C"),
        ([{"lang": "en-US", "name": "A"}, {"lang": "zh-TW", "name": "B"}, {"lang": "nan-TW", "name": "C"}], False, "B"),
        ([{"lang": "zh-CN", "name": "D"}, {"lang": "zh_TW", "name": "E"}], True, "E"),
        ([{"lang": "en-US", "name": "A"}], True, None),
    ],
)
def test_calls_use_a_taiwanese_voice_or_stay_silent(web, voices, hokkien, expected):
    page = web.open("dev/tiles.html")
    got = evaluate_async(
        page,
        """async ([voices, hokkien]) => {
            const m = await import('/js/speech.js');
            const v = m.chooseVoice(voices, {hokkien});
            return v ? v.name : null;
        }""",
        [voices, hokkien],
    )
    assert got == expected
    # Speaking where the browser has no voice at all is silent, not an error.
    assert evaluate_async(page, "async () => (await import('/js/speech.js')).speakCall('pon')") is False


def test_a_backlog_of_updates_is_drawn_once_and_every_discard_still_told(web):
    """A live table can send updates faster than a slow phone draws a whole table (and
    a loaded test machine's Chromium is such a phone): drawn one by one, the page fell
    ever further behind the game, and the last hand's result came a minute late. Thirty
    discards arriving back to back are drawn once, as the last of them stands; each of
    them is still announced."""
    page = web.open("dev/table.html?state=waiting&clean&pace")
    got = evaluate_async(page, """async () => {
        const view = window.__view, wrap = document.querySelector('.board-wrap');
        const base = window.__fixtures.states.waiting;
        const heard = [];
        new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => heard.push(n.textContent))))
            .observe(document.querySelector('.live'), { childList: true, subtree: true });
        let draws = 0;
        const seen = new MutationObserver((ms) => { draws += ms.length; });
        seen.observe(wrap, { childList: true });
        const tiles = ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', '1p'];
        let discards = base.discards.map((r) => [...r]);
        for (let i = 0; i < 30; i++) {
            const seat = 1 + (i % 3);
            discards = discards.map((r, s) => s === seat ? [...r, tiles[i % 10]] : r);
            view.setObservation({ ...base, discards, last_discard: { seat, tile: tiles[i % 10] } });
        }
        await new Promise((r) => setTimeout(r, 400));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        seen.disconnect();
        const rivers = [0, 1, 2, 3].map((s) =>
            document.querySelector(`.river[data-seat="${s}"]`).children.length);
        return { draws, rivers, want: discards.map((r) => r.length), heard: heard.length };
    }""")
    assert got["draws"] <= 3, got              # was 30: one whole table per update
    assert got["rivers"] == got["want"], got   # what is drawn is the last update
    assert got["heard"] >= 30, got             # every discard announced (ann.discard)

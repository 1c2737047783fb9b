"""The screen used well, at a served table mid-hand: a phone upright (390×844, touch), a
phone sideways (844×390, touch) and a laptop (1366×768). The rivers get the room and
read upright, no band of felt is left empty between the board and the hand, the top
bar is whole, a lifted tile keeps off the row above, a desktop board takes the width,
and 大 (設定 → 牌的大小) enlarges the river tiles as well as the hand.

The thresholds are the commercial Taiwanese mahjong apps' look (明星3缺1, 金好玩, 麻將
神來也, and the like, on the same screens):
- a river tile on a phone is about a third of a hand tile's height and readable at arm's
  length: ≥ 24 px wide (the apps' discards are 24-30 px on a 390-844 px phone, held
  either way); the old board drew 18 px upright and 14.5 px sideways, the side rivers'
  faces turned 90° and the one across upside down. On a laptop the apps' discards are
  32-40 px: ≥ 32 px.
- every river tile reads upright (its face turned 0°), as the apps draw the others'
  discards facing the player;
- the apps leave no felt without a use between the table and the hand: the largest
  empty band there is under 8 % of the screen's height (the old phone layout left
  about a quarter);
- on a laptop the table fills the window: the board is at least 65 % of its width (the
  old one was a 636 px square, 47 %);
- 大 is a visible step: the river tiles at least 4 % wider than at 中.
Every wait is for something on screen (hang guards only, never a time budget).
"""

from __future__ import annotations

import pytest

from .conftest import EVENT_WAIT_MS, game_server, pass_claim

RIVER_MIN = {"phone": 24.0, "landscape": 24.0, "desktop": 32.0}
BAND_MAX = 0.08            # of the screen's height
DESKTOP_SHARE = 0.65       # of the screen's width
LARGE_STEP = 1.04          # 大's river tiles against 中's

MOMENT = """() => document.querySelector('.calls .call, .hand.my-turn .hand-tile:not(.blocked)')
    || [...document.querySelectorAll('.result-panel')].some((e) => e.checkVisibility())"""

# Each river tile: its width, whether it lies inside its river's zone, and the turn of
# its face on screen (the sum of the rotations of it and every box it stands in).
RIVERS = """() => {
  const turn = (el) => {
    let a = 0;
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const t = getComputedStyle(e).transform;
      if (t && t !== 'none') { const m = new DOMMatrix(t); a += Math.atan2(m.b, m.a) * 180 / Math.PI; }
    }
    return ((Math.round(a) % 360) + 360) % 360;
  };
  return [...document.querySelectorAll('.river')].map((r) => {
    const z = r.getBoundingClientRect();
    return [...r.querySelectorAll('.tile > svg')].map((s) => {
      const b = s.getBoundingClientRect();
      return { seat: r.dataset.seat, w: b.width, turn: turn(s),
               inside: b.left >= z.left - 1 && b.right <= z.right + 1 && b.top >= z.top - 1
                       && b.bottom <= z.bottom + 1 };
    });
  }).flat();
}"""

# The largest stretch of the screen's height between the board's foot and the hand's
# top that nothing visible covers (the prompt's words, a call, a tile, the coach's
# panel where it stands between them).
EMPTY_BAND = """() => {
  const board = document.querySelector('.board').getBoundingClientRect();
  const tiles = [...document.querySelectorAll('.hand .hand-tile:not(.lifted)')].map((e) => e.getBoundingClientRect());
  const top = Math.min(...tiles.map((b) => b.top));
  const cover = [];
  for (const e of document.querySelectorAll('.prompt, .actions-wrap .call, .actions-wrap .countdown, .toggles .chip-btn, .coach-wrap .coach')) {
    if (!e.checkVisibility() || !e.textContent.trim() && !e.matches('.countdown')) continue;
    const b = e.getBoundingClientRect();
    if (b.height > 0) cover.push([b.top, b.bottom]);
  }
  cover.sort((p, q) => p[0] - q[0]);
  let y = board.bottom, band = 0;
  for (const [a, b] of cover) {
    if (b <= y) continue;
    if (a >= top) break;
    band = Math.max(band, a - y);
    y = Math.max(y, b);
  }
  return Math.max(band, top - y);
}"""


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    # the player's clock is long: the table waits at the player's turn while it is measured
    with game_server(tmp_path_factory.mktemp("server"), bot_delay=0.02, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=600.0, turn_bank=20.0) as url:
        yield url


def _to_mid_hand(page, discards: int = 6):
    """Play (the drawn tile thrown, every claim passed) until the player's own river
    holds ``discards`` tiles, and stop at the player's turn."""
    while True:
        page.wait_for_function(MOMENT, timeout=EVENT_WAIT_MS)
        if page.locator(".result-panel").is_visible():       # a hand ended early: the next
            page.click(".next-hand")
            page.wait_for_selector(".result-wrap", state="hidden")
            continue
        if page.locator(".calls .call-pass").count():
            pass_claim(page)
            continue
        if page.locator(".river.pos-self .tile").count() >= discards:
            return
        tile = page.locator(".hand.my-turn .hand-tile:not(.blocked)").last
        tile.click()
        tile.click()
        page.wait_for_function("() => !document.querySelector('.hand-tile.thrown')",
                               timeout=EVENT_WAIT_MS)


def _measure(page, size: str, p, step: str) -> float:
    view = page.viewport_size
    rivers = page.evaluate(RIVERS)
    p.shot(step)
    assert len({r["seat"] for r in rivers}) == 4, "a river is empty"
    for r in rivers:
        assert r["turn"] == 0, f"seat {r['seat']}'s river tile is turned {r['turn']}°"
        assert r["inside"], f"seat {r['seat']}'s river spills out of its zone"
    width = min(r["w"] for r in rivers)
    assert width >= RIVER_MIN[size], (step, width)
    band = page.evaluate(EMPTY_BAND)
    assert band <= BAND_MAX * view["height"], f"{step}: {band:.0f} px of empty felt"
    # the top bar whole: nothing cut to 「休閒 · 小 ⋯」, no tool off the screen
    for sel in (".table-top", ".table-head", ".table-info", ".table-title"):
        clipped = page.eval_on_selector(sel, "e => e.scrollWidth > e.clientWidth + 0.5")
        assert not clipped, f"{step}: {sel} is cut"
    for b in page.locator(".table-tools .chip-btn:visible").all():
        box = b.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 0.5
    assert page.evaluate("document.scrollingElement.scrollWidth") <= view["width"]
    # a lifted tile keeps off the row above it (two rows on a phone upright) and in view
    lifted = page.locator(".hand-tile.lifted").bounding_box()
    assert lifted["y"] >= 0 and lifted["y"] + lifted["height"] <= view["height"] + 0.5
    rest = [t.bounding_box() for t in page.locator(".hand .hand-tile:not(.lifted)").all()]
    row = page.locator(".hand-tile.lifted").evaluate("e => e.offsetTop")
    above = [b for b, top in zip(rest, page.locator(".hand .hand-tile:not(.lifted)").evaluate_all(
        "els => els.map((e) => e.offsetTop)"), strict=True) if top < row - 1]
    if above:
        foot = max(b["y"] + b["height"] for b in above)
        assert lifted["y"] >= foot - 0.5, f"{step}: the lifted tile covers the row above"
    if size == "desktop":
        share = page.locator(".board").bounding_box()["width"] / view["width"]
        assert share >= DESKTOP_SHARE, f"the board is {share:.0%} of the width"
    return width


@pytest.mark.parametrize("size,lang", [("phone", "zh-TW"), ("landscape", "zh-TW"), ("desktop", "en")])
def test_the_table_uses_the_screen_and_large_tiles_reach_the_rivers(player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = p.page
    # the table's own layout: the coach's panel, where a player keeps it on, takes a
    # row of its own between board and hand (its own tests: tests/web/test_coach.py)
    p.context.add_init_script("localStorage.setItem('twmj.coach', 'off')")
    page.goto(server_url + "/")
    page.wait_for_selector("body[data-ready] .guest-btn")
    page.click(".guest-btn")
    page.wait_for_selector(".account-coins")
    page.select_option("#opt-rounds", "4")
    page.click(".bots-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    _to_mid_hand(page)
    # lift a tile of the hand's second half (the lower row on a phone upright)
    page.locator(".hand.my-turn .hand-tile").nth(12).click()
    page.wait_for_selector(".hand-tile.lifted")
    medium = _measure(page, size, p, "mid-hand")
    # 設定 → 牌的大小 → 大
    page.click(".settings-btn")
    page.locator('input[name="set-tiles"][value="l"]').check()
    page.click(".settings-close")
    page.wait_for_selector("body.tiles-l")
    if not page.locator(".hand-tile.lifted").count():
        page.locator(".hand.my-turn .hand-tile").nth(12).click()
    large = _measure(page, size, p, "mid-hand-large")
    assert large >= LARGE_STEP * medium, f"大 river tiles {large:.1f} px, 中 {medium:.1f} px"

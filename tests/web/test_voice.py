"""Voice at the table (開黑) in Chromium with its fake microphone: two people at a
private room turn voice on (one by the setting, one by the control at the table)
and each page receives the other's sound (RTCPeerConnection ``inbound-rtp`` bytes
grow); a mute stops that seat's sound (the bytes stop growing) and unmuting brings
it back; a friend watching the table receives no signalling until it listens (the
host let watchers listen), and then receives the table's sound; and at a quick-match
table a stranger who left voice off receives no offer at all, though the other
player there turned voice on for such tables.

Every wait is for a condition (the stats are read again until they say so); the
screenshots of the voice controls go to the shot dir (phone zh-TW, desktop English).
"""

from __future__ import annotations

import json
import secrets
import time

import httpx
import pytest

from .conftest import EVENT_WAIT_MS, SIZES, WAIT_MS, game_server

# every RTCPeerConnection the page makes is kept, to read its stats
TRACK_PCS = """
window.__pcs = [];
const Native = window.RTCPeerConnection;
window.RTCPeerConnection = function (...args) {
  const pc = new Native(...args);
  window.__pcs.push(pc);
  return pc;
};
window.RTCPeerConnection.prototype = Native.prototype;
"""

INBOUND = """async () => {
  let bytes = 0;
  for (const pc of window.__pcs) {
    if (pc.connectionState === "closed") continue;
    (await pc.getStats()).forEach((r) => {
      if (r.type === "inbound-rtp" && r.kind === "audio") bytes += r.bytesReceived;
    });
  }
  return bytes;
}"""


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    with game_server(tmp_path_factory.mktemp("server"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, turn_base=600.0, turn_bank=60.0,
                     bot_fill_wait=0.5, bot_talk=0.0) as url:
        yield url


class Person:
    """A registered account in its own browser context, its socket's frames noted."""

    def __init__(self, browser, url, size, lang, name=None, prefs=None):
        # a guest when no name is given (no password to hash: quicker)
        r = (httpx.post(f"{url}/api/v1/accounts", json={"name": name, "password": "secret-pw"})
             if name else httpx.post(f"{url}/api/v1/guests"))
        assert r.status_code == 201, r.text
        self.name = name or r.json()["account"]["name"]
        self.token = r.json()["token"]
        touch = not size.startswith("desktop")
        self.context = browser.new_context(viewport=SIZES[size], locale="zh-TW",
                                           has_touch=touch, is_mobile=touch)
        self.context.set_default_timeout(WAIT_MS)
        store = {"twmj.lang": lang, "twmj.token": self.token, **(prefs or {})}
        self.context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(store)})) localStorage.setItem(k, v);"
            + TRACK_PCS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.frames: list[dict] = []
        self.page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda f: self.frames.append(json.loads(f)) if isinstance(f, str)
            else None))
        self.page.goto(url + "/")
        self.page.wait_for_selector("body[data-ready] .quick-btn")

    def seat(self) -> int:
        return self.page.evaluate(
            "() => Number(document.querySelector('.badge.pos-self').dataset.seat)")

    def inbound(self) -> int:
        return self.page.evaluate(INBOUND)

    def voice_frames(self) -> list[dict]:
        return [f for f in self.frames if f.get("type", "").startswith("voice")]


def until(fn, what: str, every: float = 0.25):
    """``fn()`` again until it is truthy; a hang guard of WAIT_MS, not a budget."""
    end = time.monotonic() + WAIT_MS / 1000
    while not (got := fn()):
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(every)
    return got


def growing(person: Person, what: str) -> None:
    """The page's inbound audio bytes grow (read again until they have, twice)."""
    seen = [person.inbound()]

    def grew():
        seen.append(person.inbound())
        return len(seen) > 2 and seen[-1] > seen[-2] > seen[-3] > 0
    until(grew, what)


def stopped(person: Person, what: str) -> int:
    """The page's inbound audio bytes stopped: the same over four readings in a row."""
    seen = [person.inbound()]

    def still():
        seen.append(person.inbound())
        return len(seen) > 4 and len(set(seen[-4:])) == 1
    until(still, what, every=0.4)
    return seen[-1]


def shot(person: Person, shot_dir, name: str) -> None:
    """A screenshot, which must read as words (no "null" where a value was missing)."""
    person.page.screenshot(path=str(shot_dir / f"voice-{name}.png"))
    stray = person.page.evaluate("document.body.innerText.match(/null|undefined|NaN/g) || []")
    assert stray == [], f"{name}: the page shows {stray}"


def test_voice_between_two_pages_mute_watchers_and_strangers(media_browser, server_url,
                                                             shot_dir):
    tag = secrets.token_hex(2)
    # A: phone, zh-TW, voice on in 設定 beforehand; B (a guest): desktop, English, voice off
    a = Person(media_browser, server_url, "phone", "zh-TW", f"語甲{tag}", {"twmj.voiceChat": "1"})
    b = Person(media_browser, server_url, "desktop", "en")
    people = [a, b]
    try:
        # -- a private room: A opens it (watchers may listen), B joins by its code ----------
        a.page.check("#room-voice-watchers")
        a.page.click(".create-room-btn")
        code = a.page.locator(".room-code").get_attribute("data-code")
        b.page.fill("#room-code", code)
        b.page.click(".join-form button[type=submit]")
        a.page.wait_for_selector(f'.room-players li:has-text("{b.name}")', timeout=EVENT_WAIT_MS)
        a.page.click(".start-btn")
        for p in people:
            p.page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
        seat_a, seat_b = a.seat(), b.seat()
        # A joined by the setting; B sees the control and A in voice, and joins by it
        a.page.wait_for_selector(".voice-btn.live")
        b.page.wait_for_selector(f'.badge.voice-in[data-seat="{seat_a}"]')
        b.page.click(".voice-btn")
        b.page.click(".voice-panel .voice-join")
        b.page.wait_for_selector(".voice-btn.live")
        # each page receives the other's sound
        growing(a, "A receives B's sound")
        growing(b, "B receives A's sound")
        b.page.wait_for_selector(f'.voice-seat.in[data-seat="{seat_a}"] >> text=in voice')
        a.page.wait_for_selector(f'.badge.voice-in[data-seat="{seat_b}"]')
        # who is speaking: the fake microphone's beeps light A's badge on B's screen
        b.page.wait_for_selector(f'.badge.voice-speaking[data-seat="{seat_a}"]')
        shot(b, shot_dir, "desktop-en-panel")
        a.page.click(".voice-btn")
        a.page.wait_for_selector(f'.voice-panel .voice-seat.in[data-seat="{seat_b}"]')
        shot(a, shot_dir, "phone-zh-panel")

        # -- B mutes A: B stops receiving A's sound; A still hears B -----------------------
        b.page.click(f'.voice-panel .voice-mute[data-seat="{seat_a}"]')
        assert b.page.locator(f'.voice-mute[data-seat="{seat_a}"]').get_attribute(
            "aria-pressed") == "true"
        stopped(b, "B stops receiving A once A is muted")
        growing(a, "A still receives B")
        b.page.click(f'.voice-panel .voice-mute[data-seat="{seat_a}"]')     # and back
        growing(b, "B receives A again once unmuted")

        # -- push to talk at A (the phone): the button is there while in voice -----------
        a.page.click('.voice-panel .voice-mode [data-mode="ptt"]')
        a.page.wait_for_selector(".voice-ptt:not([hidden])")
        a.page.click(".voice-panel .talk-close")
        shot(a, shot_dir, "phone-zh-ptt")

        # -- a friend watches A's table: no signalling reaches the watcher -----------------
        c = Person(media_browser, server_url, "desktop", "zh-TW", f"語丙{tag}",
                   {"twmj.voiceChat": "1", "twmj.voiceQuick": "1"})
        people.append(c)
        h = {"Authorization": f"Bearer {a.token}"}
        assert httpx.post(f"{server_url}/api/v1/friends", headers=h,
                          json={"name": c.name}).status_code == 200
        assert httpx.post(f"{server_url}/api/v1/friends/{a.name}/accept",
                          headers={"Authorization": f"Bearer {c.token}"}).status_code == 200
        c.page.reload()
        c.page.wait_for_selector(".friends-list .watch-btn", timeout=EVENT_WAIT_MS)
        c.page.click(".friends-list .watch-btn")
        c.page.wait_for_selector(".watch-view")
        # A leaves voice and joins again: new offers go between A and B while C watches
        a.page.click(".voice-btn")
        a.page.click(".voice-panel .voice-join")       # leave
        b.page.wait_for_selector(f'.badge.voice-in[data-seat="{seat_a}"]', state="detached")
        a.page.click(".voice-panel .voice-join")       # join again
        growing(b, "B receives A after A joined again")
        offers = [f for f in b.voice_frames() if f["type"] == "voice_signal"]
        assert len(offers) >= 2
        assert c.voice_frames() == [], "the watcher received voice messages"
        assert c.page.evaluate("window.__pcs.length") == 0
        # C listens (the host allows it): C receives the table's sound; A sees one listening
        c.page.click(".watch-view .voice-btn")
        c.page.click(".voice-panel .voice-join")
        growing(c, "the watcher, listening, receives the table's sound")
        a.page.wait_for_selector(".voice-panel .voice-listeners")      # A's panel is open
        a.page.click(".voice-panel .talk-close")
        c.page.click(".voice-panel .voice-join")       # C stops listening
        b.page.wait_for_selector(".voice-btn.live")

        # -- a quick-match table: D allowed voice with strangers, E did not ----------------
        d = Person(media_browser, server_url, "phone", "en", None,
                   {"twmj.voiceChat": "1", "twmj.voiceQuick": "1"})
        e = Person(media_browser, server_url, "phone", "zh-TW")
        people += [d, e]
        for p in (d, e):
            p.page.click(".quick-btn")
        for p in (d, e):
            p.page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
        d.page.wait_for_selector(".voice-btn.live")            # D is in the table's voice
        seat_d = d.seat()
        e.page.wait_for_selector(f'.badge.voice-in[data-seat="{seat_d}"]')   # E sees it
        assert e.page.locator(".voice-btn").is_hidden()       # and has no voice here
        assert {f["type"] for f in e.voice_frames()} == {"voice"}    # never an offer
        assert e.page.evaluate("window.__pcs.length") == 0
        joined = [f for f in d.frames if f["type"] == "voice_joined"]
        assert joined and joined[-1]["peers"] == []
    finally:
        for p in people:
            p.context.close()
    for p in people:
        assert not p.errors, f"script errors in {p.name}'s page: {p.errors}"

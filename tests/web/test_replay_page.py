"""The replay viewer steps through a stored hand, forward and back."""

from __future__ import annotations

import json


def _serve(page, fixtures):
    states = fixtures["states"]
    frames = [
        {"observation": {k: v for k, v in states["waiting"].items()}, "events": []},
        {"observation": states["turn"], "events": []},
        {"observation": states["claim"], "events": []},
        {"observation": states["end"], "events": [],
         "result": {"type": "win", "winners": [0], "payer": 3, "net": [220, 0, 0, -220], "fee": 0,
                    "wins": [{"type": "win", "seat": 0, "from": 3, "tile": "4m", "self_drawn": False,
                              "score": fixtures["result"]["wins"][0]["score"]}]}},
    ]
    bodies = {
        "/api/v1/profiles": {"profiles": ["standard"], "default": "standard", "stakes": {"low": 1}, "modes": []},
        "/api/v1/leaderboard": {"players": []},
        "/api/v1/games/g_1": {"game_id": "g_1", "players": ["阿明", "bot:a", "小華", "bot:b"],
                              "hands": [{"hand_no": 1}, {"hand_no": 2}], "result": None},
        "/api/v1/games/g_1/replay": {"hand_no": 1, "frames": frames},
    }

    def handle(route):
        path = "/" + route.request.url.split("/", 3)[3].split("?")[0]
        body = bodies.get(path)
        route.fulfill(status=200 if body else 404, content_type="application/json",
                      body=json.dumps(body or {"error": {"code": "not_found", "message": "no"}}))

    page.route("**/api/v1/**", handle)


def test_replay_steps_forward_and_back(web, fixtures):
    _serve(web.page, fixtures)
    page = web.open("index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    assert page.inner_text(".replay-step") == "第 1 / 4 步"
    assert page.locator(".hand .hand-tile").count() == 13
    page.click(".replay-next")
    assert page.inner_text(".replay-step") == "第 2 / 4 步"
    # The drawn 東 of the second step stands apart; nothing can be thrown in a replay.
    assert page.locator(".hand-tile.drawn").get_attribute("data-tile") == "1z"
    assert page.locator(".hand.my-turn").count() == 0
    page.click(".replay-next")
    assert page.locator(".calls").count() == 0
    page.click(".replay-prev")
    assert page.inner_text(".replay-step") == "第 2 / 4 步"
    page.click(".replay-last")
    assert page.inner_text(".replay-step") == "第 4 / 4 步"
    assert page.inner_text(".total-tai") == "6 台"
    web.shot("replay-end")
    page.click(".replay-first")
    assert page.inner_text(".replay-step") == "第 1 / 4 步"
    assert page.locator(".result-wrap").is_hidden()


def test_a_missing_replay_says_so(web, fixtures):
    _serve(web.page, fixtures)
    page = web.open("index.html#/replay/g_unknown")
    page.wait_for_selector(".replay-missing")
    assert page.inner_text(".replay-missing p") == "這局的重播暫時無法取得"

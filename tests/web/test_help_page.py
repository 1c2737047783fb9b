"""The rules and 台 help page lists every pattern of the profile, drawn with tiles."""

from __future__ import annotations

import json

import pytest

from twmahjong.profiles import load_profile, profile_names
from twmahjong.web.help import help_data


def _serve_api(page, name):
    """Answer the app's API calls as the server does (help data from twmahjong.web.help)."""
    bodies = {
        "/api/v1/profiles": {"profiles": profile_names(), "default": "standard",
                             "stakes": {"low": 1, "mid": 5, "high": 20}, "modes": ["casual", "ranked", "challenge"]},
        "/api/v1/leaderboard": {"players": []},
        f"/api/v1/profiles/{name}/patterns": help_data(load_profile(name)),
    }

    def handle(route):
        path = "/" + route.request.url.split("/", 3)[3].split("?")[0]
        if path in bodies:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(bodies[path]))
        else:
            route.fulfill(status=404, content_type="application/json",
                          body=json.dumps({"error": {"code": "not_found", "message": "no"}}))

    page.route("**/api/v1/**", handle)


@pytest.mark.parametrize("name", ["standard", "casual"])
def test_help_lists_every_pattern_with_tai_and_tiles(web, name):
    _serve_api(web.page, name)
    page = web.open(f"index.html#/help/{name}")
    profile = load_profile(name)
    # the list may be drawn again as the page settles: read it whole, in one go, until
    # it is every pattern of the profile in order (fails if it never is)
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('.help-pattern')]"
        ".map(e => e.dataset.pattern).join(',') === want", arg=",".join(profile.patterns))
    # 清一色 carries the profile's own value (12 standard, 8 casual) and a drawn hand.
    ff = page.locator('.help-pattern[data-pattern="full_flush"]')
    assert ff.locator(".help-tai").inner_text() == f"{profile.patterns['full_flush'].tai} 台"
    assert ff.locator(".help-name").inner_text() == "清一色"
    assert ff.locator(".example .tile").count() == 17
    # Patterns counted per occurrence say so: 箭字刻 each.
    assert page.locator('.help-pattern[data-pattern="dragon_pung"] .help-tai').inner_text() == "每組 1 台"
    web.shot(f"help-{name}")


def test_help_says_when_an_optional_pattern_is_off(web):
    _serve_api(web.page, "standard")
    page = web.open("index.html#/help/standard")
    page.wait_for_selector(".help-pattern")
    assert page.locator('.help-pattern[data-pattern="lilgu"] .help-note').count() == 1
    assert page.locator('.help-pattern[data-pattern="dealer"] .help-note').count() == 0


def test_help_in_english_uses_the_profiles_english_names(phone):
    _serve_api(phone.page, "standard")
    page = phone.open("index.html#/help/standard")
    page.wait_for_selector(".help-pattern")
    page.click(".app-lang")
    page.wait_for_selector('.help-pattern[data-pattern="full_flush"] .help-name:text("Full flush")')
    assert page.inner_text('.help-pattern[data-pattern="full_flush"] .help-tai') == "12 tai"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    phone.shot("help-en")

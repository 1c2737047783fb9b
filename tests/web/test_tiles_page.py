"""The tile art: 42 faces drawn by the project, each distinct, named for players."""

from __future__ import annotations

import hashlib

# formats.md: the notation and the faces it names.
EXPECTED_NAMES = {
    "1m": "一萬", "9m": "九萬", "5p": "五筒", "1s": "一條", "9s": "九條",
    "1z": "東", "2z": "南", "3z": "西", "4z": "北",
    "1f": "春", "2f": "夏", "3f": "秋", "4f": "冬", "5f": "梅", "6f": "蘭", "7f": "菊", "8f": "竹",
}
ALL = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)] + [
    f"{r}f" for r in range(1, 9)
]


def test_gallery_draws_42_distinct_faces(web):
    page = web.open("dev/tiles.html")
    tiles = page.locator("#gallery .tile[data-tile]")
    assert tiles.count() == 42
    assert [tiles.nth(i).get_attribute("data-tile") for i in range(42)] == ALL
    # Distinct drawings, not just distinct labels: every face's pixels differ.
    digests = {hashlib.sha256(tiles.nth(i).screenshot()).hexdigest() for i in range(42)}
    assert len(digests) == 42
    # Every face is an SVG with real drawing in it, and a back exists too.
    assert page.locator("#gallery .tile[data-tile] svg").count() == 42
    assert page.locator("#gallery .tile.back svg").count() == 1
    web.shot("gallery")


def test_faces_are_named_for_players_and_honours_keep_their_colours(web):
    page = web.open("dev/tiles.html")
    for code, name in EXPECTED_NAMES.items():
        assert page.get_attribute(f'#gallery .tile[data-tile="{code}"]', "aria-label") == name
    # 白 is a blue frame (no glyph), 發 green, 中 red: the dragons as every set prints them.
    assert page.locator('#gallery [data-tile="5z"] svg text').count() == 0
    assert page.locator('#gallery [data-tile="5z"] svg rect[stroke="#1f4f9c"]').count() == 2
    assert page.get_attribute('#gallery [data-tile="6z"] svg text', "fill") == "#17703d"
    assert page.get_attribute('#gallery [data-tile="7z"] svg text', "fill") == "#c0281d"
    assert page.inner_html('#gallery [data-tile="7z"] svg text') == "中"
    # 萬 is red under its numeral; a flower carries its group number 1-4.
    assert page.locator('#gallery [data-tile="3m"] svg text').nth(1).inner_html() == "萬"
    assert page.get_attribute('#gallery [data-tile="3m"] svg text >> nth=1', "fill") == "#c0281d"
    assert page.locator('#gallery [data-tile="7f"] svg text').nth(0).inner_html() == "3"
    # 九筒 has nine coins, 八條 eight sticks.
    assert page.locator('#gallery [data-tile="9p"] svg circle[r="7"]').count() == 9
    assert page.locator('#gallery [data-tile="8s"] svg g').count() == 8


def test_tiles_stay_crisp_when_scaled(web):
    page = web.open("dev/tiles.html")
    big = page.locator("#big .tile").first
    box = big.bounding_box()
    assert box["width"] == 120 and abs(box["height"] - 160) < 1
    # Vector art: the SVG scales with its box instead of being a bitmap.
    assert page.locator("#big .tile svg").first.get_attribute("viewBox") == "0 0 60 80"
    web.shot("large")

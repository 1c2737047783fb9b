"""Installable: a web app manifest with icons, and a service
worker that keeps a copy of the client and, with no connection, opens a page that
says the game needs its server — at both sizes, in both languages."""

from __future__ import annotations

import pytest

from .conftest import evaluate_async, game_server
from .test_player_table import COMBOS, _no_horizontal_scroll


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    with game_server(tmp_path_factory.mktemp("server"), pause_after=3600) as url:
        yield url


@pytest.mark.parametrize("size,lang", COMBOS)
def test_the_app_installs_and_says_offline_that_it_needs_the_server(player, server_url, size,
                                                                    lang):
    p = player(server_url, size, lang)
    page = p.page
    page.goto(server_url + "/")
    page.wait_for_selector("body[data-ready] .guest-btn")
    manifest = evaluate_async(
        page, "async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()")
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["short_name"] == "台灣麻將"
    pngs = {i["sizes"]: i["src"] for i in manifest["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= set(pngs)
    for sizes, src in pngs.items():
        # the PNG's own header says its size (IHDR width and height)
        w, h = evaluate_async(page, """async (src) => {
            const b = new DataView(await (await fetch(src)).arrayBuffer());
            return [b.getUint32(16), b.getUint32(20)];
        }""", src)
        assert f"{w}x{h}" == sizes
    # the worker takes the page, then the connection goes: the app says it needs the server
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    p.context.set_offline(True)
    page.reload()
    page.wait_for_selector(".offline h1")
    assert page.inner_text(".offline h1") == "需要連線到伺服器"
    assert "needs its game server" in page.inner_text(".offline")
    p.shot("offline")
    _no_horizontal_scroll(page)
    p.context.set_offline(False)
    page.click(".offline button")
    page.wait_for_selector("body[data-ready] .guest-btn")

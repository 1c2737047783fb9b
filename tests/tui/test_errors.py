"""The server's refusals in the terminal's language (strings.error_text).

The server's own text is English; a player who chose zh read "wrong name or password"
and "cannot reach http://…: [Errno 111] Connection refused" in a zh screen. The web
client tells a refusal by its reason, else its code (i18n.js ``errorText``); the
terminal now does the same, with the same words.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from twmahjong.client import Api, ApiError, LinkError
from twmahjong.client.http import NETWORK_REASONS
from twmahjong.tui.strings import STRINGS, error_text, server_error_text, tr
from twmahjong.web import STATIC_DIR


def _web_errors() -> dict[str, tuple[str, str]]:
    """The web client's err.* and field.* strings, by the terminal's key names."""
    src = (STATIC_DIR / "js" / "i18n.js").read_text(encoding="utf-8")
    rows = re.findall(r'^  "((?:err|field)\.[\w.]+)": (\[.*\]),$', src, re.M)
    return {key.replace(".", "_"): tuple(json.loads(pair)) for key, pair in rows}


def test_the_terminal_says_every_refusal_the_web_client_says_in_the_same_words():
    web = _web_errors()
    assert len(web) >= 45 and "err_reason_wrong_password" in web and "err_unknown" in web
    missing = sorted(k for k in web if k not in STRINGS)
    assert missing == []
    differ = sorted(k for k, pair in web.items() if STRINGS[k] != pair)
    assert differ == []


@pytest.mark.parametrize("lang,text", [("zh", "名稱或密碼錯誤"), ("en", "Wrong name or password")])
def test_a_refusal_is_told_by_its_reason(lang, text):
    e = ApiError("auth", "wrong name or password", 401, reason="wrong_password")
    assert error_text(lang, e) == text


def test_a_reason_s_details_are_filled_and_a_missing_one_left_empty():
    e = ApiError("not_found", "no room with code 'QQQQQQ'", 404, reason="room_not_found")
    assert error_text("zh", e, code="QQQQQQ") == "找不到房號 QQQQQQ 的房間"
    assert error_text("en", e, code="QQQQQQ") == "No room with code QQQQQQ"
    assert error_text("zh", e) == "找不到房號  的房間"            # never a KeyError
    bad = ApiError("bad_request", "password: Field required", 422, reason="invalid_field",
                   field="password")
    assert error_text("zh", bad) == "「密碼」的內容不符合要求"
    assert error_text("en", bad) == "The password field is not valid"


def test_without_a_known_reason_the_code_tells_it_and_else_the_message():
    assert server_error_text("zh", "too_many_tables", "no_such_reason") == \
        STRINGS["err_code_too_many_tables"][0]
    assert server_error_text("en", "rate_limited") == "Too many attempts; wait a moment"
    # a code this client does not know (a newer server): English says the server's words,
    # zh says that something failed, with its code (and a status number): one language
    # a line, never the server's English words after Chinese
    assert server_error_text("en", "brand_new", message="the moon is full") == "the moon is full"
    assert server_error_text("zh", "brand_new", message="the moon is full") == "發生錯誤（brand_new）"
    assert server_error_text("zh", "http", message="the server answered 404") == "發生錯誤（http 404）"
    assert server_error_text("zh", "") == "發生錯誤（?）"


@pytest.mark.parametrize("reason", NETWORK_REASONS)
def test_every_network_failure_has_its_words_in_both_languages(reason):
    e = ApiError("network", "cannot reach http://h:1: it broke", reason=reason)
    for lang in ("zh", "en"):
        text = error_text(lang, e, server="http://h:1")
        assert "http://h:1" in text and "{" not in text
    assert "cannot reach" not in error_text("zh", e, server="http://h:1")


def test_a_stopped_server_is_said_in_zh():
    with pytest.raises(ApiError) as e:
        asyncio.run(Api("http://127.0.0.1:9", timeout=2).health())
    assert error_text("zh", e.value, server="http://127.0.0.1:9") == \
        "連不上伺服器 http://127.0.0.1:9：對方拒絕連線（伺服器沒有開？）"


def test_a_link_s_end_and_a_refused_hello_are_told_too():
    lost = LinkError("lost the link to the server and could not get it back (x)", "lost")
    assert error_text("zh", lost) == tr("zh", "err_code_lost")
    hello = LinkError("auth: session expired", "auth", "session_expired")
    assert error_text("zh", hello) == "登入已過期，請重新登入"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_table_s_refusal_is_the_notice_in_the_player_s_language(lang):
    """A WebSocket ``error`` (the table cap, a move the table refused) became the
    notice as the server's English message."""
    from twmahjong.tui.online import OnlineSession
    session = OnlineSession("http://127.0.0.1:9", None, ("quick", None, "low"))
    session.lang = lang
    session.on_message({"type": "error", "code": "too_many_tables",
                        "message": "you are seated at 3 tables already"})
    assert session.notice == STRINGS["err_code_too_many_tables"][0 if lang == "zh" else 1]
    session.on_message({"type": "error", "code": "stale", "message": "an old move"})
    assert session.notice == STRINGS["err_code_too_many_tables"][0 if lang == "zh" else 1]

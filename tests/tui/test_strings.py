"""strings.py: every word the terminal shows exists in zh-TW and English alike."""

from __future__ import annotations

from string import Formatter

from twmahjong.tui.strings import STRINGS


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def test_every_string_has_both_languages_with_the_same_blanks():
    for key, pair in STRINGS.items():
        assert isinstance(pair, tuple) and len(pair) == 2, key
        zh, en = pair
        assert zh, key                                 # English may leave a key out ("k_discard")
        assert fields(zh) == fields(en), key


def test_table_talk_strings_are_complete_in_both_languages():
    talk = [k for k in STRINGS if k.startswith(("talk_", "plain_say", "plain_mute", "plain_help_talk"))]
    assert len(talk) > 15 and "k_talk" in STRINGS
    for key in [*talk, "k_talk"]:
        zh, en = STRINGS[key]
        assert zh.strip() and en.strip(), key



def test_every_lobby_question_fits_an_80_column_terminal():
    """The online lobby asks its questions with ``typer.prompt``, which adds ' [1]: '. A line
    wider than the terminal wraps mid-menu, so each question, filled with its widest values
    (the 回到牌桌 choice shown, a six-letter room code), must fit 80 cells in both languages.
    """
    from rich.cells import cell_len

    from twmahjong.tui.strings import tr

    widest = {"back": None, "code": "WWWWWW", "games": None}
    for lang in ("zh", "en"):
        widest["back"] = tr(lang, "lobby_back")
        widest["games"] = tr(lang, "lobby_games")
        for key in [k for k in STRINGS if k.startswith("lobby_")
                    and k not in ("lobby_back", "lobby_games", "lobby_hello")]:
            line = tr(lang, key, **widest) + " [1]: "
            assert cell_len(line) <= 80, (lang, key, cell_len(line), line)


def test_an_engine_refusal_is_said_in_the_player_s_language():
    """The engine explains a refused move in English (a key that raced the table); a zh
    screen printed it as is, half in each language. zh says it in its own words; the
    client's own refusals, written in zh already, and English screens are unchanged."""
    from twmahjong.engine.actions import IllegalAction
    from twmahjong.tui.strings import refusal_text, tr
    engine = IllegalAction("discard 2m: it is not your turn. You may: pass.")
    assert refusal_text("zh", engine) == tr("zh", "refused_now") and refusal_text("zh", engine).strip()
    assert not refusal_text("zh", engine).isascii()
    assert refusal_text("en", engine) == str(engine)
    own = IllegalAction(tr("zh", "online_offline_key"))
    assert refusal_text("zh", own) == str(own)

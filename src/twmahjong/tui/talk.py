"""Table talk at the terminal (快捷語, 表情): the catalogue, its lines, and the picker.

The server's catalogue (``GET /api/v1/talk``, docs/social.md) is the only thing a
line may carry, so the terminal reads it once per table into a ``TalkBook`` and
shows every ``talk`` message in the player's language: zh-TW (the 台語/普通話
lines are what a voice speaks, and the terminal has no voice) or English. An
emote is a short text face, never an image or an emoji that some terminals draw
one column too narrow.

    >>> book = TalkBook({"phrases": [{"id": "hurry", "kind": "teasing", "zh": "快一點啦",
    ...                               "en": "Hurry up"}],
    ...                  "emotes": [{"id": "thumbs", "glyph": "👍", "zh": "讚", "en": "Nice"}]})
    >>> book.text("en", phrase="hurry"), book.text("zh", emote="thumbs")
    ('Hurry up', 'd(^_^)b 讚')

``TalkPicker`` (key ``e`` at a server table) lists the phrases by kind (禮貌,
調侃, 慶祝), the emotes, and the seats to mute (靜音), one tab each.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from .dialogs import BodyModal, modal_css
from .strings import tr

__all__ = ["EMOTE_FACES", "KINDS", "TalkBook", "TalkPicker", "fit_line", "parse_say", "talk_text"]

KINDS = ("polite", "teasing", "celebratory")      # the picker's phrase tabs, in this order

# an emote's face in a terminal: ASCII, one cell a character everywhere
EMOTE_FACES = {"thumbs": "d(^_^)b", "laugh": "XD", "cry": "T_T", "angry": ">:(",
               "shock": "O_O", "cool": "B-)", "tea": "c[_]", "fire": "~*~"}


class TalkBook:
    """The catalogue as the server sent it (``Api.talk()``); empty when it could not
    be read — incoming lines then show their ids, and nothing can be picked."""

    def __init__(self, catalogue: dict | None = None):
        catalogue = catalogue or {}
        self.phrases: dict[str, dict] = {p["id"]: p for p in catalogue.get("phrases") or []}
        self.emotes: dict[str, dict] = {e["id"]: e for e in catalogue.get("emotes") or []}

    def kind(self, kind: str) -> list[dict]:
        return [p for p in self.phrases.values() if p.get("kind") == kind]

    def numbered(self) -> list[tuple[str, str]]:
        """Everything one may say, in picker order: ``("phrase"|"emote", id)``; ``say 3``
        in plain mode is the third."""
        out = [("phrase", p["id"]) for k in KINDS for p in self.kind(k)]
        out += [("phrase", p["id"]) for p in self.phrases.values() if p.get("kind") not in KINDS]
        return out + [("emote", e) for e in self.emotes]

    def text(self, lang: str, *, phrase: str | None = None, emote: str | None = None) -> str:
        """What a phrase or emote reads as: the zh-TW or English text, an emote's face."""
        key = "en" if lang == "en" else "zh"
        if phrase is not None:
            return str(self.phrases.get(phrase, {}).get(key) or phrase)
        e = self.emotes.get(emote or "", {})
        face = EMOTE_FACES.get(emote or "", "*")
        return f"{face} {e.get(key) or emote}"


def parse_say(book: TalkBook, word: str) -> tuple[str, str] | None:
    """``say 3`` or ``say hurry`` → ``("phrase", "hurry")``; an emote by its number or id
    (a phrase wins a shared id: ``tea``). None when it names nothing."""
    w = word.strip().lower()
    items = book.numbered()
    if w.isdigit():
        n = int(w)
        return items[n - 1] if 1 <= n <= len(items) else None
    if w in book.phrases:
        return "phrase", w
    if w in book.emotes:
        return "emote", w
    return None


def fit_line(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells with an ellipsis (CJK counts two)."""
    if cell_len(text) <= width:
        return text
    while text and cell_len(text) > width - 1:
        text = text[:-1]
    return text + "…"


def talk_text(session, lang: str, rows: int, width: int) -> Text:
    """The table's talk pane: the latest ``rows`` lines heard (a muted seat's hidden),
    each on one row of ``width`` cells, the speaker's name in colour."""
    out = Text()
    voice = getattr(session, "voice", None)
    if voice:                            # 開黑: who talks by voice (the browser's), on top
        out.append(fit_line(session.voice_line(lang), width), style="#7ee2a1")
        rows -= 1
    heard = [m for m in session.talk if m.get("seat") not in session.muted][-rows:] \
        if rows > 0 else []
    for i, m in enumerate(heard):
        line = fit_line(session.talk_line(lang, m), width)
        who = session.seat_name(lang, m["seat"])
        if i or voice:
            out.append("\n")
        out.append(line[:len(who)] if line.startswith(who) else "", style="bold #ffd54f")
        out.append(line[len(who):] if line.startswith(who) else line)
    return out


class TalkPicker(BodyModal):
    """快捷語: ←→ (Tab) change tab, ↑↓ move, a digit or Enter says it (or, on the 靜音
    tab, mutes/unmutes that seat), Esc or e closes. Says through ``session.say``."""

    DEFAULT_CSS = modal_css("TalkPicker")

    def __init__(self, session, lang: str):
        super().__init__()
        self.session = session
        self.lang = lang
        self.tab = 0
        self.row = 0

    def tabs(self) -> list[str]:
        return [*KINDS, "emotes", "mute"]

    def items(self) -> list[tuple[str, str | int, str]]:
        """The current tab's rows: (what, id or seat, label)."""
        s, lang, name = self.session, self.lang, self.tabs()[self.tab]
        book = s.book
        if name == "emotes":
            return [("emote", e, book.text(lang, emote=e)) for e in book.emotes]
        if name == "mute":
            rows: list[tuple[str, str | int, str]] = []
            others = [(s.seat + rel) % 4 for rel in (1, 2, 3)]
            for seat in others:
                mark = tr(lang, "talk_muted" if seat in s.muted else "talk_heard")
                rows.append(("mute", seat, f"{s.seat_name(lang, seat)}  {mark}"))
            every = tr(lang, "talk_muted" if set(others) <= s.muted else "talk_heard")
            return [*rows, ("mute", -1, f"{tr(lang, 'talk_everyone')}  {every}")]
        return [("phrase", p["id"], book.text(lang, phrase=p["id"])) for p in book.kind(name)]

    def show(self) -> None:
        lang = self.lang
        out = Text(tr(lang, "talk_title") + "\n", style="bold")
        for i, name in enumerate(self.tabs()):
            label = tr(lang, f"talk_tab_{name}")
            out.append(f" {label} ", style="bold #0f3d2e on #ffd54f" if i == self.tab else "#bcd9c8")
        out.append("\n\n")
        items = self.items()
        self.row = min(self.row, max(0, len(items) - 1))
        width = max(20, min(70, (self.size.width or 80) - 10))      # inside the 76-wide box
        for i, (_, _, label) in enumerate(items):
            style = "reverse" if i == self.row else ""
            out.append(fit_line(f"{'▶' if i == self.row else ' '}{i + 1} {label}", width) + "\n",
                       style=style)
        if not items:
            out.append(tr(lang, "talk_none") + "\n")
        out.append("\n" + tr(lang, "talk_keys"), style="#9fc8b2")
        self.query_one("#body", Static).update(out)

    def choose(self, i: int) -> None:
        items = self.items()
        if not 0 <= i < len(items):
            return
        what, key, _ = items[i]
        if what == "mute":
            self.session.toggle_mute(int(key))
            self.row = i
            self.show()
            return
        self.close(self.session.say(**{what: str(key)}))

    def on_key(self, event) -> None:
        event.stop()
        k, n = event.key, len(self.tabs())
        if k in ("escape", "e", "q"):
            self.close(None)
            return
        if k in ("right", "l", "tab"):
            self.tab, self.row = (self.tab + 1) % n, 0
        elif k in ("left", "h", "shift+tab"):
            self.tab, self.row = (self.tab - 1) % n, 0
        elif k in ("down", "j"):
            self.row = (self.row + 1) % max(1, len(self.items()))
        elif k in ("up", "k"):
            self.row = (self.row - 1) % max(1, len(self.items()))
        elif k in ("enter", "space"):
            self.choose(self.row)
            return
        elif k.isdigit() and k != "0":
            self.choose(int(k) - 1)
            return
        self.show()

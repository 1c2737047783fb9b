"""教練 in the terminal: the coach's advice at the person's own decision.

The advice is the coach's hint (``twmahjong.coach``, its JSON in docs/protocol.md):
offline, against local bots, the table asks the library directly; online it sends
``hint`` and the server answers (or refuses: ``hints_off``, ``no_decision``,
``stale``, ``rate_limited``), and only where the snapshot's ``table.hints`` allows
it. ``TableCoach`` keeps the answer for the open decision and turns it into what
the screen and the plain lines show: the coach line, the marks under the hand's
tiles (★ the AI's tile, ○ 安全 △ 小心 ✕ 危險) and one line per thing for a
screen reader.

The person's setting (``Prefs.coach``): ``off``, ``ask`` (press o) or ``always``
(asked at every decision).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .glyphs import kinds
from .strings import tile_label, tr

__all__ = ["COACH_ERRORS", "MODES", "PICK", "SIGN", "TableCoach", "local_hint"]

MODES = ("off", "ask", "always")
COACH_ERRORS = ("hints_off", "no_decision", "stale", "rate_limited", "hint_failed")
RISKS = ("safe", "careful", "danger")
SIGN = {"safe": "○", "careful": "△", "danger": "✕"}
STYLE = {"safe": "bold #6fdc8c", "careful": "bold #ffc94d", "danger": "bold #ff6b5b"}
PICK = "★"


def local_hint(obs: dict, legal: list[dict]) -> dict | None:
    """The library's hint for an offline decision (None: nothing to decide)."""
    from ..coach import NoDecision, coach
    try:
        return coach({**obs, "legal": legal}).to_json()
    except NoDecision:
        return None


def _said(lang: str, say: dict | None) -> str:
    if not say:
        return ""
    return (say.get("en") if lang == "en" else say.get("zh")) or say.get("en") or say.get("zh") or ""


class TableCoach:
    """The coach at one seat: asks once per decision and keeps the answer.

    ``session`` is a ``PlaySession`` (offline: ``source`` computes the hint, the
    library by default) or an ``OnlineSession`` (it sends ``hint`` and keeps the
    server's answer in ``session.coach_answer``)."""

    def __init__(self, session, prefs, source: Callable[[dict, list[dict]], dict | None] | None = None):
        self.session = session
        self.prefs = prefs
        self.source = source or local_hint
        self.key: Any = None
        self.hint: dict | None = None
        self.note = ""
        self.asked = False

    # -- the decision -----------------------------------------------------------------------
    @property
    def mode(self) -> str:
        mode = getattr(self.prefs, "coach", "ask")
        return mode if mode in MODES else "ask"

    def allowed(self) -> bool:
        """Offline always (local bots); online as the server's snapshot says."""
        s = self.session
        if not getattr(s, "online", False):
            return True
        return bool(s.link.state.table.get("hints"))

    def _legal(self) -> list[dict]:
        return [a.to_json() for a in self.session.legal()]

    def open(self) -> bool:
        """A decision the coach answers: something other than a lone 過 is asked."""
        return self.allowed() and self.mode != "off" and any(a["type"] != "pass" for a in self._legal())

    def _decision_key(self):
        s = self.session
        if getattr(s, "online", False):
            return ("turn", s.link.state.turn)
        obs = s.observation() if s.hand is not None else None
        return (s.hand_no, len(s.hand_events()), str(self._legal()), obs and obs.get("drawn"))

    def sync(self) -> None:
        """Every redraw: a new decision forgets the last answer; 'always' asks at once;
        an online answer (or refusal) for this decision is taken in."""
        key = self._decision_key()
        if key != self.key:
            self.key, self.hint, self.note, self.asked = key, None, "", False
        s = self.session
        if getattr(s, "online", False) and self.asked and self.hint is None and not self.note:
            got = getattr(s, "coach_answer", None)
            if got is not None and got.get("turn") == s.link.state.turn:
                if got["type"] == "hint":
                    self.hint = got["hint"]
                else:
                    self.note = tr(s.lang, f"coach_err_{got['code']}")
        if self.mode == "always" and self.open() and not self.asked:
            self.ask()

    def ask(self, lang: str | None = None) -> str:
        """Ask for this decision's hint; a note when there is nothing to ask ('' if asked)."""
        lang = lang or getattr(self.session, "lang", "zh")
        if not self.allowed():
            return tr(lang, "coach_err_hints_off")
        if self.mode == "off":
            return tr(lang, "coach_off")
        if not self.open():
            return tr(lang, "coach_err_no_decision")
        if self.asked:
            return ""
        self.asked = True
        s = self.session
        if getattr(s, "online", False):
            s.ask_hint()
            return ""
        obs = s.observation()
        self.hint = self.source(obs, self._legal())
        if self.hint is None:
            self.note = tr(lang, "coach_err_no_decision")
        return ""

    # -- what it shows ---------------------------------------------------------------------
    def shows(self) -> bool:
        return self.hint is not None and self.mode != "off" and self.allowed()

    def tile(self, kind: int) -> dict | None:
        if not self.shows():
            return None
        code = _code(kind)
        return next((t for t in self.hint.get("tiles") or [] if t.get("tile") == code), None)

    def risks(self) -> dict[int, str]:
        """Each hand kind's risk class, for the marks under the tiles."""
        if not self.shows():
            return {}
        out = {}
        for t in self.hint.get("tiles") or []:
            ks = kinds(t.get("tile") or "")
            if ks and t.get("risk") in RISKS:
                out[ks[0]] = t["risk"]
        return out

    def pick(self) -> int | None:
        """The kind the AI would throw (a discard or a 聽 with a discard), else None."""
        if not self.shows():
            return None
        c = self.hint.get("choice") or {}
        if c.get("type") in ("discard", "declare") and c.get("tile"):
            ks = kinds(c["tile"])
            return ks[0] if ks else None
        return None

    def choice_text(self, lang: str) -> str:
        c = (self.hint or {}).get("choice") or {}
        if c.get("type") == "discard":
            return tr(lang, "coach_do_discard", tile=tile_label(lang, kinds(c["tile"])[0]))
        if c.get("type") == "pass":
            return tr(lang, "coach_do_pass")
        return tr(lang, "coach_do_call", call=tr(lang, {"chi": "act_chi", "pon": "act_pon", "win": "act_win",
                                                         "declare": "act_declare"}.get(c.get("type", ""), "act_kong")))

    def say(self, lang: str) -> str:
        return _said(lang, (self.hint or {}).get("say")) or self.choice_text(lang)

    def claim_line(self, lang: str) -> str:
        claim = (self.hint or {}).get("claim")
        if not claim:
            return ""
        line = _said(lang, claim.get("say")) or tr(lang, "coach_claim_call" if claim.get("call") else "coach_claim_pass")
        return "" if line == self.say(lang) else line          # said once when the choice says it

    def outlook_line(self, lang: str) -> str:
        o = (self.hint or {}).get("outlook")
        if not o:
            return ""
        return _said(lang, o.get("say")) or tr(lang, "coach_outlook_fold" if o.get("fold") else "coach_outlook",
                                               tai=f"{float(o.get('tai') or 0):.1f}")

    def why_text(self, lang: str, info: dict, name: Callable[[int], str]) -> str:
        parts = []
        for w in info.get("why") or []:
            who = name(w["seat"]) if w.get("seat") is not None else ""
            parts.append(tr(lang, f"coach_why_{w.get('code')}", who=who))
        return tr(lang, "coach_sep").join(parts)

    def tile_line(self, lang: str, info: dict, name: Callable[[int], str]) -> str:
        """三萬：打後一向聽，進張 12 張（…）；危險（筋）"""
        n = info.get("shanten")
        shanten = (tr(lang, "coach_shanten_win") if n is not None and n < 0 else
                   tr(lang, "coach_shanten_ready") if n == 0 else tr(lang, "coach_shanten", n="零一二三四五六七八九"[min(n, 9)] if lang == "zh" else n))
        acc = [tr(lang, "coach_accept_one", tile=tile_label(lang, kinds(a["tile"])[0]), n=a["live"])
               for a in (info.get("accept") or [])[:6]]
        if len(info.get("accept") or []) > 6:
            acc.append("…")
        why = self.why_text(lang, info, name)
        risk = tr(lang, f"coach_risk_{info.get('risk')}") + (tr(lang, "coach_why", why=why) if why else "")
        return tr(lang, "coach_tile", tile=tile_label(lang, kinds(info["tile"])[0]), shanten=shanten,
                  total=info.get("accept_total", 0),
                  accept=tr(lang, "coach_accept_list", list=tr(lang, "coach_sep").join(acc)) if acc else "",
                  risk=risk)

    def risk_summary(self, lang: str) -> str:
        """危險：四萬 七萬；小心：三萬；其餘安全 — the hand's risks in one line."""
        groups: dict[str, list[str]] = {r: [] for r in RISKS}
        for k, r in sorted(self.risks().items()):
            groups[r].append(tile_label(lang, k))
        parts = [tr(lang, f"coach_risk_{r}") + tr(lang, "coach_colon") + " ".join(groups[r])
                 for r in ("danger", "careful") if groups[r]]
        if groups["safe"]:
            parts.append(tr(lang, "coach_rest_safe") if parts else tr(lang, "coach_all_safe"))
        return tr(lang, "coach_sep2").join(parts)

    def status(self, lang: str) -> str:
        """The line when no answer is shown: thinking, a refusal, or nothing."""
        if self.note:
            return self.note
        if self.asked and self.hint is None:
            return tr(lang, "coach_thinking")
        return ""

    def plain_lines(self, lang: str, name: Callable[[int], str]) -> list[str]:
        """What a screen reader reads, in order: the choice, the claim, the outlook, the risks."""
        if not self.shows():
            st = self.status(lang)
            return [tr(lang, "coach_label") + st] if st else []
        lines = [tr(lang, "coach_label") + self.say(lang)]
        for extra in (self.claim_line(lang), self.outlook_line(lang), self.risk_summary(lang)):
            if extra:
                lines.append(tr(lang, "coach_label") + extra)
        return lines


def _code(kind: int) -> str:
    from ..tiles import tile_str
    return tile_str(kind)

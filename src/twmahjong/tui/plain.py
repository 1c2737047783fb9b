"""``twmj play --plain``: the whole game as plain lines, for a screen reader or a pipe.

Every change of the table is one line of text on its own (``上家 打 九萬``), in the
order it happened, with no colour, no box drawing and no cursor movement; when the
person must decide, one line says what they may do and the program reads one line
back. Commands are the table's keys as words: a tile (``5m``, ``5萬``, ``五萬``)
or Enter (the drawn tile) discards; ``c p k w t d x`` claim, declare or pass; a
digit picks from a numbered list; ``look`` reads the table, ``help`` the commands,
``o`` asks the 教練 (its lines follow the decision's line: the choice, the claim,
the outlook, the hand's risks), ``o 5m`` reads one tile's advice, ``q`` leaves (the
match is saved, as on the screen).

    run_plain(session, "en", io.StringIO("x\\n"), out)
"""

from __future__ import annotations

import io
import sys

from rich.console import Console

from ..engine.actions import Action, IllegalAction
from ..hints import discard_hints, ready_waits
from .coach import TableCoach
from .glyphs import kinds
from .render import event_line, passed_win_text, waits_text
from .session import relative
from .strings import refusal_text, tile_label, tr, wind_label
from .table import KEY_TYPES, _KEY_LABEL

__all__ = ["parse_tile_word", "run_plain"]


def parse_tile_word(word: str) -> int | None:
    """A tile as a person types it, in either language, any case: 5m, 5萬, 五萬, We,
    West, 西, 西風, 4z, Rd, 中 (None when it is not one). A single letter is never a
    tile: w is 胡 (win), as on the table's keys.

        >>> [parse_tile_word(w) for w in ("west", "We", "西風", "5m", "五萬", "w")]
        [29, 29, 29, 4, 4, None]
    """
    from ..tiles import NotationError, en_name, parse_tiles
    w = " ".join(word.split()).lower()
    if not w or (len(w) == 1 and w.isascii()):
        return None
    for k in range(34):
        names = {tile_label(lang, k, compact) for lang in ("zh", "en") for compact in (False, True)}
        names.add(en_name(k))
        if w in {n.lower() for n in names}:
            return k
    try:
        ks = parse_tiles(w)
    except (NotationError, ValueError):
        return None
    return ks[0] if len(ks) == 1 and ks[0] < 34 else None


class _Plain:
    def __init__(self, session, lang: str, inp, out, prefs, save_path):
        self.s, self.lang, self.inp, self.out = session, lang, inp, out
        self.prefs = prefs
        self.save_path = save_path
        self.coach = TableCoach(session, prefs)
        self.coach_said: tuple = ()          # the decision and the coach lines already said

    # -- output ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        for line in str(text).splitlines() or [""]:
            self.out.write(line.rstrip() + "\n")
        self.out.flush()

    def name(self, seat: int) -> str:
        return tr(self.lang, ("you", "right", "across", "left")[relative(seat, self.s.seat)])

    def ask(self) -> str | None:
        self.out.write("> ")
        self.out.flush()
        line = self.inp.readline()
        return None if line == "" else line.strip()

    def tiles(self, text) -> str:
        return " ".join(tile_label(self.lang, k) for k in kinds(text if isinstance(text, str)
                                                                  else "".join(text)))

    def render(self, renderable) -> str:
        buf = io.StringIO()
        Console(file=buf, width=100, color_system=None, no_color=True).print(renderable)
        return buf.getvalue()

    # -- what the table looks like ---------------------------------------------------------
    def look(self) -> None:
        obs, lang = self.s.observation(), self.lang
        for rel in (0, 1, 2, 3):
            seat = (self.s.seat + rel) % 4
            bits = [f"{self.name(seat)} {wind_label(lang, obs['seat_winds'][seat])}"]
            if seat == obs["dealer"]:
                bits.append(tr(lang, "dealer_mark"))
            if obs["declared"][seat]:
                bits.append(tr(lang, "declared_mark"))
            bits.append(f"{self.s.scores[seat]:+d}")
            melds = [tr(lang, "hidden_kong") + (" " + self.tiles(m["tiles"][:2]) if m["tiles"] else "")
                     if m["type"] == "concealed_kong" else self.tiles(m["tiles"])
                     for m in obs["melds"][seat]]
            if melds:
                bits.append(tr(lang, "melds") + " " + " | ".join(melds))
            if obs["flowers"][seat]:
                bits.append(tr(lang, "flowers") + " " + self.tiles(obs["flowers"][seat]))
            bits.append(tr(lang, "river") + " " + (self.tiles(obs["discards"][seat]) or "-"))
            self.say("; ".join(bits))
        self.say(tr(lang, "tiles_left", n=obs["wall_remaining"]))

    def prompt_line(self) -> str:
        s, lang = self.s, self.lang
        obs, legal = s.observation(), s.legal()
        parts = []
        hand = self.tiles(obs["hand"])
        if obs.get("drawn"):
            hand += " + " + self.tiles(obs["drawn"])
        parts.append(f"{tr(lang, 'concealed_n', n=len(kinds(obs['hand'])))}: {hand}")
        if any(a.type == "discard" for a in legal):
            parts.append(tr(lang, "your_turn_declared" if obs["declared"][s.seat] else
                            "plain_turn" if obs.get("drawn") else "plain_turn_claimed"))
            if self.prefs.hints and not obs["declared"][s.seat]:
                allowed = [a.to_json()["tile"] for a in legal if a.type == "discard"]
                hints = discard_hints(obs, s.hand_events(), allowed=allowed,
                                      lilgu=s.profile.scoring.lilgu)
                for t, ws in hints.items():
                    parts.append(tr(lang, "hint_after", tile=tile_label(lang, kinds(t)[0]),
                                    waits=waits_text(lang, ws)))
            bad = {k for k in kinds(obs["hand"]) + kinds(obs.get("drawn"))} - {
                a.tile for a in legal if a.type == "discard"}
            if bad and not obs["declared"][s.seat]:
                parts.append(tr(lang, "not_legal") + ": " + " ".join(tile_label(lang, k) for k in sorted(bad)))
        elif obs.get("last_discard"):
            ld = obs["last_discard"]
            parts.append(tr(lang, "claim_on", who=self.name(ld["seat"]),
                            tile=tile_label(lang, kinds(ld["tile"])[0])).strip().rstrip(":："))
        ws = ready_waits({**obs, "drawn": None}, s.hand_events()) if self.prefs.hints else []
        if ws:
            parts.append(tr(lang, "waits_now", waits=waits_text(lang, ws)))
        keys = []
        for k, types in KEY_TYPES.items():
            acts = [a for a in legal if a.type in types]
            if acts:                              # a claim names its tile: p pung Wh
                named = k in "cpkw" and obs["phase"] in ("claim", "rob_kong") and acts[0].tile is not None
                keys.append(f"{k} {tr(lang, _KEY_LABEL[k])}" +
                            (f" {tile_label(lang, acts[0].tile)}" if named else ""))
        if keys:
            parts.append(" / ".join(keys))
        return ". ".join(parts)

    # -- 教練 ---------------------------------------------------------------------------------
    def coach_say(self) -> None:
        """The coach's lines for the open decision, each once, after the decision's line
        (asked at once when the setting is 'always'; a refusal is one line too)."""
        c = self.coach
        c.sync()
        lines = [x for x in c.plain_lines(self.lang, self.name)
                 if x != tr(self.lang, "coach_label") + tr(self.lang, "coach_thinking")]
        said = self.coach_said[1] if self.coach_said and self.coach_said[0] == c.key else []
        for line in lines:
            if line not in said:
                self.say(line)
        self.coach_said = (c.key, [*said, *lines])

    def coach_command(self, rest: str) -> None:
        """``o``: ask; ``o 5m``: one tile's shanten, 進張 and risk."""
        lang = self.lang
        if rest:
            k = parse_tile_word(rest)
            self.coach.sync()
            info = self.coach.tile(k) if k is not None else None
            if info is None and not self.coach.shows():
                note = self.coach.ask(lang)
                if note:
                    self.say(note)
                    return
                self.coach.sync()
                info = self.coach.tile(k) if k is not None else None
            self.say(tr(lang, "coach_label") + (self.coach.tile_line(lang, info, self.name) if info
                                                 else tr(lang, "coach_no_tile", tile=rest)))
            return
        try:
            note = self.coach.ask(lang)
        except IllegalAction as e:
            note = refusal_text(self.lang, e)
        if note:
            self.say(note)
        self.coach_say()

    # -- the loop --------------------------------------------------------------------------
    def events(self) -> None:
        for e in self.s.new_events():
            if e["type"] == "reseat":
                for line in self.s.reseat_lines(self.lang, e):
                    self.say(line)
                continue
            line = event_line(self.lang, e, self.name, self.s.seat)
            if line:
                self.say(line + self.tag(e))
            if e["type"] == "deal":
                obs = self.s.observation()
                d = obs["dealer"]
                self.say(tr(self.lang, "round", wind=wind_label(self.lang, obs["round_wind"]),
                            n=self.s.hand_no + 1) + ". " + tr(self.lang, "dealer", name=self.name(d)))
                if obs["seat_winds"][d] != "E":
                    self.say(tr(self.lang, "dealer_not_east", who=self.name(d),
                                wind=wind_label(self.lang, obs["seat_winds"][d])))

    def tag(self, e: dict) -> str:
        """A mark after an event's line (online: the server's moves for this seat)."""
        return ""

    def leave(self) -> bool:
        s = self.s
        if not s.match.over and s.walls is None and self.save_path is not None:
            s.save_progress(self.save_path)
            self.say(tr(self.lang, "saved_to"))
        return True

    def decide(self) -> bool:
        """One decision of the person; False when they left."""
        self.say(self.prompt_line())
        self.coach_say()
        while True:
            cmd = self.ask()
            if cmd is None:
                return not self.leave()
            act = self.command(cmd)
            if act is False:
                return not self.leave()
            if act is None:
                continue
            let_go = act.type == "pass" and any(a.type == "win" for a in self.s.legal())
            try:
                self.s.act(act)
            except IllegalAction as e:
                self.say(refusal_text(self.lang, e))
                continue
            if let_go:
                self.say_passed()
            return True

    def say_passed(self) -> None:
        """A win let go: 過水 said as the profile lifts it (offline the observation
        says so at once; online the server's next update does, and the rule is read
        from the profile meanwhile)."""
        obs = self.s.observation()
        text = passed_win_text(self.lang, obs)
        if not text:
            until = self.s.profile.play.passed_win
            tile = ((obs or {}).get("last_discard") or {}).get("tile")
            text = passed_win_text(self.lang, {"passed_win": {
                "until": until, "tiles": tile if until == "until_own_draw" else None}})
        self.say(text)

    def command(self, cmd: str):
        s, lang = self.s, self.lang
        legal = s.legal()
        low = cmd.lower()
        if low in ("q", "quit", "exit"):
            kept = self.save_path is None and not getattr(s, "online", False)
            text = tr(lang, "quit_confirm_unsaved" if kept else "quit_confirm")
            self.say(text.replace("\n\n", " ").replace("\n", " "))
            ans = self.ask()
            return False if ans is None or ans.lower().startswith("y") else None
        if low in ("look", "l", "table"):
            self.look()
            return None
        if low in ("help", "?", "h"):
            self.say(tr(lang, "plain_help"))
            self.say(tr(lang, "plain_help_coach"))
            self.say(tr(lang, "tile_legend"))
            return None
        word, _, rest = low.partition(" ")
        if word in ("o", "coach", "教練"):
            self.coach_command(rest.strip())
            return None
        if low == "" and any(a.type == "discard" for a in legal):
            drawn = s.observation().get("drawn")
            if not drawn:                   # after 吃/碰 nothing was drawn: never guess
                self.say(tr(lang, "plain_no_drawn"))
                return None
            low = tile_label("en", kinds(drawn)[0])
        if low in KEY_TYPES:
            acts = [a for a in legal if a.type in KEY_TYPES[low]]
            if not acts:
                passed = passed_win_text(lang, s.observation()) if low == "w" else ""
                self.say(tr(lang, "passed_refused", why=passed) if passed else
                         tr(lang, "key_not_now", what=tr(lang, _KEY_LABEL[low])))
                return None
            if len(acts) == 1 or low == "w":
                return acts[0]
            for i, a in enumerate(acts, 1):
                self.say(f"{i} {self.label(a)}")
            pick = self.ask()
            if pick is not None and pick.isdigit() and 1 <= int(pick) <= len(acts):
                return acts[int(pick) - 1]
            self.say(tr(lang, "cancel"))
            return None
        k = parse_tile_word(low if cmd == "" else cmd)     # Enter: the drawn tile
        if k is None:
            self.say(tr(lang, "plain_unknown", cmd=cmd))
            return None
        act = next((a for a in legal if a.type == "discard" and a.tile == k), None)
        if act is None:
            self.say(tr(lang, "not_legal") + f": {tile_label(lang, k)}")
        return act

    def label(self, a: Action) -> str:
        if a.type == "chi":
            return " ".join(tile_label(self.lang, k) for k in sorted((a.tile, *a.tiles)))
        return tile_label(self.lang, a.tile) if a.tile is not None else tr(self.lang, "act_pass")

    def run(self) -> None:
        from .results import result_text, summary_text
        s = self.s
        if s.hand is None or (s.hand.over and s.ended):
            s.start_hand()
        else:
            s.run_bots()
        while True:
            self.events()
            if s.hand_over:
                self.say(self.render(result_text(s, self.lang, 100)))
                if s.match.over:
                    self.say(self.render(summary_text(s, self.lang)))
                    return
                self.say(tr(self.lang, "next_hand"))
                if self.ask() is None:
                    self.leave()
                    return
                s.start_hand()
                continue
            if not s.legal():
                s.run_bots()
                continue
            if not self.decide():
                return


def run_plain(session, lang: str = "zh", inp=None, out=None, prefs=None, save_path=None) -> None:
    """Play ``session`` as lines on ``out``, reading commands from ``inp``."""
    from .prefs import Prefs
    _Plain(session, lang, inp or sys.stdin, out or sys.stdout, prefs or Prefs(),
           save_path).run()

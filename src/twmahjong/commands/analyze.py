"""`twmj analyze RECORD` — 牌譜分析: the AI reviews one seat's decisions.

RECORD is a game record (formats.md) or a finished game as ``GET
/api/v1/games/<id>`` gives it (then the person's seat is the default). Prints a
table per hand — each decision, the move played, the AI's choice, the expected
points the move gave away (± its spread), a mark on mistakes — and the hand's
three costliest decisions; ``--json`` prints the document docs/analysis.md
describes. Bad input exits 2 with one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from ..analysis import DecisionReview, Review
    from ..engine.actions import Action


def register(app: typer.Typer) -> None:
    app.command("analyze", help="牌譜分析: the AI reviews a seat's decisions in a game record.")(
        analyze_command)


def analyze_command(
    record: Path = typer.Argument(..., metavar="RECORD",
                                  help="A game record, or a game from the server (JSON)."),
    seat: int | None = typer.Option(None, "--seat", metavar="0-3", help="The seat to review (0-3); "
                                    "default: the person's seat in a server game."),
    bot: str | None = typer.Option(None, "--bot", metavar="LEVEL",
                                   help="The reference AI (default: the top level)."),
    worlds: int | None = typer.Option(
        None, "--worlds", min=1, max=10000, metavar="N",
        help="Sampled worlds per decision: more is slower and surer."),
    deal: str = typer.Option(
        "developed", "--deal", metavar="HOW",
        help="How a world deals the hidden tiles: developed (the others' hands as far "
             "along as the table shows) or uniform (at random)."),
    seed: int = typer.Option(0, "--seed", metavar="S",
                             help="Seed of the sampling: the same seed, the same review."),
    hand: list[int] | None = typer.Option(None, "--hand", metavar="N",
                                          help="Only this hand (1-based; repeatable)."),
    threshold: float | None = typer.Option(None, "--threshold", min=0.0, metavar="POINTS",
                                           help="Loss in points from which a move is a mistake "
                                                "(default: one 台's worth at the record's stakes)."),
    as_json: bool = typer.Option(False, "--json", help="Print the review as JSON."),
    lang: str = typer.Option("zh", "--lang", metavar="zh|en",
                             help="Language of the printed review (zh-TW or English)."),
) -> None:
    from ..analysis import DEFAULT_BOT, DEFAULT_WORLDS, AnalysisError, analyze_record, plan_record
    if lang not in _WORDS:
        raise AnalysisError(f"--lang must be zh or en, not {lang!r}")
    try:
        text = record.read_text(encoding="utf-8")
    except OSError as e:
        raise AnalysisError(f"cannot read {record}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise AnalysisError(f"{record} is not a text file") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise AnalysisError(f"{record} is not JSON: {e.msg} at line {e.lineno}") from None
    hands = None if not hand else [n - 1 for n in hand]
    bot_name, n_worlds = bot or DEFAULT_BOT, worlds or DEFAULT_WORLDS
    plan = plan_record(doc, seat=seat, bot=bot_name, worlds=n_worlds, hands=hands, deal=deal)
    kwargs: dict[str, Any] = {"bot": bot_name, "worlds": n_worlds, "seed": seed, "deal": deal,
                              "threshold": threshold, "plan": plan}
    if as_json:
        review = analyze_record(doc, **kwargs)
        typer.echo(json.dumps(review.to_json(), ensure_ascii=False, indent=1))
        return
    from rich.progress import Progress
    console = Console(highlight=False)
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("analysing", total=len(plan.points))

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        review = analyze_record(doc, progress=progress, **kwargs)
    _print(console, review, lang)


# the printed review's words, zh-TW and English (the JSON keeps its keys)
_WORDS: dict[str, dict[str, str]] = {
    "zh": {
        "head": "座位 {seat} 由 [bold]{bot}[/bold] 檢討：每個決定取 {worlds} 個{deal}世界，種子 {seed}；"
                "點數以牌譜的底注計（底 {base}，每台 {per_tai}）；✗ 失誤：少得 ≥ {threshold} 點且大於"
                "兩倍誤差；= 與 AI 相同",
        "developed": "依牌面推演的", "uniform": "隨機發牌的",
        "title": "第 {n} 盤（莊：座位 {dealer}）",
        "cols": "#|巡|手牌|摸|打|AI|損失",
        "none": "第 {n} 盤：座位 {seat} 沒有可選擇的決定",
        "costliest": "損失最多：", "ai": "AI",
        "total": "第 {n} 盤：{m} 次失誤，共少得 {total} 點\n",
        "pass": "過", "win": "胡", "chi": "吃", "pon": "碰", "kong": "槓", "added_kong": "加槓",
        "concealed_kong": "暗槓", "flower_win": "花胡", "declare": "聽", "draw": "摸海底",
    },
    "en": {
        "head": "seat {seat} reviewed by [bold]{bot}[/bold]: {worlds} {deal} worlds a decision, seed "
                "{seed}; points at the record's stakes (底 {base}, {per_tai} a 台); ✗ a mistake: it "
                "gives away ≥ {threshold} points, and twice its spread; = the AI's own move",
        "developed": "developed", "uniform": "uniform",
        "title": "hand {n} (dealer: seat {dealer})",
        "cols": "#|巡|hand|drew|played|AI|loss",
        "none": "hand {n}: no decision with a choice for seat {seat}",
        "costliest": "costliest: ", "ai": "AI",
        "total": "hand {n}: {m} mistake{s}, {total} points given away in all\n",
        "pass": "pass", "win": "win", "chi": "chi", "pon": "pon", "kong": "kong",
        "added_kong": "add kong", "concealed_kong": "closed kong", "flower_win": "flower win",
        "declare": "declare", "draw": "draw",
    },
}


def _label(a: Action, lang: str = "en") -> str:
    j = a.to_json()
    t = j["type"]
    tile = j.get("tile", "")
    words = _WORDS[lang]
    if t == "discard":
        return tile
    if t == "chi":
        return f"{words['chi']} {j.get('tiles', '')}"
    if t in ("pass", "win"):
        return words[t]
    return f"{words.get(t, t)} {tile}".strip()


def _loss(d: DecisionReview) -> str:
    return f"{d.loss:.0f} ± {d.spread:.0f}"


def _print(c: Console, r: Review, lang: str = "en") -> None:
    st, w = r.stakes, _WORDS[lang]
    c.print(w["head"].format(seat=r.seat, bot=r.bot, worlds=r.worlds, deal=w.get(r.deal, r.deal),
                             seed=r.seed, base=st["base"], per_tai=st["per_tai"],
                             threshold=f"{r.threshold:g}"))
    for h in r.hands:
        t = Table(title=w["title"].format(n=h.hand_no + 1, dealer=h.dealer), title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False)
        names = w["cols"].split("|")
        for col, just in zip((*names, ""), ("right", "right", "left", "left", "left", "left",
                                            "right", "left")):
            t.add_column(col, justify=just, no_wrap=True)  # type: ignore[arg-type]
        for d in h.decisions:
            mark = "[red]✗[/red]" if d.mistake else ("[green]=[/green]" if d.agrees else "")
            t.add_row(str(d.n), str(d.turn), d.hand, d.drawn or "", _label(d.played, lang),
                      _label(d.bot, lang), _loss(d), mark)
        if not h.decisions:
            c.print(w["none"].format(n=h.hand_no + 1, seat=r.seat))
            continue
        c.print(t)
        worst = h.costliest()
        if worst:
            c.print(w["costliest"] + "; ".join(
                f"#{d.n} {_label(d.played, lang)} ({w['ai']} {_label(d.bot, lang)}) −{_loss(d)}"
                for d in worst))
            for d in worst:                 # the coach's words on the AI's move (教練)
                if d.why:
                    c.print(f"  #{d.n} {w['ai']}: {d.why['zh' if lang == 'zh' else 'en']}")
        c.print(w["total"].format(n=h.hand_no + 1, m=h.mistakes, s="" if h.mistakes == 1 else "s",
                                  total=f"{h.given_away:.0f}"))

"""`twmj demo` — one seeded hand among four random bots, told move by move.

Everything in zh-TW tile names with the MPSZ notation beside them: seat winds,
flowers, claims, the win with its 台 and who paid whom.
"""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from ..tiles import parse_tiles, zh_name

WIND_ZH = {"E": "東", "S": "南", "W": "西", "N": "北"}


def register(app: typer.Typer) -> None:
    app.command("demo", help="Watch one hand among four random bots (示範牌局), move by move.")(demo_command)


def _zh(text: str | None) -> str:
    if not text:
        return ""
    return " ".join(zh_name(k) for k in parse_tiles(text)) + f" [dim]{text}[/dim]"


def demo_command(
    seed: int = typer.Option(7, "--seed", metavar="S", help="Start here; the first seed whose hand is won is shown."),
    profile: str = typer.Option("standard", "--profile", metavar="NAME", help="Rule profile or file."),
    all_seeds: bool = typer.Option(False, "--any", help="Show the hand of --seed even if it ends drawn."),
) -> None:
    from ..selfplay import make_bots, play_hand
    from ..engine.table import HandState
    from ..profiles import load_profile

    rules = load_profile(profile)
    s = seed
    while True:
        h = HandState(rules, dealer=s % 4, seed=s)
        play_hand(h, make_bots(["random"] * 4, s))
        if all_seeds or h.result["type"] == "win" or s - seed > 2000:
            break
        s += 1
    _tell(h, s, rules)


def _tell(h, seed: int, rules) -> None:
    c = Console(highlight=False)
    winds = [WIND_ZH[w] for w in "ESWN"]
    who = lambda seat: f"{winds[h.seat_winds[seat]]}家(seat {seat}{', 莊' if seat == h.dealer else ''})"
    c.rule(f"[bold]示範牌局 demo — profile {rules.id}, seed {seed}")
    deal = h.events[0]
    c.print(f"圈風 round wind {WIND_ZH[deal['round_wind']]}; dealer 莊家 seat {h.dealer}; "
            f"dice 骰子 {deal['dice']}, wall opens at seat {deal['wall_break'][0]}'s wall")
    for seat in range(4):
        c.print(f"  {who(seat)} dealt: {_zh(deal['hands'][seat])}")
    turn = 0
    for ev in h.events[1:]:
        t = ev["type"]
        if t == "flower":
            extra = f" — robbed from seat {ev['robbed_from']} (七搶一)" if "robbed_from" in ev else ""
            c.print(f"  [magenta]補花[/magenta] {who(ev['seat'])} shows {_zh(ev['tile'])}{extra}")
        elif t == "discard":
            turn += 1
            c.print(f"{turn:3d}. {who(ev['seat'])} 打 {_zh(ev['tile'])}")
        elif t in ("chi", "pon"):
            verb = {"chi": "吃", "pon": "碰"}[t]
            tiles = ev.get("tiles") or ev["tile"] * 3
            c.print(f"     [cyan]{verb}[/cyan] {who(ev['seat'])} takes {_zh(ev['tile'])} from seat "
                    f"{ev['from']}: {_zh(tiles)}")
        elif t == "kong":
            verb = {"exposed": "碰槓", "added": "加槓", "concealed": "暗槓"}[ev["kind"]]
            c.print(f"     [cyan]{verb}[/cyan] {who(ev['seat'])} {_zh(ev['tile'])}")
        elif t == "declare":
            c.print(f"     [yellow]聽[/yellow] {who(ev['seat'])} declares {ev['kind']}")
        elif t == "draw_game":
            c.print(f"[bold]荒局 drawn hand[/bold] ({ev['reason']}): the dealer stays.")
        elif t == "win":
            how = "自摸 self-drawn" if ev["self_drawn"] else f"on seat {ev['from']}'s discard 放槍"
            c.print(f"[bold green]胡 {who(ev['seat'])}[/bold green] {how} with {_zh(ev['tile'])}")
            hand = ev["hand"]
            c.print(f"  hand: {_zh(hand['concealed'])}  melds: "
                    + ", ".join(f"{m['type']} {m['tiles']}" for m in hand["melds"])
                    + f"  flowers: {_zh(hand['flowers'])}")
            tb = Table(title=f"台 breakdown — {ev['score']['tai']} 台")
            tb.add_column("pattern 台型")
            tb.add_column("台", justify="right")
            for p in ev["score"]["patterns"]:
                tb.add_row(f"{p['zh']} {p['en']}", str(p["tai"]))
            c.print(tb)
        elif t == "settlement":
            tb = Table(title="結算 settlement")
            tb.add_column("from")
            tb.add_column("to")
            tb.add_column("amount", justify="right")
            for tr in ev["transfers"]:
                tb.add_row(str(tr.get("payer")), str(tr.get("payee")), str(tr.get("amount")))
            c.print(tb)
            c.print("net by seat: " + "  ".join(f"{who(s)} {v:+d}" for s, v in enumerate(ev["net"])))

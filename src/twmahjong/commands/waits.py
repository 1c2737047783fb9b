"""`twmj waits` — what a hand waits on (聽牌), each wait's shape, or how far it is."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from ..errors import UserError
from ..hand import shanten, wait_shapes, waits
from ..tiles import check_limits, counts34, is_flower, parse_tiles, tile_str, zh_name

SHAPE_ZH = {"edge": "邊張", "closed": "中洞", "single": "單吊", "open": "兩面",
            "double_pung": "對碰"}
_ORDER = ("open", "double_pung", "edge", "closed", "single")


class HandSizeError(UserError):
    """A hand that cannot be waiting: the concealed tiles are not 3k+1."""


def analyse(hand_text: str, meld_texts: list[str]) -> dict:
    """The command's answer as data, so the table and ``--json`` agree."""
    concealed = parse_tiles(hand_text)
    if any(is_flower(k) for k in concealed):
        raise UserError("flowers (花牌) are not part of the hand; leave them out")
    melds = [parse_tiles(m) for m in meld_texts]
    for m in melds:
        if not _is_meld(m):
            raise UserError(
                f"a meld is a chow, pung or kong (e.g. 123m, 777p, 1111z), not {format_meld(m)!r}")
    every = concealed + [k for m in melds for k in m]
    check_limits(every, "hand and melds")
    n = len(concealed)
    if n % 3 != 1:
        raise HandSizeError(
            f"a waiting hand has 3k+1 concealed tiles (1, 4, 7, 10, 13 or 16), not {n}")
    sets_in_melds = len(melds)
    if n // 3 + sets_in_melds > 5:
        raise HandSizeError(
            f"{n} concealed tiles and {sets_in_melds} melds make more than five sets and a pair")
    counts = counts34(concealed)
    found = waits(counts, counts34(every))
    return {
        "waits": [{"tile": tile_str(k), "shapes": sorted(wait_shapes(counts, k), key=_ORDER.index)}
                  for k in found],
        "single_wait": len(found) == 1,
        "shanten": shanten(counts),
    }


def _is_meld(m: list[int]) -> bool:
    if any(is_flower(k) for k in m):
        return False
    if len(m) in (3, 4) and len(set(m)) == 1:
        return True
    s = sorted(m)
    return len(s) == 3 and s[0] < 27 and s[0] % 9 <= 6 and s == [s[0], s[0] + 1, s[0] + 2]


def format_meld(kinds: list[int]) -> str:
    return "".join(tile_str(k) for k in kinds)


def register(app: typer.Typer) -> None:
    @app.command("waits")
    def waits_command(
        hand: str = typer.Argument(..., help="Concealed tiles, e.g. 23m456m678p234s567s99p"),
        meld: list[str] = typer.Option([], "--meld", help="An exposed or concealed meld, e.g. 777p (repeatable)"),
        as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table"),
    ) -> None:
        """List the waits (聽牌) of a 3k+1-tile hand with their shapes, or its shanten (向聽數)."""
        result = analyse(hand, meld)
        if as_json:
            typer.echo(json.dumps(result, ensure_ascii=False))
            return
        console = Console(highlight=False)
        if not result["waits"]:
            if result["shanten"] <= 0:
                console.print("No wait: every tile that would complete this hand is already "
                              "held four times (in hand or melds).")
            else:
                console.print(f"Not ready (未聽牌): shanten 向聽數 {result['shanten']}")
            return
        table = Table(title="Waits 聽牌" + (" — 獨聽 single wait" if result["single_wait"] else ""))
        table.add_column("Tile")
        table.add_column("牌")
        table.add_column("Shape 牌型")
        for w in result["waits"]:
            k = parse_tiles(w["tile"])[0]
            shapes = ", ".join(f"{SHAPE_ZH[s]} {s}" for s in w["shapes"])
            table.add_row(w["tile"], zh_name(k), shapes)
        console.print(table)

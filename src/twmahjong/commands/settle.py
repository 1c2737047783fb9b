"""`twmj settle` — who pays whom (結算) for a scored hand.

Reads the scorer's answer (stdin or ``--result``) or scores a hand first
(``--hand``), then prints the payments and each seat's net:

    twmj score hand.json --json | twmj settle --winner 1 --from 2 --stakes 100/20
"""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from ..settlement import (
    REASON_ZH, SELF_DRAWN, SEVEN_ROB_ONE, Settlement, SettlementError, Stakes,
    settle as settle_result,
)


def register(app: typer.Typer) -> None:
    app.command("settle", help="Who pays whom (結算) for a scored hand: 底 + 台 × 台價 per payer.")(
        settle_command)


def settle_command(
    winner: str = typer.Option(None, "--winner", metavar="SEAT", help="The winning seat, 0-3."),
    discarder: str = typer.Option(None, "--from", metavar="SEAT",
                                  help="The seat that dealt in (放槍); omit for 自摸."),
    dealer: str = typer.Option("0", "--dealer", metavar="SEAT", help="The dealer's seat (莊家)."),
    streak: str = typer.Option(None, "--streak", metavar="N",
                               help="N of 連N拉N; default: the scored dealer's hand, else 0."),
    stakes: str = typer.Option(None, "--stakes", metavar="BASE/TAI",
                               help="底/台價, e.g. 100/20; default: the profile's."),
    carried: str = typer.Option(None, "--carried", metavar="A,B,C,D",
                                help="Each seat's money; turns on 防以小博大 (nobody wins or "
                                     "loses more than they carried)."),
    fee: str = typer.Option(None, "--fee", metavar="RATE",
                            help="活動費 on the winner's gain, e.g. 0.05; default: the profile's."),
    robbed: str = typer.Option(None, "--robbed", metavar="SEAT",
                               help="七搶一 won by 槓上開花: the robbed seat pays its 8 台."),
    profile: str = typer.Option(None, "--profile", metavar="NAME",
                                help="Profile name or file (default: the hand's, or standard)."),
    result_file: str = typer.Option(None, "--result", metavar="FILE",
                                    help="The scorer's JSON answer (default: read stdin)."),
    hand_file: str = typer.Option(None, "--hand", metavar="FILE",
                                  help="A hand JSON (formats.md) to score first."),
    as_json: bool = typer.Option(False, "--json", help="Print the settlement as JSON."),
) -> None:
    from ..profiles import load_profile

    if winner is None:
        raise SettlementError("give the winning seat with --winner (0-3)")
    winner_seat = _seat("--winner", winner)
    payer = _seat("--from", discarder) if discarder is not None else None
    dealer_seat = _seat("--dealer", dealer)
    robbed_seat = _seat("--robbed", robbed) if robbed is not None else None
    if payer == winner_seat:
        raise SettlementError(f"--from {payer} is the winner; nobody pays for their own win")
    streak_n = _whole("--streak", streak) if streak is not None else None
    stake = Stakes.parse(stakes) if stakes is not None else None
    carried_list = _carried(carried) if carried is not None else None
    if hand_file is not None and result_file is not None:
        raise SettlementError("give either --hand or --result, not both")

    if hand_file is not None:
        hand = _load_json(_read(hand_file), hand_file)
        name = profile or hand.get("profile") or "standard"
        if not isinstance(name, str):
            raise SettlementError(f'{hand_file}: "profile" must be a profile name')
        rules = load_profile(name)
        from ..scoring import HandSpec, score
        result = score(HandSpec.from_json(hand), rules)
        if streak_n is None and type(hand.get("dealer_streak")) is int:
            streak_n = hand["dealer_streak"]
        _check_discarder(hand, payer, robbed_seat)
    else:
        if result_file is None and sys.stdin.isatty():
            raise SettlementError(
                "no scored hand: pipe it in, or give --result FILE or --hand FILE")
        text = _read(result_file) if result_file is not None else sys.stdin.read()
        label = result_file if result_file is not None else "stdin"
        result = _scored(_load_json(text, label), label)
        rules = load_profile(profile or "standard")

    outcome = settle_result(result, winner=winner_seat, payer=payer, dealer=dealer_seat,
                            streak=streak_n, profile=rules, stakes=stake, carried=carried_list,
                            fee_rate=fee, robbed=robbed_seat)
    if as_json:
        typer.echo(json.dumps(outcome.to_json(), ensure_ascii=False))
    else:
        _show(outcome, dealer_seat, stake or Stakes.from_profile(rules), result)


def _show(outcome: Settlement, dealer: int, stakes: Stakes, result: Any) -> None:
    console = Console(highlight=False)

    def who(seat: int | None) -> str:
        if seat is None:
            return "house 平台"
        return f"seat {seat}" + (" 莊" if seat == dealer else "")

    table = Table(title=f"結算 settlement — {result.tai} 台 scored, stakes {stakes}")
    for column in ("pays 付", "to 收", "台", "amount 金額", "for 事由"):
        table.add_column(column, justify="right" if column in ("台", "amount 金額") else "left")
    for t in outcome.transfers:
        amount = str(t.amount)
        if t.owed is not None and t.owed != t.amount:
            amount += f" (owed {t.owed}, 防以小博大)"
        table.add_row(who(t.payer), who(t.payee), "" if t.tai is None else str(t.tai), amount,
                      f"{t.reason} {REASON_ZH.get(t.reason, '')}".strip())
    console.print(table)
    nets = Table(title="net 輸贏")
    nets.add_column("seat 座位")
    nets.add_column("net", justify="right")
    for seat, amount in enumerate(outcome.net):
        nets.add_row(who(seat), f"{amount:+d}" if amount else "0")
    if outcome.fee:
        nets.add_row(who(None), f"{outcome.fee:+d}")
    console.print(nets)


def _check_discarder(hand: dict, payer: int | None, robbed: int | None) -> None:
    """The hand JSON says whether it was self-drawn; ``--from`` must agree, or the
    settlement would charge three seats for a deal-in (or one for a self-draw)."""
    conditions = set(hand.get("conditions") or ())
    if SEVEN_ROB_ONE in conditions:
        return                      # the robbed seat pays: --from, or --robbed if it bloomed
    drawn = hand.get("self_drawn") is True or bool(SELF_DRAWN & conditions)
    if drawn and payer is not None:
        raise SettlementError(f"the hand is self-drawn (自摸); drop --from {payer}")
    if not drawn and payer is None:
        raise SettlementError("the hand won on a discard: name the discarder with --from")


def _seat(option: str, text: str) -> int:
    if text.strip() not in ("0", "1", "2", "3"):
        raise SettlementError(f"{option} must be a seat 0-3, got {text!r}")
    return int(text)


def _whole(option: str, text: str) -> int:
    if not text.strip().isdecimal():
        raise SettlementError(f"{option} must be a whole number 0 or more, got {text!r}")
    return int(text)


def _carried(text: str) -> list[int]:
    parts = text.split(",")
    if len(parts) != 4 or not all(p.strip().isdecimal() for p in parts):
        raise SettlementError(f"--carried needs four amounts like 1000,1000,500,2000, got {text!r}")
    return [int(p) for p in parts]


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise SettlementError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SettlementError(f"cannot read {path}: it is not UTF-8 text") from None


def _load_json(text: str, label: str) -> dict:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise SettlementError(
            f"{label}: not valid JSON ({e.msg}, line {e.lineno} column {e.colno})") from None
    if not isinstance(obj, dict):
        raise SettlementError(f"{label}: expected one JSON object")
    return obj


def _scored(obj: dict, label: str) -> SimpleNamespace:
    """The scorer's answer as an object shaped like ``ScoreResult`` (formats.md)."""
    winning = obj.get("winning", True)
    tai = obj.get("tai")
    patterns = obj.get("patterns", [])
    if type(winning) is not bool:
        raise SettlementError(f'{label}: "winning" must be true or false')
    if type(tai) is not int or tai < 0:
        raise SettlementError(f'{label}: "tai" must be a whole number')
    if not isinstance(patterns, list) or not all(
            isinstance(p, dict) and isinstance(p.get("id"), str) and type(p.get("tai")) is int
            for p in patterns):
        raise SettlementError(f'{label}: "patterns" must be a list of {{"id", "tai"}}')
    found = tuple(SimpleNamespace(id=p["id"], tai=p["tai"]) for p in patterns)
    return SimpleNamespace(winning=winning, tai=tai, reason=obj.get("reason"), patterns=found)

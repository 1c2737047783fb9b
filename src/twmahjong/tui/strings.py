"""Every word the terminal client shows, in zh-TW and English (one table).

Players at a Taiwanese table speak of 上家/對家/下家, 莊, 連莊, 吃碰槓胡, so the
zh-TW column is the default and the English column only translates it.

    >>> tr("en", "tiles_left", n=12)
    'Tiles left 12'
"""

from __future__ import annotations

__all__ = ["LANGS", "STRINGS", "tile_label", "tr", "wind_label"]

LANGS = ("zh", "en")

STRINGS: dict[str, tuple[str, str]] = {
    # table header
    "title": ("台灣麻將", "Taiwanese Mahjong"),
    "round": ("{wind}風圈 第{n}盤", "{wind} round, hand {n}"),
    "dealer": ("莊 {name}", "Dealer {name}"),
    "streak": ("連{n}拉{n}", "streak {n}"),
    "tiles_left": ("餘牌 {n}", "Tiles left {n}"),
    "you": ("你", "You"),
    "bot": ("電腦{n}", "Bot {n}"),
    "left": ("上家", "Left"),
    "across": ("對家", "Across"),
    "right": ("下家", "Right"),
    "self": ("本家", "You"),
    "seat_name": ("{rel} {bot}", "{bot} ({rel})"),
    "concealed_n": ("手牌 {n}", "{n} in hand"),
    "flowers": ("花", "Flowers"),
    "waits": ("聽", "Waits"),
    "melds": ("副露", "Melds"),
    "river": ("河", "River"),
    "declared_mark": ("聽", "READY"),
    "dealer_mark": ("莊", "dealer"),
    "score": ("{n:+d}", "{n:+d}"),
    "hidden_kong": ("暗槓", "hidden kong"),
    # status line
    "your_turn": ("輪到你打牌：←→ 選牌，Enter 打出", "Your turn: ←→ pick a tile, Enter discards"),
    "your_turn_declared": ("已聽牌：Enter 打出摸到的牌", "Declared ready: Enter throws the drawn tile"),
    "claim_on": ("{who} 打出 {tile}：", "{who} discarded {tile}: "),
    "rob_kong_on": ("{who} 加槓 {tile}：", "{who} adds a kong of {tile}: "),
    "rob_flower_on": ("可以七搶一：", "You may rob the eighth flower: "),
    "declare_window": ("可以天聽：", "You may declare heavenly ready: "),
    "waiting": ("等待其他玩家…", "Waiting for the others…"),
    "choose": ("選擇 {what}：", "Choose {what}: "),
    "cancel": ("Esc 取消", "Esc cancels"),
    "not_legal": ("現在不能打這張牌", "You may not discard that tile now"),
    "hand_over": ("本盤結束 — 按任意鍵看結算", "Hand over — press a key for the result"),
    # actions (key hints)
    "act_discard": ("打", "discard"),
    "act_chi": ("吃", "chow"),
    "act_pon": ("碰", "pung"),
    "act_kong": ("槓", "kong"),
    "act_win": ("胡", "win"),
    "act_self_win": ("自摸", "self-draw win"),
    "act_flower_win": ("花胡", "flower win"),
    "act_declare": ("聽", "declare ready"),
    "act_pass": ("過", "pass"),
    "act_draw": ("摸海底", "draw the last tile"),
    "act_decline_last": ("棄摸（流局）", "decline it (drawn hand)"),
    "last_tile_window": ("海底牌：摸，或棄摸流局？", "The last tile: draw it, or decline and end the hand?"),
    # event log
    "ev_discard": ("{who} 打 {tile}", "{who} discards {tile}"),
    "ev_chi": ("{who} 吃 {tiles}", "{who} chows {tiles}"),
    "ev_pon": ("{who} 碰 {tile}", "{who} pungs {tile}"),
    "ev_kong": ("{who} 槓 {tile}", "{who} kongs {tile}"),
    "ev_kong_hidden": ("{who} 暗槓", "{who} makes a concealed kong"),
    "ev_flower": ("{who} 補花 {tile}", "{who} replaces flower {tile}"),
    "ev_declare": ("{who} 聽牌！", "{who} declares ready!"),
    "ev_win": ("{who} 胡了！", "{who} wins!"),
    "ev_self_win": ("{who} 自摸！", "{who} self-draws the win!"),
    "ev_draw_game": ("流局（荒莊）", "Drawn hand (wall exhausted)"),
    "ev_last_declined": ("海底棄摸，流局", "The last tile was declined: drawn hand"),
    # result screen
    "result_title": ("第{n}盤 結算", "Hand {n} — result"),
    "win_line": ("{who} 胡 {tile}（{how}）", "{who} wins on {tile} ({how})"),
    "self_drawn": ("自摸", "self-drawn"),
    "dealt_in_by": ("{who} 放槍", "dealt in by {who}"),
    "flower_win": ("花胡", "flower win"),
    "tai_total": ("合計 {n} 台", "Total {n} tai"),
    "tai_each": ("{n} 台", "{n} tai"),
    "no_patterns": ("（無台型，屁胡）", "(no patterns — chicken hand)"),
    "draw_game": ("流局，莊家連莊", "Drawn hand — the dealer keeps the deal"),
    "draw_game_kongs": ("四槓流局", "Drawn hand — four kongs"),
    "hands_revealed": ("攤牌", "Hands revealed"),
    "payments": ("支付", "Payments"),
    "pays": ("{payer} → {payee}  {amount}", "{payer} pays {payee}  {amount}"),
    "fee": ("活動費 {n}", "table fee {n}"),
    "running": ("累計", "Running scores"),
    "next_hand": ("按任意鍵開始下一盤", "Press any key for the next hand"),
    "to_summary": ("按任意鍵看總結", "Press any key for the match summary"),
    "reason_self_draw": ("自摸", "self-draw"),
    "reason_deal_in": ("放槍", "deal-in"),
    "reason_seven_rob_one": ("七搶一", "seven robs one"),
    "reason_false_win": ("詐胡", "false win"),
    "reason_full_liability": ("包賠", "full liability"),
    "reason_fee": ("活動費", "fee"),
    # summary
    "summary_title": ("終局 — {n}圈 {hands}盤", "Match over — {n} round(s), {hands} hands"),
    "rank_line": ("第{rank}名 {who}", "#{rank} {who}"),
    "wins_n": ("胡 {n} 次", "{n} wins"),
    "quit_hint": ("按 q 離開", "Press q to quit"),
    "record_saved": ("牌譜已存：{path}", "Record saved: {path}"),
    # help / footer
    "keys": ("←→ 選牌  Enter 打牌  c吃 p碰 k槓 w胡 t聽 d摸海底 x過  q離開",
             "←→ pick  Enter discard  c chow p pung k kong w win t ready d draw last x pass  q quit"),
}

_WINDS = {"zh": "東南西北", "en": ("East", "South", "West", "North")}

# Tile faces: zh-TW 一萬 … 九條, 東南西北中發白, 春夏秋冬梅蘭菊竹; English keeps the
# MPSZ digit-suit form players see in records, honors and flowers as short words.
_ZH_NUM = "一二三四五六七八九"
_ZH_SUIT = "萬筒條"
_ZH_HONOR = ("東", "南", "西", "北", "白", "發", "中")
_ZH_FLOWER = "春夏秋冬梅蘭菊竹"
_EN_HONOR = ("E", "S", "W", "N", "Wh", "Gr", "Rd")
_EN_FLOWER = ("Sp", "Su", "Au", "Wi", "Pl", "Or", "Ch", "Bm")


def tr(lang: str, key: str, **params) -> str:
    """The string ``key`` in ``lang`` with ``params`` filled in."""
    zh, en = STRINGS[key]
    text = en if lang == "en" else zh
    return text.format(**params) if params else text


def wind_label(lang: str, wind: int | str) -> str:
    """東/East for 0 or "E"."""
    i = "ESWN".index(wind) if isinstance(wind, str) else wind
    return _WINDS["en" if lang == "en" else "zh"][i]


def tile_label(lang: str, kind: int) -> str:
    """A tile face as text: 五萬 / 5m, 中 / Rd, 春 / Sp."""
    if kind < 27:
        if lang == "en":
            return f"{kind % 9 + 1}{'mps'[kind // 9]}"
        return _ZH_NUM[kind % 9] + _ZH_SUIT[kind // 9]
    if kind < 34:
        return (_EN_HONOR if lang == "en" else _ZH_HONOR)[kind - 27]
    return (_EN_FLOWER if lang == "en" else _ZH_FLOWER)[kind - 34]

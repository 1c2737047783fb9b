"""Every word the terminal client shows, in zh-TW and English (one table).

Players at a Taiwanese table speak of 上家/對家/下家, 莊, 連莊, 吃碰槓胡, so the
zh-TW column is the default and the English column only translates it.

    >>> tr("en", "tiles_left", n=12)
    'Tiles left 12'
"""

from __future__ import annotations

__all__ = ["LANGS", "STRINGS", "error_text", "refusal_text", "mode_label", "profile_label", "server_error_text",
           "tile_label", "tr", "tr_you", "wind_label"]

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
    # 搬風 before each 將 after the first (rules/000-001)
    "reseat_throw": ("第{g}將搬風：{who}擲骰 {dice}（{total}點），{first}先摸風牌。",
                     "Game {g}, re-seating (搬風): dice {dice} ({total}) thrown by {who}; first wind tile drawn by {first}."),
    "reseat_again": ("前{n}次摸完座次順序與上一將相同，重搬。",
                     "Drawn again {n}×: the order around the table was the same as last game."),
    "reseat_seats": ("新座位（本盤門風）：{seats}", "New seats (this hand's winds): {seats}"),
    "reseat_dealer": ("定莊：摸到東的{who}擲骰 {dice}（{total}點），{dealer}起莊。",
                      "First dealer: dice {dice} ({total}) thrown by {who}, who drew East; first to deal: {dealer}."),
    "reseat_title": ("第{g}將：搬風", "Game {g}: re-seating (搬風)"),
    "reseat_key": ("按任意鍵開始這一將", "Any key: play this game"),
    "game_end_reseat": ("第{g}將結束：下一盤前搬風（擲骰、摸風牌換座位，再定莊）",
                        "Game {g} is over: before the next hand everyone re-seats (搬風: dice, "
                        "wind tiles, new seats, a new first dealer)"),
    "game_end_same": ("第{g}將結束：下一將從東風圈再開始", "Game {g} is over: the next game starts again at East"),
    "ev_last_declined": ("海底棄摸，流局", "The last tile was declined: drawn hand"),
    # English second person ("You discard", not "You discards"): zh needs no change
    "ev_discard_you": ("{who} 打 {tile}", "{who} discard {tile}"),
    "ev_chi_you": ("{who} 吃 {tiles}", "{who} chow {tiles}"),
    "ev_pon_you": ("{who} 碰 {tile}", "{who} pung {tile}"),
    "ev_kong_you": ("{who} 槓 {tile}", "{who} kong {tile}"),
    "ev_kong_hidden_you": ("{who} 暗槓", "{who} make a concealed kong"),
    "ev_flower_you": ("{who} 補花 {tile}", "{who} replace flower {tile}"),
    "ev_declare_you": ("{who} 聽牌！", "{who} declare ready!"),
    "ev_win_you": ("{who} 胡了！", "{who} win!"),
    "ev_self_win_you": ("{who} 自摸！", "{who} self-draw the win!"),
    "win_line_you": ("{who} 胡 {tile}（{how}）", "{who} win on {tile} ({how})"),
    "pays_you": ("{payer} → {payee}  {amount}", "{payer} pay {payee}  {amount}"),
    # the win's moment, before its settlement
    "moment_ron": ("{who} 胡 {tile}！ {payer} 放槍", "{who} wins on {tile}! Dealt in by {payer}"),
    "moment_ron_you": ("{who} 胡 {tile}！ {payer} 放槍", "{who} win on {tile}! Dealt in by {payer}"),
    "moment_self": ("{who} 自摸 {tile}！", "{who} self-draws the win on {tile}!"),
    "moment_self_you": ("{who} 自摸 {tile}！", "{who} self-draw the win on {tile}!"),
    "moment_flower": ("{who} 花胡！", "{who} wins with the flowers!"),
    "moment_flower_you": ("{who} 花胡！", "{who} win with the flowers!"),
    "moment_key": ("按任意鍵看結算", "Any key: the settlement"),
    # result screen
    "result_title": ("第{n}盤 結算", "Hand {n} — result"),
    "win_line": ("{who} 胡 {tile}（{how}）", "{who} wins on {tile} ({how})"),
    "self_drawn": ("自摸", "self-drawn"),
    "dealt_in_by": ("{who} 放槍", "dealt in by {who}"),
    "dealt_in_by_you": ("你 放槍", "dealt in by you"),
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
    "next_hand_online": ("按任意鍵：下一局（{n} 秒後自動發牌）",
                         "Any key: ready for the next hand (dealt in {n}s anyway)"),
    "next_hand_online_any": ("按任意鍵：下一局", "Any key: ready for the next hand"),
    "ready_sent": ("已按下一局：{n} 秒內發牌", "Ready: the next hand is dealt within {n}s"),
    "ready_sent_wait": ("已按下一局：等 {who}（最多 {n} 秒）",
                        "Ready: waiting for {who} (at most {n}s)"),
    "ready_sent_any": ("已按下一局：等其他玩家", "Ready: waiting for the others"),
    "to_summary": ("按任意鍵看總結", "Press any key for the match summary"),
    "reason_self_draw": ("自摸", "self-draw"),
    "reason_deal_in": ("放槍", "deal-in"),
    "reason_seven_rob_one": ("七搶一", "seven robs one"),
    "reason_false_win": ("詐胡", "false win"),
    "reason_full_liability": ("包賠", "full liability"),
    "reason_fee": ("活動費", "fee"),
    # summary
    "summary_title": ("終局 — {n}圈 {hands}盤", "Match over — {n} rounds, {hands} hands"),
    "summary_title_one": ("終局 — {n}圈 {hands}盤", "Match over — {n} round, {hands} hands"),
    "rank_line": ("第{rank}名 {who}", "#{rank} {who}"),
    "wins_n": ("胡 {n} 次", "{n} wins"),
    "quit_hint": ("按 q 離開", "Press q to quit"),
    "record_saved": ("牌譜已存：{path}", "Record saved: {path}"),
    # help / footer (built per profile: only the keys the profile uses)
    "k_pick": ("←→選牌", "←→ Enter"),
    "k_discard": ("Enter打", ""),
    "k_chi": ("c吃", "c chow"),
    "k_pon": ("p碰", "p pung"),
    "k_kong": ("k槓", "k kong"),
    "k_win": ("w胡", "w win"),
    "k_declare_any": ("t報聽", "t ready"),
    "k_declare_first": ("t天地聽", "t ready"),
    "k_draw": ("d海底", "d last"),
    "k_pass": ("x過", "x pass"),
    "k_settings": ("s設定", "s set"),
    "k_help": ("?說明", "? help"),
    "k_quit": ("q離開", "q quit"),
    "k_auto": ("a託管", "a auto"),
    # too small
    "too_small": ("請把終端機放大到至少 {w}×{h}（現在 {cw}×{ch}）",
                  "Enlarge the terminal to at least {w}×{h} (it is {cw}×{ch} now)"),
    # hints (聽牌提示) and illegal discards
    "hint_pick": ("聽牌提示：打出標 * 的牌就聽牌", "Ready hint: discarding a tile marked * leaves you ready"),
    "hint_after": ("打 {tile} 聽：{waits}", "Discard {tile} → waits: {waits}"),
    "waits_now": ("聽：{waits}", "Waits: {waits}"),
    "wait_live": ("{tile}(剩{n})", "{tile} ({n} left)"),
    "wait_dead": ("（空聽：一張都不剩）", " (a dead wait: none left)"),
    "forbidden_chi": ("吃牌後不能打吃進的牌或另一頭的同類牌（標 x 的牌）：{tiles}",
                      "After a chow you may not discard the claimed tile or its far end (x): {tiles}"),
    "forbidden_pon": ("碰牌後不能打同一張牌（標 x）：{tiles}",
                      "After a pung you may not discard the same tile (x): {tiles}"),
    "key_not_now": ("現在不能{what}", "You cannot {what} now"),
    # 過水: a win let go, said as the profile lifts it (play.passed_win)
    "passed_until_non_winning_discard": (
        "過水：放過了胡，要等你打出一張不是胡牌的牌，才能再胡",
        "Passed win (過水): no win until you discard a tile that is not one of your winning tiles"),
    "passed_until_own_discard": ("過水：放過了胡，你下次打牌前不能胡",
                                 "Passed win (過水): no win until your next discard"),
    "passed_until_own_draw": ("過水：放過了 {tiles}，你下次摸牌前不能胡這張",
                              "Passed win (過水): no win on {tiles} until your next draw"),
    "passed_refused": ("現在不能胡 — {why}", "You cannot win now — {why}"),
    "wait_blocked": ("{tile}(剩{n}·過水)", "{tile} ({n} left, 過水: not now)"),
    "key_nothing": ("現在沒有要你決定的事", "Nothing to decide now — wait for your turn"),
    "dealer_not_east": ("莊家{who}坐{wind}：本規則從開門位數門風，莊家不一定是東。",
                        "Dealer {who} sits {wind}: winds count from the wall break, not the dealer."),
    # settings / help / quit / resume
    "settings_title": ("設定", "Settings"),
    "set_hints": ("1  聽牌提示：{v}", "1  Ready hints: {v}"),
    "set_speed": ("2  電腦出牌速度：{v}", "2  Bot speed: {v}"),
    "on": ("開", "on"),
    "off": ("關", "off"),
    "speed_0": ("立即", "instant"),
    "speed_1": ("一般", "normal"),
    "speed_2": ("慢", "slow"),
    "settings_close": ("按 1 或 2 切換，其他鍵回到牌桌", "Press 1 or 2 to change, any other key returns"),
    "quit_confirm": ("要離開嗎？牌局會存檔，下次 twmj play 可以繼續。\n\ny 存檔離開    n 繼續打",
                     "Leave the table? The match is saved; the next twmj play offers to resume it.\n\ny save and leave    n keep playing"),
    "quit_confirm_online": ("要離開嗎？你的座位由電腦託管，用 twmj play --server {url} 回到牌桌。\n\ny 離開    n 繼續打",
                            "Leave the table? A bot plays your seat until you return with twmj play --server {url}.\n\ny leave    n keep playing"),
    "resume_saved": ("有一局未完成的牌局（第{hands}盤，{scores}）。",
                     "An unfinished match is saved (hand {hands}, scores {scores})."),
    "resume_choices": ("1 繼續這一局  2 先開新的一局（存檔留著，下次再問）  3 刪掉這一局的存檔",
                       "1 resume it  2 new match, keep it for later (asked again next time)  "
                       "3 delete the saved match"),
    "resume_kept": ("存檔留著：下次 twmj play 會再問（這一局新的不會存檔）",
                    "The saved match is kept: the next twmj play asks again (this new match is not saved)"),
    "resume_dropped": ("已刪掉未完成牌局的存檔", "The saved match was deleted"),
    "resume_again": ("請輸入 1、2 或 3", "Type 1, 2 or 3"),
    "quit_confirm_unsaved": ("要離開嗎？這一局不會存檔；之前存的那一局還留著。\n\ny 離開    n 繼續打",
                             "Leave the table? This match is not saved; the match saved earlier is kept.\n\ny leave    n keep playing"),
    "saved_to": ("牌局已存檔：twmj play --resume 繼續", "Match saved: twmj play --resume continues it"),
    "help_title": ("按鍵說明", "Keys"),
    "help_body": ("←→ 或 h l 選牌，Enter/空白鍵 打出；滑鼠點一下選牌，再點一下打出\n"
                  "c 吃  p 碰  k 槓（明槓、暗槓、加槓）  w 胡／自摸  x 或 Esc 過\n"
                  "t 聽：{declare}\n"
                  "{draw}"
                  "數字鍵：有多種吃法時選一種\n"
                  "s 設定（聽牌提示、電腦出牌速度）  g 全部紀錄  q 離開（會存檔）\n"
                  "e 快捷語（線上牌桌）：說一句、表情、靜音某家\n"
                  "o 教練：電腦高手這一步怎麼打、為什麼（s 設定：關／按 o／每一步）\n"
                  "標記：▲ 選中  * 打出就聽  x 不能打  ★ 教練的牌  ○ 安全 △ 小心 ✕ 危險\n"
                  "河裡：反白＝剛打出的牌（可以吃碰）  刪除線＝被吃碰走的牌",
                  "←→ or h l pick a tile, Enter/Space discards it; a click picks, a second click discards\n"
                  "c chow  p pung  k kong (exposed, concealed, added)  w win / self-draw  x or Esc pass\n"
                  "t ready: {declare}\n"
                  "{draw}"
                  "Digits choose when a claim can be made several ways\n"
                  "s settings (ready hints, bot speed)  g the whole log  q quit (the match is saved)\n"
                  "e table talk (at a server table): a phrase, an emote, mute a seat\n"
                  "o coach: what the top bot would play here and why (s settings: off / on o / always)\n"
                  "Marks: ▲ picked  * leaves you ready  x not now  ★ coach's  ○ safe △ careful ✕ danger\n"
                  "Rivers: reverse = the latest discard (may be claimed)  struck = taken by a claim"),
    "help_declare_any": ("任何時候都可以報聽", "declare ready at any time"),
    "help_declare_first": ("只有天聽／地聽（第一次打牌時）", "only heavenly/earthly ready, with your first discard"),
    "help_draw": ("d 摸海底牌；x 棄摸（流局）\n", "d draws the last tile; x declines it (drawn hand)\n"),
    "plain_turn_claimed": ("輪到你打牌：輸入要打的牌（如 5萬、西）", "Your turn: type the tile to discard (e.g. 5m, We)"),
    "plain_no_drawn": ("你沒有摸到的牌：輸入要打的牌（如 5萬）", "You drew no tile: type the tile to discard (e.g. 5m)"),
    "tile_legend": ("牌名：1m–9m 萬、1p–9p 筒、1s–9s 條；Ea 東 So 南 We 西 No 北；Wh 白 Gr 發 Rd 中；"
                    "花 Sp 春 Su 夏 Au 秋 Wi 冬 Pl 梅 Or 蘭 Ch 菊 Bm 竹",
                    "Tiles: 1m-9m characters (萬), 1p-9p dots (筒), 1s-9s bamboo (條); Ea East, "
                    "So South, We West, No North; Wh White, Gr Green, Rd Red; flowers: Sp Spring, "
                    "Su Summer, Au Autumn, Wi Winter, Pl Plum, Or Orchid, Ch Chrysanthemum, Bm Bamboo"),
    "plain_turn": ("輪到你打牌：輸入牌名（如 5萬），Enter 打摸到的牌", "Your turn: type a tile (e.g. 5m); Enter throws the drawn one"),
    "plain_clock": ("剩 {n} 秒", "{n}s left"),
    "plain_clock_warn": ("還剩 {n} 秒就由伺服器代打", "{n}s left before the server plays for you"),
    "plain_server_auto": ("時間到：伺服器託管你的座位，替你出牌。輸入 back（或 收回）收回座位",
                          "Time ran out: the server plays your seat. Type back (or 收回) to take it back"),
    "plain_seat_back": ("你收回了座位：輪到你時由你決定", "Your seat is yours again: you decide on your turns"),
    "plain_auto_turn": ("伺服器託管中，會替你出牌（back 收回）",
                        "the server plays it for you (back takes the seat back)"),
    "plain_auto_tag": ("（託管）", "(auto-play)"),
    "plain_not_auto": ("你的座位沒有託管", "Your seat is not on auto-play"),
    "plain_not_your_turn": ("現在不是你的回合：輪到你時會說", "Not your turn: you will be told when it is"),
    "plain_unknown": ("看不懂「{cmd}」：輸入 help 看指令", "Not understood: {cmd!r} — type help for the commands"),
    "plain_help": ("指令：牌名（5萬、五萬、5m、西、西風、We）打那張牌，Enter 打摸到的牌；"
                   "c 吃 p 碰 k 槓 w 胡 t 聽 d 摸海底 x 過；數字選吃法；look 看牌桌；q 離開（會存檔）",
                   "Commands: a tile (5m, 5萬, We, West) discards it, Enter the tile you drew; "
                   "c chow p pung k kong w win t ready d draw last x pass; a digit picks from a list; "
                   "look reads the table; q leaves (saved)"),
    # online (線上)
    "online_header": ("線上 {profile}", "online {profile}"),
    "online_table": ("線上 {mode} · {profile}", "online {mode} · {profile}"),
    # the mode of play and the rule profile are named apart (a 休閒 table may play 標準 rules)
    "mode_casual": ("休閒場", "casual table"),
    "mode_ranked": ("積分賽", "ranked"),
    "mode_challenge": ("挑戰賽", "challenge"),
    "mode_private": ("私人房", "private room"),
    "profile_standard": ("標準規則", "standard rules"),
    "profile_classic": ("傳統規則", "classic rules"),
    "profile_casual": ("休閒規則（線上報聽）", "casual rules (online 報聽)"),
    "online_queued": ("排隊中（{n} 人）… 空位會由電腦補上", "In the queue ({n} waiting)… bots fill empty seats"),
    "online_back": ("已重新連線", "Reconnected"),
    "online_second_window": ("此帳號在另一個視窗也在這一桌",
                             "This account is at this table in another window too"),
    "online_second_window_gone": ("只剩這個視窗在這一桌", "Only this window is at this table now"),
    "online_reconnecting": ("連線中斷，正在重新連線…（第 {n} 次）",
                            "Connection lost, reconnecting… (attempt {n})"),
    "refused_now": ("現在不能這樣做：請看畫面上可以做的選擇", "That move is not allowed now"),
    "online_offline_wait": ("連回來之前不能出牌", "moves wait for the link"),
    "online_offline_key": ("連線中斷，正在重新連線：這個按鍵沒有送出",
                           "Offline, reconnecting: that key was not sent"),
    "online_not_started": ("等房主開局… 開始後自動入座", "Waiting for the host to start… you sit down when it does"),
    "online_lost": ("連線中斷：{why}", "Connection lost: {why}"),
    "online_server_auto": ("伺服器託管中：輪到你時出手即收回座位", "The server plays your seat: act on your turn to take it back"),
    "online_bot": ("電腦 {name}", "bot {name}"),
    "online_offline": ("離線", "offline"),
    "online_auto_mark": ("託管", "auto"),
    "online_clock": ("⏱ {n} 秒", "⏱ {n}s"),
    "online_bank": ("庫 {n} 秒", "bank {n}s"),
    "online_auto_on": ("託管中（a 取消）", "Auto-play on (a cancels)"),
    "online_left": ("你離開了牌桌：伺服器會代打，用 twmj play --server 回到牌桌",
                    "You left the table: the server plays your seat until twmj play --server takes it back"),
    "online_connecting": ("連線中…", "Connecting…"),
    "online_room_code": ("房號 {code}", "Room {code}"),
    "online_room_gone": ("房號 {code} 的房間已關閉", "Room {code} was closed by its host"),
    "online_wait_keys": ("q 離開", "q leave"),
    "online_host_wait": ("把房號告訴朋友，等他們入座", "Share the code and wait for your friends to sit down"),
    "online_host_keys": ("Enter 開始（空位由電腦補上）   q 關閉房間",
                         "Enter starts (bots fill empty seats)   q closes the room"),
    "online_room_seats": ("已入座 {n}/4", "Seated {n}/4"),
    "online_room_empty": ("（空位）", "(empty)"),
    "quit_confirm_room_host": ("要關閉房號 {code} 的房間嗎？已入座的朋友會看到房間已關閉。\n\ny 關閉    n 繼續等",
                               "Close room {code}? Friends already seated are told it was "
                               "closed.\n\ny close    n keep waiting"),
    "quit_confirm_room": ("要離開房號 {code} 的房間嗎？座位會讓給別人。\n\ny 離開    n 繼續等",
                          "Leave room {code}? Your seat goes to someone else.\n\n"
                          "y leave    n keep waiting"),
    "log_prompt": ("全部紀錄（↑↓ 捲動，其他鍵回到牌桌）", "The whole log (↑↓ scroll, any other key returns)"),
    "k_log": ("g紀錄", "g log"),
    "press_any": ("按任意鍵回到牌桌", "Press any key to return"),
    # table talk (快捷語, 表情; docs/social.md)
    "talk_line": ("{who}：{text}", "{who}: {text}"),
    "voice_in": ("語音中：{who}（語音聊天要用瀏覽器）", "In voice: {who} (voice chat needs the browser)"),
    "voice_sep": ("、", ", "),
    "talk_title": ("快捷語", "Table talk"),
    "talk_tab_polite": ("禮貌", "polite"),
    "talk_tab_teasing": ("調侃", "teasing"),
    "talk_tab_celebratory": ("慶祝", "celebratory"),
    "talk_tab_emotes": ("表情", "emotes"),
    "talk_tab_mute": ("靜音", "mute"),
    "talk_keys": ("←→ 換類  ↑↓ 選  數字或 Enter 說出（靜音：切換）  Esc 關閉",
                  "←→ tab  ↑↓ move  digit or Enter says it (mute: toggles)  Esc closes"),
    "talk_muted": ("［已靜音］", "[muted]"),
    "talk_heard": ("［聽得到］", "[heard]"),
    "talk_everyone": ("所有人", "Everyone"),
    "talk_none": ("（伺服器沒有提供快捷語）", "(the server offers no phrases)"),
    "talk_not_seated": ("入座後才能說話", "You can talk once you are seated"),
    "talk_offline": ("快捷語只在線上牌桌", "Table talk is for server tables"),
    "talk_err_talk_too_fast": ("說太快了：稍等幾秒再說", "Talking too fast: wait a few seconds"),
    "talk_err_watcher_silent": ("觀戰不能說話", "Watchers cannot talk"),
    "talk_err_unknown_phrase": ("伺服器沒有這句快捷語", "The server has no such phrase"),
    "talk_err_unknown_emote": ("伺服器沒有這個表情", "The server has no such emote"),
    "k_talk": ("e快捷語", "e talk"),
    "plain_help_talk": ("快捷語：say 列出全部，say 編號或代號（say 3、say hurry）說出；"
                        "mute 上家／對家／下家／all 靜音或取消",
                        "Table talk: say lists them, say a number or id (say 3, say hurry) says it; "
                        "mute left/across/right/all mutes or unmutes"),
    "plain_say_unknown": ("沒有「{word}」這句：輸入 say 看清單", "No phrase {word!r}: type say for the list"),
    "plain_mute_unknown": ("靜音誰？mute 上家／對家／下家／all", "Mute whom? mute left/across/right/all"),
    "plain_muted": ("靜音：{who}", "Muted: {who}"),
    "plain_muted_none": ("靜音：無", "Muted: nobody"),
    # payments
    "tai_parts": ("{hand} 台", "{hand} tai"),
    "tai_dealer": ("莊 {n}", "dealer {n}"),
    "tai_streak": ("連莊 {n}", "streak {n}"),
    "tai_other": ("另 {n}", "extra {n}"),
    "tai_sum": ("= {n} 台", "= {n} tai"),
    # the online lobby (twmj play --server): plain questions before the screen opens
    "lobby_who": ("1 訪客  2 登入  3 註冊", "1 guest  2 log in  3 register"),
    "lobby_name": ("名稱", "Name"),
    "lobby_password": ("密碼", "Password"),
    "lobby_hello": ("歡迎，{name}（{coins} 金幣）", "Welcome, {name} ({coins} coins)"),
    "lobby_menu": ("1 一鍵匹配  2 開私人房  3 用房號加入{back}{games}  q 離開",
                   "1 quick match  2 new room  3 join a room{back}{games}  q quit"),
    "lobby_games": ("  5 進行中的牌局", "  5 unfinished"),
    "games_none": ("沒有進行中的牌局", "No games in progress"),
    "games_title": ("進行中的牌局（{n}）：", "Games in progress ({n}):"),
    "games_line": ("{i}. {profile} {mode}  座位 {seat}  {players}  開始於 {when}",
                   "{i}. {profile} {mode}  seat {seat}  {players}  started {when}"),
    "games_ask": ("b 編號 回到牌桌   f 編號 認輸   Enter 返回",
                  "b N back to the table   f N forfeit   Enter back to the menu"),
    "games_confirm_alone": ("對第 {i} 局認輸？桌上只有你一位玩家：牌局現在結束。已經結算的各局照算，"
                            "正在打的這一局不算，不能反悔。y 認輸  n 不要",
                            "Forfeit game {i}? You are the only person at this table: the game "
                            "ends now. Hands already settled stand; the hand in play does not "
                            "count. This cannot be undone. y forfeit  n keep it"),
    "games_confirm_others": ("對第 {i} 局認輸？桌上還有其他玩家：電腦會替你把這個位子打到終局，"
                             "輸贏照算，你不能再回到這一桌，不能反悔。y 認輸  n 不要",
                             "Forfeit game {i}? Other people sit at this table: a bot plays your "
                             "seat to the end, coins still count, and you cannot return to this "
                             "game. This cannot be undone. y forfeit  n keep it"),
    "games_forfeit_ended": ("已認輸：這一局結束了", "Forfeited: the game is over"),
    "games_forfeit_bot": ("已認輸：電腦會替你打完這一局", "Forfeited: a bot plays your seat to the end"),
    "games_kept": ("這一局留著", "The game is kept"),
    "games_bad": ("請輸入 b 編號、f 編號，或直接按 Enter", "Type b N, f N, or just Enter"),
    "games_too_many": ("你同時進行的牌局太多了：回到其中一局，或認輸一局再開新的",
                       "You are at too many tables: go back to one, or forfeit one to start another"),
    "lobby_back": ("  4 回到牌桌", "  4 resume"),
    "lobby_code": ("房號", "Room code"),
    "lobby_room_open": ("房號 {code}：告訴朋友。Enter 開始（空位由電腦補上），r 看誰入座，q 關閉",
                        "Room {code}: share it. Enter starts (bots fill), r who is in, q closes"),
    "room_seated_line": ("已入座 {n}/4：{names}", "Seated {n}/4: {names}"),
    "lobby_room_wait": ("等房主開始…（Enter 再看一次，q 放棄）", "Waiting for the host to start… (Enter checks again, q gives up)"),
    "lobby_again": ("請再選一次", "Please choose again"),
    # The server's refusals (``error_text``): its own text is English, so a refusal is
    # told by its reason, else its code, in the words the web client uses for it
    # (tests/tui/test_errors.py keeps the two tables the same).
    "err_reason_name_format": (
        "名稱需 2–20 個字（中文、英文字母、數字、- 或 _），且不能以 guest 開頭",
        "A name has 2–20 letters, digits, Chinese characters, - or _, "
        "and may not start with guest"),
    "err_reason_password_length": ("密碼需 6–128 個字元", "A password has 6 to 128 characters"),
    "err_reason_name_taken": ("這個名稱已經有人使用", "That name is taken"),
    "err_reason_wrong_password": ("名稱或密碼錯誤", "Wrong name or password"),
    "err_reason_session_expired": ("登入已過期，請重新登入", "Your session has expired; please log in again"),
    "err_reason_session_invalid": ("登入資訊無效，請重新登入",
                                   "Your session is not valid; please log in again"),
    "err_reason_room_not_found": ("找不到房號 {code} 的房間", "No room with code {code}"),
    "err_reason_room_started": ("這個房間的牌局已經開始", "This room's game has already started"),
    "err_reason_room_full": ("這個房間已經坐滿", "This room is full"),
    "err_reason_invalid_field": ("「{field}」的內容不符合要求", "The {field} field is not valid"),
    "err_code_auth": ("請先登入", "Please log in"),
    "err_code_forbidden": ("你沒有權限這樣做", "You are not allowed to do that"),
    "err_code_bad_request": ("這個要求無法處理", "That request cannot be handled"),
    "err_code_not_found": ("找不到", "Not found"),
    "err_code_conflict": ("目前無法這樣做", "That cannot be done right now"),
    "err_code_too_many_tables": (
        "你同時進行的牌局太多了，請先完成或回到進行中的牌局",
        "You are at too many tables; finish or rejoin a game in progress first"),
    "err_code_no_game": ("找不到這一局，或你不在這一局裡", "No such game, or you are not in it"),
    "err_code_game_over": ("這一局已經結束了", "That game is already over"),
    "err_code_forfeited": ("你已認輸這一局，不能再回到這一桌",
                           "You forfeited this game and cannot return to its table"),
    "err_code_rate_limited": ("操作太頻繁，請稍候再試", "Too many attempts; wait a moment"),
    "err_code_voice_no_mic": ("無法使用麥克風，請允許瀏覽器使用麥克風",
                              "The microphone cannot be used: allow this site to use it"),
    "err_code_voice_forbidden": ("房主關閉了這桌的語音", "The host turned voice off at this table"),
    "err_code_voice_quick": ("快速配對牌桌的語音要先在設定中打開",
                             "Turn on voice at quick-match tables in Settings first"),
    "err_code_voice_watcher": ("觀戰時不能加入語音", "Watchers cannot join the table's voice"),
    "err_code_voice_too_fast": ("語音訊息太頻繁，請稍等", "Too many voice messages; wait a moment"),
    "err_code_voice_off": ("請先加入語音", "Join voice first"),
    "err_code_voice_other_table": ("只能和同桌的玩家語音", "Voice is only with your own table"),
    "err_code_voice_no_peer": ("那個座位沒有人在語音中", "Nobody at that seat is in voice"),
    "err_code_too_large": ("送出的資料太大", "That request is too large"),
    "err_code_illegal_action": ("現在不能這樣出牌", "That move is not allowed now"),
    "err_code_not_seated": ("你不在牌桌上", "You are not seated at a table"),
    "err_code_no_table": ("這場牌局已經結束或不存在", "That game is over or does not exist"),
    "err_code_not_started": ("這桌還沒開始，請稍候再試",
                             "That table has not started yet; try again in a moment"),
    "err_code_already_queued": ("你已經在配對中", "You are already waiting for a table"),
    "err_code_unavailable": ("伺服器暫時連不上資料庫，請稍候再試",
                             "The server cannot reach its storage just now; try again in a moment"),
    "err_code_internal_error": ("伺服器處理失敗，牌局會繼續", "The server failed on that; the game goes on"),
    "err_code_table_closed": ("牌局無法繼續，已結束", "The table could not go on and has ended"),
    "err_code_not_authenticated": ("請先登入", "Please log in"),
    "err_code_talk_too_fast": ("說太快了，每 3 秒一句", "Too fast: one phrase every 3 seconds"),
    "err_code_watcher_silent": ("觀戰中不能發言（外插不得影響行牌）", "Watchers cannot talk to the table"),
    "err_code_unknown_phrase": ("沒有這句快捷語", "No such phrase"),
    "err_code_unknown_emote": ("沒有這個表情", "No such emote"),
    "err_code_not_friends": ("只能觀戰好友的牌桌", "You can watch a friend's table only"),
    "err_code_watch_forbidden": ("房主不開放觀戰", "The host does not allow watching"),
    "err_code_guest": ("註冊後才能加好友與觀戰", "Register to have friends and watch"),
    "err_code_seated": ("你正在牌桌上", "You are seated at a table"),
    "err_code_gone": ("邀請已過期", "That invitation has expired"),
    "err_reason_guest": ("訪客不能加好友，註冊後即可", "Guests cannot have friends; register first"),
    "err_reason_no_account": ("找不到這位玩家", "No player by that name"),
    "err_reason_self": ("不能加自己為好友", "You cannot befriend yourself"),
    "err_reason_already_friends": ("你們已經是好友了", "You are friends already"),
    "err_reason_blocked": ("你已封鎖這位玩家，請先解除封鎖", "You blocked this player; unblock them first"),
    "err_reason_no_request": ("沒有這位玩家的好友邀請", "No friend request from this player"),
    "err_reason_not_friends": ("只能邀請好友", "You can invite friends only"),
    "err_reason_not_in_room": ("你不在這個房間", "You are not in this room"),
    "err_reason_invite_expired": ("邀請已過期", "That invitation has expired"),
    "err_unknown": ("發生錯誤（{code}）", "Something went wrong ({code})"),
    "field_password": ("密碼", "password"),
    "field_name": ("名稱", "name"),
    # the server could not be reached: the operating system's words are English too
    "err_net_refused": ("連不上伺服器 {server}：對方拒絕連線（伺服器沒有開？）",
                        "Cannot reach {server}: connection refused (is the server running?)"),
    "err_net_timeout": ("連不上伺服器 {server}：等不到回應", "Cannot reach {server}: no answer in time"),
    "err_net_unknown_host": ("找不到伺服器 {server}：沒有這個位址",
                             "Cannot find the server {server}: no such host"),
    "err_net_other": ("連不上伺服器 {server}（{why}）", "Cannot reach {server} ({why})"),
    "err_code_bad_url": ("這不是伺服器位址：{url}（例如 http://host:port）",
                         "Not a server address: {url} (try http://host:port)"),
    "err_code_closed": ("與伺服器的連線已關閉", "The link to the server is closed"),
    "err_code_lost": ("與伺服器的連線中斷，重新連線也沒有成功",
                      "Lost the link to the server and could not get it back"),
    # 教練 (tui/coach.py): the AI's advice at the person's decision
    "k_coach": ("o教練", "o coach"),
    "coach_label": ("教練：", "Coach: "),
    "coach_thinking": ("教練想一下…", "the coach is thinking…"),
    "coach_off": ("教練已關閉（s 設定）", "The coach is off (s settings)"),
    "coach_do_discard": ("打{tile}", "Discard {tile}"),
    "coach_do_pass": ("不叫，過", "Pass"),
    "coach_do_call": ("{call}", "{call}"),
    "coach_claim_call": ("教練會叫這張", "The coach would call it"),
    "coach_claim_pass": ("教練不會叫這張", "The coach would let it go"),
    "coach_outlook": ("這手牌約值 {tai} 台", "This hand looks worth about {tai} tai"),
    "coach_outlook_fold": ("這手牌該棄胡，改打安全牌", "Time to fold: play safe tiles"),
    "coach_shanten": ("打完{n}向聽", "{n} from ready after it"),
    "coach_shanten_ready": ("打完聽牌", "ready after it"),
    "coach_shanten_win": ("胡牌", "a win"),
    "coach_tile": ("{tile}：{shanten}，進張{total}張{accept}；{risk}",
                   "{tile}: {shanten}; {total} improve it{accept}; {risk}"),
    "coach_accept_list": ("（{list}）", " ({list})"),
    "coach_accept_one": ("{tile}剩{n}", "{tile}:{n}"),
    "coach_risk_safe": ("安全", "safe"),
    "coach_risk_careful": ("小心", "careful"),
    "coach_risk_danger": ("危險", "danger"),
    "coach_why": ("（{why}）", " ({why})"),
    "coach_sep": ("、", ", "),
    "coach_sep2": ("；", "; "),
    "coach_colon": ("：", ": "),
    "coach_rest_safe": ("其餘安全", "the rest safe"),
    "coach_all_safe": ("每張都安全", "every tile safe"),
    "coach_legend": ("★教練 ○安全 △小心 ✕危險", "★coach ○safe △careful ✕danger"),
    "coach_why_genbutsu": ("現物", "already discarded there"),
    "coach_why_suji": ("筋", "suji"),
    "coach_why_kabe": ("壁", "kabe"),
    "coach_why_ready_seat": ("{who}像是聽牌了", "{who} looks ready"),
    "coach_why_declared": ("{who}已宣告聽牌", "{who} declared ready"),
    "coach_err_hints_off": ("這桌不開放教練提示", "Coach hints are off at this table"),
    "coach_err_no_decision": ("現在沒有要你決定的事", "Nothing to decide right now"),
    "coach_err_stale": ("這一步已經過了", "That move has passed"),
    "coach_err_rate_limited": ("問得太快了，稍後再問", "Too many questions: ask again in a moment"),
    "coach_no_tile": ("沒有{tile}的建議：不在手上，或這一步不是打牌", "No advice on {tile}: not in your hand, or no discard now"),
    "coach_err_hint_failed": ("教練這一步答不出來", "The coach has no answer for this one"),
    "online_room_hints_on": ("這個房間可以問教練（o）", "Players may ask the coach here (o)"),
    "online_room_hints_off": ("這個房間不開放教練提示", "No coach hints in this room"),
    "set_coach": ("3  教練：{v}", "3  Coach: {v}"),
    "coach_mode_off": ("關", "off"),
    "coach_mode_ask": ("按 o 才問", "when you press o"),
    "coach_mode_always": ("每一步", "at every decision"),
    "plain_help_coach": ("教練：o 問這一步的建議；o 5m 讀一張牌的向聽、進張與危險度",
                         "Coach: o asks for this decision's advice; o 5m reads one tile's shanten, "
                         "improving tiles and danger"),
}

_WINDS = {"zh": "東南西北", "en": ("East", "South", "West", "North")}

# Tile faces: zh-TW 一萬 … 九條, 東南西北中發白, 春夏秋冬梅蘭菊竹; English keeps the
# MPSZ digit-suit form players see in records, honors and flowers as two letters
# (TILE_LEGEND says them in full: ? help, twmj play --help, docs/terminal.md).
_ZH_NUM = "一二三四五六七八九"
_ZH_SUIT = "萬筒條"
_ZH_HONOR = ("東", "南", "西", "北", "白", "發", "中")
_ZH_FLOWER = "春夏秋冬梅蘭菊竹"
_EN_HONOR = ("Ea", "So", "We", "No", "Wh", "Gr", "Rd")   # never W: w is 胡 (win)
_EN_FLOWER = ("Sp", "Su", "Au", "Wi", "Pl", "Or", "Ch", "Bm")


def _text(lang: str, key: str) -> str:
    zh, en = STRINGS[key]
    return en if lang == "en" else zh


def tr(lang: str, key: str, **params) -> str:
    """The string ``key`` in ``lang`` with ``params`` filled in."""
    text = _text(lang, key)
    return text.format(**params) if params else text


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return ""


def _fill(lang: str, key: str, params: dict) -> str:
    """``tr`` that leaves a detail the caller does not know (the room code of a
    refusal it did not expect) empty instead of raising."""
    return _text(lang, key).format_map(_Blank(params))


def server_error_text(lang: str, code: str, reason: str | None = None, /, *,
                      field: str | None = None, message: str = "", **params) -> str:
    """A refusal from the server (an HTTP error body, a WebSocket ``error``) in
    ``lang``: by its ``reason`` (which failure), else its ``code``, as the web client
    tells them. A refusal neither names is its English ``message`` in English, and
    its code (and a status number in the message) in zh (new server, older client).

        >>> server_error_text("zh", "auth", "wrong_password", message="wrong name or password")
        '名稱或密碼錯誤'
        >>> server_error_text("zh", "not_found", "room_not_found", code="ABC123")
        '找不到房號 ABC123 的房間'
    """
    if reason and f"err_reason_{reason}" in STRINGS:
        name = tr(lang, f"field_{field}") if f"field_{field}" in STRINGS else field
        return _fill(lang, f"err_reason_{reason}", {"field": name or "", **params})
    if f"err_code_{code}" in STRINGS:
        return _fill(lang, f"err_code_{code}", params)
    if lang == "en" and message:
        return message
    # zh: the server's own words are English — one language a line: the code, and a
    # status number if the message has one (發生錯誤（http 404）)
    import re
    num = re.search(r"\b\d{3}\b", message or "")
    return tr(lang, "err_unknown", code=" ".join(x for x in (code or "?", num and num.group()) if x))


def refusal_text(lang: str, e: Exception) -> str:
    """A refused move in the player's language. The client's own refusals are written
    in it already; the engine explains in English (``engine/explain.py``, shown only
    when a key races the table), which a zh screen says as one line of its own
    instead of mixing the two."""
    text = str(e)
    if lang == "zh" and text.isascii():
        return tr(lang, "refused_now")
    return text


def error_text(lang: str, e: Exception, /, server: str = "", **params) -> str:
    """``server_error_text`` for a raised ``ApiError`` or ``LinkError``; one the
    network raised (``code`` ``"network"``) names ``server`` and why in ``lang``."""
    code = getattr(e, "code", "")
    reason = getattr(e, "reason", None)
    if code == "network":
        why = reason if f"err_net_{reason}" in STRINGS else "other"
        detail = str(e).split(": ", 1)[-1]
        return tr(lang, f"err_net_{why}", server=server or "", why=detail)
    return server_error_text(lang, code, reason, field=getattr(e, "field", None),
                             message=str(e), **params)


def mode_label(lang: str, mode: str) -> str:
    """休閒場 / 積分賽: how a table was made (quick match, ranked…), never the rules."""
    return tr(lang, f"mode_{mode}") if f"mode_{mode}" in STRINGS else mode


def profile_label(lang: str, profile: str) -> str:
    """標準規則 / 休閒規則（線上報聽）: the rule profile, never the mode."""
    return tr(lang, f"profile_{profile}") if f"profile_{profile}" in STRINGS else profile


def tr_you(lang: str, key: str, you: bool, **params) -> str:
    """``tr`` for a sentence whose subject may be the person: English conjugates
    for "You" (``You discard``), so ``key_you`` is used when ``you`` is true.

        >>> tr_you("en", "ev_win", True, who="You"), tr_you("en", "ev_win", False, who="Left")
        ('You win!', 'Left wins!')
    """
    if you and f"{key}_you" in STRINGS:
        key = f"{key}_you"
    return tr(lang, key, **params)


def wind_label(lang: str, wind: int | str) -> str:
    """東/East for 0 or "E"."""
    i = "ESWN".index(wind) if isinstance(wind, str) else wind
    return _WINDS["en" if lang == "en" else "zh"][i]


def tile_label(lang: str, kind: int, compact: bool = False) -> str:
    """A tile face as text: 五萬 / 5m, 中 / Rd, 春 / Sp; ``compact`` (80 columns) 5萬."""
    if kind < 27:
        if compact and lang != "en":
            return f"{kind % 9 + 1}{_ZH_SUIT[kind // 9]}"
        if lang == "en":
            return f"{kind % 9 + 1}{'mps'[kind // 9]}"
        return _ZH_NUM[kind % 9] + _ZH_SUIT[kind // 9]
    if kind < 34:
        return (_EN_HONOR if lang == "en" else _ZH_HONOR)[kind - 27]
    return (_EN_FLOWER if lang == "en" else _ZH_FLOWER)[kind - 34]

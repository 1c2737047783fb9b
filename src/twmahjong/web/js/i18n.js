// The one translation table (翻譯表): every string a player sees or hears.
//
// zh-TW is the default, English is switchable, and the choice persists in
// localStorage. Pattern names (台型) are data from the rule profile, which carries
// its own `zh` and `en`; `pick(obj)` chooses between such pairs.
//
//   t("call.pon")                 -> "碰"  (or "Pong")
//   t("ann.discard", {seat, tile}) -> "下家 打出 五條"

const STORAGE_KEY = "twmj.lang";
export const LANGS = ["zh-TW", "en"];

// key: [zh-TW, en]. {name} is filled from params.
const TABLE = {
  "app.title": ["台灣麻將", "Taiwanese Mahjong"],
  "app.tagline": ["十六張 · 台灣麻將", "16-tile Taiwanese Mahjong"],
  "lang.switch": ["English", "中文"],
  "lang.label": ["切換語言", "Switch language"],

  // winds, seats, table furniture
  "wind.E": ["東", "East"], "wind.S": ["南", "South"],
  "wind.W": ["西", "West"], "wind.N": ["北", "North"],
  "wind.short.E": ["東", "E"], "wind.short.S": ["南", "S"],
  "wind.short.W": ["西", "W"], "wind.short.N": ["北", "N"],
  "round": ["{wind}風圈", "{wind} round"],
  "seat.self": ["你", "You"],
  "seat.right": ["下家", "Right"],
  "seat.across": ["對家", "Across"],
  "seat.left": ["上家", "Left"],
  "seat.label": ["{who}（{wind}）", "{who} ({wind})"],
  "dealer": ["莊", "Dealer"],
  "dealer.badge": ["莊", "D"],
  "streak": ["連{n}拉{n}", "Streak {n}"],
  "wall": ["剩 {n} 張", "{n} left"],
  "wall.label": ["牌牆剩餘張數", "Tiles left in the wall"],
  "coins": ["{n} 籌碼", "{n} coins"],
  "coins.label": ["籌碼", "Coins"],
  "timer": ["{n} 秒", "{n}s"],
  "timer.bank": ["＋{n}", "+{n}"],
  "auto.play": ["託管中", "Auto-play"],
  "bot": ["電腦", "Bot"],
  "bot.level": ["電腦 L{n}", "Bot L{n}"],
  "bot.seat": ["電腦{n}", "Bot {n}"],
  "badge.score": ["本場 {d}", "Game {d}"],
  "river.claimed": ["已被鳴走", "claimed"],
  "show.self_drawn": ["{who} 自摸", "{who} wins by self-draw"],
  "show.self_drawn.me": ["你 自摸", "You win by self-draw"],
  "show.on_discard": ["{who} 胡 {from} 打的牌", "{who} wins on {from}'s discard"],
  "show.on_discard.me": ["你 胡 {from} 打的牌", "You win on {from}'s discard"],
  "show.on_discard.mine": ["{who} 胡你打的牌", "{who} wins on your discard"],
  "show.more": ["點一下看結算", "Tap for the settlement"],
  "show.more.click": ["按一下看結算", "Click for the settlement"],
  "ready.badge": ["聽", "Ready"],
  "concealed": ["{n} 張暗牌", "{n} concealed tiles"],
  "flowers": ["花牌", "Flowers"],
  "melds": ["明牌", "Melds"],
  "river": ["{who}的捨牌", "{who}'s discards"],
  "river.self": ["你的捨牌", "Your discards"],
  "hand": ["你的手牌", "Your hand"],
  "drawn": ["摸進的牌", "Drawn tile"],
  "last.discard": ["最後打出", "Last discard"],
  "from.seat": ["取自{who}", "from {who}"],

  // calls and actions (碰 吃 槓 胡 自摸 聽 過)
  "call.chi": ["吃", "Chi"],
  "call.pon": ["碰", "Pong"],
  "call.kong": ["槓", "Kong"],
  "call.added_kong": ["加槓", "Add kong"],
  "call.concealed_kong": ["暗槓", "Closed kong"],
  "call.win": ["胡", "Win"],
  "call.self_draw": ["自摸", "Self-draw"],
  "call.flower_win": ["花胡", "Flower win"],
  "call.declare": ["聽", "Ready"],
  "call.pass": ["過", "Pass"],
  "call.draw": ["摸海底", "Draw the last tile"],
  "call.discard": ["打出", "Discard"],
  "choose.chi": ["選擇吃法", "Choose a sequence"],
  "choose.kong": ["選擇槓牌", "Choose a kong"],
  "choose.declare": ["選一張打出並宣告聽牌", "Discard a tile to declare ready"],
  "choose.cancel": ["取消", "Cancel"],
  "countdown.label": ["剩餘時間", "Time left"],
  "prompt.discard": ["輪到你：點一下牌放大，再點一次或往上滑打出", "Your turn: tap a tile to lift it, tap again or swipe up to discard"],
  "prompt.discard.ready": ["輪到你：打出有金點的牌就聽牌", "Your turn: a tile with a gold dot leaves you ready"],
  "hint.discard": ["打出{tile}，聽 {waits}", "Discard {tile}: waiting on {waits}"],
  "hint.ready": ["聽 {waits}", "Waiting on {waits}"],
  "hint.wait": ["{tile}({n})", "{tile} ({n})"],
  "hint.many": ["{kinds} 種牌", "{kinds} kinds"],
  "hint.total": ["，共 {n} 張", ", {n} left"],
  "hint.dead": ["，一張都不剩（空聽）", ", none left (a dead wait)"],
  "hint.label": ["打出可聽牌", "discarding it leaves you ready"],

  // 教練 (coach.js): the AI's advice at the player's decision
  "coach": ["教練", "Coach"],
  "coach.ask": ["問教練", "Ask the coach"],
  "coach.thinking": ["教練想一下…", "The coach is thinking…"],
  "coach.idle": ["輪到你時給建議", "Advice comes at your decisions"],
  "coach.pick": ["教練建議", "the coach's choice"],
  "coach.do.discard": ["打{tile}", "Discard {tile}"],
  "coach.do.pass": ["不叫，過", "Pass"],
  "coach.do.call": ["{call}", "{call}"],
  "coach.claim.call": ["教練會叫這張", "The coach would call it"],
  "coach.claim.pass": ["教練不會叫這張", "The coach would let it go"],
  "coach.outlook": ["這手牌約值 {tai} 台", "This hand looks worth about {tai} tai"],
  "coach.outlook.fold": ["這手牌該棄胡，改打安全牌", "Time to fold: play safe tiles"],
  "coach.shanten": ["打完{zn}向聽", "{n} from ready after it"],
  "coach.shanten.ready": ["打完聽牌", "ready after it"],
  "coach.shanten.win": ["胡牌", "a win"],
  "coach.tile": ["{tile}：{shanten}，進張 {total} 張{accept}；{risk}", "{tile}: {shanten}; {total} tiles improve it{accept}; {risk}"],
  "coach.accept.list": ["（{list}）", " ({list})"],
  "coach.accept.one": ["{tile}剩{n}", "{tile}: {n}"],
  "coach.risk.safe": ["安全", "safe"],
  "coach.risk.careful": ["小心", "careful"],
  "coach.risk.danger": ["危險", "danger"],
  "coach.why": ["（{why}）", " ({why})"],
  "coach.sep": ["、", ", "],
  "coach.why.genbutsu": ["現物", "already discarded there"],
  "coach.why.suji": ["筋", "suji"],
  "coach.why.kabe": ["壁", "wall (kabe)"],
  "coach.why.ready_seat": ["{who}像是聽牌了", "{who} looks ready"],
  "coach.why.declared": ["{who}已宣告聽牌", "{who} declared ready"],
  "coach.err.hints_off": ["這桌不開放教練提示", "Coach hints are off at this table"],
  "coach.err.no_decision": ["現在沒有要你決定的事", "Nothing to decide right now"],
  "coach.err.stale": ["這一步已經過了", "That move has passed"],
  "coach.err.rate_limited": ["問得太快了，稍後再問", "Too many questions: ask again in a moment"],
  "coach.err.hint_failed": ["教練這一步答不出來", "The coach has no answer for this one"],
  "room.hints": ["開放教練提示", "Coach hints allowed"],
  "room.hints.on": ["這個房間可以問教練", "Players may ask the coach in this room"],
  "room.hints.off": ["這個房間不開放教練提示", "No coach hints in this room"],
  "hint.wait_blocked": ["{tile}({n}·過水)", "{tile} ({n}, 過水: not now)"],
  "passed.until_non_winning_discard": ["過水：放過了胡，要等你打出一張不是胡牌的牌，才能再胡", "Passed win (過水): no win until you discard a tile that is not one of your winning tiles"],
  "passed.until_own_discard": ["過水：放過了胡，你下次打牌前不能胡", "Passed win (過水): no win until your next discard"],
  "passed.until_own_draw": ["過水：放過了 {tiles}，你下次摸牌前不能胡這張", "Passed win (過水): no win on {tiles} until your next draw"],
  "passed.refused": ["現在不能胡 — {why}", "You cannot win now — {why}"],
  "title.turn": ["● 輪到你", "● Your move"],
  "prompt.claim": ["可以鳴牌：{calls}", "You may call: {calls}"],
  "prompt.claim.tile": ["可以鳴牌 {tile}：{calls}", "You may call {tile}: {calls}"],
  "prompt.discard.click": ["輪到你：點一下牌拿起，再點一次打出", "Your turn: click a tile to lift it, click again to discard"],
  "prompt.wait": ["等待{who}", "Waiting for {who}"],
  "tile.not.allowed": ["這張牌現在不能打", "You cannot discard that tile now"],

  // toggles
  "toggle.sort": ["自動理牌", "Auto-sort"],
  "toggle.flower": ["自動補花", "Auto-flower"],
  "toggle.win": ["自動胡牌", "Auto-win"],
  "toggle.pass": ["自動過", "Auto-pass"],
  "toggle.sound": ["聲音", "Sound"],
  "toggle.hokkien": ["台語語音", "Taiwanese voice"],
  "settings": ["設定", "Settings"],

  // live-region announcements
  "ann.discard": ["{who} 打出 {tile}", "{who} discards {tile}"],
  "ann.discard.self": ["你 打出 {tile}", "You discard {tile}"],
  "ann.call": ["{who} {call}", "{who}: {call}"],
  "ann.draw_game": ["流局", "Draw game"],
  "ann.turn": ["輪到你出牌", "Your turn"],

  // end of hand (結算)
  "result.title": ["本局結算", "Hand result"],
  "result.draw": ["流局 — 無人胡牌", "Draw game — nobody won"],
  "result.winner": ["{who} 胡牌", "{who} wins"],
  "result.winner.self": ["你 胡牌", "You win"],
  "result.self_drawn": ["自摸", "self-drawn"],
  "result.dealt_in": ["{who} 放槍", "dealt in by {who}"],
  "result.dealt_in.self": ["你 放槍", "dealt in by you"],
  "result.win_tile": ["胡 {tile}", "on {tile}"],
  "result.tai": ["{n} 台", "{n} tai"],
  "result.total": ["合計", "Total"],
  "result.patterns": ["台型", "Patterns"],
  "result.pays": ["{from} 付 {to}", "{from} pays {to}"],
  "result.pays.self": ["你 付 {to}", "You pay {to}"],
  "result.pays.to_self": ["{from} 付 你", "{from} pays you"],
  "result.payments": ["誰付誰", "Who pays whom"],
  "result.scores": ["累計分數", "Running scores"],
  "result.col.hand": ["本局", "This hand"],
  "result.col.total": ["累計", "Total"],
  "result.hands": ["各家手牌", "Every hand"],
  "result.split": ["牌型", "Winning hand"],
  "result.next": ["下一局", "Next hand"],
  "result.next.in": ["下一局（{n}）", "Next hand ({n})"],
  "result.net": ["本局", "This hand"],
  "result.fee": ["活動費 {n}", "Fee {n}"],

  // tile names: numerals and suit words compose 一萬 … 九條, "1 Characters" …
  "tile.num": ["一,二,三,四,五,六,七,八,九", "1,2,3,4,5,6,7,8,9"],
  "tile.m": ["萬", "Characters"], "tile.p": ["筒", "Dots"], "tile.s": ["條", "Bamboo"],
  "tile.z": ["東,南,西,北,白板,青發,紅中", "East,South,West,North,White dragon,Green dragon,Red dragon"],
  "tile.f": ["春,夏,秋,冬,梅,蘭,菊,竹", "Spring,Summer,Autumn,Winter,Plum,Orchid,Chrysanthemum,Bamboo flower"],
  "tile.back": ["牌背", "Tile back"],

  // end of match (終局)
  "summary.title": ["終局結算", "Match result"],
  "summary.rank": ["第{n}名", "#{n}"],
  "summary.rating": ["積分 {before} → {after}（{d}）", "Rating {before} → {after} ({d})"],
  "summary.challenge.won": ["挑戰第 {n} 關成功！", "Challenge tier {n} beaten!"],
  "summary.challenge.lost": ["挑戰第 {n} 關失敗", "Challenge tier {n} not beaten"],
  "summary.leave": ["回到大廳", "Back to the lobby"],

  // lobby (大廳)
  "nav.lobby": ["大廳", "Lobby"],
  "nav.help": ["規則與台型", "Rules & tai"],
  "nav.games": ["我的牌局", "My games"],
  "nav.leaderboard": ["排行榜", "Leaderboard"],
  "account.guest": ["以訪客身分開始", "Play as a guest"],
  "account.name": ["名稱", "Name"],
  "account.password": ["密碼", "Password"],
  "account.login": ["登入", "Log in"],
  "account.register": ["註冊", "Register"],
  "account.logout": ["登出", "Log out"],
  "account.coins": ["籌碼 {n}", "{n} coins"],
  "account.rating": ["積分 {n}", "Rating {n}"],
  "account.guest.badge": ["訪客", "Guest"],
  "account.title": ["帳號", "Account"],
  "play.title": ["開始遊戲", "Play"],
  "play.quick": ["快速配對", "Quick match"],
  "play.ranked": ["積分賽", "Ranked match"],
  "play.bots": ["與電腦對戰", "Play against bots"],
  "play.challenge": ["挑戰賽 第 {n} 關", "Challenge tier {n}"],
  "play.challenge.done": ["挑戰賽已全部過關", "Every challenge tier beaten"],
  "play.profile": ["規則", "Rules"],
  "play.stake": ["底台", "Stakes"],
  "play.rounds": ["圈數", "Rounds"],
  "play.rounds.n": ["{n} 圈", "{n} rounds"],
  "play.rounds.n.one": ["{n} 圈", "{n} round"],
  "play.bots.who": ["電腦對手", "Bot opponents"],
  "bots.default": ["依底台自動安排", "Matched to the stakes"],
  "bots.adaptive": ["自動調整難度", "Adaptive difficulty"],
  "bots.levels": ["等級", "Levels"],
  "bots.tier": ["第 {n} 級角色", "Tier {n} characters"],
  "bots.level.L1": ["L1 新手", "L1 Beginner"],
  "bots.level.L2": ["L2 入門", "L2 Novice"],
  "bots.level.L3": ["L3 中級", "L3 Intermediate"],
  "bots.level.L4": ["L4 高手", "L4 Expert"],
  "bots.level.L5": ["L5 大師", "L5 Master"],
  "timer.idle": ["備用 {n} 秒", "{n}s spare"],
  "stake.low": ["小 ×{n}", "Low ×{n}"],
  "stake.mid": ["中 ×{n}", "Mid ×{n}"],
  "stake.high": ["大 ×{n}", "High ×{n}"],
  "profile.standard": ["標準（競賽規則）", "Standard (competition)"],
  "profile.classic": ["傳統", "Classic"],
  "profile.casual": ["休閒（線上報聽）", "Casual (online, 報聽)"],
  "room.title": ["私人房間", "Private room"],
  "room.create": ["建立房間", "Create a room"],
  "room.join": ["加入", "Join"],
  "room.code": ["房號", "Room code"],
  "room.code.show": ["房號 {code}，分享給朋友", "Room {code} — share the code"],
  "room.share": ["分享房號", "Share"],
  "room.share.text": ["來打台灣麻將！房號 {code}", "Come and play Taiwanese mahjong! Room code {code}"],
  "room.share.copied": ["已複製房號 {code}，貼給朋友吧", "Room code {code} copied: paste it to a friend"],
  "room.share.shared": ["已分享房號 {code}", "Room code {code} shared"],
  "room.share.failed": ["無法複製，請把房號 {code} 告訴朋友", "Could not copy: tell a friend the code {code}"],
  "lobby.online": ["{n} 人在線", "{n} online"],
  "room.start": ["開始（空位由電腦補上）", "Start (bots fill empty seats)"],
  "room.waiting": ["等待玩家加入…", "Waiting for players…"],
  "room.leave": ["離開房間", "Leave the room"],
  "room.left": ["已離開房間", "You left the room"],
  "room.empty": ["空位", "Empty seat"],
  "queue.waiting": ["配對中…（{n} 人等待，{s} 秒後由電腦補位）", "Matching… ({n} waiting, bots fill in {s}s)"],
  "queue.cancel": ["取消配對", "Cancel"],
  "queue.lost": ["連線中斷，配對已取消；連回來後請再按一次快速配對", "The connection dropped and the match was cancelled; tap Quick match again once it is back"],
  "leaderboard.title": ["積分排行榜", "Ranked leaderboard"],
  "leaderboard.games": ["{n} 場", "{n} games"],
  "leaderboard.games.one": ["{n} 場", "{n} game"],
  "leaderboard.empty": ["還沒有積分賽紀錄", "No ranked games yet"],
  "games.title": ["我的牌局", "My games"],
  "games.empty": ["還沒有牌局", "No games yet"],
  "games.replay": ["重播", "Replay"],
  "games.resume": ["回到牌桌", "Back to the table"],
  "games.rank": ["第{n}名 {score}", "#{n} {score}"],
  "status.offline": ["無法連線到伺服器", "Cannot reach the server"],
  "status.connecting": ["連線中…", "Connecting…"],
  "status.error": ["發生錯誤：{m}", "Something went wrong: {m}"],
  "back": ["返回", "Back"],

  // help (規則與台型說明)
  "help.title": ["台型說明", "Patterns and tai"],
  "help.intro": ["以下每一種台型都直接取自目前規則的資料，台數與計分器一致。", "Every pattern below comes from the active rule profile's data, so it always matches the scorer."],
  "help.example": ["範例", "Example"],
  "help.unavailable": ["暫時無法取得台型資料", "The pattern list is not available right now"],
  "help.disabled": ["選用台型：目前的規則沒有啟用，範例因此不計此台", "Optional pattern: the active rules switch it off, so the example does not count it"],
  "help.per": ["每組 {n} 台", "{n} tai each"],
  "help.win": ["胡 {tile}", "wins on {tile}"],

  // replay (牌局重播)
  "replay.title": ["牌局重播", "Replay"],
  "replay.first": ["回到開頭", "First"],
  "replay.prev": ["上一步", "Back"],
  "replay.next": ["下一步", "Forward"],
  "replay.last": ["到最後", "Last"],
  "replay.step": ["第 {i} / {n} 步", "Step {i} of {n}"],
  "replay.hand": ["第 {n} 局", "Hand {n}"],
  "replay.unavailable": ["這局的重播暫時無法取得", "This replay is not available right now"],
  // 牌譜分析: the AI reviews the player's own decisions in the replay
  "analysis.title": ["AI 牌譜分析", "AI review"],
  "analysis.loading": ["AI 分析中…", "The AI is reviewing this hand…"],
  "analysis.queued": ["AI 分析排隊中：前面還有 {n} 局", "The AI's review is queued: {n} hands ahead"],
  "analysis.queued.one": ["AI 分析排隊中：前面還有 {n} 局", "The AI's review is queued: {n} hand ahead"],
  "analysis.progress": ["AI 分析中：{done} / {total} 個決定", "The AI is reviewing this hand: {done} of {total} decisions"],
  "analysis.unavailable": ["這局的分析暫時無法取得", "The review is not available right now"],
  "analysis.busy": ["AI 還在分析你的其他牌局，請稍後再看這局", "The AI is still reviewing your other hands; come back to this one in a moment"],
  "analysis.you": ["你：{move}", "You: {move}"],
  "analysis.ai": ["AI：{move}", "AI: {move}"],
  "analysis.discard": ["打出 {tile}", "discard {tile}"],
  "analysis.loss": ["期望損失 {loss} ± {spread} 分", "Expected loss {loss} ± {spread} points"],
  "analysis.mistake": ["失誤", "Mistake"],
  "analysis.agrees": ["與 AI 相同", "Same as the AI"],
  "analysis.summary": ["本局 {n} 個失誤，共損失約 {loss} 分", "{n} mistakes this hand, about {loss} points given away"],
  "analysis.summary.one": ["本局 {n} 個失誤，共損失約 {loss} 分", "{n} mistake this hand, about {loss} points given away"],
  "analysis.summary.clean": ["本局沒有失誤，也沒有損失", "No mistakes this hand, nothing given away"],
  "analysis.costliest": ["最貴的決定", "Costliest decisions"],
  "analysis.turn": ["第 {n} 巡", "Turn {n}"],
  "analysis.none": ["這局你沒有需要選擇的決定", "You had no choice to make in this hand"],
  "analysis.mark": ["第 {n} 步：{move}", "Step {n}: {move}"],
  "analysis.legend": ["標記的顏色", "What the marks mean"],
  "analysis.legend.agree": ["與 AI 相同", "Same as the AI"],
  "analysis.legend.differ": ["與 AI 不同，損失小", "Differs, small loss"],
  "analysis.legend.mistake": ["失誤", "Mistake"],

  // the table's controls: leave, 託管, what is played
  "table.leave": ["離開", "Leave"],
  "table.auto.on": ["託管", "Auto-play"],
  "table.auto.cancel": ["取消託管", "Take back control"],
  "table.auto.banner": ["託管中：電腦正在替你出牌", "Auto-play: the computer is playing for you"],
  "leave.title": ["離開牌桌？", "Leave the table?"],
  "leave.bot": ["牌局會繼續：電腦會替你坐在這個位子上出牌（託管），直到你回來或牌局結束。", "The game goes on: a bot keeps your seat and plays for you (auto-play) until you come back or the match ends."],
  "leave.stake": ["輸贏照算：每局結算都會從你的籌碼增減（{mode}，{stake}），目前籌碼 {coins}。", "Coins still count: every hand settles against your coins ({mode}, {stake}); you have {coins} now."],
  "leave.stake.nocoins": ["輸贏照算：每局結算都會從你的籌碼增減（{mode}，{stake}）。", "Coins still count: every hand settles against your coins ({mode}, {stake})."],
  "leave.back": ["隨時可以從大廳的「回到牌桌」回來。若桌上沒有其他玩家，牌局會暫停等你。", "Come back any time with Rejoin in the lobby. If no other person is at the table, the game waits for you."],
  "leave.confirm": ["離開牌桌", "Leave the table"],
  "leave.stay": ["繼續遊戲", "Keep playing"],
  "mode.casual": ["一般場", "Unranked"],
  "mode.ranked": ["積分賽", "Ranked"],
  "mode.challenge": ["挑戰賽", "Challenge"],
  "speed.fast": ["快", "Fast"],
  "speed.standard": ["標準", "Standard"],
  "speed.slow": ["慢", "Slow"],
  "speed.detail": ["{name}（每手 {base} 秒＋備用 {bank} 秒）", "{name} ({base}s a move + {bank}s bank)"],
  "play.speed": ["速度", "Speed"],
  "table.info": ["{mode} · {stake} · {speed}", "{mode} · {stake} · {speed}"],
  "table.info.rules": ["{mode} · {rules} · {stake} · {speed}", "{mode} · {rules} · {stake} · {speed}"],
  "rules.short.standard": ["標準規則", "Standard rules"],
  "rules.short.classic": ["傳統規則", "Classic rules"],
  "rules.short.casual": ["休閒規則", "Casual rules"],
  "timer.bank.label": ["備用", "Bank"],
  "next.in": ["{n} 秒後自動開始下一局", "Next hand starts by itself in {n}s"],
  "next.waiting": ["已準備，等待其他玩家（{n} 位）…", "Ready — waiting for {n} other players…"],
  "next.waiting.one": ["已準備，等待其他玩家（{n} 位）…", "Ready — waiting for {n} other player…"],
  "next.ready": ["已準備", "Ready"],
  "result.coins": ["你的籌碼 {before} → {after}（{d}）", "Your coins {before} → {after} ({d})"],
  "games.active": ["進行中的牌局", "Games in progress"],
  "games.active.row": ["{mode} · {stake} · {players}", "{mode} · {stake} · {players}"],
  "games.status.active": ["進行中", "In progress"],
  // the link to the server (a lost connection, said at once; the reopening counted)
  "link.lost": ["連線中斷，正在重新連線…（第 {n} 次）", "Connection lost — reconnecting… (attempt {n})"],
  "link.back": ["已重新連線", "Reconnected"],
  "link.wait": ["連線中斷：連回來之前不能出牌，計時暫停顯示", "Connection lost: moves wait until it is back (clocks paused)"],
  "link.twice": ["這個帳號在另一個分頁也坐在這桌，兩邊都可以出牌", "This account also sits at this table in another tab; either tab can play"],
  // 認輸 / too many tables
  "games.forfeit": ["認輸", "Forfeit"],
  "games.forfeited": ["已認輸", "Forfeited"],
  "forfeit.title": ["認輸這一局？", "Forfeit this game?"],
  "forfeit.alone": ["桌上只有你一位玩家：牌局現在結束。已經結算的各局照算，正在打的這一局不算。", "You are the only person at this table: the game ends now. Hands already settled stand; the hand in play does not count."],
  "forfeit.others": ["桌上還有其他玩家：電腦會替你把這個位子打到終局，輸贏照算，你不能再回到這一桌。", "Other people sit at this table: a bot plays your seat to the end, coins still count, and you cannot return to this game."],
  "forfeit.confirm": ["認輸", "Forfeit"],
  "forfeit.keep": ["不要，留著", "No, keep it"],
  "forfeit.ended": ["牌局已結束", "The game has ended"],
  "forfeit.bot": ["電腦會替你打完這一局", "A bot plays your seat to the end"],
  "refusal.too_many": ["你同時進行的牌局太多了。回到其中一桌打完，或認輸結束一桌，就能開新的牌局。", "You are at too many tables. Go back to one and finish it, or forfeit one, and you can start a new game."],
  "refusal.close": ["知道了", "OK"],

  // how to play (玩法規則) and the first hand (新手教學)
  "nav.rules": ["玩法", "How to play"],
  "rules.title": ["玩法規則", "How to play"],
  "rules.intro": ["以下規則直接取自目前的規則設定，伺服器怎麼打，這裡就怎麼寫。", "These rules are written from the active rule profile: this is how this server plays."],
  "rules.learn": ["跟著教學打第一手", "Play a guided first hand"],
  "rules.controls": ["操作", "Controls"],
  "rules.controls.touch": ["點一下牌放大，再點一次或往上滑就打出；吃、碰、槓、胡、聽的按鈕在手牌上方出現。",
    "Tap a tile to lift it, tap it again or swipe it up to throw it; the chi, pong, kong, win and ready buttons appear above your hand."],
  "rules.controls.keys": ["有鍵盤時：← → 選牌，Enter 或空白鍵打出；C 吃、P 碰、K 槓、W 胡（自摸）、T 聽、D 摸海底、X 過，數字鍵選吃法或槓法，Esc 關閉；結算時 Enter 是下一局。按鈕角落標著它的鍵。重播時 ← → 一步一步看，Home、End 到開頭、最後。",
    "With a keyboard: ← → pick a tile, Enter or Space throws it; C chi, P pong, K kong, W win (self-draw), T ready, D draw the last tile, X pass, a digit picks a chi or a kong, Esc closes; at a hand's result Enter is next hand. Each button shows its key in its corner. In a replay ← → step, Home and End go to the start and the end."],
  "rules.claims": ["吃、碰、槓", "Chi, pong and kong"],
  "rules.chi": ["吃：只能吃上家剛打出的牌，和手上兩張組成順子。", "Chi: only the discard of the player on your left, to make a run with two of your tiles."],
  "rules.pon": ["碰：任何人打出的牌，你手上有一對就能碰，組成刻子；碰比吃優先。", "Pong: anyone's discard, when you hold a pair of it, makes a set of three; pong goes before chi."],
  "rules.kong": ["槓：有三張時可以槓別人打出的第四張（明槓），自己摸到四張可暗槓，碰過的再摸到第四張可加槓；槓完從牌尾補一張。", "Kong: with three in hand you may claim the fourth (open kong); four drawn yourself make a closed kong; a pong plus the fourth drawn is an added kong. A kong draws a replacement from the end of the wall."],
  "rules.after_pon.forbidden": ["碰牌後不能接著打出同一張牌。", "After a pong you may not discard the same tile at once."],
  "rules.after_pon.forfeits": ["碰牌後打出同一張牌，這局就不能胡。", "Discarding the same tile right after a pong forfeits the win this hand."],
  "rules.no_claims_last": ["牌牆只剩最後 {n} 張時，不能吃、碰、槓。", "With only {n} tiles left in the wall, nobody may chi, pong or kong."],
  "rules.multiple.nearest": ["兩人以上同時胡同一張牌：由放槍者下家起，順序最近的人胡（攔胡）。", "If several players can win on one discard, the nearest in turn after the discarder wins."],
  "rules.multiple.all": ["兩人以上同時胡同一張牌：每個人都可以胡（一炮多響）。", "If several players can win on one discard, all of them win."],
  "rules.flowers": ["補花", "Flowers"],
  "rules.flower": ["摸到花牌（春夏秋冬、梅蘭菊竹）要亮在桌上，再從牌尾補一張；和自己座位相合的花每朵 {n} 台。", "A flower (seasons, plants) drawn is laid on the table and replaced from the end of the wall; each flower that matches your seat is worth {n} tai."],
  "rules.passed": ["過水", "Passing a win (過水)"],
  "rules.passed.until_non_winning_discard": ["放過可以胡的牌之後就是「過水」：要等你自己打出一張不是胡牌的牌才解除，解除前不能胡牌（自摸也不行）。", "After passing a win you are 過水: until you yourself discard a tile that is not a winning tile, you may not win at all (not even by self-draw)."],
  "rules.passed.until_own_discard": ["放過可以胡的牌之後就是「過水」：你下一次打牌後才解除。", "After passing a win you are 過水 until your own next discard."],
  "rules.passed.until_own_draw": ["放過可以胡的牌之後就是「過水」：你下一次摸牌後才解除。", "After passing a win you are 過水 until your own next draw."],
  "rules.last": ["海底", "The last tile (海底)"],
  "rules.dead_wall": ["牌尾固定保留 {stacks} 墩（{n} 張）不摸。", "The last {stacks} stacks ({n} tiles) of the wall are never drawn."],
  "rules.last_tile": ["摸到可以摸的最後一張牌就胡叫「海底撈月」，加 {n} 台。", "Winning on the very last tile that may be drawn is 海底撈月, worth {n} tai more."],
  "rules.decline_last": ["海底牌可以選擇不摸；摸了就要打出一張。", "You may decline the last tile; if you draw it you must discard."],
  "rules.drawn": ["流局", "Draw game (流局)"],
  "rules.draw_game": ["牌摸到只剩保留的 {n} 張還沒有人胡，就是流局：沒有人付錢，莊家連莊。", "When only the {n} kept tiles remain and nobody has won, the hand is drawn: nobody pays and the dealer deals again."],
  "rules.streak": ["連莊", "Dealer streak (連莊)"],
  "rules.dealer": ["莊家胡牌或流局就連莊。莊家輸贏加 {n} 台，每連一次再加 {m} 台（連一拉一、連二拉二……）。", "The dealer deals again after winning or a draw. Hands with the dealer count {n} tai more, and {m} more for each deal kept (連1拉1, 連2拉2, …)."],
  "rules.winds.wall_break": ["開門的位子是這局的東，所以莊家不一定坐東。", "The seat where the wall is broken is East for the hand, so the dealer need not sit East."],
  "rules.winds.dealer": ["風位從莊家算起，莊家坐東。", "Winds are counted from the dealer, who sits East."],
  "learn.title": ["教學 {n}/{of}：", "Step {n} of {of}:"],
  "learn.draw": ["你是莊家，摸進了「東」。點一下東把它拿起來，再點一次（或往上滑）打出去。", "You deal and drew East. Tap it to lift it, then tap again (or swipe up) to discard it."],
  "learn.draw.hint": ["先打出剛摸進、發亮的那張「東」。", "Discard the East you just drew — the bright one."],
  "learn.pon": ["上家打出五筒，你手上有一對五筒：按「碰」把它拿來。", "The player on your left threw 5 Dots and you hold a pair: press Pong to take it."],
  "learn.pon.hint": ["這次請按「碰」。", "This time, press Pong."],
  "learn.after_pon": ["碰完要打一張牌：打出用不到的三條。", "After a pong you discard: throw the 3 Bamboo you do not need."],
  "learn.after_pon.hint": ["請打出三條。", "Discard the 3 Bamboo."],
  "learn.declare": ["只差一張就胡了（等六筒或九筒）：按「聽」，再打出南宣告聽牌。", "One tile from winning (6 or 9 Dots): press Ready, then discard South to declare."],
  "learn.declare.hint": ["先按「聽」，再打出南。", "Press Ready first, then discard South."],
  "learn.win": ["下家打出六筒，正是你要的牌：按「胡」！", "The player on your right threw 6 Dots, your winning tile: press Win!"],
  "learn.win.hint": ["這是你要的牌，按「胡」。", "That is your tile: press Win."],
  "learn.done.title": ["胡了！", "You won!"],
  "learn.done": ["你學會了摸牌打牌、碰、聽和胡。接下來和電腦打一局吧。", "You have drawn and discarded, made a pong, declared ready and won. Now play a game against the bots."],
  "learn.play": ["去大廳開始遊戲", "To the lobby"],
  "learn.again": ["再練一次", "Again"],

  // the settings panel (設定)
  "settings.open": ["設定", "Settings"],
  "settings.on": ["開", "On"],
  "settings.off": ["關", "Off"],
  "settings.voice": ["語音", "Voice"],
  "settings.voice.cmn": ["普通話", "Mandarin"],
  "settings.voice.nan": ["台語", "Taiwanese (Hokkien)"],
  "settings.voice.recorded": ["真人錄音（本伺服器提供）", "recorded calls from this server"],
  "settings.voice.browser": ["瀏覽器語音", "the browser's voice"],
  "settings.voice.fallback": ["這台裝置沒有台語語音，會改用普通話", "no Taiwanese voice on this device: Mandarin is used instead"],
  "settings.voice.fallback.nan": ["這台裝置沒有普通話語音，會改用台語錄音", "no Mandarin voice on this device: the Taiwanese recordings are used"],
  "settings.voice.none": ["這台裝置沒有中文語音，不會唸出", "no Chinese voice on this device: calls stay silent"],
  "settings.voice.try": ["試聽「碰」", "Try 碰"],
  "settings.hints": ["聽牌提示", "Ready hints"],
  "settings.coach": ["教練", "Coach"],
  "settings.coach.off": ["關", "Off"],
  "settings.coach.ask": ["想問時", "On request"],
  "settings.coach.always": ["每一步", "Always"],
  "settings.coach.note": ["電腦高手在旁邊：它會怎麼打、為什麼，每張牌的危險度與進張（只在電腦桌、教學與允許提示的私人房）",
    "The AI at your elbow: what it would play and why, each tile's danger and what improves it (bot tables, the tutorial, and private rooms that allow hints)"],
  "settings.deal": ["開局說明", "The deal explained"],
  "settings.deal.note": ["每局開始時說明骰子、開門和莊家坐哪裡", "At each hand's start: the dice, where the wall breaks, where the dealer sits"],
  "settings.hints.note": ["標出打出後能聽牌的牌，並列出聽哪些牌、還剩幾張", "Marks the discards that leave you ready, with what you wait on and how many are left"],
  "settings.tiles": ["牌的大小", "Tile size"],
  "settings.tiles.s": ["小", "Small"],
  "settings.tiles.m": ["中", "Medium"],
  "settings.tiles.l": ["大", "Large"],
  "settings.speed": ["牌桌速度", "Table speed"],
  "settings.speed.note": ["你建立的牌桌（與電腦對戰、私人房間）用這個速度", "Used for the tables you make (against bots, private rooms)"],
  "settings.lang": ["語言", "Language"],
  "settings.close": ["完成", "Done"],

  // the deal: dice and 開門, and why the dealer sits where they do
  "deal.title": ["擲骰開門", "Dice and the wall break"],
  "deal.dice": ["骰子 {a}＋{b}＋{c}＝{sum} 點", "Dice {a} + {b} + {c} = {sum}"],
  "deal.break.self": ["你作莊，擲出 {sum} 點，從{breaker}前面的牌牆開門。", "You deal and rolled {sum}: the wall is broken in front of {breaker}."],
  "deal.break": ["{dealer}作莊，擲出 {sum} 點，從{breaker}前面的牌牆開門。", "{dealer} deals and rolled {sum}: the wall is broken in front of {breaker}."],
  "deal.wall_break": ["依規則，開門的位子就是本局的東，所以莊家坐{wind}。", "By these rules the seat where the wall breaks is East for the hand, so the dealer sits {wind}."],
  "deal.from_dealer": ["依規則，風位從莊家算起，莊家坐東。", "By these rules the winds are counted from the dealer, who sits East."],
  "deal.close": ["知道了", "Got it"],
  "deal.never": ["不再顯示", "Don't show again"],
  "seat.breaker.self": ["你", "you"],

  // 挑戰賽 ladder
  "ladder.title": ["挑戰賽天梯", "Challenge ladder"],
  "ladder.progress": ["已過 {n} / 5 關", "{n} of 5 tiers beaten"],
  "ladder.tier": ["第 {n} 關", "Tier {n}"],
  "ladder.beaten": ["已過關", "Beaten"],
  "ladder.current": ["挑戰中", "Next up"],
  "ladder.locked": ["未解鎖", "Locked"],
  "ladder.unlock": ["打贏第 {n} 關（終局拿下第一名）即可解鎖第 {m} 關", "Finish first in tier {n} to unlock tier {m}"],
  "ladder.last": ["打贏第 5 關就全部過關！", "Beat tier 5 to complete the ladder!"],
  "ladder.done": ["五關全部過關，恭喜！", "All five tiers beaten — congratulations!"],
  "ladder.play": ["挑戰第 {n} 關", "Play tier {n}"],
  "persona.tier": ["{n}級", "T{n}"],
  "table.mode.tier": ["{mode} 第 {n} 關", "{mode} tier {n}"],

  // 新人禮包 and 每日登入獎勵
  "gift.welcome.title": ["新人禮包", "Welcome gift"],
  "gift.welcome": ["歡迎加入！送你新人禮包 {n} 籌碼，已存入你的帳戶。", "Welcome! Your welcome gift of {n} coins is in your account."],
  "gift.daily.title": ["每日登入獎勵", "Daily login bonus"],
  "gift.daily": ["今天的登入獎勵 +{n} 籌碼已存入，明天再來領！", "Today's bonus of +{n} coins is in your account — come back tomorrow!"],
  "gift.close": ["收下", "Thanks"],
  "gift.icon": ["禮", "禮"],

  // errors from the server, by reason then by code (docs/protocol.md, Errors)
  "err.reason.name_format": ["名稱需 2–20 個字（中文、英文字母、數字、- 或 _），且不能以 guest 開頭", "A name has 2–20 letters, digits, Chinese characters, - or _, and may not start with guest"],
  "err.reason.password_length": ["密碼需 6–128 個字元", "A password has 6 to 128 characters"],
  "err.reason.name_taken": ["這個名稱已經有人使用", "That name is taken"],
  "err.reason.wrong_password": ["名稱或密碼錯誤", "Wrong name or password"],
  "err.reason.session_expired": ["登入已過期，請重新登入", "Your session has expired; please log in again"],
  "err.reason.session_invalid": ["登入資訊無效，請重新登入", "Your session is not valid; please log in again"],
  "err.reason.room_not_found": ["找不到房號 {code} 的房間", "No room with code {code}"],
  "err.reason.room_started": ["這個房間的牌局已經開始", "This room's game has already started"],
  "err.reason.room_full": ["這個房間已經坐滿", "This room is full"],
  "err.reason.invalid_field": ["「{field}」的內容不符合要求", "The {field} field is not valid"],
  "err.code.auth": ["請先登入", "Please log in"],
  "err.code.forbidden": ["你沒有權限這樣做", "You are not allowed to do that"],
  "err.code.bad_request": ["這個要求無法處理", "That request cannot be handled"],
  "err.code.not_found": ["找不到", "Not found"],
  "err.code.conflict": ["目前無法這樣做", "That cannot be done right now"],
  "err.code.too_many_tables": ["你同時進行的牌局太多了，請先完成或回到進行中的牌局", "You are at too many tables; finish or rejoin a game in progress first"],
  "err.code.no_game": ["找不到這一局，或你不在這一局裡", "No such game, or you are not in it"],
  "err.code.game_over": ["這一局已經結束了", "That game is already over"],
  "err.code.forfeited": ["你已認輸這一局，不能再回到這一桌", "You forfeited this game and cannot return to its table"],
  "err.code.rate_limited": ["操作太頻繁，請稍候再試", "Too many attempts; wait a moment"],
  "err.code.too_large": ["送出的資料太大", "That request is too large"],
  "err.code.illegal_action": ["現在不能這樣出牌", "That move is not allowed now"],
  "err.code.not_seated": ["你不在牌桌上", "You are not seated at a table"],
  "err.code.no_table": ["這場牌局已經結束或不存在", "That game is over or does not exist"],
  "err.code.not_started": ["這桌還沒開始，請稍候再試", "That table has not started yet; try again in a moment"],
  "err.code.already_queued": ["你已經在配對中", "You are already waiting for a table"],
  "err.code.unavailable": ["伺服器暫時連不上資料庫，請稍候再試", "The server cannot reach its storage just now; try again in a moment"],
  "err.code.internal_error": ["伺服器處理失敗，牌局會繼續", "The server failed on that; the game goes on"],
  "err.code.table_closed": ["牌局無法繼續，已結束", "The table could not go on and has ended"],
  "err.code.not_authenticated": ["請先登入", "Please log in"],
  "err.code.talk_too_fast": ["說太快了，每 3 秒一句", "Too fast: one phrase every 3 seconds"],
  "err.code.watcher_silent": ["觀戰中不能發言（外插不得影響行牌）", "Watchers cannot talk to the table"],
  "err.code.unknown_phrase": ["沒有這句快捷語", "No such phrase"],
  "err.code.unknown_emote": ["沒有這個表情", "No such emote"],
  "err.code.not_friends": ["只能觀戰好友的牌桌", "You can watch a friend's table only"],
  "err.code.watch_forbidden": ["房主不開放觀戰", "The host does not allow watching"],
  "err.code.guest": ["註冊後才能加好友與觀戰", "Register to have friends and watch"],
  "err.code.seated": ["你正在牌桌上", "You are seated at a table"],
  "err.code.gone": ["邀請已過期", "That invitation has expired"],
  "err.reason.guest": ["訪客不能加好友，註冊後即可", "Guests cannot have friends; register first"],
  "err.reason.no_account": ["找不到這位玩家", "No player by that name"],
  "err.reason.self": ["不能加自己為好友", "You cannot befriend yourself"],
  "err.reason.already_friends": ["你們已經是好友了", "You are friends already"],
  "err.reason.blocked": ["你已封鎖這位玩家，請先解除封鎖", "You blocked this player; unblock them first"],
  "err.reason.no_request": ["沒有這位玩家的好友邀請", "No friend request from this player"],
  "err.reason.not_friends": ["只能邀請好友", "You can invite friends only"],
  "err.reason.not_in_room": ["你不在這個房間", "You are not in this room"],
  "err.reason.invite_expired": ["邀請已過期", "That invitation has expired"],

  // table talk (快捷語 / 表情) and watching (觀戰)
  "talk.open": ["快捷語", "Chat"],
  "talk.title": ["快捷語與表情", "Phrases and emotes"],
  "talk.close": ["關閉", "Close"],
  "talk.mute": ["靜音", "Mute"],
  "talk.mute.all": ["全部", "Everyone"],
  "talk.watchers": ["{n} 人觀戰", "{n} watching"],

  // 開黑: voice at the table (voice.js)
  "voice.title": ["語音聊天（開黑）", "Voice chat"],
  "voice.open": ["語音", "Voice"],
  "voice.on": ["語音中", "In voice"],
  "voice.join": ["加入語音", "Join voice"],
  "voice.joining": ["連線中…", "Joining…"],
  "voice.leave": ["離開語音", "Leave voice"],
  "voice.ptt": ["按住說話", "Hold to talk"],
  "voice.listen": ["收聽語音", "Listen"],
  "voice.unlisten": ["停止收聽", "Stop listening"],
  "voice.listening": ["收聽中", "Listening"],
  "voice.listeners": ["{n} 位觀戰者在收聽", "{n} watching and listening"],
  "voice.note.listen": ["房主開放觀戰者收聽：你聽得到語音，但牌桌聽不到你。", "The host lets watchers listen: you hear the table's voice, and the table cannot hear you."],
  "voice.mode": ["說話方式", "How you talk"],
  "voice.mode.open": ["開放麥克風", "Open mic"],
  "voice.mode.ptt": ["按住說話", "Push to talk"],
  "voice.mute": ["靜音", "Mute"],
  "voice.unmute": ["取消靜音", "Unmute"],
  "voice.mic.off": ["關麥克風", "Mic off"],
  "voice.mic.on": ["開麥克風", "Mic on"],
  "voice.state.in": ["語音中", "in voice"],
  "voice.state.connecting": ["連線中", "connecting"],
  "voice.state.out": ["未加入", "not in voice"],
  "voice.state.open": ["麥克風開著", "mic open"],
  "voice.state.micoff": ["麥克風關閉", "mic off"],
  "voice.state.ptt": ["按住才說話（V 鍵）", "hold to talk (V key)"],
  "voice.note.room": ["聲音直接在玩家的瀏覽器之間傳送，伺服器只幫忙接通。", "Sound goes straight between the players' browsers; the server only connects them."],
  "voice.note.quick": ["快速配對的牌桌：只聽得到也同意和陌生人語音的玩家。", "A quick-match table: you hear only players who also allowed voice with strangers."],
  "voice.setting": ["語音聊天（開黑）", "Voice chat at the table"],
  "voice.setting.note": ["在私人房間自動加入語音；牌桌上的「語音」也可以隨時加入或離開", "Join the voice of private rooms by yourself; the table's Voice button joins or leaves at any time"],
  "voice.quick": ["快速配對也開語音", "Voice at quick-match tables"],
  "voice.quick.note": ["和陌生人同桌時也可以語音；只有同樣打開這項的人聽得到你", "Voice with strangers too; only those who also turned this on hear you"],
  "err.code.voice_no_mic": ["無法使用麥克風，請允許瀏覽器使用麥克風", "The microphone cannot be used: allow this site to use it"],
  "err.code.voice_forbidden": ["房主關閉了這桌的語音", "The host turned voice off at this table"],
  "err.code.voice_quick": ["快速配對牌桌的語音要先在設定中打開", "Turn on voice at quick-match tables in Settings first"],
  "err.code.voice_watcher": ["觀戰時不能加入語音", "Watchers cannot join the table's voice"],
  "err.code.voice_too_fast": ["語音訊息太頻繁，請稍等", "Too many voice messages; wait a moment"],
  "err.code.voice_off": ["請先加入語音", "Join voice first"],
  "err.code.voice_other_table": ["只能和同桌的玩家語音", "Voice is only with your own table"],
  "err.code.voice_no_peer": ["那個座位沒有人在語音中", "Nobody at that seat is in voice"],
  "watch.title": ["觀戰中", "Watching"],
  "watch.delay": ["畫面延遲 {n} 手（一巡），只看得到公開的牌", "{n} discards behind (one round); public tiles only"],
  "watch.wait": ["等待延遲中……", "Waiting out the delay…"],
  "watch.leave": ["離開觀戰", "Stop watching"],
  "watch.hand_end": ["第 {n} 局結束，牌已攤開", "Hand {n} is over"],
  "watch.game_end": ["牌局結束", "The game is over"],
  "watch.result.close": ["看牌桌", "Back to the board"],

  // friends (好友) and invitations (邀請)
  "friends.title": ["好友", "Friends"],
  "friends.add": ["加好友", "Add friend"],
  "friends.name": ["玩家名稱", "Player name"],
  "friends.none": ["還沒有好友。輸入名稱或從最近同桌加好友。", "No friends yet. Add one by name or from recent tablemates."],
  "friends.guest": ["訪客不能加好友，註冊後即可。", "Guests cannot have friends; register to add some."],
  "friends.incoming": ["好友邀請", "Friend requests"],
  "friends.outgoing": ["等待回覆", "Waiting for an answer"],
  "friends.recent": ["最近同桌", "Recent tablemates"],
  "friends.blocked": ["已封鎖", "Blocked"],
  "friends.accept": ["接受", "Accept"],
  "friends.decline": ["拒絕", "Decline"],
  "friends.remove": ["移除", "Remove"],
  "friends.block": ["封鎖", "Block"],
  "friends.unblock": ["解除封鎖", "Unblock"],
  "friends.invite": ["邀請", "Invite"],
  "friends.watch": ["觀戰", "Watch"],
  "friends.sent": ["已送出好友邀請給 {name}", "Friend request sent to {name}"],
  "friends.now": ["你和 {name} 成為好友了", "You and {name} are friends now"],
  "friend.status.offline": ["離線", "Offline"],
  "friend.status.lobby": ["在大廳", "In the lobby"],
  "friend.status.table": ["牌桌中", "At a table"],
  "friend.status.watching": ["觀戰中", "Watching"],
  "notice.friend_request": ["{from} 想加你為好友", "{from} wants to be your friend"],
  "notice.friend_accepted": ["{from} 和你成為好友了", "{from} is your friend now"],
  "notice.invite": ["{from} 邀請你到私人房 {code}", "{from} invites you to room {code}"],
  "notice.invite_declined": ["{from} 婉拒了你的邀請", "{from} declined your invitation"],
  "notice.join": ["加入", "Join"],
  "notice.decline": ["婉拒", "Decline"],
  "notice.expires": ["{n} 秒後失效", "expires in {n}s"],
  "notice.invited": ["已邀請 {name}", "Invited {name}"],
  "room.watch": ["開放好友觀戰", "Friends may watch"],
  "room.voice": ["開放語音聊天（開黑）", "Players may use voice chat"],
  "room.voice_watchers": ["觀戰者可以收聽語音", "Watchers may listen to the voice chat"],
  "err.unknown": ["發生錯誤（{code}）", "Something went wrong ({code})"],
  "field.password": ["密碼", "password"],
  "field.name": ["名稱", "name"],

  // dev page
  "dev.title": ["牌桌預覽", "Table preview"],
  "dev.sent": ["送出的動作", "Actions sent"],
};

const listeners = new Set();
let current = initialLang();
if (globalThis.document) document.documentElement.lang = current;

function initialLang() {
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch {
    /* storage blocked (private mode): fall back to the browser's language */
  }
  return browserLang(globalThis.navigator?.languages || [globalThis.navigator?.language]);
}

/** The page's language for a browser's list (navigator.languages), the first one
 * deciding: Chinese reads zh-TW, any other language English; none, zh-TW. Only the
 * player's own switch (setLang) is stored, so the browser decides until they choose. */
export function browserLang(list) {
  const first = (list || []).find(Boolean);
  if (!first) return "zh-TW";
  return /^zh\b/i.test(first) ? "zh-TW" : "en";
}

export function getLang() {
  return current;
}

export function setLang(lang) {
  if (!LANGS.includes(lang)) throw new Error(`unknown language ${lang}`);
  current = lang;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    /* not persisted; the switch still works for this page */
  }
  if (globalThis.document) document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function toggleLang() {
  setLang(current === "zh-TW" ? "en" : "zh-TW");
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Strings a module keeps beside itself (myvoice.js), in the table's shape: {key: [zh-TW, en]}. */
export function addStrings(more) {
  for (const [key, pair] of Object.entries(more)) if (!(key in TABLE)) TABLE[key] = pair;
}

export function hasKey(key) {
  return key in TABLE;
}

/** The string for `key` in the current language, with {name} filled in. */
export function t(key, params = {}) {
  const entry = TABLE[key];
  if (!entry) throw new Error(`missing translation key ${key}`);
  const s = entry[current === "zh-TW" ? 0 : 1];
  return s.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** ``t`` for a count: English says "1 hand" and "2 hands" (a key's ".one" form). */
export function tn(key, n, params = {}) {
  const one = `${key}.one`;
  return t(n === 1 && hasKey(one) ? one : key, { n, ...params });
}

/**
 * A server error in the page's language: by its `reason` (which failure), else its
 * `code`; the server's English `message` is never shown. `params` fill the text
 * (e.g. the room code the player typed).
 */
export function errorText({ code = "", reason = null, field = null } = {}, params = {}) {
  if (reason && hasKey(`err.reason.${reason}`)) {
    const f = field && hasKey(`field.${field}`) ? t(`field.${field}`) : field;
    return t(`err.reason.${reason}`, { field: f ?? "", ...params });
  }
  if (code && hasKey(`err.code.${code}`)) return t(`err.code.${code}`, params);
  return t("err.unknown", { code: code || "?" });
}

/** Choose between profile data's own names: {zh, en}. */
export function pick(obj) {
  return current === "zh-TW" ? obj.zh : obj.en;
}

/** The spoken/written name of a tile code, e.g. 5s -> 五條 / 5 Bamboo. */
export function tileName(code) {
  if (code === "back") return t("tile.back");
  const rank = Number(code[0]);
  const suit = code[1];
  if (suit === "z" || suit === "f") return t(`tile.${suit}`).split(",")[rank - 1];
  const num = t("tile.num").split(",")[rank - 1];
  return current === "zh-TW" ? `${num}${t(`tile.${suit}`)}` : `${num} ${t(`tile.${suit}`)}`;
}

/** Fill [data-i18n] text, [data-i18n-label] aria-labels and [data-i18n-title] titles. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

export function allKeys() {
  return Object.keys(TABLE);
}

"""The app's own words, in Traditional Chinese and English (the game's messages come from ``game.text``).

Every label the app shows is a :class:`Words`; the view picks one language with :meth:`Words.text`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.english import agreed, chinese
from companion.names import chinese_filled
from companion.rules.efficiency import from_ready

__all__ = ["Words", "Asked", "asked", "refused", "UI", "LANGS", "NAME_FIELDS", "ui", "unbroken", "WORD_JOINER", "SEP"]

LANGS = ("zh", "en")
"""The languages the app speaks; zh (zh-TW) is the default."""


@dataclass(frozen=True, slots=True)
class Words:
    zh: str
    en: str

    def text(self, lang: str) -> str:
        """The half ``lang`` asks for (:func:`~companion.english.chinese`)."""
        return self.zh if chinese(lang) else self.en

    def __add__(self, other: Words) -> Words:
        return Words(self.zh + other.zh, self.en + other.en)


@dataclass(frozen=True, slots=True)
class Asked(Words):
    """Words asking for an entry a form still lacks (「請輸入胡的那一張牌（一張）」): said as they are where a refusal
    is said 「不行：…」 (a game-night review read "Not allowed: Enter the winning tile" as a rule refusing the win)."""


SEP = Words("\u3000", "  ")
"""Between two parts of a line: the full-width space in Chinese, two spaces in English (a review found the
full-width one in the English lines)."""

UI: dict[str, tuple[str, str]] = {
    "title": ("台灣十六張麻將小幫手", "Taiwanese 16-tile mahjong"),
    "tab_table": ("牌桌", "Table"),
    "tab_photo": ("拍照算台", "Score a photo"),
    "language": ("English", "中文"),  # the button shows the language it switches to
    # the demo's seed stays in the app's command (a player on another phone read the command line here)
    "demo_note": ("示範牌局：電腦玩家打的 {hands} 把，可逐步重播。你們正在打的牌局在「記錄牌局」",
                  "Demo game: {hands} hands played by bots, replayed step by step. The game you are playing is "
                  "under Live game"),
    "log_note": ("重播 {file}", "Replaying {file}"),
    # (this table's game, not its file's name: a review read 「重播 table.sqlite」)
    "live_replay_note": ("重播這桌的牌局：記到第 {n} 步為止（之後記的，回「記錄牌局」再按一次「重播」）",
                         "Replaying this table's game as it stood at step {n} (for later entries, press Replay on "
                         "the Live tab again)"),
    "replay_hand_label": ("第 {value} 把", "hand {value}"),
    "first": ("開頭", "Start"),
    "prev_hand": ("上一個開局／結束", "Previous hand start/end"),
    "back": ("上一步", "Back"),
    "forward": ("下一步", "Next"),
    "next_hand": ("下一個開局／結束", "Next hand start/end"),
    "last": ("結尾", "End"),
    "play": ("自動播放", "Play"),
    "pause": ("暫停", "Pause"),
    "show_hands": ("顯示各家手牌（教學）", "Show every hand (teaching)"),
    "step": ("第 {i} / {n} 步", "Step {i} of {n}"),
    "replay_slider": ("重播步數", "Replay step"),
    "replay_hand_said": ("第 {i} / {n} 把", "Hand {i} of {n}"),
    "hand_line": ("{round}風圈第 {k} 把（全場第 {n} 把）　莊家{dealer}　連莊 {streak}",
                  "{round_en} round, hand {k} (hand {n} of the session)   dealer {dealer}   streak {streak}"),
    "wall_line": ("牌牆剩 {count} 張（可摸 {live} 張，留 {reserve} 張不摸）",
                  "{count} tiles in the wall ({live} to draw, {reserve} kept back)"),
    "dealer": ("莊", "Dealer"),
    "streak": ("連{n}", "streak {n}"),
    "to_act": ("輪到", "to act"),
    "concealed": ("手牌", "Hand"),
    "tiles_hidden": ("{n} 張（未顯示）", "{n} tiles (hidden)"),
    "melds": ("明牌", "Melds"),
    "flowers": ("花", "Flowers"),
    "river": ("打出的牌", "Discards"),
    "none": ("—", "—"),
    "waits": ("聽", "Waits"),
    "left": ("剩 {n} 張", "{n} left"),
    "single_wait": ("獨聽", "single wait"),
    "not_ready": ("未聽牌：{far}", "Not ready: {far_en}"),  # shanten_words
    "all_own": ("未聽牌：要的{tiles}都在自己手上，沒有第五張；得換掉一張牌，改聽別的",  # english.all_four
                "Not ready: {tiles_en} it needs are in your own hand, and there is no fifth; change a "
                "tile to wait on another"),
    "advice": ("建議打", "Best discards"),
    "recent": ("剛才的動作", "Latest plays"),
    "hand_over_is": ("本局結束：{outcome}", "Hand over: {outcome_en}"),
    "tai_items": ("台數明細", "Tai, item by item"),
    "hand_tai": ("這手牌 {tai} 台", "The hand: {tai} tai"),
    "penalty_tai": ("詐胡罰 {tai} 台", "False-win penalty: {tai} tai"),
    # the limit is the rule set's 滿台 (tai_cap), as its switch is named; one payment, split evenly three ways
    "penalty_limit": ("詐胡罰滿台 {tai} 台＝{amount}，由另外三家平分", "False-win penalty: one limit payment, {tai} tai = "
                      "{amount}, split among the other three"),
    "capped": ("（滿台 {tai} 台）", " (capped at {tai})"),
    "dealer_tai": ("莊家 +{tai} 台（莊家付或收的才加）", "dealer +{tai} tai (on what the dealer pays or is paid)"),
    "dealer_tai_streak": ("莊家 +{tai} 台（{parts}；莊家付或收的才加）", "dealer +{tai} tai ({parts_en}; on what the dealer "
                          "pays or is paid)"),
    "pays": ("{payer}付{payee} {amount}", "{payer} pays {payee} {amount}"),
    "pays_stakes": ("{payer}付{payee} {amount}（底 {base} + {tai} 台 × {per_tai}）",
                    "{payer} pays {payee} {amount} ({base} + {tai} tai × {per_tai})"),
    "pays_tai": ("{payer}付{payee} {amount}（{tai} 台）", "{payer_en} pays {payee_en} {amount} ({tai} tai)"),
    "pays_wind": ("{payer}付{payee} {amount}", "{payer_en} pays {payee_en} {amount}"),
    "payments": ("誰付誰", "Who pays whom"),
    "balances": ("累計輸贏", "Running balances"),
    "next_deal": ("下一把：{dealer}做莊，連莊 {streak}，{round}風圈",
                  "Next hand: {dealer} deals, streak {streak}, {round_en} round"),
    "next_deal_unless_dealer": ("（莊家{dealer}若也胡這張，就是他連莊：連莊 {streak}）",
                                " (unless the dealer {dealer} wins on this tile as well: then {dealer} deals again, "
                                "streak {streak})"),
    "session_over": ("一將打完", "The session is over"),
    "false_win": ("詐胡", "false win"),
    "photo_table_rules": ("記錄牌局這桌的規矩", "The live table's rules"),
    "photo_table_terms": ("照記錄牌局這桌：{terms}", "As the live table plays: {terms_en}"),
    "photo_table_unknown": ("記錄牌局這桌現在讀不到（牌局檔打不開，或是這裡沒有它的規則）：照預設規則、所選底台算",
                            "The live table cannot be read now (its file cannot be opened, or its rules are not known "
                            "here): scored by the default rules and the stakes picked"),
    "photo_table_none": ("記錄牌局還沒有人入座：照預設規則、所選底台算", "Nobody is seated at the live table yet: "
                         "scored by the default rules and the stakes picked"),
    "photo_intro": ("把胡的牌攤開拍一張：手牌排成一排、吃碰槓的牌排在前面、花放一堆，胡的那張可以稍微分開；從桌子哪一邊拍都可以。"
                    "選照片就會讀牌、分組、找出胡的那張，算出台數與付款。一開始顯示的是內附的範例照片。",
                    "Lay the winning hand down (the concealed tiles in a row, the melds in front, the flowers apart, "
                    "the winning tile a little apart if you like) and choose a photo of it, taken from any side of the "
                    "table: the tiles are read and grouped, the winning tile found, and the tai and payments worked "
                    "out. The bundled photo shows first."),
    "photo_reading": ("讀牌中…（約 1–3 秒）", "Reading the photo… (about 1–3 s)"),
    "photo_scoring": ("重新算台中…", "Scoring again…"),
    "photo_sending": ("傳送 {name} 中…", "Sending {name}…"),
    "photo_failed": ("無法計算 {name} 的台數：{why}", "{name} cannot be scored: {why_en}"),
    "photo_read_as": ("照片讀成", "Read as"),
    # (not "possible misreads": most notes under it are what was taken as what, a kong's kind, the tile won on)
    "photo_doubts": ("請檢查", "Please check"),
    "photo_win_tile": ("胡 {tile}", "Winning tile: {tile_en}"),
    "photo_total": ("共 {tai} 台", "{tai} tai in all"),
    "photo_sum": ("{total}：{pays}", "{total_en}: {pays_en}"),
    "photo_total_dealer": ("共 {tai} 台（莊家付的那一筆 {dealer} 台）", "{tai} tai in all ({dealer} on the dealer's payment)"),
    "total_if": ("（假設胡{tile}）", " (if won on {tile_en})"),
    "photo_demo": ("範例照片", "Sample photo"),
    "photo_too_big": ("{name} 太大了（上限 {mb} MB）", "{name} is too big (at most {mb} MB)"),
    "photo_empty": ("{name} 是空的檔案", "{name} is an empty file"),
    "photo_send_failed": ("{name} 沒有傳成功（網路斷了，或檔案太大）；請再試一次",
                          "{name} did not arrive (the network dropped, or the file is too big); try again"),
    "photo_error": ("讀這張照片時出了錯；已記錄下來，請換一張照片再試",
                    "Something went wrong reading this photo (it has been logged); try another photo"),
    "photo_pick": ("選一張照片", "Choose a photo"),
    "photo_context": ("照片看不出來的，請在這裡設定：", "What a photo cannot show; set it here:"),
    "photo_new_hand": ("換了一手牌（新照片或新打的手牌）就是新的一手：{fields} 回到預設（圈風、莊家、規則、底台照舊）",
                       "Another hand (a new photo or a new hand typed) is a new hand: {fields_en} back to the "
                       "defaults (the round wind, the dealer, the rules and the stakes stay)"),
    # a photo over the upload limit: what to do (a vision review: the refusal gave no way out, while a 108-200 MP
    # phone photo is 20-60 MB)
    "photo_too_big_advice": ("：請傳小一點的照片（把手機相機的照片大小設成「中」，或先縮小、存成 JPEG 再傳）",
                             ": send a smaller photo (set the phone camera's photo size to medium, or shrink it and "
                             "save it as a JPEG first)"),
    "photo_too_dark": ("；照片太暗：請在亮一點的地方重拍（已先調亮再讀）",
                       "; the photo is too dark: take it again in more light (it was brightened to be read)"),
    "win_type": ("胡法", "Win"),
    "self_draw": ("自摸", "self-drawn"),
    "on_discard": ("放槍", "on a discard"),
    "rob_kong": ("搶槓", "robbing a kong"),
    "moment": ("胡在什麼時候", "When it came"),
    "moment_": ("一般", "ordinary"),
    # (short: the form's box is 260 px wide)
    "moment_after_kong": ("槓上開花（自己暗槓、加槓）", "after their own kong (concealed, added)"),
    "moment_after_discard_kong": ("槓別人打的牌後補的牌", "after a kong of a discard"),
    "moment_after_flower": ("補花後補進的牌，算槓上開花", "a flower's replacement tile (scored as a win on a replacement)"),
    "moment_last_tile": ("海底撈月（最後一張可摸的牌）", "the last tile to draw"),
    "moment_last_discard": ("河底撈魚（最後打出的一張）", "the last discard"),
    "moment_heavenly": ("天胡（莊家配完就胡）", "heavenly win (dealer, on the deal)"),
    "moment_earthly": ("地胡（閒家第一次摸就胡）", "earthly win (first draw)"),
    "moment_human": ("人胡（第一巡胡別人打的）", "human win (first go-around)"),
    "ready_kind": ("報聽", "Ready declared"),
    "ready_": ("沒有", "none"),
    "ready_ready_declared": ("報聽", "declared ready"),
    "ready_ready_on_deal": ("天聽", "heavenly ready (on the deal)"),
    "ready_ready_first_discard": ("地聽", "earthly ready (first discard)"),
    "form_field_wrong": ("「{field}」不對：{why}", "{field_en}: {why_en}"),
    "form_the_hand": ("手牌", "The hand"),
    "discarder": ("放槍的人", "Discarder"),
    "seat_wind": ("胡家門風", "Winner's seat wind"),
    "round_wind": ("圈風", "Round wind"),
    "dealer_seat": ("莊家", "Dealer"),
    "streak_n": ("連莊", "Streak"),
    "profile": ("規則", "Rules"),
    "stakes": ("底／台", "Stakes"),
    "wind_E": ("東", "East"),
    "wind_S": ("南", "South"),
    "wind_W": ("西", "West"),
    "wind_N": ("北", "North"),
    "tab_hand": ("我的手牌", "My hand"),
    "hand_intro": ("輸入或點選自己的牌（16 張，或摸牌後 17 張；吃碰槓：按下面的「碰」「吃」「明槓」「暗槓」再點一張牌，"
                   "或寫成 pung:999p）。看得到的牌（打出的牌、別家的明牌）也輸入的話，剩幾張會算得更準。",
                   "Type or tap your tiles (16, or 17 after a draw; a meld: tap Pung, Chow, Kong or Concealed kong "
                   "below, then a tile, or type pung:999p). Add the tiles you can see on the table (discards, others' "
                   "melds) and the copies left are counted from them."),
    "hand_field": ("我的牌", "My tiles"),
    "hand_from_live": ("從記錄牌局帶入桌上看得到的牌，我是：", "Take the tiles seen at the live game; I am:"),
    "hand_following": ("跟著牌桌更新{seat}看得到的牌（每記一步就更新）", "Following what {seat} sees at the table (each entry updates it)"),
    "hand_follow_stop": ("不要跟著更新", "Stop following"),
    "hand_hint": ("例如 45m77p234789s pung:999p@O 1f，或 四萬五萬…", "e.g. 45m77p234789s pung:999p@O 1f"),
    "visible_field": ("桌上看得到的牌", "Tiles seen on the table"),
    "visible_hint": ("例如 3m3m6p 東", "e.g. 3m3m6p1z"),
    "clear": ("清除", "Clear"),
    "backspace": ("退一張", "Remove last"),
    "hand_example": ("範例", "Example"),
    "hand_meld_keys": ("吃碰槓：", "Melds laid down:"),
    "hand_meld_pung": ("碰", "Pung"),
    "hand_meld_chow": ("吃", "Chow"),
    "hand_meld_kong": ("明槓", "Kong"),
    "hand_meld_ckong": ("暗槓", "Concealed kong"),
    "hand_meld_armed_pung": ("點一張牌：把三張這種牌當成一組碰（再按一次「碰」取消）",
                             "Tap a tile: three of it, as a pung (tap Pung again to cancel)"),
    "hand_meld_armed_chow": ("點順子最小的那張：點三條就是三四五條（再按一次「吃」取消）",
                             "Tap the run's lowest tile: 3 Bamboo gives 3-4-5 Bamboo (tap Chow again to cancel)"),
    "hand_meld_armed_kong": ("點一張牌：把四張這種牌當成一組明槓（再按一次「明槓」取消）",
                             "Tap a tile: four of it, as an exposed kong (tap Kong again to cancel)"),
    "hand_meld_armed_ckong": ("點一張牌：把四張這種牌當成一組暗槓（再按一次「暗槓」取消）",
                              "Tap a tile: four of it, as a concealed kong (tap Concealed kong again to cancel)"),
    "hand_meld_chow_bad": ("吃是同一門連續的三張：請點萬、筒或條的 1 到 7（順子最小的那張）",
                           "A chow is a run of three in one suit: tap a 1 to 7 of Characters, Dots or Bamboo "
                           "(the run's lowest tile)"),
    "hand_meld_flower": ("花牌不能吃、碰或槓：直接點它，它會放在手牌旁邊", "A flower is never melded: tap it alone, "
                         "it is set beside the hand"),
    "hand_empty": ("還沒有輸入牌", "No tiles yet"),
    "hand_bad": ("這手牌讀不懂：{why}", "This hand cannot be read: {why_en}"),
    "hand_so_far": ("已輸入 {n} 張，還差 {need} 張（手牌 16 張，吃碰槓一組算 3 張；摸牌後 17 張）",
                    "{n} tiles so far, {need} to go (a hand holds 16, a meld counting 3; 17 with a tile drawn)"),
    "notation_hint": ("（牌的寫法：萬 1m-9m、筒 1p-9p、條 1s-9s，東南西北白發中 1z-7z，花 1f-8f；也可以直接寫中文，例如 東東東、一二三萬，或點下面的牌）",
                      " (how tiles are written: Characters 1m-9m, Dots 1p-9p, Bamboo 1s-9s; East South West North "
                      "1z-4z, White Green Red dragons 5z-7z; flowers 1f-8f; tiles written in Chinese characters are "
                      "read too, e.g. East East East, or one two three Characters with the suit said once; or tap "
                      "them below)"),
    "glossary_title": ("看不懂的詞？", "Words used here"),
    "glossary": (
        "向聽：離聽牌還差幾步；一向聽＝再摸到一張有用的牌就聽牌。\n"
        "進張：摸到會讓這手更接近聽牌（或胡牌）的牌；張數只算桌上還沒出現的。\n"
        "搭子：差一張就成一組的兩張，例如 45萬、46萬、55萬。\n"
        "兩面：45萬 聽 3萬或6萬。邊張：12萬 只聽 3萬、89萬 只聽 7萬。中洞（嵌張）：46萬 只聽 5萬。\n"
        "單吊：只差一張湊成對。雙碰：兩對，摸到哪一對的第三張都胡。\n"
        "獨聽：整手只聽一種牌，加 1 台：常見的是邊張、中洞、單吊，或兩面只剩一頭；聽兩種以上就不算，不管牌型。\n"
        "牌的寫法：萬 1m-9m、筒 1p-9p、條 1s-9s，東南西北 1z-4z，白發中 5z-7z，花 1f-8f。",
        "Useful draws from ready (shanten): how many useful draws the hand still needs before it waits on a "
        "tile; \"1 useful draw from ready\" = one more useful draw and it is ready.\n"
        "Tiles that improve it: draws that bring the hand nearer ready (or to a win), counted among the copies "
        "not yet seen.\n"
        "Partial set: two tiles one short of a set, e.g. 45m, 46m or 55m.\n"
        "Two-sided: 45m waits on 3m or 6m. Edge: 12m waits on 3m only, 89m on 7m only. Closed: 46m waits on 5m "
        "only.\n"
        "Pair wait: one tile short of the pair. Double pung wait: two pairs, a third of either wins.\n"
        "Single wait: the whole hand waits on one kind only, 1 tai: often an edge, closed or pair wait, or a "
        "two-sided one with one end gone; a hand with two or more waits never scores it, whatever its shape.\n"
        "Tile codes: 1m-9m Characters, 1p-9p Dots, 1s-9s Bamboo; 1z-4z East, South, West, North winds; "
        "5z-7z White, Green, Red dragons; 1f-8f flowers."),
    "seen_bad": ("「桌上看得到的牌」讀不懂：{why}", "The tiles seen on the table cannot be read: {why_en}"),
    "seen_too_many": ("自己的牌加上「桌上看得到的牌」太多了：{why}", "Your tiles and the tiles seen on the table are "
                      "too many together: {why_en}"),
    "hand_other_game": ("。13、14 張是日本麻將或國標麻將的張數", ". 13 or 14 tiles is the size of a Japanese or "
                        "Chinese-official hand"),
    "pairs_not_win": ("。注意：十六張麻將沒有七對、八對的胡法，胡牌要五組（順子或刻子）加一對",
                      ". Note: Taiwanese 16-tile has no seven- or eight-pairs win; a win is five sets (chows or "
                      "pungs) and a pair"),
    "eight_flowers_won": ("八張花都到齊：已經胡了（八仙過海，照自摸算）！若不胡：", "All eight flowers: already a win "
                          "(Eight flowers, settled as a self-draw)! If you play on: "),
    "eight_flowers_too": ("。八張花也都到齊：另加八仙過海的台", ". All eight flowers too: the tai of Eight flowers "
                          "are added"),
    "hand_complete": ("胡了！這手牌已經成胡：按「算這手的台數」看每一台怎麼來",
                      "A complete winning hand! Tap Score this hand to see each tai item"),
    "hand_score": ("算這手的台數", "Score this hand"),
    "drawn_ready": ("打對一張就聽牌", "The right discard makes it ready"),
    "hand_best_discard": ("最好打{tile}", "best discard: {tile_en}"),
    "hand_more_below": ("（詳細在下面）", "(details below)"),
    "drawn_not_ready": ("打出後最好{far}", "After the best discard: {far_en}"),  # shanten_words
    "ready": ("聽牌：{kinds} 種，還剩 {left} 張沒出現", "Ready on {kinds} kinds: {left} copies still unseen"),
    "ready_one": ("聽牌：只聽 1 種，還剩 {left} 張沒出現", "Ready on one kind: {left} copies still unseen"),
    "single_wait_shape": ("（獨聽：{shape}）", " (a single wait: {shape_en})"),
    "one_end_gone": ("兩面只剩一頭", "two-sided with one end gone"),
    "item_shape": ("（{shape}）", " ({shape_en})"),
    "other_end_own": ("另一頭{tile}四張都在自己手上，所以這兩張只等這一種", "the other end, {tile_en}, is all four in "
                      "your own hand, so these two wait on this tile alone"),
    "dead_wait": ("。死聽：要等的牌都已經出現，胡不到了，可以考慮換聽", ". A dead wait: every copy you wait for is already "
                  "visible, so it cannot win; think about changing the wait"),
    "closer": ("摸到這些牌會更接近聽牌（牌下是還沒出現的張數）", "Draws that bring it closer (under each: the copies still "
               "unseen)"),
    "choices": ("打哪張（最好的在前）", "What to discard, best first"),
    "hand_discard": ("打這張", "Discard it"),
    "hand_every_discard": ("顯示其餘 {n} 種打法", "Show the other {n} discards"),
    "kong_better": ("；先{kong}{tile}更好：一樣接近聽牌，還多摸一張", "; better still, {kong_en} of {tile_en}: as near "
                    "ready, and a draw more"),
    "hand_kongs": ("也可以槓（槓完補一張）", "Or make a kong (a replacement draw follows)"),
    "hand_concealed_kong": ("暗槓", "Concealed kong"),
    "hand_added_kong": ("加槓", "Added kong"),
    "hand_kong_hint": ("按「暗槓／加槓」就把這四張放下；補到的牌在上面的牌點一下加進來。",
                       "The kong button lays the four down; tap the replacement tile you draw above to add it."),
    "hand_discard_hint": ("按「打這張」就從手牌拿掉它，看聽什麼；摸到牌時，在上面的牌點一下加進來。",
                          "Discard it takes the tile out of the hand, to see its waits; when you draw, tap the tile "
                          "above to add it."),
    "tab_learn": ("學打牌", "Learn"),
    "learn_intro": ("每一種台數是什麼、值幾台，配上一手會算到它的牌（台數由規則當場算出）。由小台排到大台，這套規則不算的放最後。點一個項目看看。",
                    "What each tai item means and what it is worth, with a hand that scores it (the tai are "
                    "worked out by the rules as you look). From the smallest to the biggest; items these rules don't "
                    "count come last. Pick an item."),
    "learn_worth": ("預設規則 {n} 台", "{n} tai under the default rules"),
    "learn_off": ("預設規則不算這一項", "not counted under the default rules"),
    "learn_by_profile": ("各套內建規則的台數：", "Tai under each built-in rule set:"),
    "learn_example": ("例子", "Example"),
    "learn_no_example": ("這一項還沒有例子", "No example for this item yet"),
    "learn_setting": ("{how}，胡牌的人坐{seat}，{round}風圈，莊家在{dealer}，{streak}",
                      "{how_en}; the winner sits {seat_en}, {round_en} round, the dealer {dealer_en}, "
                      "{streak_en}"),  # learn_streak / learn_no_streak
    "learn_discarder": ("，{who}家放槍", "; {who_en} discarded"),
    "learn_flower_robbed": ("，{who}家亮出第八張花（{who}家一人付）", "; {who_en} showed the eighth flower ({who_en} "
                            "pays alone)"),
    "learn_robbed": ("，搶{who}家加槓的牌（{who}家照放槍付）", "; robbed from {who_en}'s added kong ({who_en} pays as a "
                     "discarder)"),
    "learn_scores": ("這手牌算到的台", "What this hand scores"),
    "learn_scores_none": ("（這套規則不算這一項，這手牌沒有別的台）", "(these rules do not count this item, and the hand "
                          "scores nothing else)"),
    "learn_won_on": ("胡", "won on"),
    "learn_called": ("吃碰槓：", "Melds:"),
    "learn_total": ("這手牌共 {hand} 台", "{hand} tai for the hand"),
    "tab_live": ("記錄牌局", "Live game"),
    "set_rules_where": ("規則、底台和本桌規矩：在「{live}」入座時選，開打後在那裡「{terms}」；「{photo}」也可以另選規則。",
                        "The rules, the stakes and the house rules are chosen as the players sit down on “{live_en}”, "
                        "and changed there later (“{terms_en}”); “{photo_en}” can pick other rules too."),
    "live_intro": ("在真的牌桌上邊打邊記：每個動作點一下（打出的牌、吃碰槓、補花、胡），小幫手會檢查合不合規則、"
                   "記下來（當機也不會遺失），胡牌時算出台數和誰付誰。大家的手牌都蓋著，只記看得到的牌。",
                   "Enter a real game as it is played: one tap per move (a discard, a claim, a flower, a win). "
                   "Every entry is checked against the rules and saved at once (a crash loses nothing); a win is "
                   "scored with who pays whom. Hands stay face down: only what the table can see is entered."),
    "live_empty": ("還沒有記錄", "Nothing entered yet"),
    "live_file": ("每一步都已存好（共 {n} 筆）", "Every tap is saved (entries so far: {n})"),
    "live_moved": ("牌桌剛被別人更新了，請看過再點一次", "The table was just updated by someone else: look, then tap again"),
    "tap_lost_seen": ("知道了", "Got it"),  # the notice of a tap lost stays until the player taps this (or taps on)
    # a win form left open while another phone moved the table on (spec §2.9: the discard is dead after the next draw)
    "live_claim_gone": ("在你填這個胡的時候，牌桌已經往下記了：{since}。{what}{rule}，這個胡記不了",
                        "The table moved on while this form was open: {since_en}. {what_en}{rule_en}, so this win "
                        "cannot be recorded"),
    # before the verdict, which goes on in the same sentence ("On 9 Characters, a win: …"; two colons read as two)
    "live_preview_on": ("以{tile}算，", "On {tile_en}, "),
    "live_claim_gone_tile": ("{tile}已經不能再胡", "{tile_en} can no longer be won on"),
    "live_claim_gone_turn": ("這個時機已經過了", "Its moment has passed"),
    # (no section number: the rule book's numbers mean nothing to a player without it)
    "live_claim_gone_rule": ("（下一家摸牌後，這張牌就過了）", " (once the next player draws, the discard is dead)"),
    "live_claim_undone": ("之前記的有幾步被撤回了", "earlier entries were taken back"),
    "live_claim_undo": ("。如果大家同意胡是及時喊的，按「{button}」，再記這個胡；不然按「取消」",
                        ". If the table agrees the win was called in time, tap “{button_en}” and record it; "
                        "otherwise tap Cancel"),
    "live_claim_cancel": ("。請按「取消」", ". Tap Cancel"),
    "live_claim_taken_back": ("這次要胡的{tile}已經被撤回了，請按「取消」",
                              "The {tile_en} this form was opened on was taken back: tap Cancel"),
    "live_claim_first": ("{winner}已經胡了{tile}，他的胡在先（截胡：放槍的人之後最近的一家胡），這個胡記不了，請按「取消」",
                         "{winner} has already won on {tile_en} and comes first (the nearest claimant after the "
                         "discarder wins), so this win cannot be recorded: tap Cancel"),
    "live_claim_beside_all": ("{winner}已經胡了{tile}：這個胡記下來，是第{n}家胡（一炮多響）",
                              "{winner_en} already won on {tile_en}: this win is recorded as the {n_en} winner "
                              "(several winners on one discard)"),
    "live_claim_beside_third": ("{winner}已經胡了{tile}：這個胡記下來，三家都胡，三家都算",
                                "{winner_en} have already won on {tile_en}: this win is recorded, and with three "
                                "winners all three win"),
    "live_claim_beside_third_draw": ("{winner}已經胡了{tile}：這個胡記下來，三家都胡，這一局流局",
                                     "{winner_en} have already won on {tile_en}: this win is recorded, and with three "
                                     "winners the hand is a draw"),
    "live_claim_beside_three": ("{winner}已經胡了{tile}，他的胡在先（截胡）：這個胡照樣記下，但要三家都胡才算",
                                "{winner} has already won on {tile_en} and comes first (the nearest claimant wins): "
                                "this win is recorded, but counts only if a third player wins on it too"),
    "live_claim_beside_draw": ("{winner}已經胡了{tile}，他的胡在先（截胡）：這個胡照樣記下，三家都胡就流局",
                               "{winner} has already won on {tile_en} and comes first (the nearest claimant wins): "
                               "this win is recorded, and a third player winning on it too makes the hand a draw"),
    "live_undo_since": ("撤回後來記的 {n} 步", "Undo the {n} later entries"),
    "live_undo_since_one": ("撤回後來記的那一步", "Undo the later entry"),
    "live_nothing_to_undo": ("沒有可以撤回的動作", "Nothing to undo"),
    "live_no_discard": ("現在沒有人要打牌", "Nobody is to discard now"),
    "live_no_draw": ("現在不能摸牌", "No draw is due now"),
    "live_no_claim": ("現在沒有可以吃碰槓的牌", "There is no tile to claim now"),
    "live_no_win": ("現在這一家不能這樣胡", "that seat cannot win that way now"),
    "live_win_tile": ("請輸入胡的那一張牌（一張）", "Enter the winning tile (one tile)"),
    "live_p_seat": ("請輸入四位玩家（從東家開始，照逆時針順序）、規則和底／台", "Enter the four players (from East, in turn order), the rules and the stakes"),
    "live_p_over": ("一將打完了。要再打一將，重新入座", "The session is over. Seat the players again for another"),
    "live_p_dealer": ("擲骰定莊：{east}（坐東）擲三顆骰子，數到的那家再擲一次，第二次數到的那家做莊。輸入兩次擲出的每顆骰子（例如 3 5 6），或按「幫我擲」",
                      "Throw for the first dealer: East ({east}) throws three dice, the seat counted throws again, and the seat "
                      "counted the second time deals. Enter each die of both throws (e.g. 3 5 6), or press Roll for me"),
    "live_p_dealer_one": ("擲骰定莊：{east}（坐東）擲三顆骰子，數到的那家做莊。輸入每顆骰子的點數（例如 3 5 6），或按「幫我擲」",
                          "Throw for the first dealer: East ({east}) throws three dice and the seat counted deals. Enter each "
                          "die (e.g. 3 5 6), or press Roll for me"),
    "live_p_dealer_east": ("起莊：坐東的{east}做莊", "First dealer: {east}, in the East seat, deals"),
    "live_p_also_wins": ("一張牌多家胡時，這一桌的規矩：{rule}。還有人也胡這張嗎？有的話先按他的「胡」；沒有就輸入下一把莊家擲的骰子",
                         "This table's rule for several winners on one discard: {rule_en}. Does anyone else win on "
                         "this tile? If so, tap that player's Win first; if not, enter the next dealer's dice"),
    "live_p_false_others": ("詐胡：這一把作廢，同一個莊重打，連莊數不變。若有人當時也喊胡這張，按他的「胡」：他的胡照算（詐胡的罰也照付），"
                            "莊照胡牌的規矩輪；沒有就輸入莊家擲的骰子",
                            "False win: this hand is void and the same dealer deals it again, the streak unchanged. If "
                            "another player also called a win on this tile at the time, tap that player's Win: that win stands (the "
                            "false win's penalty is still paid) and the deal moves as after any win; if not, enter the dealer's "
                            "dice"),
    "live_p_also_wins_last": ("一張牌多家胡時，這一桌的規矩：{rule}。還有人也胡這張嗎？有的話先按他的「胡」；沒有，這一將就打完了",
                              "This table's rule for several winners on one discard: {rule_en}. Does anyone else win on "
                              "this tile? If so, tap that player's Win first; if not, the session is over"),
    "live_p_nearer_wins": ("截胡：比{winner}更近的人也胡這張嗎？有的話按他的「胡」，改由他胡；沒有就輸入下一把莊家擲的骰子",
                           "Only the nearest wins: does a seat nearer than {winner} also win on this tile? If so, tap "
                           "that seat's Win: the nearer seat takes the win; if not, enter the next dealer's dice"),
    "live_p_nearer_wins_last": ("截胡：比{winner}更近的人也胡這張嗎？有的話按他的「胡」，改由他胡；沒有，這一將就打完了",
                                "Only the nearest wins: does a seat nearer than {winner} also win on this tile? If so, "
                                "tap that seat's Win: the nearer seat takes the win; if not, the session is over"),
    "live_p_dice": ("{dealer}做莊：輸入莊家擲的骰子，開門配牌", "{dealer} deals: enter the dealer's dice to break the wall and deal"),
    "live_p_flowers": ("開局補花（從莊家{dealer}開始），補完後莊家打第一張",
                       "Initial flowers (from the dealer {dealer}); then the dealer discards first"),
    "live_p_act_plain": ("輪到{seat}：點他打出的牌", "{seat} to play: tap the tile they discard"),
    "live_p_act": ("輪到{seat}：點他打出的牌（或{extras}）", "{seat} to play: tap the tile they discard (or {extras_en})"),
    "live_or_flower": ("補花", "a flower"),
    "live_or_kong": ("槓", "a kong"),
    "live_or_win": ("自摸", "a win"),
    "live_p_bottom": ("河底：{who}打了 {tile}，牌已摸完。有人胡嗎？沒有的話按「流局」",
                      "Last discard: {who} discarded {tile_en} and the wall is out. Does anyone win? If not, press Exhaustive draw"),
    "live_p_claim": ("{who}打了 {tile}：有人吃、碰、槓、胡嗎？沒有的話，點{seat}打出的牌",
                     "{who} discarded {tile_en}: any chow, pung, kong or win? If not, tap what {seat} discards"),
    "live_p_rob": ("{seat}加槓 {tile}：有人搶槓胡嗎？", "{seat} adds {tile_en} to a pung: does anyone rob the kong?"),
    "live_p_kong_win": ("{seat}槓 {tile}：有人胡這張嗎？胡比槓優先；沒有就補牌",
                        "{seat} kongs {tile_en}: does anyone win on it? A win comes first; if not, {seat} draws "
                        "the replacement"),
    "live_p_last": ("{seat}要摸最後一張牌", "{seat} is due to draw the last tile"),
    "live_players": ("玩家（東南西北）", "Players (East, South, West, North)"),
    "live_player": ("玩家{n}", "Player {n_en}"),  # (no wind: the winds go round from the dealer drawn, and 東家 sat
    # South read "東家 South" in the records, a review)
    "live_start": ("入座開始", "Seat them and start"),
    "live_reseat": ("改玩家、規則或底台（重新入座）", "Change the players, rules or stakes (seat again)"),
    "live_next_session": ("再打一將（先回答上面這一把的問題）", "Another session (first answer the question on this hand "
                          "above)"),
    "live_dice": ("骰子", "Dice"),
    "live_second": ("第二次擲", "Second throw"),
    "live_roll": ("幫我擲", "Roll for me"),
    "live_throw_dealer": ("擲骰定莊", "Throw for the dealer"),
    "live_east_deals": ("東家做莊", "East deals"),
    "live_throw": ("開門配牌", "Break the wall and deal"),
    "live_discard_by": ("{seat}打出：", "{seat} discards:"),
    "live_ready": ("同時{kind}", "With it: {kind_en}"),
    "live_no_ready": ("{seat}現在不能報聽", "{seat} cannot declare ready now"),
    "live_heavenly": ("{seat}天聽", "{seat}: heavenly ready"),
    "live_chow": ("吃", "Chow"),
    "live_pung": ("碰", "Pung"),
    "live_kong": ("槓", "Kong"),
    "live_win": ("胡", "Win"),
    "live_win_short": ("胡（{kind}）", "Win: {kind_en}"),
    "live_win_resume": ("胡：接著填（已填 {n} 張）", "Win: carry on ({n} tiles entered)"),
    "live_win_over_meld": ("{seat}{meld}了 {tile}；要是有人胡這張，胡優先（{meld}就不算）：",
                           "{seat}'s {meld_en} took {tile_en}; a win on that tile still comes first (and undoes "
                           "the {meld_en}):"),
    "live_claim_over_chow": ("{seat}吃了 {tile}；有人碰、槓或胡這張的話，他們優先（吃就不算）：",
                             "{seat} chowed {tile_en}; a pung, a kong or a win on that tile still comes first "
                             "(and undoes the chow):"),
    "live_false_others": ("當時也喊胡這張的人（他的胡照算）：", "Also called a win on this tile at the time (it stands):"),
    "live_nearer_wins": ("比{winner}更近的人胡這張，就改由他胡：", "A nearer seat's win on it replaces {winner}'s:"),
    "live_flower_by": ("{seat}補花：", "{seat} shows a flower:"),
    "live_ckong": ("{seat}暗槓（蓋著）", "{seat}: concealed kong (face down)"),
    "live_addkong": ("{seat}加槓 {tile}", "{seat} adds {tile_en}"),
    "live_no_rob": ("沒人搶槓，補牌", "Nobody robs: draw the replacement"),
    "live_no_win_replace": ("沒人胡，補牌", "Nobody wins on it: draw the replacement"),
    "live_draw": ("{seat}摸牌（接著補花、槓或自摸時）", "{seat} draws (then a flower, a kong or a self-drawn win)"),
    "live_exhaustive": ("流局（牌摸完了）", "Exhaustive draw (the wall is out)"),
    "live_exhaustive_flower": ("{seat}摸到的最後一張是花，沒有牌補：流局",
                               "{seat}'s last tile drawn is a flower, with none left to replace it: a draw"),
    "live_decline": ("{seat}不摸海底，流局", "{seat} declines the last tile: a draw"),
    "live_more": ("其他（詐胡、相公）", "More: a false win, a wrong count"),
    "live_false_win": ("{seat}詐胡", "{seat}: false win"),
    "live_false_win_claimed": ("{seat}詐胡（宣稱 {tai} 台）", "{seat}: false win (claimed {tai} tai)"),
    "live_false_win_unknown": ("{seat}詐胡（不知宣稱幾台：照 8 台罰）", "{seat}: false win (the tai claimed unknown: "
                               "charged as 8)"),
    "live_penalty_sure": ("記下「{what}」？（記錯了也可以撤回）", "Record “{what_en}”? (undo takes it back too)"),
    "live_penalty_yes": ("確定，記下來", "Yes, record it"),
    "live_penalty_no": ("取消", "Cancel"),
    "live_big_count": ("{seat}大相公（牌太多）", "{seat}: too many tiles"),
    "live_small_count": ("{seat}小相公（牌太少）", "{seat}: too few tiles"),
    "live_undo": ("撤回上一步", "Undo"),
    "live_undo_what": ("{what}", "{what_en}"),  # under the word Undo, on the button's second line
    # (the English says what the winner did, WinKind.won_en: "Bob, robbed kong: …" read as a list, a review)
    "live_win_form": ("{seat}{kind}：輸入他攤開的牌", "{seat} {kind_en}: enter the tiles shown"),
    # short: the label sits in the field, one line on a phone
    "live_win_concealed": ("手上的牌（{n} 張，不含胡的那張）", "{n} tiles held (not the one won on)"),
    "live_preview_yes": ("可以胡：這手牌 {tai} 台", "A win: the hand is worth {tai} tai"),
    "live_preview_yes_plain": ("可以胡", "A win"),
    "live_preview_dealer": ("，莊家付的另加 {tai} 台", ", plus {tai} dealer tai on what the dealer pays"),
    "live_preview_dealer_wins": ("，{seat}是莊家：每家付的另加 {tai} 台", ", and {seat} deals: plus {tai} dealer tai "
                                 "on what each pays"),
    # a win on a discard (or a robbed kong): one payer alone, the dealer tai on that payment only (an English host
    # review read "each pays" where only the discarder paid)
    "live_preview_dealer_wins_one": ("，{seat}是莊家：{payer}付的另加 {tai} 台", ", and {seat} deals: plus {tai} "
                                     "dealer tai on what {payer} pays"),
    "live_preview_no": ("還不能記：{why}", "Not yet a win to record: {why_en}"),
    "live_win_drawn_hint": ("點下面的牌（或打字）：先點手上的 {n} 張，再點自摸的那張；全部輸入在第一格也行，最後一張就是自摸的那張",
                            "Tap the tiles below (or type them): the {n} in hand first, then the one drawn; all typed "
                            "into the first field, the last is taken as the tile drawn"),
    "live_win_drawn": ("自摸的那張", "The tile drawn"),
    "live_win_hand_first": ("請先輸入手上的 {want} 張牌（現在 {n} 張），再輸入自摸的那一張",
                            "Type the hand's {want} tiles first ({n} so far), then the tile drawn"),
    "live_win_kongs": ("暗槓的牌（每個暗槓一張）", "Concealed kongs (one tile each)"),
    "live_win_kongs_needed": ("請寫出每個暗槓是哪一種牌（{n} 個，收到 {got} 個），才能算台",
                              "Name the kind of each concealed kong ({n}, got {got}) so the hand can be scored"),
    "live_p_four_kongs": ("{seat}開了第四槓：這手以他的四槓胡結束，請按他的「胡」輸入他的牌",
                          "{seat} has made a fourth kong: the hand ends as a four-kongs win; tap {seat}'s win and enter the tiles"),
    "live_p_rob_four_kongs": ("{seat}加槓 {tile}，是第四槓：有人搶槓胡嗎？沒有的話請按他的四槓胡",
                              "{seat} adds a kong of {tile_en}, a fourth: does anyone rob it? If not, tap {seat}'s four-kongs win"),
    "live_p_four_kongs_split": ("四槓分屬不同家：這手流局，請按「流局」",
                                "Four kongs split between players: the hand is drawn; tap the draw"),
    "live_four_kongs_draw": ("流局（四槓分屬不同家）", "Draw (four kongs split)"),
    "live_stakes_missing": ("請填底和台（都是 0 或正整數）", "Fill in the base and the amount per tai (whole numbers, 0 or more)"),
    "live_stakes_bad": ("底和台要是 0 或正整數：{base}／{per_tai}", "the base and the amount per tai are whole numbers, "
                        "0 or more: {base}/{per_tai}"),
    "live_terms": ("改底台或規矩（從下一把起）", "Change the stakes or house rules (from the next hand)"),
    "live_terms_apply": ("從下一把起改用", "Use from the next hand"),
    "live_terms_moved": ("剛才另一支手機改了底台或規矩：下面是改過的，請再看一次", "Another phone has just changed the "
                         "stakes or house rules: what follows is as changed; look it over again"),
    "live_terms_note": ("已經打完的每一把照原來的底台和規矩算；起莊和門風是入座時定的，這一將打完、下一將入座時再改。",
                        "Every hand already played keeps its stakes and rules; the first dealer and the seat winds "
                        "were fixed at seating: change them when the players are seated for the next session."),
    "live_house_rules": ("本桌規矩（{n} 條跟這套規則不同）", "House rules ({n} played otherwise than the rule set)"),
    "live_win_ok": ("確定胡牌", "Record the win"),
    "live_photo": ("拍照讀牌", "Read the hand from a photo"),
    "live_photo_hint": ("把胡的牌攤開拍一張（從桌子哪一邊拍都可以）：讀到的牌會填進下面，記錄前請對照一下",
                        "Photograph the hand laid down (from any side of the table): the tiles read fill the form "
                        "below; check them before recording"),
    "live_photo_kind": ("{kind}不用讀照片", "{kind_en} needs no photo"),
    "live_photo_filled": ("已從 {name} 填入，請對照照片再確定", "Filled in from {name}: check it against the photo, then record"),
    "live_photo_melds": ("照片的吃碰槓（{photo}）跟牌桌記錄的（{table}）不一樣：請對照；牌桌漏記了吃碰槓的話，請先取消、"
                         "「撤回上一步」回到那時補記",
                         "The photo's melds ({photo_en}) differ from the table's ({table_en}): check them; if the table "
                         "missed a claim, cancel, undo back to it and enter it first"),
    "live_photo_flowers": ("照片有 {photo} 張花，牌桌記錄的是 {table} 張；漏記的花請先取消、撤回到那時補記",
                           "The photo shows {photo} flowers; the table has {table}; for a flower the table missed, "
                           "cancel, undo back to it and enter it first"),
    "live_photo_no_tile": ("照片裡沒有胡的那張（{tile}）", "the photo does not show the tile won on ({tile_en})"),
    "live_photo_count": ("照片的手牌讀到 {got} 張，應該是 {n} 張：請改正", "{got} tiles in hand read from the photo; the hand has {n}: correct them"),
    "live_photo_as_read": ("照片讀不成胡牌，先照讀到的填入，請改正：{why}",
                           "The photo does not read as a winning hand; the tiles as read are filled in for you to mend: {why_en}"),
    "live_photo_drawn_guess": ("照片看不出自摸的是哪一張：先填 {tile}（台數最多），不是的話請改",
                               "The photo does not show which tile was drawn: {tile_en} (the most tai) is filled in; change it if not"),
    "live_photo_move_drawn": ("自摸的那張也在裡面：請把它移到「自摸的那張」", "The tile drawn is among them: move it to the drawn tile's field"),
    "another_win_both": ("（一炮多響：也算胡）", " (several win on one discard: this one wins too)"),
    "another_win_nearer": ("（比{other}近：截胡，{other}不算胡）", " (nearer than {other_en}: {other_en}'s win no longer counts)"),
    "another_win_farther": ("（{nearer}比他近：他不算胡）", " ({nearer} is nearer: this win does not count)"),
    "another_win_draw": ("（三家胡同一張：流局）", " (three win on one tile: the hand is drawn)"),
    "live_typed_count": ("{n}／{want} 張：", "{n} of {want} tiles:"),
    "live_typed_over": ("{n}／{want} 張，多了 {extra} 張：", "{n} of {want} tiles, {extra} too many:"),
    "live_typed_last_drawn": ("{n} 張：最後一張（{tile}）當作自摸的那張：", "{n} tiles: the last ({tile_en}) taken as the tile drawn:"),
    "live_typed_bad": ("還看不懂輸入的牌：{why}（例：123m東東）", "Those tiles cannot be read yet: {why_en} (e.g. 123m 11z)"),
    "live_photo_fits": ("牌桌可以接受這手牌", "The table accepts this hand"),
    "live_photo_unfit": ("牌桌還不能接受：{why}", "The table would refuse it: {why_en}"),
    "live_cancel": ("取消", "Cancel"),
    "live_bad_tiles": ("看不懂的牌：{why}", "tiles not understood: {why_en}"),
    "live_flower_in_hand": ("花牌不算在手牌裡（補花時已經攤開）：{tiles}", "flowers are not part of the hand (they were laid down when replaced): {tiles}"),
    "live_dice_not_total": ("（要輸入每顆骰子的點數，例如 4 3 5，不是總和 {total}）",
                            " (enter each die, such as 4 3 5, not the total {total})"),
    "live_bad_dice": ("{which}：三顆，每顆 1 到 6 點，收到：{got}", "{which_en}: three dice of 1-6 each, got: {got}"),
    "live_not_saved": ("沒有記下來（牌局檔無法寫入）：{why}", "Not saved (the table file cannot be written): {why_en}"),
    "live_refused": ("不行：{why}", "Not allowed: {why_en}"),
    "live_download": ("下載紀錄", "Save log"),  # short: the bar holds three buttons on a phone
    "live_name_label": ("{wind}家", "{wind_en} player"),
    "live_replay": ("重播", "Replay"),  # on the Table tab; short, so the bar fits a phone
    # the eighth flower drawn: a win may take it on the spot, before its replacement (spec §4.2 八仙過海, §4.4 七搶一)
    "live_p_flower_eight": ("{seat}摸到第八張花 {tile}：要當場八仙過海嗎？要就按他的「胡」（不補花）；不胡就補花",
                            "{seat} has drawn the eighth flower, {tile_en}: a win with eight flowers on the spot? If "
                            "so, tap {seat}'s win (no replacement drawn); if not, draw the replacement"),
    "live_p_flower_rob": ("{seat}摸到第八張花 {tile}：{robber}有另外七張，要七搶一嗎？要就按他的「胡」；不搶就補花",
                          "{seat} has drawn the eighth flower, {tile_en}, and {robber_en} holds the other seven: "
                          "seven rob one? If so, tap that win; if not, {seat} draws the replacement"),
    "live_flower_replace": ("沒人當場胡：{seat}補花（摸一張補 {tile}）", "Nobody wins on it now: {seat} draws the "
                            "replacement for {tile_en}"),
    "live_p_flower_last": ("{seat}摸到的最後一張是第八張花 {tile}：有人當場胡嗎？沒有就流局（沒有牌補）",
                           "{seat}'s last tile drawn is the eighth flower, {tile_en}: does anyone win on it? If not, "
                           "the hand is drawn (none is left to replace it)"),
    "live_no_flower_held": ("沒有等著補的花", "No flower is waiting for its replacement"),
    "live_flower_shown": ("{seat}亮出第八張花 {tile}", "{seat} shows the eighth flower, {tile_en}"),
    "learn_tai": ("台數", "Tai items"),
    "learn_quiz": ("聽牌練習", "Wait quiz"),
    "quiz_intro": ("第 {n} 題：這手牌聽哪些牌？點選你認為的牌，再按「對答案」。",
                   "Quiz {n}: which tiles does this hand wait on? Tap the ones you think, then Check."),
    "quiz_key_right": ("綠框：點對了", "Green: a wait you picked"),
    "quiz_key_missed": ("黃框：漏掉的", "Yellow: a wait you missed"),
    "quiz_key_wrong": ("紅框：不是要聽的牌", "Red: picked, but not a wait"),
    "quiz_check": ("對答案", "Check"),
    "quiz_next": ("下一題", "Next hand"),
    "dq_tile_best": ("最好的打法", "a best discard"),
    "dq_tile_picked": ("你打的牌", "your discard"),
    "quiz_perfect": ("全對！聽 {n} 種牌", "All correct! It waits on {n} kinds"),
    "quiz_graded": ("對了 {right}／{n} 種。漏了：{missed}；多選：{wrong}",
                    "{right} of {n} right. Missed: {missed_en}; not waits: {wrong_en}"),
    "quiz_answer": ("答案與原因", "The answer, and why"),
    "quiz_not_wait": ("{tile}不是聽的牌：加進這手，17 張怎麼排都排不成五組（順子或刻子）加一對",
                      "{tile_en} is not a wait: added to the hand, the 17 tiles cannot be arranged as five sets "
                      "(chows or pungs) and a pair"),
    "quiz_not_wait_own": ("{tile}排得成胡牌的樣子，可是四張{tile}都在你自己手上，沒有第五張可以胡",
                          "{tile_en} would complete the shape, but all four are in your own hand: there is no fifth "
                          "to win on"),
    "learn_discard": ("打哪張練習", "Discard quiz"),
    "dq_intro": ("第 {n} 題：剛摸完牌，這手 17 張要打哪一張，才離聽牌最近、進張最多？點那張牌。",
                 "Quiz {n}: a tile just drawn, 17 in hand. Which discard leaves it nearest ready, with the most "
                 "tiles to improve it? Tap it."),
    "dq_best": ("對！打{tile}是最好的打法", "Right! Discarding {tile_en} is the best play"),
    "dq_all": ("每一種打法：", "Every discard:"),
    "quiz_streak": ("連續全對 {n} 題", "{n} in a row all right"),
    "tab_ledger": ("帳本", "Ledger"),
    "ledger_intro": ("這一將打完的每一把、每家的輸贏，以及最少筆數的付款方式。",
                     "Every hand of the session, each player's balance, and the fewest payments that settle it."),
    "ledger_of_live": ("記錄中的牌局", "The live game"),
    "ledger_of_replay": ("重播的牌局（到目前這一步）", "The replay (up to its step)"),
    "ledger_none": ("還沒有人入座", "Nobody is seated yet"),
    "ledger_empty": ("還沒有打完的牌", "No hand finished yet"),
    "ledger_setting": ("{round}風圈，莊家{dealer}，連莊 {streak}", "{round_en} round, dealer {dealer}, streak {streak}"),
    "ledger_line": ("{player}{kind} {tai} 台{items}", "{player}: {kind_en}, {tai} tai{items_en}"),
    "ledger_shared": ("；罰滿台 {amount}，由另外三家平分", "; one limit payment of {amount}, split among the other three"),
    "ledger_items": ("：{items}", " ({items_en})"),  # (not in brackets: an item may carry its own, 平胡（各家規矩）)
    "ledger_capped": ("；牌面 {hand} 台，以滿台 {tai} 台計", "; the hand scores {hand}, capped at {tai}"),
    "ledger_session_hands": ("第 {n} 將的 {hands} 把（可改正）", "Session {n}: its {hands} hands (to put right)"),
    "ledger_in_total": ("（幾將一起算時，付下面「全部」的結算就好，不要兩個都付）",
                        "(with several sessions, pay only the all-sessions settle-up below, not both)"),
    "ledger_dealer": ("；莊家付或收的另加 {dealer} 台（{why}）", "; plus {dealer} tai where the dealer pays or is paid ({why_en})"),
    "ledger_dealer_only": ("莊家", "dealer"),
    "ledger_stakes_now": ("底 {base}／台 {per_tai}（第 1 把是 底 {first_base}／台 {first_per_tai}，改動記在各把），規則 {profile}",
                          "stakes {base} + {per_tai} a tai (hand 1 was {first_base} + {first_per_tai}; each change is "
                          "noted at its hand), rules {profile_en}"),
    "ledger_stakes": ("底 {base}／台 {per_tai}，規則 {profile}", "stakes {base} + {per_tai} a tai, rules {profile_en}"),
    "ledger_house": ("；本桌規矩：{rules}", "; house rules: {rules_en}"),
    "ledger_hand": ("第 {n} 把", "Hand {n}"),
    "ledger_dice": ("骰子 {n} 點", "dice {n}"),
    "ledger_winds": ("門風：{winds}", "seat winds: {winds_en}"),
    "ledger_from_hand": ("從第 {n} 把起", "From hand {n}"),
    "ledger_fix": ("改正{player}攤開的牌", "Correct {player}'s winning hand"),
    "ledger_fix_intro": ("改正第 {n} 把{player}胡的時候攤開的牌：這一把的台數和付款、之後每一把的累計都會重算",
                         "Correct the tiles {player} showed when winning hand {n}: that hand's tai and payments, and "
                         "every balance after it, are worked out again"),
    "ledger_fix_concealed": ("{player}攤開的手牌（不含胡的那張）", "{player}'s concealed tiles (without the tile won on)"),
    "ledger_fix_all_concealed": ("{player}攤開的手牌（全部）", "{player}'s concealed tiles (all of them)"),
    "ledger_fix_recorded": ("記下的是：", "As recorded:"),  # the tiles follow as pictures
    "ledger_fixed": ("已改正：{player}攤開的牌是 {tiles}", "Corrected: {player} showed {tiles_en}"),
    "ledger_fixed_pics": ("已改正：{player}攤開的牌是", "Corrected: {player} showed"),
    "ledger_fix_tile": ("自摸的那張", "The tile drawn"),
    "ledger_fix_discard": ("胡的是別人打的{tile}（不改）", "Won on the discarded {tile_en} (it stays)"),
    "ledger_fix_no_tile": ("八仙過海沒有胡的那一張，只改手牌", "Eight flowers win on no tile: the hand alone"),
    "ledger_fix_moved": ("這一把的紀錄剛改過了（撤回、重新入座或別支手機改正）：請再按一次「改正」",
                         "That hand's record has just changed (undone, players seated again, or corrected on another "
                         "phone): tap “Correct” again"),
    "ledger_fix_ok": ("記下改正", "Record the correction"),
    "ledger_fix_said": ("第 {n} 把改正了：原本 {was}，現在 {now}。結餘：{money}",
                        "Hand {n} corrected: it was {was_en}, now {now_en}. Balances: {money_en}"),
    "ledger_fix_preview": ("記下的話：原本 {was}，會變成 {now}。結餘：{money}",
                           "If recorded: it was {was_en}, it would be {now_en}. Balances: {money_en}"),
    "ledger_fix_preview_no": ("這樣記不下來：{why}", "This cannot be recorded: {why_en}"),
    "ledger_fix_cancel": ("取消", "Cancel"),
    "ledger_settle": ("結帳：最少筆數的付款", "Settling up: the fewest payments"),
    "ledger_all": ("這桌全部 {n} 將合計", "All {n} sessions at this table"),
    "ledger_session": ("第 {n} 將（{hands} 把）：{money}", "Session {n} ({hands} hands): {money_en}"),
    "ledger_all_settle": ("全部結帳：最少筆數的付款", "Settling up all of them: the fewest payments"),
    "ledger_this": ("這一將（第 {n} 將）", "This session (session {n})"),
    "ledger_even": ("沒有人需要付錢", "Nobody owes anything"),
    "ledger_csv": ("下載帳本（CSV，可用試算表開）", "Download the ledger (CSV, for a spreadsheet)"),
    "wall_where": ("{owner}的牌牆，從他右手邊數第 {i} 墩（拿走的也算）的{layer}", "the wall of {owner_en}: stack {i} counted from "
                   "that player's right-hand end (the stacks taken counted too), the {layer_en}"),
    "wall_top": ("上層", "top tile"),
    "wall_bottom": ("下層", "bottom tile"),
    "wall_next": ("下一張摸：{where}", "Next draw: {where_en}"),
    "wall_next_last": ("下一張摸的是最後一張（海底）：{where}", "Next draw, the last tile to draw (the sea floor): {where_en}"),
    "wall_dealer": ("莊", "dealer"),
    "wall_replacement": ("補牌（補花、槓）：{where}", "Next replacement (flower, kong): {where_en}"),
    "wall_over": ("這一把已經結束，不再摸牌", "The hand is over: nothing more is drawn"),
    # (the Chinese said less than the English: the replacements' end, a language review)
    "wall_kept": ("最後 {n} 張（{stacks} 墩）留著不摸（補牌仍從這頭摸）", "The last {n} tiles ({stacks} stacks) are "
                  "kept back: no ordinary draw takes them (replacements still come from this end)"),
    "wall_kept_split": ("最後 {n} 張留著不摸，在 {stacks} 墩裡：其中一墩只留下層，上層還要摸（補牌仍從這頭摸）",
                        "The last {n} tiles, in {stacks} stacks, are kept back; of one stack only the bottom tile, its "
                        "top still drawn (no ordinary draw takes them; replacements still come from this end)"),
    "wall_show": ("牌牆圖", "The wall"),
    "wall_legend_two": ("兩張（上下兩層）", "two tiles (a stack)"),
    "wall_legend_one": ("剩一張", "one tile left"),
    "wall_legend_next": ("下一張摸", "next draw"),
    "wall_legend_tail": ("下一張補牌", "next replacement"),
    "wall_legend_kept": ("留著不摸", "kept back"),
    "wall_legend_split": ("上層摸、下層留著", "top drawn, bottom kept"),
    "wall_legend_gone": ("拿走了", "taken"),
    "wall_legend_break": ("開門處", "the break"),
    "learn_dice": ("擲骰開門", "Dice and the wall"),
    "dice_intro": ("莊家擲三顆骰子：點數決定開哪一家的牌牆、從哪一墩開始拿牌。選骰子的點數（或按「擲骰」）看看：",
                   "The dealer throws three dice: the total decides whose wall is opened and the stack where dealing "
                   "starts. Pick the dice (or throw them) and see:"),
    "photo_read_said": ("讀過的照片：每張牌框出，標上讀到的牌", "The photo as read: each tile boxed and labelled with the tile read"),
    "dice_roll": ("擲骰", "Throw"),
    "die_n": ("第 {n} 顆骰子", "Die {n}"),
    "dice_total": ("骰子 {dice}，共 {total} 點", "Dice {dice}: {total} in all"),
    "dice_count": ("從莊家自己數 1，往下家數過去（逆時針）：{counts}數到 {total} 是{owner}，就開{owner}的牌牆。",
                   "Count the dealer as 1 and go on to the dealer's right (counter-clockwise): {counts_en} "
                   "Counting to {total} reaches {owner_en}: that wall is opened."),
    "dice_break": ("在{owner}的牌牆，從他右手邊數 {total} 墩留著不動，第 {first} 墩開始拿牌（圖上的紅線就是開門處）。",
                   "In the wall of {owner_en}, count {total} stacks from that player's right-hand end and leave them; "
                   "dealing starts with stack {first} (the red bar in the picture is the break)."),
    "dice_break_corner": ("{owner}的牌牆 18 墩剛好數完，數到牆角：從下一道牆（{next}的）第一墩開始拿牌。",
                          "All 18 stacks of the wall of {owner_en} are counted, up to the corner: dealing starts with the "
                          "first stack of the next wall, the wall of {next_en}."),
    "dice_deal": ("配牌：莊家先拿，每人每次拿 2 墩（4 張），照順序（逆時針）輪 4 次，每人 16 張；最後莊家再拿下一墩"
                  "（從開門處算起第 {menpai} 墩）的上層那張（門牌），共 17 張。",
                  "The deal: the dealer first, each player takes 2 stacks (4 tiles) at a time, in turn "
                  "(counter-clockwise), four rounds: 16 tiles each; then the dealer takes the top tile of the next "
                  "stack (the {menpai}rd from the break: the door tile) and holds 17."),
    "dice_tail": ("補花、開槓的牌從另一頭拿：從緊靠開門處的那一墩（{owner}牌牆上數過的第 {total} 墩）開始，往回拿；"
                  "數過的墩拿完了，就接著拿隔壁那道牆的。",
                  "Replacement tiles (for flowers and kongs) come from the other end: from the stack next to the "
                  "break (stack {total} counted in the wall of {owner_en}) back towards the first, and on into the "
                  "neighbouring wall when those run out."),
    "dice_kept": ("最後 16 張（8 墩）留著不摸（預設規則）：摸到只剩這些還沒人胡，就是流局。留的是張數，不是固定的那幾墩："
                  "補牌照樣從牌尾拿，每補一張，可摸的就少一張，永遠留 16 張。",
                  "The last 16 tiles (8 stacks) are kept back (the default rules): when only they are left and "
                  "nobody has won, the hand is drawn. What is kept is a count, not those stacks: replacements still "
                  "come from the tail, and each one taken leaves one tile fewer to draw, 16 always kept."),
    "dice_before": ("開門：{owner}的牌牆，數過的墩標了數字", "The break, in the wall of {owner_en}: the stacks counted are "
                    "numbered"),
    "dice_after": ("配牌後（發了 65 張）", "After the deal (65 tiles dealt)"),
    "tab_settings": ("設定", "Settings"),
    "set_heading": ("你的牌組", "Your tile set"),
    "set_intro": ("每副牌的字體、花樣都不一樣。把你的牌擺在校正表上拍一次，小幫手就認得這副牌：拍這副牌時，拍照算台、"
                  "拍照讀牌都會更準，花牌尤其明顯。校正只幫這一副牌；拍朋友的牌，看起來不像這副的牌就照內建的模型讀。",
                  "Every tile set looks different. Lay your tiles on the calibration sheet and photograph it once, and "
                  "the companion knows this set: photos of it are scored and read more accurately, the flowers above "
                  "all. The calibration is for this set only: tiles that do not look like it (a friend's set) are "
                  "read by the trained model alone."),
    "set_current": ("讀照片用：「{name}」的校正（{kinds} 種牌）", "Photos are read with the calibration of “{name}” "
                    "({kinds} kinds)"),
    "set_current_none": ("讀照片沒有用校正：只用內建的模型", "Photos are read without a calibration: by the trained "
                         "model alone"),
    "set_current_gone": ("選用的「{name}」已不在（檔案被移走了）：讀照片沒有用校正，請選用另一組或重新校正",
                         "The selected set “{name}” is gone (its file was removed): photos are read without a "
                         "calibration; use another set or calibrate again"),
    "set_kinds": ("{n} 種牌", "{n} kinds"),
    "set_in_use": ("使用中", "In use"),
    "set_use": ("使用", "Use"),
    "set_delete": ("刪除", "Delete"),
    "set_delete_sure": ("確定刪除「{name}」", "Yes, delete “{name}”"),
    "set_keep": ("不要刪", "Keep it"),
    "set_use_none": ("不用校正", "Use no calibration"),
    "set_none_used": ("之後讀照片不用校正", "Photos are now read without a calibration"),
    "set_used": ("之後讀照片用「{name}」", "Photos are now read with “{name}”"),
    "set_deleted": ("已刪除「{name}」", "Deleted “{name}”"),
    "set_new": ("校正一副新牌", "Calibrate a new set"),
    "set_step1": ("1. 下載校正表，用實際大小（100%）印出兩頁。", "1. Download the calibration sheet and print its two pages "
                  "at actual size (100%)."),
    "set_step2": ("2. 每一格放一張格子下面寫的牌，正面朝上；「0x 暗牌」那格放一張蓋著的牌。花牌照牌上印的數字放。",
                  "2. Put in each box the tile written under it, face up; a face-down tile in the box marked 0x. "
                  "Flowers go by the number printed on them."),
    "set_step3": ("3. 從正上方拍每一頁，四個角的黑白方塊都要拍進去；一頁一張照片上傳。",
                  "3. Photograph each page from above with its four black-and-white corner squares in view; upload one "
                  "photo per page."),
    "set_step4": ("4. 取個名字儲存：之後讀照片就用這副牌的校正。", "4. Name the set and save it: photos are read with it "
                  "from then on."),
    "set_sheet_a4": ("下載校正表（A4）", "Download the sheet (A4)"),
    "set_sheet_letter": ("下載校正表（美式信紙）", "Download the sheet (US Letter)"),
    "set_upload": ("上傳一頁的照片", "Upload a photo of a page"),
    "set_no_uploads": ("這個伺服器不收照片：請用電腦執行 companion calibrate photo",
                       "This server takes no photos: run companion calibrate photo on the computer"),
    "set_reading": ("讀校正表中…", "Reading the sheet…"),
    "set_saving": ("儲存中，讓讀牌學會這副牌（電腦忙時要半分鐘左右）…",
                   "Saving, and teaching the reader this set (up to half a minute on a busy computer)…"),
    "set_switching": ("換牌組中，讓讀牌學會這副牌…", "Switching sets, and teaching the reader this one…"),
    "sheet_page": ("{paper} 第 {n}／{of} 頁（{photo}）", "{paper_en} page {n} of {of} ({photo})"),
    "sheet_page_only": ("{paper} 第 {n}／{of} 頁", "{paper_en} page {n} of {of}"),
    "sheet_no_tiles": ("{page}：一張牌也沒找到。每一格放一張牌再拍（這張照片不算）",
                       "{page_en}: not one tile found. Put a tile in each box and photograph it again (this photo is "
                       "not used)"),
    "sheet_found": ("{found}／{boxes} 格有牌", "{found} of {boxes} boxes hold a tile"),
    "sheet_empty": ("空格：", "Empty boxes:"),
    "sheet_turned": ("這幾張放顛倒了，已幫你轉正（下次請讓牌的上方朝向紙的上方）：",
                     "Upside down in their boxes, turned the right way up (next time, each tile's top towards the "
                     "page's top):"),
    "sheet_unreadable": ("讀不到「{tile}」那格：{why}", "The box of {tile_en} cannot be read: {why_en}"),
    "sheet_check": ("請看一下「{tile}」那格：裡面的牌像是{looks}，這格先不用。放錯了的話，換好再拍一次這一頁",
                    "Look at the box of {tile_en}: its tile looks like {looks_en}, so the box is left out. If it is "
                    "in the wrong box, move it and photograph the page again"),
    "sheet_keep": ("沒放錯，照用", "It is right: use it"),
    "sheet_box": ("這格：", "The box:"),
    "sheet_looks": ("裡面的牌像：", "its tile looks like:"),
    "set_name_case": ("已經有一副叫「{saved}」的牌組（只差大小寫或全形半形）：要取代它請用「{saved}」，不然請換個名字",
                      "A set called “{saved}” is saved already (the names differ only in case or width): to replace "
                      "it use “{saved}”, else give another name"),
    "sheet_replaced": ("這一頁拍過了：改用這張新照片", "This page came before: the new photo replaces it"),
    "sheet_failed": ("{photo}：{why}", "{photo}: {why_en}"),
    "set_missing": ("還缺 {n} 種牌（沒有校正的牌只用內建模型讀）：", "{n} kinds still missing (a kind not calibrated is "
                    "read by the trained model alone):"),
    "set_all_kinds": ("{n} 種牌都有了", "All {n} kinds are in"),
    "set_name": ("牌組名稱", "Name of the set"),
    "set_name_hint": ("例如：家裡的牌", "e.g. home"),
    "set_save": ("儲存並使用", "Save and use"),
    "set_start_over": ("重來", "Start over"),
    "tap_lost": ("畫面剛好更新了：剛才那一下點在舊畫面上，沒有記錄。請看清楚，要的話再點一次。",
                 "The screen changed just as you tapped: that tap was on the old screen and was not entered. "
                 "Look again, and tap again if you meant it."),
    "set_start_over_sure": ("確定清掉已讀的頁", "Yes, clear the pages read"),
    "set_name_reserved": ("牌組名稱「{name}」不能用：「none」表示不用校正，CON、NUL 這類是 Windows 保留的名稱，請換一個",
                          "The name “{name}” cannot be used: “none” means no calibration, and names such as CON or "
                          "NUL are kept by Windows; choose another"),
    "set_name_bad": ("牌組名稱「{name}」不能用：最多 64 個字，只能有文字、數字、空格、_、- 或 ( )，開頭要是文字或數字",
                     "The name “{name}” cannot be used: up to 64 letters, digits, spaces, _, - or ( ), beginning with "
                     "a letter or digit"),
    "set_replace_sure": ("已經有一副「{name}」了：再按一次「儲存並使用」就取代它，不然請換個名字",
                         "A set called “{name}” is saved already: tap Save and use again to replace it, else give "
                         "another name"),
    "set_name_missing": ("請給這副牌取個名字", "Give the set a name"),
    "set_no_pages": ("還沒有讀到任何一頁校正表", "No page of the sheet has been read yet"),
    "set_add_sure": ("已經有一副「{name}」了：再按一次「儲存並使用」，就把這次拍到的 {m} 種牌放進去（它其他的 {k} 種照舊，"
                     "合起來 {n} 種），不然請換個名字",
                     "A set called “{name}” is saved already: tap Save and use again to put these photos' {m} kinds "
                     "into it (its other {k} kinds stay as they are, {n} in all), else give another name"),
    "set_saved": ("已儲存「{name}」（{kinds} 種牌），之後讀照片就用它", "Saved “{name}” ({kinds} kinds): photos are read "
                  "with it from now on"),
    "set_saved_lacking": ("已儲存「{name}」（{kinds} 種牌），之後讀照片就用它。還缺 {n} 種：拍好它們所在的那一頁，用同一個名字再儲存，"
                          "就會加進去",
                          "Saved “{name}” ({kinds} kinds): photos are read with it from now on. {n} kinds are still "
                          "missing: photograph the page they are on and save it under the same name to add them"),
    "set_error": ("出了錯，已記錄下來；請再試一次", "Something went wrong and was logged; please try again"),
    # --- rule sets (規則) in Settings: the house ones a host copies, edits, saves and deletes (rule_sets_model) ---
    "rs_heading": ("規則", "Rule sets"),
    "rs_intro": ("照你們家的打法做一套規則：複製任何一套，改名字和數值（滿台、起胡、計台方式、每項的台數），儲存後在「{live}」"
                 "入座和「{photo}」都可以選。已經開打的牌桌照入座時的規則算，之後改或刪都不影響。",
                 "Make a rule set of the way your table plays: copy any of them, give it names, change its values "
                 "(tai cap, minimum tai, scoring switches, each item's tai) and save it; it is offered when players sit "
                 "down on “{live_en}” and on “{photo_en}”. A table already seated keeps the rules it sat down under: "
                 "editing or deleting the set later changes none of its hands."),
    "rs_builtin": ("內建", "built in"),
    "rs_house": ("自訂", "house"),
    "rs_damaged": ("無法使用：{why}", "Cannot be used: {why_en}"),
    "rs_copy_from": ("複製哪一套", "Copy"),
    "rs_new_id": ("新規則的 id（字母、數字、_ 或 -）", "New id (letters, digits, _ or -)"),
    "rs_name_zh": ("中文名稱", "Chinese name"),
    "rs_name_en": ("英文名稱", "English name"),
    "rs_copy": ("複製", "Copy"),
    "rs_edit": ("修改", "Edit"),
    "rs_delete": ("刪除", "Delete"),
    "rs_delete_sure": ("確定刪除「{name}」", "Really delete “{name_en}”"),
    "rs_keep": ("不刪", "Keep it"),
    "rs_save": ("儲存規則", "Save the rule set"),
    "rs_cancel": ("取消", "Cancel"),
    "rs_editing": ("編輯「{name}」（id {id}，複製自「{base}」）", "Editing “{name_en}” (id {id}, copied from “{base_en}”)"),
    "rs_editing_own": ("編輯「{name}」（id {id}）", "Editing “{name_en}” (id {id})"),
    "rs_group_caps": ("滿台與起胡", "Caps and minimum"),
    "rs_group_scoring": ("計台方式", "Scoring switches"),
    "rs_group_items": ("各項台數", "Tai of each item"),
    "rs_group_procedure": ("打法（入座時也可以改）", "Procedure (also set at seating)"),
    "rs_changed": ("{n} 項和原本不同", "{n} changed"),
    "rs_no_cap": ("空白＝不限，或 {least} 到 {most}", "blank: no cap; or {least} to {most}"),
    "rs_number": ("{least} 到 {most}", "{least} to {most}"),
    "rs_saved": ("已儲存「{name}」（id {id}）：入座和拍照算台的規則選單裡都有它",
                 "Saved “{name_en}” (id {id}): it is offered when players sit down and when a hand is scored"),
    "rs_deleted": ("已刪除「{name}」；用它入座的牌桌照舊", "Deleted “{name_en}”; tables seated under it are unchanged"),
    "rs_not_a_choice": ("沒有「{got}」這個選項", "“{got}” is not one of the options"),
    "rs_not_a_number": ("「{got}」不是 {least} 到 {most} 的整數", "“{got}” is not a whole number from {least} to {most}"),
    "rs_not_a_number_or_none": ("「{got}」不是 {least} 到 {most} 的整數（空白＝不限）",
                                "“{got}” is not a whole number from {least} to {most} (blank: none)"),
    "rs_out_of_range": ("{got} 不在 {least} 到 {most} 之間", "{got} is not from {least} to {most}"),
    "rs_field_bad": ("「{field}」：{why}", "{field_en}: {why_en}"),
    "rs_id_missing": ("請給新規則一個 id", "Give the new rule set an id"),
    "rs_id_bad": ("id「{id}」只能用字母、數字、_ 或 -，最多 {most} 個字", "The id “{id}” may hold only letters, digits, _ "
                  "or -, at most {most} of them"),
    "rs_id_builtin": ("「{id}」是內建規則的 id，請換一個", "“{id}” is a built-in rule set's id: choose another"),
    "rs_id_taken": ("已經有一套「{id}」了：要改它就按它的「修改」，不然請換個 id",
                    "A rule set “{id}” is saved already: tap its Edit to change it, or choose another id"),
    "rs_name_missing": ("中文和英文名稱都要填", "Give both the Chinese and the English name"),
    "rs_name_long": ("名稱最多 {zh} 個中文字（或 {most} 個英文字母），選單才放得下",
                     "A name may be at most {most} letters long (or {zh} Chinese characters), so the rule dropdowns "
                     "show it whole"),
    "rs_name_en_cjk": ("英文名稱請用英文字母", "Write the English name in Latin letters"),
    "rs_name_taken": ("「{name}」已經是另一套規則（id {id}）的名稱，請換一個",
                      "“{name_en}” is already the name of another rule set (id {id}): choose another"),
    "rs_builtin_kept": ("「{id}」是內建規則，不能修改或刪除；請複製一份再改", "“{id}” is built in and is never edited or "
                        "deleted: copy it and change the copy"),
    "rs_not_there": ("沒有「{name}」這套自訂規則（可能已經刪除了）",
                     "There is no house rule set “{name_en}” (deleted already?)"),
    "rs_write_failed": ("無法寫入：{why}", "Could not write it: {why_en}"),
    # (a change review of the rule-set editor: two phones, files saved by the command, sets inherited, wording)
    "rs_changed_meanwhile": ("「{name}」在你打開編輯後已被另一支手機改過，這次沒有儲存，免得蓋掉對方的修改。按「重新載入」"
                             "看現在的內容再改（你在這裡的修改會放棄）",
                             "“{name_en}” was changed on another phone after you opened it, so this was not saved "
                             "(it would have wiped out that change). Tap Reload to edit it as it is now (your "
                             "changes here are dropped)"),
    "rs_gone_meanwhile": ("「{name}」在你打開編輯後已被另一支手機刪除，這次沒有儲存。要照你這裡的內容重新建立它，"
                          "請按「重新儲存」",
                          "“{name_en}” was deleted on another phone after you opened it, so this was not saved. To "
                          "make it again as you have it here, tap Save it again"),
    "rs_reload": ("重新載入", "Reload"),
    "rs_save_again": ("重新儲存", "Save it again"),
    "rs_delete_inherited": ("不能刪除「{name}」：{names}是照它改的（繼承它），刪了它，它們就無法使用。請先刪除它們",
                            "“{name_en}” was not deleted: {names_en} inherit it and could not be used without it. "
                            "Delete them first"),
    "rs_delete_failed": ("無法刪除：{why}", "Could not delete it: {why_en}"),
    "rs_min_above_cap": ("「{min_name}」{least} 台大於「{cap_name}」{cap} 台，沒有一手胡牌付得到起胡的台數",
                         "{min_name_en} ({least}) is above {cap_name_en} ({cap}): no win could be paid what it needs"),
    "rs_parent_gone": ("它照「{parent}」改（繼承），但「{parent}」已經不在了", "It inherits “{parent_en}”, which is no "
                       "longer here"),
    "rs_case_builtin": ("檔案 {id} 和內建規則 {builtin} 只差在大小寫，無法使用；可以刪除它",
                        "The file {id} differs from the built-in {builtin} only in case and cannot be used; you can "
                        "delete it"),
    "rs_name_odd": ("「{field}」裡有看不見的控制字元（{code}），請寫成一行看得見的字",
                    "The {field_en} holds an invisible control character ({code}): write it on one line, of visible "
                    "characters"),
    "rs_scored_with": ("計算規則：{name}", "Scored with: {name_en}"),
    "rs_used_default": ("規則「{name}」已刪除或無法讀取，這裡改用「{default}」計算",
                        "The rule set “{name_en}” was deleted or cannot be read: scored here with “{default_en}”"),
    # (rule sets, a change review's mends: the card, the heirs, the names)
    "rs_scored_before": ("這個結果是用「{name}」算的（當時它還在）；再算一次才會改用現在的規則",
                         "This result was scored with “{name_en}” while it was still here; score the hand again to use "
                         "the rules picked now"),
    "rs_delete_inherited_one": ("不能刪除「{name}」：{names}是照它改的（繼承它），刪了它，{names}就無法使用。請先刪除{names}",
                                "“{name_en}” was not deleted: {names_en} inherits it and could not be used without it. "
                                "Delete {names_en} first"),
    "rs_ancestor_gone": ("它照「{via}」改（繼承），但「{via}」所根據的「{parent}」已經不在了",
                         "It inherits “{via_en}”, and the set “{parent_en}” that one comes from is no longer here"),
    "rs_used_default_parent": ("規則「{name}」所根據的「{parent}」已經不在了，這裡改用「{default}」計算",
                               "The set “{parent_en}” that the rule set “{name_en}” comes from is no longer here: "
                               "scored here with “{default_en}”"),
    # (rule sets, a change review's mends: sets made again, damaged files, the Live tab's pick, the Learn tab)
    "rs_damaged_set": ("規則「{name}」的檔案有問題：{why}", "The file of the rule set “{name_en}” is damaged: {why_en}"),
    "rs_used_damaged": ("{why}；這裡改用「{default}」計算", "{why_en}; scored here with “{default_en}”"),
    "rs_damaged_meanwhile": ("規則「{name}」在你打開編輯後被改過，現在無法使用。{why}。這次沒有儲存，檔案照原樣留著，沒有蓋掉；"
                             "可以在清單裡刪除它",
                             "The rule set “{name_en}” was changed after you opened it and cannot be used now. "
                             "{why_en}. This was not saved and the file is left as it is, not written over; you can "
                             "delete it in the list"),
    "rs_id_damaged": ("{why}。這次沒有儲存，檔案照原樣留著，沒有蓋掉：要用這個 id，請先在清單裡刪除它",
                      "{why_en}. This was not saved and the file is left as it is, not written over: to use this id, "
                      "delete it in the list first"),
    "rs_remade_same_id": ("另一支手機在這期間又存了一套 id {id} 的規則（「{other}」），這次沒有蓋掉它。按「重新載入」打開"
                          "那一套（你在這裡的修改會放棄）",
                          "Another phone has meanwhile saved a rule set under the id {id} (“{other_en}”), so this was "
                          "not saved over it. Tap Reload to open that one (your changes here are dropped)"),
    "rs_remade_same_name": ("另一支手機在這期間存了一套規則「{other}」（id {id}），它也叫「{name}」，這次沒有再存一套同名的"
                            "（兩套同名在選單裡分不出來）。請給這一套改個名字再儲存，或取消，去修改那一套",
                            "Another phone has meanwhile saved a rule set “{other_en}” (id {id}) that is also named "
                            "“{name_en}”, so this was not saved as a second set of that name (the dropdowns could not "
                            "tell the two apart). Give this one other names and save it, or cancel and edit that one"),
    "live_profile_gone": ("你選的規則「{name}」已經被刪除了（可能是在另一支手機上）：入座前請另選一套",
                          "The rule set you picked, “{name_en}”, has been deleted (on another phone?): pick another "
                          "before the players sit down"),
    "live_profile_unusable": ("你選的規則「{name}」現在無法使用。{why}。入座前請另選一套",
                              "The rule set you picked, “{name_en}”, cannot be used now. {why_en}. Pick another "
                              "before the players sit down"),
    "learn_by_house": ("你們自訂的規則的台數：", "Tai under your house rule sets:"),
    # (rule sets: a name that differs from another set's only in case or width, a code review)
    "rs_name_alike": ("「{name}」和已存的規則名稱「{theirs}」看起來一樣（只差大小寫、全形半形、空格或看不見的字元），在選單裡"
                      "分不出來，請換一個",
                      "“{name_en}” looks the same as the saved rule set name “{theirs_en}” (they differ only in case, "
                      "width, spaces or characters that show nothing), so the dropdowns could not tell them apart: "
                      "choose another"),
    # (rule sets, a second change review: files that cannot be read, parents gone or damaged at a save)
    "rs_not_a_file": ("規則「{name}」的檔案 {file} 不是一般的檔案（{what}）",
                      "The file of the rule set “{name_en}”, {file}, is not a file ({what_en})"),
    "rs_save_parent_gone": ("這次沒有儲存：它照「{parent}」改（繼承），但「{parent}」已經不在了",
                            "This was not saved: it inherits “{parent_en}”, which is no longer here"),
    "rs_delete_folder": ("沒有刪除：{id}.toml 是一個資料夾，裡面還有檔案；請在存資料的電腦上把它移走",
                         "Not deleted: {id}.toml is a folder with files in it; move it away on the computer that "
                         "keeps the data"),
    "rs_parent_damaged_set": ("規則「{name}」所根據（繼承）的「{parent}」有問題，無法使用：{why}",
                              "The set “{parent_en}” that the rule set “{name_en}” inherits is damaged: {why_en}"),
    "rs_gone_named": ("{name}（已不在了）", "{name_en} (no longer here)"),
    "rs_unusable_named": ("{name}（無法使用）", "{name_en} (cannot be used)"),
    "rs_id_damaged_copy": ("{why}。檔案照原樣留著：要用這個 id，請先在清單裡刪除它",
                           "{why_en}. The file is left as it is: to use this id, delete it in the list first"),
    "rs_name_en_wide": ("英文名稱裡的「{char}」是全形字，請改成半形的「{narrow}」",
                        "The English name holds “{char}”, a full-width character a Chinese keyboard types: write "
                        "“{narrow}” instead"),
    "live_start_pick_another": ("沒有入座：你選的規則不能用（原因在規則選單下方），請另選一套",
                                "Nobody was seated: the rule set picked cannot be used (why is said under the rule "
                                "dropdown); pick another"),
    "rs_save_parent_damaged": ("這次沒有儲存：它照「{parent}」改（繼承），但「{parent}」現在無法使用。{why}",
                               "This was not saved: it inherits “{parent_en}”, which cannot be used now. {why_en}"),
    "photo_fix": ("讀錯了嗎？點那張牌，選它其實是哪張，就會重新算台", "Misread? Tap the tile and pick what it really is: "
                  "the hand is scored again"),
    "photo_fix_to": ("第 {n} 張其實是：", "Tile {n} is really:"),
    "photo_fix_cancel": ("不改", "Leave it"),
    "photo_fixed": ("你改了 {n} 張", "Corrected by you: {n}"),
    "photo_not_win_corrected": ("照你改過的 {n} 張牌，這手不是胡牌（逐列：{tiles}）。點深綠框的牌可以改回，"
                                "或按「全部照原本讀的」",
                                "With the {n} tiles you corrected this is no winning hand (row by row: {tiles_en}). "
                                "Tap a dark-green-framed tile to change it back, or Undo my corrections"),
    "typed_name": ("輸入的手牌：{hand}", "Hand typed: {hand}"),
    "typed_bad": ("這手牌寫錯了：{why}", "The hand cannot be read: {why_en}"),
    "typed_count": ("張數不對：{n} 張（手牌加上每組吃碰槓各算 3 張）；胡牌的手牌是 {want} 張，胡的那張算在內（槓的第四張不算）",
                    "{n} tiles (concealed + 3 per meld): a winning hand has {want}, the tile won on included (a "
                    "kong's fourth not counted)"),
    "typed_not_win": ("這手還沒胡：要 17 張（槓多一張）組成五組加一對",
                      "This hand is not a win: it needs 17 tiles (one more per kong) in five sets and a pair"),
    "typed_win_tile": ("不知道胡的是哪張，先當作 {tile} 算（{tai} 台，最多）；台數照實際胡的那張，請在上面點它",
                       "Which tile was won on is not known: taken as {tile_en} ({tai} tai, the most). The tile "
                       "actually won on decides: tap it above"),
    "typed_win_tied": ("不知道胡的是哪張：胡{tile}都是 {tai} 台（最多），先照這個算；台數照實際胡的那張，請在上面點它",
                       "Which tile was won on is not known: {tile_en} each give {tai} tai, the most, and that is taken. "
                       "The tile actually won on decides: tap it above"),
    "typed_win_pick": ("胡的是哪一張？點那張，就照它算（牌下是台數）",
                       "Which tile was won on? Tap it and the hand is scored with it (tai under each)"),
    "typed_win_most": ("不確定：算最多台的", "Not sure: the most tai"),
    "typed_win_absent": ("手牌裡沒有{tile}", "the hand holds no {tile_en}"),
    "typed_win_refused": ("照胡{tile}算不成：{why}", "Won on {tile_en}, it cannot be scored: {why_en}"),
    "typed_hand": ("這手牌", "The hand"),
    "phase_last_discard": ("最後一張打出的牌：等人胡（河底），沒人胡就流局", "The last discard: a win on it (last-discard "
                           "win), or the hand is drawn"),
    "house_rule_mark": ("（各家規矩）", " (house rule)"),
    "house_rule_means": ("標「各家規矩」的，各家算法不同（規則書沒寫清楚），開打前先講好",
                         "Items marked (house rule) are counted differently from table to table (the rule books "
                         "leave them open): agree on them before you play"),
    "house_rule_otherwise": ("有的牌桌這手另計「{item}」{tai} 台；這套規則不計（它的規矩：{why}）",
                             "Some tables also count “{item_en}” ({tai} tai) for this hand; this rule set does not "
                             "(its rule: {why_en})"),
    "typed_notes": ("請注意", "Note"),
    "typed_field": ("沒有照片？直接輸入胡的手牌", "No photo? Type the winning hand"),
    "typed_score": ("算台數", "Score it"),
    "photo_fix_reset": ("全部照原本讀的", "Undo my corrections"),
    "photo_tile_set": ("用「{name}」的校正讀牌", "Read with the calibration of “{name}”"),
    # the eighth flower shown and not yet replaced (spec §2.6, §4.2 八仙過海, §4.4 七搶一): what the table waits for
    "live_p_flower_none": ("{seat}摸到第八張花 {tile}：現在沒有人能當場胡（相公或詐胡陪打），{seat}補花",
                           "{seat} has drawn the eighth flower, {tile_en}: nobody may win on it now (a wrong count "
                           "or a false win played dead), so {seat} draws the replacement"),
    "flower_held_mark": ("剛摸到，還沒補花", "just drawn, not replaced yet"),  # beside it on the seat's flower row
    # a win form whose own draw was since shown to be the eighth flower (its correction, live_offer): what changed
    # and the way out (a review's form said "earlier entries were taken back" and its undo "look, then tap again")
    "live_claim_gone_flower": ("這個表單開啟時{seat}摸的牌，後來亮出是第八張花 {tile}",
                               "The tile {seat} drew when this form was opened was since shown to be the eighth "
                               "flower, {tile_en}"),
    "live_claim_undo_flower": ("。如果花是點錯的，按「{button}」，把那張摸牌改回面朝下，再記這個胡；不然按「取消」",
                               ". If the flower was tapped by mistake, tap “{button_en}” to put the draw back face "
                               "down, then record this win; otherwise tap Cancel"),
    # a capped hand's payment with the dealer's tai in it: the cap seen applied, its tai and the dealer's apart (a
    # review read "the hand scores 9, capped at 8; plus 1" then "(30 + 9 tai × 10)" as the cap not applied)
    "pays_stakes_capped": ("{payer}付{payee} {amount}（底 {base} + ({tai} + {dealer}) 台 × {per_tai}）",
                           "{payer} pays {payee} {amount} ({base} + ({tai} + {dealer}) tai × {per_tai})"),
    # the rule set a table kept at seating, once its file here says otherwise (edited, deleted or damaged since): the
    # Score card, the Live tab's and the Ledger's heads name it so (a review read one name for two sets of values)
    "rules_as_seated": ("{name}（入座時的版本）", "{name_en} (as seated)"),
    # (the Table tab's "Seated" line, a log whose rules this install cannot read: named as the log carries them)
    "table_rules_not_here": ("規則「{name}」，這台裝置上沒有這套規則", "rule set “{name_en}”, not on this device"),
    # --- a photo unfit to be read (companion.vision.quality, whose own words say why: shaken, black and white),
    # said after the reason where it cannot be scored ---
    "photo_also": ("；{what}", "; {what_en}"),
    # a win form's undo that may not reach back (LiveGame._since_path): the form's hand ended since, or more taps since
    # than it takes back (a review's form, left open for a hand, offered to undo the result and the next deal)
    "live_claim_on": ("之後又記了好幾步", "more entries were made since"),
    "live_claim_barred": ("。{why}，請按「取消」", ". {why_en}: tap Cancel"),
    "live_since_hand_over": ("這個表單開啟的那一局已經結束了（已記入帳本），撤回不能跨過一局的結束",
                             "The hand this form was opened in has ended since (its result is in the ledger), and "
                             "undo here never reaches back across a hand's end"),
    "live_since_too_many": ("之後已經記了超過 {n} 步，這裡的撤回最多撤回 {n} 步",
                            "More than {n} entries were made since, and undo here takes back at most {n}"),
    # a win form whose own win another phone recorded since (LiveGame.recorded): said so, Cancel only
    "live_claim_recorded": ("{winner}的這個胡已經記上了（別的手機記的），這個表單不用再記，請按「取消」",
                            "This win of {winner} is recorded already (entered on another phone), so this form has "
                            "nothing more to record: tap Cancel"),
    # --- companion tai --explain: a record's rules that name no rule set (its ``rules`` without a ``profile``), where
    # the record gives them no name either (a review read "Profile: rules", a key printed as a name) ---
    "rules_of_record": ("這筆紀錄帶的規則", "the rules this record carries"),
    # --- a win form's undo (LiveGame.since, undo_also): a stretch of entries since left out of its list, said with
    # how many (a review: the entry that ended the form's hand fell off the last 4), and a record about another seat
    # that the undo takes back too (a review: an eighth-flower form's undo took back another seat's 相公 unwarned) ---
    "live_since_gap": ("……另 {n} 筆", "… {n} more"),
    "live_undo_since_also": ("注意：「{button}」也會撤回別家的紀錄：{what}。那一筆也該撤回才按",
                             "Careful: “{button_en}” also takes back another player's record: {what_en}. Tap it "
                             "only if that should go too"),
    # (rule sets: a set that cannot be played, said in the app's words: its file or a set it inherits damaged, each
    # set by its name, the reason with no path, a review)
    "rs_own_damaged": ("它的檔案有問題：{why}", "Its file is damaged: {why_en}"),
    "rs_parent_damaged": ("它照「{parent}」改（繼承），但「{parent}」的檔案有問題：{why}",
                          "It inherits “{parent_en}”, whose file is damaged: {why_en}"),
    "rs_ancestor_damaged": ("它照「{via}」改（繼承），但「{via}」所根據的「{parent}」的檔案有問題：{why}",
                            "It inherits “{via_en}”, and the file of “{parent_en}”, which that one comes from, is "
                            "damaged: {why_en}"),
    "rs_ancestor_damaged_set": ("規則「{name}」照「{via}」改（繼承），但「{via}」所根據的「{parent}」的檔案有問題，"
                                "無法使用：{why}",
                                "The rule set “{name_en}” inherits “{via_en}”, and the file of “{parent_en}”, which "
                                "that one comes from, is damaged: {why_en}"),
    # (seating again: the switches a table played otherwise, the instant wins' too, kept and said on the form, a
    # review: 八仙過海 switched between hands went back to the rule set's unsaid)
    "live_seat_otherwise": ("入座後跟這套規則不同的：{rules}", "Played otherwise than the rule set once seated: {rules_en}"),
    "live_instant_kept": ("{names}平常跟著規則的台數；這桌改過的照樣保留，要照規則就在這裡改回來。",
                          "{names_en} come with the rule set's tai; what this table changed is kept: set it back here "
                          "to play the rule set's."),
    # (rule sets, a change review of their wording: a set it inherits whose file is a folder, sets that inherit each
    # other in a circle, each by its name, no path and no command-line advice)
    "rs_parent_not_a_file": ("它照「{parent}」改（繼承），但「{parent}」的檔案無法讀取：{what}",
                             "It inherits “{parent_en}”, whose file cannot be read: {what_en}"),
    "rs_ancestor_not_a_file": ("它照「{via}」改（繼承），但「{via}」所根據的「{parent}」的檔案無法讀取：{what}",
                               "It inherits “{via_en}”, and the file of “{parent_en}”, which that one comes from, "
                               "cannot be read: {what_en}"),
    "rs_save_parent_not_a_file": ("這次沒有儲存：它照「{parent}」改（繼承），但「{parent}」的檔案無法讀取：{what}",
                                  "This was not saved: it inherits “{parent_en}”, whose file cannot be read: "
                                  "{what_en}"),
    "rs_loop": ("它的繼承繞成一圈（每一套都照下一套改），這幾套都無法使用：{chain}",
                "Its inheritance goes round in a circle (each set inherits the next), so none of these can be used: "
                "{chain_en}"),
    # --- a win form's undo and the records about seats it takes back (LiveGame.undo_also, own_bar): several said in
    # the plural, in the order entered (a review read them backwards, as one), the form's own seat's too; his own
    # record that bars his win (相公 under dead_hand, 詐胡 played dead, spec §2.16) is not undone to record it ---
    "live_undo_since_also_many": ("注意：「{button}」也會撤回這幾筆關於玩家的紀錄：{what}。那幾筆也該撤回才按",
                                  "Careful: “{button_en}” also takes back these records about players: {what_en}. Tap "
                                  "it only if those should go too"),
    "live_undo_since_also_own": ("注意：「{button}」也會撤回{seat}自己的紀錄：{what}。那一筆也該撤回才按",
                                 "Careful: “{button_en}” also takes back a record about {seat}, the winner on "
                                 "this form: {what_en}. Tap it only if that should go too"),
    "live_since_own_bar": ("之後記了 {what}：照規則{seat}這一局不能再胡，這裡的撤回不會為了記這個胡把它撤回。如果那一筆"
                           "是記錯的，就用「{undo}」一步一步撤回：先撤回它之後記的，再撤回那一筆本身；撤回後這個表單會帶著已經打好的牌"
                           "再打開",
                           "Entered since: {what_en}. By the rules {seat} may not win for the rest of this hand, so "
                           "undo here will not take that back to record this win. If it was entered by mistake, take "
                           "it back with “{undo_en}”, one entry at a time: the entries after it, then that record "
                           "itself; this form then opens again with the tiles typed in it"),
    # --- a win form barred by its winner's own record (LiveGame.undo_also, claim_gone): several records his own
    # among them said so; only records entered since, the tile still live, said without "can no longer be won on"
    # (a change review of the Live win form) ---
    "live_undo_since_also_many_own": ("注意：「{button}」也會撤回這幾筆關於玩家的紀錄，其中有這個表單的胡牌者{seat}自己的："
                                      "{what}。那幾筆也該撤回才按",
                                      "Careful: “{button_en}” also takes back these records about players, among them "
                                      "{seat}'s own ({seat} is the winner on this form): {what_en}. Tap it only if "
                                      "those should go too"),
    "live_claim_barred_only": ("{why}。{right}，請按「取消」", "{why_en}. {right_en}, tap Cancel"),
    # --- rule sets: a set that inherits what no rule set can be called (inherits = "", or "Bad Id!"), said so, not
    # as a set "no longer here" (a review read "It inherits “”, which is no longer here") ---
    "rs_inherits_empty": ("它的檔案裡 inherits 是空的，沒寫要照哪一套規則改（繼承）",
                          "Its file's inherits is empty: it names no rule set to inherit"),
    "rs_inherits_bad_id": ("它照「{parent}」改（繼承），但沒有規則能叫這個 id（id 只能用字母、數字、_ 和 -）",
                           "It inherits “{parent_en}”, an id no rule set can have (an id has only letters, digits, "
                           "_ and -)"),
    "rs_ancestor_inherits_bad": ("它照「{via}」改（繼承），但「{via}」的檔案沒寫出能照著改的規則（inherits = {parent}）",
                                 "It inherits “{via_en}”, whose file names no rule set that can be inherited "
                                 "(inherits = {parent_en})"),
    # --- rule sets: an inherits of spaces alone said to be blank, not empty; a save refused for a parent that is
    # here but whose own inherits cannot be followed says so by the parent's name (a review read "It inherits
    # “gone_one”, which is no longer here" after "which cannot be used now", as if the parent were gone) ---
    "rs_inherits_blank": ("它的檔案裡 inherits 只有空白（空格或定位字元），沒寫要照哪一套規則改（繼承）",
                          "Its file's inherits is blank (only spaces or tabs): it names no rule set to inherit"),
    "rs_save_parent_broken": ("這次沒有儲存：它照「{parent}」改（繼承）；「{parent}」還在，但現在無法使用。{why}",
                              "This was not saved: it inherits “{parent_en}”, which is here but cannot be used now. "
                              "{why_en}"),
    "rs_named_parent_gone": ("「{name}」照「{parent}」改（繼承），但「{parent}」已經不在了",
                             "“{name_en}” inherits “{parent_en}”, which is no longer here"),
    "rs_named_inherits_empty": ("「{name}」的檔案裡 inherits 是空的，沒寫要照哪一套規則改（繼承）",
                                "The file of “{name_en}” names no rule set to inherit: its inherits is empty"),
    "rs_named_inherits_blank": ("「{name}」的檔案裡 inherits 只有空白（空格或定位字元），沒寫要照哪一套規則改（繼承）",
                                "The file of “{name_en}” names no rule set to inherit: its inherits is blank (only "
                                "spaces or tabs)"),
    "rs_named_inherits_bad_id": ("「{name}」照「{parent}」改（繼承），但沒有規則能叫這個 id（id 只能用字母、數字、_ 和 -）",
                                 "“{name_en}” inherits “{parent_en}”, an id no rule set can have (an id has only "
                                 "letters, digits, _ and -)"),
    # --- the Live tab where the table file's folder is no folder (a file, a link that loops or leads to nothing):
    # `companion app LOG` serves the replay all the same, and every live entry is refused by this (a change review) ---
    "live_no_folder": ("記錄的牌局存不進去：{why}，牌局檔 {file} 無法放在那裡。請把檔案 {name} 移走，在那裡建一個資料夾，"
                       "或請主機改用別處的牌局檔重新啟動 companion app（主機的終端機上有說明）",
                       "Live entries cannot be saved: {why_en}, so the table file {file} cannot be kept there. Move "
                       "the file {name} away and make a folder there, or the host can start the app again on a "
                       "table file elsewhere (the host's terminal says how)"),
    # --- rule sets: a save refused for a set further up its parent's line, each set named, the parent's line down to
    # the one at fault (a change review read "…, which cannot be used now. It inherits “Middle”, …", "it" read as the
    # set saved) ---
    "rs_inherits_link": ("「{name}」照「{parent}」改（繼承）", "“{name_en}” inherits “{parent_en}”"),
    "rs_line_then": ("{line}。{why}", "{line_en}. {why_en}"),
    "rs_named_parent_not_a_file": ("「{name}」照「{parent}」改（繼承），但「{parent}」的檔案無法讀取：{what}",
                                   "“{name_en}” inherits “{parent_en}”, whose file cannot be read: {what_en}"),
    "rs_named_loop": ("{chain}的繼承繞成一圈（每一套都照下一套改），這幾套都無法使用",
                      "{chain_en} go round in a circle (each set inherits the next), so none of these can be used"),
    # --- rule sets: a circle said of the sets in it alone, the line down to it said before it (a change review read
    # "The inheritance of “Friday house” goes round in a circle … “Friday house” → “Middle” → “Top” → “Middle”",
    # Friday house not in the circle) ---
    "rs_named_loop_self": ("「{name}」照自己改（繼承自己），無法使用", "“{name_en}” inherits itself, so it cannot be used"),
    "rs_named_loop_pair": ("「{name}」和「{other}」互相繼承，這兩套都無法使用",
                           "“{name_en}” and “{other_en}” inherit each other, so neither can be used"),
    # --- rule sets: what stands where a set's file must be read, said as the one it is (a change review read "it is
    # a folder, a link to a file that is not there, or a link that loops back on itself" where it was one) ---
    "rs_what_folder": ("它是資料夾", "it is a folder"),
    "rs_what_dangling": ("它是指向不存在檔案的連結", "it is a link to a file that is not there"),
    "rs_what_loop": ("它是繞回自己的連結", "it is a link that loops back on itself"),
    "rs_what_other": ("它是管道、裝置之類的特殊檔案", "it is a special file, such as a pipe or a device"),
    # --- a win form barred by its winner's own record (LiveGame.own_bar, claim_gone): after the list of entries a
    # stale form shows, the bar alone, naming which of his records bars (a review: the records listed twice, once as
    # "Entered since", and 「其中 C 自己的 C 相公（張數不對）：照規則…」 with no verb, C named twice); with nothing
    # played, every record entered since, then the bar; his records that bar nothing (a correction, a 天聽) not named
    # as the bar ---
    # (his name once in Chinese: 「C 自己的相公讓他這一局不能再胡」, a review read 「…讓 C 這一局…」 as C named twice)
    "live_own_bar_one": ("{seat}自己的{own}讓他這一局不能再胡，這裡的撤回不會為了記這個胡把它撤回。如果那一筆是記錯的，"
                         "就用「{undo}」一步一步撤回：先撤回它之後記的，再撤回那一筆本身；撤回後這個表單會帶著已經打好的牌"
                         "再打開",
                         "{seat}'s own record ({own_en}) bars this win: by the rules {seat} may not win for the rest of "
                         "this hand, so undo here will not take it back to record this win. If it was entered by "
                         "mistake, take it back with “{undo_en}”, one entry at a time: the entries after it, then that "
                         "record itself; this form then opens again with the tiles typed in it"),
    "live_own_bar_many": ("{seat}自己的{own}讓他這一局不能再胡，這裡的撤回不會為了記這個胡把它們撤回。如果{those}都是"
                          "記錯的，就用「{undo}」一步一步撤回：先撤回它們之後記的，再撤回{those}本身；撤回後這個表單會帶著"
                          "已經打好的牌再打開",
                          "{seat}'s own records ({own_en}) bar this win: by the rules {seat} may not win for the rest "
                          "of this hand, so undo here will not take them back to record this win. If they were entered "
                          "by mistake, take them back with “{undo_en}”, one entry at a time: the entries after them, "
                          "then {those_en} themselves; this form then opens again with the tiles typed in it"),
    "live_own_bar_listed": ("之後記了 {what}，其中 {bar}", "Entered since: {what_en}. {bar_en}"),
    "live_own_bar_wrong_count": ("相公（張數不對）", "wrong tile count"),
    # (several: "C 自己的 2 筆相公", the space before the number in the word, as after 和)
    "live_own_bar_wrong_counts": (" {n} 筆相公（張數不對）", "{n} wrong tile counts"),
    "live_own_bar_false_win": ("詐胡", "false win"),
    "live_own_bar_both": ("{first}和{second}", "{first_en} and {second_en}"),
    # --- the Live tab where the table file itself is a link that loops (`companion app LOG` serves the replay all the
    # same), and the replay named where the app was started with a LOG to replay (a change review) ---
    "live_table_loops": ("記錄的牌局存不進去：牌局檔 {file} 是繞回自己的符號連結。請移除這個連結，或請主機改用別處的"
                         "牌局檔重新啟動 companion app（主機的終端機上有說明）",
                         "Live entries cannot be saved: the table file {file} is a link that loops back on itself. "
                         "Remove the link, or the host can start the app again on a table file elsewhere (the "
                         "host's terminal says how)"),
    "live_replay_still": ("。「牌桌」上 {log} 的重播照常可以看", ". The replay of {log} still plays on the Table tab"),
    # --- the photo form's box for a hand with nothing called (門清), whose rows lie as melds would: a row apart with
    # no tile lying sideways is taken as called, and the card says what the hand would be concealed ---
    "photo_calls": ("吃碰", "Calls"),
    "photo_calls_": ("照擺法判斷", "As laid out"),
    "photo_calls_concealed": ("沒有（門清）", "None (concealed)"),
    "photo_concealed_hint": ("：是的話請在「{field}」選「{choice}」", ": if so, choose “{choice_en}” under “{field_en}”"),
    # --- teaching review 2 (the quizzes, My hand, `companion discard`) ---
    # four of an honour held concealed between turns (spec §3.1: a pung plus one can never make a pair)
    "four_honours_held": ("。四張{tile}都在手上：不能當一組刻子加一張用（多的那張湊不成對，這樣永遠胡不了）。輪到你時，"
                          "只能開暗槓，或打掉一張",
                          ". All four copies of the {tile_en} are in your hand: they cannot be used as a pung plus "
                          "one (the extra one can never make a pair, so the hand cannot win that way). On your turn, "
                          "make them a concealed kong or discard one"),
    # a pair wait (單吊) said as a learner reads it, not "Red dragon + Red dragon (7z) makes Red dragon x2 (pair
    # wait)"; and 獨聽 on the pair not "Single wait (pair)"
    "wait_why_pair": ("單吊{tile}：手上一張{tile}，等另一張{tile}湊成一對", "a lone {tile_en} waits for its partner to make the pair"),
    "single_wait_pair": ("（獨聽：單吊）", " (a single wait, on the pair)"),
    # --- the photo's tiles the reader changed to make the hand a win, or named for a refusal (a review saw two 1s in
    # the correction list and could not tell which the reader had changed; its summary carried no doubt) ---
    "photo_fix_legend_changed": ("橘框：不太確定、被改讀、或要檢查的；深綠框：你改過的",
                                 "Orange frame: unsure, changed by the reader, or to check; dark green frame: corrected "
                                 "by you"),
    "photo_sum_changed": ("（改讀了 {n} 張才是胡牌：請檢查橘框的牌）",
                          " (only with {n} tiles read otherwise is this a win: check the orange-framed tiles)"),
    # --- a refused photo's way out (hand_score.WayOut), said as the app does it: the Score tab's tiles to tap, the
    # Live tab's form (the command line's options and `companion tai` mean nothing on a phone) ---
    "photo_way_correct": ("；讀錯的牌請在下面點它，選它其實是哪張", "; tap a tile read wrong below and pick what it really is"),
    "photo_way_closer": ("；請拍近一點，或在下面點讀錯的牌，選它其實是哪張",
                         "; photograph it closer, or tap a tile read wrong below and pick what it really is"),
    "photo_way_blank_kong": ("；若這是牌面空白的白板、朝上擺著，請到「{tab}」輸入這手牌",
                             "; if they are blank white dragons lying face up, enter the hand in \u201c{tab_en}\u201d"),
    "live_way_correct": ("；讀錯的牌請在表格裡改正", "; correct each tile read wrong in the form"),
    "live_way_closer": ("；請拍近一點，或在表格裡改正讀錯的牌", "; photograph it closer, or correct each tile read wrong in the form"),
    "live_way_blank_kong": ("；若這是牌面空白的白板暗槓、朝上擺著，請在「{field}」填白板",
                            "; if they are a concealed kong of blank white dragons lying face up, enter the White "
                            "dragon in \u201c{field_en}\u201d"),
    # --- the Live tab's "no folder" advice by what is in the way (a link that loops, a link to a drive not mounted;
    # a file: live_no_folder), and a table file that is a link to nothing there (a change review) ---
    "live_no_folder_loop": ("記錄的牌局存不進去：{why}，牌局檔 {file} 無法放在那裡。請把 {name} 改成資料夾（或指向資料夾的"
                            "連結），或請主機改用別處的牌局檔重新啟動 companion app（主機的終端機上有說明）",
                            "Live entries cannot be saved: {why_en}, so the table file {file} cannot be kept there. "
                            "Make {name} a folder (or a link to one), or the host can start the app again on a "
                            "table file elsewhere (the host's terminal says how)"),
    "live_no_folder_link": ("記錄的牌局存不進去：{why}，牌局檔 {file} 無法放在那裡。請接上或掛載 {name} 指向的磁碟，或修正"
                            "這個連結，或請主機改用別處的牌局檔重新啟動 companion app（主機的終端機上有說明）",
                            "Live entries cannot be saved: {why_en}, so the table file {file} cannot be kept there. "
                            "Plug in or mount the drive {name} leads to, or fix the link, or the host can start the "
                            "app again on a table file elsewhere (the host's terminal says how)"),
    "live_table_dangling": ("記錄的牌局存不進去：牌局檔 {file} 是符號連結，指向的地方不存在（磁碟沒接上？）。請接上或掛載它"
                            "指向的磁碟，或修正這個連結，或請主機改用別處的牌局檔重新啟動 companion app（主機的終端機上有說明）",
                            "Live entries cannot be saved: the table file {file} is a link to a place that is not "
                            "there (a drive not plugged in?). Plug in or mount the drive it leads to, or fix the link, "
                            "or the host can start the app again on a table file elsewhere (the host's terminal says how)"),
    # --- Learn: an item no built-in rule set counts is taught under a house rule set that turns it on (a teacher's
    # review: its card showed "0 tai" and no row for it, teaching nothing) ---
    "learn_house_example": ("{name}＋家規：{item}算 {n} 台（預設規則不算這一項）",
                            "{name_en} with a house rule: {item_en} {n} tai (the default rules do not count it)"),
    # --- companion tai --explain: the hand, how it was won and its split in words (a teacher's review read
    # "拆法：chow:123m … pair:77z" and "win=7z@R" in the Chinese table) ---
    "explain_hand": ("{concealed}；吃碰槓：{melds}", "{concealed_en}; melds: {melds_en}"),
    "explain_won_discard": ("胡牌：{tile}，{who}家打出（{code}）", "Won on: {tile_en}, discarded by {who_en} ({code})"),
    "explain_won_self": ("胡牌：{tile}，自摸（{code}）", "Won on: {tile_en}, self-drawn ({code})"),
    "explain_won_robbed": ("胡牌：{tile}，搶{who}家的加槓（{code}）", "Won on: {tile_en}, robbing {who_en}'s added kong ({code})"),
    "explain_won_instant": ("胡牌：{how}，直接胡，不看牌型", "Won by: {how_en}, an instant win (no winning shape needed)"),
    "explain_chow": ("順子 {tiles}", "chow {tiles}"),
    "explain_pung": ("刻子 {tiles}", "pung {tiles}"),
    "explain_kong": ("槓子 {tiles}", "kong {tiles}"),
    "explain_pair": ("眼 {tiles}", "pair {tiles}"),
    "explain_called_from": ("{set}（{how}{who}的牌）", "{set_en} ({how_en} from {who_en})"),
    "explain_laid": ("{set}（{how}）", "{set_en} ({how_en})"),
    # --- Learn: an example's streak said in words ("連莊 0" read as a number to learn, a teacher's review) ---
    "learn_streak": ("連莊 {n}", "streak {n}"),
    "learn_no_streak": ("沒有連莊", "no streak"),
    # --- a win form barred by its winner's own record, a change review's second read (LiveGame.own_bar, claim_gone):
    # the bar ends complete, Cancel said after it (a review read "…; otherwise: tap Cancel"); in the plural
    # each kind with its article (a review read "2 wrong tile counts and false win"), two records said 那兩筆 ---
    "live_claim_barred_own": ("。{why}。{right}，請按「取消」", ". {why_en}. {right_en}, tap Cancel"),
    "live_own_bar_a_wrong_count": ("相公（張數不對）", "a wrong tile count"),
    "live_own_bar_a_false_win": ("詐胡", "a false win"),
    "live_own_bar_those_two": ("那兩筆", "those two records"),
    "live_own_bar_those": ("那幾筆", "those records"),
    # --- a second 相公 of a seat that may not win this hand already, refused under wrong_count = dead_hand (spec
    # §2.16: it bars his win, and does nothing else; a review entered C's twice, as 詐胡 is refused twice) ---
    "live_wrong_count_again": ("{seat}已經記過相公，這一局本來就不能再胡，不用再記一次",
                               "{seat} already has a wrong tile count entered and may not win for the rest of this "
                               "hand: it need not be entered again"),
    "live_wrong_count_dead": ("{seat}已詐胡、這一局陪打，本來就不能再胡，不用再記相公",
                              "{seat} made a false win and plays dead this hand, so cannot win anyway: no wrong tile "
                              "count is needed"),
    # --- rule sets: a set's file gone, or a file again, between the walk of what it inherits and the look at it (a
    # review read both said as "no plain file") ---
    "rs_what_gone": ("它已經不在了", "it is no longer there"),
    "rs_what_file": ("它剛剛又變回檔案了，請再看一次", "it has just become a file again: look again"),
    # --- a teacher's review of the Learn cards and companion tai --explain: a house rule of an item that scores per
    # thing says per what ("見花見字算 1 台" stood above a row of 2); an eight-flowers win whose replacement completes
    # the hand says so, and which tile the program took where none was given ("二萬，自摸" hid both); a tile of the
    # waits named in words, its code in brackets; a kong called from a discard and a chow said in plain words ---
    "learn_house_example_each": ("{name}＋家規：{item}，{each} {n} 台（預設規則不算這一項）",
                                 "{name_en} with a house rule: {item_en}, {n} tai {each_en} (the default rules do not "
                                 "count it)"),
    "explain_won_eight": ("胡牌：八仙過海，第八張花補進的{tile}也剛好胡",
                          "Won by: Eight flowers, the eighth flower's replacement, {tile_en}, also completing "
                          "the hand"),
    "explain_won_eight_chosen": ("胡牌：八仙過海，第八張花補進的牌也剛好胡；沒寫是哪一張，程式選了台數最高的{tile}",
                                 "Won by: Eight flowers, the eighth flower's replacement also completing the hand; "
                                 "which tile it was is not given, so the program chose {tile_en}, the one "
                                 "that scores most"),
    "explain_shape_of": ("胡{tile}的牌型：{shape}", "Won on {tile_en}: {shape_en} wait"),
    "explain_exposed_kong": ("槓子 {tiles}（明槓，槓{who}打出的牌）", "exposed kong {tiles} (from the {who_en} player's "
                             "discard)"),
    "explain_chow_called": ("順子 {tiles}（吃上家的牌）", "chow {tiles} (called from the left)"),
    # --- a wait's why, one sentence a shape (a teaching review read 「二條二條 加 二條 成 二條二條二條（雙碰）」 and
    # "22s + 2s makes 222s (double pung wait)") ---
    "wait_why_two_sided": ("{partial}兩頭都能接，摸到{tile}成順子{made}（兩面）",
                           "{partial_en} is open at both ends: {tile_en} makes the chow {made_en} (a two-sided wait)"),
    "wait_why_edge": ("{partial}只能接一頭，摸到{tile}成順子{made}（邊張）",
                      "{partial_en} can grow at one end only: {tile_en} makes the chow {made_en} (an edge wait)"),
    "wait_why_closed": ("{partial}中間缺一張，摸到{tile}成順子{made}（中洞）",
                        "{partial_en} has a gap in the middle: {tile_en} fills it to make the chow {made_en} (a closed "
                        "wait)"),
    "wait_why_pung": ("兩張{tile}再摸一張{tile}成刻子（雙碰）",
                      "a pair of {tile_en} and a third {tile_en} make a pung (a double-pung wait)"),
    # --- a win form barred by its winner's own record: Cancel said with the sentence it answers, "if it was entered
    # right" (a review: "otherwise, tap Cancel" followed "the form then opens again", far from "entered by mistake") ---
    "live_own_bar_right": ("如果沒有記錯", "If it was entered right"),
    "live_own_bar_right_many": ("如果都沒有記錯", "If they were entered right"),
    # --- the Live form: a row taken as called only for lying apart, said with what the player can do there (a review
    # found the note dropped, the form filled with called chows and nothing said) ---
    "live_concealed_hint": ("：那就請把那幾列的牌也填進手牌，或把手牌排成一列再拍一次",
                            ": then type those rows' tiles into the hand too, or lay the hand in one row and "
                            "photograph it again"),
    # --- a pair or double-pung wait said with the split it belongs to, where the hand holds more of the tile than the
    # shape says (a final review read 「單吊三萬：手上一張三萬」 beside three 3m, and "a lone 6m" beside two) ---
    "wait_why_pair_split": ("拆成{sets}，剩一張{tile}單吊，等另一張{tile}湊成一對",
                            "the hand split as {sets_en}: a lone {tile_en} is left, waiting for its partner to make "
                            "the pair"),
    "wait_why_pung_split": ("拆成{sets}，剩兩張{tile}，再摸一張{tile}成刻子（雙碰）",
                            "the hand split as {sets_en}: a pair of {tile_en} is left, and a third makes a pung (a "
                            "double-pung wait)"),
    # --- a barred win form's undo refused (another phone's record since): Cancel said after the bar as the form's
    # own words say it (a final review: "If it was entered right, tap Cancel" in claim_gone's, not in own_bar's) ---
    "live_own_bar_cancel": ("。{right}，請按「取消」", ". {right_en}, tap Cancel"),
    # --- a photo of 16 tiles, its winning tile not in it (the discard still in the river): the way out on each tab,
    # the waits to tap; and the instant wins by flowers in the photo form's kinds of win (a review could score
    # neither there) ---
    "photo_way_win_tile": ("，或在下面點胡的那張，或在「{field}」輸入整手牌（含胡的那張）",
                           ", or tap the winning tile below, or type the whole hand with it in \u201c{field_en}\u201d"),
    "live_way_win_tile": ("，或在表格裡填上胡的那張", ", or enter the winning tile in the form"),
    "photo_win_missing_pick": ("胡的是哪一張？點那張，就照它算", "Which tile won? Tap it to score the hand with it"),
    "win_eight_flowers": ("八仙過海", "Eight flowers"),
    "win_seven_rob_one": ("七搶一", "Seven rob one"),
    # --- a pung or kong claimed over a chow of the same discard, said in the latest plays as a win over a win is
    # (table_model.describe: an evening's review read the chow and the pung both, nothing saying the chow was gone) ---
    "claim_pung_over_chow": ("（碰比吃優先：{other}的吃不算了）", " (a pung comes before a chow: {other_en}'s chow no longer counts)"),
    "claim_kong_over_chow": ("（槓比吃優先：{other}的吃不算了）", " (a kong comes before a chow: {other_en}'s chow no longer counts)"),
    # --- an entry whose fields cannot be read (a chow's tile code, a field of the wrong type from the Python API),
    # said by what it names, not as Python's message (live_offer.refusal, LiveGame.claim: an evening's review) ---
    "live_entry_unreadable": ("無法記錄這一步（{what}）：有一欄看不懂", "this entry ({what_en}) cannot be recorded: one of "
                              "its fields is not understood"),
    "live_chow_bad_tile": ("看不懂吃的牌：{tile}", "a tile of the chow is not understood: {tile_en}"),
    "live_chow_tiles": ("吃要用打出的{tile}加上手上的兩張，收到：{got}", "a chow takes the {tile_en} on offer and two tiles "
                        "from the hand, got: {got_en}"),
    # --- the win button missing for the seat to play, said why where a rule bars him (live_offer.no_win_why: a 相公,
    # playing dead, the replacement of a kong claimed from a discard; an evening's review found nothing said) ---
    "live_p_no_win": ("。{why}", ". {why_en}"),
    # --- the win form of an instant win paid flat (七搶一, a 八仙過海 not on its hand): no hand asked, since its tiles
    # mean nothing (an evening's review was asked 16, and any were taken) ---
    "live_win_flat": ("照規矩直接算台，不看手牌：不用輸入手牌", "Paid flat, whatever the hand: no tiles to enter"),
    # --- 改正胡牌 of the concealed kongs that lay face down until the win named their kinds (the Ledger's form) ---
    "ledger_fix_kongs": ("胡牌時才亮出的暗槓（{n} 個，每個寫一張）", "Concealed kongs shown at the win ({n}, one tile each)"),
    # --- a photo's refusal that names the tiles the player picked (hand_score's PhotoHandError.corrected), opened in
    # the app's words: of the tiles he read otherwise, or as read where he only confirmed tiles as read ---
    "photo_opening_corrected": ("照你改過的 {n} 張牌不是胡牌", "not a win with the {n} tiles you corrected"),
    "photo_opening_as_read": ("照讀到的不是胡牌", "not a win as read"),
    # --- a phone review at 390x844 (the Live tab, the replay): a throw left empty said empty, not "got: —" (the dash
    # read as 一); the table file replayed said as this table's game, not by its file name ---
    "live_dice_empty": ("{which}還沒填（三顆骰子的點數，例如 2 4 6）", "{which_en} is empty (type the three dice, e.g. 2 4 6)"),
    # --- a chow's tile given as nothing at all (None from the Python API, a blank field), said in words where it
    # read 「看不懂吃的牌：None」, Python's repr (LiveGame.claim: a review) ---
    "live_chow_nothing": ("沒有", "nothing"),
    # --- a photo of all eight flowers scored as 八仙過海: its note's way out to 七搶一 in the Photo form's own fields
    # (photo_model.doubt_note; a review found it said no field) ---
    # (in place of the note's own way out, not after it: it said 「…請把胡法指定為七搶一，並指定被搶的人（在「胡法」選
    # 「七搶一」…）」, the same twice: a review)
    "photo_seven_rob_hint": ("（在表單的「{field}」和「{who}」兩欄）",
                             " (in the form\u2019s \u201c{field_en}\u201d and \u201c{who_en}\u201d boxes)"),
    # --- the Ledger's 改正胡牌 of a win that left a face-down kong unnamed (an old log's): its place in the field ---
    "ledger_fix_kongs_unnamed": ("；0x 代表胡牌時沒寫出是哪一種牌的暗槓", "; 0x stands for a concealed kong not named at the win"),
    # --- a flower or a face-down tile given as a tile of a chow: understood, but no part of a chow (it said 「看不懂吃的
    # 牌：春」, "not understood": LiveGame.claim, a review) ---
    "live_chow_flower": ("花牌不能拿來吃：{tile}", "a flower cannot be part of a chow: {tile_en}"),
    "live_chow_face_down": ("暗牌（蓋著的牌）不能拿來吃", "a face-down tile cannot be part of a chow"),
    # --- the discard quiz's grading of a worse discard says why, with the numbers each choice's line gives: it said
    # "Discarding 3p is not the best: discard 6p or 6s", the reason only in the list below (a review) ---
    "dq_worse_fewer": ("打{tile}不是最好：進張只剩{mine}張，打{best}有{top}張",
                       "Discarding {tile_en} is not the best: it leaves {mine} tiles to improve the hand; discarding "
                       "{best_en} leaves {top}"),
    "dq_worse_farther": ("打{tile}不是最好：{far}；打{best}的話{best_far}",  # shanten_words
                         "Discarding {tile_en} is not the best: it leaves the hand {far_en}; discarding {best_en} "
                         "leaves it {best_far_en}"),
    # --- a win claimed over a chow, pung or kong of the same discard, said in the latest plays as a pung over a chow
    # is (table_model.describe: a review read 「小南 吃」 then 「北北 胡」 of one tile, nothing saying the chow was gone) ---
    "win_over_chow": ("（胡比吃優先：{other}的吃不算了）", " (a win comes before a chow: {other_en}'s chow no longer counts)"),
    "win_over_pung": ("（胡比碰優先：{other}的碰不算了）", " (a win comes before a pung: {other_en}'s pung no longer counts)"),
    "win_over_kong": ("（胡比槓優先：{other}的槓不算了）", " (a win comes before a kong: {other_en}'s kong no longer counts)"),
    # --- the default rule set marked where rule sets are listed (rule_sets_model.listed_name); its English name said
    # "(default)", nested in the brackets a header puts around it, and its Chinese one did not (a language review) ---
    "rs_default_named": ("{name}（預設）", "{name_en} (default)"),
    # --- companion tai --explain: a line's own switches over its rule set's, said as the table's rules beside the
    # set's name (a house-rules review read "Profile: atawmj_2009" over a minimum of 5 the line set) ---
    "explain_played_over": ("本桌規矩：{rules}", "House rules: {rules_en}"),  # (the replay's and the Ledger's label)
    # --- a beginner's review of the Learn tab: a first lesson on what a winning hand is; 獨聽's shape and a house
    # rule's mark in one pair of brackets; the dealer tai apart from the hand's rows; what a card's item replaces
    # or is replaced by (the scorer's table), 小四喜 beside the winds, the false win on a discard kong's replacement ---
    "learn_basics": ("胡牌是什麼", "What a win is"),
    "basics_intro": ("台灣麻將每人手上 16 張牌。胡牌時，手上的牌加上胡的那一張共 17 張（每個槓子多一張），要排成五組加一對（眼）。"
                     "一組是順子、刻子或槓子：",
                     "In Taiwanese mahjong each player holds 16 tiles. A winning hand is those 16 and the winning "
                     "tile, 17 in all (one more for each kong), laid out as five sets and a pair. A set is a chow, a "
                     "pung or a kong:"),
    "basics_chow": ("順子：同一門三張連號（可以吃上家打的牌）", "Chow: three in a row of one suit (it may be called from "
                    "the player on your left)"),
    "basics_pung": ("刻子：三張一樣的牌（可以碰任何人打的牌）", "Pung: three of a kind (it may be called from anyone's "
                    "discard)"),
    "basics_kong": ("槓子：四張一樣的牌，算一組，槓了要從牌尾補一張", "Kong: four of a kind, counted as one set; its owner "
                    "draws a replacement tile from the end of the wall"),
    "basics_pair": ("眼（對子）：兩張一樣的牌，整手只要一對", "Pair: two of a kind, one pair in the whole hand"),
    "basics_example": ("一手胡牌：五組加一對，胡的是最後那張", "A winning hand: five sets and a pair, the last tile the "
                       "one it won on"),
    "basics_ready": ("只差一張就胡，叫做聽牌；能湊成胡牌的那幾種牌，就是「聽的牌」。接著試試「{quiz}」，或看「{tai}」：胡了算幾台。",
                     "A hand one tile short of a win is ready, and the tiles that would complete it are its waits. "
                     "Next, try the \u201c{quiz_en}\u201d, or see \u201c{tai_en}\u201d: what a win scores."),
    "quiz_shape_hint": ("胡牌是五組（順子、刻子或槓子）加一對：哪幾張加進來能排得成？", "A win is five sets (chows, pungs or "
                        "kongs) and a pair: which tiles would complete one?"),
    "on_the_pair": ("單吊", "on the pair"),
    "item_shape_house": ("（{shape}；各家規矩）", " ({shape_en}; house rule)"),
    "learn_dealer_block": ("另算莊家台（只在莊家胡或付的時候）", "Dealer tai, apart from the hand (only where the dealer "
                           "wins or pays)"),
    "learn_dealer_total": ("莊家台共 {dealer} 台", "{dealer} dealer tai"),
    "learn_replaces": ("算了這一項，{items}就不另外算（被它取代）", "Replaces {items_en}: they are not counted beside it"),
    "learn_replaced_by": ("有{items}時，這一項不另外算（被取代）", "Not counted beside {items_en}: each of them replaces it"),
    # ({rules}: learn_rules_default)
    "learn_small_winds_add": ("在{rules}下，小四喜的風刻若是門風或圈風，照樣另外加門風、圈風的台；只有大四喜才取代它們。",
                              "Under {rules_en}, a wind pung of the seat or round wind still scores its seat-wind "
                              "or round-wind tai beside small four winds; only big four winds replaces them."),
    "learn_kong_bloom_false_win": ("注意：槓別人打出的牌（明槓）之後，補到的牌就算湊成胡牌也不能胡，喊胡就是詐胡（{rules}）。只有補花、暗槓、加槓之後補到的牌，才算槓上開花。",
                                   "Careful: after a kong of another player's discard, the replacement tile may not "
                                   "be won on even where it completes the hand; declaring the win is a false win "
                                   "under {rules_en}. Only a replacement after a flower, a concealed kong or "
                                   "an added kong is a win on a replacement."),
    # --- the dealer's tai said by what the rule set makes them of, its 莊家, 連莊 and 拉莊 values each, so that the
    # parts add up to the tai (ledger_model.dealer_parts: a review read 「莊家 +12 台（連12拉12）」 under a set counting
    # 連莊 alone, and "dealer 1, streak 1 and pull 1" beside +1 under one counting the dealer alone) ---
    "dealer_part_dealer": ("莊家 {tai}", "dealer {tai}"),
    "dealer_part_streak": ("連{n}", "dealer continuation {n}"),  # (the items' names, as the Learn tab and the tai
    # tables give them: "streak 1 and pull 1" beside "Dealer continuation / Streak pull" was one idea, two names)
    "dealer_part_pull": ("拉{n}", "streak pull {n}"),
    "dealer_part_each": ("{part}（每次 {each} 台）", "{part_en} ({each} tai each)"),  # 連莊 or 拉莊 worth more than 1 tai a hand
    "dealer_parts_run": ("{streak}{pull}", "{streak_en} and {pull_en}"),
    "dealer_parts_with": ("{dealer}、{run}", "{dealer_en}, {run_en}"),
    "dealer_parts_capped": ("{parts}，連{streak}算到上限 {cap}", "{parts_en}, a streak of {streak} counted up to the cap of {cap}"),
    # --- tile sets (Settings): a page of another set, the pages every phone shares, a damaged set said in a player's
    # words (a calibration review: a page of another set replaced the page unsaid; a damaged set showed the server's
    # path, BadZipFile and command-line advice) ---
    "sheet_other_set": ("{page}：這張的牌和這裡已有的頁看起來不像同一副（是別副牌嗎？），所以沒有用。請只拍同一副牌的各頁"
                        "（要換一副請先按「重來」）；確定是同一副就照用",
                        "{page_en}: its tiles do not look like those of the pages already here (another tile set?), so "
                        "it is not used. Photograph the pages of one set (Start over for another set); if it is the "
                        "same set, use it"),
    "sheet_same_set": ("是同一副：照用這張", "Same set: use this photo"),
    "set_add_other": ("這幾頁的牌和已存的「{name}」看起來不像同一副（是別副牌嗎？）：確定是同一副，再按一次「儲存並使用」"
                      "就放進去，不然請換個名字",
                      "These pages' tiles do not look like those of the saved set “{name}” (another tile set?): if it "
                      "is the same set, tap Save and use again to put them in, else give another name"),
    "set_shared_pages": ("每支手機傳來的頁都放在這裡一起：一次只校正一副牌",
                         "The pages every phone sends gather here together: calibrate one set at a time"),
    "set_damaged": ("檔案「{file}」損壞了，讀不出來：請刪除它，再重新校正這副牌",
                    "Its file “{file}” is damaged and cannot be read: delete it and calibrate the set again"),
    "set_current_damaged": ("選用的「{name}」檔案損壞了：讀照片沒有用校正，請刪除它，選用另一副或重新校正",
                            "The selected set “{name}” is damaged: photos are read without a calibration; delete it, "
                            "use another set or calibrate it again"),
    "photo_set_damaged": ("沒有用選用的「{name}」讀牌：它的檔案損壞了（見「設定」）",
                          "Not read with the selected set “{name}”: its file is damaged (see Settings)"),
    # --- a change review of the Learn tab: a dealer card's hand scores nothing of its own, not "these rules do not
    # count this item" above its dealer block; a link naming one item says it in the singular; the notes name the
    # default rules they are read under (the Learn tab picks no other set) ---
    "learn_scores_hand_none": ("（這手牌本身沒有台，台都在下面的莊家台）", "(the hand itself scores nothing; its tai are "
                               "the dealer tai below)"),
    "learn_replaces_one": ("算了這一項，{items}就不另外算（被它取代）", "Replaces {items_en}, which is not counted beside it"),
    "learn_replaced_by_one": ("有{items}時，這一項不另外算（被取代）", "Not counted beside {items_en}, which replaces it"),
    "learn_rules_default": ("預設規則", "the default rules"),
    # --- a change review of the tile sets: a set's file that cannot be read now but is not broken (no permission, a
    # disk's error, a tile this version does not know) was called damaged and to be deleted ---
    "set_unreadable": ("檔案「{file}」現在讀不出來（{why}）：檔案沒有刪掉，修好之後就能再用；或重新校正這副牌",
                       "Its file “{file}” cannot be read now ({why_en}): it is kept, and can be used once that is "
                       "mended; or calibrate the set again"),
    "set_current_unreadable": ("選用的「{name}」現在讀不出來：讀照片沒有用校正（原因見下面）",
                               "The selected set “{name}” cannot be read now: photos are read without a calibration "
                               "(why is said below)"),
    "photo_set_unreadable": ("沒有用選用的「{name}」讀牌：它的檔案現在讀不出來（見「設定」）",
                             "Not read with the selected set “{name}”: its file cannot be read now (see Settings)"),
    # --- the dealer's parts with a 連莊 or 拉莊 worth more than 1 tai a hand: listed, as 連2（每次 2 台）拉2 runs
    # together (a change review read 「連2，每次 2 台拉2」; ledger_model.dealer_parts) ---
    "dealer_parts_listed": ("{streak}、{pull}", "{streak_en} and {pull_en}"),
    # --- a switch a change between hands puts back to its rule set's value, said so in the switch's own brackets
    # (house_rules.terms_change: a review read 「七搶一（算）（照規則）」, brackets after brackets) ---
    "switch_as_the_set": ("照規則", "as the rule set has it"),
    # --- a settlement review: a false win under a rule set that does not penalise it (false_win_penalty = none) read
    # "Lin: false win, 0 tai", which a table pays as 底 + 0 tai; nothing is paid ---
    # (the ledger's line and replay's say one thing alike; they said it in two English wordings, a change review)
    "ledger_unpaid": ("{player}詐胡：這套規則不罰，不用付錢", "{player}: false win, no penalty under these rules, "
                      "nothing is paid"),
    "penalty_none": ("這套規則詐胡不罰，不用付錢", "False-win penalty: none under these rules, nothing is paid"),
    # (the Live tab's prompt after such a false win: it said the penalty "is still paid" beside another's win)
    "live_p_false_others_unpaid": ("詐胡（這套規則不罰）：這一把作廢，同一個莊重打，連莊數不變。若有人當時也喊胡這張，按他的「胡」："
                                   "他的胡照算，莊照胡牌的規矩輪；沒有就輸入莊家擲的骰子",
                                   "False win (no penalty under these rules): this hand is void and the same dealer deals "
                                   "it again, the streak unchanged. If another player also called a win on this tile at "
                                   "the time, tap that player's Win: that win stands and the deal moves as after any "
                                   "win; if not, enter the dealer's dice"),
    # --- a kong typed as four of the hand's own tiles on the Score-a-photo tab: the count said one over, and "a kong's
    # fourth not counted" read as the app's miscount; how a kong is typed is said (a review) ---
    "typed_count_kong": ("；手牌裡寫了四張一樣的（{tiles}）算 4 張，槓只算 3 張：槓請寫成 kong:{one}（明槓）或 "
                         "ckong:{one}（暗槓）",
                         "; four alike typed among the hand's own tiles ({tiles_en}) count as four tiles, where a "
                         "kong counts as three: type a kong as kong:{one} (exposed) or ckong:{one} (concealed)"),
    # --- the Live form filled from a photo of the flowers alone (scored as 八仙過海 on the Score tab): no hand ---
    "live_photo_flowers_alone": ("{name} 裡只有花牌；請把整手牌攤開，和花一起拍，才能填入表單",
                                 "{name} shows only flowers: photograph the whole hand laid face up with them to fill "
                                 "the form"),
    # --- a settlement review: the Score tab's stakes came only from seven presets (30/10 … 500/100), so a 20/5 or a
    # 50/10 table got the wrong money; the box takes them typed, as `--stakes` reads them, the presets a quick pick ---
    "photo_stakes_hint": ("例如 30/10", "e.g. 30/10"),  # (the example the refusal of 20-5 gives: one, a change review)
    "photo_stakes_missing": ("請填底和台，例如 30/10", "type the base and the amount per tai, e.g. 30/10"),
    "photo_stakes_kept": ("；分數仍以 底 {base}／台 {per_tai} 計算", "; the score is still at {base}/{per_tai}"),
    "photo_stakes_presets": ("常用的底／台", "Usual stakes"),
    # --- a tile the photo's reading missed (no box on it), added by the player on the Score-a-photo tab: a missed
    # flower lost its tai silently, and only typing the whole hand got it back (a review) ---
    "photo_add": ("補上照片漏讀的牌", "Add a tile the photo missed"),
    "photo_add_to": ("照片漏讀的是哪張？花會加到花牌，其他牌加到手牌那一列：",
                     "Which tile did the photo miss? A flower joins the flowers, any other tile the hand's own row:"),
    "photo_add_cancel": ("不補", "Add none"),
    "photo_added": ("你補上的牌（點一下拿掉）：", "Added by you (tap one to take it out):"),
    "photo_fix_back": ("多讀了不是牌的東西，或不屬於這手的牌？選最後一張（暗牌），它就不計",
                       "Read something that is no tile of the hand? Pick the last key (a face-down tile): it is "
                       "left out"),
    # --- a photo's face-up kong taken as added, the win coming after the winner's own kong: the scorer's note, its
    # command-line options said as the form's means (the app once said this kong in words of its own) ---
    "photo_own_kong_hint": ("；暗槓請把兩頭的牌蓋著再拍；若是槓別人打的牌，請在「{field}」選「{choice}」",
                            "; a concealed kong is photographed with its two end tiles face down, and a kong of a "
                            "discard is said by \u201c{field_en}\u201d: {choice_en}"),
    # --- a kong typed as four tiles into the Live win form's hand, where the table holds it: said as My hand and the
    # Score tab say how a kong is typed (a change review found the hint on the Score tab only) ---
    "live_typed_kong": ("手牌裡寫了四張一樣的（{tiles}）：槓已記在牌桌上，不寫在手牌裡；暗槓只在「{field}」寫一張",
                        "Four alike typed among the hand's tiles ({tiles_en}): a kong is on the table's record, not "
                        "typed in the hand; a concealed kong is named once, under \u201c{field_en}\u201d"),
    # --- a change review of the Live tab: its own way of writing a throw, "2+2+2 = 6", typed back was refused with a
    # bare "got:" (view_live._typed_dice); a total that is not the dice's sum is said so ---
    "live_dice_sum_wrong": ("（{dice} 加起來是 {sum}，不是 {total}）", " ({dice} add up to {sum}, not {total})"),
    # --- a game-night review with several phones: a seating form typed on one phone while another seated the table
    # (its names were gone without a word), and two players' names apart only by their case ("Bob pays bob") ---
    "live_seated_elsewhere": ("這一桌已經由另一支手機入座：{names}（這裡打的名字沒有用上）",
                              "Another phone seated the table: {names_en} (the names typed here were not used)"),
    "live_names_case": ("「{one}」和「{two}」只差大小寫，看起來是同一個人：請把名字寫得分得出來",
                        "\u201c{one}\u201d and \u201c{two}\u201d differ only in letter case and read as one "
                        "player: give names that tell them apart"),
    # --- a tile added as missed by the photo where the photo already holds as many as a set has: refused at once
    # (it was scored and blamed on 「花牌第 2、3 張」, a tile of the photo the player could not find: a review) ---
    "photo_add_too_many": ("照片裡已經有 {have} 張{tile}，一副牌只有 {limit} 張：請補上別的牌",
                           "{tile_en}: the photo already holds {have}, and a set has {limit}: add another tile"),
    # --- a photo's kong said as the form's means: one wording with the own kong's hint (photo_own_kong_hint), the
    # form's field and choice by their names (it said 「選槓上開花」, a label the form does not show: a review) ---
    "photo_kong_hint": ("；暗槓請把兩頭的牌蓋著再拍；加槓後補牌胡的，請在「{field}」選「{choice}」",
                        "; a concealed kong is photographed with its two end tiles face down, and an added kong won on "
                        "its replacement is said by \u201c{field_en}\u201d: {choice_en}"),
}


def both_words(text: str) -> Words:
    """``"English / 中文"`` (how the vision and rules packages word their errors) as :class:`Words`."""
    en, sep, zh = text.partition(" / ")
    return Words(zh if sep else en, en)


def signed(amount: int) -> str:
    """A balance as a score sheet writes it: +70, -70, and 0 without a sign (it said "+0", a review)."""
    return f"{amount:+d}" if amount else "0"


def shanten_words(n: int) -> dict[str, str]:
    """The fields of a "not ready" wording for shanten ``n``: ``far`` and ``far_en``, the one phrase the commands
    say too (efficiency.from_ready): 還差兩張才聽（二向聽） / "2 useful draws from ready", how many draws it needs,
    not how many tiles would help ("8 useful tiles to draw" stood above "28 kinds improve it", a teacher's review).
    The app said 「未聽牌（還差兩張才聽，二向聽）」 where ``waits`` said 「未聽牌：還差兩張才聽（二向聽）」 (a review)."""
    far, far_en = from_ready(n)
    return {"far": far, "far_en": far_en}


NAME_FIELDS = frozenset({"seat", "who", "player", "winner", "other", "payer", "payee", "dealer", "east", "robber",
                         "nearer"})
"""The fields of :data:`UI` that hold a name (a player's, or a seat's, a rule set's): filled into the Chinese as a
Chinese sentence writes a name, a space only where a Latin letter or digit meets a Chinese character (「B 現在不能
報聽」, 「小美現在不能報聽」), so their templates type no space beside them. A review read 「小美 詐胡」 next to the
game's 「小美已報聽，不能吃」. A number filled into one of them ({dealer} tai) is filled as it is."""


def asked(key: str, **kw: object) -> Asked:
    """The words ``key`` (as :func:`ui` fills them) asking for an entry still missing: see :class:`Asked`."""
    said = ui(key, **kw)
    return Asked(said.zh, said.en)


def refused(why: Words) -> Words:
    """``why`` as an entry refused: 「不行：…」 / "Not allowed: …", or as it is where it asks for an entry still
    missing (:class:`Asked`)."""
    return why if isinstance(why, Asked) else ui("live_refused", why=why.zh, why_en=why.en)


def ui(key: str, **kw: object) -> Words:
    """The app's words ``key`` filled with ``kw``; ``{x_en}`` falls back to ``{x}``. A name is spaced in the Chinese
    as :data:`NAME_FIELDS` says."""
    zh, en = UI[key]
    fill = {**kw, **{f"{k}_en": v for k, v in kw.items() if f"{k}_en" not in kw}}
    return Words(chinese_filled(zh, fill, NAME_FIELDS), agreed(en.format(**fill)))


WORD_JOINER = "\u2060"


def unbroken(name: str) -> str:
    """``name`` kept on one line where a line wraps: Chinese text may break between any two characters, which put
    "dealer 小" and "美" on two lines (a player review); a word joiner between its characters forbids that and is
    not drawn."""
    return WORD_JOINER.join(name)

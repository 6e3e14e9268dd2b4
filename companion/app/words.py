"""The app's own words, in Traditional Chinese and English (the game's messages come from ``game.text``).

Every label the app shows is a :class:`Words`; the view picks one language with :meth:`Words.text`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Words", "UI", "LANGS", "ui"]

LANGS = ("zh", "en")
"""The languages the app speaks; zh (zh-TW) is the default."""


@dataclass(frozen=True, slots=True)
class Words:
    zh: str
    en: str

    def text(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh

    def __add__(self, other: Words) -> Words:
        return Words(self.zh + other.zh, self.en + other.en)


UI: dict[str, tuple[str, str]] = {
    "title": ("台灣十六張麻將小幫手", "Taiwanese 16-tile mahjong companion"),
    "tab_table": ("牌桌", "Table"),
    "tab_photo": ("拍照算台", "Score a photo"),
    "language": ("English", "中文"),  # the button shows the language it switches to
    "demo_note": ("示範牌局：電腦玩家打的四把（companion simulate --seed {seed} --hands {hands}），可逐步重播",
                  "Demo game: four hands played by bots (companion simulate --seed {seed} --hands {hands}), "
                  "replayed step by step"),
    "log_note": ("重播 {file}", "Replaying {file}"),
    "first": ("開頭", "Start"),
    "prev_hand": ("上一個開局／結束", "Previous start or end"),
    "back": ("上一步", "Back"),
    "forward": ("下一步", "Next"),
    "next_hand": ("下一個開局／結束", "Next start or end"),
    "last": ("結尾", "End"),
    "play": ("自動播放", "Play"),
    "pause": ("暫停", "Pause"),
    "show_hands": ("顯示各家手牌（教學）", "Show every hand (teaching)"),
    "step": ("第 {i} / {n} 步", "Step {i} of {n}"),
    "hand_line": ("第 {n} 把　{round}風圈　莊家 {dealer}　連莊 {streak}", "Hand {n}   {round_en} round   "
                  "dealer {dealer}   streak {streak}"),
    "wall_line": ("牌牆剩 {count} 張（可摸 {live}，留 {reserve} 張不摸）",
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
    "not_ready": ("未聽牌（{n} 向聽）", "not ready ({n} from ready)"),
    "all_own": ("未聽牌：{tiles} 四張都在自己手上", "not ready: all four {tiles_en} are in the own hand"),
    "advice": ("建議打", "Best discards"),
    "advice_ready": ("打 {tile} 聽牌", "discard {tile_en}: ready"),
    "recent": ("最近的事件", "Recent events"),
    "hand_over_is": ("本把結束：{outcome}", "Hand over: {outcome_en}"),
    "tai_items": ("台數明細", "Tai, item by item"),
    "hand_tai": ("牌型 {tai} 台", "hand {tai} tai"),
    "capped": ("（封頂 {tai} 台）", " (capped at {tai})"),
    "dealer_tai": ("莊家台 {tai}（莊家胡或付的才加）", "dealer tai {tai} (where the dealer wins or pays)"),
    "pays": ("{payer} 付 {payee} {amount}", "{payer} pays {payee} {amount}"),
    "pays_tai": ("{payer} 付 {payee} {amount}（{tai} 台）", "{payer_en} pays {payee_en} {amount} ({tai} tai)"),
    "payments": ("誰付誰", "Who pays whom"),
    "balances": ("累計輸贏", "Running balances"),
    "next_deal": ("下一把：{dealer} 做莊，連莊 {streak}，{round}風圈",
                  "Next hand: {dealer} deals, streak {streak}, {round_en} round"),
    "session_over": ("一將打完", "The session is over"),
    "false_win": ("詐胡", "false win"),
    "photo_intro": ("把胡的牌攤開拍一張：暗牌排一排、明牌排在前面、花放一堆，胡的那張可以稍微分開。選照片就會讀牌、"
                    "分組、找出胡的那張，算出台數與付款。一開始顯示的是內附的範例照片。",
                    "Lay the winning hand down (the concealed tiles in a row, the melds in front, the flowers apart, "
                    "the winning tile a little apart if you like) and choose a photo of it: the tiles are read and "
                    "grouped, the winning tile found, and the tai and payments worked out. The bundled photo shows "
                    "first."),
    "photo_reading": ("讀牌中…（約 1–3 秒）", "Reading the photo… (about 1–3 s)"),
    "photo_scoring": ("重新算台中…", "Scoring again…"),
    "photo_sending": ("傳送 {name} 中…", "Sending {name}…"),
    "photo_failed": ("無法計算 {name} 的台數：{why}", "{name} cannot be scored: {why_en}"),
    "photo_read_as": ("照片讀成", "Read as"),
    "photo_assumed": ("照片看不出、先假設的", "Assumed (a photo cannot show these)"),
    "photo_doubts": ("可能讀錯的地方", "Doubts"),
    "photo_win_tile": ("胡 {tile}", "winning tile {tile_en}"),
    "photo_total": ("共 {tai} 台", "{tai} tai in all"),
    "photo_upload": ("上傳照片", "Upload a photo"),
    "photo_demo": ("範例照片", "Bundled photo"),
    "photo_too_big": ("{name} 太大了（上限 {mb} MB）", "{name} is too big (at most {mb} MB)"),
    "photo_empty": ("{name} 是空的檔案", "{name} is an empty file"),
    "photo_send_failed": ("{name} 沒有傳成功（網路斷了，或檔案太大）；請再試一次",
                          "{name} did not arrive (the network dropped, or the file is too big); try again"),
    "photo_error": ("讀這張照片時出了錯；已記錄下來，請換一張照片再試",
                    "Something went wrong reading this photo (it has been logged); try another photo"),
    "photo_pick": ("選一張照片", "Choose a photo"),
    "photo_none": ("沒有選照片", "No photo chosen"),
    "photo_context": ("照片看不出來的，請在這裡設定：", "What a photo cannot show; set it here:"),
    "win_type": ("胡法", "Win"),
    "self_draw": ("自摸", "self-drawn"),
    "on_discard": ("放槍", "on a discard"),
    "discarder": ("放槍的人", "Discarder"),
    "seat_wind": ("胡牌的人的座位", "Winner's seat"),
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
    "hand_intro": ("輸入或點選自己的牌（16 張，或摸牌後 17 張；吃碰槓寫成 pung:999p@O）。看得到的牌（河裡、別家明牌）"
                   "也輸入的話，剩幾張會算得更準。",
                   "Type or tap your tiles (16, or 17 after a draw; melds as pung:999p@O). Add the tiles you can "
                   "see on the table (discards, others' melds) and the copies left are counted from them."),
    "hand_field": ("我的牌", "My tiles"),
    "hand_from_live": ("從記錄牌局帶入桌上看得到的牌，我是：", "Take the tiles seen at the live game; I am:"),
    "hand_hint": ("例如 45m77p234789s pung:999p@O 1f，或 四萬五萬…", "e.g. 45m77p234789s pung:999p@O 1f"),
    "visible_field": ("桌上看得到的牌", "Tiles seen on the table"),
    "visible_hint": ("例如 3m3m6p 東", "e.g. 3m3m6p1z"),
    "clear": ("清除", "Clear"),
    "backspace": ("退一張", "Remove last"),
    "hand_example": ("範例", "Example"),
    "hand_empty": ("還沒有輸入牌", "No tiles yet"),
    "hand_bad": ("這手牌讀不懂：{why}", "This hand cannot be read: {why_en}"),
    "hand_complete": ("胡了！這手牌已經成胡（到「拍照算台」或 companion tai 算台數）",
                      "A complete winning hand! (score it with companion tai)"),
    "drawn_ready": ("打對一張就聽牌", "The right discard makes it ready"),
    "drawn_not_ready": ("打出後最好是 {n} 向聽", "After the best discard: {n} from ready"),
    "ready": ("聽牌：{kinds} 種，還剩 {left} 張沒出現", "Ready on {kinds} kinds: {left} copies still unseen"),
    "ready_one": ("聽牌：只聽 1 種，還剩 {left} 張沒出現", "Ready on one kind: {left} copies still unseen"),
    "single_wait_note": ("（獨聽）", " (a single wait)"),
    "wait_why": ("{partial} 加 {tile} 成 {made}（{shape}）", "{partial_en} + {tile_en} makes {made_en} ({shape_en})"),
    "closer": ("摸到這些牌會更接近聽牌", "Draws that bring it closer"),
    "choices": ("打哪張（最好的在前）", "What to discard, best first"),
    "tab_learn": ("學台數", "Learn the tai"),
    "learn_intro": ("每一種台數是什麼、值幾台，配上一手會算到它的牌（台數由規則當場算出）。點一個項目看看。",
                    "What each tai item means and what it is worth, with a hand that scores it (the tai are "
                    "worked out by the rules as you look). Pick an item."),
    "learn_worth": ("預設規則 {n} 台", "{n} tai under the default rules"),
    "learn_off": ("預設規則不算這一項", "not counted under the default rules"),
    "learn_by_profile": ("各家規則的台數：", "Tai under each rule set:"),
    "learn_example": ("例子", "Example"),
    "learn_no_example": ("這一項還沒有例子", "No example for this item yet"),
    "learn_setting": ("{how}，胡牌的人坐{seat}，{round}風圈，莊家在{dealer}，連莊 {streak}",
                      "{how_en}; the winner sits {seat_en}, {round_en} round, the dealer {dealer_en}, "
                      "streak {streak}"),
    "learn_discarder": ("，{who}家放槍", "; {who_en} discarded"),
    "learn_scores": ("這手牌算到的台", "What this hand scores"),
    "learn_total": ("牌型共 {hand} 台", "{hand} hand tai"),
    "learn_dealer": ("，莊家台 {dealer}（莊家胡或付）", "; dealer tai {dealer} (the dealer wins or pays)"),
    "tab_live": ("記錄牌局", "Live game"),
    "live_intro": ("在真的牌桌上邊打邊記：每個動作點一下（打出的牌、吃碰槓、補花、胡），小幫手會檢查合不合規則、"
                   "記下來（當機也不會遺失），胡牌時算出台數和誰付誰。大家的手牌都蓋著，只記看得到的牌。",
                   "Enter a real game as it is played: one tap per move (a discard, a claim, a flower, a win). "
                   "Every entry is checked against the rules and saved at once (a crash loses nothing); a win is "
                   "scored with who pays whom. Hands stay face down: only what the table can see is entered."),
    "live_empty": ("還沒有記錄", "Nothing entered yet"),
    "live_file": ("牌局檔：{name}（{n} 個事件）", "Table file: {name} ({n} events)"),
    "live_moved": ("牌桌剛被別人更新了，請看過再點一次", "The table was just updated by someone else: look, then tap again"),
    "live_nothing_to_undo": ("沒有可以撤回的動作", "Nothing to undo"),
    "live_no_discard": ("現在沒有人要打牌", "Nobody is to discard now"),
    "live_no_draw": ("現在不能摸牌", "No draw is due now"),
    "live_no_claim": ("現在沒有可以吃碰槓的牌", "There is no tile to claim now"),
    "live_no_win": ("現在這一家不能這樣胡", "That seat cannot win that way now"),
    "live_win_tile": ("請輸入胡的那一張牌（一張）", "Enter the winning tile (one tile)"),
    "live_p_seat": ("請輸入四位玩家（從東家開始，照逆時針順序）、規則和底／台", "Enter the four players (from East, in turn order), the rules and the stakes"),
    "live_p_over": ("一將打完了。要再打一將，重新入座", "The session is over. Seat the players again for another"),
    "live_p_dealer": ("擲骰定莊：輸入骰子點數（或按「幫我擲」）", "Throw for the first dealer: enter the dice (or press Roll for me)"),
    "live_p_dice": ("{dealer} 做莊：輸入莊家擲的骰子，開門配牌", "{dealer} deals: enter the dealer's dice to break the wall and deal"),
    "live_p_flowers": ("開局補花（從莊家 {dealer} 開始），補完後莊家打第一張",
                       "Initial flowers (from the dealer {dealer}); then the dealer discards first"),
    "live_p_act": ("輪到 {seat}：點他打出的牌（或補花、槓、自摸）", "{seat} to play: tap the tile he discards (or a flower, a kong, a win)"),
    "live_p_claim": ("{who} 打了 {tile}：有人吃、碰、槓、胡嗎？沒有的話，點 {seat} 打出的牌",
                     "{who} discarded {tile_en}: any chow, pung, kong or win? If not, tap what {seat} discards"),
    "live_p_rob": ("{seat} 加槓 {tile}：有人搶槓胡嗎？", "{seat} adds {tile_en} to a pung: does anyone rob the kong?"),
    "live_p_last": ("{seat} 要摸最後一張牌", "{seat} is due to draw the last tile"),
    "live_players": ("玩家（東南西北）", "Players (East, South, West, North)"),
    "live_player": ("{wind}家", "{wind_en}"),
    "live_start": ("入座開始", "Seat them and start"),
    "live_dice": ("骰子", "Dice"),
    "live_second": ("第二次擲", "Second throw"),
    "live_roll": ("幫我擲", "Roll for me"),
    "live_throw_dealer": ("擲骰定莊", "Throw for the dealer"),
    "live_east_deals": ("東家做莊", "East deals"),
    "live_throw": ("開門配牌", "Break the wall and deal"),
    "live_discard_by": ("{seat} 打出：", "{seat} discards:"),
    "live_ready": ("同時{kind}", "With it: {kind_en}"),
    "live_no_ready": ("{seat} 現在不能報聽", "{seat} cannot declare ready now"),
    "live_heavenly": ("{seat} 天聽", "{seat}: heavenly ready"),
    "live_claims": ("吃、碰、槓、胡", "Chow, pung, kong or win"),
    "live_chow": ("吃", "Chow"),
    "live_pung": ("碰", "Pung"),
    "live_kong": ("槓", "Kong"),
    "live_win": ("胡", "Win"),
    "live_win_short": ("胡（{kind}）", "Win: {kind_en}"),
    "live_also_wins": ("一炮多響：還有人也胡這張嗎？", "Several winners: does anyone else win on this tile?"),
    "live_flowers": ("補花（點那張花）", "Flowers (tap the flower shown)"),
    "live_flower_by": ("{seat} 補花：", "{seat} shows a flower:"),
    "live_kongs": ("槓", "Kongs"),
    "live_ckong": ("{seat} 暗槓（蓋著）", "{seat}: concealed kong (face down)"),
    "live_addkong": ("{seat} 加槓 {tile}", "{seat} adds {tile_en}"),
    "live_no_rob": ("沒人搶槓，補牌", "Nobody robs: draw the replacement"),
    "live_draw": ("{seat} 摸牌（摸到花或要槓時）", "{seat} draws (before a flower or a kong)"),
    "live_exhaustive": ("流局（牌摸完了）", "Exhaustive draw (the wall is out)"),
    "live_decline": ("{seat} 不摸海底，流局", "{seat} declines the last tile: a draw"),
    "live_more": ("其他：", "Other:"),
    "live_false_win": ("{seat} 詐胡", "{seat}: false win"),
    "live_big_count": ("{seat} 大相公（牌太多）", "{seat}: too many tiles"),
    "live_small_count": ("{seat} 小相公（牌太少）", "{seat}: too few tiles"),
    "live_undo": ("撤回上一步", "Undo"),
    "live_win_form": ("{seat} {kind}：輸入他攤開的牌", "{seat}, {kind_en}: enter the tiles he shows"),
    "live_win_concealed": ("手上的牌（{n} 張，不含胡的那張）", "Tiles in hand ({n}, without the winning tile)"),
    "live_win_drawn": ("自摸的那張", "The tile drawn"),
    "live_win_kongs": ("暗槓的牌（每個暗槓一張）", "Concealed kongs (one tile each)"),
    "live_win_kongs_needed": ("請寫出每個暗槓是哪一種牌（{n} 個，收到 {got} 個），才能算台",
                              "Name the kind of each concealed kong ({n}, got {got}) so the hand can be scored"),
    "live_win_ok": ("確定胡牌", "Record the win"),
    "live_cancel": ("取消", "Cancel"),
    "live_refused": ("不行：{why}", "Not allowed: {why_en}"),
    "live_replay": ("在「牌桌」分頁重播這局", "Replay this game on the Table tab"),
    "tab_ledger": ("帳本", "Ledger"),
    "ledger_intro": ("到目前這一步為止，這一將打完的每一把、每家的輸贏，以及最少筆數的付款方式。",
                     "Every hand of the session up to this step, each player's balance, and the fewest payments "
                     "that settle it."),
    "ledger_none": ("還沒有人入座", "Nobody is seated yet"),
    "ledger_empty": ("還沒有打完的牌", "No hand finished yet"),
    "ledger_setting": ("{round}風圈，莊家 {dealer}，連莊 {streak}", "{round_en} round, dealer {dealer}, streak {streak}"),
    "ledger_line": ("{player} {kind} {tai} 台", "{player}: {kind_en}, {tai} tai"),
    "ledger_stakes": ("底 {base}／台 {per_tai}，規則 {profile}", "stakes {base} + {per_tai} a tai, rules {profile}"),
    "ledger_hand": ("第 {n} 把", "Hand {n}"),
    "ledger_settle": ("結帳：最少筆數的付款", "Settling up: the fewest payments"),
    "ledger_even": ("沒有人需要付錢", "Nobody owes anything"),
}


def ui(key: str, **kw: object) -> Words:
    """The app's words ``key`` filled with ``kw``; ``{x_en}`` falls back to ``{x}``."""
    zh, en = UI[key]
    fill = {**kw, **{f"{k}_en": v for k, v in kw.items() if f"{k}_en" not in kw}}
    return Words(zh.format(**fill), en.format(**fill))

"""Bilingual (zh-TW / English) messages of the game tracker and its refusal error.

Every user-visible string lives in :data:`TEMPLATES` as a (zh, en) pair; :func:`msg` fills it in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from companion.english import agreed, chinese
from companion.names import chinese_filled
from companion.tiles import Tile

__all__ = ["Bilingual", "IllegalEvent", "Msg", "TEMPLATES", "msg", "seat_label", "tile_names", "WIND_ZH", "WIND_EN", "WIND_LETTER",
           "EVENT_ZH", "EVENT_EN", "SOURCE_ZH", "RETRACT_NOTES"]

WIND_ZH = ("東", "南", "西", "北")
WIND_EN = ("East", "South", "West", "North")
WIND_LETTER = ("E", "S", "W", "N")
"""Winds in files made for programs (the ledger's JSON and CSV), as ``companion tai``'s JSON writes them."""

TEMPLATES: dict[str, tuple[str, str]] = {
    # phases and turns
    "phase": ("現在不能{what}：{phase_zh}", "cannot {what_en} now: {phase_en}"),
    "not_turn": ("還沒輪到{seat}：現在輪到{turn}", "it is not {seat_en}'s turn: {turn_en} is to act"),
    "unknown_event": ("不是牌桌事件：{name}", "not a table event: {name}"),
    "bad_tile": ("{field} 不是一張牌：{value}", "{field} is not a tile: {value_en}"),
    "bad_seat": ("座位必須是 0-3，收到 {seat}", "a seat is 0-3, got {seat_en}"),
    "players": ("需要四位不同名字的玩家：{names}", "four players with distinct names are needed: {names_en}"),
    "stakes": ("底和台要是 0 或正整數：{base}／{per_tai}",
               "the base and the amount per tai are whole numbers, 0 or more: {base}/{per_tai}"),
    "stakes_big": ("底或台太大：{base}／{per_tai}（最多 {most}）", "the base or the amount per tai is too large: "
                   "{base}/{per_tai} (at most {most})"),
    "name_long": ("名字太長：「{name}」（最多 {most} 個字）", "a name is too long: “{name}” (at most {most} characters)"),
    "fix_no_hand": ("這一將沒有打完的第 {hand} 把", "this session has no finished hand {hand}"),
    "fix_no_session": ("這一桌沒有第 {session} 將（目前是第 {n} 將）", "this table has no session {session} (this is "
                       "session {n})"),
    "fix_not_winner": ("{seat}沒有胡第 {hand} 把", "{seat_en} did not win hand {hand}"),
    "fix_instant": ("第 {hand} 把是{kind}，照規矩不看手牌，沒有牌可以改",
                    "hand {hand} was {kind_en}, paid without regard to the tiles: nothing to correct"),
    "fix_no_tile": ("第 {hand} 把是{kind}，沒有胡的那一張，只改手牌", "hand {hand} was {kind_en}, won on no tile: "
                    "correct the hand alone"),
    "fix_discard_tile": ("第 {hand} 把胡的是打出來的{tile}，這張不能改", "hand {hand} was won on the discarded {tile_en}, "
                         "which stays"),
    "fix_size": ("{seat}第 {hand} 把攤開的手牌是 {want} 張，改正的是 {got} 張",
                 "{seat_en} showed {want} concealed tiles in hand {hand}; the correction has {got}"),
    "fix_unknown": ("改正的牌要每張都寫出來；花牌不算在手牌裡", "a correction names every tile; flowers are not part of "
                    "the hand"),
    "fix_same": ("跟記下的一樣，沒有要改的", "as recorded: nothing to correct"),
    "fix_below_min": ("改正後{seat}只有 {tai} 台，不到 {need} 台，不算胡（是詐胡）：要照這樣記，請撤回到那一把重記",
                      "as corrected {seat_en} has {tai} tai, under the {need} needed: no win but a false one; to "
                      "record it so, undo back to that hand and enter it again"),
    "bad_switches": ("規則開關要是一組開關，收到 {value}", "the switches are a set of switches, got {value}"),
    "terms_same": ("底台和規矩都跟現在一樣（底 {base}／台 {per_tai}）：沒有要改的",
                   "nothing to change: the stakes ({base}/{per_tai}) and the house rules are already these"),
    "terms_seating": ("{rule}是入座時定的，一將之中不能改；這一將打完、下一將入座時再改",
                      "{rule_en} is fixed at seating for the whole session: change it when the players are seated "
                      "for the next one"),
    "profile": ("規則設定 {name} 無法載入：{why}", "rule profile {name} cannot be loaded: {why_en}"),
    "dice": ("骰子不合法：{dice}（要三顆骰子，每顆 1 到 6 點）", "bad dice: {dice} (three dice, each 1 to 6)"),
    "dealer_mismatch": ("骰子算出的莊家是{expected}，不是{got}", "the dice give {expected_en} as dealer, not {got_en}"),
    "deal_size": ("{seat}配牌應有 {want} 張，收到 {got} 張", "{seat_en} is dealt {want} tiles, got {got}"),
    "fifth_copy": ("這樣桌上會有 {seen} 張{tile}，一副牌只有 {max} 張", "{tile_en}: {seen} copies would be on the table, a set holds {max}"),
    "not_in_hand": ("{seat}手上沒有{tiles}", "{seat_en} does not hold {tiles_en}"),
    "shown_leaves_out": ("{seat}手上有{tiles}，攤開的牌卻沒有", "{seat_en} holds {tiles_en}, which the tiles shown leave out"),
    "flower_first": ("{seat}手上有花{tile}，必須先補花", "{seat_en} holds the flower {tile_en} and must replace it first"),
    "not_flower": ("{tile}不是花牌", "{tile_en} is not a flower"),
    "flower_after_claim": ("{seat}吃碰後只能打牌，不能補花：藏著的花等他下次摸牌時再補",
                           "after a chow or pung {seat_en} only discards, no flower: one held back is laid at {seat_en}'s "
                           "next draw"),
    "flower_late": ("{seat}補的{tiles}不是剛摸到的牌：花牌摸到就要立刻補，不能藏在手裡",
                    "{seat_en} laid {tiles_en}, not the tile just drawn: a flower is laid as soon as it is drawn, "
                    "never kept hidden"),
    "flower_count": ("補花數目不符：{n} 張花、{m} 張補牌", "flowers and replacements differ: {n} flowers, {m} replacements"),
    "held_back": ("{seat}還沒補花，本輪未完不能再補", "{seat_en} has not replaced yet: another round of replacements "
                  "waits until this one is done"),
    "flower_order": ("{seat}要先補花：補花從莊家起依序輪流，還輪不到{other}",
                     "{seat_en} replaces first: flowers go in turn from the dealer, {other_en} must wait"),
    "wall_empty": ("牌牆已無可摸的牌（剩 {live} 張可摸）", "no tile left to draw (live tiles: {live})"),
    "wall_dead": ("牌牆已空", "the wall is empty"),
    "last_tile_kong": ("海底之後不能開槓", "no kong after the last tile"),
    "kong_no_room": ("現在開槓，就沒有牌可以補了（每開一槓要多留一張）",
                     "a kong now would leave no tile to replace it with (each kong keeps one more tile back)"),
    "last_discard_claim": ("河底只能胡牌", "the last discard may be claimed only to win"),
    "window_closed": ("{tile}的搶牌時機已過", "the claim window for {tile_en} has closed"),
    "no_window": ("現在沒有可以搶的牌", "there is no discard to claim"),
    "wrong_tile": ("搶的是{want}，不是{got}", "the tile on offer is {want_en}, not {got_en}"),
    "wrong_drawn": ("摸到的是{want}，不是{got}", "the tile drawn is {want_en}, not {got_en}"),
    "own_discard": ("不能搶自己打的牌", "no player can claim their own discard"),
    "own_kong": ("不能搶自己加槓的牌", "no player can rob their own added kong"),
    # (a win on it refused: 「不能搶自己打的牌」 said a claim's words to a win, a change review)
    "own_discard_win": ("不能胡自己打的牌", "no player can win on their own discard"),
    "pass_wrong_tile": ("放過的是桌上的{want}，不是{got}", "the tile passed is the one on offer, {want_en}, not {got_en}"),
    "chow_left": ("只有下家能吃：{seat}不是{discarder}的下家", "only the next player may chow: {seat_en} is not after {discarder_en}"),
    "chow_shape": ("{tiles}不是順子", "{tiles_en} are not a chow"),
    "outranked": ("{seat}的{other}優先於{claim}", "{seat_en}'s {other_en} outranks {claim_en}"),
    "kong_left": ("不得順槓（這桌的規矩）：不能槓上家打的牌", "no kong on the previous player's discard (a house rule of this table)"),
    "frozen": ("{seat}已報聽，不能{what}", "{seat_en} has declared ready and may not {what_en}"),
    "frozen_kong_held": ("{seat}已報聽，摸到的{drawn}要打出：暗槓只能槓剛摸到的牌，不能槓手中原有的四張{tile}",
                         "{seat_en} has declared ready and must discard the drawn {drawn_en}: a concealed kong takes "
                         "only the tile just drawn, not four {tile_en} held before"),
    "frozen_discard": ("{seat}已報聽，必須打出摸到的{tile}", "{seat_en} has declared ready and must discard the drawn {tile_en}"),
    "no_pung": ("{seat}沒有{tile}的碰可以加槓", "{seat_en} has no pung of {tile_en} to add to"),
    "fix_waits": ("（這手聽{tiles}）", " (it waits on {tiles_en})"),
    "fix_no_waits": ("（這手還沒聽牌）", " (it is not ready: no tile completes it)"),
    "not_complete": ("{seat}的牌不成胡：{hand}", "{seat_en}'s hand is not a winning shape: {hand_en}"),
    # (the rule set by its name in each language, as the scorer's reason says it: "(min3)", its id, read as code)
    "below_min": ("{seat}的牌只有 {tai} 台，未達起胡 {need} 台（「{profile}」）：宣告胡牌即為詐胡，請記為詐胡（宣稱 {tai} 台）",
                  "{seat_en}'s hand scores {tai} tai, below the minimum of {need} under the rule set “{profile_en}”: "
                  "the declared win is a false win; record it as one, with the {tai} tai it claimed"),
    "barred": ("{seat}過水後還沒打過牌，不能胡", "{seat_en} passed a win and has not discarded since: no win until then"),
    "barred_shown": ("{seat}攤開的牌在他上次打牌後就能胡{tile}（他讓過了：過水），之後還沒打過牌，不能胡：宣告胡牌即為詐胡，"
                     "請記為詐胡",
                     # (no Chinese in the English: the app shows it to English players; the name said once)
                     "the tiles {seat_en} shows could already have won on the {tile_en} they let go (a passed win), "
                     "and they have not discarded since: no win yet, so the declared win is a false win; record it "
                     "as one"),
    "dead": ("{seat}已詐胡陪打，不能胡、吃、碰或槓（暗槓除外）",
             "{seat_en} is playing dead after a false win: no win, chow, pung or kong (but a concealed one)"),
    # (the rule said, whose kong and what a declared win is: a review's form said only "cannot win that way now")
    "dkong_win": ("{seat}槓的是別家打出的牌（明槓）：照這局規矩，補到的牌不能胡，宣告胡牌就是詐胡",
                  "{seat_en} claimed this kong from a discard: under these rules there is no win on its replacement, "
                  "and a declared one is a false win"),
    "after_claim": ("吃碰後只能打牌", "after a chow or pung the claimer only discards"),
    "not_ready": ("{seat}的牌沒有聽", "{seat_en}'s hand is not ready"),
    "kongs_extra": ("{seat}蓋著的暗槓只有 {hidden} 個，卻亮出 {got} 個", "{seat_en} has only {hidden} concealed kongs face down, but {got} shown"),
    "kongs_to_show": ("{seat}有{hidden}個暗槓蓋著，胡牌時要亮出（亮出了{got}個）", "{seat_en} must show every concealed kong at the win: {hidden} face down, {got} shown"),
    "ready_discard": ("{seat}已報聽，打出{tile}後就沒有聽了：請打別張；真的打了，就記詐胡或撤回報聽", "{seat_en} has declared ready, and discarding {tile_en} leaves the hand not ready: discard another tile; if it was really discarded, record a false win or take the declaration back"),
    "ready_twice": ("{seat}已經報聽", "{seat_en} has already declared ready"),
    "ready_window": ("{kind}的時機不對", "{kind_en} cannot be declared now"),
    "four_kongs": ("{seat}沒有剛開出第四槓", "{seat_en} has not just made a fourth kong"),
    "claimed_tai": ("詐胡所宣稱的台數必須是 0 或正整數，收到 {tai}", "a false win's claimed tai is a whole number 0 or more, got {tai_en}"),
    "claimed_already": ("{seat}已對這張牌宣告過胡或詐胡", "{seat_en} has already declared a win or a false win on this tile"),
    "four_kongs_win_due": ("{seat}剛開出第四槓：這手以他的四槓胡結束，請記錄四槓胡",
                           "{seat_en} has just made a fourth kong: the hand ends as {seat_en}'s four-kongs win; record it"),
    "four_kongs_draw_due": ("四槓分屬不同家：這手流局，請記錄流局",
                            "four kongs belong to different players: the hand is drawn; record the draw"),
    "eight_flowers": ("{seat}沒有八張花", "{seat_en} does not hold all eight flowers"),
    "ckong_none": ("{seat}手上沒有四張一樣的牌，不能暗槓", "{seat_en} holds no four of a kind to make a concealed kong of"),
    "ckong_which": ("{seat}可以暗槓{tiles}：請選是哪一種", "{seat_en} could make a concealed kong of {tiles_en}: choose "
                    "which"),
    "eight_flowers_lay": ("先補花再宣告八仙過海：{seat}還有 {n} 張花沒亮出", "lay the flowers first, then declare eight "
                          "flowers: {seat_en} has {n} not laid yet"),
    "seven_rob": ("七搶一需要自己七張花且別家剛摸到或剛亮出第八張",
                  "seven rob one needs seven flowers of one's own and another player's eighth just drawn or laid"),
    "switch_off": ("這桌沒有開啟「{name}」這條規則（{switch}）", "this table plays without {name_en} ({switch})"),
    "win_kind": ("{kind}不能在此時宣告", "{kind_en} cannot be declared here"),
    "retract": ("只能撤回最後一個事件（編號 {last}，從 0 算起），不是編號 {target}",
                "only the last event can be retracted (number {last}, counted from 0), not number {target}"),
    "retract_none": ("沒有可以撤回的事件", "there is no event to retract"),
    "retract_seating": ("入座是牌局的開始，不能撤回", "the seating starts the game and cannot be retracted"),
    "decline": ("只有剩最後一張時輪到的人可以不摸", "only the player due to draw the last tile may decline it"),
    "decline_early": ("還不是最後一張（還剩 {live} 張可摸），不能不摸", "this is not the last tile ({live} can still be "
                      "drawn): it cannot be declined"),
    "decline_late": ("最後一張已經摸走了，沒有牌可以不摸：打出的牌沒人胡就是流局", "the last tile has been drawn already: "
                     "there is none left to decline (unless someone wins on the discard, the hand is a draw)"),
    "no_draw_due": ("還不是流局：還剩 {live} 張可摸", "not a draw yet: {live} tiles can still be drawn"),
    "session_over": ("這一將已結束", "the session is over"),
    "count": ("{seat}的張數是 {got}，應為 {want}", "{seat_en} holds {got} tiles (structural), should hold {want}"),
    "not_win_tile": ("{tile}不會讓{seat}胡牌", "{tile_en} does not complete {seat_en}'s hand"),
    "concealed_size": ("胡牌時手牌應有 {want} 張，攤開 {got} 張", "the hand shown should hold {want} tiles besides its melds, got {got}"),
    # (said as a player sees it, not as the code 0x of the notation: a review typed 0x in the win form)
    "unknown_tile": ("這裡要寫出是哪一張牌，不能是牌背", "the tile must be named here, not a face-down tile"),
    "flower_shown": ("{tile}是花牌：花要攤在一旁補牌，不算在攤開的手牌裡", "{tile_en} is a flower: flowers are laid "
                     "aside and replaced, never among the tiles of the hand shown"),
    "flower_discard": ("花牌不能打出（{tile}要補花）", "a flower cannot be discarded ({tile_en} is laid aside and replaced)"),
    "deal_hands": ("配牌應給 4 家，收到 {got} 家", "a deal gives 4 hands, got {got}"),
    "dead_ready": ("{seat}已詐胡陪打，不能胡，也就不能報聽", "{seat_en} is playing dead after a false win and may not win, "
                   "so may not declare ready"),
    "dead_already": ("{seat}已詐胡", "{seat_en} has already made a false win"),
    "big_count": ("{seat}大相公（牌多），本局不能胡", "{seat_en} holds too many tiles and may not win this hand"),
    "small_count": ("{seat}小相公（牌少），本局不能胡", "{seat_en} holds too few tiles and may not win this hand"),
    "no_win": ("{seat}相公，本局不能胡", "{seat_en} has a wrong tile count and may not win this hand"),
    "ready_passed": ("{seat}已報聽卻放過胡牌，由牌桌決定", "{seat_en} declared ready and passed a win: the table decides"),
    "unscored": ("無法計台（請亮出暗槓或補齊手牌）：{reason}", "cannot score (reveal the concealed kongs or the hand): {reason_en}"),
    # saved logs (JSON lines)
    "ev_no_version": ("事件缺少格式版本 v：{data}", "event without a schema version “v”: {data}"),
    "ev_bad_version": ("事件的格式版本 v 要是 1 以上的整數，收到 {version}",
                       "an event's schema version “v” is a whole number 1 or more, got {version_en}"),
    "ev_future": ("事件格式版本 {version} 比本程式支援的 {current} 新，請更新程式",
                  "event schema version {version} is newer than this program ({current})"),
    # the rules stamp (rules_version) of a line: version 4 writes it on every line, no version before it wrote one
    "ev_no_stamp": ("{name} 缺少欄位 rules_version（格式版本 {version} 的每一行都有：這一行被改過）",
                    "{name}: missing field rules_version (every line of schema version {version} has it: this line "
                    "was edited)"),
    "ev_stamp_early": ("{name} 有欄位 rules_version（{stamp}），但格式版本 {version} 的紀錄沒有這個欄位：這一行被改過",
                       "{name}: a field rules_version ({stamp}) on a line of schema version {version}, which never "
                       "had one: this line was edited"),
    "ev_stamp_future": ("{name} 的規則版本 {stamp} 比本程式的 {current} 新：是較新版本寫的紀錄，請更新程式",
                        "{name}: rules version {stamp} is newer than this program's ({current}): written by a newer "
                        "version; update the program"),
    "ev_unknown_type": ("未知的事件類型 {name}：{data}", "unknown event type {name} in {data}"),
    "ev_unknown_fields": ("{name} 有未知的欄位 {extra}", "{name}: unknown fields {extra}"),
    "ev_bad_field": ("{where} 的值不正確：{detail}", "{where}: {detail_en}"),
    "ev_not_object": ("這一行不是事件物件（JSON 物件）：{data}", "not an event (a JSON object): {data}"),
    "ev_not_json": ("這一行不是 JSON（{why}）", "not JSON {detail}"),
    "ev_not_utf8": ("這一行不是 UTF-8 文字", "not UTF-8 text ({detail})"),
    "ev_photo": ("這是一張照片（{kind}），不是牌局紀錄：要算照片裡胡的牌，請用 companion score 照片檔名",
                 "this is a photo ({kind}), not a game log: to score a photographed winning hand, use companion "
                 "score PHOTO"),
    "ev_bad_header": ("匯出檔頭的私人手牌不正確：{detail}", "bad private hands in the export header: {detail_en}"),
    "ev_missing_fields": ("{name} 缺少欄位 {missing}", "{name}: missing fields {missing}"),
    "illegal_at": ("第 {line} 行的{event}不合法：{zh}", "line {line}: illegal event {event_en}: {en}"),
    "ev_cut_short": ("匯出檔只有 {got} 個事件，檔頭說有 {want} 個：檔案不完整", "the export holds {got} events where its "
                     "header says {want}: the file is cut short"),
    "ev_too_many": ("匯出檔有 {got} 個事件，比檔頭說的 {want} 個多（第 {line} 行起是多出來的）：有事件重複了，或兩個檔案接在一起",
                    "the export holds {got} events, more than the {want} its header says (those from line {line} on are "
                    "past the count): an event repeated, or two files joined"),
    "ev_second_header": ("又一個匯出檔頭（第一個在第 {first} 行）：兩個匯出檔接在一起了，請分開", "a second export header "
                         "(the first is on line {first}): two exports joined into one file; split them"),
    "ev_line": ("第 {line} 行：{zh}", "line {line}: {en}"),
    "ev_stored_at": ("存下的事件 #{seq}：{zh}", "stored event #{seq}: {en}"),
    "illegal_stored": ("存下的事件 #{seq}（{event}）不合法：{zh}", "stored event #{seq}: illegal event {event_en}: {en}"),
    "ev_table_gap": ("存下的事件 #{seq} 接在 #{prev} 之後，紀錄有缺漏", "stored event #{seq} follows #{prev}: the log has a gap"),
    "ev_table_start": ("存下的事件從 #{seq} 開始，不是 #0：紀錄開頭有缺漏", "the stored events start at #{seq}, not #0: the log's start is missing"),
    "ev_table_version": ("是另一個版本的牌局檔（格式 {version}，這個版本讀的是 {reads}）",
                         "a table file of another version of this program (format {version}, this one reads {reads})"),
    "ev_bad_table": ("牌局檔無法讀取：{detail}", "the table file cannot be read: {detail_en}"),
    "ev_bad_private": ("{seat}號位存下的私人手牌無法讀取：{detail}", "seat {seat}'s kept private hand cannot be read: "
                       "{detail_en}"),
    "ev_stored_not_json": ("內容不是 JSON（{why}）", "not JSON {detail}"),
    # events of an old log let in under the older rules of their stamp (companion.game.older_rules): replay, the
    # app's table replay, the import of a saved log and the Live tab say it so
    "let_in": ("這個版本會拒絕其中 {n} 個事件，依較早版本的規則照紀錄重播（較早版本存的紀錄；改過的紀錄就不是真的牌局）；"
               "第一個：{first}",
               "this version refuses {n} events, replayed as kept under an earlier version's rules (a log saved by an "
               "earlier version; an edited log is no table's); the first: {first_en}"),
    # table printout
    "seat_line": ("{wind}家 {name}{dealer}", "{wind_en} {name}{dealer_en}"),
    "wall_line": ("牌牆 {count} 張，可摸 {live} 張，留牌 {reserve} 張", "wall {count}, live {live}, kept back {reserve}"),
    "hand_line": ("{round}風圈第 {k} 把（全場第 {n} 把）　莊家{dealer}　連莊 {streak}",
                  "{round_en} round, hand {k} (hand {n} of the session), dealer {dealer_en}, streak {streak}"),
    # (as the ledger's CSV and the replay's each-hand lines say it, capital and all: a review read both ways)
    "session_over_line": ("一將打完", "The session is over"),
    "next_deal_line": ("下一把：{dealer}做莊，連莊 {streak}，{round}風圈",
                       "Next hand: {dealer_en} deals, streak {streak}, {round_en} round"),
    # a flower drawn and shown, not yet replaced (spec §2.6; the eighth may be won on the spot, §4.2, §4.4): what the
    # table waits for (no discard before it), and how the replay says the correction of a draw logged face down
    "phase_flower_spot": ("等待當場胡（第八張花 {tile}：{kinds}）或補花，補花前不能打牌",
                          "waiting for a win on the eighth flower, {tile_en} ({kinds_en}), or its replacement; no "
                          "discard before it"),
    "phase_flower_last": ("等待當場胡（第八張花 {tile}：{kinds}）；沒人胡就流局（沒有牌可補）",
                          "waiting for a win on the eighth flower, {tile_en} ({kinds_en}); if nobody wins, the hand "
                          "is drawn (none is left to replace it)"),
    "phase_flower_held": ("等待補花（{tile}），補花前不能打牌", "waiting for the replacement for {tile_en}; no discard "
                          "before it"),
    "phase_flower_end": ("等待流局：最後一張是花 {tile}，沒有牌可補", "waiting for the draw: the last tile is "
                         "{tile_en}, and none is left to replace it"),
    "retract_shown": ("更正{name}面朝下記的摸牌：亮出來是花 {tile}，下一行照這張重記",
                      "correcting {name}'s draw logged face down: shown, it is {tile_en}; entered again below, named"),
    "retract_set_aside": ("暫時撤下，好更正前面那張摸牌；更正後照原樣重記",
                          "set aside to correct the draw before it; entered again after it as it was"),
    "retract_note": ("備註：{note}", "note: {note_en}"),
    "drew_flower_shown": ("{name}摸到花 {tile}（亮出）", "{name} draws a flower, {tile_en} (shown)"),
    # (the undo of that correction, as the replay says it: a change review found its lines bare)
    "retract_undo_shown": ("復原：撤回第八張花的更正（{name}的摸牌改回面朝下）",
                           "undo: the eighth flower's correction of {name_en}'s draw taken back (the draw goes back "
                           "to face down)"),
    "retract_undo_aside": ("復原：撤回第八張花的更正時重記的這筆（下面照原樣再記一次）",
                           "undo: this record, entered again by the eighth flower's correction of {name_en}'s draw, "
                           "taken back (entered again below as it was)"),
    "again_undo_shown": ("照更正前的樣子重記（復原第八張花的更正）",
                         "entered again as before the correction (the eighth flower's correction undone)"),
    # a table file SQLite finds damaged (said by its kind, never SQLite's "database disk image is malformed")
    "ev_table_damaged": ("牌局檔已損壞，無法讀取", "the table file is damaged and cannot be read"),
    # 改正胡牌 of the concealed kongs that lay face down until the win named their kinds (WinCorrected.kongs)
    "fix_kongs_size": ("{seat}第 {hand} 把胡的時候蓋著、胡牌才亮出的暗槓是 {want} 個，改正寫了 {got} 個（桌上看得到的槓照記下的）",
                       "{seat_en} won hand {hand} with {want} kongs face down, named only at the win; the "
                       "correction names {got} (the kongs the table saw stay as recorded)"),
    "fix_kongs_said": ("，暗槓 {tiles}", "; concealed kongs: {tiles_en}"),
    # an event with no seat at all (a null in JSON, None in Python, which a review read as "got None"), and a seat's
    # chow, pung or kong entered again on the tile it has already taken (a review read "A's chow outranks chow")
    "no_seat": ("座位必須是 0-3，沒有指定座位", "a seat is 0-3, no seat given"),
    "claimed_again": ("{seat}已經{meld}了{tile}：要改，請先撤回", "{seat_en}'s {meld_en} of {tile_en} is already "
                      "entered: to change it, undo it first"),
    # the Ledger tab's CSV given for a game log (the other download beside Save log; a review was told "line 1: not
    # JSON at column 1")
    "ev_ledger_csv": ("這是帳本（「帳本」頁「下載帳本」存的 CSV），不是牌局紀錄：請給「記錄牌局」頁「下載紀錄」存的檔",
                      "this is the ledger (the CSV the Ledger tab's Download the ledger saved), not a game log: give "
                      "the file the Live game tab's Save log saved"),
}

RETRACT_NOTES: dict[str, tuple[str, str]] = {
    "wrong tile entered": ("記錯牌", "wrong tile entered"),  # (the simulator's correction of a tile)
}
"""A retraction's note said in both languages (the log keeps it in English); one not here is printed as kept."""


class Bilingual(Enum):
    """An enum whose members' values are ``(code, zh, en)``."""

    @property
    def code(self) -> str:
        return str(self.value[0])

    @property
    def zh(self) -> str:
        return str(self.value[1])

    @property
    def en(self) -> str:
        return str(self.value[2])


@dataclass(frozen=True, slots=True)
class Msg:
    """A message in both languages; ``key`` names its template."""

    key: str
    zh: str
    en: str

    def __str__(self) -> str:
        return f"{self.en} / {self.zh}"

    def text(self, lang: str) -> str:
        """The half ``lang`` asks for (:func:`~companion.english.chinese`)."""
        return self.zh if chinese(lang) else self.en


EVENT_ZH: dict[str, str] = {
    "Seated": "入座", "DealerChosen": "定莊", "StakesChanged": "改底台或規矩", "DiceRolled": "擲骰", "Dealt": "配牌", "FlowerReplaced": "補花",
    "Drew": "摸牌", "Discarded": "打牌", "Chowed": "吃", "Punged": "碰", "ExposedKong": "明槓", "AddedKong": "加槓",
    "ConcealedKong": "暗槓", "ReplacementDrew": "補牌", "DeclaredReady": "報聽", "Won": "胡牌", "PassedWin": "過水",
    "ExhaustiveDraw": "流局", "DeclinedLastTile": "不摸海底", "FalseWin": "詐胡", "WrongCount": "相公",
    "HandKnown": "手牌已知", "WinCorrected": "改正胡牌", "Retracted": "撤回",
}
"""The Chinese name of each table event (the English one is its type's name, as in the saved log)."""

# --- each table event named in an English sentence, where its type's name read as Python's ("this entry (Chowed)
# cannot be recorded", the Chinese saying 吃: a review) ---
EVENT_EN: dict[str, str] = {
    "Seated": "the seating", "DealerChosen": "the first dealer", "StakesChanged": "a change of stakes or rules",
    "DiceRolled": "a throw of the dice", "Dealt": "the deal", "FlowerReplaced": "a flower replaced", "Drew": "a draw",
    "Discarded": "a discard", "Chowed": "a chow", "Punged": "a pung", "ExposedKong": "an exposed kong",
    "AddedKong": "an added kong", "ConcealedKong": "a concealed kong", "ReplacementDrew": "a replacement draw",
    "DeclaredReady": "a declaration of ready", "Won": "a win", "PassedWin": "a passed win",
    "ExhaustiveDraw": "an exhaustive draw", "DeclinedLastTile": "the last tile declined", "FalseWin": "a false win",
    "WrongCount": "a wrong tile count", "HandKnown": "a hand made known", "WinCorrected": "a win corrected",
    "Retracted": "a retraction",
}

SOURCE_ZH = {"camera": "鏡頭", "manual": "手動", "inferred": "自動記下", "simulated": "模擬"}


def seat_label(seat: int, players: tuple[str, ...] = ()) -> tuple[str, str]:
    """(zh, en) names of a seat: the player's name when known, else the seat number."""
    if 0 <= seat < len(players):
        return players[seat], players[seat]
    return f"{seat}號位", f"seat {seat}"


class _Fill(dict[str, object]):
    def __missing__(self, key: str) -> str:
        base = key.removesuffix("_en")
        return str(self[base]) if base != key and base in self else "{" + key + "}"


def tile_names(tiles: Iterable[Tile], last: str = "、") -> str:
    """Tiles by their Chinese names, in order (``一萬、七條``), for the Chinese half of a message; ``last`` before
    the last of them: ``或`` for alternatives (``一萬、四萬或九萬``), where the English says "or"."""
    names = [t.zh for t in sorted(tiles)]
    return "、".join(names[:-1]) + last + names[-1] if len(names) > 1 else "".join(names)


SWITCH_SAID: dict[str, tuple[str, str]] = {
    "may_decline_last_tile": ("不摸海底", "declining the last tile"),
    "seven_rob_one": ("七搶一", "seven rob one"),
    "eight_flowers": ("八仙過海", "eight flowers"),
    "four_kongs": ("四槓胡", "a win with four kongs"),
}
"""The procedure switches a refusal names (spec §2.17, §4.4), in both languages."""


def switch_off(name: str) -> Msg:
    """The refusal of an event that the procedure switch ``name`` (off at this table) would allow."""
    zh, en = SWITCH_SAID[name]
    return msg("switch_off", name=zh, name_en=en, switch=name)


def own_tile(robbing: bool, *, winning: bool = False) -> Msg:
    """The refusal of a seat claiming, robbing or passing the tile he himself put on offer: his discard, or
    (``robbing``) the tile of his own added kong; ``winning``: a win on his own discard, said as a win."""
    return msg("own_kong" if robbing else "own_discard_win" if winning else "own_discard")


def msg(key: str, **kw: object) -> Msg:
    """Fill the template ``key``; a field ``x`` fills ``{x}`` and, unless ``x_en`` is given, ``{x_en}``. A name
    filled into the Chinese is spaced from it as the app's words space one
    (:func:`~companion.names.chinese_filled`)."""
    zh, en = TEMPLATES[key]
    fill = _Fill(kw)
    return Msg(key, chinese_filled(zh, fill), agreed(en.format_map(fill)))


class IllegalEvent(ValueError):
    """An event the rules refuse, with the reason in both languages and the evidence (name -> value)."""

    def __init__(self, reason: Msg, **evidence: object) -> None:
        self.reason = reason
        self.evidence: tuple[tuple[str, str], ...] = tuple((k, str(v)) for k, v in evidence.items())
        ev = ", ".join(f"{k}={v}" for k, v in self.evidence)
        super().__init__(f"{reason}" + (f" [{ev}]" if ev else ""))

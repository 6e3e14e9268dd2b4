"""Learn: every tai item with its meaning, its worth, and an example scored live by the rules."""

from __future__ import annotations

import re

from companion.app.learn_model import learn_items
from companion.app.words import Words, ui
from companion.rules.profiles import load_profile
from companion.rules.tai import REGISTRY
from companion.rules.tai._base import ItemKind

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_item_is_there_in_the_catalogues_order_with_both_languages() -> None:
    items = learn_items()
    assert [i.id for i in items] == list(REGISTRY)
    default = load_profile(None)
    for i in items:
        assert CJK.search(i.name.zh) and CJK.search(i.explain.zh) and i.name.en and i.explain.en, i.id
        assert i.value == default.value(i.id)
        assert i.example is not None, i.id


def test_each_example_shows_the_whole_hand_and_scores_its_item() -> None:
    for i in learn_items():
        ex = i.example
        assert ex is not None
        structural = len(ex.concealed) + 3 * len(ex.melds) + (ex.win_tile is not None)
        kind = REGISTRY[i.id].kind
        if kind is ItemKind.INSTANT:
            assert ex.win_tile is None
        else:
            assert structural == 17, (i.id, ex.concealed, ex.melds, ex.win_tile)
        # the hand's rows add up to its tai, the dealer's rows, apart, to his (a newcomer review: those were not
        # listed; a beginner review: in one list the 半求 card's rows read 1+1+1+1 beside "3 tai for the hand")
        assert ex.hand_tai == sum(t for _w, t, _ in ex.items), i.id
        assert ex.dealer_tai == sum(t for _w, t, _ in ex.dealer_items), i.id
        if kind is ItemKind.RELATION:
            taught = [w for w, _t, mine in ex.dealer_items if mine]
            assert ex.dealer_tai > 0 and taught == [Words(REGISTRY[i.id].zh, REGISTRY[i.id].en)], i.id
        else:
            # (獨聽 is named with its shape: 獨聽（中洞）)
            taught = [w for w, _t, mine in ex.items if mine]
            assert [re.sub(r"（[^）]*）$", "", w.zh.removesuffix(ui("house_rule_mark").zh)) for w in taught] \
                == [REGISTRY[i.id].zh], i.id
        assert CJK.search(ex.setting.zh) and not CJK.search(ex.setting.en)


def test_each_item_shows_its_worth_under_every_built_in_profile() -> None:
    from companion.rules.profiles import BUILTIN

    for i in learn_items():
        assert [n for _, n in i.by_profile] == [load_profile(pid).value(i.id) for pid in BUILTIN]
    dragon = next(i for i in learn_items() if i.id == "dragon_pung")
    assert dict((w.en.split(" (")[0], n) for w, n in dragon.by_profile)["Zhaishenye online game"] == 2  # rules §5.3


def test_the_robbed_kong_example_names_the_robbed_player_not_a_discarder() -> None:
    example = next(i.example for i in learn_items() if i.id == "rob_kong")
    assert example is not None
    assert "放槍" not in example.setting.zh.replace("照放槍付", "") and "discarded" not in example.setting.en
    assert "加槓" in example.setting.zh and "added kong" in example.setting.en


def test_the_seven_rob_one_example_names_who_showed_the_eighth_flower_not_a_discarder() -> None:
    """七搶一: the player who showed the eighth flower pays alone (spec §6); nobody discarded (a teaching review
    read "West discarded" beside a note that says West drew the flower)."""
    example = next(i.example for i in learn_items() if i.id == "seven_rob_one")
    assert example is not None
    assert "放槍" not in example.setting.zh and "discarded" not in example.setting.en
    assert "第八張花" in example.setting.zh and "eighth flower" in example.setting.en


def test_every_cards_example_shows_its_own_item_with_tai() -> None:
    """An item no built-in rule set counts (無花, 暗槓, 報聽 …) is taught under a house rule set that turns it on,
    named so, and saying the default rules do not count it: its card showed "0 tai" and no row for the item,
    teaching nothing (a teacher's review)."""
    for i in learn_items():
        ex = i.example
        assert ex is not None
        taught = [tai for _w, tai, mine in ex.items + ex.dealer_items if mine]
        assert taught and all(t > 0 for t in taught), (i.id, ex.items)
        if not any(n for _p, n in i.by_profile):  # the example's rules say they are a house rule, not the default
            assert "家規" in ex.profile.zh and "預設規則不算這一項" in ex.profile.zh, ex.profile.zh
            assert "house rule" in ex.profile.en and "the default rules do not count it" in ex.profile.en, ex.profile


def test_a_house_rule_of_an_item_that_scores_per_thing_says_per_what() -> None:
    """見花見字's card was named "＋家規：見花見字算 1 台" / "Any flower, any wind 1 tai" above its row of 2 tai (a flower
    and a wind pung), and 明槓, 暗槓 likewise: they score per thing (spec §4.4), and the name says so (a teacher's
    review)."""
    items = {i.id: i for i in learn_items()}
    said = {k: items[k].example.profile for k in ("any_flower_any_wind", "kong_bonus_exposed",  # type: ignore[union-attr]
                                                   "kong_bonus_concealed")}
    assert "見花見字，每張花、每組風刻各 1 台" in said["any_flower_any_wind"].zh
    assert "Any flower, any wind, 1 tai each" in said["any_flower_any_wind"].en
    # an added kong counts for 明槓 too, as its description and the scorer say (it read 「每組明槓」: a final review)
    assert "明槓，每個明槓或加槓 1 台" in said["kong_bonus_exposed"].zh
    assert "1 tai per exposed or added kong" in said["kong_bonus_exposed"].en
    assert "暗槓，每組暗槓 2 台" in said["kong_bonus_concealed"].zh
    assert "2 tai per concealed kong" in said["kong_bonus_concealed"].en
    once = items["no_flowers"].example.profile  # type: ignore[union-attr]
    assert "無花算 1 台" in once.zh and "No flowers 1 tai" in once.en  # one that scores once says no unit


def test_no_card_says_an_item_replaces_one_its_house_rule_leaves_off() -> None:
    """無字無花's note said "（取代無花）" / "in place of no flowers", where its house rule counts 無花 0 tai and spec
    §4.4 does not say one replaces the other (a teacher's review)."""
    ex = {i.id: i for i in learn_items()}["no_honours_no_flowers"].example
    assert ex is not None
    assert "取代無花" not in ex.note.zh and "in place of" not in ex.note.en


def test_a_card_says_what_its_item_replaces_and_what_replaces_it_as_the_scorer_does() -> None:
    """Spec §4.2's last column, which no card said (a beginner review): 門清 not saying 天胡, 地胡, 人胡, 天聽 and
    地聽 remove it, 自摸 not saying 天胡 and 地胡 do, 三元牌, 門風 and 圈風 not saying 小三元, 大三元 and 大四喜
    replace them. Read from the scorer's own table under the default rules, so no card says otherwise."""
    from companion.rules.tai import ITEMS, replaced

    default = load_profile(None)
    table = replaced(dict(default.switches))
    cards = {i.id: i for i in learn_items()}
    for item_id, card in cards.items():
        said = " ".join(w.zh for w in card.links)
        for other in ITEMS:
            if not default.value(other) and default.value(item_id):
                continue
            if other in table.get(item_id, ()) or item_id in table.get(other, ()):
                assert ITEMS[other].zh in said, (item_id, other, said)
        assert all(not CJK.search(w.en) and CJK.search(w.zh) for w in card.links), item_id
    assert cards["menqing"].links == (ui("learn_replaced_by", items="「地聽」、「天聽」、「天胡」、「人胡」或「地胡」",
                                         items_en="\u201cEarthly ready\u201d, \u201cHeavenly ready\u201d, "
                                                  "\u201cHeavenly win\u201d, \u201cHuman win\u201d or "
                                                  "\u201cEarthly win\u201d"),)
    assert cards["zimo"].links[0].zh == "有「天胡」或「地胡」時，這一項不另外算（被取代）"
    assert "\u201cSmall three dragons\u201d or \u201cBig three dragons\u201d" in cards["dragon_pung"].links[0].en
    for wind in ("seat_wind", "round_wind"):
        assert cards[wind].links == (ui("learn_replaced_by_one", items="「大四喜」",
                                        items_en="\u201cBig four winds\u201d"),)
    assert "算了這一項，「三暗刻」就不另外算" in cards["four_concealed"].links[0].zh


def test_small_four_winds_says_and_shows_that_the_winds_still_add() -> None:
    """小四喜's card did not say 門風 and 圈風 still add under the default rules (spec §4.2), and its only example scored
    no wind tai, teaching the opposite (a beginner review)."""
    card = {i.id: i for i in learn_items()}["small_winds"]
    assert ui("learn_small_winds_add", rules="預設規則", rules_en="the default rules") in card.links
    assert card.example is not None
    scored = {re.sub(r"（.*", "", w.zh): t for w, t, _ in card.example.items}
    assert scored["門風"] == 1 and scored["圈風"] == 1 and scored["小四喜"] == 8


def test_the_kong_bloom_card_warns_of_the_false_win_on_a_discard_kongs_replacement() -> None:
    """The table's biggest trap (spec §2.10): after a kong of another player's discard a win on the replacement is
    a false win (詐胡) under the default rules; 槓上開花's card said nothing of it (a beginner review)."""
    card = {i.id: i for i in learn_items()}["kong_bloom"]
    assert card.warnings == (ui("learn_kong_bloom_false_win", rules="預設規則", rules_en="the default rules"),)
    assert "詐胡" in card.warnings[-1].zh and "false win" in card.warnings[-1].en


def test_the_example_settings_open_with_a_capital_and_the_pull_is_said_plainly() -> None:
    """The English setting lines began lower-case ("win on a discard; the winner sits…"), and 拉莊 read "with the
    streak N itself, a streak of N makes 2N" (a beginner review)."""
    cards = {i.id: i for i in learn_items()}
    for card in cards.values():
        assert card.example is not None and card.example.setting.en[0].isupper(), card.example.setting.en
    pull = cards["streak_pull"].explain.en
    assert "itself" not in pull and "N for the streak and N more for the pull, 2N in all" in pull
    assert ui("tab_learn") == Words("學打牌", "Learn")
    assert cards["menqing"].kind.en == "Part of the hand's tai"


# --- a change review of the Learn tab: the dealer cards' "scores nothing", the replacement links' wording and
# colour, the wait quiz's hint and the first lesson's count ----------------------------------------------------


def _card_texts(item_id: str) -> list[str]:
    from companion.app.view_learn import LearnTab
    from tests.app.test_tabs_beside_a_live_table import _Host, _texts

    tab = LearnTab(_Host())  # type: ignore[arg-type]
    tab.mode, tab.item = "tai", item_id
    return _texts(tab.build())


def test_a_dealer_card_does_not_say_its_rules_do_not_count_its_item() -> None:
    """莊家, 連莊 and 拉莊's cards said "(these rules do not count this item, and the hand scores nothing else)" right
    above their dealer block (莊家 1, 連莊 2, 拉莊 2: 5 dealer tai): the hand's own rows are empty, its tai are the
    dealer's. Each card says "nothing" only where neither the hand nor the dealer scores."""
    none = ui("learn_scores_none").en
    assert none not in _card_texts("streak")  # its hand scores nothing; its item, 連莊, scores 2 dealer tai
    hand_none = ui("learn_scores_hand_none").en
    dealer_only = 0
    for card in learn_items():
        ex = card.example
        assert ex is not None
        texts = _card_texts(card.id)
        assert (none in texts) == (not ex.items and not ex.dealer_items), card.id
        assert (hand_none in texts) == (not ex.items and bool(ex.dealer_items)), card.id
        dealer_only += not ex.items and bool(ex.dealer_items)
    assert dealer_only >= 3  # 莊家, 連莊, 拉莊
    assert hand_none in _card_texts("streak")
    assert "these rules do not count" not in hand_none and "這套規則不算" not in ui("learn_scores_hand_none").zh


def test_the_replacement_links_agree_in_number_and_quote_the_items_they_name() -> None:
    """"Not counted beside Big four winds, which replace it", "Replaces No flowers: they are not counted beside it"
    (one item, plural verbs), and 「有無字無花時，這一項不另外算」 read as "whether or not there are honours or flowers"
    (a change review): one item takes the singular, and the names are quoted in both languages."""
    cards = {i.id: i for i in learn_items()}
    assert cards["seat_wind"].links == (Words("有「大四喜」時，這一項不另外算（被取代）",
                                              "Not counted beside \u201cBig four winds\u201d, which replaces it"),)
    assert cards["single_wait"].links[0].en.endswith("\u201cHeavenly win\u201d, which replaces it")
    assert cards["no_flowers"].links[0].zh == "有「無字無花」時，這一項不另外算（被取代）"
    assert cards["no_honours_no_flowers"].links[0] == Words(
        "算了這一項，「無花」就不另外算（被它取代）", "Replaces \u201cNo flowers\u201d, which is not counted beside it")
    assert cards["zimo"].links[0] == Words("有「天胡」或「地胡」時，這一項不另外算（被取代）",
                                           "Not counted beside \u201cHeavenly win\u201d or \u201cEarthly win\u201d: "
                                           "each of them replaces it")
    assert cards["heaven_win"].links[0].en.endswith(": they are not counted beside it")
    for card in cards.values():  # no plural verb after one name, no singular after several
        for w in card.links:
            if not w.en.startswith("Under"):  # (小四喜's note)
                one = w.en.endswith((", which replaces it", ", which is not counted beside it"))
                assert one == (w.en.count("\u201c") == 1), w.en


def test_the_small_four_winds_note_names_the_rules_it_is_read_under() -> None:
    """The Learn tab reads the default rules (it picks no other set), and its notes say so: a set-named wording was
    reached only by tests (a change review)."""
    from companion.app.learn_model import links, warnings

    assert any(w.zh.startswith("在預設規則下，") and w.en.startswith("Under the default rules,")
               for w in links("small_winds"))
    bloom = [w for w in links("kong_bloom") + warnings("kong_bloom") if "詐胡" in w.zh]
    assert bloom and all("預設規則" in w.zh and "the default rules" in w.en for w in bloom)


def test_what_replaces_an_item_is_joined_with_or_in_chinese_as_in_english() -> None:
    """A change review: 「有「小三元」、「大三元」時，這一項不另外算」 said "and" beside "…or “Big three dragons”"."""
    for card in learn_items():
        for w in card.links:
            if w.en.startswith("Not counted beside") and w.en.count("\u201c") > 1:
                assert "或「" in w.zh and "」、「" not in w.zh.split("或")[-1], w.zh
                assert w.en.count(" or ") == 1, w.en
    cards = {i.id: i for i in learn_items()}
    assert any("或" in w.zh for w in cards["menqing"].links)


def test_the_replacement_links_are_drawn_as_text_and_the_false_win_as_a_warning() -> None:
    """The links were drawn in the heading's accent red, so they looked like warnings (a change review); only
    槓上開花's false win is one."""
    from companion.app.ui_kit import ACCENT
    from companion.app.view_learn import LearnTab
    from tests.app.test_tabs_beside_a_live_table import _Host, _idents

    def colours(item_id: str) -> list[tuple[str, object]]:
        tab = LearnTab(_Host())  # type: ignore[arg-type]
        tab.mode, tab.item = "tai", item_id
        return [(c.content.value, c.content.color) for c in _idents(tab.build())
                if str(c.identifier).startswith("learn-link-")]

    assert colours("dragon_pung") and all(colour is None for _, colour in colours("dragon_pung"))
    assert colours("kong_bloom") == [(ui("learn_kong_bloom_false_win", rules="the default rules").en, ACCENT)]


def test_the_wait_quiz_hint_and_the_first_lesson_count_as_the_lesson_does() -> None:
    """The hint asked 「哪一張」 (which one tile) but "which tiles" in English, above quiz 1's two waits; it said
    five sets (chows or pungs) where the first lesson says a set is a chow, a pung or a kong; and 「共 17 張」 did not
    say a kong makes one more tile (a change review)."""
    from companion.app.quiz_model import wait_quiz

    assert len(wait_quiz(1).waits) == 2
    hint = ui("quiz_shape_hint")
    assert "哪幾張" in hint.zh and "哪一張" not in hint.zh and "which tiles" in hint.en
    assert "順子、刻子或槓子" in hint.zh and "chows, pungs or kongs" in hint.en
    intro = ui("basics_intro")
    assert "每個槓子多一張" in intro.zh and "one more for each kong" in intro.en

"""Property tests of the scorer (issue 3): totals add up, tile order never matters, the best split wins."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from companion.hand import Meld, MeldKind, Source
from companion.rules.profiles import BUILTIN, load_profile
from companion.rules.scoring import score, score_all
from companion.rules.settlement import Stakes, settle
from companion.rules.win import WINDS, Win, WinType
from companion.tiles import Tile

KINDS = [Tile(i) for i in range(34)]
FLOWERS = [Tile(i) for i in range(34, 42)]


@st.composite
def winning_hands(draw: st.DrawFn) -> Win:
    """A random legal win: five sets and a pair, some sets called, the winning tile taken out again."""
    sets: list[tuple[str, Tile]] = []
    used: Counter[Tile] = Counter()
    while len(sets) < 5:
        options = [("pung", t) for t in KINDS if used[t] <= 1]
        options += [("chow", Tile(b + r)) for b in (0, 9, 18) for r in range(7)
                    if all(used[Tile(b + r + k)] <= 3 for k in range(3))]
        kind, start = draw(st.sampled_from(options))
        tiles = [start] * 3 if kind == "pung" else [start, Tile(start + 1), Tile(start + 2)]
        used.update(tiles)
        sets.append((kind, start))
    pair = draw(st.sampled_from([t for t in KINDS if used[t] <= 2]))
    used.update([pair, pair])
    melds: list[Meld] = []
    concealed: list[Tile] = [pair, pair]
    for kind, start in sets:
        if kind == "chow":
            chow = (start, Tile(start + 1), Tile(start + 2))
            if draw(st.booleans()):
                melds.append(Meld(MeldKind.CHOW, chow, Source.LEFT))
            else:
                concealed.extend(chow)
            continue
        choice = draw(st.sampled_from(("concealed", "pung", "kong", "addkong", "ckong")))
        if choice == "concealed":
            concealed.extend([start] * 3)
        elif choice == "pung":
            melds.append(Meld(MeldKind.PUNG, (start,) * 3, draw(st.sampled_from(list(Source)))))
        elif used[start] == 3:  # a kong needs the fourth copy
            used[start] += 1
            source = None if choice != "kong" else draw(st.sampled_from(list(Source)))
            melds.append(Meld(MeldKind(choice), (start,) * 4, source))
        else:
            concealed.extend([start] * 3)
    win_tile = draw(st.sampled_from(sorted(set(concealed))))
    concealed.remove(win_tile)
    seat = draw(st.sampled_from(WINDS))
    self_draw = draw(st.booleans())
    discarder = None if self_draw else draw(st.sampled_from([w for w in WINDS if w != seat]))
    flowers = tuple(draw(st.sets(st.sampled_from(FLOWERS), max_size=7)))
    return Win(
        concealed=tuple(concealed), win_tile=win_tile,
        win_type=WinType.SELF_DRAW if self_draw else WinType.DISCARD,
        seat_wind=seat, round_wind=draw(st.sampled_from(WINDS)), melds=tuple(melds), flowers=flowers,
        dealer=draw(st.sampled_from(WINDS)), streak=draw(st.integers(0, 4)), discarder=discarder,
        last_tile=draw(st.booleans()),
    )


profiles = st.sampled_from(BUILTIN)


def seated(win: Win, pid: str | None) -> Win:
    """The drawn win as the profile can see it: where the seat winds count from the dealer (dealer_east, spec
    §2.15) the dealer is East, whatever was drawn; the winner and the discarder still take any seat around him."""
    if load_profile(pid).switch("seat_wind") == "dealer_east":
        return dataclasses.replace(win, dealer=Tile.EAST)
    return win


@given(winning_hands(), profiles)
def test_total_is_the_sum_of_the_items(win: Win, pid: str) -> None:
    win = seated(win, pid)
    s = score(win, pid)
    profile = load_profile(pid)
    assert s.hand_tai == sum(i.tai for i in s.items)
    for i in s.items:
        assert i.count >= 1 and i.tai == i.count * profile.value(i.id) > 0
    assert s.dealer_tai == 1 + 2 * min(win.streak, profile.switch("streak_cap")
                                       if profile.switch("streak_cap") != "none" else win.streak)


@given(winning_hands(), st.randoms(use_true_random=False))
def test_tile_order_never_changes_the_score(win: Win, rnd: random.Random) -> None:
    win = seated(win, None)
    data = win.to_dict()
    tiles = [t.code for t in win.concealed]
    rnd.shuffle(tiles)
    data["concealed"] = " ".join(tiles)
    flowers = [t.code for t in win.flowers]
    rnd.shuffle(flowers)
    data["flowers"] = "".join(flowers)
    melds = list(data["melds"])
    rnd.shuffle(melds)
    data["melds"] = melds
    a, b = score(win).to_dict(), score(Win.from_dict(data)).to_dict()
    assert (a["hand_tai"], a["items"], a["waits"]) == (b["hand_tai"], b["items"], b["waits"])


@given(winning_hands(), profiles)
def test_chosen_interpretation_is_the_best(win: Win, pid: str) -> None:
    win = seated(win, pid)
    best = score(win, pid)
    every = score_all(win, pid)
    assert len(every) == best.interpretations >= 1
    keys = [(s.hand_tai, sum(i.count for i in s.items)) for s in every]
    assert (best.hand_tai, sum(i.count for i in best.items)) == max(keys)
    first_best = every[keys.index(max(keys))]  # the canonical order breaks ties (spec §3.3 step 7)
    assert first_best.decomposition == best.decomposition and first_best.placement == best.placement
    d = best.decomposition
    assert d is not None and win.win_tile is not None
    used = Counter(t for g in d.sets for t in g.tiles) + Counter([d.pair, d.pair])
    assert used == Counter(win.concealed + (win.win_tile,))


@given(winning_hands(), profiles)
def test_settlement_sums_to_zero_and_dealer_tai_only_with_the_dealer(win: Win, pid: str) -> None:
    win = seated(win, pid)
    s = score(win, pid)
    st_ = settle(s, win, Stakes(30, 10))
    assert sum(st_.received(seat) for seat in WINDS) == 0
    assert st_.received(win.seat_wind) == st_.total
    for p in st_.payments:
        involved = win.dealer in (p.payer, p.payee)
        assert p.dealer_tai == (s.dealer_tai if involved else 0)
        assert p.tai == s.capped_tai + p.dealer_tai
        assert p.amount == 30 + 10 * p.tai
    assert len(st_.payments) == (1 if win.discarder is not None else 3)


@given(winning_hands(), st.integers(0, 33))
def test_fast_splits_equal_the_shape_module(win: Win, extra: int) -> None:
    """The scorer's memoised per-suit splits list exactly shape.decompose_counts's, in canonical order."""
    from companion.rules._scoring_splits import splits
    from companion.rules.shape import decompose_counts
    from companion.tiles import counts34

    assert win.win_tile is not None
    for counts in (counts34(win.concealed + (win.win_tile,)), counts34(win.concealed + (Tile(extra),))):
        need = (sum(counts) - 2) // 3
        expected = sorted(decompose_counts(counts, need), key=lambda sp: (tuple(g.sort_key for g in sp[0]),
                                                                           int(sp[1])))
        assert splits(counts) == expected

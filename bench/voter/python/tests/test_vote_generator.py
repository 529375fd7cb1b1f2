"""SplitRandom and VoteGenerator against the values the Java (and C++)
drivers draw for the same seeds (bench/common/cpp/tests/split_random_test.cc,
bench/voter/cpp/tests/vote_generator_test.cc)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from area_codes import CODES, STATES  # noqa: E402
from split_random import SplitRandom  # noqa: E402
from vote_generator import AREA_CODE_MULTIPLIER, VoteGenerator  # noqa: E402


def test_should_draw_the_same_longs_ints_doubles_and_booleans_as_java() -> None:
    r = SplitRandom(42)
    assert r.next_long() == -4767286540954276203
    assert r.next_long() == 2949826092126892291
    assert [r.next_int(b) for b in (264, 100, 10_000_000, 256, 7)] == [9, 72, 6986781, 79, 3]
    assert r.next_double() == 0.8006318767135033
    assert r.next_boolean() and r.next_boolean()
    s = r.split()
    assert s.next_long() == 1881317480488503234
    assert s.next_int(1000) == 209
    assert r.next_long() == -8976257307478440218


def test_should_stay_within_bounds() -> None:
    r = SplitRandom(1)
    for _ in range(10_000):
        assert 0 <= r.next_int(1024) < 1024
        assert 0 <= r.next_int(1_000_000_007) < 1_000_000_007
        assert 0 <= r.next_double() < 1


def test_should_hold_the_java_table_of_264_area_codes() -> None:
    assert len(CODES) == 264 == len(STATES) == len(set(CODES))
    assert (CODES[0], STATES[0], CODES[263]) == (201, "NJ", 989)


def test_should_draw_the_same_calls_as_the_java_driver() -> None:
    g = VoteGenerator(6, SplitRandom(42))
    expected = [(5624697556, 2), (2074364071, 1), (6192818706, 6), (3300603846, 1), (2240713248, 2),
                (8435265886, 3)]
    for phone, contestant in expected:
        g.next()
        assert (g.phone, g.contestant) == (phone, contestant)
    s = g.split()
    s.next()
    assert (s.phone, s.contestant) == (6077816417, 4)


def test_should_give_area_codes_the_java_favourites() -> None:
    g = VoteGenerator(6, SplitRandom(1))
    assert g.favourites[:12] == [1, 3, 1, 5, 2, 1, 3, 1, 6, 2, 1, 4]


def test_should_skew_contestants_and_name_about_one_invalid_in_a_hundred() -> None:
    calls = 50_000
    g = VoteGenerator(6, SplitRandom(7))
    codes = set(CODES)
    votes = [0] * 8
    for _ in range(calls):
        g.next()
        assert g.phone // AREA_CODE_MULTIPLIER in codes
        votes[g.contestant] += 1
    assert votes[7] / calls == pytest.approx(0.01, abs=0.003)
    valid = calls - votes[7]
    for k in range(1, 7):
        assert votes[k] / valid == pytest.approx(g.weight(k), abs=0.02)

"""The one way cdpilot cuts text: always within the limit, always saying how much is gone."""

from __future__ import annotations

import pytest

from cdpilot.text import clip, exact_size, human_size, one_line, plural


def test_text_that_fits_is_left_alone() -> None:
    assert clip("short", 40) == "short"
    assert clip("x" * 40, 40) == "x" * 40
    assert clip("short", 40, keep="ends") == "short"


def test_a_cut_keeps_the_start_and_says_how_much_is_missing() -> None:
    assert clip("a" * 100, 30) == "a" * 18 + "…[+82 chars]"


def test_a_cut_in_the_middle_keeps_both_ends() -> None:
    url = "http://example.test/" + "a" * 100 + "/file.js"
    short = clip(url, 60, keep="ends")
    assert short == "http://example.test/aaaa…[+80 chars]" + "a" * 16 + "/file.js"
    assert len(short) == 60


@pytest.mark.parametrize("limit", [20, 40, 120, 500])
@pytest.mark.parametrize("keep", ["start", "ends"])
def test_the_cut_text_is_within_the_limit_and_the_count_is_exact(limit: int, keep: str) -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(1000))
    short = clip(text, limit, keep=keep)  # type: ignore[arg-type]
    assert len(short) == limit
    kept = len(short) - len(short[short.index("…") : short.index("]") + 1])
    assert f"+{len(text) - kept} chars" in short


def test_a_limit_below_the_mark_still_keeps_a_character() -> None:
    assert clip("abcdefghijklmnopqrstuvwxyz", 3) == "a…[+25 chars]"


def test_one_line_plural_and_sizes() -> None:
    assert one_line(" a\n\tb  c ") == "a b c"
    assert [plural(1, "entry", "entries"), plural(2, "entry", "entries"), plural(3, "tab")] == [
        "1 entry",
        "2 entries",
        "3 tabs",
    ]
    assert [human_size(n) for n in (0, 1023, 1024, 35_000, 3 * 1024 * 1024)] == [
        "0 B",
        "1023 B",
        "1 KB",
        "34 KB",
        "3.0 MB",
    ]


def test_an_exact_size_counts_every_byte_with_the_rough_size_beside_it() -> None:
    assert [exact_size(n) for n in (10, 1023, 50_000, 3 * 1024 * 1024)] == [
        "10 B",
        "1023 B",
        "50,000 bytes (49 KB)",
        "3,145,728 bytes (3.0 MB)",
    ]

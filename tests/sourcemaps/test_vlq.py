"""Base64 VLQ: known strings decode to known numbers, and every 32-bit value survives a round trip."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cdpilot.browser.sourcemaps import decode_vlq
from tests.sourcemaps.map_builder import encode_mappings, encode_vlq


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("A", [0]),
        ("C", [1]),
        ("D", [-1]),
        ("f", [-15]),
        ("e", [15]),
        ("gB", [16]),
        ("hB", [-16]),
        ("2H", [123]),
        ("AAAA", [0, 0, 0, 0]),
        ("AAgBC", [0, 0, 16, 1]),
        ("SAASA", [9, 0, 0, 9, 0]),
        ("+/////D", [2**31 - 1]),
        ("//////D", [-(2**31) + 1]),
        ("", []),
    ],
)
def test_known_strings(text: str, values: list[int]) -> None:
    assert decode_vlq(text) == values


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AA*A", "'*' is not a base64 digit"),
        ("Ag", "the last value is cut off"),
        ("gggggggB", "a value is longer than 32 bits"),
    ],
)
def test_unreadable_strings(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        decode_vlq(text)


@given(st.lists(st.integers(min_value=-(2**31) + 1, max_value=2**31 - 1), max_size=8))
def test_round_trip(values: list[int]) -> None:
    assert decode_vlq(encode_vlq(values)) == values


def test_the_builder_encodes_relative_fields() -> None:
    assert encode_mappings([[(0, 0, 0, 0), (4, 0, 0, 4, 0)], [], [(2, 1, 3, 0)]]) == "AAAA,IAAIA;;ECGJ"

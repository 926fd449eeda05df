"""Writing small source maps for tests: a reference VLQ encoder and mappings from absolute
segments, so a test states positions plainly and the encoding is checked, not trusted."""

from __future__ import annotations

import json
from typing import Any

from cdpilot.browser.sourcemaps.vlq_mappings import BASE64

Segment = tuple[int, ...]  # (column,) or (column, source, line, column) or (…, name), absolute


def encode_vlq(values: list[int]) -> str:
    """The format's encoding, written from its definition."""
    out = []
    for value in values:
        vlq = (-value << 1) | 1 if value < 0 else value << 1
        while True:
            digit, vlq = vlq & 31, vlq >> 5
            out.append(BASE64[digit | (32 if vlq else 0)])
            if not vlq:
                break
    return "".join(out)


def encode_mappings(lines: list[list[Segment]]) -> str:
    """``mappings`` for segments given with absolute values, one list per generated line."""
    previous = [0] * 8  # room for the malformed segments of more than 5 fields that tests write
    encoded_lines = []
    for segments in lines:
        previous[0] = 0
        encoded = []
        for segment in segments:
            deltas = [value - previous[field] for field, value in enumerate(segment)]
            previous[: len(segment)] = segment
            encoded.append(encode_vlq(deltas))
        encoded_lines.append(",".join(encoded))
    return ";".join(encoded_lines)


def map_json(lines: list[list[Segment]], **fields: Any) -> str:
    """A version 3 map: `fields` (sources, names, …) around the encoded `lines`."""
    payload: dict[str, Any] = {"version": 3, "sources": ["a.js"], "names": []}
    payload.update(fields)
    payload["mappings"] = encode_mappings(lines)
    return json.dumps(payload)

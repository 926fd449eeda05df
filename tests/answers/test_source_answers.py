"""The answers of the tools that find code (list, read, search), on hand-built facts."""

from __future__ import annotations

from cdpilot.answers.source_answers import LIST_ROWS, scripts_answer, search_answer, source_lines_answer
from cdpilot.browser.debugger.source_facts import ScriptEntry, SearchFindings, SearchHit, SourceFile, SourceText

SITE = "http://127.0.0.1:8000"
BUNDLE = ScriptEntry(
    f"{SITE}/dist/app.js",
    "loaded",
    "",
    (SourceFile("src/cart.ts", False), SourceFile("src/main.ts", False), SourceFile("node_modules/lib/i.js", True)),
)
BROKEN = ScriptEntry(f"{SITE}/dist/other.js", "failed", "source map x.map: could not be loaded (HTTP 404)", ())
PLAIN = ScriptEntry(f"{SITE}/plain.js", "none", "", ())


def test_the_list_shows_each_script_its_map_and_its_files() -> None:
    assert scripts_answer([BUNDLE, BROKEN, PLAIN], filter_text=None, offset=0) == "\n".join(
        [
            "3 scripts loaded, 1 with a source map; rows 1–6 of 6:",
            f"{SITE}/dist/app.js  [map: 3 sources]",
            "  src/cart.ts",
            "  src/main.ts",
            "  node_modules/lib/i.js (library)",
            f"{SITE}/dist/other.js  [map failed: source map x.map: could not be loaded (HTTP 404)]",
            f"{SITE}/plain.js  [no map]",
        ]
    )


def test_a_filter_keeps_matching_files_under_their_script() -> None:
    assert scripts_answer([BUNDLE, PLAIN], filter_text="CART", offset=0).splitlines()[1:] == [
        f"{SITE}/dist/app.js  [map: 3 sources]",
        "  src/cart.ts",
    ]
    assert scripts_answer([BUNDLE], filter_text="nothing", offset=0) == (
        'No script or original source matching "nothing" (1 script loaded).'
    )
    assert scripts_answer([], filter_text=None, offset=0).startswith("No scripts with a URL are loaded yet.")


def test_a_long_list_is_paged_and_says_how_to_go_on() -> None:
    many = [ScriptEntry(f"{SITE}/s{n}.js", "none", "", ()) for n in range(LIST_ROWS + 5)]
    first = scripts_answer(many, filter_text=None, offset=0).splitlines()
    assert first[0] == f"{LIST_ROWS + 5} scripts loaded, 0 with a source map; rows 1–{LIST_ROWS} of {LIST_ROWS + 5}:"
    assert first[-1] == f"More: {{param:debugger_list_scripts.offset}}={LIST_ROWS}."
    rest = scripts_answer(many, filter_text=None, offset=LIST_ROWS).splitlines()
    assert rest[0].endswith(f"rows {LIST_ROWS + 1}–{LIST_ROWS + 5} of {LIST_ROWS + 5}:") and len(rest) == 6


def test_reading_lines_numbers_them_and_says_what_follows() -> None:
    source = SourceText("src/cart.ts", True, tuple(f"line {n}" for n in range(1, 13)))
    assert source_lines_answer(source, start_line=9, line_count=2, max_chars=5000) == (
        "src/cart.ts (original source), lines 9–10 of 12:\n 9 | line 9\n10 | line 10\nMore: "
        "{param:debugger_read_source.start_line}=11."
    )
    assert source_lines_answer(source, start_line=12, line_count=5, max_chars=5000).endswith("12 | line 12")
    assert source_lines_answer(source, start_line=13, line_count=5, max_chars=5000) == (
        "src/cart.ts (original source) has 12 lines; line 13 is past its end."
    )


def test_reading_stops_at_the_answer_budget() -> None:
    source = SourceText(f"{SITE}/app.js", False, tuple("x" * 150 for _ in range(100)))
    text = source_lines_answer(source, start_line=1, line_count=100, max_chars=1000)
    assert len(text) <= 1000 and text.splitlines()[-1].startswith("More: {param:debugger_read_source.start_line}=")
    assert text.splitlines()[0] == f"{SITE}/app.js (script), lines 1–4 of 100:"


def test_search_results_originals_first_with_what_was_not_searched() -> None:
    found = SearchFindings(
        (SearchHit("src/cart.ts", 20, "    subtotal += 1;", True), SearchHit(f"{SITE}/app.js", 33, "s+=1", False)),
        total=5,
        counted_all=True,
        files_searched=4,
        files_without_text=("src/gone.ts",),
    )
    assert search_answer(found, query="subtotal") == "\n".join(
        [
            '5 lines match "subtotal" in 4 files; showing 2, original sources first:',
            "src/cart.ts:20: subtotal += 1;",
            f"{SITE}/app.js:33: s+=1",
            "More: raise limit, or search for something narrower.",
            "Not searched (their maps carry no text): src/gone.ts.",
        ]
    )
    nothing = SearchFindings((), 1000, False, 9, ())
    assert search_answer(nothing, query="x") == '1000+ lines match "x" in 9 files.'


def test_a_map_that_loaded_with_dropped_mappings_says_so() -> None:
    noted = ScriptEntry(f"{SITE}/n.js", "loaded", "mapping at generated line 3 refers to source #9; dropped", ())
    assert scripts_answer([noted], filter_text=None, offset=0).splitlines()[1] == (
        f"{SITE}/n.js  [map: 0 sources; note: mapping at generated line 3 refers to source #9; dropped]"
    )

"""The page tools' answers (tabs, navigation, screenshots, viewport, media, evaluation), on
hand-built page facts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cdpilot.answers.page_answers import (
    closed_target_answer,
    media_answer,
    navigation_answer,
    new_tab_answer,
    paused_evaluation_answer,
    paused_navigation_answer,
    saved_screenshot_answer,
    screenshot_answer,
    screenshot_text,
    switched_target_answer,
    target_line,
    targets_answer,
    viewport_answer,
)
from cdpilot.browser.emulation.emulation_facts import MediaEmulation, ViewportSet
from cdpilot.browser.page.capture_facts import ImageLimits, Screenshot, ScreenshotCut
from cdpilot.browser.page.page_facts import NavigationKind, NavigationResult
from cdpilot.browser.page.tab_facts import TargetClosed, TargetEntry, TargetSwitch

HOME = TargetEntry(0, "T0", "page", "Home", "http://127.0.0.1:8000/", current=False)
LOGIN = TargetEntry(1, "T1", "page", "Sign in", "http://127.0.0.1:8000/login", current=True)
FRAME = TargetEntry(None, "F1", "iframe", "", "http://other.test/inner", current=False)
LOADED = NavigationResult("goto", "http://127.0.0.1:8000/login", "Sign in", 200, "load", 65)
BUNDLE = ["Paused (breakpoint bp1) at http://127.0.0.1:8000/app.js:2:4", "  2 | debugger;"]
VIEWPORT_SHOT = Screenshot("A" * 4000, "jpeg", 80, 780, 437, "viewport")  # 3000 bytes


def test_a_target_line_marks_the_current_page_and_drops_a_title_that_is_the_url() -> None:
    assert target_line(LOGIN) == "*[1] Sign in — http://127.0.0.1:8000/login"
    assert target_line(HOME) == " [0] Home — http://127.0.0.1:8000/"
    assert target_line(FRAME) == " (iframe) http://other.test/inner"
    assert target_line(replace(HOME, title="about:blank", url="about:blank")) == " [0] about:blank"


def test_a_long_target_line_is_cut_with_the_marker() -> None:
    long = replace(HOME, title="T" * 200, url="http://a.test/")
    assert target_line(long) == " [0] " + "T" * 143 + "…[+74 chars]"


def test_a_target_list_counts_pages_and_other_targets() -> None:
    assert targets_answer([HOME, LOGIN, FRAME]) == (
        "2 page(s), 1 other target(s); * = current page.\n"
        " [0] Home — http://127.0.0.1:8000/\n"
        "*[1] Sign in — http://127.0.0.1:8000/login\n"
        " (iframe) http://other.test/inner"
    )


def test_a_long_target_list_shows_thirty_and_counts_the_rest() -> None:
    pages = [TargetEntry(n, f"T{n}", "page", f"Tab {n}", f"http://a.test/{n}", n == 0) for n in range(31)]
    frames = [TargetEntry(None, f"F{n}", "iframe", "", f"http://b.test/{n}", False) for n in range(2)]
    expected = ["31 page(s), 2 other target(s); * = current page.", "*[0] Tab 0 — http://a.test/0"]
    expected += [f" [{n}] Tab {n} — http://a.test/{n}" for n in range(1, 30)]
    expected.append(
        "… 3 more not shown; {tool:switch_target} picks one by its {param:switch_target.url} "
        "or {param:switch_target.title}"
    )
    assert targets_answer(pages + frames) == "\n".join(expected)


def test_an_empty_target_list_is_only_the_head() -> None:
    assert targets_answer([]) == "0 page(s), 0 other target(s); * = current page."


def test_a_switch_names_the_new_current_page() -> None:
    assert switched_target_answer(TargetSwitch(LOGIN, 0)) == (
        "Current page is now:\n*[1] Sign in — http://127.0.0.1:8000/login"
    )


def test_a_switch_says_when_other_pages_matched_too() -> None:
    assert switched_target_answer(TargetSwitch(LOGIN, 2)) == (
        "Current page is now (2 more page(s) matched; the first was chosen):\n"
        "*[1] Sign in — http://127.0.0.1:8000/login"
    )


def test_a_new_tab_without_a_url() -> None:
    assert new_tab_answer(LOGIN, None) == "Opened a new tab [1], now the current page."


def test_a_new_tab_with_a_url_says_where_it_loaded() -> None:
    assert new_tab_answer(LOGIN, LOADED) == (
        "Opened a new tab [1], now the current page.\nLoaded http://127.0.0.1:8000/login (HTTP 200). Title: Sign in"
    )
    data = replace(LOADED, url="data:text/html,hi", title="", status=None)
    assert new_tab_answer(LOGIN, data) == (
        "Opened a new tab [1], now the current page.\nLoaded data:text/html,hi (no HTTP status). Title: (none)"
    )


def test_a_close_names_the_closed_page_and_the_current_one() -> None:
    assert closed_target_answer(TargetClosed(HOME, LOGIN)) == (
        "Closed [0] Home.\nCurrent page: *[1] Sign in — http://127.0.0.1:8000/login"
    )
    untitled = replace(HOME, title="")
    assert closed_target_answer(TargetClosed(untitled, LOGIN)) == (
        "Closed [0] http://127.0.0.1:8000/.\nCurrent page: *[1] Sign in — http://127.0.0.1:8000/login"
    )


@pytest.mark.parametrize(
    ("kind", "verb"),
    [("goto", "Navigated to"), ("back", "Went back to"), ("forward", "Went forward to"), ("reload", "Reloaded")],
)
def test_a_navigation_says_where_the_page_got_to(kind: NavigationKind, verb: str) -> None:
    assert navigation_answer(replace(LOADED, kind=kind)) == (
        f"{verb} http://127.0.0.1:8000/login (HTTP 200, load after 65 ms)\nTitle: Sign in"
    )


def test_a_navigation_without_status_or_title() -> None:
    result = NavigationResult("goto", "about:blank", "", None, "domcontentloaded", 3)
    assert navigation_answer(result) == "Navigated to about:blank (no HTTP status, domcontentloaded after 3 ms)\n" + (
        "Title: (none)"
    )


def test_a_navigation_that_paused_leads_with_the_pause() -> None:
    assert paused_navigation_answer(replace(LOADED, kind="reload"), BUNDLE) == (
        "Reloaded http://127.0.0.1:8000/login; its scripts paused in the debugger before 'load':\n"
        "Paused (breakpoint bp1) at http://127.0.0.1:8000/app.js:2:4\n"
        "  2 | debugger;"
    )


def test_an_inline_screenshot_describes_area_size_format_and_weight() -> None:
    assert screenshot_answer(VIEWPORT_SHOT) == "Screenshot of the viewport, 780×437, jpeg q80, 3 KB"


def test_a_png_has_no_quality_and_an_element_is_named_by_its_selector() -> None:
    element = Screenshot("AAAAAAA=", "png", None, 120, 30, "element", selector="#users tr")
    assert screenshot_answer(element) == "Screenshot of #users tr, 120×30, png, 5 B"


def test_a_full_page_cut_by_its_format_says_so_and_what_goes_further() -> None:
    cut = ScreenshotCut(1280, 30000, "format", 16383)
    tall = Screenshot("A" * 4000, "webp", 50, 1280, 16383, "full page", cut=cut)
    assert screenshot_text(tall) == (
        "full page, 1280×16383 (cut from 1280×30000: a webp image is at most 16,383 px a side; "
        "{param:browser_screenshot.format}=png goes "
        "further), webp q50, 3 KB"
    )


def test_a_full_page_cut_by_the_message_size_says_so() -> None:
    cut = ScreenshotCut(1280, 100000, "message", 256 * 1024 * 1024)
    tall = Screenshot("A" * 4000, "png", None, 1280, 52415, "full page", cut=cut)
    assert saved_screenshot_answer(tall, "/out/tall.png") == (
        "Saved screenshot of full page, 1280×52415 (cut from 1280×100000: a larger image might not fit in one CDP "
        "message of 256.0 MB), png, 3,000 bytes (3 KB) to /out/tall.png"
    )


INLINE = ImageLimits(2000, 1_000_000)


def test_a_scaled_inline_image_states_its_scale_and_how_to_get_it_whole() -> None:
    shrunk = Screenshot(
        "A" * 4000,
        "jpeg",
        80,
        1280,
        6000,
        "full page",
        image_width=427,
        image_height=2000,
        scale=1 / 3,
        fitted_to=INLINE,
    )
    assert screenshot_answer(shrunk) == (
        "Screenshot of full page, 1280×6000 scaled to 427×2000 (scale 0.333), jpeg q80, 3 KB. Scaled down to fit an "
        "inline image (at most 2,000 px a side and 1,000,000 base64 characters); "
        "{param:browser_screenshot.path}=… saves it as asked, at full "
        "resolution."
    )


def test_a_lower_quality_is_stated_beside_the_one_asked() -> None:
    lowered = Screenshot("A" * 4000, "jpeg", 40, 780, 437, "viewport", fitted_to=INLINE, asked_quality=80)
    assert screenshot_answer(lowered) == (
        "Screenshot of the viewport, 780×437, jpeg q40 (asked q80), 3 KB. Quality lowered to fit an inline image (at "
        "most 2,000 px a side and 1,000,000 base64 characters); {param:browser_screenshot.path}=… saves "
        "it as asked, at full resolution."
    )


def test_a_tiny_scale_warns_that_details_are_lost() -> None:
    sliver = Screenshot(
        "A" * 4000, "png", None, 1280, 100000, "element", "#feed", 26, 2000, scale=0.02, fitted_to=INLINE
    )
    answer = screenshot_answer(sliver)
    assert answer.startswith("Screenshot of #feed, 1280×100000 scaled to 26×2000 (scale 0.02), png, 3 KB. Scaled down")
    assert answer.endswith(
        " Details are unreadable at this scale: capture one element with "
        "{param:browser_screenshot.selector}=…, or the viewport."
    )


def test_a_saved_screenshot_names_its_file() -> None:
    assert saved_screenshot_answer(VIEWPORT_SHOT, "/tmp/out/shots/home.jpg") == (
        "Saved screenshot of the viewport, 780×437, jpeg q80, 3,000 bytes (3 KB) to /tmp/out/shots/home.jpg"
    )


def test_the_viewport_answer_shows_what_the_page_measures() -> None:
    assert viewport_answer(ViewportSet(500, 400, 2.0, False, 500, 400)) == (
        "Viewport set to 500×400 (desktop, pixel ratio 2); the page now sees innerWidth 500, innerHeight 400."
    )
    assert viewport_answer(ViewportSet(390, 844, 1.5, True, 390, 844)) == (
        "Viewport set to 390×844 (mobile, pixel ratio 1.5); the page now sees innerWidth 390, innerHeight 844."
    )


def test_the_media_answer_names_every_feature() -> None:
    assert media_answer(MediaEmulation("print", "dark", "reduce")) == (
        "Emulating media: print, prefers-color-scheme: dark, prefers-reduced-motion: reduce"
    )
    assert media_answer(MediaEmulation(None, "light", None)) == (
        "Emulating media: as the browser has it, prefers-color-scheme: light, "
        "prefers-reduced-motion: as the browser has it"
    )


def test_an_evaluation_that_paused_leads_with_the_pause() -> None:
    assert paused_evaluation_answer(BUNDLE) == (
        "The expression paused in the debugger before it finished:\n"
        "Paused (breakpoint bp1) at http://127.0.0.1:8000/app.js:2:4\n"
        "  2 | debugger;"
    )

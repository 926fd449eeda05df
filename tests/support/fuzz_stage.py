"""The stage schema fuzzing plays on: one mode's registry on a live Chromium showing the
fixture page (`fuzz_site`), each valid call started from a drawn precondition and the stage
put back after it.

Calls change the world, and that is expected: they disconnect or replace the browser, close
tabs, navigate away, pause the page, leave dialogs open, launch more browsers. After each
valid call `Stage.restore` puts back, cheaply, only what changed: other browsers closed, the
fixture browser launched again if a call ended it, a dialog dismissed, the debugger turned
off (which resumes and drops breakpoints), request routes removed, other tabs closed, emulation
cleared, the fixture page loaded again if the tab shows anything else. Auto-launch is off, so only ``chrome
launch`` and the restore start browsers, never a call that finds none.

Paths a launch may be given are forced (`Stage.forced`): ``executable_path`` to the test
Chromium, a missing file, a file that is not executable or ""; ``user_data_dir`` to a
directory under the test's temporary directory or ""; ``extra_args`` to a few harmless
flags. A drawn path could name any program, and a drawn word could redirect Chromium's
files, open a port, or (not starting with ``--``) be opened as a URL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from cdpilot_generated.manifests import Mode

from cdpilot.browser.session.browser_connection import BrowserConnection
from cdpilot.browser.session.launch_options import LaunchOptions
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.context import Settings
from cdpilot.server.registry import Registry
from tests.support.chromium import CHROMIUM, chrome_env
from tests.support.fuzz_site import UPLOADABLE, page_values
from tests.support.registry import answer, in_process_registry

PRECONDITIONS = ("as restored", "debugger on", "paused", "dialog open", "history both ways")
FIXTURE_ID = "fuzz"  # the connection that shows the fixture page
LISTED_REQUEST = "<the first listed request>"  # a suggested request_id, bound when the call is made
# Two entries pushed and one popped: both going back and going forward have somewhere to go.
HISTORY_BOTH_WAYS = (
    "new Promise((popped) => { addEventListener('popstate', popped, {once: true}); "
    "history.pushState(null, ''); history.pushState(null, ''); history.back(); }).then(() => history.length)"
)
EMULATING = frozenset({"browser_set_viewport", "browser_emulate_media", "emulate"})
T = TypeVar("T")


class StageError(Exception):
    """A precondition could not be set up, or the stage could not be put back."""


def failure_text(exc: Exception) -> str:
    """What went wrong, for the list of failures; a TimeoutError is a deadline of ours."""
    return "no answer before the deadline" if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}"


@dataclass
class Stage:
    """One mode's registry on a live Chromium showing the fixture page."""

    registry: Registry
    keeper: Registry  # legacy tools on the same browsers, for preconditions and restoring
    loop: asyncio.AbstractEventLoop
    origin: str  # the fixture server's, http://127.0.0.1:<port>
    forced: dict[str, tuple[object, ...]]  # the only values some parameters may take

    @property
    def home(self) -> str:
        return f"{self.origin}/"

    def suggested(self, tool: str) -> dict[str, tuple[object, ...]]:
        """Values that name something that exists, for a parameter of the granular `tool`."""
        values = {**page_values(self.origin, tool), "connection_id": (FIXTURE_ID, ""), "request_id": (LISTED_REQUEST,)}
        routes = {
            "route_id": ("r1", "r999"),
            "status": (200, 404),
        }
        return {**values, **routes}

    @property
    def fixture(self) -> BrowserConnection:
        return self.registry.ctx.connections.get(FIXTURE_ID)

    def run(self, work: Coroutine[Any, Any, T], deadline_s: float) -> T:
        return self.loop.run_until_complete(asyncio.wait_for(work, deadline_s))

    async def keep(self, tool: str, *, tolerate: Collection[str] = (), **arguments: Any) -> None:
        """Call a legacy tool that must succeed (or fail with an error type in `tolerate`)."""
        error, text = await answer(self.keeper, tool, **arguments)
        if error is not None and error not in tolerate:
            raise StageError(f"{tool}({arguments}) answered {error}: {text[:300]}")

    async def establish(self, precondition: str) -> None:
        """Put the page in the state a valid call starts from (the stage is as restored)."""
        if precondition == "dialog open":  # straight over CDP: evaluate_js waits 2 s for a page that blocks
            await self.fixture.page.send("Runtime.evaluate", {"expression": "setTimeout(() => alert('precondition'))"})
            await self.fixture.features.dialogs.wait_open()
        elif precondition == "history both ways":  # entries of the same document: nothing to load
            await self.keep("evaluate_js", expression=HISTORY_BOTH_WAYS)
        elif precondition != "as restored":  # the debugger on, with bp1 on greet (run by a click or an evaluate)
            await self.keep("debugger_enable")
            await self.keep("debugger_set_function_breakpoint", function_name="greet")
            if precondition == "paused":  # the page ticks every 100 ms: there is code to stop in
                await self.keep("debugger_pause", timeout_ms=5000)
                if self.fixture.features.debugger.paused is None:
                    raise StageError("debugger_pause answered, but the page did not pause")

    def bound(self, args: dict[str, Any]) -> dict[str, Any]:
        """`args` with `LISTED_REQUEST` replaced by the id of the page's first recorded request:
        ids count up over the browser's life, so no fixed one names a request for long."""
        listed = self.fixture.features.network.requests()
        if args.get("request_id") == LISTED_REQUEST and listed:
            return {**args, "request_id": listed[0].id}
        return args

    async def restore(self, tool: str, *, reload: bool = False) -> list[str]:
        """Back to one browser with one tab on the fixture page, no dialog, the debugger off and
        no emulation; each step only when needed. Returns what it undid.

        The page is loaded again when the tab shows another URL, or when `reload` says so: a
        navigation a call started may commit only after this looked."""
        undone = []
        connections = self.registry.ctx.connections
        for info in connections.list():
            if info.id != FIXTURE_ID:
                await connections.disconnect(info.id)
                undone.append("other browser closed")
        if not any(info.id == FIXTURE_ID and info.alive for info in connections.list()):
            await connections.launch(LaunchOptions(connection_id=FIXTURE_ID))
            undone.append("browser launched")
        if connections.active_id != FIXTURE_ID:
            connections.switch(FIXTURE_ID)
            undone.append("switched back")
        fixture = self.fixture
        if fixture.features.dialogs.open is not None:  # STATE: a navigation closed it meanwhile
            await self.keep("handle_dialog", accept=False, tolerate={"STATE"})
            undone.append("dialog dismissed")
        if fixture.features.debugger.enabled:
            await self.keep("debugger_disable")
            undone.append("debugger off")
        if len(fixture.routes):  # a route may answer or fail every request of the page
            await self.keep("remove_route")
            undone.append("routes removed")
        browser, current = fixture.cdp.browser, fixture.page.target_id
        pages = [t for t in (await browser.send("Target.getTargets"))["targetInfos"] if t["type"] == "page"]
        for page in pages:
            if page["targetId"] != current:
                await browser.send("Target.closeTarget", {"targetId": page["targetId"]})
                undone.append("tab closed")
        if tool in EMULATING:
            await self.keep("emulate", clear=True)
            undone.append("emulation cleared")
        if reload or next((p["url"] for p in pages if p["targetId"] == current), None) != self.home:
            await self.keep("navigate", url=self.home)
            undone.append("fixture page loaded")
        return undone

    async def replace_browser(self) -> list[str]:
        """A new fixture browser for one the tools could not put back."""
        await self.registry.ctx.connections.disconnect(FIXTURE_ID)
        return ["browser replaced", *await self.restore("")]


async def open_stage(mode: Mode, origin: str, root: Path, loop: asyncio.AbstractEventLoop) -> Stage:
    """The mode's registry, with auto-launch off, on a browser launched and sent home."""
    connections = ConnectionManager(env=chrome_env())
    settings_ = Settings(auto_launch=False, output_dir=root / "out", rate_limit=None)  # thousands of calls, on purpose
    root.mkdir()
    (root / "out").mkdir()
    for name, content in UPLOADABLE.items():
        (root / "out" / name).write_text(content)
    not_executable = root / "not-a-browser"
    not_executable.write_text("#!/bin/sh\n")
    assert CHROMIUM is not None, "Chromium is not installed"
    stage = Stage(
        registry=in_process_registry(connections, mode, settings_),
        keeper=in_process_registry(connections, "legacy", settings_),
        loop=loop,
        origin=origin,
        forced={
            "executable_path": (CHROMIUM, str(root / "missing-browser"), str(not_executable), ""),
            "user_data_dir": (str(root / "profile"), str(root / "profile two"), ""),
            "extra_args": ([], ["--mute-audio"], ["--hide-scrollbars", "--lang=fr"]),
        },
    )
    await stage.restore("")
    return stage

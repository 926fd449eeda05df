"""Node.js programs debugged with the tools an agent knows, through the real server in both
modes: a TypeScript HTTP server compiled by tsc (one map per file, no sources' text), run under
the inspector, or attached to by port and by process id; its worker_threads; a test file run by
vitest in a worker process; and a page in the browser whose request pauses the server.

Lines are found by their ``// @marker`` comments (tests/fixtures/devapps/README.md).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.e2e.harness import ModeClient, mcp_client, text_of
from tests.support.devservers import free_port
from tests.support.nodeapps import (
    NODE_API,
    NODE_VITEST,
    PRICES_TS,
    SERVER_JS,
    SERVER_TS,
    VITEST_ARGS,
    VITEST_CART_TS,
    WORKERS_JS,
    WORKERS_TS,
    built_node_app,
    copy_node_app,
    marker_line,
)

pytestmark = pytest.mark.anyio
LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")
PROCESSES = re.compile(r"processes: pid (\d+) ")  # the first process a connection lists
RESTART_WITHIN_S = 30
REWRITE_EVERY_POLLS = 50  # 5 s of polling before an edit a watcher missed is written again


@pytest.fixture(scope="module")
def api_app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_node_app(NODE_API, tmp_path_factory.mktemp("node-api"))


@pytest.fixture(scope="module")
def vitest_app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_node_app(NODE_VITEST, tmp_path_factory.mktemp("node-vitest"))


@pytest.fixture(params=["smart", "legacy"])
async def node_client(request: pytest.FixtureRequest) -> AsyncIterator[ModeClient]:
    """The real server in one mode, with no browser started."""
    async with mcp_client(request.param) as client:
        yield ModeClient(client, request.param)


def group_gone_within(pid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while group_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def start_server(api_app: Path, *inspect: str) -> subprocess.Popen[bytes]:
    """The built server, started by the test (not by cdpilot), on a free port."""
    return subprocess.Popen(
        ["node", *inspect, SERVER_JS],
        cwd=api_app,
        env={**os.environ, "PORT": "0"},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def group_alive(pid: int) -> bool:
    """Whether any live process is left in the process group `pid` leads."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pid and fields[0] != b"Z":
                return True
    return False


async def server_url(client: ModeClient) -> str:
    """The base URL the launched server printed on its stdout (a console entry)."""
    with anyio.fail_after(15):
        while True:
            found = LISTENING.search(await client.ok("get_console_logs"))
            if found:
                return found.group(1)
            await anyio.sleep(0.1)


async def answer_with(client: ModeClient, needle: str, tool: str, within_s: float = 15, **arguments: Any) -> str:
    """The first answer of `tool` that holds `needle`, asked every 0.1 s for up to `within_s`."""
    answer = ""
    for _ in range(int(within_s * 10)):
        answer = await client.ok(tool, **arguments)
        if needle in answer:
            return answer
        await anyio.sleep(0.1)
    raise AssertionError(f"{tool} never said {needle!r} within {within_s} s; last: {answer}")


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return str(answer.read().decode())


async def test_a_launched_server_pauses_on_a_request_at_its_typescript_line(
    node_client: ModeClient, api_app: Path
) -> None:
    started = await node_client.ok("node_run", command=["node", SERVER_JS], cwd=str(api_app), env={"PORT": "0"})
    assert "Started node dist/server.js" in started and "node-1" in started, started
    pid = int(re.search(r"pid=(\d+)", started).group(1))  # type: ignore[union-attr]
    base = await server_url(node_client)
    line = marker_line(api_app / PRICES_TS, "prices-line-cost")
    set_answer = await node_client.ok("debugger_set_breakpoint", url=PRICES_TS, line_number=line)
    assert "bp1" in set_answer, set_answer

    async with anyio.create_task_group() as requests:
        answers: list[str] = []

        async def ask() -> None:
            answers.append(await anyio.to_thread.run_sync(fetch, f"{base}/api/total?items=3"))

        requests.start_soon(ask)
        paused = await node_client.ok("debugger_wait_for_pause", timeout_ms=15000)
        assert f"src/prices.ts:{line}" in paused and "Node.js pid" in paused, paused
        stack = await node_client.ok("debugger_get_call_stack")
        assert "lineTotal" in stack and "orderTotal" in stack, stack
        value = await node_client.ok("debugger_evaluate_on_call_frame", call_frame_id="0", expression="item.price")
        assert value.startswith("1"), value
        stepped = await node_client.ok("debugger_step_over")
        assert f"src/prices.ts:{marker_line(api_app / PRICES_TS, 'prices-line-return')}" in stepped, stepped
        assert (await node_client.ok("evaluate_js", expression="typeof process.pid")) == '"number"'  # globally
        await node_client.ok("debugger_remove_breakpoint", breakpoint_id="bp1")
        resumed = await node_client.ok("debugger_resume")
        assert "Resumed" in resumed, resumed
    assert json.loads(answers[0]) == {"total": 12}

    kind, refused = await node_client.error("navigate", url="http://127.0.0.1:1/")
    assert kind == "STATE" and "Node.js process: it has no page" in refused, refused
    listed = await node_client.ok("chrome_list_connections")
    assert "node-1 [active] launched node.js/v" in listed and "program: node dist/server.js" in listed, listed
    await node_client.ok("chrome_disconnect")
    assert await anyio.to_thread.run_sync(group_gone_within, pid, 5.0), f"the program's group {pid} outlived it"


async def test_the_end_of_a_program_is_told_with_its_code_and_stderr(node_client: ModeClient, api_app: Path) -> None:
    script = "setTimeout(() => { console.error('giving up: no database'); process.exit(3); }, 300)"
    await node_client.ok("node_run", command=["node", "-e", script], cwd=str(api_app))
    with anyio.fail_after(10):
        while True:
            listed = await node_client.ok("chrome_list_connections")
            if "exited with code 3" in listed:
                break
            await anyio.sleep(0.1)
    assert "giving up: no database" in listed, listed
    assert "node-1 [active]" not in listed, listed  # no dead connection stays active
    _, text = await node_client.error("debugger_get_call_stack", connection_id="node-1")
    assert "exited with code 3" in text, text
    assert "giving up: no database" in await node_client.ok("get_console_logs", connection_id="node-1")
    await node_client.ok("chrome_disconnect", connection_id="node-1")
    assert "No connections" in await node_client.ok("chrome_list_connections")


async def test_a_program_that_cannot_start_is_refused_clearly(node_client: ModeClient, api_app: Path) -> None:
    kind, text = await node_client.error("node_run", command=["no-such-program-xyz"], cwd=str(api_app))
    assert kind == "VALIDATION" and "Command not found: 'no-such-program-xyz'" in text, text
    ran = await node_client.call("node_run", command=["node", "-e", "process.exit(2)"], cwd=str(api_app))
    if ran.is_error:  # it ended before the answer: the answer is the error
        assert "exited with code 2" in text_of(ran), text_of(ran)
        assert "No connections" in await node_client.ok("chrome_list_connections")
    else:  # on a loaded machine it may end just after: then the next answer says so, first
        listed = await answer_with(node_client, "exited with code 2", "chrome_list_connections")
        assert "node-1 [active]" not in listed, listed


async def restarted(client: ModeClient, path: Path, text: str, old: str | None) -> tuple[str, str]:
    """Write `text` into `path`, on whose change the program's watcher restarts it, until the
    connection lists a process other than `old` (a watcher still setting up may miss a write,
    so it is written again every few seconds): that pid, and every answer read meanwhile."""
    seen = ""
    with anyio.fail_after(RESTART_WITHIN_S):
        while True:
            path.write_text(text)
            for _ in range(REWRITE_EVERY_POLLS):
                listed = await client.ok("chrome_list_connections")
                seen += listed
                found = PROCESSES.search(listed)
                if found and found.group(1) != old:
                    return found.group(1), seen
                await anyio.sleep(0.1)


async def listening_again(client: ModeClient) -> str:
    """The base URL of the server a restart started: the newest one the console shows, once it
    shows more than the first."""
    with anyio.fail_after(RESTART_WITHIN_S):  # the new server listens once its modules have loaded
        while True:
            bases = LISTENING.findall(await client.ok("get_console_logs"))
            if len(bases) > 1:
                return str(bases[-1])
            await anyio.sleep(0.1)


async def test_a_watcher_restart_keeps_the_debugger_and_its_breakpoints(node_client: ModeClient, api_app: Path) -> None:
    """``node --watch`` ends the server when a file changes and then starts a new one: the new
    process, joining a family with no process left, is debugged as the old one was; a process
    that ends while paused is told in the next answer."""
    await node_client.ok("node_run", command=["node", "--watch", SERVER_JS], cwd=str(api_app), env={"PORT": "0"})
    await server_url(node_client)
    old = PROCESSES.search(await node_client.ok("chrome_list_connections"))
    line = marker_line(api_app / PRICES_TS, "prices-total-return")
    await node_client.ok("debugger_set_breakpoint", url=PRICES_TS, line_number=line)
    server = api_app / SERVER_JS
    before = server.read_text()
    try:
        await restarted(node_client, server, before + "\n// edited by the test\n", old and old.group(1))
        base = await listening_again(node_client)
        logs = await node_client.ok("get_console_logs")
        assert logs.startswith(f"Console of the Node.js program ({server.as_uri()}): "), logs
        # The new process's modules bind as they are parsed, while it runs on: soon after it listens.
        await answer_with(
            node_client, f"bp1 at {PRICES_TS}:{line}, resolved in {PRICES_TS}:{line}:", "debugger_list_breakpoints"
        )
        async with anyio.create_task_group() as requests:
            requests.start_soon(anyio.to_thread.run_sync, fetch_status, f"{base}/api/total?items=3")
            paused = await node_client.ok("debugger_wait_for_pause", timeout_ms=15000)
            where = re.search(rf"in Node\.js pid (\d+) \(server\.js\) at {PRICES_TS}:{line}:", paused)
            assert where is not None and old is not None and where.group(1) != old.group(1), paused
            paused_pid = where.group(1)
            _, seen = await restarted(node_client, server, before, paused_pid)  # its request fails with it
        gone = f"Meanwhile the Node.js pid {paused_pid} (server.js) of 'node-1', which was paused, ended;"
        assert seen.count(gone) == 1, seen
        _, text = await node_client.error("debugger_get_call_stack")
        assert "not paused" in text and "Meanwhile" not in text, text
        await node_client.ok("chrome_disconnect")
    finally:
        server.write_text(before)


async def test_a_breakpoint_follows_its_line_into_a_file_edited_before_a_restart(
    node_client: ModeClient, api_app: Path
) -> None:
    """``tsx watch`` restarts the server when its TypeScript changes: two lines added above the
    breakpoint move it with its line in the new process, which says so, and it stops there."""
    await node_client.ok("node_run", command=["npx", "tsx", "watch", SERVER_TS], cwd=str(api_app), env={"PORT": "0"})
    await server_url(node_client)
    found = PROCESSES.search(await node_client.ok("chrome_list_connections"))
    first = found.group(1) if found else None
    line = marker_line(api_app / PRICES_TS, "prices-total-return")
    await node_client.ok("debugger_set_breakpoint", url=PRICES_TS, line_number=line)
    prices = api_app / PRICES_TS
    before = prices.read_text()
    try:
        edited = before.replace("export interface Item", "// one\n// two\nexport interface Item")
        await restarted(node_client, prices, edited, first)
        base = await listening_again(node_client)
        listed = await answer_with(
            node_client, f"bp1 at {PRICES_TS}:{line + 2}, resolved in ", "debugger_list_breakpoints"
        )
        assert f"prices.ts changed since the breakpoint was bound; its line {line} is line {line + 2} now" in listed, (
            listed
        )
        async with anyio.create_task_group() as requests:
            requests.start_soon(anyio.to_thread.run_sync, fetch, f"{base}/api/total?items=3")
            paused = await node_client.ok("debugger_wait_for_pause", timeout_ms=15000)
            assert f"prices.ts:{line + 2}:" in paused and "return total;" in paused, paused
            await node_client.ok("debugger_resume")
        await node_client.ok("chrome_disconnect")
    finally:
        prices.write_text(before)


async def test_attach_by_port_and_by_process_id(node_client: ModeClient, api_app: Path) -> None:
    port = free_port()
    by_port = start_server(api_app, f"--inspect=127.0.0.1:{port}")
    by_pid = start_server(api_app)
    try:
        assert by_port.stdout is not None and by_pid.stdout is not None
        by_port.stdout.readline()
        pid_base = LISTENING.search(by_pid.stdout.readline().decode()).group(1)  # type: ignore[union-attr]
        attached = await node_client.ok("chrome_connect", port=port)
        assert "Attached to the Node.js process" in attached and f"pid={by_port.pid}" in attached, attached
        ws_url = re.search(r"endpoint=(ws://\S+)", attached).group(1)  # type: ignore[union-attr]
        await node_client.ok("chrome_disconnect")  # an attached process runs on
        attached = await node_client.ok("chrome_connect", ws_url=ws_url)
        assert "Attached to the Node.js process" in attached and f"pid={by_port.pid}" in attached, attached
        started = time.monotonic()
        attached = await node_client.ok("chrome_connect", pid=by_pid.pid)
        assert f"pid={by_pid.pid}" in attached, (attached, time.monotonic() - started)
        line = marker_line(api_app / SERVER_TS, "server-total")
        await node_client.ok("debugger_set_breakpoint", url=SERVER_TS, line_number=line)
        async with anyio.create_task_group() as requests:
            requests.start_soon(anyio.to_thread.run_sync, fetch, f"{pid_base}/api/total?items=2")
            paused = await node_client.ok("debugger_wait_for_pause", timeout_ms=15000)
            assert f"src/server.ts:{line}" in paused, paused
            await node_client.ok("debugger_disable")
        kind, text = await node_client.error("chrome_connect", pid=os.getpid())
        assert kind == "VALIDATION" and "is not a Node.js process" in text, text
        app_port = int(pid_base.rsplit(":", 1)[1])
        kind, text = await node_client.error("chrome_connect", port=app_port)
        assert f"Cannot reach a browser or Node.js inspector at 127.0.0.1:{app_port}" in text, text
        assert "not a DevTools endpoint" in text, text
    finally:
        for process in (by_port, by_pid):
            process.kill()
            process.wait()
            if process.stdout is not None:
                process.stdout.close()


async def test_bad_endpoints_are_named(node_client: ModeClient) -> None:
    closed = free_port()
    kind, text = await node_client.error("chrome_connect", port=closed)
    assert f"Cannot reach a browser or Node.js inspector at 127.0.0.1:{closed}" in text, text
    kind, text = await node_client.error("chrome_connect", host="10.1.2.3", port=9229)
    assert kind == "VALIDATION" and "remote" in text, text


async def test_worker_threads_get_the_breakpoints_and_say_who_paused(node_client: ModeClient, api_app: Path) -> None:
    line = marker_line(api_app / WORKERS_TS, "workers-crunch")
    started = await node_client.ok("node_run", command=["node", WORKERS_JS], cwd=str(api_app), pause_at_start=True)
    assert "Paused" in started and "dist/workers.js:" in started, started
    await node_client.ok("debugger_set_breakpoint", url=WORKERS_TS, line_number=line)
    resumed = await node_client.ok("debugger_resume")
    paused = resumed if "Paused" in resumed else await node_client.ok("debugger_wait_for_pause", timeout_ms=15000)
    assert f"src/workers.ts:{line}" in paused and "in Node.js worker " in paused, paused
    value = await node_client.ok("debugger_evaluate_on_call_frame", call_frame_id="0", expression="id * 2")
    # The other worker pauses there too: the first answer after it says so, once, above its own.
    assert value.splitlines()[-1] in ("2", "4"), value
    assert value.count("Meanwhile") <= 1, value
    listed = await node_client.ok("chrome_list_connections")
    assert "worker 1 of pid" in listed and "worker 2 of pid" in listed and "[paused]" in listed, listed
    await node_client.ok("debugger_disable")  # resumes every thread, and no breakpoint stays
    await answer_with(node_client, "workers done 63", "get_console_logs", connection_id="node-1")


async def test_a_vitest_test_pauses_in_its_worker_process(node_client: ModeClient, vitest_app: Path) -> None:
    line = marker_line(vitest_app / VITEST_CART_TS, "vitest-cart-sum-init")
    await node_client.ok(
        "node_run", command=["node", *VITEST_ARGS], cwd=str(vitest_app), env={"NO_COLOR": "1"}, pause_at_start=True
    )
    await node_client.ok("debugger_set_breakpoint", url=VITEST_CART_TS, line_number=line)
    resumed = await node_client.ok("debugger_resume")
    paused = resumed if "Paused" in resumed else await node_client.ok("debugger_wait_for_pause", timeout_ms=60000)
    assert f"cart.ts:{line}" in paused and "(forks.js)" in paused, paused
    stack = await node_client.ok("debugger_get_call_stack")
    assert "sum" in stack and "cart.test.ts" in stack, stack
    await node_client.ok("debugger_disable")
    await answer_with(node_client, "exited with code 0", "chrome_list_connections", within_s=60)


@pytest.mark.browser  # launches a Chromium through the server
async def test_a_click_whose_request_pauses_the_server_says_so(node_client: ModeClient, api_app: Path) -> None:
    await node_client.ok("node_run", command=["node", SERVER_JS], cwd=str(api_app), env={"PORT": "0"})
    base = await server_url(node_client)
    line = marker_line(api_app / SERVER_TS, "server-total")
    await node_client.ok("debugger_set_breakpoint", url=SERVER_TS, line_number=line)
    await node_client.ok("chrome_launch", url=f"{base}/page")
    clicked = await node_client.ok("click_element", selector="#total")
    assert "Meanwhile 'node-1' paused (breakpoint bp1) in Node.js pid" in clicked, clicked
    assert f"src/server.ts:{line}" in clicked, clicked
    stack = await node_client.ok("debugger_get_call_stack", connection_id="node-1")
    assert f"src/server.ts:{line}" in stack, stack
    assert "Meanwhile" not in await node_client.ok("debugger_resume", connection_id="node-1")  # told once
    await answer_with(node_client, "12", "query_elements", selector="#result")
    await node_client.ok("chrome_disconnect", connection_id="browser-1")


@pytest.fixture
async def api_server(node_client: ModeClient, api_app: Path) -> AsyncIterator[tuple[ModeClient, str]]:
    """The built server run under the inspector, and its base URL; ended afterwards."""
    await node_client.ok("node_run", command=["node", SERVER_JS], cwd=str(api_app), env={"PORT": "0"})
    yield node_client, await server_url(node_client)
    await node_client.ok("chrome_disconnect", connection_id="node-1")


async def test_a_busy_server_shows_where_it_loops_and_what_takes_the_time(
    api_server: tuple[ModeClient, str], api_app: Path
) -> None:
    client, base = api_server
    loop = marker_line(api_app / SERVER_TS, "server-spin-loop")
    async with anyio.create_task_group() as requests:
        requests.start_soon(anyio.to_thread.run_sync, fetch, f"{base}/spin?ms=4000")
        await anyio.sleep(0.5)
        if client.mode == "legacy":
            sampled = await client.ok("debugger_sample_cpu", duration_ms=500)
        else:
            sampled = await client.ok("debugger_sample_cpu")  # smart samples for a second
        assert "Top functions by self time:" in sampled, sampled
        top = next(line for line in sampled.splitlines() if line.startswith("  "))
        assert re.search(r" (spin|route) src/server\.ts:\d+:\d+, busiest at line \d+$", top), sampled
        paused = await client.ok("debugger_pause", timeout_ms=5000)
        assert f"src/server.ts:{loop}" in paused, paused
        await client.ok("debugger_resume")


async def test_logpoints_conditions_exceptions_and_sources_in_typescript_names(
    api_server: tuple[ModeClient, str], api_app: Path
) -> None:
    client, base = api_server
    cost = marker_line(api_app / PRICES_TS, "prices-line-cost")
    await client.ok("debugger_set_breakpoint", url=PRICES_TS, line_number=cost, log_message="cost of {item.name}")
    await anyio.to_thread.run_sync(fetch, f"{base}/api/total?items=2")
    logs = await answer_with(client, "cost of item1", "get_console_logs")  # the inspector may tell after the answer
    assert "cost of item0" in logs, logs
    await client.ok("debugger_remove_breakpoint", breakpoint_id="bp1")
    total = marker_line(api_app / PRICES_TS, "prices-total-loop")
    await client.ok("debugger_set_breakpoint", url=PRICES_TS, line_number=total, condition="item.qty * item.price > 4")
    async with anyio.create_task_group() as requests:
        requests.start_soon(anyio.to_thread.run_sync, fetch, f"{base}/api/total?items=3")
        paused = await client.ok("debugger_wait_for_pause", timeout_ms=15000)
        assert f"src/prices.ts:{total}" in paused, paused
        assert (await client.ok("debugger_evaluate_on_call_frame", call_frame_id="0", expression="item.name")) == (
            '"item2"'
        )
        await client.ok("debugger_remove_breakpoint", breakpoint_id="bp2")
        await client.ok("debugger_resume")
    await client.ok("debugger_set_pause_on_exceptions", state="all")
    throw = marker_line(api_app / SERVER_TS, "server-fail-throw")
    async with anyio.create_task_group() as requests:
        requests.start_soon(anyio.to_thread.run_sync, fetch_status, f"{base}/api/fail")
        paused = await client.ok("debugger_wait_for_pause", timeout_ms=15000)
        assert f"src/server.ts:{throw}" in paused and "order failed" in paused, paused
        stack = await client.ok("debugger_get_call_stack")
        assert "await" in stack and "route" in stack, stack  # the request handler's frame, across its await
        await client.ok("debugger_set_pause_on_exceptions", state="none")
        await client.ok("debugger_resume")
    listed = await client.ok("debugger_list_scripts", filter="src/")
    assert "src/prices.ts" in listed and "src/server.ts" in listed and "node_bootloader" not in listed, listed
    read = await client.ok("debugger_read_source", source=PRICES_TS, start_line=cost, line_count=1)
    assert "const cost = item.price * item.qty;" in read, read
    found = await client.ok("debugger_search_sources", query="orderTotal(")
    assert "src/server.ts" in found and "src/prices.ts" in found, found


def fetch_status(url: str) -> int:
    """The HTTP status of a GET, or 0 when the server closed the connection without one."""
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except (urllib.error.URLError, ConnectionError):
        return 0


@pytest.mark.parametrize(
    "command",
    [["npm", "start"], ["npx", "tsx", SERVER_TS], ["node", "--enable-source-maps", SERVER_JS]],
    ids=["npm start", "tsx", "enable-source-maps"],
)
async def test_a_server_started_through_npm_or_tsx_is_debugged(
    node_client: ModeClient, api_app: Path, command: list[str]
) -> None:
    """npm's and tsx's own processes are left alone; the server they start is debugged, in its
    TypeScript (tsx: compiled in memory, with inline maps; Node.js's own source-map support
    changes nothing of it)."""
    started = await node_client.ok("node_run", command=command, cwd=str(api_app), env={"PORT": "0"})
    assert f"Started {' '.join(command)}" in started, started
    base = await server_url(node_client)
    listed = await node_client.ok("chrome_list_connections")
    assert "(server." in listed and "(npm" not in listed and "(tsx)" not in listed, listed
    line = marker_line(api_app / PRICES_TS, "prices-total-return")
    await node_client.ok("debugger_set_breakpoint", url=PRICES_TS, line_number=line)
    async with anyio.create_task_group() as requests:
        requests.start_soon(anyio.to_thread.run_sync, fetch, f"{base}/api/total?items=3")
        paused = await node_client.ok("debugger_wait_for_pause", timeout_ms=15000)
        assert f"prices.ts:{line}" in paused, paused
        value = await node_client.ok("debugger_evaluate_on_call_frame", call_frame_id="0", expression="total")
        assert value == "12", value
        await node_client.ok("debugger_resume")
    logs = await node_client.ok("get_console_logs")
    assert logs.count("listening on http://127.0.0.1:") == 1, logs  # the console.log, not its stdout copy too

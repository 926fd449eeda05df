"""What the answers say of a Node.js program, on hand-built facts: its connection (launched,
attached, ended), a pause that came between calls or not at all, which thread a pause is in,
and a CPU sample of it."""

from __future__ import annotations

from dataclasses import replace

from cdpilot.answers.connection_answers import (
    connected_answer,
    connection_line,
    connections_answer,
    disconnected_answer,
    node_started_answer,
)
from cdpilot.answers.pause_answers import no_pause_line, pause_bundle_lines, pause_news_line
from cdpilot.answers.performance_answers import cpu_sample_answer
from cdpilot.browser.debugger.debugger_facts import Frame, Location, Pause, PauseSnapshot, Variable
from cdpilot.browser.performance.performance_facts import CpuSample, HotFunction
from cdpilot.browser.session.connection_facts import ConnectionInfo
from cdpilot.browser.sourcemaps.sourcemap_facts import OriginalPlace

SERVER = "file:///srv/app/dist/server.js"

LAUNCHED = ConnectionInfo(
    id="node-1",
    kind="launched",
    browser="node.js",
    protocol_version="1.3",
    endpoint="program pid 4242",
    pid=4242,
    user_data_dir=None,
    active=True,
    target_url=None,
    target_title=None,
    runtime="node",
    command="npm run dev",
    threads=("pid 4250 (dist/server.js) [paused]", "worker 1 of pid 4250"),
)
ATTACHED = ConnectionInfo(
    id="node-2",
    kind="connected",
    browser="node.js/v20.20.2",
    protocol_version="1.3",
    endpoint="ws://127.0.0.1:9229/0f2c61f1-5a1c-4b8e-9d0e-2b9a4c3d7e11",
    pid=5150,
    user_data_dir=None,
    active=False,
    target_url=None,
    target_title=None,
    runtime="node",
    threads=("pid 5150 (server.js)",),
)


def test_a_launched_program_shows_its_pid_command_and_processes() -> None:
    assert connection_line(LAUNCHED) == (
        "node-1 [active] launched node.js pid=4242\n"
        "  program: npm run dev\n"
        "  processes: pid 4250 (dist/server.js) [paused]; worker 1 of pid 4250"
    )


def test_an_attached_process_shows_its_endpoint_and_no_program() -> None:
    assert connection_line(ATTACHED) == (
        "node-2 connected node.js/v20.20.2 pid=5150 endpoint=ws://127.0.0.1:9229/0f2c61f1-5a1c-4b8e-9d0e-2b9a4c3d7e11\n"
        "  processes: pid 5150 (server.js)"
    )


def test_an_ended_program_says_how_it_ended_each_line_indented() -> None:
    """The end text (in target_title) may hold the last lines of stderr: every one of them
    stays under the connection, not at the margin where the next connection's line starts."""
    ended = replace(
        LAUNCHED,
        alive=False,
        threads=(),
        target_title="'npm run dev' exited with code 1. Last lines of its stderr:\n  Error: boom",
    )
    assert connection_line(ended) == (
        "node-1 [active] launched node.js pid=4242\n"
        "  program: npm run dev\n"
        "  ended: 'npm run dev' exited with code 1. Last lines of its stderr:\n"
        "    Error: boom"
    )
    assert connection_line(replace(ended, target_title=None)).endswith("\n  ended: its process has gone")


def test_a_node_connection_shows_no_page() -> None:
    """A browser connection's page line never shows for a Node.js one, whatever target_url holds."""
    assert "page:" not in connection_line(replace(ATTACHED, target_url="file:///srv/server.js", target_title="x"))


def test_a_started_program_says_where_its_output_goes_and_how_it_ends() -> None:
    assert node_started_answer(LAUNCHED, paused=False) == (
        "Started npm run dev under the Node.js inspector as connection 'node-1' (now active). Its stdout and "
        "stderr go to {tool:get_console_logs}; its process group ends on {tool:chrome_disconnect}. Breakpoints "
        "set now bind in every process as its files load.\n"
        f"{connection_line(LAUNCHED)}"
    )


def test_a_program_paused_at_its_start_is_not_told_that_breakpoints_bind_later() -> None:
    answer = node_started_answer(LAUNCHED, paused=True)
    assert "Breakpoints set now" not in answer
    assert answer.startswith("Started npm run dev under the Node.js inspector as connection 'node-1' (now active).")


def test_attaching_to_a_process_names_what_works_on_it() -> None:
    assert connected_answer(replace(ATTACHED, active=True)) == (
        "Attached to the Node.js process (node.js/v20.20.2) as connection 'node-2' (now active): the debugger "
        "tools, {tool:evaluate_js} and {tool:get_console_logs} work on it; it has no page.\n"
        "node-2 [active] connected node.js/v20.20.2 pid=5150 "
        "endpoint=ws://127.0.0.1:9229/0f2c61f1-5a1c-4b8e-9d0e-2b9a4c3d7e11\n"
        "  processes: pid 5150 (server.js)"
    )


def test_disconnecting_a_program_ends_its_group_but_an_attached_process_is_left() -> None:
    assert disconnected_answer(LAUNCHED, None) == (
        "Disconnected 'node-1' (ended the program and its whole process group). No connections left."
    )
    assert disconnected_answer(ATTACHED, "node-1") == "Disconnected 'node-2' (detached). Active connection: 'node-1'."


def test_a_list_of_a_program_and_a_process_shows_both_in_full() -> None:
    assert connections_answer([LAUNCHED, ATTACHED]) == (
        f"2 connection(s):\n{connection_line(LAUNCHED)}\n{connection_line(ATTACHED)}"
    )


HANDLER = Frame(0, "handleOrder", Location("41", SERVER, 12, 5), None, "cf0", ())
PAUSE = Pause(3, "breakpoint bp1", None, (HANDLER,), after_step=False)


def test_no_pause_says_how_long_it_waited_and_how_to_get_one() -> None:
    assert no_pause_line(2500) == (
        "No pause within 2500 ms; execution runs on. Wait longer (a higher timeout), or make the code run "
        "(a request to the server, a click in the page)."
    )


def test_pause_news_names_the_connection_the_thread_the_place_and_the_function() -> None:
    assert pause_news_line("node-1", "pid 4250 (dist/server.js)", PAUSE) == (
        f"Meanwhile 'node-1' paused (breakpoint bp1) in pid 4250 (dist/server.js) at {SERVER}:12:5 in handleOrder: "
        "see it with {tool:debugger_get_call_stack} ({param:connection_id} 'node-1')."
    )


def test_pause_news_of_mapped_code_shows_the_original_place_and_name() -> None:
    original = OriginalPlace("src/orders.ts", "file:///srv/app/src/orders.ts", 30, 3)
    minified = Frame(0, "h", Location("41", SERVER, 1, 880, original), None, "cf0", (), original_name="handleOrder")
    anonymous = Frame(0, "", Location("41", SERVER, 2, 1), None, "cf0", ())
    news = pause_news_line("node-1", "worker 1 of pid 4250", replace(PAUSE, frames=(minified,)))
    assert " at src/orders.ts:30:3 (/srv/app/dist/server.js:1:880) in handleOrder: " in news
    assert " in (anonymous): " in pause_news_line("node-1", "pid 4250", replace(PAUSE, frames=(anonymous,)))


def test_the_pause_bundle_names_the_thread_that_paused() -> None:
    """In a program of several processes and workers, the bundle says which one stopped;
    a page's bundle (no owner) does not."""
    snapshot = PauseSnapshot(PAUSE, "  const order = parse(body);", False, (Variable("body", '"{}"'),), ())
    assert pause_bundle_lines(replace(snapshot, owner="worker 1 of pid 4250")) == [
        f"Paused (breakpoint bp1) in worker 1 of pid 4250 at {SERVER}:12:5",
        "  12 |   const order = parse(body);",
        "Frames and variables: {tool:debugger_get_call_stack}.",
    ]
    assert pause_bundle_lines(snapshot)[0] == f"Paused (breakpoint bp1) at {SERVER}:12:5"


def test_a_cpu_sample_lists_the_busiest_functions_with_their_busiest_lines_and_libraries() -> None:
    sample = CpuSample(
        duration_ms=2000,
        samples=1500,
        idle_ms=500,
        functions=(
            HotFunction("fib", "src/math.ts:3", 900, library=False, busiest_line=5),
            HotFunction("parse", "node_modules/qs/lib/parse.js:88", 300, library=True),
            HotFunction("(garbage collector)", "(native)", 40, library=True),
        ),
    )
    assert cpu_sample_answer(sample) == (
        "CPU sample of 2,000 ms (1500 samples): busy 1,500 ms, idle 500 ms.\n"
        "Top functions by self time:\n"
        "  900 ms (45%) fib src/math.ts:3, busiest at line 5\n"
        "  300 ms (15%) parse node_modules/qs/lib/parse.js:88 [library]\n"
        "  40 ms (2%) (garbage collector) (native) [library]\n"
        "Self time is time at the top of the stack. Code the engine inlined counts in its caller, at the line of "
        "the call; a pause ({tool:debugger_pause}) shows the statement running now."
    )


def test_a_cpu_sample_in_which_nothing_ran_says_so() -> None:
    idle = CpuSample(duration_ms=1000, samples=1, idle_ms=1000, functions=())
    assert cpu_sample_answer(idle) == "CPU sample of 1,000 ms (1 sample): busy 0 ms, idle 1,000 ms. No JavaScript ran."


def test_a_cpu_sample_of_no_time_shows_no_share_instead_of_dividing_by_zero() -> None:
    empty = CpuSample(duration_ms=0, samples=0, idle_ms=0, functions=(HotFunction("main", "app.js:1", 0, False),))
    assert "  0 ms (0%) main app.js:1" in cpu_sample_answer(empty).splitlines()

"""Security: what a client may not make cdpilot do, nor read in its log.

- Navigation: every spelling of a dangerous scheme (javascript:, vbscript:, chrome:,
  chrome-extension:, chrome-untrusted:, devtools:, view-source:, file:) that a browser
  would read as that scheme, or that hides it behind an encoding, is refused with a
  VALIDATION naming ``url``; file: passes only with ``--allow-file-urls``. The whole table
  goes through `normalize_url`, a sample through the real server (navigate, chrome_launch).
- Output paths: traversal payloads go through `write_output` into an output directory
  whose neighbours (a directory, a file, symlinks leading to them) are snapshotted before
  and after: 0 bytes may change outside. A payload is refused with VALIDATION when it could
  lead outside; a literal name that only looks like a traversal on another system
  (``..%2f``, ``..\\``, ``C:\\``) is a file inside, which is as safe.
- Secret headers: a table of credential header names checked against `redact_headers`
  (tests/answers/test_network_answers.py covers the basic ones, tests/e2e the tool's answer).
- Logs: failing calls through the real server carry a distinctive value in many
  arguments; the server's stderr must never contain it.
- Launched browsers: ``--remote-debugging-pipe``, no ``--remote-debugging-port``, and no
  listening TCP socket in any process of the browser's group, launched by the real server
  (tests/browser_layer/test_launch.py checks the same of a `ConnectionManager` launch).
- Remote hosts: chrome_connect to a non-loopback host is refused (VALIDATION) without
  ``--allow-remote`` (tests/browser_layer/test_connections.py has the policy; here, the server).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from cdpilot.answers.network_answers import redact_headers
from cdpilot.browser.page.urls import normalize_url
from cdpilot.browser.session.manager import ConnectionManager
from cdpilot.errors import ArgumentError
from cdpilot.output_files import write_output
from tests.e2e.harness import RawServer
from tests.reliability.conftest import Report
from tests.support.chromium import cmdline_of, listening_socket_inodes, socket_inodes_of
from tests.support.registry import in_process_registry

SUITE = "security"
SECRET = f"cdpilotSecret{uuid.uuid4().hex[:12]}"  # an identifier, so it also works as JavaScript

# --- navigation ------------------------------------------------------------------------------

DANGEROUS_URLS = {
    "javascript": "alert(1)",
    "vbscript": "msgbox(1)",
    "chrome": "//settings",
    "chrome-extension": "//abcdefghijklmnop/page.html",
    "chrome-untrusted": "//print/",
    "devtools": "//devtools/bundled/inspector.html",
    "view-source": "http://127.0.0.1/",
    "file": "///etc/passwd",
}


def _hex(char: str) -> str:
    return f"%{ord(char):02X}"


# How one scheme may be written: what browsers strip or ignore (case, surrounding spaces and
# C0 controls, tabs and newlines anywhere), and encodings that hide it from a naive check.
SPELLINGS: dict[str, Callable[[str, str], str]] = {
    "plain": lambda s, rest: f"{s}:{rest}",
    "upper case": lambda s, rest: f"{s.upper()}:{rest}",
    "mixed case": lambda s, rest: "".join(c.upper() if i % 2 else c for i, c in enumerate(s)) + f":{rest}",
    "leading spaces": lambda s, rest: f"   {s}:{rest}",
    "trailing whitespace": lambda s, rest: f"{s}:{rest} \t\n",
    "leading C0 controls": lambda s, rest: f"\x01\x08\x1f{s}:{rest}",
    "leading NUL": lambda s, rest: f"\x00{s}:{rest}",
    "tab inside": lambda s, rest: f"{s[:1]}\t{s[1:]}:{rest}",
    "newline inside": lambda s, rest: f"{s[:2]}\n{s[2:]}:{rest}",
    "CR LF inside": lambda s, rest: f"{s[:-1]}\r\n{s[-1:]}:{rest}",
    "zero-width space before": lambda s, rest: f"\u200b{s}:{rest}",
    "byte-order mark before": lambda s, rest: f"\ufeff{s}:{rest}",
    "first letter percent-encoded": lambda s, rest: f"{_hex(s[0])}{s[1:]}:{rest}",
    "scheme percent-encoded": lambda s, rest: "".join(map(_hex, s)) + f":{rest}",
    "colon percent-encoded": lambda s, rest: f"{s}%3A{rest}",
    "first letter double-encoded": lambda s, rest: f"%25{ord(s[0]):02X}{s[1:]}:{rest}",
    "colon as an HTML entity": lambda s, rest: f"{s}&colon;{rest}",
    "first letter as an HTML entity": lambda s, rest: f"&#x{ord(s[0]):x};{s[1:]}:{rest}",
}
URL_TABLE = [
    (scheme, spelling, spell(scheme, rest))
    for scheme, rest in DANGEROUS_URLS.items()
    for spelling, spell in SPELLINGS.items()
]


def refusal_of(url: str, *, allow_file_urls: bool) -> ArgumentError | None:
    try:
        normalize_url(url, allow_file_urls=allow_file_urls)
    except ArgumentError as refused:
        return refused
    return None


def test_every_spelling_of_a_dangerous_scheme_is_refused(report: Report) -> None:
    problems = []
    refused = Counter[bool]()
    for allow_file_urls in (False, True):
        for scheme, spelling, url in URL_TABLE:
            refusal = refusal_of(url, allow_file_urls=allow_file_urls)
            must_refuse = scheme != "file" or not allow_file_urls
            refused[allow_file_urls] += refusal is not None
            if must_refuse and (refusal is None or [p.field for p in refusal.problems] != ["url"]):
                problems.append(f"{spelling} {url!r} (allow_file_urls={allow_file_urls}): {refusal}")
            elif not must_refuse and refusal is not None:
                problems.append(f"{spelling} {url!r} refused although file: URLs are allowed: {refusal.message}")
    report.record(
        SUITE,
        url_spellings_tested=len(URL_TABLE),
        url_schemes=len(DANGEROUS_URLS),
        url_spellings_refused=refused[False],
        url_spellings_refused_with_allow_file_urls=refused[True],
        file_url_spellings_accepted_with_allow_file_urls=sum(1 for s, _, _ in URL_TABLE if s == "file"),
    )
    assert problems == []


# --- output paths ------------------------------------------------------------------------------

REFUSED = "refused"
INSIDE = "inside"
KNOWN_ESCAPE = "(outside)"  # stands for the absolute path of the sandbox's outside directory


def payload(path: str, expected: str, *marks: pytest.MarkDecorator) -> Any:
    """A parameter set whose test id shows the payload (escaped, and cut at 40 characters)."""
    return pytest.param(path, expected, id=ascii(path)[1:-1][:40] or "(empty)", marks=marks)


PATH_PAYLOADS = [
    # `..` in any position, or nothing but it.
    payload("../x.png", REFUSED),
    payload("../../x.png", REFUSED),
    payload("../outside/x.png", REFUSED),
    payload("a/../../x.png", REFUSED),
    payload("a/b/../../../x.png", REFUSED),
    payload("./../x.png", REFUSED),
    payload("sub/../../x.png", REFUSED),
    payload("x/../..", REFUSED),
    payload("..", REFUSED),
    payload("../", REFUSED),
    payload("..//x.png", REFUSED),
    payload("a/../b.png", REFUSED),  # stays inside, but `..` is refused outright
    # Absolute paths, home directories.
    payload(f"{KNOWN_ESCAPE}/abs.png", REFUSED),
    payload("/x.png", REFUSED),
    payload("//x.png", REFUSED),
    payload("///x.png", REFUSED),
    payload("/", REFUSED),
    payload("~/x.png", REFUSED),
    payload("~root/x.png", REFUSED),
    payload("~", REFUSED),
    # NUL bytes.
    payload("x\x00.png", REFUSED),
    payload("\x00", REFUSED),
    payload("../\x00x.png", REFUSED),
    payload("sub/\x00/x.png", REFUSED),
    # Symlinks inside that lead outside (a directory, a file, a file yet to exist).
    payload("link-out/x.png", REFUSED),
    payload("link-out/deeper/x.png", REFUSED),
    payload("link-out", REFUSED),
    payload("link-file", REFUSED),
    payload("dangling", REFUSED),
    # Nothing to write to: empty, the root itself, a directory, through a file.
    payload("", REFUSED),
    payload(".", REFUSED),
    payload("./", REFUSED),
    payload("sub", REFUSED),
    payload("file.txt/x.png", REFUSED),
    # Too long for the file system.
    payload("a" * 300 + ".png", REFUSED),
    payload(("d" * 250 + "/") * 17 + "x.png", REFUSED),  # past PATH_MAX
    # Literal names: encodings and separators POSIX does not decode, look-alike dots.
    payload("..%2fx.png", INSIDE),
    payload("..%2F..%2Fx.png", INSIDE),
    payload("%2e%2e/x.png", INSIDE),
    payload("%2e%2e%2fx.png", INSIDE),
    payload("..%5cx.png", INSIDE),
    payload("..%c0%afx.png", INSIDE),
    payload("..\\x.png", INSIDE),
    payload("..\\..\\x.png", INSIDE),
    payload("a\\..\\..\\x.png", INSIDE),
    payload("C:\\x.png", INSIDE),
    payload("C:/x.png", INSIDE),
    payload("\\\\server\\share\\x.png", INSIDE),
    payload("...", INSIDE),
    payload("....//x.png", INSIDE),
    payload(" ../x.png", INSIDE),
    payload("\u2024\u2024/x.png", INSIDE),
    payload("..\u2215x.png", INSIDE),
    payload("\u202egnp.x", INSIDE),
    payload("a\nb.png", INSIDE),
    # Plain and symlinked-inside paths, for contrast.
    payload("shots/x.png", INSIDE),
    payload("./x.png", INSIDE),
    payload("x.png/", INSIDE),
    payload("link-in/x.png", INSIDE),
]
PATH_OUTCOMES: Counter[str] = Counter()
BYTES_OUTSIDE: Counter[str] = Counter()  # by payload


Entry = tuple[int, int, int, str | None]  # mode, size, mtime, link target


def snapshot(top: Path, skip: Path) -> dict[str, Entry]:
    """Every entry under `top` except the `skip` subtree."""
    found: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if Path(dirpath, d) != skip]
        for name in dirnames + filenames:
            entry = Path(dirpath, name)
            info = entry.lstat()
            target = os.readlink(entry) if entry.is_symlink() else None
            found[str(entry.relative_to(top))] = (info.st_mode, info.st_size, info.st_mtime_ns, target)
    return found


@pytest.fixture
def sandbox(tmp_path: Path) -> tuple[Path, Path]:
    """(root, outside): the output directory, with symlinks to its neighbours planted in it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("do not touch")
    root = tmp_path / "out"
    (root / "sub").mkdir(parents=True)
    (root / "file.txt").write_text("a file, not a directory")
    (root / "link-out").symlink_to(outside)
    (root / "link-file").symlink_to(outside / "keep.txt")
    (root / "dangling").symlink_to(outside / "new.png")
    (root / "link-in").symlink_to(root / "sub")
    return root, outside


@pytest.mark.parametrize(("payload", "expected"), PATH_PAYLOADS)
def test_an_output_path_never_leads_outside(
    sandbox: tuple[Path, Path], payload: str, expected: str, report: Report
) -> None:
    root, outside = sandbox
    given = payload.replace(KNOWN_ESCAPE, str(outside))
    before = snapshot(root.parent, skip=root)
    try:
        written = write_output(root, given, b"x" * 1000, field="path")
    except ArgumentError as refused:
        outcome = REFUSED if [p.field for p in refused.problems] == ["path"] else "refused without naming path"
    except Exception as exc:  # an UNKNOWN error through the tool
        outcome = f"raised {type(exc).__name__}"
    else:
        outcome = INSIDE if written.resolve().is_relative_to(root.resolve()) else "written outside"
    after = snapshot(root.parent, skip=root)
    changed = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
    PATH_OUTCOMES[outcome] += 1
    BYTES_OUTSIDE[payload] = sum(after[name][1] for name in changed if name in after)
    report.record(
        SUITE,
        path_payloads_tested=PATH_OUTCOMES.total(),
        path_outcomes=dict(PATH_OUTCOMES),
        path_bytes_written_outside=BYTES_OUTSIDE.total(),
    )
    assert changed == set()
    assert outcome == expected


# --- secret headers ------------------------------------------------------------------------------

SECRET_HEADER_NAMES = [
    "Authorization",
    "Proxy-Authorization",
    "Cookie",
    "Set-Cookie",
    "X-Api-Key",
    "Api-Key",
    "Apikey",
    "X-Goog-Api-Key",
    "X-Api-Secret",
    "X-Client-Secret",
    "X-Auth-Token",
    "X-Access-Token",
    "X-Refresh-Token",
    "X-CSRF-Token",
    "X-XSRF-TOKEN",
    "X-Csrftoken",
    "X-Amz-Security-Token",
    "Private-Token",
    "X-Vault-Token",
    "X-Shopify-Access-Token",
    "X-Session-Id",
    "X-Password",
    "Authentication",
    "X-Auth-Key",  # Cloudflare's API key
    "Ocp-Apim-Subscription-Key",  # Azure API Management
    "X-Functions-Key",  # Azure Functions
    "X-Amz-Server-Side-Encryption-Customer-Key",  # AWS SSE-C
    "X-Goog-IAP-JWT-Assertion",
    "DPoP",
]
PLAIN_HEADER_NAMES = ["Accept", "Content-Type", "User-Agent", "Referer", "Cache-Control", "Host", "X-Request-Id"]
HEADER_OUTCOMES: Counter[str] = Counter()


@pytest.mark.parametrize("name", SECRET_HEADER_NAMES)
def test_credential_headers_are_redacted(name: str, report: Report) -> None:
    """Any case of the name; the value never appears, its length does."""
    for spelled in (name, name.lower(), name.upper()):
        [(shown_name, shown)] = redact_headers({spelled: SECRET})
        redacted = shown == f"[redacted, {len(SECRET)} chars]"
        HEADER_OUTCOMES["redacted" if redacted else "shown"] += 1
        report.record(SUITE, secret_header_spellings=dict(HEADER_OUTCOMES))
        assert shown_name == spelled and redacted, f"{spelled}: {shown}"


def test_ordinary_headers_are_shown() -> None:
    assert redact_headers(dict.fromkeys(PLAIN_HEADER_NAMES, "v")) == sorted(
        ((name, "v") for name in PLAIN_HEADER_NAMES), key=lambda pair: pair[0].lower()
    )


# --- the real server: navigation sample, output paths, logs, the debugging port, remote hosts ---


@asynccontextmanager
async def server_with_stderr(mode: str, *flags: str) -> AsyncIterator[tuple[RawServer, asyncio.Task[bytes]]]:
    """An initialised server started with `flags`, and the task that collects its whole stderr."""
    server = await RawServer.start(mode, *flags)
    assert server.proc.stderr is not None
    stderr = asyncio.create_task(server.proc.stderr.read())
    try:
        await server.initialize()
        yield server, stderr
    finally:
        await server.kill()
        await stderr


def outcome(reply: dict[str, Any]) -> tuple[str, str]:
    """(error type or "ok", text) of a tools/call reply."""
    result = reply["result"]
    text = "".join(block.get("text", "") for block in result["content"])
    return (result["_meta"]["cdpilot/errorType"] if result.get("isError") else "ok"), text


def process_group(leader: int) -> list[int]:
    """The browser and every helper it forked: the launcher starts it in a session of its own."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == leader:  # field 5: the process group
                members.append(int(entry.name))
    return members


SERVER_URL_SAMPLE = [url for index, (_, _, url) in enumerate(URL_TABLE) if index % 9 == 0]
SECRET_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("chrome_connect", {"host": f"{SECRET}.example"}),  # remote: refused, and nothing is resolved
    ("chrome_connect", {"ws_url": f"ws://127.0.0.1:1/devtools/browser/{SECRET}", "timeout_ms": 2000}),
    ("chrome_connect", {"port": 1, "headers": {"Authorization": f"Bearer {SECRET}"}}),
    ("chrome_launch", {"executable_path": f"/nonexistent/{SECRET}"}),
    ("chrome_launch", {"url": f"javascript:{SECRET}"}),
    ("wait_for", {"texts": [SECRET], "timeout_ms": 100}),  # before the error page below shows the secret
    ("navigate", {"url": f"javascript:{SECRET}"}),
    ("navigate", {"url": f"http://127.0.0.1:1/{SECRET}", "timeout_ms": 5000}),
    ("evaluate_js", {"expression": SECRET}),
    ("query_elements", {"selector": f"{SECRET}["}),
    ("switch_target", {"title": SECRET}),
    ("get_network_request", {"request_id": SECRET}),
    ("fill_element", {"selector": "#none", "text": SECRET, "timeout_ms": 100}),
    ("browser_screenshot", {"path": f"../{SECRET}.png"}),
    ("browser_screenshot", {"path": SECRET + "a" * 300}),  # too long a name: refused (or, for now, UNKNOWN)
]


@pytest.mark.anyio
@pytest.mark.browser
async def test_the_server_refuses_leaks_nothing_and_its_browser_has_no_port(tmp_path: Path, report: Report) -> None:
    output_dir = tmp_path / "out"
    output_dir.mkdir()
    (tmp_path / "outside").mkdir()
    (output_dir / "link-out").symlink_to(tmp_path / "outside")
    before = snapshot(tmp_path, skip=output_dir)
    async with server_with_stderr("legacy", "--output-dir", str(output_dir)) as (server, stderr):
        launched = outcome(await server.call_tool("chrome_launch", {}))
        assert launched[0] == "ok", launched[1]

        # The browser: a pipe, no port.
        listing = outcome(await server.call_tool("chrome_list_connections", {}))[1]
        leader = int(listing.split("pid=")[1].split()[0])
        group = process_group(leader)
        command_line = cmdline_of(leader)
        sockets = listening_socket_inodes()
        listening = [pid for pid in group if socket_inodes_of(pid) & sockets]

        # Navigation refusals; the page stays where it was.
        navigate = [outcome(await server.call_tool("navigate", {"url": url})) for url in SERVER_URL_SAMPLE]
        launch = [outcome(await server.call_tool("chrome_launch", {"url": url})) for url in SERVER_URL_SAMPLE]
        href = outcome(await server.call_tool("evaluate_js", {"expression": "location.href"}))[1]
        connections = outcome(await server.call_tool("chrome_list_connections", {}))[1]

        # Output paths through the screenshot tool.
        paths = {p: outcome(await server.call_tool("browser_screenshot", {"path": p})) for p in ("../x.png", "/x.png")}
        paths["link-out/x.png"] = outcome(await server.call_tool("browser_screenshot", {"path": "link-out/x.png"}))
        saved = outcome(await server.call_tool("browser_screenshot", {"path": "shots/ok.png"}))

        # Calls that fail with a secret in their arguments (and a remote host among them).
        secret_calls = [(tool, outcome(await server.call_tool(tool, args))) for tool, args in SECRET_CALLS]
        assert await server.close_stdin_and_wait() == 0
    log = (await stderr).decode(errors="replace")
    after = snapshot(tmp_path, skip=output_dir)

    remote = secret_calls[0][1]
    report.record(
        SUITE,
        browser_processes_inspected=len(group),
        browser_processes_listening_on_tcp=len(listening),
        browser_uses_debugging_pipe="--remote-debugging-pipe" in command_line,
        browser_debugging_port_flags=sum(1 for arg in command_line if arg.startswith("--remote-debugging-port")),
        server_url_sample=len(SERVER_URL_SAMPLE) * 2,
        server_url_sample_refused=sum(kind == "VALIDATION" for kind, _ in navigate + launch),
        server_path_payloads=len(paths),
        server_path_payloads_refused=sum(kind == "VALIDATION" for kind, _ in paths.values()),
        server_bytes_written_outside=sum(after[n][1] for n in after.keys() - before.keys()),
        failing_calls_with_a_secret=len(SECRET_CALLS),
        secret_occurrences_in_stderr=log.count(SECRET),
        remote_connect_refused=remote[0] == "VALIDATION",
    )
    assert listening == [] and len(group) >= 2
    assert "--remote-debugging-pipe" in command_line
    assert not any(arg.startswith("--remote-debugging-port") for arg in command_line)
    assert [kind for kind, _ in navigate + launch] == ["VALIDATION"] * (2 * len(SERVER_URL_SAMPLE))
    assert all("- url: expected" in text for _, text in navigate + launch)
    assert json.loads(href) == "about:blank"
    assert connections.startswith("1 connection(s)")
    assert {p: kind for p, (kind, _) in paths.items()} == dict.fromkeys(paths, "VALIDATION")
    assert saved[0] == "ok" and (output_dir / "shots" / "ok.png").stat().st_size > 0
    assert after == before
    assert remote[0] == "VALIDATION" and "--allow-remote" in remote[1]
    assert [tool for tool, (kind, _) in secret_calls if kind == "ok"] == []
    assert SECRET not in log, [line for line in log.splitlines() if SECRET in line]


@pytest.mark.anyio
@pytest.mark.browser
async def test_file_urls_open_only_with_the_flag_and_nothing_else_does(tmp_path: Path, report: Report) -> None:
    page = tmp_path / "page.html"
    page.write_text("<title>local</title>")
    async with server_with_stderr("smart", "--allow-file-urls", "--output-dir", str(tmp_path)) as (server, stderr):
        launched = outcome(await server.call_tool("chrome", {"action": "launch"}))
        assert launched[0] == "ok", launched[1]
        opened = outcome(await server.call_tool("navigate", {"url": page.as_uri()}))
        others = [url for scheme, _, url in URL_TABLE if scheme != "file"][::9]
        refused = [outcome(await server.call_tool("navigate", {"url": url})) for url in others]
        refused.append(outcome(await server.call_tool("chrome", {"action": "launch", "url": f"javascript:{SECRET}"})))
        remote = outcome(await server.call_tool("chrome", {"action": "connect", "host": f"{SECRET}.example"}))
        assert await server.close_stdin_and_wait() == 0
    log = (await stderr).decode(errors="replace")
    report.record(
        SUITE,
        allow_file_urls_server_refused=sum(k == "VALIDATION" for k, _ in refused),
        allow_file_urls_opened=opened[0] == "ok",
    )
    assert opened[0] == "ok", opened[1]
    assert [kind for kind, _ in refused] == ["VALIDATION"] * len(refused)
    assert remote[0] == "VALIDATION"
    assert SECRET not in log


def test_the_log_masks_argument_values_but_not_the_action() -> None:
    """Regression: the error log used to print refused hosts, websocket URLs and paths as
    the message quoted them; the action word itself is no secret and stays readable."""
    stream = io.StringIO()
    connections = ConnectionManager(env={"CDPILOT_CHROME_PATH": "/nonexistent/chromium", "PATH": "/nonexistent"})
    registry = in_process_registry(connections, "smart", log=stream)
    result = asyncio.run(registry.call("chrome", {"action": "connect", "host": f"{SECRET}.example"}))
    assert SECRET in getattr(result.content[0], "text", "")  # the client is told what was refused
    assert SECRET not in stream.getvalue()
    assert "Refusing to connect to <host>: remote browsers are disabled" in stream.getvalue()

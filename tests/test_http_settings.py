"""The HTTP transport's settings and door: loopback detection, the refusal to listen beyond
this machine without a token, the Host/Origin allowlists, the token check and the access log."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send

from cdpilot.config import resolve
from cdpilot.errors import ConfigError
from cdpilot.server.http_guard import AccessLog, BearerAuth
from cdpilot.server.http_settings import LOOPBACK_HOSTS, HttpSettings, is_loopback


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.8.0.1", True), ("::1", True), ("[::1]", True), ("localhost", True),
     ("0.0.0.0", False), ("::", False), ("192.168.1.5", False), ("example.com", False)],
)  # fmt: skip
def test_loopback_addresses(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_defaults_listen_on_loopback_with_the_loopback_allowlists() -> None:
    http = HttpSettings.from_config(resolve({}, {}))
    assert (http.host, http.port, http.auth_token, http.max_sessions) == ("127.0.0.1", 8931, None, 16)
    assert http.session_idle_timeout_s == 600
    assert http.allowed_hosts == LOOPBACK_HOSTS and "http://localhost:*" in http.allowed_origins
    assert http.url == "http://127.0.0.1:8931/mcp"


def test_a_non_loopback_bind_needs_a_token_and_the_token_is_never_shown() -> None:
    with pytest.raises(ConfigError, match=r"^--host='0.0.0.0' listens beyond this machine.*--auth-token"):
        HttpSettings.from_config(resolve({"host": "0.0.0.0"}, {}))
    http = HttpSettings.from_config(resolve({"host": "0.0.0.0"}, {"CDPILOT_AUTH_TOKEN": "hunter2"}))
    assert http.auth_token == "hunter2" and "hunter2" not in repr(http)


def test_the_allowlists_add_to_the_loopback_names() -> None:
    given = {"allowed_hosts": "mcp.example.com:*", "allowed_http_origins": "https://app.example.com"}
    http = HttpSettings.from_config(resolve(given, {}))
    assert http.allowed_hosts == (*LOOPBACK_HOSTS, "mcp.example.com:*")
    assert http.allowed_origins[-1] == "https://app.example.com"


class Recorder:
    """An ASGI app that answers 200 and says whether it ran."""

    def __init__(self) -> None:
        self.ran = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.ran = True
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"mcp-session-id", b"abcdef0123456789")]}
        )
        await send({"type": "http.response.body", "body": b"{}"})


async def call(app: Any, path: str = "/mcp", headers: dict[str, str] | None = None) -> list[Message]:
    scope = {"type": "http", "method": "POST", "path": path, "client": ("127.0.0.1", 5000),
             "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]}  # fmt: skip
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


@pytest.mark.anyio
@pytest.mark.parametrize(
    "header", [None, "Bearer wrong", "Bearer hunter", "hunter2", "Bearer hunter2 ", "Basic hunter2", "Bearerhunter2"]
)
async def test_a_request_without_the_right_token_gets_401_and_runs_nothing(header: str | None) -> None:
    inner = Recorder()
    sent = await call(BearerAuth(inner, "hunter2"), headers={"Authorization": header} if header else {})
    assert sent[0]["status"] == 401 and not inner.ran
    assert (b"www-authenticate", b"Bearer") in sent[0]["headers"]


@pytest.mark.anyio
async def test_the_right_token_and_the_open_paths_pass() -> None:
    inner = Recorder()
    for scheme in ("Bearer", "bearer", "BEARER"):  # the scheme's name is case-insensitive
        sent = await call(BearerAuth(inner, "hunter2"), headers={"Authorization": f"{scheme} hunter2"})
        assert sent[0]["status"] == 200
    open_only = Recorder()
    assert (await call(BearerAuth(open_only, "hunter2", open_paths=("/healthz",)), "/healthz"))[0]["status"] == 200
    assert open_only.ran


@pytest.mark.anyio
async def test_the_access_log_says_who_what_and_the_session_but_no_header_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    await call(AccessLog(Recorder()), headers={"Authorization": "Bearer hunter2"})
    line = capsys.readouterr().err
    assert line.startswith("cdpilot http: 127.0.0.1 POST /mcp 200 ") and line.rstrip().endswith("session=abcdef012345")
    assert "hunter2" not in line


def test_the_stdio_path_never_imports_the_http_stack() -> None:
    """cli and the handshake stay on the standard library (the SDK's side, loaded in a thread while
    the handshake is answered, is the SDK's business: it imports Starlette and uvicorn itself)."""
    import subprocess
    import sys

    probe = (
        "import sys, cdpilot.cli; before = set(sys.modules); import cdpilot.server.app, cdpilot.server.sdk_server;"
        "print(sorted(m for m in before if m.split('.')[0] in ('starlette', 'uvicorn', 'mcp') or 'http' in m),"
        " sorted(m for m in sys.modules if m.startswith('cdpilot.server.http_app')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[] []"

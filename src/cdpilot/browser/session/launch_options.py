"""How a browser is launched: the one record of it, from the start-up settings to one launch.

`Settings.launch` holds the server's (`--headed`, `--viewport`, `--proxy-server`, …, mapped
once by `cli.build_settings`); a `chrome launch` call changes some of them with
`dataclasses.replace`, and so does the shared browser for its own launch. Standard library
only: the settings are built before the server imports anything of the browser layer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LaunchOptions:
    connection_id: str | None = None  # None: the first free default id (browser-1, …)
    headless: bool = True
    executable_path: str | None = None
    user_data_dir: str | None = None  # kept after the browser ends; None: a temp profile, removed
    extra_args: tuple[str, ...] = ()  # after every flag of ours, so they can override any
    url: str | None = None  # the first page; None: about:blank
    timeout_ms: int = 20000  # how long the browser may take to answer its first command
    viewport: tuple[int, int] | None = (1280, 720)  # the page's, headless; the window's, headed
    user_agent: str | None = None
    proxy_server: str | None = None  # such as http://127.0.0.1:3128
    ignore_https_errors: bool = False

"""The browser layer: everything cdpilot does to a browser, by feature, as typed facts.

- `session`: launching and connecting to browsers, the connections kept, the page collectors
- `page`: loading pages, tabs, dialogs, screenshots and emulation, page JavaScript evaluation
- `dom`: finding elements, waiting for them, acting on them as a user would
- `observe`: console, network, and the child targets (out-of-process frames, workers) they cover
- `debugger`: breakpoints, pauses, stepping, call frames

It speaks CDP through `cdpilot.cdp`, never writes the text an agent reads (`cdpilot.answers`
does) and knows nothing of MCP. Page-side JavaScript lives in `js/` as real files.
"""

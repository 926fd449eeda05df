"""The MCP side, in the order a session meets it: the claimed stdio wire (`wire`), the handshake
answered before the SDK is loaded (`handshake`), then the lowlevel SDK server and its stdio
transport (`sdk_server`, `stdio`), the fast path that serves tools/list and tools/call past the
SDK's per-request machinery (`fast_path`), and the one call pipeline and error boundary
(`registry`, with its per-tool `rate_limit`). `app` starts and ends it all; `tool_filter`
settles at start which tools are served."""

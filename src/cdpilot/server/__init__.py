"""The MCP side: the lowlevel SDK server and our stdio transport (`app`, `stdio`), the fast path
that serves tools/list and tools/call past the SDK's per-request machinery (`fast_path`), and
the one call pipeline and error boundary (`registry`, with its per-tool `rate_limit`)."""

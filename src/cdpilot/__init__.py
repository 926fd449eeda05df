"""cdpilot: an MCP server that drives and debugs Chrome, Chromium and Electron over CDP."""

__version__ = "0.1.0"

"""The one handler table that satisfies the generated contract (`cdpilot_generated.contract`).

mypy checks it against `HandlerTable`; `registry.handler_problems` checks it again at
start-up and in `make check-generated`, so a missing or mistyped handler never ships.
"""

from cdpilot_generated.contract import HandlerTable

from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers import connection, navigation

HANDLERS: HandlerTable[ToolContext, ToolResult] = {
    "chrome_launch": connection.chrome_launch,
    "chrome_connect": connection.chrome_connect,
    "chrome_list_connections": connection.chrome_list_connections,
    "chrome_switch_connection": connection.chrome_switch_connection,
    "chrome_disconnect": connection.chrome_disconnect,
    "navigate": navigation.navigate,
}

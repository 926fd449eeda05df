"""The one handler table that satisfies the generated contract (`cdpilot_generated.contract`).

mypy checks it against `HandlerTable`; `registry.handler_problems` checks it again in
`make check-generated` and when the server loads it (before serving any call), so a missing
or mistyped handler never ships.
"""

from cdpilot_generated.contract import HandlerTable

from cdpilot.context import ToolContext, ToolResult
from cdpilot.handlers import connection, debugger, dom, evaluate, input, navigation, observe, page, targets

HANDLERS: HandlerTable[ToolContext, ToolResult] = {
    "chrome_connect": connection.chrome_connect,
    "chrome_disconnect": connection.chrome_disconnect,
    "chrome_launch": connection.chrome_launch,
    "chrome_list_connections": connection.chrome_list_connections,
    "chrome_switch_connection": connection.chrome_switch_connection,
    "debugger_disable": debugger.debugger_disable,
    "debugger_enable": debugger.debugger_enable,
    "debugger_evaluate_on_call_frame": debugger.debugger_evaluate_on_call_frame,
    "debugger_get_call_stack": debugger.debugger_get_call_stack,
    "debugger_list_breakpoints": debugger.debugger_list_breakpoints,
    "debugger_list_scripts": debugger.debugger_list_scripts,
    "debugger_pause": debugger.debugger_pause,
    "debugger_read_source": debugger.debugger_read_source,
    "debugger_remove_breakpoint": debugger.debugger_remove_breakpoint,
    "debugger_resume": debugger.debugger_resume,
    "debugger_search_sources": debugger.debugger_search_sources,
    "debugger_set_breakpoint": debugger.debugger_set_breakpoint,
    "debugger_set_dom_breakpoint": debugger.debugger_set_dom_breakpoint,
    "debugger_set_event_breakpoint": debugger.debugger_set_event_breakpoint,
    "debugger_set_function_breakpoint": debugger.debugger_set_function_breakpoint,
    "debugger_set_pause_on_exceptions": debugger.debugger_set_pause_on_exceptions,
    "debugger_set_xhr_breakpoint": debugger.debugger_set_xhr_breakpoint,
    "debugger_skip_all_pauses": debugger.debugger_skip_all_pauses,
    "debugger_step_into": debugger.debugger_step_into,
    "debugger_step_out": debugger.debugger_step_out,
    "debugger_step_over": debugger.debugger_step_over,
    "inspect_element": dom.inspect_element,
    "query_elements": dom.query_elements,
    "wait_for": dom.wait_for,
    "evaluate_js": evaluate.evaluate_js,
    "click_element": input.click_element,
    "fill_element": input.fill_element,
    "handle_dialog": input.handle_dialog,
    "hover_element": input.hover_element,
    "press_key": input.press_key,
    "select_option": input.select_option,
    "upload_file": input.upload_file,
    "go_back": navigation.go_back,
    "go_forward": navigation.go_forward,
    "navigate": navigation.navigate,
    "reload": navigation.reload,
    "get_console_logs": observe.get_console_logs,
    "get_network_request": observe.get_network_request,
    "list_network_requests": observe.list_network_requests,
    "browser_emulate_media": page.browser_emulate_media,
    "browser_screenshot": page.browser_screenshot,
    "browser_set_viewport": page.browser_set_viewport,
    "close_target": targets.close_target,
    "list_targets": targets.list_targets,
    "new_target": targets.new_target,
    "switch_target": targets.switch_target,
}

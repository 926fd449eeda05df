"""debugger"""

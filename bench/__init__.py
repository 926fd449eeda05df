"""`make bench`: cdpilot measured side by side with its baselines in the same run.

Every figure is a median or a ratio to a baseline measured in the same run on the same
machine, never a pass/fail threshold: absolute numbers move with the machine and its load,
ratios measured together do not. `python -m bench` prints the table and writes
``bench-report.json``.
"""

"""The editor's verbs without Qt: what fits where in the editor (compat), bulk wiring, layout,
copy/paste fragments, device counts, workload member rules and the wording of counts.

`gui/` wraps these in widgets, signals and undo commands; the CLI can use them as they are.
"""

"""Gestures on the Topology canvas as interaction objects (after orange-canvas-core).

The scene holds at most one active `Interaction` and hands it the mouse and key events while
it lasts: `WireInteraction` (drawing a cable, or moving a cable's end, from a port),
`MoveInteraction` (dragging devices: snap to the grid, cable ends follow, one undo step on
release).  `PickInteraction` answers a click that starts no gesture of its own (a cable or a
collapsed group picked) and the cables inside a rubber band.  Each asks the scene only for what
`CanvasHost` names, and ends by telling it (`interaction_ended`).

Import from the modules (`interactions.wire` ...): this package's `__init__` imports nothing, so
walking the package tree (tests/test_layering.py) does not pull Qt in.
"""

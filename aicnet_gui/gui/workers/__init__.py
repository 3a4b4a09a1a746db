"""Background work of the editor: `background.BackgroundJob` runs one function in a worker
thread and hands its result to the GUI thread, safely when the window goes meanwhile; exports
(`export_worker`, with progress and cancel) and File > Open (`load_worker`'s function) run in
one."""

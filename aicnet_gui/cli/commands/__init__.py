"""The `aicnet` sub-commands, one module each (discovered by `aicnet_gui.cli`)."""

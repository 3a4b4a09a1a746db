"""Background work of the editor: exports with progress (live validation joins in issue 6)."""

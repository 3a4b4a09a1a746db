"""aicnet: design, validate and document the network of an AI/GPU cluster."""

__version__ = "0.1.0"

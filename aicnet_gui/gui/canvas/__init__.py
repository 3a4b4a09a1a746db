"""The canvas: the Topology and Floor scenes that mirror the model, their items and the view."""

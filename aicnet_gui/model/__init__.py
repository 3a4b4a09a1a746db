"""The fabric model: catalog entities and the fabric document with its mutation API (no Qt)."""

"""Bounded YAML/JSON reading with places, schema validation, and atomic, locked,
comment-keeping writing (imports only the core)."""

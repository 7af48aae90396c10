"""The rulesets linguo ships (each imports the core and io, never another ruleset)."""

"""The ruleset-neutral core: errors, dice, distributions, derivations, rule tests,
entities, conditions, turns, rulesets and requests (imports no other layer)."""

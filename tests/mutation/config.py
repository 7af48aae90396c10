"""What is mutated and which tests guard it: the one place to edit after a move.

:data:`MODULES` names each rules module (name -> file relative to the root);
:data:`TEST_MAP` lists, per module, the test files run when per-test coverage
is missing or a line is executed by no collected test; :data:`COVERAGE_TESTS`
is the default set the per-test coverage map is collected over.
"""

from __future__ import annotations

#: The rules modules under mutation: name -> file (relative to the root).
MODULES: dict[str, str] = {
    "dice": "linguo_cli/core/dice.py",
    "dice_sources": "linguo_cli/core/dice_sources.py",
    "dice_parse": "linguo_cli/core/dice_parse.py",
    "distribution": "linguo_cli/core/distribution.py",
    "core_tests": "linguo_cli/core/tests.py",
    "derivation": "linguo_cli/core/derivation.py",
    "core_conditions": "linguo_cli/core/conditions.py",
    "core_turns": "linguo_cli/core/turns.py",
    "options": "linguo_cli/core/options.py",
    "checks": "linguo_cli/rulesets/linguomancy/checks.py",
    "ticks": "linguo_cli/rulesets/linguomancy/ticks.py",
    "amount_rules": "linguo_cli/rulesets/linguomancy/amount_rules.py",
    "amounts": "linguo_cli/rulesets/linguomancy/amounts.py",
    "hp": "linguo_cli/rulesets/linguomancy/hp.py",
    "dying": "linguo_cli/rulesets/linguomancy/dying.py",
    "damage": "linguo_cli/rulesets/linguomancy/damage.py",
    "flux": "linguo_cli/rulesets/linguomancy/flux.py",
    "cast_plan": "linguo_cli/rulesets/linguomancy/cast_plan.py",
    "overclock": "linguo_cli/rulesets/linguomancy/overclock.py",
    "conditions": "linguo_cli/rulesets/linguomancy/conditions.py",
    "turn_engine": "linguo_cli/rulesets/linguomancy/turn_engine.py",
    "turn_steps": "linguo_cli/rulesets/linguomancy/turn_steps.py",
    "turn_actions": "linguo_cli/rulesets/linguomancy/turn_actions.py",
    "turn_rules": "linguo_cli/rulesets/linguomancy/turn_rules.py",
    "odds": "linguo_cli/rulesets/linguomancy/odds.py",
    "rest": "linguo_cli/rulesets/linguomancy/rest.py",
    "abilities": "linguo_cli/rulesets/linguomancy/abilities.py",
    "requests": "linguo_cli/rulesets/linguomancy/requests.py",
    "model": "linguo_cli/rulesets/linguomancy/model.py",
    "d20_model": "linguo_cli/rulesets/linguomancy/d20_model.py",
}

_L = "tests/linguomancy/"

#: Tests per module when coverage contexts are not available (or a line is
#: executed by no test): test files or node ids.
TEST_MAP: dict[str, list[str]] = {
    "checks": [
        "tests/linguomancy/test_checks.py",
        "tests/linguomancy/test_mutants_checks.py",
        "tests/linguomancy/test_cli.py",
        "tests/conformance/test_golden.py",
    ],
    "dice": [
        "tests/core/test_dice.py",
        "tests/core/test_mutants_dice.py",
        "tests/core/test_mutants_notation.py",
        "tests/linguomancy/test_mutants_limits.py",
    ],
    "ticks": [
        "tests/linguomancy/test_ticks_cli.py",
        "tests/linguomancy/test_mutants_ticks.py",
        "tests/linguomancy/test_mutants_branches.py",
        "tests/conformance/test_golden.py",
    ],
    "damage": [
        "tests/linguomancy/test_damage.py",
        "tests/linguomancy/test_mutants_damage.py",
        "tests/linguomancy/test_damage_cli.py",
        "tests/linguomancy/test_mutants_branches.py",
        "tests/conformance/test_golden.py",
    ],
    "flux": [
        "tests/linguomancy/test_mutants_casting.py",
        "tests/linguomancy/test_flux.py",
        "tests/linguomancy/test_cast_cli.py",
        "tests/linguomancy/test_mutants_branches.py",
        "tests/conformance/test_golden.py",
    ],
    "conditions": [
        "tests/linguomancy/test_conditions.py",
        "tests/linguomancy/test_mutants_conditions.py",
        "tests/linguomancy/test_mutants_turn.py",
        "tests/linguomancy/test_turn.py",
        "tests/conformance/test_golden.py",
    ],
    "core_tests": ["tests/core/test_tests.py", "tests/linguomancy/test_checks.py"],
    "dice_parse": [
        "tests/core/test_dice.py",
        "tests/core/test_dice_notation.py",
        "tests/core/test_dice_notation_exact.py",
        "tests/core/test_mutants_notation.py",
        "tests/linguomancy/test_mutants_limits.py",
    ],
    "distribution": ["tests/core/test_distribution.py", "tests/core/test_dice_notation_exact.py",
                     "tests/core/test_mutants_notation.py",
                     "tests/linguomancy/test_mutants_limits.py", "tests/linguomancy/test_odds.py"],
    "derivation": ["tests/core/test_results.py", "tests/linguomancy/test_rule_steps.py"],
    "core_conditions": ["tests/core/test_conditions.py", "tests/linguomancy/test_conditions.py"],
    "odds": [
        "tests/linguomancy/test_mutants_odds.py",
        "tests/linguomancy/test_odds.py",
        "tests/linguomancy/test_mutants_limits.py",
        "tests/conformance/test_golden.py",
    ],
    "dice_sources": ["tests/core/test_dice.py", "tests/core/test_mutants_dice.py",
                     "tests/cli/test_import_hygiene.py"],
    "core_turns": ["tests/core/test_turns.py", "tests/linguomancy/test_turn.py"],
    "options": ["tests/core/test_options.py", "tests/linguomancy/test_options.py"],
    "amount_rules": [f"{_L}test_mutants_amounts.py", f"{_L}test_odds.py", f"{_L}test_damage.py",
                     f"{_L}test_flux.py"],
    "amounts": [f"{_L}test_mutants_amounts.py", f"{_L}test_odds.py", f"{_L}test_damage.py",
                f"{_L}test_flux.py"],
    "hp": [f"{_L}test_mutants_hp.py", f"{_L}test_damage.py", f"{_L}test_rest.py",
           f"{_L}test_model.py", f"{_L}test_mutants_branches.py"],
    "dying": [f"{_L}test_mutants_dying.py", f"{_L}test_mutants_hp.py", f"{_L}test_rev2_death.py",
              f"{_L}test_damage.py", f"{_L}test_mutants_branches.py"],
    "cast_plan": [f"{_L}test_mutants_casting.py", f"{_L}test_flux.py", f"{_L}test_rev2_cast.py",
                  f"{_L}test_mutants_branches.py"],
    "overclock": [f"{_L}test_mutants_casting.py", f"{_L}test_flux.py", f"{_L}test_rev2_death.py",
                  f"{_L}test_mutants_branches.py"],
    "turn_engine": [f"{_L}test_mutants_turn.py", f"{_L}test_turn.py", f"{_L}test_turn_log.py",
                   f"{_L}test_turn_cli.py"],
    "turn_steps": [f"{_L}test_mutants_turn.py", f"{_L}test_turn.py", f"{_L}test_turn_log.py",
                  f"{_L}test_turn_cli.py"],
    "turn_actions": [f"{_L}test_mutants_turn.py", f"{_L}test_turn.py", f"{_L}test_turn_log.py",
                    f"{_L}test_turn_cli.py"],
    "turn_rules": [f"{_L}test_mutants_turn.py", f"{_L}test_turn.py", f"{_L}test_turn_log.py",
                  f"{_L}test_turn_cli.py"],
    "rest": [f"{_L}test_mutants_rest.py", f"{_L}test_rest.py", f"{_L}test_rest_cli.py"],
    "abilities": [f"{_L}test_model.py", f"{_L}test_rev2_cast.py", f"{_L}test_turn.py"],
    "requests": [f"{_L}test_mutants_casting.py", f"{_L}test_requests.py",
                 f"{_L}test_cli_options_valid.py"],
    "model": [f"{_L}test_model.py", f"{_L}test_mutants_model.py", f"{_L}test_requests.py"],
    "d20_model": [f"{_L}test_model.py", f"{_L}test_mutants_model.py", f"{_L}test_requests.py",
                  f"{_L}test_checks.py"],
}

#: The default test set of the per-test coverage map: the tests of the core,
#: of Linguomancy, the golden suite and the API (the whole suite under coverage
#: took about an hour on the shared 2-core machine; these take minutes).
COVERAGE_TESTS: list[str] = [
    "tests/core", "tests/linguomancy", "tests/conformance/test_golden.py", "tests/test_api.py",
]

#: Folders and files copied to a scratch repository (the isolated runs, and
#: the child processes a forked run's tests start).
COPY = ["linguo_cli", "tests", "golden", "schemas", "examples", "pyproject.toml", "README.md"]


def module_name(rel: str) -> str:
    """``linguo_cli/core/dice.py`` -> ``linguo_cli.core.dice``."""
    return rel.removesuffix(".py").replace("/", ".")

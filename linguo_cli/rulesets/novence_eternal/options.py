"""The Options table of the Novence Eternal rulings, as data (section Options).

Each row is an :class:`OptionRow`: its name, default, alternatives, JSON type
(``"string"``, ``"bool"`` or ``"int"``, NV common rules: ``aim_min_thr_base``,
``wake_hp``, ``cover_class_divisor``, ``overpen_dc_divisor`` and
``injury_penalty_vii_viii`` take a JSON integer, the true/false options a
boolean, every other option a string) and its rule row (the rule IDs of the
table's last column; the first is the rule a ``bad_option`` cites, NV6).

:func:`check_options` validates an ``options`` mapping of a request or state:
an unknown name, a value not in the row, or a value of another JSON type
raises an :class:`~linguo_cli.core.options.OptionError` (an ``InputError``,
exit 3) whose field is ``options.NAME`` and whose refusal code is
``bad_option``. :func:`resolve_options` gives every option's value in effect
(state < request < command line, NV common rules) as :class:`Options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from linguo_cli.core.options import Option, OptionTable, OptionValue

#: The refusal code of an unknown option name or value (Refusal codes, NV6).
BAD_OPTION = "bad_option"

# name, default, alternatives, rule row. Types follow from the values.
_ROWS: tuple[tuple[str, OptionValue, tuple[OptionValue, ...], str], ...] = (
    ("dc_rule", "meet", ("exceed",), "NS2"),
    ("initiative_roll", "d20_plus_dex", ("dex_only",), "NS8"),
    ("initiative_tie", "dex_then_rolloff", ("rolloff",), "NS8"),
    ("seconds_to_rounds", "ceil", ("floor",), "NT1"),
    ("turn_means", "round", ("holder_turn",), "NT1"),
    ("duration_counts_current_round", True, (False,), "NT2"),
    ("duration_tick", "end_of_round", ("end_of_holder_turn",), "NT2"),
    ("help_expires", "helper_next_turn", ("until_used",), "NT8"),
    ("search_vs_hidden", "dm_dc", ("stealth_compare",), "NT9"),
    ("hide_ends", "on_attack", ("when_found_only",), "NT9"),
    ("meditate_scope", "each", ("one",), "NT12"),
    ("move_average", "floor", ("exact", "ceil"), "NM1"),
    ("aim_stack_lifetime", "until_attack", ("until_next_turn",), "NM2"),
    ("aim_on_unequip", "lost", ("kept",), "NM2"),
    ("aim_dodge_halving", "while_charged", ("until_next_turn",), "NM4"),
    ("aim_min_thr_base", 1, (0,), "NM5"),
    ("aim_min_thr_scope", "cover_only", ("cover_and_armor",), "NM5"),
    ("melee_aim_effect_on", "damage_dealt", ("landed",), "NM6"),
    ("bleed_form", "one_stack_of_value", ("n_stacks",), "NM6"),
    ("bleed_basis", "damage_roll", ("damage_dealt",), "NM6"),
    ("hit_rule", "exceed", ("meet",), "NH2"),
    ("range_edges", "nearer_band", ("farther_band",), "NH5"),
    ("beyond_long_range", "forbid", ("disadvantage",), "NH5"),
    ("sc_attacks_physical_steps", "skip", ("apply",), "NH6"),
    ("bonus_crit_die", "new_d20", ("same_natural",), "NX2"),
    ("bonus_crit_range", "residual", ("normal",), "NX2"),
    ("aim_floor_crits", False, (True,), "NX3"),
    ("crit_auto_lands", True, (False,), "NX4"),
    ("far_scope", "attack_rolls", ("all_d20",), "NX6"),
    ("crit_fail_effect", "auto_miss", ("none",), "NX6"),
    ("crit_vs_fail", "crit_wins", ("fail_wins",), "NX6"),
    ("cover_class_divisor", 10, (5,), "NC2"),
    ("cover_scale", "graded", ("simple",), "NC2"),
    ("overpen_armor", "apply", ("skip",), "NC4"),
    ("overpen_dc_divisor", 10, (5,), "NC5"),
    ("unlisted_damage_type", "bypass", ("level_1",), "NA1"),
    ("dc_attacks_armor", "skip", ("res_only",), "NA1"),
    ("vuln_inherit", "carry", ("restated_only",), "NA3"),
    ("ap_zero", "literal", ("inert",), "NA5"),
    ("ap_share_when", "always", ("deflected_only",), "NA5"),
    ("ap_ignores", "all_nonneg_res", ("armor_res_only",), "NA5"),
    ("ap_armor_negative_res", "applies", ("bypassed",), "NA5"),
    ("piercing_aim", "penetrate", ("penetrate_no_wear", "full_ap"), "NA6"),
    ("ep_scope", "failed_rolls_only", ("no_roll",), "NA7"),
    ("category_modifiers", "compete", ("add",), "ND1"),
    ("di_ri_stage", "after_selection", ("per_entry",), "ND3"),
    ("di_ri_floor", "zero", ("none",), "ND3"),
    ("netting", "net_then_mitigate", ("separate",), "ND4"),
    ("multi_type_average", "unweighted", ("weighted",), "ND4"),
    ("average_over", "damaging_types", ("all_attack_types",), "ND4"),
    ("status_damage_at", "duration_tick", ("holder_turn_start",), "ND7"),
    ("damage_rounding", "floor_end", ("floor_each_step",), "ND8"),
    ("ready_cost", "aa", ("aa_plus_ta",), "NR1"),
    ("reaction_tie", "reroll", ("higher_bonus",), "NR2"),
    ("charges_end_on_ko", True, (False,), "NR3, NK1"),
    ("charge_stacking", "stack", ("max_one",), "NR3"),
    ("charge_consumed", "on_target", ("on_landed",), "NR4"),
    ("breakage_on", "every_roll", ("success_only",), "NR6"),
    ("heavy_breakage_die", "both", ("defender_only",), "NR6"),
    ("charge_reduction_as", "final_multiplier", ("def_modifier",), "NR10"),
    ("free_reaction_attack", "free", ("uses_reaction",), "NR11"),
    ("max_hp_drop", "clamp", ("keep",), "NL1"),
    ("thp_compare", "remaining", ("granted",), "NL3"),
    ("heal_wakes", True, (False,), "NL4"),
    ("wake_hp", 1, (0,), "NK2"),
    ("ko_roll_at_critical", "skip", ("fail_only",), "NK2"),
    ("ko_damage_window", "turn", ("round", "hit"), "NK3"),
    ("ko_damage_counts", "before_thp", ("after_thp",), "NK3"),
    ("ko_overflow_counts", False, (True,), "NK3"),
    ("ko_threshold_min", "product", ("con",), "NK3"),
    ("critical_forces_ko", True, (False,), "NK4"),
    ("timer_after_absorb", "restart", ("stop",), "NK6"),
    ("stabilize_cost", "ta", ("aa",), "NK7"),
    ("injury_penalty_vii_viii", -8, (0,), "NK8"),
    ("injury_penalty_scope", "all_stats", ("rolls_only",), "NK8"),
    ("second_chance_refill", "half_max_floor", ("half_max_ceil", "half_missing_floor"),
     "NK10"),
    ("dismember_hp_check", "after_damage", ("before_damage",), "NK11"),
    ("dismember_injury", "at_least", ("exact",), "NK11"),
    ("dismember_second_chance", "no_absorb", ("absorb_per_stack",), "NK11"),
    ("resurrection_timer", "none", ("start",), "NK13"),
    ("ko_target", "plain", ("dnd5e_unconscious",), "NK14"),
    ("up_while_ko", "none", ("gain",), "NU2"),
    ("zenith_meter", "shared", ("per_creature",), "NU4"),
    ("zenith_reset", "encounter", ("never",), "NU4"),
    ("zenith_bonus_mode", "cumulative", ("highest_per_track",), "NU5"),
    ("aoe_damage_roll", "shared", ("per_target",), "NO2"),
)

#: The alternatives the Options table marks "contradicts the text".
CONTRADICTS_TEXT: frozenset[tuple[str, OptionValue]] = frozenset({
    ("aim_min_thr_scope", "cover_and_armor"), ("hit_rule", "meet"),
    ("charge_consumed", "on_landed"), ("heavy_breakage_die", "defender_only"),
})


def _json_type(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "string"


@dataclass(frozen=True, slots=True)
class OptionRow:
    """One row of the Options table: ``name``, ``default``, ``alternatives``
    (every other allowed value), ``type`` (the JSON type of its values:
    ``string``, ``bool`` or ``int``) and ``rules`` (the rule row, e.g.
    ``("NR3", "NK1")``; ``rules[0]`` is what a ``bad_option`` cites)."""

    name: str
    default: OptionValue
    alternatives: tuple[OptionValue, ...]
    type: str
    rules: tuple[str, ...]

    @property
    def values(self) -> tuple[OptionValue, ...]:
        """Every allowed value, the default first."""
        return (self.default, *self.alternatives)


#: The Options table, in the spec's order.
OPTION_ROWS: tuple[OptionRow, ...] = tuple(
    OptionRow(name, default, alts, _json_type(default),
              tuple(r.strip() for r in rules.split(",")))
    for name, default, alts, rules in _ROWS)


@dataclass(frozen=True, slots=True)
class ChoiceOption(Option):
    """A core :class:`Option` whose values are a fixed list of integers or
    strings; unlike core's integer options (a range), an integer choice
    (``cover_class_divisor: 10 | 5``) allows only its listed values, and a
    command-line value made of digits is read as an integer."""

    def read(self, text: str) -> OptionValue:
        """A command-line value as the option's JSON value (see :class:`Option`)."""
        if isinstance(self.default, int) and not isinstance(self.default, bool):
            stripped = text.strip()
            digits = stripped.lstrip("+-")
            if digits.isascii() and digits.isdigit() and len(digits) <= 18:
                return int(stripped)
            return text
        return Option.read(self, text)


#: The table as core :class:`OptionTable` (its refusal code ``bad_option``).
OPTION_TABLE: OptionTable = OptionTable.of(
    (ChoiceOption(r.name, r.default, r.alternatives, rule=r.rules[0]) for r in OPTION_ROWS),
    bad_option_code=BAD_OPTION)


@dataclass(frozen=True, slots=True)
class Options:
    """Every option's value in effect (defaults filled in); read with the
    typed accessors, which raise ``KeyError`` for a name not in the table."""

    values: Mapping[str, OptionValue]

    def text(self, name: str) -> str:
        """A string option's value."""
        value = self.values[name]
        assert isinstance(value, str), name
        return value

    def flag(self, name: str) -> bool:
        """A boolean option's value."""
        value = self.values[name]
        assert isinstance(value, bool), name
        return value

    def number(self, name: str) -> int:
        """An integer option's value."""
        value = self.values[name]
        assert isinstance(value, int) and not isinstance(value, bool), name
        return value

    def is_(self, name: str, value: OptionValue) -> bool:
        """Whether option ``name`` is at ``value`` (same JSON type)."""
        current = self.values[name]
        return type(current) is type(value) and current == value

    def non_default(self) -> dict[str, OptionValue]:
        """The options not at their default, in table order (NV5 ``options``)."""
        return OPTION_TABLE.non_default(self.values)


#: Every option at its default.
DEFAULTS = Options(OPTION_TABLE.defaults())


def check_options(given: object, place: str = "request",
                  base: str = "options") -> dict[str, OptionValue]:
    """``given`` (an ``options`` object of a request or state) checked.

    Returns the given options as ``{name: value}``. Raises ``OptionError``
    (exit 3, refusal code ``bad_option``, rule the first of the option's row,
    field ``options.NAME``) for an unknown name, a value not in the row, or a
    value of another JSON type (``true`` is not ``1``)."""
    return OPTION_TABLE.check(given, place, base)


def resolve_options(*layers: object) -> Options:
    """The options in effect from ``layers``, lowest precedence first (state,
    request, command line), each an ``options`` mapping or ``None``; each is
    checked by :func:`check_options`."""
    checked = [check_options(layer) for layer in layers if layer is not None]
    return Options(OPTION_TABLE.effective(*checked))

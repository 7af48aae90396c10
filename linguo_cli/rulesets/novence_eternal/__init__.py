"""Novence Eternal, the second ruleset (issue 19): pure rules, typed results.

The engine rules are those of ``shared/spec/novence-eternal/RULINGS.md``
(rule IDs NS, NT, NM, NH, NX, NC, NA, ND, NR, NL, NK, NU, NP, NO, NV). It is
wired as the ruleset ``novence-eternal`` (:mod:`.ruleset`; CLI alias
``novence``) with the request kinds ``attack``, ``modifiers``, ``dc_effect``,
``thp``, ``heal``, ``ko_roll``, ``stabilize``, ``rest``, ``resurrect``, ``check``,
``sc_attack``, ``initiative``, ``reaction_order``, ``move``, ``injury``,
``script``, ``turn_start`` and ``event``:

- :mod:`.options`: the Options table as data, with validation (``bad_option``);
- :mod:`.modifiers`: the damage-modifier pool (ND1-ND8) as exact fractions;
- :mod:`.hitting`: to-hit, the Aim floor, crits and crit fails (NH, NM3-NM5, NX);
- :mod:`.defense`: Parry, Dodge and Guard charges with breakage (NR4-NR8);
- :mod:`.armor`: cover and armor (NC1-NC4, NA1-NA6);
- :mod:`.damage`: damage dice with crit sets and the split into pools;
- :mod:`.injury`: KO, Injury stacks, damage while KO, dismemberment (NK);
- :mod:`.recovery`: THP grants, healing, the KO roll, stabilizing, rests,
  resurrection (NL1, NL3, NL4, NK2, NK7, NK9, NK10, NK13) and checks (NS2), and
  :mod:`.recovery_requests`, their request kinds and results;
- :mod:`.attack`: the NO1 pipeline of one AC-based attack on one target;
- :mod:`.sc_attack`: one SC-based attack (NO6: NH6, NA7, NS5) on that pipeline;
- :mod:`.initiative`: initiative (NS8), simultaneous reactions (NR2) and
  their shared roll-off; :mod:`.movement`: the Move roll (NM1);
  :mod:`.injury_requests`: Injury stacks on a given creature (NK4);
- :mod:`.documents`: reading NV3 ``attack`` and ``modifiers`` requests;
- :mod:`.validation`: the request schemas (``schemas/``);
- :mod:`.handlers`: the request handlers and their typed NV5 results;
- :mod:`.render` and :mod:`.commands`: text output and ``linguo novence ...``.
- :mod:`.script`: scripts of rounds and turns (NV4: budgets, NO3-NO5,
  durations, Ready and reactions) and the ``turn_start`` and ``event`` kinds.

Modules import only :mod:`linguo_cli.core` and :mod:`linguo_cli.io` (never
another ruleset); :mod:`.commands` also ``linguo_cli.cli.options``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Traversable


def packaged(name: str) -> Traversable:
    """The packaged file ``name`` of Novence Eternal (``schemas/...``,
    ``suite/...``), relative to this package folder."""
    from linguo_cli.core.ruleset import package_files

    return package_files(__name__).joinpath(name)


from linguo_cli.rulesets.novence_eternal.ruleset import RULESET  # noqa: E402 - needs packaged

__all__ = ["RULESET", "packaged"]

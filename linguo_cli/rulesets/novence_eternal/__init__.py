"""Novence Eternal, the second ruleset (issue 19): pure rules, typed results.

The engine rules are those of ``shared/spec/novence-eternal/RULINGS.md``
(rule IDs NS, NT, NM, NH, NX, NC, NA, ND, NR, NL, NK, NU, NP, NO, NV). This
first slice holds:

- :mod:`.options`: the Options table as data, with validation (``bad_option``);
- :mod:`.modifiers`: the damage-modifier pool (ND1-ND8) as exact fractions;
- :mod:`.hitting`: to-hit, the Aim floor, crits and crit fails (NH, NM3-NM5, NX);
- :mod:`.defense`: Parry, Dodge and Guard charges with breakage (NR4-NR8);
- :mod:`.armor`: cover and armor (NC1-NC4, NA1-NA6);
- :mod:`.damage`: damage dice with crit sets and the split into pools;
- :mod:`.injury`: KO, Injury stacks, damage while KO, dismemberment (NK);
- :mod:`.attack`: the NO1 pipeline of one AC-based attack on one target;
- :mod:`.documents` and :mod:`.results`: reading NV3 ``attack`` and
  ``modifiers`` requests and giving NV5 results (``resolve_request``).

Nothing here is wired into the command line or the request dispatcher yet.
Modules import only :mod:`linguo_cli.core` (never another ruleset).
"""

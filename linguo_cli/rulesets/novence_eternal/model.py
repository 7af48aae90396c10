"""Typed inputs of the Novence Eternal rules (the NV1/NV2 fields they read).

These are frozen values; a request reader (not part of this slice) builds
them from validated documents. Units: distances, reach and range in feet;
HP and THP in hit points; percents in percent points; AC, PC, CC as integers.
Defaults are those of NV1-NV3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from linguo_cli.core.errors import RulesError

from .modifiers import ModEntry
from .options import DEFAULTS, Options

STATS = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
#: Conditions whose catalog entry restricts movement by default (NV2, NM6).
RESTRICTING = frozenset({"Bound", "Prone", "Staggered"})


class Refusal(RulesError):
    """A forbidden action (exit 4): ``refusal`` is the code from the refusal
    codes table, ``rule`` the first rule the table lists for it. Nothing is
    spent and no die is rolled (Conventions: Forbidden); core's
    ``error_object`` gives ``{exit: 4, code, rule, place, ...}``. ``place``
    is NV6's: ``request`` for a one-off request (the default), a script's
    place such as ``R2 turn 1 (ayla) step 3`` when play re-raises it there."""

    def __init__(self, code: str, rule: str, message: str, place: str = "request") -> None:
        super().__init__(rule, f"{message} ({code})")
        self.refusal = code
        self.place = place


@dataclass(frozen=True, slots=True)
class Component:
    """One damage component (NV2 ``damage`` item): ``dice`` as (count, sides)
    or ``None``, ``static`` HP (added once, NX5), damage ``type``."""

    type: str
    dice: tuple[int, int] | None = None
    static: int = 0


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon or attacking ability (NV2). ``reach``/``range`` in feet;
    ``aim``: Aim stacks held (ranged only, 0-8, NM2); ``ap``: None when the
    attack lists no AP (NA5); ``breakage``: None when it cannot break (NR6);
    ``parry_mod``/``dodge_mod``: NR5/NR7 modifiers; ``broken``: NR6 broke it
    (recorded only; a broken weapon still attacks and rolls breakage);
    ``can_dismember`` (NK11) and ``location`` (the location its attacks name,
    NK4) are the attack's flags."""

    name: str
    kind: str
    damage: tuple[Component, ...]
    stat: str | None = None
    to_hit: int = 0
    proficient: bool = False
    heavy: bool = False
    light: bool = False
    unarmed: bool = False
    reach: int | None = None
    range: int | None = None
    parry_mod: int = 0
    dodge_mod: int = 0
    breakage: int | None = None
    ap: int | None = None
    modifiers: tuple[ModEntry, ...] = ()
    parryable: bool = True
    dodgeable: bool = True
    guardable: bool = True
    ignores_thp: bool = False
    aim: int = 0
    broken: bool = False
    can_dismember: bool = False
    location: str | None = None
    #: NH6: ``ac`` (AC-based) or ``sc`` (SC-based, an Etherhack); ``ep``: its
    #: Ether Piercing (NA7, ``basis: sc`` only).
    basis: str = "ac"
    ep: int = 0


@dataclass(frozen=True, slots=True)
class ArmorType:
    """An armor's entry for one damage type: Vulnerability ``level`` 1-5 and
    its ``res`` in percent points (NA1, NA3)."""

    level: int
    res: int


@dataclass(frozen=True, slots=True)
class Armor:
    """Worn armor (NV2): current ``pc``, ``pc_max``, and per damage type its
    level and RES (categories already expanded)."""

    pc: int
    pc_max: int
    types: Mapping[str, ArmorType] = field(default_factory=dict)
    name: str = "armor"


@dataclass(frozen=True, slots=True)
class Charges:
    """Defensive charges held (NR3)."""

    parry: int = 0
    dodge: int = 0
    guard: int = 0

    def of(self, kind: str) -> int:
        """The count held of ``kind`` (``parry``, ``dodge`` or ``guard``)."""
        return {"parry": self.parry, "dodge": self.dodge, "guard": self.guard}[kind]


@dataclass(frozen=True, slots=True)
class Hidden:
    """A hidden creature (NT9): its Stealth ``stealth`` total and the ids of
    the enemies that have found it."""

    stealth: int
    found_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class KoWindow:
    """NK3: the final damage (HP) summed in the open KO damage window, and
    whether that window has given its stack."""

    damage: int = 0
    stacked: bool = False


@dataclass(frozen=True, slots=True)
class SecondChances:
    """NK10: the party's Second Chance pool (``pool`` of ``max``)."""

    max: int
    pool: int


#: Injury stat penalties by stacks 0-9 (NK8), VII-VIII per ``injury_penalty_vii_viii``.
_INJURY_PENALTY = (0, 0, 0, -2, -3, -5, -8, None, None, None)


def injury_penalty(injury: int, options: Options = DEFAULTS) -> int:
    """NK8: the stat penalty of ``injury`` stacks (0, 0, 0, -2, -3, -5, -8,
    then ``injury_penalty_vii_viii`` at VII and up, -8 by default)."""
    value = _INJURY_PENALTY[min(max(injury, 0), 9)]
    return options.number("injury_penalty_vii_viii") if value is None else value


def defense_penalty_note(c: Creature, stat: str, options: Options = DEFAULTS) -> str | None:
    """NK8's part in ``c``'s AC (``stat`` DEX, NS4) or SC (WIS, NS5): the text
    of a derivation step, or None when Injury gives no penalty. Under
    ``injury_penalty_scope: rolls_only`` the text says the penalty stays out."""
    if c.injury < 3:
        return None
    penalty = injury_penalty(c.injury, options)
    if options.is_("injury_penalty_scope", "rolls_only"):
        return (f"{c.id}'s Injury {c.injury} penalty {penalty} stays out of {stat} "
                "for AC and SC (injury_penalty_scope: rolls_only)")
    return (f"{c.id}'s {stat} {c.stats.get(stat, 0)} with Injury {c.injury}'s "
            f"penalty {penalty}: {c.stat(stat, options)}")


@dataclass(frozen=True, slots=True)
class Creature:
    """A combatant (NV1), the fields the attack rules read. ``equipped``: the
    wielded weapon, ``None`` when unarmed (then ``unarmed`` is the unarmed
    strike, whose Parry modifier NR5 reads); ``conditions``: names held,
    ``condition_records`` the state's condition objects (NV5 views); ``up``:
    the Ultimate Points held (NU1)."""

    id: str
    hp: int
    max_hp: int
    kind: str = "enemy"
    stats: Mapping[str, int] = field(default_factory=dict)
    stat_bonuses: Mapping[str, int] = field(default_factory=dict)
    prof: int = 0
    proficient_saves: frozenset[str] = frozenset()
    proficient_skills: frozenset[str] = frozenset()
    passive_perception: int | None = None
    crr: int = 0
    far: int = 0
    ac_bonus: int = 0
    ac_cap: int = 30
    thp: int = 0
    thp_source: str | None = None
    thp_granted: int | None = None
    injury: int = 0
    ko: bool = False
    dead: bool = False
    modifiers: tuple[ModEntry, ...] = ()
    charges: Charges = Charges()
    dodge_spent: bool = False
    armor: Armor | None = None
    equipped: Weapon | None = None
    unarmed: Weapon | None = None
    conditions: tuple[str, ...] = ()
    hidden: Hidden | None = None
    injury_track: bool | None = None
    hit_die: int | None = None
    stabilized: bool = False
    critical_timer: int | None = None
    locations: tuple[str, ...] = ()
    ko_window: KoWindow = KoWindow()
    beheading_exception: bool = False
    #: NL1: the true max HP, ``None`` when it equals ``max_hp`` (the modified max).
    true_max_hp: int | None = None
    #: NS5: the INPUT bonus to SC.
    sc_bonus: int = 0
    up: int = 0
    condition_records: tuple[Mapping[str, object], ...] = ()

    @property
    def on_track(self) -> bool:
        """NK1: on the injury track (``injury_track``; default: players only)."""
        return self.kind == "player" if self.injury_track is None else self.injury_track

    def stat(self, name: str, options: Options = DEFAULTS) -> int:
        """NS1: the effective stat = base + Injury penalty (NK8, under
        ``injury_penalty_scope: all_stats``, the default) + bonuses."""
        penalty = injury_penalty(self.injury, options)
        return self.stats.get(name, 0) + penalty + self.stat_bonuses.get(name, 0)

    def ac(self, options: Options = DEFAULTS) -> int:
        """NS4: AC = min(ac_cap, 10 + DEX + ac_bonus); under
        ``injury_penalty_scope: rolls_only`` the Injury penalty stays out."""
        dex = (self.stats.get("DEX", 0) + self.stat_bonuses.get("DEX", 0)
               if options.is_("injury_penalty_scope", "rolls_only")
               else self.stat("DEX", options))
        return min(self.ac_cap, 10 + dex + self.ac_bonus)

    def sc(self, options: Options = DEFAULTS) -> int:
        """NS5: SC = 10 + WIS + sc_bonus, no cap; under ``injury_penalty_scope:
        rolls_only`` the Injury penalty (NK8) stays out."""
        wis = (self.stats.get("WIS", 0) + self.stat_bonuses.get("WIS", 0)
               if options.is_("injury_penalty_scope", "rolls_only")
               else self.stat("WIS", options))
        return 10 + wis + self.sc_bonus

    def passive(self, options: Options = DEFAULTS) -> int:
        """NT9: passive Perception, else 10 + WIS + PROF if proficient."""
        if self.passive_perception is not None:
            return self.passive_perception
        prof = self.prof if "perception" in self.proficient_skills else 0
        return 10 + self.stat("WIS", options) + prof

    @property
    def parry_weapon(self) -> Weapon | None:
        """The weapon a Parry roll uses: the equipped one, else the unarmed strike (NR5)."""
        return self.equipped if self.equipped is not None else self.unarmed


@dataclass(frozen=True, slots=True)
class Cover:
    """Cover (NV3 ``cover``): exactly one of ``p`` (percent of the silhouette
    hidden, 0-100) and ``cc`` (0-10), and ``cdm`` (exact 0-1, NC4)."""

    p: int | None = None
    cc: int | None = None
    cdm: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class AttackSpec:
    """One AC-based attack roll against one target (NV3 ``attack``).

    ``map``/``distance`` (feet)/``band``: NH4, NH5, NT13; ``bonuses``: NH1's
    other bonuses (points); ``modifiers``: this attack's entries (outgoing
    join the attacker, incoming the target); ``melee_aim``: a melee Aim mark
    (or ``take_melee_aim``) on this target; ``helped``: a pending Help on the
    attacker (NT8); ``defense``/``parry_stat``: the target's choices (NR4,
    NR5); ``categories``: category -> member types (ND1);
    ``restricting``: conditions with ``restricts_movement`` (NM6);
    ``new_window``: every KO
    damage window restarts first (NK3); ``second_chances``: the party's pool
    when Second Chances are on (NK10)."""

    attacker: Creature
    target: Creature
    weapon: Weapon
    map: bool = False
    distance: int | None = None
    band: str | None = None
    advantage: bool = False
    disadvantage: bool = False
    bonuses: tuple[int, ...] = ()
    cover: Cover | None = None
    modifiers: tuple[ModEntry, ...] = ()
    melee_aim: bool = False
    helped: bool = False
    defense: str | None = None
    parry_stat: str | None = None
    categories: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    restricting: frozenset[str] = RESTRICTING
    new_window: bool = False
    second_chances: SecondChances | None = None

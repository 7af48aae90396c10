"""One DC-based effect against one or more targets: NO2 (with NC5, NR9).

Order (NO2), faces consumed in this order:

1. legality before any die: relying on cover only against a ranged effect
   resolved by a DEX save (else ``cover_not_allowed``, NC5);
2. the damage dice, rolled once for all targets (``aoe_damage_roll:
   per_target``: each target's dice just before its save);
3. per target, in listed order: it relies on cover (damage × (1 - (CC/10) ×
   (1 - cdm)), NC5; ``overpen_dc_divisor: 5`` with cdm > 0: 1 - CC/5 +
   cdm × CC/5, at least 0), or it saves: one d20, or two with the advantage
   of a charge matching the save's stat (Parry STR, Dodge DEX, Guard CON,
   spent, NR9); total = d20 + effective stat + PROF if proficient in that
   save + bonuses; success iff total >= DC (NS2; ``dc_rule: exceed``: >);
   on a success the damage is halved, dropped or kept (``on_success``);
4. ND on the normal pool (no armor, NA1; ``dc_attacks_armor: res_only``: the
   armor's RES for listed types joins as RES entries), the charge factor 4/5
   on a save failed while holding a charge (NR9, NR10), floor (ND8), THP then
   HP (NL2), KO and damage while KO (NK1, NK3).

Damage is exact until the floor; HP are integers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.options import OptionValue

from .armor import cover_class
from .damage import ComponentRoll, roll_components
from .exact import Exact, exact, exact_text
from .hitting import D20Face, roll_d20
from .injury import InjuryEvent, Track, after_damage
from .model import Component, Cover, Creature, Refusal, SecondChances
from .modifiers import ModEntry, ModifiersResult, PoolResult, expand_categories, resolve_modifiers
from .options import Options

#: The charge that answers a save of each stat (NR9).
SAVE_CHARGE = {"STR": "parry", "DEX": "dodge", "CON": "guard"}
#: The damage kept on a successful save (NO2 ``on_success``).
ON_SUCCESS = {"half": Fraction(1, 2), "none": Fraction(0), "full": Fraction(1)}


@dataclass(frozen=True, slots=True)
class EffectTarget:
    """One target of an effect (NV3 ``targets`` item): the creature, whether
    it relies on cover (with its ``cover``), its roll keys and its own
    modifier entries."""

    creature: Creature
    relies_on_cover: bool = False
    cover: Cover | None = None
    advantage: bool = False
    disadvantage: bool = False
    bonuses: tuple[int, ...] = ()
    modifiers: tuple[ModEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class EffectSpec:
    """A DC-based effect (NV3 ``dc_effect``): the DC (already worked out,
    NS6), the save's stat, what a success keeps (``half``, ``none``,
    ``full``), the damage components, the targets in dice order, the source
    (its outgoing entries join) and the effect's own entries and flags."""

    dc: int
    save: str
    on_success: str
    damage: tuple[Component, ...]
    targets: tuple[EffectTarget, ...]
    source: Creature | None = None
    ranged: bool = False
    modifiers: tuple[ModEntry, ...] = ()
    ignores_thp: bool = False
    location: str | None = None
    new_window: bool = False
    categories: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    second_chances: SecondChances | None = None
    dc_text: str | None = None


@dataclass(frozen=True, slots=True)
class SaveRoll:
    """A target's save (NS2, NR9): d20 faces, the kept natural, the total,
    success, and the charge spent for its advantage (or ``None``)."""

    faces: tuple[D20Face, ...]
    natural: int
    total: int
    success: bool
    charge: str | None


@dataclass(frozen=True, slots=True)
class TargetRecord:
    """NV5 ``targets`` item of a ``dc_effect`` result."""

    target: str
    relied_on_cover: bool
    cover_factor: Exact
    save: SaveRoll | None
    save_factor: Exact
    pools: Mapping[str, PoolResult]
    charge_factor: Exact
    exact: Exact
    damage: int
    thp_absorbed: int
    hp_lost: int
    injury_events: tuple[InjuryEvent, ...]


@dataclass(frozen=True, slots=True)
class EffectOutcome:
    """Everything NO2 produced: the records, the creatures before and after
    (targets in order), events per id, the derivation and the options."""

    dc: int
    damage_rolls: tuple[tuple[ComponentRoll, ...], ...]
    targets: tuple[TargetRecord, ...]
    before: tuple[Creature, ...]
    after: tuple[Creature, ...]
    events: Mapping[str, tuple[str, ...]]
    steps: tuple[Step, ...]
    options: Mapping[str, OptionValue]
    second_chances: SecondChances | None


def check_effect(spec: EffectSpec) -> None:
    """NO2's legality, before any die: relying on cover is only for a ranged
    effect resolved by a DEX save (``cover_not_allowed``, NC5)."""
    for t in spec.targets:
        if t.relies_on_cover and not (spec.ranged and spec.save == "DEX"):
            raise Refusal("cover_not_allowed", "NC5",
                          f"{t.creature.id} may rely on cover only against a ranged DEX-save "
                          "effect")


def cover_factor(cover: Cover, options: Options, log: Derivation) -> Fraction:
    """NC5: the share of the damage a target relying on ``cover`` takes."""
    cc = cover_class(cover, options)
    cdm = Fraction(cover.cdm)
    if cdm > 0 and options.number("overpen_dc_divisor") == 5:
        factor = max(Fraction(0), 1 - Fraction(cc, 5) + cdm * Fraction(cc, 5))
    else:
        factor = 1 - Fraction(cc, 10) * (1 - cdm)
    log.note("NC5", f"relies on cover: CC {cc}, cdm {exact_text(cdm)}: x{exact_text(factor)}")
    return factor


def save_roll(c: Creature, stat: str, dc: int, target: EffectTarget, dice: DiceSource,
              options: Options, log: Derivation) -> tuple[SaveRoll, Creature]:
    """NS2 with NR9: the save of ``c`` against ``dc``; returns the roll and
    the creature (a matching charge spent)."""
    kind = SAVE_CHARGE.get(stat)
    charge = kind if kind is not None and c.charges.of(kind) > 0 else None
    if charge is not None:
        c = replace(c, charges=replace(c.charges, **{charge: c.charges.of(charge) - 1}))
        log.note("NR9", f"{c.id} spends a {charge.capitalize()} charge: the save has advantage")
    faces = roll_d20(dice, target.advantage or charge is not None, target.disadvantage)
    natural = next(f.face for f in faces if f.kept)
    prof = c.prof if stat in c.proficient_saves else 0
    total = natural + c.stat(stat, options) + prof + sum(target.bonuses)
    success = total > dc if options.is_("dc_rule", "exceed") else total >= dc
    if options.is_("far_scope", "all_d20") and natural <= 1 + c.far:
        success = False
    log.note("NS2", f"{c.id}'s {stat} save {total} against DC {dc}: "
             + ("success" if success else "failure"))
    return SaveRoll(faces, natural, total, success, charge), c


@dataclass
class _Run:
    spec: EffectSpec
    dice: DiceSource
    options: Options
    log: Derivation = field(default_factory=Derivation)
    events: dict[str, list[str]] = field(default_factory=dict)
    chances: SecondChances | None = None

    def event(self, cid: str, text: str) -> None:
        self.events.setdefault(cid, []).append(text)


def resolve_effect(spec: EffectSpec, dice: DiceSource, options: Options) -> EffectOutcome:
    """NO2 for ``spec`` with faces from ``dice`` (see the module docstring).
    Raises :class:`~.model.Refusal` (exit 4) before any die."""
    check_effect(spec)
    run = _Run(spec, dice, options, chances=spec.second_chances)
    if spec.dc_text is not None:
        run.log.note("NS6", f"the effect's DC: {spec.dc_text}")
    run.log.note("NO2", f"DC {spec.dc} {spec.save} save; {len(spec.targets)} target(s)")
    shared = options.is_("aoe_damage_roll", "shared")
    rolls_shared = _roll(run) if shared else ()
    all_rolls: list[tuple[ComponentRoll, ...]] = [rolls_shared] if shared else []
    records, after = [], []
    for t in spec.targets:
        rolls = rolls_shared if shared else _roll(run)
        if not shared:
            all_rolls.append(rolls)
        record, creature = _one_target(run, t, rolls)
        records.append(record)
        after.append(creature)
    return EffectOutcome(spec.dc, tuple(all_rolls), tuple(records),
                         tuple(t.creature for t in spec.targets), tuple(after),
                         {k: tuple(v) for k, v in run.events.items()}, tuple(run.log.steps),
                         options.non_default(), run.chances)


def _roll(run: _Run) -> tuple[ComponentRoll, ...]:
    """NO2 step 1: the damage dice of every component, in listed order."""
    steps = Derivation()
    rolls = roll_components(run.spec.damage, 0, {}, run.dice, log=steps)
    for s in steps.steps:
        run.log.note("NO2", s.text)
    return rolls


def _one_target(run: _Run, t: EffectTarget, rolls: tuple[ComponentRoll, ...]
                ) -> tuple[TargetRecord, Creature]:
    """NO2 steps 2-3 for one target."""
    spec, options, log = run.spec, run.options, run.log
    c = t.creature
    log.prefix = f"{c.id}: "
    cov, save, keep, charge_factor = Fraction(1), None, Fraction(1), Fraction(1)
    if t.relies_on_cover:
        if t.cover is None:
            raise Refusal("cover_not_allowed", "NC5", f"{c.id} relies on cover but has none")
        cov = cover_factor(t.cover, options, log)
    else:
        save, c = save_roll(c, spec.save, spec.dc, t, run.dice, options, log)
        if save.charge is not None:
            run.event(c.id, f"charge:{save.charge}")
        if save.success:
            keep = ON_SUCCESS[spec.on_success]
            log.note("NO2", f"success: {spec.on_success} damage (x{exact_text(keep)})")
        elif save.charge is not None:
            charge_factor = Fraction(4, 5)
            log.note("NR9", "failed while holding a charge: x4/5")
    raw: dict[str, Fraction] = {}
    for r in rolls:
        raw[r.type] = raw.get(r.type, Fraction(0)) + Fraction(r.raw) * cov * keep
    result = _modifiers(run, c, t, raw, charge_factor)
    before = c
    c, absorbed, lost = _apply(run, c, result.damage)
    track = Track(c, run.chances, [])
    after_damage(track, was_ko=before.ko, hp_before=before.hp, damage=result.damage,
                 absorbed=absorbed, dice=run.dice, location=spec.location,
                 new_window=spec.new_window, options=options, log=log)
    run.chances = track.chances
    for e in track.events:
        run.event(c.id, "second_chance" if e.absorbed else f"injury:{e.injury_after}")
        if e.location and not e.absorbed:
            run.event(c.id, f"location:{e.location}")
        if e.dead:
            run.event(c.id, "dead")
    log.prefix = ""
    record = TargetRecord(c.id, t.relies_on_cover, exact(cov), save, exact(keep),
                          result.pools, result.charge_factor, result.exact, result.damage,
                          absorbed, lost, tuple(track.events))
    return record, track.creature


def _modifiers(run: _Run, c: Creature, t: EffectTarget, raw: dict[str, Fraction],
               charge_factor: Fraction) -> ModifiersResult:
    """NO2 step 3's ND (normal pool only: no armor step, NA1)."""
    spec, options = run.spec, run.options
    source = spec.source.modifiers if spec.source is not None else ()
    entries = [*(e for e in source if e.side == "outgoing"), *spec.modifiers,
               *(e for e in c.modifiers if e.side == "incoming"), *t.modifiers]
    entries = list(expand_categories(entries, spec.categories))
    if c.armor is not None and options.is_("dc_attacks_armor", "res_only"):
        entries += [ModEntry("RES", a.res, dtype, armor=True)
                    for dtype, a in c.armor.types.items() if dtype in raw]
        run.log.note("NA1", "the armor's RES joins (dc_attacks_armor: res_only)")
    else:
        run.log.note("NA1", "a DC-based effect has no armor step")
    types = list(dict.fromkeys(comp.type for comp in spec.damage))
    return resolve_modifiers(raw, entries, charge_factor=charge_factor, options=options,
                             attack_types=types, log=run.log)


def _apply(run: _Run, c: Creature, damage: int) -> tuple[Creature, int, int]:
    """NL2: THP first (unless the effect ignores THP), then HP, never below 0;
    HP reaching 0 from above sets KO."""
    absorbed = 0 if run.spec.ignores_thp else min(c.thp, damage)
    lost = min(c.hp, damage - absorbed)
    thp, hp = c.thp - absorbed, c.hp - lost
    ko = c.ko or (hp == 0 and c.hp > 0)
    run.log.note("NL2", f"THP {c.thp} -> {thp}, HP {c.hp} -> {hp}")
    if ko and not c.ko:
        run.event(c.id, "ko")
    return replace(c, thp=thp, thp_source=c.thp_source if thp else None,
                   thp_granted=c.thp_granted if thp else None, hp=hp, ko=ko), \
        absorbed, lost

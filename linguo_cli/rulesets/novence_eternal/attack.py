"""One AC-based attack roll against one target: the NO1 pipeline.

1. legality (NK12, NK1, NH4/NH5/NT13, NT9, NM6), refusing with
   :class:`~.model.Refusal` before any die;
2. the charge spent at declaration (NR4), noting a held Dodge (NM4);
3. advantage and disadvantage (NS3: range band, Help, inputs);
4-7. to-hit, Aim floor, crits, landing, bonus crit die, THR (:mod:`.hitting`);
8. the defense roll and breakage (:mod:`.defense`);
9-10. cover and armor (:mod:`.armor`);
11. damage dice with one extra set per crit (:mod:`.damage`);
12. ND per pool, the charge factor, floor (:mod:`.modifiers`);
13. THP then HP (NL2), KO (NK1), melee Aim effects (NM6).

13 continues in :mod:`.injury`: Injury stacks with location rolls (NK1,
NK3-NK5), damage while KO and dismemberment (NK11); ``ko_target`` (NK14)
is read at steps 3 and 5. Dice come from the injected
:class:`~linguo_cli.core.dice.DiceSource` in NO1's order; the outcome lists
the faces used (``rolls_used``). HP are integers; damage is exact until the
single floor of ND8.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from linguo_cli.core.derivation import Derivation, Step
from linguo_cli.core.dice import DiceSource
from linguo_cli.core.options import OptionValue

from .armor import ArmorResult, CoverResult, resolve_armor, resolve_cover
from .damage import ComponentRoll, roll_components, split_pools
from .defense import BreakageRoll, DefenseResult, answering_charge, defense_roll
from .exact import Exact, exact
from .hitting import ToHit, aim_effective, band_effect, min_thr, range_band, resolve_to_hit
from .injury import Dismemberment, InjuryEvent, Track, after_damage, dismember
from .model import (
    AttackSpec,
    Charges,
    Creature,
    Refusal,
    SecondChances,
    defense_penalty_note,
)
from .modifiers import (
    ModEntry,
    ModifiersResult,
    PoolResult,
    ap_pool_entries,
    expand_categories,
    final_damage,
    note_entries,
    pool_entries,
    resolve_pool,
)
from .options import DEFAULTS, Options

_ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class Bleed:
    """Melee Aim's Bleed (NM6): ``stacks``, and the exact ``value`` of the one
    stack (None under ``bleed_form: n_stacks``)."""

    stacks: int
    value: Exact | None


@dataclass(frozen=True, slots=True)
class MeleeAimEffects:
    """NV5 ``melee_aim``: the Bleed gained (or None), whether a Stagger stack
    was gained, and whether a piercing component skipped the PC test."""

    bleed: Bleed | None
    staggered: bool
    piercing: bool


@dataclass(frozen=True, slots=True)
class AttackRecord:
    """NV5 ``attack``: every field of one attack roll (see RULINGS NV5).
    ``exact`` and ``damage`` are HP (0 when nothing got through);
    ``thp_absorbed`` and ``hp_lost`` are HP."""

    attacker: str
    target: str
    weapon: str
    basis: str
    band: str | None
    advantage: bool
    disadvantage: bool
    charge: str | None
    faces: tuple[object, ...]
    natural: int | None
    aim_stacks: int
    aim_effective: int
    floor: int | None
    effective_die: int | None
    total: int | None
    against: int
    auto_crits: int
    residual: int
    bonus_die: int | None
    crit_fail: bool
    crits: int
    landed: bool
    thr: int | None
    defense: DefenseResult | None
    breakage: tuple[BreakageRoll, ...]
    cover: CoverResult | None
    armor: ArmorResult | None
    components: tuple[ComponentRoll, ...]
    pools: Mapping[str, PoolResult] | None
    charge_factor: Exact
    exact: Exact
    damage: int
    thp_absorbed: int
    hp_lost: int
    injury_events: tuple[InjuryEvent, ...]
    melee_aim: MeleeAimEffects | None
    dismember: Dismemberment | None


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """The resolved attack: its ``record``, the ``attacker`` and ``target``
    after it, the ``events`` per creature id (NV5 event strings), the
    derivation ``steps`` (``rules`` in first-use order), the non-default
    ``options`` and the faces used (``rolls_used``)."""

    record: AttackRecord
    attacker: Creature
    target: Creature
    events: Mapping[str, tuple[str, ...]]
    steps: tuple[Step, ...]
    rules: tuple[str, ...]
    options: Mapping[str, OptionValue]
    rolls_used: tuple[int, ...]
    second_chances: SecondChances | None = None


def check_legal(spec: AttackSpec, options: Options = DEFAULTS,
                log: Derivation | None = None) -> tuple[str | None, bool, bool]:
    """NO1 step 1, in order: the attacker can act (``actor_dead`` NK12,
    ``actor_ko`` NK1); reach or range band (``out_of_reach`` NH4,
    ``out_of_range`` NH5; no map: medium, NT13); a hidden target
    (``target_hidden`` NT9: only an enemy whose passive Perception exceeds
    the Stealth total, or that found it, may target it); melee Aim on a
    target whose movement is not restricted (``target_not_restricted`` NM6).
    Returns ``(band, advantage, disadvantage)`` from the band; ``band`` is
    None for melee or without a map."""
    a, t, w = spec.attacker, spec.target, spec.weapon
    if a.dead:
        raise Refusal("actor_dead", "NK12", f"{a.id} is dead")
    if a.ko:
        raise Refusal("actor_ko", "NK1", f"{a.id} is knocked out")
    band, adv, dis = _band(spec, options, log if log is not None else Derivation())
    if t.hidden is not None and a.id not in t.hidden.found_by and (
            a.passive(options) <= t.hidden.stealth):
        raise Refusal("target_hidden", "NT9", f"{t.id} is hidden from {a.id}")
    if t.hidden is not None and log is not None:
        log.note("NT9", f"{t.id} is hidden, but {a.id} has found it")
    if spec.melee_aim and w.kind == "melee":
        restricted = set(t.conditions) & spec.restricting
        if not restricted:
            raise Refusal("target_not_restricted", "NM6", f"{t.id}'s movement is not restricted")
        if log is not None:
            log.note("NM6", f"melee Aim: {t.id} is restricted ({', '.join(sorted(restricted))})")
    return band, adv, dis


def _band(spec: AttackSpec, options: Options,
          log: Derivation) -> tuple[str | None, bool, bool]:
    w = spec.weapon
    if not spec.map:
        if w.kind == "ranged":
            log.note("NT13", "no map: every combatant is in range")
            log.note("NH5", "no map: the medium band, no advantage or disadvantage")
        return None, False, False
    band = spec.band
    if band is None and spec.distance is not None:
        if w.kind == "melee":
            band = "reach" if spec.distance <= (w.reach or 0) else "out"
        else:
            band = range_band(spec.distance, w.range or 0, options)
    band = band or ("reach" if w.kind == "melee" else "medium")
    adv, dis = band_effect(w.kind, band, options)
    log.note("NH4" if w.kind == "melee" else "NH5", f"band {band}")
    return (None if w.kind == "melee" else band), adv, dis


def _to_hit_bonus(spec: AttackSpec, options: Options) -> int:
    """NH1: the weapon's to-hit + its ability stat + PROF if proficient + bonuses."""
    a, w = spec.attacker, spec.weapon
    stat = a.stat(w.stat, options) if w.stat else 0
    return w.to_hit + stat + (a.prof if w.proficient else 0) + sum(spec.bonuses)


def _spend(charges: Charges, kind: str) -> Charges:
    return replace(charges, **{kind: charges.of(kind) - 1})


@dataclass
class _Run:
    """The working state of one resolution (mutable inside the engine only)."""

    spec: AttackSpec
    options: Options
    dice: DiceSource
    log: Derivation
    target: Creature
    attacker: Creature
    events: dict[str, list[str]]
    chances: SecondChances | None = None
    #: False for an SC-based attack under ``sc_attacks_physical_steps: skip``
    #: and for an SC-based roll that did not land: no cover, no armor (NH6).
    physical: bool = True
    #: NA7: the EP share of an SC-based roll that did not land (1 otherwise).
    ep_factor: Fraction = Fraction(1)

    def event(self, who: str, text: str) -> None:
        self.events.setdefault(who, []).append(text)


def resolve_attack(spec: AttackSpec, dice: DiceSource,
                   options: Options = DEFAULTS) -> AttackOutcome:
    """Resolve one AC-based attack (NO1) with faces from ``dice``.

    Raises :class:`~.model.Refusal` (exit 4) before any die for an illegal
    attack; the dice source raises ``DiceError`` when its faces run out."""
    start = len(dice.used)
    run = _Run(spec, options, dice, Derivation(), spec.target, spec.attacker, {},
               spec.second_chances)
    run.log.note("NO1", f"{spec.attacker.id} attacks {spec.target.id} with {spec.weapon.name}")
    band, r_adv, r_dis = check_legal(spec, options, run.log)
    w, t = spec.weapon, spec.target
    end_hiding(run)
    charge = answering_charge(t, w, spec.defense)
    dodge_held = t.charges.dodge > 0
    if charge is not None and options.is_("charge_consumed", "on_target"):
        _spend_charge(run, charge)
    adv, dis, unconscious = declared_advantage(run, r_adv, r_dis)
    stacks = w.aim if w.kind == "ranged" else 0
    s_eff = aim_effective(stacks, dodge_held, t.dodge_spent, options)
    if stacks and (dodge_held or t.dodge_spent):
        run.log.note("NM4", f"{stacks} Aim stacks count as {s_eff} against {t.id}'s Dodge")
    ac = t.ac(options)
    if (penalty := defense_penalty_note(t, "DEX", options)) is not None:
        run.log.note("NK8", penalty)
    run.log.note("NS4", f"{t.id}'s AC = min(ac_cap {t.ac_cap}, 10 + DEX + ac_bonus "
                        f"{t.ac_bonus}) = {ac}")
    hit = resolve_to_hit(dice, advantage=adv, disadvantage=dis,
                         bonus=_to_hit_bonus(spec, options), ac=ac,
                         crr=spec.attacker.crr, far=spec.attacker.far, aim_stacks=stacks,
                         s_eff=s_eff, options=options, log=run.log)
    hit = ko_target_crit(run, hit, unconscious)
    if stacks:
        run.log.note("NM2", f"the attack spends the {stacks} Aim stacks of {w.name}")
        run.event(spec.attacker.id, f"aim_spent:{w.name}")
    if charge is not None and options.is_("charge_consumed", "on_landed"):
        if hit.landed:
            _spend_charge(run, charge)
        else:
            run.log.note("NR4", f"the miss spends no {charge} charge (charge_consumed: on_landed)")
    record = _after_landing(run, hit, band, adv, dis,
                            charge if run.target.charges != t.charges else None)
    return _outcome(run, record, start)


def end_hiding(run: _Run) -> None:
    """NT9: an attacker that attacks while hidden stops hiding
    (``hide_ends: on_attack``)."""
    a = run.spec.attacker
    if a.hidden is not None and run.options.is_("hide_ends", "on_attack"):
        run.attacker = replace(run.attacker, hidden=None)
        run.log.note("NT9", f"{a.id} attacks: its hiding ends")
        run.event(a.id, "hidden_ends")
    elif a.hidden is not None:
        run.log.note("NT9", f"{a.id} attacks and stays hidden (hide_ends)")


def ko_target_crit(run: _Run, hit: ToHit, unconscious: bool) -> ToHit:
    """NK14 under ``ko_target: dnd5e_unconscious``: a landed hit from
    within 5 ft on a KO target is a crit."""
    spec = run.spec
    if unconscious and hit.landed and hit.crits == 0 and spec.map and (
            spec.distance is not None and spec.distance <= 5):
        run.log.note("NK14", "a hit from within 5 ft on a KO target is a crit")
        return replace(hit, crits=1)
    return hit


def declared_advantage(run: _Run, r_adv: bool, r_dis: bool) -> tuple[bool, bool, bool]:
    """NO1 step 3 (NO6 step 2): advantage and disadvantage from the range
    band (``r_adv``, ``r_dis``), a pending Help (spent now, NT8), a KO
    target under ``ko_target: dnd5e_unconscious`` (NK14) and the inputs
    (NS3). Returns ``(advantage, disadvantage, unconscious)``."""
    spec, t = run.spec, run.spec.target
    unconscious = t.ko and run.options.is_("ko_target", "dnd5e_unconscious")
    if t.ko:
        run.log.note("NK14", f"{t.id} is KO: " + ("the attack has advantage (ko_target)"
                                                  if unconscious else "no automatic advantage"))
    if spec.helped:
        run.log.note("NT8", "the Help gives advantage and is spent")
        run.event(spec.attacker.id, "help_spent")
    return (r_adv or spec.advantage or spec.helped or unconscious,
            r_dis or spec.disadvantage, unconscious)


def _spend_charge(run: _Run, kind: str) -> None:
    run.target = replace(run.target, charges=_spend(run.target.charges, kind))
    run.log.note("NR4", f"{run.target.id} spends a {kind} charge")
    run.event(run.target.id, f"charge:{kind}")


def _outcome(run: _Run, record: AttackRecord, start: int) -> AttackOutcome:
    w = run.spec.weapon
    attacker = run.attacker
    if w.kind == "ranged" and w.aim and attacker.equipped == w:
        attacker = replace(attacker, equipped=replace(w, aim=0))
    steps = tuple(run.log.steps)
    return AttackOutcome(record, attacker, run.target,
                         {k: tuple(v) for k, v in run.events.items()}, steps, run.log.rules,
                         run.options.non_default(), tuple(run.dice.used[start:]), run.chances)


def _empty(run: _Run, hit: ToHit, band: str | None, adv: bool, dis: bool,
           charge: str | None) -> AttackRecord:
    w = run.spec.weapon
    return AttackRecord(
        run.spec.attacker.id, run.spec.target.id, w.name, w.basis, band, adv, dis, charge,
        tuple(hit.faces), hit.natural, hit.aim_stacks, hit.aim_effective, hit.floor,
        hit.effective_die, hit.total, hit.against, hit.auto_crits, hit.residual,
        hit.bonus_die, hit.crit_fail, hit.crits, hit.landed, hit.thr, None, (), None, None,
        (), None, exact(1), exact(0), 0, 0, 0, (), None, None)


def _after_landing(run: _Run, hit: ToHit, band: str | None, adv: bool, dis: bool,
                   charge: str | None) -> AttackRecord:
    """NO1 steps 8-13 for a landed attack (a miss stops at step 5)."""
    record = _empty(run, hit, band, adv, dis, charge)
    if not hit.landed or hit.thr is None:
        return record
    spec, options = run.spec, run.options
    charge_factor = Fraction(1)
    if charge is not None:
        defense, breakage = defense_roll(run.dice, charge, spec.target, hit.total, spec.weapon,
                                         parry_stat=spec.parry_stat, options=options,
                                         log=run.log)
        _record_breakage(run, breakage)
        record = replace(record, defense=defense, breakage=breakage)
        charge_factor = Fraction(defense.factor)
        if defense.result in ("parried", "dodged"):
            return record
    minimum = min_thr(hit.aim_effective, options)
    cover = resolve_cover(spec.cover, spec.weapon.kind == "ranged", hit.thr, minimum,
                          options, run.log) if run.physical else None
    record = replace(record, cover=cover)
    if cover is not None and cover.stops:
        return record
    return _armor_and_damage(run, record, hit, cover, minimum, charge_factor)


def _record_breakage(run: _Run, breakage: tuple[BreakageRoll, ...]) -> None:
    for b in breakage:
        if not b.broken:
            continue
        who = run.spec.attacker.id if b.side == "attacker" else run.target.id
        run.event(who, f"weapon_broken:{b.weapon}")
        if b.side == "defender" and run.target.equipped is not None:
            run.target = replace(run.target, equipped=replace(run.target.equipped, broken=True))
        elif b.side == "attacker" and run.attacker.equipped is not None:
            run.attacker = replace(run.attacker,
                                   equipped=replace(run.attacker.equipped, broken=True))


def _types(spec: AttackSpec) -> list[str]:
    return list(dict.fromkeys(c.type for c in spec.weapon.damage))


def _armor_step(run: _Run, hit: ToHit, cover: CoverResult | None,
                minimum: int | None) -> ArmorResult | None:
    """NO1 step 10, skipped for a shot on cover under ``overpen_armor: skip``."""
    spec, options = run.spec, run.options
    if not run.physical:
        return None
    if cover is not None and cover.result == "cover" and options.is_("overpen_armor", "skip"):
        run.log.note("NC4", "overpenetration skips the armor step")
        return None
    thr = hit.thr or 0
    if minimum is not None and options.is_("aim_min_thr_scope", "cover_and_armor"):
        thr = max(thr, minimum)
    piercing_aim = spec.melee_aim and spec.weapon.kind == "melee"
    armor = resolve_armor(run.target.armor, _types(spec), thr, spec.weapon.ap, run.dice,
                          piercing_aim=piercing_aim, options=options, log=run.log)
    if armor is not None and run.target.armor is not None:
        run.target = replace(run.target, armor=replace(run.target.armor, pc=armor.pc_after))
    return armor


def _armor_and_damage(run: _Run, record: AttackRecord, hit: ToHit, cover: CoverResult | None,
                      minimum: int | None, charge_factor: Fraction) -> AttackRecord:
    """NO1 steps 10-13."""
    spec, options = run.spec, run.options
    armor = _armor_step(run, hit, cover, minimum)
    shares = {t: (Fraction(a.factor), Fraction(a.ap_share))
              for t, a in (armor.types.items() if armor else ())}
    cover_factor = (Fraction(cover.factor) if cover is not None else Fraction(1)) * (
        run.ep_factor)
    combined = {t: (cover_factor * shares.get(t, (Fraction(1), _ZERO))[0],
                    cover_factor * shares.get(t, (Fraction(1), _ZERO))[1]) for t in _types(spec)}
    force = frozenset({"slashing"}) if (spec.melee_aim and spec.weapon.kind == "melee" and
                                        options.is_("melee_aim_effect_on", "landed")) else (
        frozenset())
    rolls = roll_components(spec.weapon.damage, hit.crits, combined, run.dice,
                            force_types=force, log=run.log)
    normal_raw, ap_raw = split_pools(rolls, cover_factor, shares, options, run.log)
    pools, exact_total, damage = _modifier_step(run, normal_raw, ap_raw, armor, hit.crits,
                                                charge_factor)
    before = run.target
    absorbed, lost = _apply_damage(run, damage)
    record = replace(record, armor=armor, components=rolls, pools=pools.pools,
                     charge_factor=pools.charge_factor, exact=exact_total, damage=damage,
                     thp_absorbed=absorbed, hp_lost=lost)
    track = Track(run.target, run.chances, [])
    after_damage(track, was_ko=before.ko, hp_before=before.hp, damage=damage,
                 absorbed=absorbed, dice=run.dice, location=spec.weapon.location,
                 new_window=spec.new_window, options=options, log=run.log)
    run.target = track.creature
    if spec.melee_aim and spec.weapon.kind == "melee":
        record = replace(record, melee_aim=_melee_aim(run, rolls, damage))
    track.creature = run.target
    record = replace(record, dismember=_dismember(run, track, hit, before))
    if record.dismember is not None and record.dismember.save is not None \
            and record.dismember.save.charge is not None:
        run.event(run.target.id, f"charge:{record.dismember.save.charge}")
    run.target, run.chances = track.creature, track.chances
    _injury_events(run, track.events)
    return replace(record, injury_events=tuple(track.events))


def _dismember(run: _Run, track: Track, hit: ToHit, before: Creature) -> Dismemberment | None:
    """NK11's trigger: a can_dismember attack with a crit, on a target whose
    HP (after the damage; before it under ``dismember_hp_check:
    before_damage``) is below 20% of its max: 5 × HP < max."""
    if not run.spec.weapon.can_dismember or hit.crits < 1 or track.creature.dead:
        return None
    hp = before.hp if run.options.is_("dismember_hp_check", "before_damage") else (
        track.creature.hp)
    eligible = 5 * hp < track.creature.max_hp
    run.log.note("NK11", f"5 x HP {hp} against max {track.creature.max_hp}: "
                 + ("eligible" if eligible else "not eligible"))
    return dismember(track, eligible=eligible, dice=run.dice, options=run.options, log=run.log)


def _injury_events(run: _Run, events: list[InjuryEvent]) -> None:
    """NV5 event strings for the Injury events of the target."""
    for e in events:
        who = e.creature
        if e.absorbed:
            run.event(who, "second_chance")
            continue
        if e.location:
            run.event(who, f"location:{e.location}")
        run.event(who, f"injury:{e.injury_after}")
        if e.critical_timer is not None and e.injury_after in (7, 8):
            run.event(who, f"critical_timer:{e.critical_timer}")
        if e.dead:
            run.event(who, "dead")


def _entries(run: _Run, armor: ArmorResult | None, crits: int
             ) -> tuple[list[ModEntry], list[ModEntry]]:
    """ND1 for this attack: the attacker's and weapon's outgoing entries, the
    target's incoming ones, the attack's own; the armor's RES per type that
    NA3 lets join (normal pool) or that has an AP share (AP pool, NA5)."""
    spec = run.spec
    base = [*(e for e in spec.attacker.modifiers if e.side == "outgoing"),
            *spec.weapon.modifiers,
            *(e for e in run.target.modifiers if e.side == "incoming"),
            *spec.modifiers]
    base = list(expand_categories(base, spec.categories))
    normal = list(base)
    ap = list(base)
    target_armor = run.target.armor
    for dtype, a in (armor.types.items() if armor else ()):
        res = target_armor.types[dtype].res if (
            target_armor is not None and dtype in target_armor.types) else None
        if a.res is not None:
            normal.append(ModEntry("RES", a.res, dtype, armor=True))
        if res is not None and a.ap_share > 0:
            ap.append(ModEntry("RES", res, dtype, armor=True))
    if not run.physical and target_armor is not None and run.options.is_(
            "dc_attacks_armor", "res_only"):
        normal += [ModEntry("RES", a.res, dtype, armor=True)
                   for dtype, a in target_armor.types.items() if dtype in _types(spec)]
        run.log.note("NA1", "the armor's RES joins (dc_attacks_armor: res_only)")
    return pool_entries(normal, crits=crits), pool_entries(ap, crits=crits)


def _modifier_step(run: _Run, normal_raw: dict[str, Fraction], ap_raw: dict[str, Fraction],
                   armor: ArmorResult | None, crits: int, charge_factor: Fraction
                   ) -> tuple[ModifiersResult, Exact, int]:
    """NO1 step 12: ND for each pool (ND6), times the charge factor (NR10),
    then floor (ND8). Returns (ModifiersResult, exact, damage)."""
    options = run.options
    normal_entries, ap_entries = _entries(run, armor, crits)
    note_entries(run.log, normal_entries, crits=crits, categories=bool(run.spec.categories))
    if charge_factor != 1 and options.is_("charge_reduction_as", "def_modifier"):
        run.log.note("NR10", "the charge factor enters as a DEF entry")
        charge_entry = ModEntry("DEF", int((1 - charge_factor) * 100), label="charge")
        normal_entries.append(charge_entry)
        ap_entries.append(charge_entry)
        charge_factor = Fraction(1)
    types = _types(run.spec)
    normal = resolve_pool(normal_raw, normal_entries, options, attack_types=types, log=run.log)
    ap = resolve_pool(ap_raw, ap_pool_entries(ap_entries, options), options,
                      attack_types=types, log=run.log, name="AP")
    result = final_damage(normal, ap, charge_factor, options, run.log)
    return result, result.exact, result.damage


def _apply_damage(run: _Run, damage: int) -> tuple[int, int]:
    """NL2: THP absorbs min(THP, d) unless the attack ignores THP; the rest
    lowers HP, never below 0; HP reaching 0 from above sets KO (NK1, whose
    consequences :func:`.injury.after_damage` applies).
    Returns (THP absorbed, HP lost)."""
    t = run.target
    absorbed = 0 if run.spec.weapon.ignores_thp else min(t.thp, damage)
    lost = min(t.hp, damage - absorbed)
    thp = t.thp - absorbed
    hp = t.hp - lost
    ko = t.ko or (hp == 0 and t.hp > 0)
    run.target = replace(t, thp=thp, thp_source=t.thp_source if thp else None,
                         thp_granted=t.thp_granted if thp else None, hp=hp, ko=ko)
    run.log.note("NL2", f"{t.id}: THP {t.thp} -> {thp}, HP {t.hp} -> {hp}")
    if ko and not t.ko:
        run.event(t.id, "ko")
    return absorbed, lost


def _melee_aim(run: _Run, rolls: tuple[ComponentRoll, ...], damage: int) -> MeleeAimEffects:
    """NM6: slashing gives Bleed worth half its damage roll (all crit sets
    plus static; ``bleed_basis: damage_dealt``: the final damage), as one
    stack of that exact value (``bleed_form: n_stacks``: floor of it as
    stacks); bludgeoning gives one Stagger stack; piercing skipped the PC
    test (NA6). Under ``melee_aim_effect_on: damage_dealt`` a component must
    have a factor > 0 after defense, cover and armor."""
    options = run.options
    landed = options.is_("melee_aim_effect_on", "landed")

    def counts(r: ComponentRoll) -> bool:
        return landed or r.factor + r.ap_factor > 0

    slashing = [r for r in rolls if r.type == "slashing" and counts(r)]
    bleed = None
    if slashing:
        basis = (Fraction(damage) if options.is_("bleed_basis", "damage_dealt")
                 else Fraction(sum(r.raw for r in slashing)))
        half = basis / 2
        bleed = (Bleed(int(half), None) if options.is_("bleed_form", "n_stacks")
                 else Bleed(1, exact(half)))
        run.event(run.target.id, "condition:Bleed")
    staggered = any(r.type == "bludgeoning" and counts(r) for r in rolls)
    if staggered:
        run.event(run.target.id, "condition:Staggered")
    piercing = any(r.type == "piercing" for r in rolls)
    run.log.note("NM6", f"melee Aim: bleed {bleed}, staggered {staggered}, piercing {piercing}")
    return MeleeAimEffects(bleed, staggered, piercing)

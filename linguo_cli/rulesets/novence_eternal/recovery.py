"""Hit points and the KO/Injury machine outside an attack: THP grants
(NL3), healing (NL1, NL4), the start-of-turn KO roll (NK2), stabilizing
(NK7, a Medicine check, NS2), rests (NK9, NK10) and resurrection (NK13).

Each function takes the creature as it stands and returns it changed with a
record of what happened; HP and THP are integers (hit points), Injury a
count of stacks 0-9. Dice, in the order NO7 fixes: the KO roll's d20 then
its location d10 (NK4); the Medicine d20 (two with advantage or
disadvantage, NS3); the resurrection d10. A forbidden action raises
:class:`~.model.Refusal` (exit 4) before any die.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.dice import DiceSource

from .injury import CRITICAL_TIMER, Track, gain_stack
from .model import Creature, Refusal, SecondChances
from .options import Options


def hp_text(c: Creature) -> str:
    """NL1's notation: ``current / modified max``, followed by ``| true max``
    only when the two maxima differ (``"40 / 45 | 60"``)."""
    text = f"{c.hp} / {c.max_hp}"
    if c.true_max_hp is not None and c.true_max_hp != c.max_hp:
        text += f" | {c.true_max_hp}"
    return text


@dataclass(frozen=True, slots=True)
class ThpGrant:
    """NV5 ``thp`` target: the amount ``granted``, which THP is ``kept``
    (``old`` or ``new``), THP before and after, and the source after."""

    target: str
    granted: int
    kept: str
    thp_before: int
    thp_after: int
    source_after: str | None


def grant_thp(c: Creature, amount: int, source: str, log: Derivation,
              granted: bool = False) -> tuple[Creature, ThpGrant]:
    """NL3: a creature holds THP from one source; a grant replaces the
    current THP only when ``amount`` is strictly greater than the THP
    remaining now (``thp_compare: remaining``) or, with ``granted``
    (``thp_compare: granted``), than the original grant of the THP held:
    ``thp_granted``, linguo's extension of NV1 (absent: equal to ``thp``);
    an equal or smaller grant is ignored; THP 0 clears the source and
    ``thp_granted``. A replacing grant sets ``thp_granted`` to ``amount``
    when the option is ``granted`` or the creature held the field."""
    against = c.thp_granted if granted and c.thp_granted is not None else c.thp
    new = amount > against
    keep = granted or c.thp_granted is not None
    thp, label, held = (amount, source, amount if keep else None) if new else \
        (c.thp, c.thp_source, c.thp_granted)
    label, held = (label, held) if thp > 0 else (None, None)
    log.note("NL3", f"{c.id}: {source} grants {amount} THP against {against} "
             + ("granted" if granted else "remaining") + ": "
             + (f"replaces it ({thp} from {label})" if new else "ignored"))
    after = replace(c, thp=thp, thp_source=label, thp_granted=held)
    return after, ThpGrant(c.id, amount, "new" if new else "old", c.thp, thp, label)


@dataclass(frozen=True, slots=True)
class Healing:
    """NV5 ``heal`` target: the ``amount`` healed (HP), HP before and after,
    and whether it ``woke`` (ended KO, NL4)."""

    target: str
    amount: int
    hp_before: int
    hp_after: int
    woke: bool


def heal(c: Creature, amount: int, options: Options, log: Derivation) -> tuple[Creature, Healing]:
    """NL4: HP = max(HP, min(modified max, HP + amount)); THP untouched.
    Healing a KO creature at Injury VI or lower to 1 HP or more ends its KO
    (``heal_wakes``); at VII-VIII it stays KO (NK6). Raises
    :class:`Refusal` ``target_dead`` (NL4) for a dead creature."""
    if c.dead:
        raise Refusal("target_dead", "NL4", f"{c.id} is dead and cannot be healed")
    hp = max(c.hp, min(c.max_hp, c.hp + amount))
    woke = c.ko and hp >= 1 and c.injury <= 6 and options.flag("heal_wakes")
    log.note("NL4", f"{c.id}: heal {amount}: HP {c.hp} -> {hp} (max {c.max_hp})"
             + ("; KO ends" if woke else "; still KO" if c.ko else ""))
    if c.ko and not woke and c.injury >= 7:
        log.note("NK6", f"{c.id} is at Injury {c.injury}: healing does not wake it")
    after = replace(c, hp=hp, ko=c.ko and not woke)
    log.note("NL1", f"{c.id}: HP {hp_text(after)}")
    return after, Healing(c.id, amount, c.hp, hp, woke)


@dataclass(frozen=True, slots=True)
class KoRoll:
    """NV5 ``ko_roll``: whether a d20 was ``rolled``, its ``face``, the
    ``result`` (``wakes``, ``stack`` or ``none``) and, when no die was
    rolled, the ``reason`` (``dead``, ``not_ko``, ``off_track``,
    ``stabilized`` or ``critical``)."""

    rolled: bool
    face: int | None
    result: str
    reason: str | None


def _no_roll_reason(c: Creature, options: Options) -> str | None:
    """NK2's conditions: KO, on the injury track, not stabilized, not dead,
    at Injury VI or lower (VII-VIII roll only under ``fail_only``)."""
    if c.dead:
        return "dead"
    if not c.ko:
        return "not_ko"
    if not c.on_track:
        return "off_track"
    if c.stabilized:
        return "stabilized"
    if c.injury >= 7 and options.is_("ko_roll_at_critical", "skip"):
        return "critical"
    return None


def ko_roll(track: Track, dice: DiceSource, options: Options, log: Derivation) -> KoRoll:
    """NK2: the start-of-turn roll of a KO creature: a plain d20; 10 or more
    wakes it at ``wake_hp`` (1 by default; at VII-VIII under ``fail_only``
    it does nothing), 9 or less gains one stack through NK4 (cause
    ``ko_roll``; its location d10 from IV up). No die when NK2 does not
    apply; the record says why."""
    c = track.creature
    reason = _no_roll_reason(c, options)
    if reason is not None:
        why = {"off_track": ("NK1", "off the injury track: it stays KO until healed"),
               "stabilized": ("NK7", "stabilized: it makes no KO roll")}.get(reason)
        if why is not None:
            log.note(why[0], f"{c.id}: {why[1]}")
        log.note("NK2", f"{c.id}: no KO roll ({reason})")
        return KoRoll(False, None, "none", reason)
    face = dice.roll(20)
    if face >= 10 and c.injury >= 7:
        log.note("NK2", f"{c.id}: KO roll {face}: at Injury {c.injury} it cannot wake")
        return KoRoll(True, face, "none", None)
    if face >= 10:
        hp = options.number("wake_hp")
        log.note("NK2", f"{c.id}: KO roll {face} (10 or more): wakes at HP {hp}")
        track.creature = replace(c, ko=False, hp=hp)
        return KoRoll(True, face, "wakes", None)
    log.note("NK2", f"{c.id}: KO roll {face} (9 or less): a stack")
    gain_stack(track, "ko_roll", dice, options=options, log=log)
    return KoRoll(True, face, "stack", None)


@dataclass(frozen=True, slots=True)
class Check:
    """NV5 ``check``/``stabilize`` fields: the d20 ``faces`` (two with
    advantage or disadvantage), the ``natural`` kept, the ``total``, the
    ``dc``, ``success`` and ``crit_fail`` (NX6 under ``far_scope:
    all_d20``)."""

    actor: str
    stat: str
    skill: str | None
    faces: tuple[int, ...]
    natural: int
    total: int
    dc: int
    success: bool
    crit_fail: bool


@dataclass(frozen=True, slots=True)
class RollKeys:
    """NV3's roll keys of one d20 roll: ``advantage``, ``disadvantage``
    (NS3's other sources) and ``bonuses`` (NS2's other bonuses, integers)."""

    advantage: bool = False
    disadvantage: bool = False
    bonuses: tuple[int, ...] = ()


#: NS2: the stat of each skill (Medicine is WIS, the 5E fallback).
SKILL_STATS = {"perception": "WIS", "insight": "WIS", "medicine": "WIS",
               "investigation": "INT", "stealth": "DEX", "acrobatics": "DEX",
               "deception": "CHA", "intimidation": "CHA", "persuasion": "CHA",
               "performance": "CHA"}


def skill_check(actor: Creature, skill: str | None, stat: str, dc: int, keys: RollKeys,
                dice: DiceSource, options: Options, log: Derivation,
                proficient: bool | None = None) -> Check:
    """NS2: total = kept d20 + effective ``stat`` (NS1, NK8) + PROF if
    proficient in ``skill`` + bonuses; success iff total >= DC (``dc_rule:
    exceed``: >). NS3: advantage or disadvantage rolls two d20 (both: one).
    Under ``far_scope: all_d20`` a natural of 1 + FAR or less is a crit fail,
    which fails under ``crit_fail_effect: auto_miss`` (NX6)."""
    two = keys.advantage != keys.disadvantage
    faces: tuple[int, ...] = (dice.roll(20), dice.roll(20)) if two else (dice.roll(20),)
    natural = max(faces) if keys.advantage and two else min(faces)
    if proficient is None:
        proficient = skill in actor.proficient_skills
    prof = actor.prof if proficient else 0
    if actor.injury >= 3 and options.is_("injury_penalty_scope", "all_stats"):
        log.note("NK8", f"{actor.id}: Injury {actor.injury} changes {stat} to "
                 f"{actor.stat(stat, options)}")
    log.note("NS1", f"{actor.id}: effective {stat} {actor.stat(stat, options)}")
    total = natural + actor.stat(stat, options) + prof + sum(keys.bonuses)
    success = total > dc if options.is_("dc_rule", "exceed") else total >= dc
    crit_fail = options.is_("far_scope", "all_d20") and natural <= 1 + actor.far
    if actor.far > 0 and not options.is_("far_scope", "all_d20"):
        log.note("NX6", f"FAR {actor.far} applies to attack rolls only (far_scope)")
    if crit_fail and options.is_("crit_fail_effect", "auto_miss"):
        success = False
        log.note("NX6", f"natural {natural} is a crit fail (far_scope: all_d20)")
    if keys.advantage and keys.disadvantage:
        log.note("NS3", "advantage and disadvantage together: one d20")
    if two:
        log.note("NS3", f"{'advantage' if keys.advantage else 'disadvantage'}: "
                 f"d20 {faces[0]}, {faces[1]}: keeps {natural}")
    log.note("NS2", f"{actor.id}: {skill or stat} ({stat}) {natural} + "
             f"{actor.stat(stat, options)}"
             + (f" + PROF {prof}" if prof else "")
             + (f" + {sum(keys.bonuses)}" if keys.bonuses else "")
             + f" = {total} against DC {dc}: {'success' if success else 'failure'}")
    return Check(actor.id, stat, skill, faces, natural, total, dc, success, crit_fail)


def stabilize(actor: Creature, target: Creature, dc: int, keys: RollKeys, dice: DiceSource,
              options: Options, log: Derivation) -> tuple[Creature, Check, bool]:
    """NK7: ``actor`` makes a Medicine (WIS) check against ``dc`` (NS2);
    success makes a KO, living ``target`` stabilized (it then makes no NK2
    roll). On a target that is not KO the check is still made and changes
    nothing. Raises :class:`Refusal` ``actor_dead`` (NK12) or ``actor_ko``
    (NK1) before the die. Returns the target after, the check, and whether
    it was stabilized now."""
    if actor.dead:
        raise Refusal("actor_dead", "NK12", f"{actor.id} is dead and cannot act")
    if actor.ko:
        raise Refusal("actor_ko", "NK1", f"{actor.id} is KO and cannot act")
    check = skill_check(actor, "medicine", "WIS", dc, keys, dice, options, log)
    now = check.success and target.ko and not target.dead and not target.stabilized
    log.note("NK7", f"{target.id}: " + ("stabilized" if now else "already stabilized"
                                          if target.stabilized and check.success
                                          else "not KO: nothing changes"
                                          if not target.ko or target.dead
                                          else "not stabilized"))
    return (replace(target, stabilized=True) if now else target), check, now


def refill(chances: SecondChances, rest: str, options: Options) -> SecondChances:
    """NK10: a long rest restores the pool to its max; a short rest (or the
    end of a boss phase) adds half the max rounded down (``half_max_ceil``:
    up; ``half_missing_floor``: half of what is missing, down), at most the
    max."""
    if rest == "long":
        return replace(chances, pool=chances.max)
    if options.is_("second_chance_refill", "half_max_ceil"):
        gain = -(-chances.max // 2)
    elif options.is_("second_chance_refill", "half_missing_floor"):
        gain = (chances.max - chances.pool) // 2
    else:
        gain = chances.max // 2
    return replace(chances, pool=min(chances.max, chances.pool + gain))


def rest_injury(c: Creature, rest: str, log: Derivation) -> Creature:
    """NK9: a long rest at Injury IV or lower removes every stack; at V or
    higher it removes none (rehabilitation is needed: V one week, VI 3 weeks
    to 2 months, VII 2-4 and VIII 4-8 months with care). A short rest leaves
    Injury as it is."""
    if rest != "long" or c.injury == 0 or c.dead:
        log.note("NK9", f"{c.id}: a {rest} rest removes no Injury (Injury {c.injury})")
        return c
    if c.injury <= 4:
        log.note("NK9", f"{c.id}: a long rest at Injury {c.injury} removes every stack")
        return replace(c, injury=0)
    log.note("NK9", f"{c.id}: Injury {c.injury} stays: rehabilitation is needed")
    return c


@dataclass(frozen=True, slots=True)
class Resurrection:
    """NV5 ``resurrect``: the ``target``, the d10 ``face``, the Injury set,
    KO and the critical timer after."""

    target: str
    face: int
    injury: int
    ko: bool
    critical_timer: int | None


def resurrect(track: Track, hp: int, seconds: int, dice: DiceSource, options: Options,
              log: Derivation) -> Resurrection:
    """NK13: a dead creature returns with ``hp`` (at least 1; at most the
    modified max under ``max_hp_drop: clamp``, NL1) and one d10: within 60 s
    Injury = max(1, 9 - d10), later min(8, d10 + 4). At VII-VIII it is KO
    (``critical_forces_ko``) and no timer starts (``resurrection_timer:
    start``: 12 rounds). Raises :class:`Refusal` ``target_alive`` (NK13)
    for a living creature, before the die."""
    c = track.creature
    if not c.dead:
        raise Refusal("target_alive", "NK13", f"{c.id} is alive")
    face = dice.roll(10)
    injury = max(1, 9 - face) if seconds <= 60 else min(8, face + 4)
    log.note("NK13", f"{c.id}: {seconds} s after death, d10 {face}: Injury "
             + (f"max(1, 9 - {face})" if seconds <= 60 else f"min(8, {face} + 4)")
             + f" = {injury}")
    critical = injury >= 7
    ko = critical and options.flag("critical_forces_ko")
    timer = CRITICAL_TIMER if critical and options.is_("resurrection_timer", "start") else None
    if timer is not None:
        log.note("NK6", f"{c.id}: critical timer {timer} rounds (resurrection_timer: start)")
    hp_after = min(hp, c.max_hp) if options.is_("max_hp_drop", "clamp") else hp
    after = replace(c, dead=False, hp=hp_after, injury=injury, ko=ko, critical_timer=timer,
                    stabilized=False)
    track.creature = after
    return Resurrection(c.id, face, injury, ko, timer)


def events_of(before: Creature, after: Creature) -> Sequence[str]:
    """NV5 event strings for what changed between ``before`` and ``after``
    (KO, waking, locations fixed, stabilization, Injury, timer, resurrection,
    THP, death, one ``charge:<kind>`` per charge spent)."""
    out: list[str] = []
    if before.dead and not after.dead:
        out.append("resurrected")
    if after.ko and not before.ko:
        out.append("ko")
    if before.ko and not after.ko and not after.dead:
        out.append("wakes")
    out.extend(f"location:{where}" for where in after.locations[len(before.locations):])
    if after.stabilized and not before.stabilized:
        out.append("stabilized")
    if after.injury != before.injury:
        out.append(f"injury:{after.injury}")
    if after.critical_timer is not None and after.critical_timer != before.critical_timer:
        out.append(f"critical_timer:{after.critical_timer}")
    if after.thp != before.thp and after.thp_source != before.thp_source:
        out.append(f"thp:{after.thp}")
    if after.dead and not before.dead:
        out.append("dead")
    for kind in ("parry", "dodge", "guard"):
        out.extend([f"charge:{kind}"] * max(0, before.charges.of(kind) - after.charges.of(kind)))
    return out

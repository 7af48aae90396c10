"""The damage-modifier pool (ND1-ND8) and the charge factor (NR10).

All values are exact (:class:`fractions.Fraction`); percents are integer
percent points (20 means 20%). Damage is in HP. Only the final damage of one
attack or effect on one target is rounded: floor, never below 0 (ND8).

Flow for one pool (ND6: the normal pool, or the AP pool of damage that
bypassed armor):

1. entries (ND1): outgoing ATK, AFF[t], CRIT_AFF, DI, RI and other kinds;
   incoming DEF, RES[t] and other kinds; crit-only entries only with a crit
   (NX5); a status tick leaves out ATK and DEF (ND7);
2. selection (ND2): per (side, kind, type) the largest positive entry plus
   the most negative one;
3. DI and RI (ND3) on the selected DEF and RES[t] (or per entry), floored
   at 0 by default;
4. netting and averaging (ND4): T = untyped incoming - untyped outgoing +
   the mean over the pool's damage types of (incoming typed - outgoing typed);
5. the multiplier M(T) (ND5), halving once per 50 above 50.

Options read: ``category_modifiers``, ``di_ri_stage``, ``di_ri_floor``,
``netting``, ``multi_type_average``, ``average_over``, ``ap_ignores``,
``ap_armor_negative_res``, ``damage_rounding``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import floor

from linguo_cli.core.derivation import Derivation
from linguo_cli.core.errors import Diagnostic, InputError

from .exact import Exact, exact, exact_text
from .options import DEFAULTS, Options

OUTGOING_KINDS = frozenset({"ATK", "AFF", "CRIT_AFF", "DI", "RI"})
INCOMING_KINDS = frozenset({"DEF", "RES"})
_IGNORES = frozenset({"DI", "RI"})


@dataclass(frozen=True, slots=True)
class ModEntry:
    """One modifier entry (ND1, NV2): ``kind`` (``ATK``, ``AFF``, ``DEF``,
    ``RES``, ``CRIT_AFF``, ``DI``, ``RI`` or another kind's name), ``value``
    in percent points (DI and RI: a count of points), ``type`` (a damage type
    or ``None``: untyped), ``side`` (``outgoing``/``incoming``; derived for
    the named kinds), ``crit_only`` (enters only with crits >= 1; always for
    CRIT_AFF), ``armor`` (a RES the armor gives, NA3/NA5), ``category`` (the
    category this entry was expanded from, ND1)."""

    kind: str
    value: int
    type: str | None = None
    side: str = ""
    crit_only: bool = False
    armor: bool = False
    category: str | None = None
    label: str | None = None

    def __post_init__(self) -> None:
        if not self.side:
            side = ("outgoing" if self.kind in OUTGOING_KINDS
                    else "incoming" if self.kind in INCOMING_KINDS else "")
            if not side:
                raise ValueError(f"modifier kind {self.kind!r} needs a side (ND1)")
            object.__setattr__(self, "side", side)
        if self.kind == "CRIT_AFF":
            object.__setattr__(self, "crit_only", True)


def expand_categories(entries: Iterable[ModEntry],
                      categories: Mapping[str, Sequence[str]]) -> tuple[ModEntry, ...]:
    """ND1: an entry whose ``type`` names a category (a key of ``categories``,
    e.g. ``PHYS``) becomes one entry per member type, each marked with its
    ``category``; other entries pass unchanged. Raises ``KeyError`` never:
    a type that is not a category is a damage type."""
    out: list[ModEntry] = []
    for e in entries:
        members = categories.get(e.type) if e.type is not None else None
        if members is None:
            out.append(e)
        else:
            out.extend(replace(e, type=t, category=e.type) for t in members)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Selected:
    """One selected value (ND2, after ND3): percent points per (side, kind, type)."""

    side: str
    kind: str
    type: str | None
    value: int


@dataclass(frozen=True, slots=True)
class PoolResult:
    """One pool through ND (NV5 ``pools.normal``/``pools.ap``).

    ``raw``: HP per damage type before ND (exact); ``selected``: ND2-ND3's
    values; ``di``, ``ri``: the DI and RI per type that applied (ND3);
    ``terms``: ND4's typed term per averaged type; ``mean``: their mean;
    ``t``: ND4's T (under ``netting: separate``, D); ``outgoing``: under
    ``separate`` only, O (else ``None``); ``halvings``: ND5's k;
    ``multiplier``: M (exact); ``exact``: Σraw × M (HP, unrounded)."""

    raw: Mapping[str, Exact]
    selected: tuple[Selected, ...]
    di: int
    ri: Mapping[str, int]
    terms: Mapping[str, Exact]
    mean: Exact
    t: Exact
    outgoing: Exact | None
    halvings: int
    multiplier: Exact
    exact: Exact


#: ND5's halvings are bounded so that every exact multiplier can be written
#: out (2^10000 has 3,011 digits): a net mitigation T above 50 x 10,001 is
#: refused (exit 3) rather than printed as a fraction of thousands of digits.
MAX_HALVINGS = 10_000


def multiplier_of(t: Fraction) -> tuple[Fraction, int]:
    """ND5: ``(M(T), k)``. T <= 0: M = 1 - T/100 (amplification). T > 0: while
    T > 50, subtract 50 and count a halving k; M = (1/2)^k × (1 - T/100).
    So 20 -> 4/5, 50 -> 1/2, 95 -> 11/40, 100 -> 1/4, 120 -> 1/5, -30 -> 13/10.
    Raises ``InputError`` (exit 3, ``bad_input``) when k would exceed
    :data:`MAX_HALVINGS`."""
    if t <= 0:
        return 1 - t / 100, 0
    if t > 50 * (MAX_HALVINGS + 1):
        err = InputError(Diagnostic("request modifiers", "modifiers",
                                    f"a net mitigation T of {float(t):,.0f} needs more than "
                                    f"{MAX_HALVINGS:,} halvings (ND5), beyond the exact output"))
        err.refusal = "bad_input"  # type: ignore[attr-defined]
        err.rule = "NV3"  # type: ignore[attr-defined]
        raise err
    k = 0
    while t > 50:
        t -= 50
        k += 1
    return Fraction(1, 2 ** k) * (1 - t / 100), k


def _ignore(value: int, amount: int, floor_zero: bool) -> int:
    """ND3 on one positive value: value - amount, at least 0 under ``di_ri_floor: zero``."""
    if value <= 0:
        return value
    return max(0, value - amount) if floor_zero else value - amount


def _di_ri(entries: Sequence[ModEntry]) -> tuple[int, dict[str, int]]:
    """ND3: the largest DI, and the largest RI per damage type (0 when none)."""
    di = max((e.value for e in entries if e.kind == "DI"), default=0)
    ri: dict[str, int] = {}
    for e in entries:
        if e.kind == "RI" and e.type is not None:
            ri[e.type] = max(ri.get(e.type, 0), e.value)
    return di, ri


def _per_entry(entries: Sequence[ModEntry], di: int, ri: Mapping[str, int],
               floor_zero: bool) -> list[ModEntry]:
    """ND3 under ``di_ri_stage: per_entry``: DI/RI off each positive DEF/RES entry."""
    out = []
    for e in entries:
        if e.kind == "DEF" and e.type is None:
            e = replace(e, value=_ignore(e.value, di, floor_zero))
        elif e.kind == "RES" and e.type is not None:
            e = replace(e, value=_ignore(e.value, ri.get(e.type, 0), floor_zero))
        out.append(e)
    return out


def select(entries: Sequence[ModEntry], options: Options = DEFAULTS) -> list[Selected]:
    """ND2: per (side, kind, type), the largest positive entry (or 0) plus the
    most negative (or 0), keys in first-listed order; DI and RI are left out
    (ND3 reads them). Under ``category_modifiers: add`` entries expanded from
    a category are selected apart and their value added to the type's own."""
    add = options.is_("category_modifiers", "add")
    groups: dict[tuple[str, str, str | None, bool], list[int]] = {}
    for e in entries:
        if e.kind in _IGNORES:
            continue
        groups.setdefault((e.side, e.kind, e.type, add and e.category is not None),
                          []).append(e.value)
    merged: dict[tuple[str, str, str | None], int] = {}
    for (side, kind, type_, _cat), values in groups.items():
        value = max((v for v in values if v > 0), default=0) + min(
            (v for v in values if v < 0), default=0)
        merged[(side, kind, type_)] = merged.get((side, kind, type_), 0) + value
    return [Selected(s, k, t, v) for (s, k, t), v in merged.items()]


def _after_selection(selected: list[Selected], di: int, ri: Mapping[str, int],
                     floor_zero: bool) -> list[Selected]:
    out = []
    for s in selected:
        if s.kind == "DEF" and s.type is None:
            s = replace(s, value=_ignore(s.value, di, floor_zero))
        elif s.kind == "RES" and s.type is not None:
            s = replace(s, value=_ignore(s.value, ri.get(s.type, 0), floor_zero))
        out.append(s)
    return out


def pool_entries(entries: Iterable[ModEntry], *, crits: int = 0,
                 status: bool = False) -> list[ModEntry]:
    """The entries that enter ND for one attack or effect: crit-only entries
    only when ``crits >= 1`` (NX5); a status tick (``status``) leaves out ATK
    and DEF (ND7)."""
    return [e for e in entries
            if (crits >= 1 or not e.crit_only)
            and not (status and e.kind in ("ATK", "DEF") and e.type is None)]


def note_entries(log: Derivation, entries: Sequence[ModEntry], *, crits: int = 0,
                 status: bool = False, categories: bool = False) -> None:
    """The derivation of ND1 (and NX5, ND7) for the entries that enter ND."""
    log.note("ND1", f"{len(entries)} modifier entr{'y' if len(entries) == 1 else 'ies'}"
             + (", categories expanded to their member types" if categories else ""))
    if crits >= 1 and any(e.crit_only for e in entries):
        log.note("NX5", "crit-only entries enter ND: the attack holds a crit")
    if status:
        log.note("ND7", "a status-effect tick: ATK and DEF are left out")


def ap_pool_entries(entries: Iterable[ModEntry], options: Options = DEFAULTS) -> list[ModEntry]:
    """ND6/NA5: the entries of the AP pool. Damage that bypasses armor ignores
    every RES >= 0 (the creature's and the armor's; under ``ap_ignores:
    armor_res_only`` the armor's only); the armor's negative RES still applies
    (under ``ap_armor_negative_res: bypassed`` no armor RES applies)."""
    all_nonneg = options.is_("ap_ignores", "all_nonneg_res")
    armor_neg = options.is_("ap_armor_negative_res", "applies")
    out = []
    for e in entries:
        if e.kind == "RES" and e.armor and (e.value >= 0 or not armor_neg):
            continue
        if e.kind == "RES" and not e.armor and e.value >= 0 and all_nonneg:
            continue
        out.append(e)
    return out


def _mean(values: Mapping[str, Fraction], weights: Mapping[str, Fraction] | None) -> Fraction:
    """Unweighted (``weights`` None) or weighted mean; 0 over no type."""
    if not values:
        return Fraction(0)
    if weights is None:
        return sum(values.values(), Fraction(0)) / len(values)
    total = sum((weights[t] for t in values), Fraction(0))
    if total == 0:
        return Fraction(0)
    return sum((values[t] * weights[t] for t in values), Fraction(0)) / total


def _averaged_types(raw: Mapping[str, Fraction | int], attack_types: Sequence[str] | None,
                    options: Options) -> list[str]:
    """ND4: the types the mean runs over: those dealing damage in the pool,
    or (``average_over: all_attack_types``) every type of the attack."""
    if options.is_("average_over", "all_attack_types"):
        return list(dict.fromkeys(attack_types if attack_types is not None else raw))
    return [t for t, v in raw.items() if v > 0]


def _sums(selected: Sequence[Selected], types: Sequence[str]
          ) -> tuple[int, int, dict[str, int], dict[str, int]]:
    """Untyped incoming, untyped outgoing, typed incoming[t], typed outgoing[t]."""
    inc = sum(s.value for s in selected if s.type is None and s.side == "incoming")
    out = sum(s.value for s in selected if s.type is None and s.side == "outgoing")
    tin = {t: sum(s.value for s in selected if s.type == t and s.side == "incoming")
           for t in types}
    tout = {t: sum(s.value for s in selected if s.type == t and s.side == "outgoing")
            for t in types}
    return inc, out, tin, tout


def resolve_pool(raw: Mapping[str, Fraction | int], entries: Sequence[ModEntry],
                 options: Options = DEFAULTS, *, attack_types: Sequence[str] | None = None,
                 log: Derivation | None = None, name: str = "normal") -> PoolResult:
    """One pool through ND2-ND5: ``raw`` is HP per damage type (exact, >= 0),
    ``entries`` the entries already filtered for the pool (:func:`pool_entries`,
    :func:`ap_pool_entries`). Returns the :class:`PoolResult`; notes its steps
    (ND2, ND3, ND4, ND5) in ``log``. No rounding (ND8 is the caller's)."""
    log = log if log is not None else Derivation()
    floor_zero = options.is_("di_ri_floor", "zero")
    di, ri = _di_ri(entries)
    if options.is_("di_ri_stage", "per_entry"):
        entries = _per_entry(entries, di, ri, floor_zero)
    chosen = select(entries, options)
    if not options.is_("di_ri_stage", "per_entry"):
        chosen = _after_selection(chosen, di, ri, floor_zero)
    log.note("ND2", f"{name} pool: selected " + (", ".join(
        f"{s.kind}{'[' + s.type + ']' if s.type else ''} {s.value:+d}" for s in chosen)
        or "nothing"))
    if di or ri:
        log.note("ND3", f"{name} pool: DI {di}, RI {dict(ri)} applied to DEF and RES")
    types = _averaged_types(raw, attack_types, options)
    weights = ({t: Fraction(raw.get(t, 0)) for t in types}
               if options.is_("multi_type_average", "weighted") else None)
    inc, out, tin, tout = _sums(chosen, types)
    if options.is_("netting", "separate"):
        o = out + _mean({t: Fraction(tout[t]) for t in types}, weights)
        d = inc + _mean({t: Fraction(tin[t]) for t in types}, weights)
        m_d, k = multiplier_of(d)
        mult = max(Fraction(0), 1 + o / 100) * m_d
        terms = {t: Fraction(tin[t] - tout[t]) for t in types}
        mean = _mean(terms, weights)
        log.note("ND4", f"{name} pool: separate sums O = {exact_text(o)}, D = {exact_text(d)}")
        t_value, outgoing = d, exact(o)
    else:
        terms = {t: Fraction(tin[t] - tout[t]) for t in types}
        mean = _mean(terms, weights)
        t_value = inc - out + mean
        mult, k = multiplier_of(t_value)
        outgoing = None
        log.note("ND4", f"{name} pool: untyped {inc - out:+d}, typed mean {exact_text(mean)} "
                 f"over {', '.join(types) or 'no type'}: T = {exact_text(t_value)}")
    total = sum((Fraction(v) for v in raw.values()), Fraction(0))
    log.note("ND5", f"{name} pool: {k} halving(s), multiplier {exact_text(mult)}; "
             f"{exact_text(total)} x {exact_text(mult)} = {exact_text(total * mult)}")
    return PoolResult(
        raw={t: exact(v) for t, v in raw.items()}, selected=tuple(chosen), di=di, ri=dict(ri),
        terms={t: exact(v) for t, v in terms.items()}, mean=exact(mean), t=exact(t_value),
        outgoing=outgoing, halvings=k, multiplier=exact(mult), exact=exact(total * mult))


@dataclass(frozen=True, slots=True)
class ModifiersResult:
    """ND6-ND8 and NR10 for one attack or effect on one target: ``pools``
    (``normal`` and ``ap``), ``charge_factor``, ``exact`` (HP, unrounded) and
    ``damage`` (the final integer HP, floor, at least 0)."""

    normal: PoolResult
    ap: PoolResult
    charge_factor: Exact
    exact: Exact
    damage: int

    @property
    def pools(self) -> dict[str, PoolResult]:
        """``{"normal": ..., "ap": ...}`` (NV5)."""
        return {"normal": self.normal, "ap": self.ap}


def final_damage(normal: PoolResult, ap: PoolResult, charge_factor: Fraction,
                 options: Options = DEFAULTS, log: Derivation | None = None) -> ModifiersResult:
    """ND6, NR10, ND8: exact = (Σnormal × M_normal + ΣAP × M_AP) × charge
    factor; damage = floor(exact), at least 0. Under ``damage_rounding:
    floor_each_step`` each pool's product is floored, then the product with
    the charge factor."""
    log = log if log is not None else Derivation()
    each = options.is_("damage_rounding", "floor_each_step")
    n, a = Fraction(normal.exact), Fraction(ap.exact)
    if each:
        n, a = Fraction(floor(n)), Fraction(floor(a))
    total = (n + a) * charge_factor
    damage = max(0, floor(total))
    log.note("ND6", f"pools: normal {exact_text(n)} + AP {exact_text(a)}")
    if charge_factor != 1:
        log.note("NR10", f"charge factor {exact_text(charge_factor)} after ND: "
                 f"{exact_text(total)}")
    log.note("ND8", f"final damage floor({exact_text(total)}) = {damage}")
    return ModifiersResult(normal, ap, exact(charge_factor), exact(total), damage)


def resolve_modifiers(raw: Mapping[str, Fraction | int], entries: Sequence[ModEntry], *,
                      ap_raw: Mapping[str, Fraction | int] | None = None, crits: int = 0,
                      status: bool = False, charge_factor: Fraction = Fraction(1),
                      options: Options = DEFAULTS, attack_types: Sequence[str] | None = None,
                      log: Derivation | None = None) -> ModifiersResult:
    """The ``modifiers`` request's rule (ND1-ND8, NR10), no dice: ``raw`` and
    ``ap_raw`` are HP per damage type of the normal and AP pools, ``entries``
    every entry of both sides (categories already expanded, armor RES marked
    ``armor``). Under ``charge_reduction_as: def_modifier`` a charge factor
    4/5 or 3/5 becomes a DEF entry +20 or +40 in each pool instead (NR10)."""
    log = log if log is not None else Derivation()
    entries = pool_entries(entries, crits=crits, status=status)
    note_entries(log, entries, crits=crits, status=status,
                 categories=any(e.category for e in entries))
    if charge_factor != 1 and options.is_("charge_reduction_as", "def_modifier"):
        entries = [*entries, ModEntry("DEF", int((1 - charge_factor) * 100), label="charge")]
        log.note("NR10", f"the charge factor {exact_text(charge_factor)} enters as a DEF entry")
        charge_factor = Fraction(1)
    if ap_raw:
        log.note("NA5", "the AP pool ignores every RES >= 0 (negative RES still applies)")
    types = attack_types if attack_types is not None else list(
        dict.fromkeys([*raw, *(ap_raw or {})]))
    normal = resolve_pool(raw, entries, options, attack_types=types, log=log)
    ap = resolve_pool(ap_raw or {}, ap_pool_entries(entries, options), options,
                      attack_types=types, log=log, name="AP")
    return final_damage(normal, ap, charge_factor, options, log)

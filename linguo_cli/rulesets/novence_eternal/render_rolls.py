"""Text lines of the one-off kinds ``sc_attack``, ``initiative``,
``reaction_order``, ``move`` and ``injury`` (called by :func:`.render.text_lines`,
which adds the options, the derivation and the faces used). Exact numbers
are printed as their NV5 strings (``"27/2"``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The kinds :func:`lines` renders.
KINDS = frozenset({"sc_attack", "initiative", "reaction_order", "move", "injury"})


def lines(plain: Mapping[str, Any]) -> list[str]:
    """The text view of a plain result of one of :data:`KINDS`."""
    kind = plain.get("kind")
    if kind == "sc_attack":
        return sc_attack_lines(plain)
    if kind in ("initiative", "reaction_order"):
        return order_lines(plain)
    if kind == "move":
        return [f"{plain['actor']}: d20 {plain['face']}: max(d20, {plain['stand_in']}) + DEX "
                f"{plain['dex']} = {plain['feet']} ft"]
    return injury_lines(plain)


def sc_attack_lines(plain: Mapping[str, Any]) -> list[str]:
    """An SC-based attack (NO6): the attack's lines (:func:`.render.attack_lines`,
    ``against`` being the SC), with the Ether Piercing share when the roll did
    not land or was not made (NA7)."""
    from .render import attack_lines

    a = plain["attack"]
    if a["natural"] is None:
        out = [f"{a['attacker']} attacks {a['target']} with {a['weapon']}: no to-hit roll "
               f"(ep_scope no_roll), SC {a['against']}"]
        out += attack_lines(plain)[2:]
    else:
        out = attack_lines(plain)
    if not a["landed"]:
        share = (f"EP {a['ep']} against SC {a['against']}: damage x {a['ep_factor']}: exact "
                 f"{a['exact']} -> {a['damage']} (THP absorbed {a['thp_absorbed']}, HP lost "
                 f"{a['hp_lost']})" if a["ep_factor"] != "0" else "no EP: no damage")
        out.insert(1 if a["natural"] is None else 2, share)
    return out


def order_lines(plain: Mapping[str, Any]) -> list[str]:
    """Initiative (NS8) or simultaneous reactions (NR2): each first roll, the
    roll-offs in the order rolled, then the order."""
    out = []
    for cid, r in plain["results"].items():
        faces = ", ".join(map(str, r["faces"]))
        out.append(f"{cid}: " + (f"d20 {faces}: " if faces else "") + f"{r['total']}")
    for r in plain["rolloffs"]:
        out.append("roll-off " + ", ".join(f"{i} {f}" for i, f in zip(r["ids"], r["faces"],
                                                                       strict=True)))
    out.append("order: " + ", ".join(plain["order"]))
    return out


def injury_lines(plain: Mapping[str, Any]) -> list[str]:
    """Injury stacks (NK4): each stack (absorbed by a Second Chance, or the
    Injury before and after with its location), then the creature's HP,
    Injury and events."""
    from .render import care_lines

    out = []
    for e in plain["injury_events"]:
        if e["absorbed"]:
            out.append(f"{e['creature']}: a Second Chance absorbs the stack (pool "
                       f"{e['pool_after']})")
            continue
        where = f" ({e['location']}" + (f", d10 {e['location_face']}" if e["location_face"]
                                        else "") + ")" if e["location"] else ""
        out.append(f"{e['creature']}: Injury {e['injury_before']} -> {e['injury_after']}"
                   + where + (", dead" if e["dead"] else ""))
    return out + care_lines(plain)

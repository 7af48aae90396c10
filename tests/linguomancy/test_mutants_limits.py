"""Boundaries of the documented limits (issue 13): each limit is tested on
both sides of its edge - exactly at the limit accepted, one past it refused
with exit 3 - so that moving an edge by one (``>`` for ``>=``, ``+ 1``)
fails a test.

Limits: dice notation (:mod:`linguo_cli.core.dice`: terms, characters, dice per
term, sides, constant, keep count, keep work), exact distributions
(:data:`linguo_cli.core.distribution.MAX_WORK`) and documents (:mod:`linguo_cli.io.read`
and the README's Limits section: bytes, keys and values, nesting, aliases,
integer digits, number characters, diagnostics shown).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from linguo_cli.core import dice, distribution
from linguo_cli.core.dice import parse
from linguo_cli.core.distribution import expression_distribution, sum_distribution
from linguo_cli.core.errors import MAX_DIAGNOSTICS, InputError
from linguo_cli.io.document import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_DOCUMENT_BYTES,
    MAX_INT_DIGITS,
    MAX_NODES,
    MAX_NUMBER_CHARS,
    MAX_YAML_NODES,
    Document,
)
from linguo_cli.io.read import load as load_document
from linguo_cli.io.read import parse as parse_document
from linguo_cli.rulesets.linguomancy.state import SCHEMAS

from ..conftest import run_cli


def _refused(text: str) -> InputError:
    with pytest.raises(InputError) as info:
        parse(text)
    assert info.value.code == 3
    return info.value


def test_the_documented_values() -> None:
    """The numbers the README and docstrings give (a changed limit must
    change its edge tests too)."""
    assert (dice.MAX_TERMS, dice.MAX_EXPRESSION_LENGTH, dice.MAX_COUNT, dice.MAX_SIDES,
            dice.MAX_CONSTANT, dice.MAX_KEEP_WORK) == (50, 200, 1000, 1000, 1_000_000, 20_000)
    assert distribution.MAX_WORK == 1_000_000
    assert (MAX_DOCUMENT_BYTES, MAX_NODES, MAX_YAML_NODES,
            MAX_DEPTH, MAX_ALIASES, MAX_INT_DIGITS,
            MAX_NUMBER_CHARS, MAX_DIAGNOSTICS) == (
        1024 * 1024, 100_000, 25_000, 64, 100, 20, 100, 50)


# ---------------------------------------------------------------------------
# Dice notation


def test_fifty_dice_terms_accepted_fifty_one_refused() -> None:
    at = "+".join(["d2"] * 50)
    expr = parse(at)
    assert len(expr.terms) == 50 and expr.minimum() == 50 and expr.maximum() == 100
    err = _refused(at + "+d2")
    assert "more than 50 dice terms" in err.message


def test_constants_do_not_count_as_dice_terms() -> None:
    expr = parse("+".join(["d2"] * 50) + "+1+2")
    assert len(expr.terms) == 50 and expr.constant == 3


def test_fifty_subtracted_terms_count_too() -> None:
    assert len(parse("-".join(["d2"] * 50)).terms) == 50
    assert "more than 50 dice terms" in _refused("-".join(["d2"] * 51)).message


def test_two_hundred_characters_accepted_two_hundred_one_refused() -> None:
    at = "1d6" + " " * 195 + "+2"
    assert len(at) == 200
    assert parse(at).text() == "1d6+2"
    past = "1d6" + " " * 196 + "+2"
    assert len(past) == 201
    err = _refused(past)
    assert "longer than 200 characters" in err.message
    assert "column 201" in err.message


def test_length_limit_through_the_cli() -> None:
    at = "1d6" + " " * 195 + "+2"
    assert run_cli("ticks", at, "--json").exit_code == 0
    assert run_cli("ticks", at + " ", "--json").exit_code == 3


@pytest.mark.parametrize(("text", "ok"), [
    ("1000d6", True), ("1001d6", False), ("1d6", True), ("0d6", False),
    ("1d1000", True), ("1d1001", False), ("1d1", True), ("1d0", False),
])
def test_dice_count_and_sides_edges(text: str, ok: bool) -> None:
    if ok:
        assert parse(text).text() == text
    else:
        _refused(text)


@pytest.mark.parametrize(("text", "constant"), [
    ("1000000", 1_000_000), ("-1000000", -1_000_000), ("1d4+1000000", 1_000_000),
    ("1d4-1000000", -1_000_000),
])
def test_constant_of_one_million_accepted(text: str, constant: int) -> None:
    assert parse(text).constant == constant


@pytest.mark.parametrize("text", ["1000001", "-1000001", "1d4+1000001", "1d4-1000001"])
def test_constant_one_past_one_million_refused(text: str) -> None:
    err = _refused(text)
    assert "constant above 1000000" in err.message


def test_constant_limit_through_the_cli() -> None:
    assert run_cli("ticks", "1d4+1000000", "--json").exit_code == 0
    assert run_cli("ticks", "1d4+1000001", "--json").exit_code == 3


@pytest.mark.parametrize(("text", "ok"), [
    ("4d6kh1", True), ("4d6kh4", True), ("4d6kh5", False), ("4d6kh0", False),
    ("4d6kl1", True), ("4d6kl4", True), ("4d6kl5", False), ("4d6kl0", False),
])
def test_keep_count_edges(text: str, ok: bool) -> None:
    if ok:
        assert parse(text).terms[0].keep == (text[4], int(text[5:]))
    else:
        assert "keep count must be 1..4" in _refused(text).message


# sides x min(kept, dropped): 200 x min(100, 100) = 20,000 (at the limit);
# 177 x min(113, 113) = 20,001 (one past).
@pytest.mark.parametrize("keep", ["kh", "kl"])
def test_keep_work_of_20000_accepted_20001_refused(keep: str) -> None:
    at = parse(f"200d200{keep}100")
    assert dice.keep_work(at.terms[0]) == 20_000
    ev = at.expected_value()
    assert at.minimum() < ev < at.maximum()
    err = _refused(f"226d177{keep}113")
    assert "at most 20000, got 20001" in err.message


def test_keep_work_counts_the_smaller_of_kept_and_dropped() -> None:
    # 1000 x min(20, 21) = 20,000 accepted; 1000 x min(21, 22) = 21,000 refused;
    # 1000 x min(21, 20) = 20,000 accepted (the dropped side is smaller).
    assert dice.keep_work(parse("41d1000kh20").terms[0]) == 20_000
    assert dice.keep_work(parse("41d1000kh21").terms[0]) == 20_000
    _refused("43d1000kh21")
    # Keeping every die is no keep work at all.
    assert dice.keep_work(parse("1000d1000kh1000").terms[0]) == 0


# ---------------------------------------------------------------------------
# Exact distributions: MAX_WORK = 1,000,000


def _too_large(fn: Any, *args: Any) -> None:
    with pytest.raises(InputError) as info:
        fn(*args)
    assert info.value.code == 3
    assert "too large to compute exactly" in info.value.message


def test_sum_of_dice_work_edge() -> None:
    # count^2 x sides: 100d100 is exactly 1,000,000; 1d1000001 is 1,000,001;
    # 53d356 (1,000,004) is the smallest dice term past the limit.
    dist = sum_distribution(100, 100)
    assert min(dist) == 100 and max(dist) == 10_000 and sum(dist.values()) == 1
    _too_large(sum_distribution, 1, 1_000_001)
    _too_large(expression_distribution, parse("53d356"))


def test_keep_highest_work_edge() -> None:
    # sides x (keep + sides x keep x (keep-1) / 2) x (count + 1):
    # 199d2kh50: 2 x 2,500 x 200 = 1,000,000 exactly; 177d2kh53: 1,000,004,
    # the smallest past the limit.
    for text in ("199d2kh50", "199d2kl50"):
        dist = expression_distribution(parse(text))
        assert min(dist) == 50 and max(dist) == 100 and sum(dist.values()) == 1
    _too_large(expression_distribution, parse("177d2kh53"))
    _too_large(expression_distribution, parse("177d2kl53"))


def test_convolution_work_edge() -> None:
    # outcomes of the sum so far x outcomes of the next term:
    # 1d1000 + 1d1000: 1,000 x 1,000 = 1,000,000 exactly;
    # 1d101 + 10d991: 101 x 9,901 = 1,000,001.
    dist = expression_distribution(parse("1d1000+1d1000"))
    assert len(dist) == 1999 and sum(dist.values()) == 1
    _too_large(expression_distribution, parse("1d101+10d991"))


# ---------------------------------------------------------------------------
# Documents (README, Limits)


def _doc(text: str) -> Document:
    return parse_document(text, "doc")


def _doc_refused(text: str, words: str) -> None:
    with pytest.raises(InputError) as info:
        _doc(text)
    assert info.value.code == 3
    assert words in info.value.message, info.value.message


def test_document_bytes_edge(tmp_path: Any) -> None:
    limit = MAX_DOCUMENT_BYTES
    head = '{"a": "'
    at = head + "x" * (limit - len(head) - 2) + '"}'
    assert len(at.encode()) == limit
    path = tmp_path / "at.json"
    path.write_text(at, encoding="utf-8")
    assert load_document(str(path)).data["a"].startswith("x")
    past = tmp_path / "past.json"
    past.write_text(head + "x" * (limit - len(head) - 1) + '"}', encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_document(str(past))
    assert info.value.code == 3 and "larger than 1024 KiB" in info.value.message
    # parse() checks the same limit on text it is given.
    assert _doc(at).data["a"].startswith("x")
    _doc_refused(head + "x" * (limit - len(head) - 1) + '"}', "larger than 1024 KiB")


def test_json_keys_and_values_edge() -> None:
    # a list counts itself and each of its values: 1 + 99,999 = 100,000.
    at = "[" + ",".join(["0"] * 99_999) + "]"
    assert len(_doc(at).data) == 99_999
    _doc_refused("[" + ",".join(["0"] * 100_000) + "]", "more than 100000 keys and values")


def test_json_mapping_keys_count() -> None:
    # a mapping counts itself, each key and each value: 1 + 2 x 49,999 = 99,999;
    # one more key and value: 100,001.
    at = json.dumps({f"k{i}": 0 for i in range(49_999)})
    assert len(_doc(at).data) == 49_999
    _doc_refused(json.dumps({f"k{i}": 0 for i in range(50_000)}), "more than 100000")


def test_yaml_keys_and_values_edge() -> None:
    at = "- 0\n" * 24_999
    assert len(_doc(at).data) == 24_999
    _doc_refused("- 0\n" * 25_000, "more than 25000 keys and values")


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_nesting_of_64_levels_accepted_65_refused(fmt: str) -> None:
    def nested(levels: int) -> str:
        if fmt == "json":
            return "[" * levels + "]" * levels
        return "a: " + "[" * (levels - 1) + "1" + "]" * (levels - 1) + "\n"

    doc = _doc(nested(64))
    depth, node = 1, doc.data
    while isinstance(node, (list, dict)) and node:
        node = node[0] if isinstance(node, list) else next(iter(node.values()))
        depth += isinstance(node, (list, dict))
    assert depth == 64
    _doc_refused(nested(65), "nested deeper than 64 levels")


def test_aliases_edge() -> None:
    def doc(n: int) -> str:
        return "a: &x 1\nb: [" + ", ".join(["*x"] * n) + "]\n"

    assert _doc(doc(100)).data["b"] == [1] * 100
    _doc_refused(doc(101), "more than 100 aliases")


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_integer_digits_edge(fmt: str) -> None:
    at, past = "9" * 20, "9" * 21

    def wrap(value: str) -> str:
        return '{"n": ' + value + "}" if fmt == "json" else "n: " + value + "\n"

    assert _doc(wrap(at)).data["n"] == int(at)
    assert _doc(wrap("-" + at)).data["n"] == -int(at)
    _doc_refused(wrap(past), "more than 20 digits")
    _doc_refused(wrap("-" + past), "more than 20 digits")


def test_number_characters_edge() -> None:
    at = "0." + "1" * 98
    assert len(at) == 100
    assert isinstance(_doc('{"n": ' + at + "}").data["n"], float)
    _doc_refused('{"n": ' + at + "1}", "longer than 100 characters")


def test_at_most_fifty_schema_errors_are_listed() -> None:
    def state(n: int) -> Document:
        return _doc(json.dumps({"entities": [
            {"id": f"e{i}", "kind": "player", "hp": "x", "max_hp": 5} for i in range(n)]}))

    fifty = SCHEMAS.errors(state(50), "state")
    assert len(fifty) == 50 and all("is not of type" in d.message for d in fifty)
    fifty_one = SCHEMAS.errors(state(51), "state")
    assert len(fifty_one) == 51
    assert fifty_one[-1].message == "1 more errors not shown"

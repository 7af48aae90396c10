"""Writing a state back into its own text: only what changed is edited.

A state read from a file (:func:`linguo_cli.io.read.parse`) keeps its text
and where every node of it is (:class:`linguo_cli.io.document.Spans`). When the
state is written back (``--in-place``, ``-o``), :func:`render` compares the
plain tree as it was read with the plain tree to write and edits the text:

* **A scalar that changed** is replaced at its own span, nothing else: every
  other byte (comments, quoting, line endings, a BOM, flow/block styles,
  indentation, number spellings, anchors) is kept by construction. The new
  scalar keeps the old one's quoting where the new value allows it (a
  single-quoted string stays single-quoted, a double-quoted one double-quoted)
  and is otherwise plain only when every YAML reader reads it back as the
  same string (anything that could read as a number, boolean, null or
  indicator is double-quoted); JSON scalars are written as JSON.
* **A structure that changed** (a mapping gains a key, a list grows or
  shrinks, a value changes between scalar, list and mapping): a block list
  gets the lines of the items added or removed (the others kept byte for
  byte); otherwise only that node's text is replaced, or the new key's lines
  inserted after the mapping's last entry (a new top-level key goes before
  ``entities``), in the file's own style: block YAML with its indentation
  (:func:`yaml_layout`), flow YAML inside flow collections and where the file
  writes the same key's values (or list items) in flow style only, JSON with
  the file's indentation and separators (compact stays compact).
* **Only if that is not possible** (a value under an alias, a key removed):
  the whole document is written by ruamel.yaml's round-trip writer (YAML:
  mappings changed in place, a replaced flow node stays flow) or as JSON.

Every text produced is read back (:func:`linguo_cli.io.read.parse`) and must
equal the state to write, value for value and type for type; otherwise the
next way is tried, and when none reads back a :class:`LinguoError` (exit 5,
a bug in linguo) is raised and nothing is written. JSON on one line (as
programs write it) gets the same edits without locating every value
(:func:`linguo_cli.io.json_text.one_line_edit`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from linguo_cli.core.errors import InputError, LinguoError
from linguo_cli.io.json_text import _json_step, one_line_edit

Path_ = tuple[Any, ...]

_NUMBERISH = re.compile(r"[-+.0-9]")
_YAML11_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"})
_PLAIN_FORBIDDEN_START = set("-?:,[]{}#&*!|>'\"%@` \t")


class _Fallback(Exception):
    """The text cannot be edited in place here: rewrite the whole document."""

def same(a: Any, b: Any) -> bool:
    """Whether two plain trees hold the same values of the same types (key
    order aside; ``True`` is not ``1``; ``2`` equals ``2.0``, which the reader
    reads back as ``2``)."""
    if isinstance(a, dict):
        return (isinstance(b, dict) and a.keys() == b.keys()
                and all(same(v, b[k]) for k, v in a.items()))
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(
            same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)):
        return isinstance(b, (int, float)) and a == b
    return type(a) is type(b) and bool(a == b)


def render(doc: Any) -> tuple[str, str]:
    """The text to write ``doc`` (a :class:`~linguo_cli.io.document.Document`)
    back, and how it was made: ``"unchanged"`` (the original text),
    ``"edited"`` (changed scalars and nodes replaced in the original text) or
    ``"rewritten"`` (the whole-document fallback: ruamel's round-trip writer,
    and where even that does not read back, e.g. anchors reused across
    changed values, the plain tree without anchors and comments). A BOM the
    file had is kept.

    Raises :class:`LinguoError` (exit 5) when no text reads back as the
    state to write (a bug in linguo; nothing must be written then).
    """
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import parse
    from linguo_cli.io.write import dump_yaml, yaml_layout

    new = to_plain(doc.data)
    if doc.text is None or doc.format not in ("yaml", "json"):
        return dump_yaml(new), "rewritten"
    bom = "\ufeff" if doc.bom else ""
    before = doc.before
    if before is None:  # updated without a snapshot: the text says what it was
        before = to_plain(parse(doc.text, doc.name).data)
    if same(before, new):
        return bom + doc.text, "unchanged"
    try:  # one-line JSON: the editor's text, found without locating every value
        edited = (one_line_edit(doc.text, before, new) if doc.format == "json" else None) \
            or _Editor(doc).run(before, new)
    except _Fallback:
        edited = None
    if edited is not None and reads_back(edited, new, doc):
        return bom + edited, "edited"
    whole = _rewrite(doc, before, new)
    if reads_back(whole, new, doc):
        return bom + whole, "rewritten"
    if doc.format == "yaml":  # last of all: the plain tree, without anchors or comments
        plain = dump_yaml(new, yaml_layout(doc.text))
        if reads_back(plain, new, doc):
            return bom + plain, "rewritten"
    raise LinguoError(f"{doc.name}: internal error: the state written back would not read "
                      "back as the new state; nothing was written (please report this)")


def reads_back(text: str, new: Any, doc: Any) -> bool:
    """Whether ``text`` parses, as the same format as ``doc``, to ``new``."""
    from linguo_cli.io.document import to_plain
    from linguo_cli.io.read import parse

    try:
        again = parse(text, doc.name)
    except InputError:
        return False
    return again.format == doc.format and same(to_plain(again.data), new)


def _rewrite(doc: Any, before: Any, new: Any) -> str:
    """The whole document written anew: JSON with the file's indentation,
    YAML by ruamel's round-trip writer on the original text's tree."""
    from linguo_cli.io.write import dump_yaml, yaml_layout

    if doc.format == "json":
        step = _json_step(doc.text)
        return json.dumps(new, indent=step, ensure_ascii=False) + "\n"
    try:
        rt = doc.roundtrip()
    except InputError:
        return dump_yaml(new)
    _assign(rt, before, new)
    return dump_yaml(rt, yaml_layout(doc.text))


def _assign(rt: Any, old: Any, new: Any) -> None:
    """Make the round-trip mapping ``rt`` (read as ``old``) hold ``new``,
    touching only what differs."""
    for key, value in new.items():
        if key in old and same(old[key], value):
            continue
        if key in old and isinstance(value, dict) and isinstance(old[key], dict):
            _assign(rt[key], old[key], value)
        elif key not in rt and "entities" in rt and hasattr(rt, "insert"):
            rt.insert(list(rt).index("entities"), key, value)
        elif isinstance(value, list) and isinstance(old.get(key), list) \
                and len(value) == len(old[key]):
            for i, (a, b) in enumerate(zip(old[key], value, strict=True)):
                if same(a, b):
                    continue
                if isinstance(a, dict) and isinstance(b, dict):
                    _assign(rt[key][i], a, b)
                else:
                    rt[key][i] = _like(rt[key][i], b)
        else:
            rt[key] = _like(rt.get(key), value)
    for key in [k for k in rt if k not in new]:
        del rt[key]


def _like(node: Any, value: Any) -> Any:
    """``value`` (a mapping or list) in flow style if the ``node`` it replaces was."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if not (isinstance(value, (dict, list)) and hasattr(node, "fa") and node.fa.flow_style()):
        return value
    styled = CommentedMap(value) if isinstance(value, dict) else CommentedSeq(value)
    styled.fa.set_flow_style()
    return styled


def _plain_ok(value: str, flow: bool) -> bool:
    """Whether ``value`` may be written as a plain YAML scalar and read back
    as the same string by linguo and by YAML 1.1 readers alike."""
    if not value or value != value.strip() or not value.isprintable():
        return False
    if value[0] in _PLAIN_FORBIDDEN_START or _NUMBERISH.match(value):
        return False
    if value.lower() in _YAML11_WORDS or ":" in value or " #" in value:
        return False
    return not (flow and any(c in value for c in ",[]{}"))


def _nested(value: Any) -> bool:
    """Whether a new value is written in block style: a non-empty mapping, or
    a list holding mappings or lists (a list of scalars stays one flow line)."""
    if isinstance(value, dict):
        return bool(value)
    return isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)


class _Editor:
    """Collects text edits turning the text of a document read as ``before``
    into one that reads as ``new``; raises :class:`_Fallback` where it cannot."""

    def __init__(self, doc: Any) -> None:
        self.text: str = doc.text
        spans = doc.spans()
        if spans is None:
            raise _Fallback
        self.values: dict[Path_, tuple[int, int, str]] = spans.values
        self.keys: dict[Path_, tuple[int, int]] = spans.keys
        self.json = doc.format == "json"
        self.nl = "\r\n" if "\r\n" in self.text else "\n"
        self.edits: list[tuple[int, int, str]] = []
        self._layout: tuple[int, int, int] | None = None
        self._styles: dict[tuple[str, bool], set[str]] | None = None

    # -- driving -----------------------------------------------------------

    def run(self, before: Any, new: Any) -> str:
        """The edited text."""
        self.node((), before, new)
        out = self.text
        last = len(out) + 1
        for start, end, text in sorted(self.edits, key=lambda e: (e[0], e[1]), reverse=True):
            if end > last:
                raise _Fallback  # overlapping edits
            out = out[:start] + text + out[end:]
            last = start
        return out

    def node(self, path: Path_, old: Any, new: Any) -> None:
        if same(old, new):
            return
        span = self.values.get(path)
        if span is None:
            raise _Fallback
        if span[2] == "*":  # an alias: its value is written in its place
            self.replace(path, old, new)
        elif isinstance(old, dict) and isinstance(new, dict):
            if any(k not in new for k in old):
                raise _Fallback
            for k, v in old.items():
                self.node(path + (k,), v, new[k])
            added = {k: v for k, v in new.items() if k not in old}
            if added:
                self.add_keys(path, old, added)
        elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                self.node(path + (i,), a, b)
        elif isinstance(old, list) and isinstance(new, list) and self.list_items(path, old, new):
            pass
        elif isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
            self.replace(path, old, new)
        else:
            self.scalar(path, new)

    # -- positions ---------------------------------------------------------

    def in_flow(self, path: Path_) -> bool:
        return self.json or any(self.values.get(path[:i], (0, 0, ""))[2] == "flow"
                                for i in range(len(path)))

    def column(self, offset: int) -> int:
        return offset - (self.text.rfind("\n", 0, offset) + 1)

    def line_indent(self, offset: int) -> str:
        start = self.text.rfind("\n", 0, offset) + 1
        m = re.match(r"[ \t]*", self.text[start:offset])
        return m.group() if m else ""

    def colon_end(self, path: Path_) -> int:
        """Just after the ``:`` that follows the key of ``path``."""
        if path not in self.keys:
            raise _Fallback
        at = self.text.find(":", self.keys[path][1])
        if at < 0:
            raise _Fallback
        return at + 1

    def scalar_span(self, path: Path_) -> tuple[int, int, str]:
        """The span of a scalar's value text: an anchor before it skipped, a
        block scalar without its trailing line breaks, an empty plain scalar
        as the empty span just after its key's colon."""
        start, end, style = self.values[path]
        if start == end or not self.text[start:end].strip():
            if not path or not isinstance(path[-1], str):
                raise _Fallback
            at = self.colon_end(path)
            return at, at, style
        if self.text[start] == "&":
            m = re.match(r"&\S+\s+", self.text[start:end])
            if m is None:
                raise _Fallback
            start += m.end()
        if style in ("|", ">"):
            end = start + len(self.text[start:end].rstrip())
        return start, end, style

    def content_end(self, path: Path_, old: Any) -> int:
        """Where the text of the node at ``path`` (read as ``old``) ends,
        trailing comments and line breaks excluded."""
        start, end, style = self.values[path]
        if style == "block":
            if isinstance(old, dict) and old:
                last = list(old)[-1]
                return self.content_end(path + (last,), old[last])
            if isinstance(old, list) and old:
                return self.content_end(path + (len(old) - 1,), old[-1])
            raise _Fallback
        if style in ("flow", "*"):
            return end
        return self.scalar_span(path)[1]

    # -- scalars -----------------------------------------------------------

    def scalar(self, path: Path_, new: Any) -> None:
        start, end, style = self.scalar_span(path)
        original = self.text[start:end]
        text = self.scalar_text(new, style, self.in_flow(path), original)
        if start == end and start > 0 and not self.text[start - 1].isspace():
            text = " " + text
        self.edits.append((start, end, text))

    def scalar_text(self, value: Any, style: str, flow: bool, original: str = "") -> str:
        if self.json:
            return str(json.dumps(value, ensure_ascii=False))
        if value is None:
            return original if original in ("~", "null", "Null", "NULL") else "null"
        if isinstance(value, bool):
            word = "true" if value else "false"
            if original in ("True", "False"):
                return word.title()
            return word.upper() if original in ("TRUE", "FALSE") else word
        if isinstance(value, int) and value >= 0 and original[:2] in ("0x", "0o"):
            base = "x" if original[1] == "x" else "o"  # a hex or octal spelling stays so
            if base == "x" and any(c in "ABCDEF" for c in original):
                base = "X"
            return original[:2] + format(value, base)
        if isinstance(value, (int, float)):
            return repr(value)
        string: str = str(value)
        if style == "'" and "\n" not in string and "\r" not in string:
            return "'" + string.replace("'", "''") + "'"
        if style not in ('"', "|", ">") and _plain_ok(string, flow):
            return string
        return str(json.dumps(value, ensure_ascii=False))

    # -- structures --------------------------------------------------------

    @property
    def layout(self) -> tuple[int, int, int]:
        if self._layout is None:
            from linguo_cli.io.write import yaml_layout

            self._layout = yaml_layout(self.text)
        return self._layout

    def flow_for(self, key: Any, items: bool = False) -> bool:
        """Whether the file writes the collections under ``key`` (``items``: the
        items of its lists) in flow style only: a new one is written so too."""
        if self._styles is None:
            self._styles = {}
            for path, (_, _, style) in self.values.items():
                at = next((i for i in (1, 2) if len(path) >= i and isinstance(path[-i], str)), 0)
                if style in ("flow", "block") and at:
                    self._styles.setdefault((path[-at], at == 2), set()).add(style)
        return self._styles.get((key, items)) == {"flow"}

    def flow(self, value: Any) -> str:
        """``value`` as one line of flow YAML."""
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self.key_text(k, True)}: {self.flow(v)}"
                                   for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self.flow(v) for v in value) + "]"
        return self.scalar_text(value, "", True)

    def key_text(self, key: str, flow: bool) -> str:
        if self.json:
            return json.dumps(key, ensure_ascii=False)
        return key if _plain_ok(key, flow) else json.dumps(key, ensure_ascii=False)

    def block_lines(self, value: Any, key: Any = None) -> list[str]:
        """A non-empty mapping or list (the value of ``key``) as block YAML lines
        relative to its column, indented as the file indents (see flow_for)."""
        mapping, sequence, offset = self.layout
        dash = max(2, sequence - offset)
        lines: list[str] = []
        if isinstance(value, dict):
            for k, v in value.items():
                kt = self.key_text(k, False)
                if _nested(v) and not self.flow_for(k):
                    lines.append(f"{kt}:")
                    pad = " " * (mapping if isinstance(v, dict) else offset)
                    lines += [pad + ln for ln in self.block_lines(v, k)]
                else:
                    lines.append(f"{kt}: {self.flow(v)}")
            return lines
        for v in value:
            if isinstance(v, (dict, list)) and v and not self.flow_for(key, True):
                sub = self.block_lines(v)
                lines.append("-" + " " * (dash - 1) + sub[0])
                lines += [" " * dash + ln for ln in sub[1:]]
            else:
                lines.append(f"- {self.flow(v)}")
        return lines

    def json_text(self, value: Any, path: Path_, indent: str) -> str:
        """``value`` as JSON in the style of the container around ``path``."""
        parent = self.values.get(path[:-1]) if path else None
        multi = parent is not None and "\n" in self.text[parent[0]:parent[1]]
        colon = self.json_colon()
        step = _json_step(self.text) if multi else None
        if step is None:
            return json.dumps(value, separators=(self.json_comma(path[:-1]), colon),
                              ensure_ascii=False)
        text = json.dumps(value, indent=step, separators=(",", colon), ensure_ascii=False)
        return text.replace("\n", self.nl + indent)

    def json_colon(self) -> str:
        """The text between the file's first key and its value (``": "``)."""
        for path, (_, kend) in self.keys.items():
            if path in self.values:
                return self.text[kend:self.values[path][0]]
        return ": "

    def json_comma(self, container: Path_) -> str:
        starts = sorted(s for p, (s, _, _) in self.values.items()
                        if len(p) == len(container) + 1 and p[:-1] == container)
        ends = sorted(e for p, (_, e, _) in self.values.items()
                      if len(p) == len(container) + 1 and p[:-1] == container)
        if len(starts) >= 2:
            between = self.text[ends[0]:starts[1]]
            return "," + (" " if between.endswith(" ") or ", " in between else "")
        return ", " if ": " in self.json_colon() else ","

    def replace(self, path: Path_, old: Any, new: Any) -> None:
        """Replace the whole node at ``path`` (read as ``old``) by ``new``."""
        start, _, style = self.values[path]
        end = self.content_end(path, old)
        if style not in ("block", "flow", "*"):
            start, end, _ = self.scalar_span(path)
        if self.json:
            self.edits.append((start, end, self.json_text(new, path, self.line_indent(start))))
            return
        flow = self.in_flow(path)
        under_key = bool(path) and isinstance(path[-1], str)
        block = (isinstance(new, (dict, list)) and bool(new) and not flow and style != "flow"
                 and (style == "block" or _nested(new)
                      and not (under_key and self.flow_for(path[-1]))))
        if block:
            if style == "block":
                col = self.column(start)
            elif under_key:
                mapping, _, offset = self.layout
                col = self.column(self.keys[path][0]) + (
                    mapping if isinstance(new, dict) else offset)
            else:
                col = self.column(start)
            lines = self.block_lines(new, path[-1] if under_key else None)
            pad = self.nl + " " * col
            if under_key:
                self.edits.append((self.colon_end(path), end, pad + pad.join(lines)))
            else:
                self.edits.append((start, end, pad.join(lines)))
            return
        text = self.flow(new)
        if under_key and (style == "block" or start == end):
            self.edits.append((self.colon_end(path), end, " " + text))
        else:
            self.edits.append((start, end, text))

    def dash(self, path: Path_) -> int | None:
        """Offset of the ``-`` of the block list item at ``path`` when only
        spaces stand before it on its line, else ``None``."""
        start = self.values[path][0]
        before = self.text[:start].rstrip(" ")
        if not before.endswith("-"):
            return None
        at = len(before) - 1
        line = self.text.rfind("\n", 0, at) + 1
        return at if not self.text[line:at].strip(" ") else None

    def list_items(self, path: Path_, old: list[Any], new: list[Any]) -> bool:
        """Grow or shrink a block YAML list item by item (the items kept stay
        byte for byte); ``False`` where that does not apply (flow lists,
        JSON, an emptied list, items not each on their own lines)."""
        import difflib

        if self.json or not old or not new or self.values[path][2] != "block":
            return False
        dashes = [self.dash(path + (i,)) for i in range(len(old))]
        if any(d is None for d in dashes):
            return False
        starts = [self.text.rfind("\n", 0, d) + 1 for d in dashes if d is not None]
        ends = [self.line_end(self.content_end(path + (i,), v)) for i, v in enumerate(old)]
        col = self.column(dashes[0] or 0)
        gap = self.column(self.values[path + (0,)][0]) - col
        keys = [json.dumps(v, sort_keys=True) for v in old], [json.dumps(v, sort_keys=True)
                                                              for v in new]
        ops = difflib.SequenceMatcher(None, *keys, autojunk=False).get_opcodes()
        if all(op[0] != "equal" for op in ops):
            return False  # nothing kept: the whole list is written anew

        def items(values: list[Any], near: int) -> list[str]:
            """New items, in flow style where the nearest old item is."""
            pad = self.nl + " " * (col + gap)
            flow = self.values[path + (near,)][2] == "flow"
            return [" " * col + "-" + " " * (gap - 1) + (
                pad.join(self.block_lines(v)) if _nested(v) and not flow else self.flow(v))
                for v in values]

        for op, i1, i2, j1, j2 in ops:
            if op == "equal":
                continue
            if op == "replace" and i2 - i1 == j2 - j1:
                for k in range(i2 - i1):
                    self.node(path + (i1 + k,), old[i1 + k], new[j1 + k])
                continue
            added = items(new[j1:j2], i1 - 1 if i1 > 0 else min(i2, len(old) - 1))
            if i2 < len(old):  # before item i2: whole lines
                self.edits.append((starts[i1], starts[i2],
                                   "".join(a + self.nl for a in added)))
            else:  # at the end: after the last kept item's last line
                self.edits.append((ends[i1 - 1], ends[-1], "".join(self.nl + a for a in added)))
        return True

    def add_keys(self, path: Path_, old: dict[str, Any], added: dict[str, Any]) -> None:
        """Insert the keys ``added`` into the mapping at ``path`` (read as ``old``)."""
        start, end, style = self.values[path]
        if self.json:
            self.json_add(path, old, added)
        elif style == "flow":
            flow = [f"{self.key_text(k, True)}: {self.flow(v)}" for k, v in added.items()]
            if not old:
                self.edits.append((start + 1, start + 1, ", ".join(flow)))
            else:
                last = list(old)[-1]
                at = self.content_end(path + (last,), old[last])
                self.edits.append((at, at, "".join(", " + f for f in flow)))
        elif style == "block":
            first = list(old)[0]
            col = self.column(self.keys[path + (first,)][0])
            entries = [self.block_entry(k, v, col) for k, v in added.items()]
            if not path and "entities" in old:
                kstart = self.keys[("entities",)][0]
                line = self.text.rfind("\n", 0, kstart) + 1
                if not self.text[line:kstart].strip():
                    text = "".join(e + self.nl for e in entries)
                    self.edits.append((line, line, text))
                    return
            last = list(old)[-1]
            at = self.line_end(self.content_end(path + (last,), old[last]))
            self.edits.append((at, at, "".join(self.nl + e for e in entries)))
        else:
            raise _Fallback

    def block_entry(self, key: str, value: Any, col: int) -> str:
        pad = " " * col
        kt = self.key_text(key, False)
        if _nested(value) and not self.flow_for(key):
            mapping, _, offset = self.layout
            inner = " " * (col + (mapping if isinstance(value, dict) else offset))
            return pad + f"{kt}:" + "".join(self.nl + inner + ln
                                            for ln in self.block_lines(value, key))
        return pad + f"{kt}: {self.flow(value)}"

    def line_end(self, offset: int) -> int:
        at = self.text.find("\n", offset)
        if at < 0:
            return len(self.text)
        return at - 1 if at > 0 and self.text[at - 1] == "\r" else at

    def json_add(self, path: Path_, old: dict[str, Any], added: dict[str, Any]) -> None:
        start, end, _ = self.values[path]
        colon = self.json_colon()
        multi = "\n" in self.text[start:end] and bool(old)
        if multi:
            last = list(old)[-1]
            indent = self.line_indent(self.keys[path + (last,)][0])
            at = self.values[path + (last,)][1]
            text = "".join(
                f",{self.nl}{indent}{json.dumps(k, ensure_ascii=False)}{colon}"
                f"{self.json_text(v, path + (k,), indent)}" for k, v in added.items())
            self.edits.append((at, at, text))
            return
        comma = self.json_comma(path)
        items = [f"{json.dumps(k, ensure_ascii=False)}{colon}"
                 f"{json.dumps(v, separators=(comma, colon), ensure_ascii=False)}"
                 for k, v in added.items()]
        if not old:
            self.edits.append((start + 1, start + 1, comma.join(items)))
        else:
            at = self.values[path + (list(old)[-1],)][1]
            self.edits.append((at, at, "".join(comma + i for i in items)))

"""Swap a mutated module into a running interpreter (the forked runs).

The mutated ``ast`` is compiled and executed into the module's own
namespace; then every function and class object the module defined before
is kept (other modules and the test modules hold references to them: ``from
x import f``, handler tables, decorators' registries) and given the mutant's
behaviour in place:

* a function gets the new ``__code__``, ``__defaults__`` and
  ``__kwdefaults__``, and what its closure cells hold (a function a wrapper
  closes over is swapped in turn); a ``functools`` wrapper: its
  ``__wrapped__`` function, and its cache is cleared; a method,
  static/class method or property of a class likewise; a class attribute
  whose value changed is set again;
* a plain value (a constant, a table) takes the new value in the module and
  in every loaded module that imported it under the same name;
* instances of the module's classes built by the module's own code (a
  ``_NONE = Effects()``) are given the kept class, enum members are mapped
  to the kept members by name;
* every ``functools`` cache of ``linguo_cli`` is cleared afterwards (a result
  the unmutated code computed must not answer for the mutant).

Where this cannot be done faithfully :class:`Unsound` is raised (a nested
function's free variables changed, a class gained an attribute, an enum's
member values changed, an object of an unknown kind changed); the runner
then uses the isolated path (a fresh process over a copy of the tree).
"""

from __future__ import annotations

import ast
import enum
import sys
import types
from typing import Any

_MISSING = object()
_CLASS_SKIP = frozenset({
    "__dict__", "__weakref__", "__doc__", "__module__", "__qualname__",
    "__dataclass_fields__", "__dataclass_params__", "__match_args__", "__annotations__",
    "__parameters__", "__orig_bases__", "__slots__", "__abstractmethods__", "_abc_impl",
    "_member_map_", "_member_names_", "_value2member_map_", "_member_type_",
    "_value_repr_", "_unhashable_values_", "_new_member_", "_use_args_", "__static_attributes__",
    "__firstlineno__",
})
_DESCRIPTORS = (types.MemberDescriptorType, types.GetSetDescriptorType)


class Unsound(Exception):
    """The mutant cannot be swapped in faithfully: run it isolated."""


def _is_code_holder(obj: Any) -> bool:
    return isinstance(obj, (types.FunctionType, type, staticmethod, classmethod, property)) or (
        callable(obj) and hasattr(obj, "__wrapped__"))


class _Swapper:
    def __init__(self) -> None:
        self.classes: dict[type, type] = {}  # new class -> kept class
        self.kept: dict[int, Any] = {}  # id(new function or class) -> kept object

    def register(self, new: Any, kept: Any) -> None:
        """``new`` (of a fresh namespace) stands for ``kept`` in values."""
        self.kept[id(new)] = kept
        if isinstance(new, type) and isinstance(kept, type):
            self.classes[new] = kept
            for key, value in vars(new).items():
                other = vars(kept).get(key, _MISSING)
                if other is not _MISSING and other is not value and _is_code_holder(value):
                    self.register(value, other)

    # -- values built by the mutated module's code ---------------------------
    def translate(self, value: Any, depth: int = 0) -> Any:
        """``value`` with instances of new classes given the kept ones."""
        if depth > 6:
            return value
        if id(value) in self.kept:
            return self.kept[id(value)]
        cls = type(value)
        if cls in self.classes:
            kept = self.classes[cls]
            if isinstance(value, enum.Enum):
                return kept[value.name]
            try:
                object.__setattr__(value, "__class__", kept)
            except TypeError as exc:
                raise Unsound(f"cannot re-class a {cls.__name__}: {exc}") from exc
            return value
        if cls in (tuple, list, set, frozenset):
            items = [self.translate(v, depth + 1) for v in value]
            return value if all(a is b for a, b in zip(items, value, strict=True)) \
                else cls(items)
        if cls is dict:
            pairs = [(self.translate(k, depth + 1), self.translate(v, depth + 1))
                     for k, v in value.items()]
            same = all(a is k and b is v for (a, b), (k, v) in zip(pairs, value.items(),
                                                                    strict=True))
            return value if same else dict(pairs)
        return value

    # -- code-holding objects ------------------------------------------------
    def swap(self, old: Any, new: Any, where: str) -> None:
        """Give ``old`` the behaviour of ``new`` (same kind of object)."""
        if old is new:
            return
        if isinstance(old, types.FunctionType) and isinstance(new, types.FunctionType):
            if old.__code__.co_freevars != new.__code__.co_freevars:
                raise Unsound(f"{where}: free variables changed")
            old.__code__ = new.__code__
            old.__defaults__ = self.translate(new.__defaults__)
            old.__kwdefaults__ = self.translate(new.__kwdefaults__)
            self.swap_closure(old, new, where)
        elif isinstance(old, type) and isinstance(new, type):
            self.swap_class(old, new, where)
        elif isinstance(old, (staticmethod, classmethod)) and type(old) is type(new):
            self.swap(old.__func__, new.__func__, where)
        elif isinstance(old, property) and isinstance(new, property):
            for part in ("fget", "fset", "fdel"):
                a, b = getattr(old, part), getattr(new, part)
                if (a is None) != (b is None):
                    raise Unsound(f"{where}: property {part} added or removed")
                if a is not None:
                    self.swap(a, b, f"{where}.{part}")
        elif hasattr(old, "__wrapped__") and hasattr(new, "__wrapped__"):
            self.swap(old.__wrapped__, new.__wrapped__, where)
            if hasattr(old, "cache_clear"):
                old.cache_clear()
        else:
            raise Unsound(f"{where}: cannot swap {type(old).__name__} for {type(new).__name__}")

    def swap_closure(self, old: types.FunctionType, new: types.FunctionType, where: str) -> None:
        """The cells of ``old``'s closure take what ``new``'s hold: a function
        a wrapper closes over (``reprlib.recursive_repr`` around a dataclass's
        generated ``__repr__``, a decorator's inner function) is swapped in
        turn, another value is set again where it differs."""
        for i, (a, b) in enumerate(zip(old.__closure__ or (), new.__closure__ or (), strict=True)):
            try:
                held, fresh = a.cell_contents, b.cell_contents
            except ValueError as exc:  # an empty cell
                raise Unsound(f"{where}: an empty closure cell") from exc
            after = self.translate(fresh)
            if after is held:
                continue  # the same object, or the kept class (``__class__``)
            if isinstance(held, types.FunctionType) and isinstance(fresh, types.FunctionType):
                self.swap(held, fresh, f"{where}.<closure {i}>")
            elif isinstance(held, type) and isinstance(fresh, type):
                # a class a generated method closes over (a slots dataclass's
                # class before its slots were added): the kept one stays
                if held.__qualname__ != fresh.__qualname__:
                    raise Unsound(f"{where}: a closure holds another class")
            elif isinstance(held, type) or isinstance(fresh, type):
                raise Unsound(f"{where}: a closure holds a class and a value")
            elif not _equal(held, after):
                a.cell_contents = after

    def swap_class(self, old: type, new: type, where: str) -> None:
        if issubclass(old, enum.Enum):
            before = [(m.name, m.value) for m in old]  # type: ignore[var-annotated]
            after = [(m.name, m.value) for m in new]  # type: ignore[var-annotated]
            if before != after:
                raise Unsound(f"{where}: enum members changed")
        for key, value in vars(new).items():
            if key in _CLASS_SKIP or isinstance(value, _DESCRIPTORS):
                continue
            if isinstance(value, enum.Enum) and type(value) is new:
                continue  # a member: same name and value (checked above)
            kept = vars(old).get(key, _MISSING)
            if kept is _MISSING:
                raise Unsound(f"{where}.{key}: a new class attribute")
            if kept is value:
                continue
            if _is_code_holder(kept) and _is_code_holder(value):
                self.swap(kept, value, f"{where}.{key}")
            elif not _equal(kept, after := self.translate(value)):
                type.__setattr__(old, key, after)


def _equal(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - an odd __eq__: treat as changed
        return False


def _rebind(module: types.ModuleType, name: str, old: Any, new: Any) -> None:
    """``name`` of ``module`` changed value: the modules that imported it
    under the same name (``from module import name``) take the new one."""
    for other in list(sys.modules.values()):
        space = getattr(other, "__dict__", None)
        if other is not module and isinstance(space, dict) and space.get(name, _MISSING) is old:
            space[name] = new


def clear_caches(prefix: str = "linguo_cli") -> None:
    """Clear every ``functools`` cache in the modules under ``prefix``
    (module functions and class attributes)."""
    for name, mod in list(sys.modules.items()):
        if not (name == prefix or name.startswith(prefix + ".")):
            continue
        for value in list(vars(mod).values()):
            holders = [value, *vars(value).values()] if isinstance(value, type) else [value]
            for h in holders:
                h = getattr(h, "__func__", h)
                clear = getattr(h, "cache_clear", None)
                if callable(clear) and hasattr(h, "__wrapped__"):
                    clear()


def _fresh(module: types.ModuleType, code: types.CodeType) -> dict[str, Any]:
    """A new namespace with ``code`` executed in it, as the module's."""
    space = {k: module.__dict__[k] for k in ("__name__", "__file__", "__package__", "__spec__",
                                             "__loader__", "__builtins__") if k in module.__dict__}
    exec(code, space)  # noqa: S102 - the module's own (mutated) source
    return space


def swap_in(module_name: str, original: ast.Module, mutated: ast.Module, filename: str) -> None:
    """Give the loaded module ``module_name`` the behaviour of ``mutated``
    and keep its objects' identity (see the module docstring).

    Both trees are executed into fresh namespaces; a plain value changes
    only where the two differ (so a registry other modules filled at import
    stays filled). An exception the mutated module code raises propagates
    (the mutant breaks the import: killed, as in a fresh process);
    :class:`Unsound` when the swap cannot be done faithfully."""
    module = sys.modules[module_name]
    ref = _fresh(module, compile(original, filename, "exec"))
    new = _fresh(module, compile(mutated, filename, "exec"))
    sw = _Swapper()
    space = vars(module)
    if set(ref) != set(new):
        raise Unsound(f"{module_name}: the mutant defines other names")
    for ns in (ref, new):  # every new class/function stands for the kept one
        for name, value in ns.items():
            kept = space.get(name, _MISSING)
            if kept is not _MISSING and kept is not value and _is_code_holder(value):
                sw.register(value, kept)
    for name, value in new.items():
        kept = space.get(name, _MISSING)
        if kept is _MISSING or kept is value:
            continue
        if _is_code_holder(kept) and _is_code_holder(value):
            sw.swap(kept, value, f"{module_name}.{name}")
            continue
        before, after = sw.translate(ref[name]), sw.translate(value)
        if not _equal(before, after):
            space[name] = after
            _rebind(module, name, kept, after)
    clear_caches()

"""The engine's and the players' implementation is chosen once, at import: no function of
``engine`` or ``duplicate`` tests which one is in use when it is called (docs/CORE.md,
"Choosing the implementation").

The scan reads every module with ``ast``. The *choice* is ``engine.core``'s ``native`` and
``compiled``, whatever a module imports from ``duplicate.native``, and every module-level
name computed from those (``NATIVE = core.load_layer(...)``, ``_CHOSEN = ...``); inside a
function, reading ``core.native`` or ``core.compiled`` at all, or testing the choice (an
``if``, a conditional expression, ``and``/``or``, a comparison, ``hasattr``) is refused.
Calling the compiled module (``PLAYERS.plan_hand(...)``) is what the ``c_`` functions do
and is allowed. ``engine/core.py`` and ``duplicate/native.py`` make the choice and are not
scanned."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import bulk, core, deal, moves, reading

ROOT = Path(__file__).resolve().parent.parent
#: the modules that make the choice
CHOOSERS = {ROOT / "engine" / "core.py", ROOT / "duplicate" / "native.py"}
#: the attributes of engine.core that are the choice
CHOICE = {"native", "compiled"}
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _core_aliases(tree: ast.Module) -> set[str]:
    """The names a module gives ``engine.core``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "engine":
            out |= {a.asname or a.name for a in node.names if a.name == "core"}
        elif isinstance(node, ast.Import):
            out |= {a.asname for a in node.names if a.name == "engine.core" and a.asname}
    return out


def _is_choice(node: ast.AST, aliases: set[str], flags: set[str]) -> bool:
    """True when ``node`` itself is the choice: ``core.native``, ``core.compiled``, a flag."""
    if (isinstance(node, ast.Attribute) and node.attr in CHOICE
            and isinstance(node.value, ast.Name) and node.value.id in aliases):
        return True
    return isinstance(node, ast.Name) and node.id in flags


def _reads_choice(node: ast.AST, aliases: set[str], flags: set[str]) -> bool:
    """True when the expression ``node`` reads the choice, other than by calling a function
    of the compiled module (``PLAYERS.plan_hand(...)``, ``_C.is_legal(...)``)."""
    called = {id(sub.func.value) for sub in ast.walk(node)
              if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)}
    return any(_is_choice(sub, aliases, flags) and id(sub) not in called
               for sub in ast.walk(node))


def _holds_choice(value: ast.expr, aliases: set[str], flags: set[str]) -> bool:
    """True when a name assigned ``value`` holds the choice or a compiled module: the
    choice itself, a call of a flag (``players()``) or of ``load_layer``, or a test of the
    choice (``NATIVE is not None and core.native is not None``); not a function chosen by
    it (``f = c_f if CHOSEN else py_f``: that is the binding made at import)."""
    if _is_choice(value, aliases, flags):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        return (_is_choice(func, aliases, flags)
                or (isinstance(func, ast.Attribute) and func.attr == "load_layer")
                or (isinstance(func, ast.Name) and func.id == "load_layer"))
    if isinstance(value, ast.BoolOp | ast.Compare | ast.UnaryOp):
        return _reads_choice(value, aliases, flags)
    return False


def _flags(tree: ast.Module, aliases: set[str]) -> set[str]:
    """The module-level names that hold the choice or a compiled module."""
    flags: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "duplicate.native":
            flags |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module == "engine.core":
            flags |= {a.asname or a.name for a in node.names if a.name in CHOICE}
    changed = True
    while changed:  # names computed from flags are flags
        changed = False
        for node in tree.body:
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            if value is None:
                continue
            if not _holds_choice(value, aliases, flags):
                continue
            for target in targets:
                if isinstance(target, ast.Name) and target.id not in flags:
                    flags.add(target.id)
                    changed = True
    return flags


def _tests(function: ast.AST) -> Iterator[ast.AST]:
    """The expressions a function's body decides on."""
    for node in ast.walk(function):
        if isinstance(node, ast.If | ast.IfExp | ast.While | ast.Assert):
            yield node.test
        elif isinstance(node, ast.BoolOp | ast.Compare):
            yield node
        elif isinstance(node, ast.comprehension):
            yield from node.ifs
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "hasattr":
            yield node


def offences(source: str) -> list[str]:
    """Each function of ``source`` that reads or tests the choice when it is called."""
    tree = ast.parse(source)
    aliases = _core_aliases(tree)
    flags = _flags(tree, aliases)
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, _FUNCTIONS):
            continue
        name = getattr(function, "name", "<lambda>")
        local = set(flags)
        for node in ast.walk(function):  # a local copy of the choice: native = players()
            if isinstance(node, ast.Assign) and _holds_choice(node.value, aliases, local):
                local |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(function):
            if (isinstance(node, ast.Attribute) and node.attr in CHOICE
                    and isinstance(node.value, ast.Name) and node.value.id in aliases):
                found.append(f"{name} (line {node.lineno}) reads {node.value.id}.{node.attr}")
        for test in _tests(function):
            if _reads_choice(test, aliases, local):
                found.append(f"{name} (line {getattr(test, 'lineno', '?')}) tests the choice")
    return sorted(set(found))


def _modules() -> list[Path]:
    paths = sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "duplicate").rglob("*.py"))
    return [p for p in paths if p not in CHOOSERS]


def test_no_function_of_the_engine_or_the_players_tests_the_choice_when_called() -> None:
    found = {str(p.relative_to(ROOT)): offences(p.read_text(encoding="utf-8"))
             for p in _modules()}
    assert {path: got for path, got in found.items() if got} == {}


@pytest.mark.parametrize("source", [
    # the engine's old dispatch: the choice read at every call
    "from engine import core as _core\n"
    "def legal(hand):\n"
    "    native = _core.native\n"
    "    if native is not None:\n"
    "        return native.plays(hand)\n"
    "    return []\n",
    # the players' old dispatch, through a function of duplicate.native
    "from duplicate.native import players\n"
    "def plan(hand):\n"
    "    native = players()\n"
    "    if native is not None and hasattr(native, 'plan_hand'):\n"
    "        return native.plan_hand(hand)\n"
    "    return None\n",
    # the solver's: a module-level compiled module tested in a method
    "from engine import core as _core\n"
    "NATIVE = _core.load_layer('x', None)\n"
    "class Solver:\n"
    "    def value(self, pos):\n"
    "        return 1 if NATIVE is not None else 2\n",
])
def test_the_scan_finds_a_choice_made_at_call_time(source: str) -> None:
    assert offences(source)


def test_the_scan_allows_a_choice_made_at_import() -> None:
    source = (
        "from engine import core as _core\n"
        "from duplicate.native import CHOSEN, PLAYERS\n"
        "def py_plan(hand):\n"
        "    return hand if hand else None\n"
        "def c_plan(hand):\n"
        "    return PLAYERS.plan_hand(hand)\n"
        "plan = c_plan if CHOSEN else py_plan\n"
        "legal = c_plan if _core.native is not None else py_plan\n"
    )
    assert offences(source) == []


def test_the_public_names_are_the_chosen_implementations() -> None:
    prefix = "c_" if core.native is not None else "py_"
    for module, names in ((reading, ("readings", "reading_keys")),
                          (moves, ("legal_plays", "legal_readings", "is_legal", "count_plays",
                                   "legal_play_list")),
                          (bulk, ("replay_log", "random_deal_log", "random_deals"))):
        for name in names:
            assert getattr(module, name) is getattr(module, prefix + name), name
    assert deal.Deal.verify_play is getattr(deal.Deal, prefix + "verify_play")
    assert deal.Deal.play_cards is getattr(deal.Deal, prefix + "play_cards")

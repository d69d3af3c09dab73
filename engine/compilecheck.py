"""The child side of :mod:`engine.sourcecheck`: parse and compile a bot's sources, never run them.

Run as a script (``python -I -S compilecheck.py``) under the limits it sets on itself
first, it reads ``{"sources", "entry", "entry_point"}`` on stdin and writes one answer dict
on stdout, both in ``marshal`` format: plain dicts and strings passed between two copies of
this code (the bot's code is compiled, never run, so it cannot write there). It imports as
little as it can, since each millisecond of start-up is paid on every upload; that is why
it holds the entry-point rule too, which the parent re-exports.
"""

from __future__ import annotations

import _ast as ast  # the node classes without ``ast``'s import cost (~17 ms a start)
import marshal  # built in; ``json`` would cost ~20 ms of imports on every upload
import os
import sys

__all__ = ["CHECK_CPU_S", "CHECK_MEMORY_BYTES", "TOO_COMPLEX", "defines", "unavailable_import"]

#: CPU seconds the child may spend on one upload's sources (a normal bot needs ~10 ms).
CHECK_CPU_S = 5
#: Address space of the child: generous for a 10 MB upload, small next to the machine.
CHECK_MEMORY_BYTES = 768 * 1024 * 1024
_ONLY_AST = 0x400  # ast.PyCF_ONLY_AST
TOO_COMPLEX = "is too large or too deeply nested to compile (simplify or split it)"


def defines(tree: ast.Module, name: str) -> bool:
    """Whether the module may bind ``name`` at top level (def, assignment or import).

    A quick check that gives an upload its clear message before it is queued. It errs on the
    side of the bot: a definition under ``if``/``try``/``with``/``match`` or an ``import *``
    counts, and the import in the sandbox at validation has the final word.

    >>> defines(compile("if True:\\n    def act(o): return {}\\n", "b", "exec", _ONLY_AST), "act")
    True
    >>> defines(compile("act = None\\n", "bot.py", "exec", _ONLY_AST), "act")
    False
    """
    return _binds(tree.body, name)


_BLOCKS = (ast.If, ast.Try, ast.TryStar, ast.With, ast.For, ast.While)


def _binds(body: list[ast.stmt], name: str) -> bool:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            # ``act = None`` or ``act = 3`` binds the name to something that cannot be called.
            if isinstance(node.value, ast.Constant | ast.JoinedStr | ast.List | ast.Dict):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_names(target, name) for target in targets):
                return True
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*" or (alias.asname or alias.name.split(".")[0]) == name:
                    return True
        elif isinstance(node, _BLOCKS):
            blocks = [node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])]
            blocks += [handler.body for handler in getattr(node, "handlers", [])]
            if any(_binds(block, name) for block in blocks):
                return True
        elif isinstance(node, ast.Match) and any(_binds(c.body, name) for c in node.cases):
            return True
    return False


def _names(target: ast.expr, name: str) -> bool:
    """Whether an assignment target (possibly a tuple) binds ``name``."""
    if isinstance(target, ast.Name):
        return target.id == name
    if isinstance(target, ast.Tuple | ast.List):
        return any(_names(element, name) for element in target.elts)
    if isinstance(target, ast.Starred):
        return _names(target.value, name)
    return False


#: Exceptions whose handler makes the imports of a ``try`` body optional.
_IMPORT_GUARDS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def unavailable_import(tree: ast.Module, allowed: frozenset[str]) -> tuple[str, int] | None:
    """The first import of a module a bot cannot have, as ``(module, line)``, or None.

    A bot may import the standard library, the packages the arena installs
    (``engine.botpackages``) and its own modules; ``allowed`` holds the last two (top-level
    names). An import under ``try`` with an ``except ImportError`` (or broader) is the bot's
    own fallback and passes, as does one under ``if TYPE_CHECKING:``; relative imports are
    the bot's own. Names built at run time (``importlib``) are left to the sandbox, where
    nothing else exists to import.

    >>> tree = compile("import json\\nimport pandas as pd\\n", "b", "exec", _ONLY_AST)
    >>> unavailable_import(tree, frozenset({"numpy"}))
    ('pandas', 2)
    >>> tree = compile("try:\\n    import torch\\nexcept ImportError:\\n    torch = None\\n",
    ...                "b", "exec", _ONLY_AST)
    >>> unavailable_import(tree, frozenset()) is None
    True
    """
    return _first_unavailable(tree.body, allowed | frozenset(sys.stdlib_module_names))


def _first_unavailable(body: list[ast.stmt], known: frozenset[str]) -> tuple[str, int] | None:
    for node in body:
        found: tuple[str, int] | None = None
        if isinstance(node, ast.Import):
            found = next(
                ((a.name, node.lineno) for a in node.names if a.name.split(".")[0] not in known),
                None,
            )
        elif isinstance(node, ast.ImportFrom):
            top = (node.module or "").split(".")[0]
            if node.level == 0 and top and top not in known:
                found = (node.module or top, node.lineno)
        elif isinstance(node, ast.Try | ast.TryStar):
            guarded = any(_guards(handler.type) for handler in node.handlers)
            blocks = [] if guarded else [node.body]
            blocks += [node.orelse, node.finalbody, *(h.body for h in node.handlers)]
            found = _first_in(blocks, known)
        elif isinstance(node, ast.If) and _type_checking(node.test):
            found = _first_unavailable(node.orelse, known)
        else:
            blocks = [getattr(node, name, None) for name in ("body", "orelse", "finalbody")]
            blocks += [case.body for case in getattr(node, "cases", [])]
            found = _first_in([b for b in blocks if isinstance(b, list)], known)
        if found is not None:
            return found
    return None


def _first_in(blocks: list[list[ast.stmt]], known: frozenset[str]) -> tuple[str, int] | None:
    for block in blocks:
        found = _first_unavailable(block, known)
        if found is not None:
            return found
    return None


def _guards(kind: ast.expr | None) -> bool:
    """Whether an ``except`` clause catches a failed import (a bare ``except`` does)."""
    if kind is None:
        return True
    if isinstance(kind, ast.Tuple):
        return any(_guards(element) for element in kind.elts)
    name = kind.id if isinstance(kind, ast.Name) else getattr(kind, "attr", "")
    return name in _IMPORT_GUARDS


def _type_checking(test: ast.expr) -> bool:
    name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
    return name == "TYPE_CHECKING"


def _check_one(
    path: str, text: str, entry_point: str | None, allowed: frozenset[str] | None = None
) -> dict[str, str] | None:
    """The child's check of one file: parse and compile it (never run it).

    With ``entry_point``, the file must also bind that name at top level; with ``allowed``,
    it may import only the standard library and those modules (:func:`unavailable_import`).
    """
    try:
        tree = compile(text, path, "exec", _ONLY_AST, dont_inherit=True)
        compile(tree, path, "exec", dont_inherit=True)  # the compiler's own SyntaxErrors
    except SyntaxError as exc:
        return {"code": "syntax_error", "message": f"syntax error on line {exc.lineno}: {exc.msg}"}
    except ValueError as exc:  # e.g. null bytes
        return {"code": "syntax_error", "message": str(exc)}
    except (RecursionError, MemoryError):
        return {"code": "too_complex", "message": TOO_COMPLEX}
    if entry_point is not None and not defines(tree, entry_point):
        return {
            "code": "no_entry_point",
            "message": f"defines no top-level {entry_point}(observation) function "
            "(see docs/bot-api.md)",
        }
    found = unavailable_import(tree, allowed) if allowed is not None else None
    if found is not None:
        return {
            "code": "unavailable_import",
            "message": f"line {found[1]} imports {found[0]}, which bots cannot use: "
            "the arena offers the standard library and the packages listed in "
            "docs/bot-api.md",
        }
    return None


def _child_main() -> None:
    """Entry point of the limited child: request on stdin, answer on stdout."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (CHECK_MEMORY_BYTES, CHECK_MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_CPU, (CHECK_CPU_S, CHECK_CPU_S))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    request = marshal.loads(sys.stdin.buffer.read())  # noqa: S302 - written by the parent
    answer: dict[str, object] = {"ok": True}
    entry, entry_point = request["entry"], request["entry_point"]
    allowed = request.get("allowed")
    allowed = frozenset(allowed) if allowed is not None else None
    for path, text in request["sources"].items():
        problem = _check_one(path, text, entry_point if path == entry else None, allowed)
        if problem is not None:
            answer = {"ok": False, "path": path, **problem}
            break
    os.write(1, marshal.dumps(answer))


if __name__ == "__main__":
    _child_main()

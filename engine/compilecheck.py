"""The child side of :mod:`engine.sourcecheck`: parse and compile a bot's sources, never run them.

Run as a script (``python -I -S compilecheck.py``) under the limits it sets on itself
first, it reads ``{"sources", "entry", "entry_point", "importable", "packages"}`` on stdin
and writes one answer dict on stdout, both in ``marshal`` format: plain dicts and strings
passed between two copies of this code (the bot's code is compiled, never run, so it cannot
write there). It imports as little as it can, since each millisecond of start-up is paid on
every upload; that is why it holds the entry-point rule too, which the parent re-exports.
"""

from __future__ import annotations

import _ast as ast  # the node classes without ``ast``'s import cost (~17 ms a start)
import marshal  # built in; ``json`` would cost ~20 ms of imports on every upload
import os
import sys

__all__ = ["CHECK_CPU_S", "CHECK_MEMORY_BYTES", "TOO_COMPLEX", "defines", "first_foreign_import"]

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


def first_foreign_import(tree: ast.Module, importable: frozenset[str]) -> tuple[int, str] | None:
    """The first import (line, dotted name) of a module that is neither in the standard
    library nor in ``importable`` (the bot's own modules, and any the operator approved).

    A bot runs with the standard library and the bot packages only (``python -I -S`` in the
    jail; ``engine.botpackages``, which the parent passes in ``importable``), so such an
    import can only fail, at the start of the bot's first match; refusing it here says so at
    once, with its line. An import inside a ``try`` that has handlers is left alone: the bot
    is ready for it to fail (``try: import numpy`` ... ``except ImportError``). So are
    relative imports (``from . import x``): they name the bot's own files.

    >>> tree = compile("import json\\nimport numpy as np\\n", "bot.py", "exec", _ONLY_AST)
    >>> first_foreign_import(tree, frozenset())
    (2, 'numpy')
    >>> first_foreign_import(tree, frozenset({"numpy"})) is None
    True
    """
    found: list[tuple[int, str]] = []
    stack: list[object] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Try | ast.TryStar) and node.handlers:
            stack.extend([*node.handlers, *node.orelse, *node.finalbody])  # not its body
            continue
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append((node.lineno, node.module))
        for field in getattr(node, "_fields", ()):
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
    allowed = sys.stdlib_module_names | importable
    foreign = [(line, name) for line, name in found if name.split(".")[0] not in allowed]
    return min(foreign) if foreign else None


def _check_one(
    path: str,
    text: str,
    entry_point: str | None,
    importable: frozenset[str] = frozenset(),
    packages: str = "",
) -> dict[str, object] | None:
    """The child's check of one file: parse and compile it (never run it).

    With ``entry_point``, the file must also bind that name at top level. Every file may
    import only the standard library and ``importable`` (:func:`first_foreign_import`);
    a refused import names ``packages`` ("numpy 2.4.6"), what else a bot may import, since
    the author reading the message (on the site, or in a kit without this repository's
    docs) needs the list itself, not where it is kept.
    """
    try:
        tree = compile(text, path, "exec", _ONLY_AST, dont_inherit=True)
        compile(tree, path, "exec", dont_inherit=True)  # the compiler's own SyntaxErrors
    except SyntaxError as exc:
        return {
            "code": "syntax_error",
            "message": f"syntax error on line {exc.lineno}: {exc.msg}",
            "line": exc.lineno or 0,
        }
    except ValueError as exc:  # e.g. null bytes
        return {"code": "syntax_error", "message": str(exc)}
    except (RecursionError, MemoryError):
        return {"code": "too_complex", "message": TOO_COMPLEX}
    foreign = first_foreign_import(tree, importable)
    if foreign is not None:
        line, name = foreign
        also = f", {packages}" if packages else ""
        return {
            "code": "forbidden_import",
            "message": f"line {line}: import {name}: bots may import only the Python standard "
            f"library{also} and their own files",
            "line": line,
        }
    if entry_point is not None and not defines(tree, entry_point):
        return {
            "code": "no_entry_point",
            "message": f"defines no top-level {entry_point}(observation) function "
            "(see docs/bot-api.md)",
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
    importable = frozenset(request.get("importable", ()))
    packages = str(request.get("packages", ""))
    for path, text in request["sources"].items():
        problem = _check_one(
            path, text, entry_point if path == entry else None, importable, packages
        )
        if problem is not None:
            answer = {"ok": False, "path": path, **problem}
            break
    os.write(1, marshal.dumps(answer))


if __name__ == "__main__":
    _child_main()

"""A small mutation tester: where do the tests not bite?

Each mutant changes one thing in one module (a comparison flipped or made inclusive, `and` for `or`, a `not`
dropped, a number moved by one, + for -, a condition made always true or false, a statement removed), and runs
the tests given; a mutant no test fails on "survives", and is listed with its line for a person to judge:
equivalent (no observable change) or a gap in the tests.

    python tools/mutate.py casino_audit/games/baccarat.py tests/games/test_baccarat.py [more tests ...]
        [--then SLOWER_TESTS,...] [--only LINE[,LINE...]] [--timeout 120] [--out survivors.txt]

The module is rewritten in place (from its syntax tree: comments are dropped, the code is the same) and put back
as it was at the end, also on Ctrl-C. Run it in a checkout of your own: the tests run with `-n 0 -x`.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import subprocess
import sys
import time
from pathlib import Path

_FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
         ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_MIRROR = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
_ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.Mod: ast.FloorDiv,
          ast.FloorDiv: ast.Mod}


def _docstring(node) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _changes(node):
    line = getattr(node, "lineno", None)
    if line is None:
        return
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for table, what in ((_FLIP, "flip"), (_MIRROR, "mirror")):
                if type(op) in table:
                    new = table[type(op)]
                    yield (f"{what} {type(op).__name__} -> {new.__name__} (comparison {i})",
                           lambda n, i=i, new=new: n.ops.__setitem__(i, new()))
    elif isinstance(node, ast.BoolOp):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        yield f"{type(node.op).__name__} -> {new.__name__}", lambda n, new=new: setattr(n, "op", new())
        for i in range(len(node.values)):
            def drop(n, i=i):
                n.values.pop(i)
                if len(n.values) == 1:
                    return _replace_in_parent(n, n.values[0])
            yield f"{type(node.op).__name__}: drop operand {i}", drop
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "drop not", lambda n: _replace_in_parent(n, n.operand)
    elif isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        new = _ARITH[type(node.op)]
        yield f"{type(node.op).__name__} -> {new.__name__}", lambda n, new=new: setattr(n, "op", new())
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield f"{node.value} -> {node.value + 1}", lambda n: setattr(n, "value", n.value + 1)
        yield f"{node.value} -> {node.value - 1}", lambda n: setattr(n, "value", n.value - 1)
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield f"{node.value} -> {not node.value}", lambda n: setattr(n, "value", not n.value)
    elif isinstance(node, (ast.If, ast.IfExp, ast.While)) and not isinstance(node.test, ast.Constant):
        yield "condition -> True", lambda n: setattr(n, "test", ast.Constant(True))
        if not (isinstance(node, ast.If) and not node.orelse):  # else the same as deleting the statement
            yield "condition -> False", lambda n: setattr(n, "test", ast.Constant(False))
    elif isinstance(node, ast.comprehension):
        for i in range(len(node.ifs)):
            yield f"comprehension: drop if {i}", lambda n, i=i: n.ifs.pop(i)
    if isinstance(node, ast.stmt) and not _docstring(node) and not isinstance(
            node, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Pass)):
        yield "delete statement", lambda n: _replace_in_parent(n, ast.Pass())


_PARENTS: dict[int, tuple] = {}


def _replace_in_parent(node, new) -> bool | None:
    parent = _PARENTS.get(id(node))
    if parent is None:
        return False
    owner, field, index = parent
    if index is None:
        setattr(owner, field, new)
    else:
        getattr(owner, field)[index] = new
    return None


def _index_parents(tree) -> None:
    _PARENTS.clear()
    for owner in ast.walk(tree):
        for field, value in ast.iter_fields(owner):
            if isinstance(value, list):
                for i, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        _PARENTS[id(child)] = (owner, field, i)
            elif isinstance(value, ast.AST):
                _PARENTS[id(value)] = (owner, field, None)


def _all_mutants(source: str):
    tree = ast.parse(source)
    nodes = list(ast.walk(tree))
    in_messages = {id(inner) for node in nodes if isinstance(node, ast.JoinedStr) for inner in ast.walk(node)}
    for index, node in enumerate(nodes):
        if id(node) in in_messages:
            continue  # a number in a message's f-string changes the words, not the verdict
        for description, change in _changes(node):
            mutated = copy.deepcopy(tree)
            _index_parents(mutated)
            target = list(ast.walk(mutated))[index]
            if change(target) is False:
                continue
            try:
                text = ast.unparse(ast.fix_missing_locations(mutated))
                compile(text, "<mutant>", "exec")
            except (SyntaxError, ValueError, TypeError):
                continue
            yield node.lineno, description, text


def run_tests(tests: list[str], timeout: int) -> str:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": os.getcwd()}
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-x", "-q", "-p", "no:cacheprovider",
                               "-p", "no:randomly", *tests], env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    return {0: "survived", 1: "killed"}.get(done.returncode, f"error {done.returncode}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module")
    parser.add_argument("tests", nargs="+")
    parser.add_argument("--then", default="", help="slower tests (comma-separated) a survivor is tried on next")
    parser.add_argument("--only", default="", help="lines to mutate, e.g. 40,41")
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    path = Path(args.module)
    original = path.read_text()
    lines = {int(n) for n in args.only.split(",") if n}
    cache = path.parent / "__pycache__"
    for stale in cache.glob(f"{path.stem}.*.pyc") if cache.exists() else ():
        stale.unlink()  # a .pyc of the same size and second as a mutant would be taken for it
    baseline = ast.unparse(ast.parse(original))
    counts = {"killed": 0, "survived": 0, "timeout": 0}
    survivors = []
    started = time.monotonic()
    try:
        path.write_text(baseline)
        if run_tests(args.tests, args.timeout) != "survived":
            print("the tests fail on the unmutated module (as unparsed): nothing to learn", file=sys.stderr)
            return 2
        source_lines = original.splitlines()
        for line, description, text in _all_mutants(original):
            if lines and line not in lines:
                continue
            path.write_text(text)
            verdict = run_tests(args.tests, args.timeout)
            if verdict == "survived" and args.then:
                verdict = run_tests(args.then.split(","), args.timeout * 4)
            counts[verdict] = counts.get(verdict, 0) + 1
            if verdict in ("survived",) or verdict.startswith("error"):
                entry = f"{path}:{line}: {description} [{verdict}]  | {source_lines[line - 1].strip()}"
                survivors.append(entry)
                print(entry, flush=True)
    finally:
        path.write_text(original)
    total = sum(counts.values())
    summary = (f"{path}: {total} mutants, {counts['killed']} killed, {counts['survived']} survived, "
               f"{counts['timeout']} timed out ({time.monotonic() - started:.0f} s)")
    print(summary)
    if args.out:
        Path(args.out).write_text("\n".join([summary, *survivors]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The package's layout: its modules' imports point one way, so each can be read (and tested) with only what
it stands on. The imports read are those run when a module is imported (its top level, outside `if
TYPE_CHECKING:`); an import inside a function says why it is there (the start-up time, mostly)."""

from __future__ import annotations

import ast
from pathlib import Path

import casino_audit

PACKAGE = Path(casino_audit.__file__).parent
NAME = "casino_audit"


def module_names() -> dict[str, Path]:
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _top_level(body: list[ast.stmt]):
    """The statements run on import: the module's own, and those of its top-level if/try blocks (not of an `if
    TYPE_CHECKING:`, which never runs)."""
    for node in body:
        if isinstance(node, ast.If):
            test = node.test
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or \
                    isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING":
                yield from _top_level(node.orelse)
                continue
            yield from _top_level(node.body)
            yield from _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _top_level(block)
        else:
            yield node


def _type_checking(node) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or \
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _everywhere(tree):
    """Every statement that may run, in functions too: not the body of an `if TYPE_CHECKING:` (annotations only,
    never imported at run time)."""
    for node in ast.iter_child_nodes(tree):
        yield node
        if _type_checking(node):
            for child in node.orelse:
                yield from _everywhere_from(child)
            continue
        yield from _everywhere(node)


def _everywhere_from(node):
    yield node
    yield from _everywhere(node)


def imports_of(name: str, path: Path, modules: dict[str, Path], everywhere: bool = False) -> set[str]:
    """The package's modules `name` imports at its top level (or `everywhere`, in its functions too): `import
    a.b`, `from a import b` (b a module or a name of a), relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text("utf-8"))
    for node in _everywhere(tree) if everywhere else _top_level(tree.body):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {target for target in found if target in modules and target != name}


def graph(everywhere: bool = False) -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, modules, everywhere) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return [_path_round(component, edges) for component in components]


def _path_round(component: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest way from the component's first node back to itself, to say in the failure."""
    start, members = component[0], set(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(edges.get(node, ()) & members):
                if target == start:
                    return paths[node] + [start]
                if target not in paths:
                    paths[target] = paths[node] + [target]
                    following.append(target)
        frontier = following
    return component


def test_no_module_imports_itself_in_a_circle():
    found = cycles(graph())
    assert not found, "import cycles between modules:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_import_inside_a_function_hides_a_circle():
    # an import deferred for the start-up time must not be what keeps two modules from importing each other
    found = cycles(graph(everywhere=True))
    assert not found, "import cycles through imports in functions:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []

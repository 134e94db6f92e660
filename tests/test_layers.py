"""The Python package is in layers (python/lazycl/__init__.py's docstring, docs/layout.md): each
module imports only modules below it, so there is no import cycle, and no module imports inside
a function except an optional dependency. These tests read the sources in the tree (not the
installed package) and parse their imports."""
import ast
import os

import pytest

PKG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "lazycl")

# Bottom to top: a module may import the modules before it in this list, never one after it.
# A new module takes its place here (the test below fails until it has one).
LAYERS = [
    # 1. the extension, the shared helpers, the host fallback
    "_lazycl", "_util", "_fallback",
    # 2. modules over the extension alone
    "_index", "_compact", "_write", "_tiling", "_join", "_histogram", "_dlpack", "_info", "_host",
    "_profile", "_pytocl", "_kernelapi",
    # 3. the core: creation, views, reductions, sorts, scans
    "_creation", "_views", "_complex", "_reductions", "_sort", "_scans",
    # 4. the ufuncs
    "_ufuncs", "_elementwise",
    # 5. the feature modules
    "_setops", "_select", "_indexmaps", "_linalg", "_einsum", "_mathfns", "_stats", "linalg",
    "_shapes", "_arrayapi", "fft", "random", "_userkernels", "_rawkernel", "_vectorize",
    "_pykernel",
    # 6. the namespace, NumPy's protocols, the array type
    "_namespace", "_dispatch", "_array",
    # 7. the package, and its Dask support
    "__init__", "dask",
]

# Optional dependencies, which a function may import (the package works without them): Dask
# and distributed, and lazycl.dask, which imports Dask.
OPTIONAL = {"dask", "distributed"}


def _modules(pkg=PKG):
    return sorted(f[:-3] for f in os.listdir(pkg) if f.endswith(".py"))


def _imports(name, pkg=PKG):
    """[(imported module, top-level module it names, in_function, line)] of module `name`: the
    package's own modules by their file name ("__init__" for the package), anything else by
    its top-level name."""
    with open(os.path.join(pkg, name + ".py")) as f:
        tree = ast.parse(f.read(), name + ".py")
    out = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            if isinstance(child, ast.Import):
                for a in child.names:
                    top = a.name.split(".")[0]
                    if top == "lazycl":
                        parts = a.name.split(".")
                        out.append((parts[1] if len(parts) > 1 else "__init__", True,
                                    in_function, child.lineno))
                    else:
                        out.append((top, False, in_function, child.lineno))
            elif isinstance(child, ast.ImportFrom):
                if child.level == 0:
                    mod = child.module or ""
                    if mod.split(".")[0] == "lazycl":
                        parts = mod.split(".")
                        out.append((parts[1] if len(parts) > 1 else "__init__", True,
                                    in_function, child.lineno))
                    else:
                        out.append((mod.split(".")[0], False, in_function, child.lineno))
                elif child.module:                      # from .x import y
                    out.append((child.module.split(".")[0], True, in_function, child.lineno))
                else:                                   # from . import x, y
                    for a in child.names:
                        out.append((a.name, True, in_function, child.lineno))
            visit(child, inner)

    visit(tree, False)
    return out


def test_every_module_has_a_layer():
    missing = [m for m in _modules() if m not in LAYERS]
    assert not missing, f"modules with no place in LAYERS (tests/test_layers.py): {missing}"


def _upward(pkg=PKG):
    rank = {m: i for i, m in enumerate(LAYERS)}
    bad = []
    for m in _modules(pkg):
        for dep, own, in_function, line in _imports(m, pkg):
            if not own or (in_function and dep in OPTIONAL):
                continue
            if dep not in rank:
                bad.append(f"{m}.py:{line} imports {dep}, which has no layer")
            elif rank[dep] >= rank[m]:
                bad.append(f"{m}.py:{line} imports {dep}, which is not below it")
    return bad


def _in_function(pkg=PKG):
    return [f"{m}.py:{line} imports {dep} inside a function"
            for m in _modules(pkg) for dep, own, in_function, line in _imports(m, pkg)
            if in_function and dep not in OPTIONAL]


def test_no_upward_import():
    bad = _upward()
    assert not bad, "\n".join(bad)


def test_no_import_cycle():
    graph = {m: sorted({d for d, own, in_function, _ in _imports(m)
                        if own and d != m and not (in_function and d in OPTIONAL)})
             for m in _modules()}
    state, cycles = {}, []

    def walk(m, path):
        state[m] = "open"
        for d in graph.get(m, ()):
            if state.get(d) == "open":
                cycles.append(" -> ".join(path[path.index(d):] + [d]))
            elif d not in state:
                walk(d, path + [d])
        state[m] = "done"

    for m in graph:
        if m not in state:
            walk(m, [m])
    assert not cycles, "\n".join(cycles)


def test_no_import_inside_a_function():
    bad = _in_function()
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("source, check, expect", [
    ("from . import _array\n", _upward, "_util.py:1 imports _array, which is not below it"),
    ("import lazycl as lc\n", _upward, "_util.py:1 imports __init__, which is not below it"),
    ("def f():\n    from . import _lazycl\n", _in_function,
     "_util.py:2 imports _lazycl inside a function"),
    ("def f():\n    import dask\n", _in_function, None),
])
def test_the_checks_catch_a_violation(tmp_path, source, check, expect):
    """A copy of the package whose _util (the bottom layer) imports upward or inside a
    function fails the checks; an optional dependency inside a function passes."""
    for f in os.listdir(PKG):
        if f.endswith(".py"):
            with open(os.path.join(PKG, f)) as src:
                (tmp_path / f).write_text(src.read())
    (tmp_path / "_util.py").write_text(source)
    assert check(str(tmp_path)) == ([expect] if expect else [])


def test_namespace_names_have_one_home():
    """Each public name of the namespace comes from one module (its __all__)."""
    import lazycl
    seen = {}
    dups = []
    for m in lazycl._namespace.MODULES:
        for n in m.__all__:
            if n in seen:
                dups.append(f"{n}: {seen[n]} and {m.__name__}")
            seen[n] = m.__name__
    assert not dups, dups
    assert set(seen) == set(lazycl._namespace.__all__)

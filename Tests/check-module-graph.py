#!/usr/bin/env python3
"""Checks the module graph of ../shared/DESIGN.md §2.1, which the compiler alone does not hold.

    crypto ← protocol, system ← network ← agent/relay ← chat core ← desktop ← executables' libraries

For every library and executable target of Package.swift (read with `swift package dump-package`):
- it is in LAYERS below, and its declared dependencies are among those its layer allows;
- its sources import only modules it declares (SwiftPM on Linux lets a target import a module that
  merely happens to be built, so a declared graph can hide a real dependency);
- C modules are imported with `internal import`, so no C type reaches a public signature.
The relay, in particular, never reaches the chat core, even transitively.

Usage: check-module-graph.py [PACKAGE_DIR]     (exit 1 with one line per violation)
       check-module-graph.py --self-test       (shows each rule catches what it is for)
"""
import json
import os
import re
import subprocess
import sys

# Each library or executable target and what it may depend on directly. A new target must be
# placed here, in its layer, before it builds in `make test`.
C_MODULES = {"CSodium", "CSHA256", "CSQLiteCrypt", "CSystem", "CSQLite", "CDBus", "CNotify", "CGdkPixbuf", "CCurl", "CUtf8proc", "CChafa", "CQRencode"}
LAYERS = {
    "SimpleXCrypto": {"CSodium", "CSHA256"},
    "SimpleXProtocol": {"SimpleXCrypto"},
    "SimpleXSystem": {"SimpleXCrypto", "CSystem"},
    "SimpleXNetwork": {"SimpleXSystem", "CSystem"},
    "SimpleXRelay": {"SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork"},
    "SimpleXChat": {"SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork", "CSQLite", "CSQLiteCrypt", "CSystem"},
    "SimpleXDesktop": {
        "SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork", "SimpleXChat", "CDBus", "CNotify",
        "CGdkPixbuf", "CCurl",
    },
    # The full-screen client's library: the terminal UI layer, below the client's entry points.
    "SimpleXTUI": {
        "SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork", "SimpleXChat", "SimpleXDesktop",
        "CUtf8proc", "CChafa", "CQRencode", "CGdkPixbuf", "CSystem",
    },
    "SimpleXTerminal": {
        "SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork", "SimpleXChat", "SimpleXDesktop",
        "SimpleXTUI",
    },
    "SimpleXNotificationService": {
        "SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork", "SimpleXChat", "SimpleXDesktop",
    },
    "SimpleXShareService": {
        "SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork", "SimpleXChat", "SimpleXDesktop",
    },
    "simplex-chat": {"SimpleXTerminal", "SimpleXSystem"},
    "simplex-share": {"SimpleXShareService", "SimpleXSystem"},
    "simplex-nse": {"SimpleXNotificationService", "SimpleXSystem"},
    "smp-server": {"SimpleXRelay", "SimpleXSystem"},
}
# Modules the relay must never link, directly or through another module.
RELAY_FORBIDDEN = {"SimpleXChat", "SimpleXDesktop", "SimpleXTerminal", "SimpleXTUI", "CUtf8proc", "CChafa", "CQRencode", "CSQLite", "CSQLiteCrypt", "CDBus", "CNotify", "CGdkPixbuf", "CCurl"}
# Test code: free to depend on anything (its own rules are CONVENTIONS' Tests section).
TEST_ONLY = {"TestSupport", "simplex-test-peer", "CBench", "simplex-bench"}

IMPORT = re.compile(
    r"^\s*(?:@[\w()]+\s+)*(?P<access>public |package |internal |fileprivate |private )?import\s+"
    r"(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(?P<module>\w+)",
    re.M)


def dependencies(target):
    names = []
    for dep in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dep:
                names.append(dep[kind][0])
    return names


def source_imports(directory):
    """(file, module, access) for every import in the Swift files under directory."""
    found = []
    for root, _, files in os.walk(directory):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for match in IMPORT.finditer(text):
                found.append((path, match.group("module"), (match.group("access") or "").strip()))
    return found


def check(targets, imports_of):
    """targets: name -> (type, [deps]); imports_of(name) -> [(file, module, access)]. Returns violations."""
    problems = []
    local = set(targets)
    for name, (kind, deps) in sorted(targets.items()):
        if kind in ("system", "test") or name in TEST_ONLY:
            continue
        if name in C_MODULES:
            continue
        if name not in LAYERS:
            problems.append(f"{name}: a new target outside the layer table: place it in LAYERS of {sys.argv[0]}")
            continue
        for dep in deps:
            if dep not in LAYERS[name]:
                problems.append(f"{name} depends on {dep}, which its layer does not allow (DESIGN §2.1)")
        for path, module, access in imports_of(name):
            if module in local and module != name and module not in deps:
                problems.append(f"{path}: imports {module}, which {name} does not declare")
            if module in C_MODULES and access not in ("internal", "private", "fileprivate"):
                problems.append(f"{path}: `import {module}` must be `internal import {module}` (no C in public API)")
    # The relay's whole closure.
    seen, todo = set(), ["SimpleXRelay"]
    while todo:
        current = todo.pop()
        for dep in targets.get(current, ("", []))[1]:
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    for bad in sorted(seen & RELAY_FORBIDDEN):
        problems.append(f"SimpleXRelay links {bad}: the relay must link nothing above transport (issue 20)")
    return problems


def load(package_dir):
    dump = subprocess.run(
        ["swift", "package", "--package-path", package_dir, "dump-package"],
        check=True, capture_output=True, text=True).stdout
    data = json.loads(dump)
    targets, paths = {}, {}
    for target in data["targets"]:
        targets[target["name"]] = (target["type"], dependencies(target))
        default = ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
        paths[target["name"]] = os.path.join(package_dir, target.get("path") or default)
    return targets, lambda name: source_imports(paths[name])


def self_test():
    base = {
        "CSodium": ("system", []), "CSHA256": ("regular", []), "CSystem": ("system", []),
        "CSQLite": ("system", []),
        "SimpleXCrypto": ("regular", ["CSodium", "CSHA256"]),
        "SimpleXProtocol": ("regular", ["SimpleXCrypto"]),
        "SimpleXSystem": ("regular", ["SimpleXCrypto", "CSystem"]),
        "SimpleXNetwork": ("regular", ["SimpleXSystem"]),
        "SimpleXChat": ("regular", ["SimpleXNetwork", "SimpleXProtocol", "CSQLite"]),
        "SimpleXRelay": ("regular", ["SimpleXNetwork", "SimpleXProtocol"]),
    }
    no_imports = lambda name: []
    cases = []
    cases.append(("the layered graph passes", base, no_imports, 0))
    relay_on_chat = dict(base, SimpleXRelay=("regular", ["SimpleXNetwork", "SimpleXChat"]))
    cases.append(("the relay depending on the chat core fails", relay_on_chat, no_imports, 3))
    network_on_chat = dict(base, SimpleXNetwork=("regular", ["SimpleXSystem", "SimpleXChat"]))
    cases.append(("an upward dependency fails, and reaches the relay", network_on_chat, no_imports, 3))
    cases.append(("an undeclared import fails", base,
                  lambda n: [("R.swift", "SimpleXChat", "")] if n == "SimpleXRelay" else [], 1))
    cases.append(("a public C import fails", base,
                  lambda n: [("S.swift", "CSystem", "")] if n == "SimpleXSystem" else [], 1))
    cases.append(("an internal C import passes", base,
                  lambda n: [("S.swift", "CSystem", "internal")] if n == "SimpleXSystem" else [], 0))
    cases.append(("a target outside the table fails", dict(base, SimpleXNew=("regular", [])), no_imports, 1))
    failed = 0
    for title, targets, imports_of, expected in cases:
        got = check(targets, imports_of)
        ok = len(got) == expected
        failed += not ok
        print(f"{'ok' if ok else 'FAILED'}: {title} ({len(got)} violations, expected {expected})")
        for line in got if not ok else []:
            print(f"    {line}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    package_dir = os.path.relpath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems = check(*load(package_dir))
    for line in problems:
        print(f"module graph: {line}", file=sys.stderr)
    if not problems:
        print("module graph: every target depends only on the layers below it; the relay links no chat core")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

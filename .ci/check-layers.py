#!/usr/bin/env python3
"""Fails when a file of a lower layer of the library names a type declared in a higher one.

The layers, bottom to top, are in LAYERS: the folders of Sources/OpenCoreDataCore, then the targets above
that module, each one layer (Sources/OpenCoreDataResults). A type counts as declared
in a layer when a file of that folder declares it (class, struct, enum, protocol, actor or typealias)
and no other layer declares a type of the same name. Comments and string literals are not read, and a
file's own generic parameters are its own names. The references listed in layer-exceptions.txt (one
`path: name` a line, each with its reason) are known and allowed; any other fails the check.
"""
import pathlib
import re
import sys

LAYERS = ["Support", "Query", "Model", "ModelFile", "Persistence", "ObjectGraph", "Migration", "Results"]
REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
# The module whose top-level folders are layers, and the targets that are a layer each.
CORE = REPOSITORY / "Sources" / "OpenCoreDataCore"
TARGET_LAYERS = {REPOSITORY / "Sources" / "OpenCoreDataResults": "Results"}

DECLARATION = re.compile(
    r"^\s*(?:@[\w()]+\s+)*(?:(?:public|open|internal|package|private|fileprivate|final|indirect|nonisolated)(?:\(set\))?\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)", re.M)
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")
GENERIC_CLAUSE = re.compile(r"<([^<>]*)>")
GENERIC_PARAMETER = re.compile(r"(?:^|,)\s*([A-Z]\w*)\s*:")
EXCEPTIONS = pathlib.Path(__file__).resolve().parent / "layer-exceptions.txt"


def strip(text):
    """The text without comments and string literals (multi-line strings included)."""
    text = re.sub(r'"""[\s\S]*?"""', '""', text)
    text = re.sub(r"/\*[\s\S]*?\*/", " ", text)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return text


def layer_of(path):
    for root, layer in TARGET_LAYERS.items():
        if path.is_relative_to(root):
            return layer
    part = path.relative_to(CORE).parts[0]
    return part if part in LAYERS else None


def main():
    files = {}
    for path in sorted(p for root in [CORE, *TARGET_LAYERS] for p in root.rglob("*.swift")):
        layer = layer_of(path)
        if layer is None:
            continue
        files[path] = (layer, strip(path.read_text(encoding="utf-8")))
    declared = {}
    for path, (layer, text) in files.items():
        for name in DECLARATION.findall(text):
            declared.setdefault(name, set()).add(layer)
    owner = {name: next(iter(layers)) for name, layers in declared.items() if len(layers) == 1}
    allowed = set()
    for line in EXCEPTIONS.read_text(encoding="utf-8").splitlines() if EXCEPTIONS.exists() else []:
        line = line.split("#", 1)[0].strip()
        if line:
            file, name = (part.strip() for part in line.split(":", 1))
            allowed.add((file, name))
    problems = []
    used = set()
    for path, (layer, text) in files.items():
        rank = LAYERS.index(layer)
        relative = str(path.relative_to(REPOSITORY))
        seen = {name for clause in GENERIC_CLAUSE.findall(text) for name in GENERIC_PARAMETER.findall(clause)}
        for name in IDENTIFIER.findall(text):
            higher = owner.get(name)
            if higher is not None and LAYERS.index(higher) > rank and name not in seen:
                seen.add(name)
                if (relative, name) in allowed:
                    used.add((relative, name))
                else:
                    problems.append(f"{relative}: {layer} names {name}, declared in {higher}")
    for file, name in sorted(allowed - used):
        problems.append(f"{file}: {name} is listed in layer-exceptions.txt but no longer named; remove the line")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} reference(s) from a lower layer to a higher one "
              f"(layers, bottom to top: {', '.join(LAYERS)})", file=sys.stderr)
        return 1
    print(f"layers ok: {len(files)} files, bottom to top {', '.join(LAYERS)}; {len(used)} known exception(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

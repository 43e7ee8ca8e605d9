#!/usr/bin/env python3
"""Where the bytes of a firmware binary go: its sections, and its symbols grouped by module, by
folder (a service of TrackDaemon, a part of TrackCore) and by kind (generic specialisations,
closures, metadata, ...), plus its largest stack frames. Used by scripts/bench sizes.

usage: sizes.py BINARY SOURCES_DIR NM READELF OBJDUMP DEMANGLE  > report.md

BINARY is the unstripped aarch64 trackd (symbols and sizes from `NM -S --defined-only`); the
folders come from the declarations in SOURCES_DIR/<Module>/<folder>/*.swift. Identical code
folding (--icf=all) gives several names one address: each address is counted once, for the
first of its names in sorted order, and the names folded into it are counted apart.
"""
import collections
import os
import re
import subprocess
import sys

binary, sources, nm, readelf, objdump, demangle = sys.argv[1:7]
PROJECT_MODULES = ["TrackCore", "TrackIO", "TrackDaemon", "TrackctlCommands", "CLinux", "trackd", "trackctl"]


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


# --- sections --------------------------------------------------------------------------------------
sections = []  # (name, address, size, flags)
for line in run(readelf, "-S", "-W", binary).splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
    if m and m.group(1) != "NULL":
        sections.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16), m.group(4)))
allocated = [s for s in sections if "A" in s[3]]


def section_of(address):
    for name, start, size, _ in allocated:
        if start <= address < start + size:
            return name
    return None


# --- symbols ---------------------------------------------------------------------------------------
raw = []
for line in run(nm, "-S", "--defined-only", binary).splitlines():
    parts = line.split()
    if len(parts) != 4:
        continue
    address, size, kind, name = int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]
    if size == 0:
        continue
    raw.append((address, size, kind, name))
names = [r[3] for r in raw]
demangled = subprocess.run(
    [demangle], input="\n".join(names), check=True, capture_output=True, text=True).stdout.split("\n")
by_address = collections.defaultdict(list)
for (address, size, kind, name), text in zip(raw, demangled):
    by_address[(address, size)].append((name, text, kind))
symbols = []  # (address, size, section, name, demangled, folded count)
for (address, size), entries in by_address.items():
    entries.sort()
    name, text, kind = entries[0]
    symbols.append((address, size, section_of(address), name, text, len(entries) - 1))


# --- where a Swift symbol belongs ----------------------------------------------------------------
def matching(text, start, opening, closing):
    """Index of the bracket closing the one at `start`."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return index
    return len(text) - 1


def find_top(text, needle):
    """First index of `needle` outside brackets."""
    depth = 0
    for index in range(len(text)):
        if depth == 0 and text.startswith(needle, index):
            return index
        c = text[index]
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
    return -1


KIND_PREFIXES = [
    ("generic specialization <", "generic specialisations"),
    ("generic not re-abstracted specialization <", "generic specialisations"),
    ("function signature specialization <", "function signature specialisations"),
    ("merged ", "merged functions"),
    ("outlined ", "outlined copies and destroys"),
    ("reabstraction thunk", "thunks"),
    ("partial apply", "thunks"),
    ("protocol witness for ", "protocol witnesses"),
    ("one-time initialization function", "globals and their initialisers"),
    ("one-time initialization token", "globals and their initialisers"),
    ("variable initialization expression", "globals and their initialisers"),
    ("lazy protocol witness table", "metadata and witness tables"),
    ("type metadata", "metadata and witness tables"),
    ("full type metadata", "metadata and witness tables"),
    ("nominal type descriptor", "metadata and witness tables"),
    ("protocol witness table", "metadata and witness tables"),
    ("protocol conformance descriptor", "metadata and witness tables"),
    ("value witness", "metadata and witness tables"),
    ("metaclass", "metadata and witness tables"),
    ("class metadata", "metadata and witness tables"),
    ("method descriptor", "metadata and witness tables"),
    ("vtable", "metadata and witness tables"),
    ("{vtable", "metadata and witness tables"),
]


def strip(text):
    """The kind of a demangled Swift name and the declaration it is about, e.g.
    ("generic specialisations", "Swift.Array.append(...)")."""
    text = text.replace("->", "\u2192")  # an arrow's ">" is no bracket
    kind = None
    while True:
        before = text
        for prefix, name in KIND_PREFIXES:
            if text.startswith(prefix):
                kind = kind or name
                if prefix.endswith("<"):
                    close = matching(text, len(prefix) - 1, "<", ">")
                    rest = text[close + 1:]
                    text = rest[4:] if rest.startswith(" of ") else rest
                else:
                    of = min((i for i in (find_top(text, " of "), find_top(text, " for ")) if i >= 0), default=-1)
                    text = text[text.index(" ", of + 1) + 1:] if of >= 0 else text[len(prefix):]
                break
        local = re.match(r"^(?:implicit closure|closure|\$defer|[\w]+) #\d+ ", text)
        if local:
            kind = kind or ("closures" if "closure" in local.group(0) else "local functions and defers")
            where = find_top(text, " in ")
            text = text[where + 4:] if where >= 0 else text[local.end():]
        if text.startswith("static "):
            text = text[len("static "):]
        if text.startswith("(extension in "):
            close = matching(text, 0, "(", ")")
            text = text[close + 1:].lstrip(":")
        if text == before:
            break
    return kind, text


def qualified(text):
    """["TrackDaemon", "Daemon", "publishGpsd"] from "TrackDaemon.Daemon<A>.publishGpsd(...) -> ()"."""
    text = re.sub(r"\((\w+) in _[0-9A-F]+\)", r"\1", text)  # private names
    cut = len(text)
    for stop in ("(", " : ", " \u2192 ", " with ", " in "):
        index = find_top(text, stop)
        if 0 <= index < cut:
            cut = index
    head = text[:cut]
    out, depth, current = [], 0, ""
    for c in head:
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif depth == 0 and c == ".":
            out.append(current)
            current = ""
        elif depth == 0 and c != " ":
            current += c
    out.append(current)
    return [re.sub(r"^\(|\sin\s_.*$", "", part) for part in out if part]


# Types and functions by module and folder, from the sources.
type_folder = collections.defaultdict(dict)
func_folders = collections.defaultdict(lambda: collections.defaultdict(set))
for module in os.listdir(sources):
    root = os.path.join(sources, module)
    if not os.path.isdir(root):
        continue
    for directory, _, files in os.walk(root):
        relative = os.path.relpath(directory, root)
        for file in files:
            if not file.endswith(".swift"):
                continue
            # A folder's name, or a top-level file's.
            folder = file if relative == "." else relative.split(os.sep)[0] + "/"
            with open(os.path.join(directory, file), encoding="utf-8") as handle:
                source = handle.read()
            for match in re.finditer(r"\b(?:struct|enum|class|protocol|actor)\s+(\w+)", source):
                type_folder[module].setdefault(match.group(1), folder)
            for match in re.finditer(r"\bfunc\s+(\w+)", source):
                func_folders[module][match.group(1)].add(folder)
            for match in re.finditer(r"\b(?:var|let)\s+(\w+)\s*[:=]", source):
                func_folders[module][match.group(1)].add(folder)


def place(kind_and_text, name):
    """(module, folder, kind) of a symbol."""
    if not (name.startswith("$e") or name.startswith("_$e")):
        if name.startswith("_swift_stdlib_") or "swift_stdlib" in name:
            return ("Unicode tables", "", "Unicode tables")
        if name.startswith("OUTLINED_FUNCTION_"):
            # LLVM's machine outliner at -Osize: instruction sequences shared by many functions.
            return ("shared instruction sequences (-Osize outliner)", "", "outlined instruction sequences")
        if name.startswith("clinux_"):
            return ("CLinux (C)", "", "C functions")
        if name.startswith("swift_"):
            return ("Swift runtime (Embedded)", "", "runtime functions")
        return ("C, crt and linker", "", "C functions")
    kind, text = kind_and_text
    parts = qualified(text)
    # The module from the mangling itself ($e9TrackCore…, $es… for the standard library): the
    # demangled names of globals and tuples do not say it.
    mangled = re.match(r"_?\$e(?:(\d+)|(s))", name)
    if mangled and mangled.group(2):
        module = "Swift"
    elif mangled:
        length = int(mangled.group(1))
        start = mangled.end()
        module = name[start:start + length]
    else:
        module = parts[0] if parts else "(other Swift symbols)"
    if parts and parts[0] != module:
        parts = [module] + parts
    if module == "Swift" or module.startswith("Swift") or module in ("_Concurrency", "Synchronization"):
        module = "Swift stdlib"
    folder = ""
    if module in type_folder:
        member = parts[-1] if len(parts) > 1 else ""
        member = re.sub(r"\.(getter|setter|modify|init|deinit)$", "", member)
        candidates = func_folders[module].get(member, set())
        if len(candidates) == 1:
            folder = next(iter(candidates))
        else:
            for part in parts[1:]:
                if part in type_folder[module]:
                    folder = type_folder[module][part]
                    break
        folder = folder or "(other)"
    if kind is None:
        lowered = text.lower()
        kind = "metadata and witness tables" if ("metadata" in lowered or "witness table" in lowered
                                                or "descriptor" in lowered) else "functions"
    return (module, folder, kind)


rows = []
for address, size, section, name, text, folded in symbols:
    module, folder, kind = place(strip(text), name)
    rows.append((module, folder, kind, size, section, text, folded))


def table(header, totals, order=None, limit=None):
    print(header)
    print("|---|---:|---:|")
    items = sorted(totals.items(), key=lambda item: -item[1][0]) if order is None else [(k, totals[k]) for k in order if k in totals]
    shown = items[:limit] if limit else items
    for key, (bytes_, count) in shown:
        print(f"| {key} | {bytes_:,} | {count:,} |")
    if limit and len(items) > limit:
        rest = items[limit:]
        print(f"| {len(rest)} more | {sum(v[0] for _, v in rest):,} | {sum(v[1] for _, v in rest):,} |")
    print()


def totals_by(key, rows_):
    totals = {}
    for row in rows_:
        k = key(row)
        bytes_, count = totals.get(k, (0, 0))
        totals[k] = (bytes_ + row[3], count + 1)
    return totals


# --- the report ------------------------------------------------------------------------------------
loaded = sum(size for name, _, size, flags in allocated if name not in (".bss", ".tbss", ".relro_padding"))
print("By section (bytes of the unstripped binary's allocated sections; the stripped file adds its")
print("segment padding):")
print()
print("| section | bytes | what |")
print("|---|---:|---|")
what = {
    ".text": "code", ".rodata": "constants: string literals, tables, Swift's constant data",
    ".swift_modhash": "Swift: one hash per module", ".data.rel.ro": "constants with pointers (relocated at start)",
    ".data": "initialised variables", ".bss": "zeroed variables (no file bytes)",
    ".dynsym": "dynamic linking: imported symbols", ".dynstr": "dynamic linking: their names",
    ".rela.plt": "dynamic linking: relocations of the imports", ".plt": "dynamic linking: call stubs",
    ".got": "dynamic linking: addresses", ".got.plt": "dynamic linking: addresses of the imports",
    ".eh_frame": "unwind tables", ".relro_padding": "to the end of the read-only page (no file bytes)", ".relr.dyn": "relative relocations (bitmap)",
    ".rela.dyn": "relocations", ".gnu.version": "symbol versions", ".gnu.version_r": "symbol versions",
}
for name, _, size, flags in sorted(allocated, key=lambda s: -s[2]):
    if size >= 512:
        print(f"| `{name}` | {size:,} | {what.get(name, '')} |")
small = sum(size for name, _, size, _ in allocated if size < 512)
print(f"| {sum(1 for s in allocated if s[2] < 512)} smaller sections | {small:,} | |")
print(f"| **in all, without .bss** | **{loaded:,}** | |")
print()

code_rows = [r for r in rows if r[4] == ".text"]
text_size = next(size for name, _, size, _ in allocated if name == ".text")
named_text = sum(r[3] for r in code_rows)
print(f"Of `.text` ({text_size:,} bytes), named functions cover {named_text:,}; by the module that defines")
print("the code (a generic of the standard library specialised for the project's types counts as")
print("the standard library's):")
print()
table("| module | bytes of code | functions |", totals_by(lambda r: r[0], code_rows))

print("By kind (from the symbol's demangled name; a closure or thunk inside a specialisation")
print("counts as the specialisation):")
print()
table("| kind | bytes of code | functions |", totals_by(lambda r: r[2], code_rows))

print("By folder of each project module (a method goes to the folder of the file that declares it")
print("when its name is declared in one folder only, otherwise to its type's):")
print()
project = [r for r in code_rows if r[0] in PROJECT_MODULES]
table("| module / folder or file | bytes of code | functions |", totals_by(lambda r: f"{r[0]} / {r[1]}", project), limit=40)

print("Groups across modules (a function can be in more than one):")
print()
GROUPS = [
    ("error and message texts (`description`, `message` getters of the project's types)",
     lambda r: r[0] in PROJECT_MODULES and re.search(r"\.(description|message|summary)\.getter", r[5])),
    ("the standard library's String, Character and Unicode code",
     lambda r: r[0] == "Swift stdlib" and re.search(r"String|Character|Unicode|UTF8|UTF16|_StringGuts", r[5])),
    ("Array growth and copies (`_consumeAndCreateNew`, `append`, `replaceSubrange`, `reserveCapacity`)",
     lambda r: r[0] == "Swift stdlib" and re.search(r"_consumeAndCreateNew|Array\.append|replaceSubrange|reserveCapacity|_copyToNewBuffer", r[5])),
    ("Dictionary, Set and hashing", lambda r: r[0] == "Swift stdlib" and re.search(r"Dictionary|_NativeSet|Swift\.Set|Hasher|hash", r[5])),
    ("start-up: configuration, board map and argv (TrackCore/Config/, Board/, TrackdCommand.swift, ConfigFiles.swift)",
     lambda r: (r[0], r[1]) in (("TrackCore", "Config/"), ("TrackCore", "Board/"), ("TrackDaemon", "TrackdCommand.swift"),
                                ("TrackIO", "ConfigFiles.swift"))),
    ("status, doctor and control replies (TrackDaemon/Status/, Control/)",
     lambda r: (r[0], r[1]) in (("TrackDaemon", "Status/"), ("TrackDaemon", "Control/"))),
]
print("| group | bytes of code | functions |")
print("|---|---:|---:|")
for label, test in GROUPS:
    chosen = [r for r in code_rows if test(r)]
    print(f"| {label} | {sum(r[3] for r in chosen):,} | {len(chosen):,} |")
print()

print("The standard library's generics, by what is specialised (the 15 largest):")
print()
stdlib = [r for r in code_rows if r[0] == "Swift stdlib"]
table("| standard library function | bytes of code | copies |",
      totals_by(lambda r: "`" + ".".join(qualified(strip(r[5])[1])[1:3]) + "`", stdlib), limit=15)

print("The project's generic functions with the most specialised code (the 12 largest):")
print()
specialised = [r for r in code_rows if r[0] in PROJECT_MODULES and r[2] in ("generic specialisations",
                                                                           "function signature specialisations")]
table("| function | bytes of code | copies |",
      totals_by(lambda r: "`" + ".".join(qualified(strip(r[5])[1])) + "`", specialised), limit=12)

print("The 20 largest functions:")
print()
print("| function | bytes |")
print("|---|---:|")
for r in sorted(code_rows, key=lambda r: -r[3])[:20]:
    text = r[5]
    text = text if len(text) <= 110 else text[:107] + "..."
    print(f"| `{text.replace('|', '/')}` | {r[3]:,} |")
print()

folded = sum(r[6] for r in rows)
print(f"Names folded into another's code by identical code folding: {folded:,}.")
print()

# Constants: named symbols in .rodata / .data.rel.ro against the section, and the printable
# NUL-terminated runs of the rest (string literals).
rodata = next((s for s in allocated if s[0] == ".rodata"), None)
if rodata:
    named = [r for r in rows if r[4] == ".rodata"]
    covered = sum(r[3] for r in named)
    with open(binary, "rb") as handle:
        offset = None
        for line in run(readelf, "-S", "-W", binary).splitlines():
            m = re.match(r"\s*\[\s*\d+\]\s+\.rodata\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
            if m:
                offset = int(m.group(1), 16)
        handle.seek(offset)
        data = handle.read(rodata[2])
    strings = re.findall(rb"[\x20-\x7e\t\n]{4,}\x00", data)
    literal_bytes = sum(len(s) for s in strings)
    print(f"`.rodata` ({rodata[2]:,} bytes): named objects {covered:,} (the largest below);"
          f" {len(strings):,} printable NUL-terminated strings of 4 or more characters, {literal_bytes:,} bytes"
          f" (string literals: messages, help texts, JSON names, config keys); the rest tables and padding.")
    print()
    print("| constant | bytes |")
    print("|---|---:|")
    for r in sorted(named, key=lambda r: -r[3])[:8]:
        print(f"| `{r[5][:100]}` | {r[3]:,} |")
    print()

# Stack frames: what a call takes from the stack before it calls further.
frames = collections.Counter()
current = None
for line in run(objdump, "-d", "--no-show-raw-insn", binary).splitlines():
    m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
    if m:
        current = m.group(1)
        continue
    m = re.search(r"\bsub\s+sp, sp, #0x([0-9a-f]+)(, lsl #12)?", line)
    if m and current:
        frames[current] += int(m.group(1), 16) << (12 if m.group(2) else 0)
    m = re.search(r"\bstp\s+x\d+, x\d+, \[sp, #-(\d+)\]!", line)
    if m and current:
        frames[current] += int(m.group(1))
top = frames.most_common(12)
pretty = subprocess.run([demangle, "--simplified"], input="\n".join(n for n, _ in top), check=True,
                        capture_output=True, text=True).stdout.split("\n")
print("The largest stack frames (`sub sp` and pre-indexed `stp` in each function's code; a frame's pages")
print("stay resident once touched):")
print()
print("| function | bytes of stack |")
print("|---|---:|")
for (name, size), text in zip(top, pretty):
    text = text if len(text) <= 110 else text[:107] + "..."
    print(f"| `{text.replace('|', '/')}` | {size:,} |")
print()

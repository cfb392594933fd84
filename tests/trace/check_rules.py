#!/usr/bin/env python3
"""trace.rules: docs/trace.schema.json states the trace format's structural rules (which fields an
object has, which are required, enum spellings, ranges) once; the reader and docs/trace-format.md
are held to it here, and every failure names the place that disagrees with the schema.

1. The reader's tables against the schema: the fields each object may have (field_lists.h), each
   C++ enum's spellings (names.h), the launch limits and lane/warp/thread bounds (trace.h), the
   access widths (rules.h), versions, format name.
2. The reader against the schema on mutants of real documents (the fixtures and variants of the
   documentation's example), one object of each shape: without each of its fields, with an
   unknown field, and with a field that objects of that place have elsewhere added where it is
   absent ("old" on a load, "slot" on an end event), the schema and the reader's first stage
   (parse and convert, read_unvalidated.h: the structure alone) must give the same verdict. Also
   with a field set to a value of another type, null, an unknown string or a negative number,
   the whole reader must refuse whatever the schema refuses. The reader checks more than the
   schema can state (references between sections, time order, alignment, value ranges per type),
   so the schema's acceptance binds only its first stage, on changes of fields. The
   reader does not read derived objects (shared_totals, bank_conflicts), so their insides are
   left to the schema, and so are the derived fields' values (bank).
3. docs/trace-format.md against the schema: each field table lists exactly the fields of its
   schema definition, each row of an enum field lists exactly its values, every field of a
   section's definition is named in the section, and every JSON example that parses satisfies it.

usage: check_rules.py --schema SCHEMA --doc TRACE_FORMAT_MD --fixtures DIR --probe TRACE_RULES_PROBE
Exits 77 (ctest: skipped) when Python's jsonschema package is not installed.
"""
import argparse
import copy
import json
import pathlib
import re
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("jsonschema is not installed (Debian: python3-jsonschema); skipping")
    sys.exit(77)

from trace_documents import FINDING, MBARRIER_EVENTS, doc_example, fixtures

SCHEMA_NAME = "docs/trace.schema.json"
DOC_NAME = "docs/trace-format.md"

# The schema's object definitions and the reader's field list for each (field_lists.h). The
# kinds of block event (blockEvent's oneOf) share one list.
FIELD_POINTERS = {
    "kTopLevelFields": "",
    "kLaunchFields": "/$defs/launch",
    "kTruncationFields": "/$defs/truncation",
    "kSourceFields": "/$defs/source",
    "kSourceLineFields": "/$defs/source/properties/lines/items",
    "kLocationFields": "/$defs/location",
    "kMemoryObjectFields": "/$defs/memoryObject",
    "kStepFields": "/$defs/step",
    "kInstructionFields": "/$defs/instruction",
    "kLaneFields": "/$defs/lane",
    "kWriterFields": "/$defs/lane/properties/writer/anyOf/1",
    "kBlockEventFields": "/$defs/blockEvent",
    "kFindingFields": "/$defs/finding",
    "kFindingAccessFields": "/$defs/findingAccess",
    "kShuffleFields": "/$defs/shuffle",
    "kShuffleLaneFields": "/$defs/shuffleLane",
    "kExpectedFields": "/$defs/expected",
    "kExpectedObjectFields": "/$defs/expectedObject",
    "kExpectedTileFields": "/$defs/expectedTile",
    "kMbarrierEventFields": "/$defs/mbarrierEvent",
    "kMemoryPlaceFields": "/$defs/memoryPlace",
}
# Derived objects: the reader accepts them without reading them (it recomputes them).
DERIVED_POINTERS = ["/$defs/conflictTotals", "/$defs/sharedTotals", "/$defs/bankConflicts"]

# Where the schema spells each of the reader's enums (ValueType's "none" is JSON null).
ENUM_POINTERS = {
    "EmulatorMode": ["/$defs/launch/properties/mode"],
    "DispatchOrder": ["/$defs/launch/properties/dispatch"],
    "MemorySpace": ["/$defs/memoryObject/properties/space", "/$defs/instruction/properties/space"],
    "AccessKind": ["/$defs/instruction/properties/kind"],
    "ShuffleKind": ["/$defs/shuffle/properties/kind"],
    "TileFlag": ["/$defs/blockEvent/oneOf/2/properties/flag",
                 "/$defs/blockEvent/oneOf/3/properties/flag"],
    "TruncationLimit": ["/$defs/truncation/properties/limit"],
    "FindingKind": ["/$defs/finding/properties/kind"],
    "FindingRole": ["/$defs/findingAccess/properties/role"],
    "ValueType": ["/$defs/valueType"],
    "MbarrierOp": ["/$defs/mbarrierEvent/properties/event"],
}

# Each section of the documentation and the schema definition it describes.
DOC_SECTIONS = {
    "Top level": "",
    "`launch`": "/$defs/launch",
    "`truncated`": "/$defs/truncation",
    "`sources`": "/$defs/source",
    "`memory`": "/$defs/memoryObject",
    "`steps`": "/$defs/step",
    "`instructions`": "/$defs/instruction",
    "Each lane": "/$defs/lane",
    "`block_events`": "/$defs/blockEvent",
    "`findings` (version 2)": "/$defs/finding",
    "Each access": "/$defs/findingAccess",
    "`shuffles` (version 3)": "/$defs/shuffle",
    "Each shuffle lane": "/$defs/shuffleLane",
    "`expected` (version 3)": "/$defs/expected",
    "Each expected object": "/$defs/expectedObject",
    "Each expected tile": "/$defs/expectedTile",
    "`mbarriers` (version 4)": "/$defs/mbarrierEvent",
    "Each memory place": "/$defs/memoryPlace",
}

# Derived fields: the reader accepts and ignores them (it recomputes them).
DERIVED_FIELDS = {"shared_totals", "bank_conflicts", "bank"}
# String fields whose value changes which rules apply to the object (and so its shape).
SHAPE_FIELDS = {"event", "kind", "space", "role", "flag"}
UNKNOWN_FIELD = "unknown_field"
VALUE_PROBES = [None, "no_such_value", -1, 1.5, {}]
SECTIONS = ["sources", "memory", "steps", "instructions", "block_events", "findings", "shuffles",
            "mbarriers"]


class Report:
    def __init__(self):
        self.failures = []

    def fail(self, text):
        self.failures.append(text)
        print(f"FAIL: {text}")

    def differences(self, expected, found, missing, extra):
        """One failure per item of `expected` not `found` (missing(item) says it) and per item
        `found` not `expected` (extra(item))."""
        for item in sorted(set(expected) - set(found)):
            self.fail(missing(item))
        for item in sorted(set(found) - set(expected)):
            self.fail(extra(item))


def pointer_get(schema, pointer):
    node = schema
    for part in filter(None, pointer.split("/")):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def resolve(schema, node):
    while isinstance(node, dict) and "$ref" in node and len(node) == 1:
        node = pointer_get(schema, node["$ref"][1:])
    return node


def enum_values(schema, node):
    """The values an enum-like schema allows (through $ref, anyOf, allOf), or None if free."""
    node = resolve(schema, node)
    if not isinstance(node, dict):
        return None
    if "const" in node:
        return [node["const"]]
    if "enum" in node:
        return list(node["enum"])
    found = None
    for key in ("anyOf", "allOf"):
        for part in node.get(key, []):
            values = enum_values(schema, part)
            if values is not None:
                found = (found or []) + values
    return found


def properties_of(schema, pointer):
    node = resolve(schema, pointer_get(schema, pointer))
    names = dict(node.get("properties", {}))
    for branch in node.get("oneOf", []):
        names.update(resolve(schema, branch).get("properties", {}))
    return names


def clipped(text, most=160):
    return text if len(text) <= most else text[:most] + "..."


def path_text(path):
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "(top level)"


# --- 1. the reader's tables ----------------------------------------------------------------------

def object_definitions(node, pointer=""):
    """Pointers of the schema's object definitions (those that close their field list)."""
    if isinstance(node, dict):
        if "additionalProperties" in node:
            yield pointer
        for key, value in node.items():
            yield from object_definitions(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from object_definitions(value, f"{pointer}/{i}")


def check_field_lists(schema, rules, report):
    where = f"{SCHEMA_NAME} vs the reader"
    for list_name, pointer in FIELD_POINTERS.items():
        definition = pointer or "(the top level)"
        report.differences(
            properties_of(schema, pointer), rules["fields"][list_name],
            lambda field: f"{where}: {definition} has the field \"{field}\", the reader's "
                          f"{list_name} (field_lists.h) does not",
            lambda field: f"{where}: the reader's {list_name} (field_lists.h) has \"{field}\", "
                          f"{definition} does not")

    def covered(pointer):
        return (pointer in FIELD_POINTERS.values()
                or pointer.startswith(FIELD_POINTERS["kBlockEventFields"] + "/oneOf/")
                or any(pointer == p or pointer.startswith(p + "/") for p in DERIVED_POINTERS))

    for pointer in object_definitions(schema):
        if not covered(pointer):
            report.fail(f"{where}: {pointer} defines an object that no reader field list is "
                        "compared with (add it to FIELD_POINTERS in tests/trace/check_rules.py)")


def check_reader_tables(schema, rules, report):
    where = f"{SCHEMA_NAME} vs the reader"
    check_field_lists(schema, rules, report)
    for enum, pointers in ENUM_POINTERS.items():
        reader = [None if n == "none" else n for n in rules["enums"][enum]]
        if enum == "ValueType":
            reader = [n for n in reader if n is not None]
        for pointer in pointers:
            report.differences(
                enum_values(schema, pointer_get(schema, pointer)), reader,
                lambda name: f"{where}: {pointer} allows \"{name}\", the reader's "
                             f"EnumNames<{enum}> (names.h) does not",
                lambda name: f"{where}: the reader's EnumNames<{enum}> (names.h) has "
                             f"\"{name}\", {pointer} does not")
    constants = rules["constants"]
    warp, threads = constants["kWarpSize"], constants["kMaxBlockThreads"]
    bounds = [
        ("/$defs/dim3/prefixItems/0/maximum", constants["kMaxGridX"], "kMaxGridX"),
        ("/$defs/dim3/prefixItems/1/maximum", constants["kMaxGridYZ"], "kMaxGridYZ"),
        ("/$defs/dim3/prefixItems/2/maximum", constants["kMaxGridYZ"], "kMaxGridYZ"),
        ("/$defs/launch/properties/block/prefixItems/0/maximum", constants["kMaxBlockXY"],
         "kMaxBlockXY"),
        ("/$defs/launch/properties/block/prefixItems/1/maximum", constants["kMaxBlockXY"],
         "kMaxBlockXY"),
        ("/$defs/launch/properties/block/prefixItems/2/maximum", constants["kMaxBlockZ"],
         "kMaxBlockZ"),
        ("/$defs/instruction/properties/warp/maximum", threads // warp - 1,
         "kMaxBlockThreads / kWarpSize - 1"),
        ("/$defs/instruction/properties/lanes/maxItems", warp, "kWarpSize"),
        ("/$defs/shuffle/properties/warp/maximum", threads // warp - 1,
         "kMaxBlockThreads / kWarpSize - 1"),
        ("/$defs/shuffle/properties/lanes/maxItems", warp, "kWarpSize"),
        ("/$defs/lane/properties/lane/maximum", warp - 1, "kWarpSize - 1"),
        ("/$defs/lane/properties/thread/maximum", threads - 1, "kMaxBlockThreads - 1"),
        ("/$defs/findingAccess/properties/lane/maximum", warp - 1, "kWarpSize - 1"),
        ("/$defs/findingAccess/properties/thread/maximum", threads - 1, "kMaxBlockThreads - 1"),
        ("/$defs/finding/properties/accesses/maxItems", constants["kMaxFindingAccesses"],
         "kMaxFindingAccesses"),
    ]
    for pointer, value, name in bounds:
        try:
            stated = pointer_get(schema, pointer)
        except (KeyError, IndexError):
            report.fail(f"{where}: {pointer} is missing; the reader's bound is {name} = {value}")
            continue
        if stated != value:
            report.fail(f"{where}: {pointer} is {stated}, the reader's {name} (trace.h) is {value}")
    pairs = [
        ("/$defs/instruction/properties/width", rules["access_widths"],
         "access widths (access_width_problem, rules.h)"),
        ("/properties/version", rules["versions"],
         "versions (kOldestFormatVersion..kFormatVersion, trace.h)"),
        ("/properties/format", [rules["format"]], "format name (kFormatName, trace.h)"),
    ]
    for pointer, reader, what in pairs:
        allowed = enum_values(schema, pointer_get(schema, pointer))
        if sorted(map(str, allowed)) != sorted(map(str, reader)):
            report.fail(f"{where}: {pointer} allows {allowed}, the reader's {what} are {reader}")


# --- 2. the reader's verdicts on mutants ---------------------------------------------------------

def objects(node, path=(), parent=None):
    """(path, object, parent object) for every JSON object in the document."""
    if isinstance(node, dict):
        yield path, node, parent
        for key, value in node.items():
            yield from objects(value, path + (key,), node)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from objects(value, path + (i,), parent)


def shape(obj):
    if obj is None:
        return None
    return tuple(sorted((key, value if key in SHAPE_FIELDS and isinstance(value, str)
                         else type(value).__name__) for key, value in obj.items()))


def base_documents(fixtures_dir, doc_text):
    example = doc_example(doc_text)
    documents = {"the documentation's example": example}
    with_findings = copy.deepcopy(example)
    wait = {"block": 0, "thread": 2, "role": "wait", "memory": None, "bytes": 0,
            "source": {"file": 0, "line": 6}, "instruction": None, "step": 1}
    with_findings["findings"] = [FINDING, dict(FINDING, kind="deadlock", source=None,
                                               ends_launch=True, accesses=[wait])]
    documents["the example with findings"] = with_findings
    version_1 = copy.deepcopy(example)
    version_1["version"] = 1
    del version_1["findings"]
    documents["the example as version 1"] = version_1
    with_mbarriers = copy.deepcopy(example)
    with_mbarriers["mbarriers"] = MBARRIER_EVENTS
    documents["the example with mbarrier events"] = with_mbarriers
    unrecorded = copy.deepcopy(example)
    unrecorded["instructions"][0]["value_type"] = None
    for lane in unrecorded["instructions"][0]["lanes"]:
        del lane["value"]
    documents["the example without values"] = unrecorded
    documents.update(fixtures(fixtures_dir))
    return sorted(documents.items(), key=lambda item: len(json.dumps(item[1])))


def pattern(path):
    return tuple("[]" if isinstance(part, int) else part for part in path)


def mutants(documents):
    """(document, path, document name, change, how, both ways) per mutant: how() makes the change
    in place and returns how to undo it. Mutants that bind both ways must get the same verdict from
    the schema and the reader's first stage; all bind the reader where the schema refuses."""
    # A value of each field seen at each place, to add where that field is absent ("old" on a
    # load, "slot" on an end event...).
    samples = {}
    for _, document in documents:
        for path, obj, _ in objects(document):
            for key, value in obj.items():
                samples.setdefault(pattern(path), {}).setdefault(key, value)
    seen = set()
    for name, document in documents:
        for path, obj, parent in objects(document):
            if any(part in DERIVED_FIELDS for part in path):
                continue
            signature = (pattern(path), shape(obj), shape(parent))
            if signature in seen:
                continue
            seen.add(signature)

            def edit(change, obj=obj):
                saved = dict(obj)
                change(obj)
                return lambda: (obj.clear(), obj.update(saved))

            def mutant(change, how, both_ways, name=name, document=document, path=path):
                return document, path, name, change, how, both_ways

            for key in obj:
                yield mutant(f"without \"{key}\"",
                             lambda k=key, edit=edit: edit(lambda o: o.pop(k)), True)
            yield mutant(f"with an unknown field \"{UNKNOWN_FIELD}\"",
                         lambda edit=edit: edit(lambda o: o.update({UNKNOWN_FIELD: 0})), True)
            for key, sample in samples[pattern(path)].items():
                if key not in obj:
                    yield mutant(f"with \"{key}\": {json.dumps(sample)} added",
                                 lambda k=key, v=sample, edit=edit:
                                 edit(lambda o: o.update({k: v})), True)
            for key, value in obj.items():
                if key in DERIVED_FIELDS:
                    continue
                for probe in VALUE_PROBES:
                    if probe != value or type(probe) is not type(value):
                        yield mutant(f"with \"{key}\": {json.dumps(probe)}",
                                     lambda k=key, p=probe, edit=edit:
                                     edit(lambda o: o.update({k: p})), False)


def view_path(error_path, path):
    """An error's path in schema_view(document, path), as a path in the document."""
    error_path = list(error_path)
    if len(path) >= 2 and error_path[:2] == [path[0], 0]:
        error_path[1] = path[1]
    return error_path


def schema_view(document, path):
    """The document with every section but the one `path` lies in emptied and that one cut to the
    element at `path`: the schema has no rule across elements of a section, so this gets the same
    verdict as the whole document, much faster."""
    view = {}
    for key, value in document.items():
        if key in SECTIONS and isinstance(value, list):
            inside = len(path) >= 2 and path[0] == key
            view[key] = [value[path[1]]] if inside else []
        else:
            view[key] = value
    return view


def reader_verdicts(probe, texts):
    """The verdicts of the reader ("reader") and of its first stage ("structure") on each
    document text (one line of JSON each)."""
    lines = "".join(text + "\n" for text in texts)
    result = subprocess.run([probe, "--read"], input=lines, capture_output=True, text=True,
                            check=True)
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    if len(verdicts) != len(texts):
        raise RuntimeError(f"{probe} answered {len(verdicts)} of {len(texts)} documents")
    return verdicts


def reader_reason(verdict):
    path = verdict["path"]
    return f"{path}: {verdict['message']}" if path else verdict["message"]


def check_reader_verdicts(validator, probe, fixtures_dir, doc_text, report):
    documents = []
    bases = base_documents(fixtures_dir, doc_text)
    for (name, document), verdicts in zip(bases,
                                          reader_verdicts(probe, [json.dumps(d) for _, d in bases])):
        error = next(validator.iter_errors(document), None)
        verdict = verdicts["reader"]
        if not verdict["ok"]:
            report.fail(f"the reader refuses {name}: {reader_reason(verdict)}")
        if error is not None:
            report.fail(f"{SCHEMA_NAME} refuses {name}: {path_text(error.absolute_path)}: "
                        f"{error.message}")
        if verdict["ok"] and error is None:  # mutants of a refused document prove nothing
            documents.append((name, document))
    cases, texts, errors = [], [], []
    for document, path, name, change, how, both_ways in mutants(documents):
        undo = how()
        texts.append(json.dumps(document, separators=(",", ":")))
        errors.append(next(validator.iter_errors(schema_view(document, path)), None))
        undo()
        # The same change at the same place of another document breaks the same rule.
        rule = (pattern(path), change)
        cases.append((f"{name}, {path_text(path)} {change}", path, rule, both_ways))
    verdicts = reader_verdicts(probe, texts)
    exact, reported, repeats = 0, set(), 0
    for (what, path, rule, both_ways), error, verdict in zip(cases, errors, verdicts):
        exact += both_ways
        reader_misses = error is not None and verdict["reader"]["ok"]
        structure_adds = both_ways and error is None and not verdict["structure"]["ok"]
        if not reader_misses and not structure_adds:
            continue
        if rule in reported:
            repeats += 1
            continue
        reported.add(rule)
        if reader_misses:
            report.fail(f"{what}: {SCHEMA_NAME} refuses it "
                        f"({path_text(view_path(error.absolute_path, path))}: "
                        f"{clipped(error.message)}), the reader accepts it")
        else:
            report.fail(f"{what}: {SCHEMA_NAME} accepts it, the reader refuses its structure "
                        f"({reader_reason(verdict['structure'])})")
    if repeats:
        print(f"({repeats} more mutants break the rules above at the same places)")
    print(f"{len(cases)} mutants of {len(documents)} documents ({exact} that bind both ways)")


# --- 3. the documentation ------------------------------------------------------------------------

def doc_sections(doc_text):
    """{heading text: body} for the headings of DOC_SECTIONS."""
    sections, heading, body = {}, None, []
    for line in doc_text.splitlines():
        match = re.match(r"#{2,4} (.*)", line)
        if match:
            if heading is not None:
                sections[heading] = "\n".join(body)
            heading, body = match.group(1).strip(), []
        else:
            body.append(line)
    if heading is not None:
        sections[heading] = "\n".join(body)
    return sections


def table_rows(body):
    """Rows (lists of cells) of each table whose first column is "field"."""
    tables, rows = [], None
    for line in body.splitlines() + [""]:
        if not line.startswith("|"):
            if rows:
                tables.append(rows)
            rows = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if rows is None:
            rows = [] if cells[0] == "field" else False
        elif rows is not False and not set(cells[0]) <= set("-: "):
            rows.append(cells)
    return tables


def backticked(text):
    return re.findall(r"`([^`]+)`", text)


def as_value(token):
    try:
        return json.loads(token)
    except ValueError:
        return token


def example_texts(body):
    """Inline `{...}` / `[{...}]` spans and ```json blocks: examples of the section's objects."""
    texts = [t for t in backticked(body) if t.startswith("{") or t.startswith("[{")]
    return texts + re.findall(r"```json\n(.*?)```", body, re.S)


def json_examples(body):
    """The examples that parse (some have placeholders: "...", L)."""
    found = []
    for text in example_texts(body):
        try:
            found.append(json.loads(text))
        except ValueError:
            pass
    return found


def check_doc(schema, doc_text, report):
    sections = doc_sections(doc_text)
    examples = 0
    for heading, pointer in DOC_SECTIONS.items():
        where = f"{DOC_NAME}, section \"{heading}\""
        definition = pointer or "(the top level)"
        if heading not in sections:
            report.fail(f"{DOC_NAME} has no section \"{heading}\" (it describes "
                        f"{SCHEMA_NAME} {definition})")
            continue
        body = sections[heading]
        properties = properties_of(schema, pointer)
        named = set(backticked(body))
        for text in example_texts(body):
            named.update(re.findall(r'"([A-Za-z_]+)"\s*:', text))
        tables = table_rows(body)
        if not tables:  # sections with a field table are checked by the table
            for field in sorted(set(properties) - named):
                report.fail(f"{where} never names the field `{field}` of {SCHEMA_NAME} "
                            f"{definition}")
        for rows in tables:
            listed = {}
            for cells in rows:
                for field in backticked(cells[0]):
                    listed[field] = cells[1:]
            report.differences(
                properties, listed,
                lambda field: f"{where}: the field table lacks `{field}`, which {SCHEMA_NAME} "
                              f"{definition} has",
                lambda field: f"{where}: the field table lists `{field}`, which {SCHEMA_NAME} "
                              f"{definition} does not have")
            for field, cells in listed.items():
                allowed = enum_values(schema, properties.get(field, {}))
                if allowed is None:
                    continue
                tokens = [as_value(t) for t in backticked(" ".join(cells))]
                written = {json.dumps(t) for t in tokens if t not in properties}
                expected = {json.dumps(v) for v in allowed if v is not None}
                report.differences(
                    expected, written,
                    lambda value: f"{where}: the row of `{field}` does not list {value}, which "
                                  f"{SCHEMA_NAME} {definition} allows",
                    lambda value: f"{where}: the row of `{field}` lists {value}, which "
                                  f"{SCHEMA_NAME} {definition} does not allow")
        target = {"$ref": f"#{pointer}", "$defs": schema["$defs"]} if pointer else schema
        validator = jsonschema.Draft202012Validator(target)
        array_validator = jsonschema.Draft202012Validator(
            {"type": "array", "items": target, "$defs": schema["$defs"]} if pointer else schema)
        for example in json_examples(body):
            examples += 1
            check = array_validator if isinstance(example, list) else validator
            for error in list(check.iter_errors(example))[:3]:
                report.fail(f"{where}: the example {json.dumps(example)[:80]}... breaks "
                            f"{SCHEMA_NAME} {definition}: {path_text(error.absolute_path)}: "
                            f"{error.message}")
    print(f"{len(DOC_SECTIONS)} documentation sections, {examples} JSON examples checked")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schema", type=pathlib.Path, required=True)
    parser.add_argument("--doc", type=pathlib.Path, required=True)
    parser.add_argument("--fixtures", type=pathlib.Path, required=True)
    parser.add_argument("--probe", required=True, help="the trace_rules_probe executable")
    args = parser.parse_args()

    schema = json.loads(args.schema.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    doc_text = args.doc.read_text()
    rules = json.loads(subprocess.run([args.probe, "--rules"], capture_output=True, text=True,
                                      check=True).stdout)
    report = Report()
    check_reader_tables(schema, rules, report)
    check_reader_verdicts(validator, args.probe, args.fixtures, doc_text, report)
    check_doc(schema, doc_text, report)
    if report.failures:
        count = len(report.failures)
        print(f"{count} disagreement{'' if count == 1 else 's'} with {SCHEMA_NAME}, the source of "
              "the format's structural rules: change the schema and every place above together")
        return 1
    print(f"the reader and {DOC_NAME} agree with {SCHEMA_NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

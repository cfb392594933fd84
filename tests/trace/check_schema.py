#!/usr/bin/env python3
"""Checks docs/trace.schema.json against the trace fixtures and the documentation's example.

usage: check_schema.py SCHEMA FIXTURES_DIR TRACE_FORMAT_MD
Exits 77 (ctest: skipped) when Python's jsonschema package is not installed.
"""
import copy
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("jsonschema is not installed (Debian: python3-jsonschema); skipping")
    sys.exit(77)

from trace_documents import ACCESS, FINDING, MBARRIER_EVENTS, doc_example, fixtures


def main():
    schema_path, fixtures_dir, doc_path = map(pathlib.Path, sys.argv[1:4])
    schema = json.loads(schema_path.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    documents = fixtures(fixtures_dir)
    documents["trace-format.md example"] = doc_example(doc_path.read_text())

    failures = 0
    for name, document in documents.items():
        errors = list(validator.iter_errors(document))
        for error in errors[:5]:
            print(f"{name}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
        failures += bool(errors)
        print(f"{name}: {'INVALID' if errors else 'valid'}")

    # The schema must also refuse: a lane index of 40, a missing field, an unknown field, a store
    # with a writer, an unknown version, mbarrier events in version 3 or with a destination
    # without an offset, a version 2 or 3 document without findings, a version 1
    # document with them, a finding access with an unknown role, a lane without an instruction.
    example = documents["trace-format.md example"]
    # ...and accept a finding that is right.
    with_finding = copy.deepcopy(example)
    with_finding["findings"].append(FINDING)
    if not validator.is_valid(with_finding):
        print("the schema refuses a valid finding")
        failures += 1
    # ...and version 4's mbarrier events.
    with_mbarriers = copy.deepcopy(example)
    with_mbarriers["mbarriers"] = MBARRIER_EVENTS
    if not validator.is_valid(with_mbarriers):
        print("the schema refuses valid mbarrier events")
        failures += 1
    broken = []
    for edit in (
        lambda d: d["instructions"][1]["lanes"][3].update(lane=40),
        lambda d: d["launch"].pop("kernel"),
        lambda d: d["launch"].update(colour="red"),
        lambda d: d["instructions"][3]["lanes"][0].update(writer={"instruction": 1, "thread": 0}),
        lambda d: d.update(version=5),
        lambda d: d.pop("findings"),
        # mbarrier events are version 4's: refused in version 3, and a copy needs its place
        lambda d: d.update(version=3, mbarriers=MBARRIER_EVENTS),
        lambda d: d.update(mbarriers=[dict(MBARRIER_EVENTS[2], destination={"memory": 2})]),
        lambda d: d.update(version=1),
        lambda d: d["findings"].append(dict(FINDING, accesses=[dict(ACCESS, role="reads")])),
        lambda d: d["findings"].append(dict(FINDING, accesses=[dict(ACCESS, instruction=None)])),
    ):
        document = copy.deepcopy(example)
        edit(document)
        broken.append(validator.is_valid(document))
    # Look events: at least one read, no value for X, "reads" required, only on look events.
    lookback = documents["lookback_4_blocks.trace.json"]
    looks = [i for i, e in enumerate(lookback["block_events"]) if e["event"] == "look"]
    first_x = next(i for i in looks if lookback["block_events"][i]["flag"] == "X")
    for edit in (
        lambda d: d["block_events"][looks[0]].update(reads=0),
        lambda d: d["block_events"][first_x].update(value_type="i32", value=1),
        lambda d: d["block_events"][looks[-1]].pop("reads"),
        lambda d: d["block_events"][0].update(reads=1),
        # version 1 has no look events (nor findings)
        lambda d: (d.update(version=1), d.pop("findings")),
    ):
        document = copy.deepcopy(lookback)
        edit(document)
        broken.append(validator.is_valid(document))
    if any(broken):
        print(f"the schema accepts invalid documents: {broken}")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Trace documents the Python checks of tests/trace share: the fixtures, the example that
docs/trace-format.md shows, and a finding as the emulator writes one (the example has none)."""
import json
import pathlib

EXAMPLE_MARKER = "<!-- example: trace_make_fixtures --example -->\n```json\n"

ACCESS = {"block": 0, "thread": 1, "role": "load", "memory": 2, "offset": 4, "bytes": 4,
          "source": {"file": 0, "line": 7}, "instruction": 2, "lane": 1, "step": 1}
FINDING = {"kind": "shared_race", "ends_launch": False, "message": "simt: shared memory race",
           "source": {"file": 0, "line": 7}, "accesses": [ACCESS]}


def fixtures(fixtures_dir):
    """{file name: document} for every *.trace.json in fixtures_dir."""
    return {p.name: json.loads(p.read_text())
            for p in sorted(pathlib.Path(fixtures_dir).glob("*.trace.json"))}


def doc_example(doc_text):
    """The example trace of docs/trace-format.md (the JSON block after EXAMPLE_MARKER)."""
    start = doc_text.index(EXAMPLE_MARKER) + len(EXAMPLE_MARKER)
    return json.loads(doc_text[start:doc_text.index("```\n", start)])

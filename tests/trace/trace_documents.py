"""Trace documents the Python checks of tests/trace share: the fixtures, the example that
docs/trace-format.md shows, a finding as the emulator writes one (the example has none), and
version 4's mbarrier events on the example's shared object."""
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


# A barrier at byte 8 of the example's shared object: set up, filled by a bulk copy, waited on.
def _mbarrier(time, event, source=True, count=0, size=0, parity=0, phase=0, destination=None):
    return {"time": time, "block": 0, "thread": 0, "event": event,
            "barrier": {"memory": 2, "offset": 8},
            "source": {"file": 0, "line": 5} if source else None, "count": count, "bytes": size,
            "parity": parity, "phase": phase, "destination": destination}


MBARRIER_EVENTS = [
    _mbarrier(1, "init", count=1),
    _mbarrier(1, "arrive", count=1, size=8),
    _mbarrier(2, "copy", size=8, destination={"memory": 2, "offset": 0}),
    _mbarrier(2, "poll", count=3),
    _mbarrier(3, "land", source=False, size=8),
    _mbarrier(3, "complete", source=False),
    _mbarrier(4, "wait"),
]

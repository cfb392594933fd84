#!/usr/bin/env python3
"""Keeps the program output that the lessons and docs quote equal to what the tools print today.

  outputs.py --build-dir BUILD            check: every quoted output is what the tool prints now
  outputs.py --build-dir BUILD --update   rewrite the quoted outputs with what the tool prints
  outputs.py ... --only ID                only the quotes whose id contains ID

A quoted output is a fenced block right after a marker line `<!-- output: ID -->` in README.md,
labs/*/README.md or docs/*.md. tests/lessons/outputs.toml says, for each ID, how the output is
made and which part of it is quoted:

- `mistake = "NAME"`: a mistake of tests/mistakes/catalog.toml, built and run as the catalog
  runs it (the output the catalog recorded under BUILD/mistakes is reused while it is still what
  today's code gives; otherwise the mistake is built here); with `args`, the mistake's test
  program is run again with those arguments instead of the catalog's cases;
- `command = "..."`: a bash command run in the repository root, `{build}` standing for BUILD and
  `{tmp}` for a fresh temporary folder;
- `excerpt`: regular expressions; each picks the first line that matches it (after the lines the
  previous one picked) together with the indented lines that follow it. Without an excerpt, a
  mistake's quote is its first emulator report of the catalog's kind, a command's its whole output;
- `edit`: [regex, replacement] pairs applied to the quote, to shorten what the lesson shortens
  (a kernel's long template arguments, say); the lesson should say that it shortened.

Only what varies between runs for no reason in the code is normalised: BUILD's path is written
`build`, the temporary folder `<tmp>`, the repository's path is dropped, and the address in an
emulator report ("at address 0x7f..."; device memory is mapped anew by every run) is written
`at address 0x...`. Seeds are fixed (the catalog runs with SCANLAB_SEED=1, the emulator's
schedule seed defaults to 1), and doctest prints no timings, so everything else must match
exactly. Doctest names a test file as the compiler saw it (`../tests/...` from a build folder in
the repository's root, as ./scanlab makes it), so check with such a build folder.

Also a problem: a marker without an entry, an entry no lesson uses, and a block that quotes an
emulator report or a doctest summary with no marker. Prints a diff for each quote that differs
and `N outputs checked, M problems`; exit status 1 on any problem.
"""

from __future__ import annotations

import argparse
import difflib
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "mistakes"))
import run_mistakes  # noqa: E402  (the catalog's builds and runs, reused)

LESSONS = ["README.md", "labs/*/README.md", "docs/*.md"]
SPECS = Path(__file__).with_name("outputs.toml")
MARKER = re.compile(r"^(\s*)<!-- output: ([A-Za-z0-9_.-]+) -->\s*$")
FENCE = re.compile(r"^(\s*)(```+)")
# How the emulator names an address in a report ("illegal read of 4 bytes at address 0x7f...").
DEVICE_ADDRESS = re.compile(r"(at )address 0x[0-9a-f]+")
# What only a program's run prints: an emulator report, doctest's summary, a failed check.
UNMARKED_OUTPUT = re.compile(
    r"simt: [a-z ]+ in kernel|\[doctest\] test cases:|first wrong output at index")


@dataclass
class Quote:
    lesson: Path
    line: int  # of the marker, 1-based
    quote_id: str
    indent: str
    first: int  # index of the first line inside the fence
    end: int  # index of the closing fence
    text: str


def lesson_files() -> list[Path]:
    return sorted({p for pattern in LESSONS for p in ROOT.glob(pattern)})


def quotes_in(lesson: Path, problems: list[str]) -> list[Quote]:
    """The marked blocks of a lesson; unmarked blocks that look like program output are
    problems."""
    lines = lesson.read_text().splitlines()
    where = lesson.relative_to(ROOT)
    found = []
    i = 0
    while i < len(lines):
        marker = MARKER.match(lines[i])
        fence = FENCE.match(lines[i])
        if marker:
            opening = i + 1
            while opening < len(lines) and not lines[opening].strip():
                opening += 1
            fence = FENCE.match(lines[opening]) if opening < len(lines) else None
            if not fence:
                problems.append(f"{where}:{i + 1}: the marker '{marker.group(2)}' is not "
                                "followed by a fenced block")
                i += 1
                continue
            close = closing_fence(lines, opening, fence.group(2))
            if close is None:
                problems.append(f"{where}:{opening + 1}: the block is never closed")
                return found
            body = [strip_indent(line, fence.group(1)) for line in lines[opening + 1:close]]
            found.append(Quote(lesson, i + 1, marker.group(2), fence.group(1), opening + 1, close,
                               "\n".join(body)))
            i = close + 1
        elif fence:
            close = closing_fence(lines, i, fence.group(2))
            if close is None:
                problems.append(f"{where}:{i + 1}: the block is never closed")
                return found
            # A JSON block is a document (a trace-format example), not what a program printed.
            is_json = lines[i].strip()[len(fence.group(2)):].strip() == "json"
            for number in range(i + 1, close):
                if not is_json and UNMARKED_OUTPUT.search(lines[number]):
                    problems.append(f"{where}:{number + 1}: this block quotes a program's output "
                                    "but has no `<!-- output: ID -->` marker (see "
                                    "tests/lessons/outputs.py)")
                    break
            i = close + 1
        else:
            i += 1
    return found


def closing_fence(lines: list[str], opening: int, ticks: str) -> int | None:
    for number in range(opening + 1, len(lines)):
        if lines[number].strip() == ticks:
            return number
    return None


def strip_indent(line: str, indent: str) -> str:
    return line[len(indent):] if line.startswith(indent) else line.lstrip()


class Outputs:
    """Makes each quote's output; builds a mistake only when the catalog's record is stale."""

    def __init__(self, build: Path, timeout: float):
        self.build = build
        self.timeout = timeout
        catalog = tomllib.loads((ROOT / "tests/mistakes/catalog.toml").read_text())
        self.mistakes = {m["name"]: m for m in catalog["mistake"]}
        self.runs: dict[str, run_mistakes.MistakeRun] = {}
        self.prepared_labs: set[str] = set()
        self.replays: dict[str, run_mistakes.Replay] = {}

    def mistake_run(self, name: str) -> run_mistakes.MistakeRun:
        if name in self.runs:
            return self.runs[name]
        if name not in self.mistakes:
            raise ValueError(f"the mistake catalog has no mistake named '{name}'")
        m = self.mistakes[name]
        if m["lab"] not in self.prepared_labs:
            # Builds the solution's tests if anything they depend on changed, so that the
            # catalog's record is judged against today's code.
            self.replays.update(run_mistakes.prepare_replays(self.build, [m["lab"]], 2))
            self.prepared_labs.add(m["lab"])
        done = run_mistakes.recorded_run(m, self.build)
        if done is None:
            print(f"building the mistake '{name}' (the catalog's record of it is missing or "
                  "stale)", flush=True)
            done = run_mistakes.build_and_run(m, self.build, self.replays[m["lab"]],
                                              self.timeout)
        self.runs[name] = done
        return done

    def mistake_for_every_operator(self, name: str,
                                   done: run_mistakes.MistakeRun) -> run_mistakes.MistakeRun:
        """The mistake's program with the mistake in every operator's code: other cases than
        the catalog's may scan with operators the catalog's build took from the solution."""
        if done.operators is None:
            return done
        m = self.mistakes[name]
        print(f"building the mistake '{name}' for every operator (other cases are run)",
              flush=True)
        done = run_mistakes.build_and_run(m, self.build, self.replays[m["lab"]], self.timeout,
                                          every_operator=True)
        self.runs[name] = done
        return done

    def make(self, spec: dict) -> str:
        """The text to quote for one entry of outputs.toml."""
        if ("mistake" in spec) == ("command" in spec):
            raise ValueError("give either `mistake` or `command`")
        temporary = tempfile.TemporaryDirectory(prefix="scanlab-outputs-")
        tmp = temporary.name
        excerpt = spec.get("excerpt")
        if "mistake" in spec:
            done = self.mistake_run(spec["mistake"])
            output = done.output
            if "args" in spec:
                done = self.mistake_for_every_operator(spec["mistake"], done)
                output, _ = run_mistakes.run_tests(done.binary, spec["args"], self.timeout)
            if excerpt is None:
                kind = self.mistakes[spec["mistake"]]["kind"]
                excerpt = [rf"^simt: {re.escape(kind)} in kernel"]
        else:
            command = spec["command"].replace("{build}", str(self.build)).replace("{tmp}", tmp)
            try:
                output = subprocess.run(["bash", "-c", command], cwd=ROOT, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        errors="replace", timeout=self.timeout).stdout
            except subprocess.TimeoutExpired:
                raise ValueError(f"`{spec['command']}` ran past {self.timeout:.0f} s")
        output = normalised(output, self.build, tmp)
        temporary.cleanup()
        text = excerpt_of(output, excerpt) if excerpt else output.rstrip("\n")
        for pattern, replacement in spec.get("edit", []):
            text = re.sub(pattern, replacement, text, flags=re.M)
        return text


def normalised(output: str, build: Path, tmp: str) -> str:
    output = output.replace(tmp, "<tmp>").replace(str(build), "build")
    output = output.replace(str(ROOT) + "/", "")
    # Device memory is mapped anew by every run, wherever the kernel maps it.
    return DEVICE_ADDRESS.sub(r"\1address 0x...", output)


def excerpt_of(output: str, patterns: list[str]) -> str:
    lines = output.splitlines()
    picked: list[str] = []
    start = 0
    for pattern in patterns:
        regex = re.compile(pattern)
        at = next((i for i in range(start, len(lines)) if regex.search(lines[i])), None)
        if at is None:
            raise ValueError(f"no line of the output matches {pattern!r}" +
                             (" after the lines picked before it" if start else "") +
                             "\n--- output (end) ---\n" + "\n".join(lines[-40:]))
        picked.append(lines[at])
        start = at + 1
        while start < len(lines) and lines[start].startswith((" ", "\t")):
            picked.append(lines[start])
            start += 1
    return "\n".join(picked)


def rewrite(lesson: Path, quotes: list[Quote], made: dict[str, str]) -> None:
    lines = lesson.read_text().splitlines()
    for quote in sorted(quotes, key=lambda q: q.first, reverse=True):
        new = [quote.indent + line if line else "" for line in made[quote.quote_id].splitlines()]
        lines[quote.first:quote.end] = new
    lesson.write_text("\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build",
                        help="configured Ninja build folder (default: build)")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the quotes in the lessons with today's output")
    parser.add_argument("--only", help="only the quotes whose id contains this text")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds a program may run (default 600)")
    args = parser.parse_args()

    problems: list[str] = []
    specs = tomllib.loads(SPECS.read_text())
    quotes = [q for lesson in lesson_files() for q in quotes_in(lesson, problems)]
    seen: dict[str, Quote] = {}
    for quote in quotes:
        where = f"{quote.lesson.relative_to(ROOT)}:{quote.line}"
        if quote.quote_id in seen:
            problems.append(f"{where}: the output '{quote.quote_id}' is quoted twice")
        seen[quote.quote_id] = quote
        if quote.quote_id not in specs:
            problems.append(f"{where}: {SPECS.name} has no entry '{quote.quote_id}'")
    for quote_id in specs:
        if quote_id not in seen:
            problems.append(f"{SPECS.name}: no lesson quotes '{quote_id}' "
                            f"(no `<!-- output: {quote_id} -->` marker)")
    for problem in problems:
        print(f"FAIL: {problem}", flush=True)

    outputs = Outputs(args.build_dir.resolve(), args.timeout)
    made: dict[str, str] = {}
    checked = 0
    for quote in quotes:
        if quote.quote_id not in specs or (args.only and args.only not in quote.quote_id):
            continue
        where = f"{quote.lesson.relative_to(ROOT)}:{quote.line}"
        checked += 1
        try:
            made[quote.quote_id] = outputs.make(specs[quote.quote_id])
        except (ValueError, run_mistakes.MistakeError) as error:
            problems.append(f"{where}: '{quote.quote_id}': {error}")
            print(f"FAIL: {problems[-1]}", flush=True)
            continue
        if made[quote.quote_id] == quote.text:
            print(f"ok: {where}: {quote.quote_id}", flush=True)
            continue
        if args.update:
            print(f"updated: {where}: {quote.quote_id}", flush=True)
            continue
        diff = difflib.unified_diff(quote.text.splitlines(), made[quote.quote_id].splitlines(),
                                    f"{where} (quoted)", f"{quote.quote_id} (printed today)",
                                    lineterm="")
        problems.append(f"{where}: '{quote.quote_id}' is not what the tool prints today")
        print(f"FAIL: {problems[-1]} (run tests/lessons/outputs.py --update):\n" +
              "\n".join(diff), flush=True)
    if args.update:
        for lesson in lesson_files():
            mine = [q for q in quotes if q.lesson == lesson and q.quote_id in made
                    and made[q.quote_id] != q.text]
            if mine:
                rewrite(lesson, mine, made)
    print(f"{checked} outputs checked, {len(problems)} problems")
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

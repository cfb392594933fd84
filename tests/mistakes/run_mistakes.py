#!/usr/bin/env python3
"""Runs the mistake catalog (tests/mistakes/catalog.toml): each classic mistake is written into
a copy of the lab's reference solution, the lab's graded tests are built against that copy and
run on the emulator, and they must fail with the report and the hint the catalog names.
Ends with the line `N passed, M failed`; exit status 0 only when nothing failed.

A mistake's cases usually scan with one operator (`inclusive sum int32`), while the solution file
instantiates its templates for all 23 graded operators: most of a mistake's build. So the patched
copy is compiled for the operators its cases name (common/scanlab/include/scanlab/
graded_operators.h), or those of its `operators` where the names do not say, and linked before a
copy of the solution's library whose symbols are made weak, which supplies the other operators.
A case made per operator family (`warp scan shuffle: inclusive sum`; tests/support/
scan_matrix.h) walks the family's types and stops at the first that fails, so it is compiled for
the family's first type only: when it fails there, no other type runs, and the run is the one
that every operator would give. A case that passed there is compiled again with its whole family.
If the tests then do not show the mistake as the catalog says, it is built again for every
operator and judged on that run alone.

On the emulator (the default) it reuses a configured Ninja build folder (--build-dir, by default
./build): it builds the lab's solution tests there once, then replays the commands Ninja would
run for the solution's one translation unit with the patched copy instead, into a folder per
mistake (<build-dir>/mistakes/<lab>-<name>, with the run's output.txt), and links that object
with the tests that are already compiled. Only the patched file is compiled per mistake, and
--jobs mistakes are built and run at once. tests/lessons/outputs.py reuses those outputs for the
reports the lessons quote.

With --backend cuda (on a machine with a GPU) it only observes: it configures a build of its own
with nvcc, runs the mistakes on the GPU and prints what happened (passed, failed, or still
running at the time limit), to compare with what the emulator says."""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(command, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          errors="replace", **kwargs)


def first_report(output: str, kind: str) -> str:
    """The emulator's first report of `kind` in the output (its lines up to the next report)."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"simt: {kind} in kernel"):
            block = [line]
            for more in lines[i + 1:]:
                if not more.startswith("  "):
                    break
                block.append(more)
            return "\n".join(block)
    return ""


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


class Replay:
    """The commands that build a lab's solution tests, replayed for a patched copy of the
    solution: the rewrite (simt), the compile, the archive and the link of the tests."""

    def __init__(self, build: Path, lab: str, backend: str):
        number = lab[:2]
        self.build = build
        self.library = f"lab{number}_solution_{backend}"
        self.binary = f"lab{number}_tests_solution_{backend}"
        listed = run(["ninja", "-C", str(build), "-t", "commands", self.binary])
        if listed.returncode != 0:
            raise RuntimeError(f"ninja -t commands {self.binary} failed:\n{listed.stdout}")
        self.commands = []
        for line in listed.stdout.splitlines():
            if self.library not in line and self.binary not in line:
                continue  # the runtime, the tests' objects: built already, shared by all
            # The rewrite also updates Ninja's own dependency files: keep only the rewrite.
            line = re.sub(r" && \S*cmake -E cmake_transform_depfile .*$", "", line)
            self.commands.append(line)
        links = [c for c in self.commands
                 if f"-o bin/{self.binary}" in c or f"/bin/{self.binary}" in c]
        if not links:
            raise RuntimeError(f"could not find the link of {self.binary} in the build commands")
        self.link = links[-1]
        archives = re.findall(rf"(\S*lib{self.library}\.a)(?:\s|$)", self.link)
        if not archives:
            raise RuntimeError(f"the link of {self.binary} does not name lib{self.library}.a")
        self.archive = archives[0]
        # The solution's library with every symbol weak: the other operators' code when a
        # mistake is compiled for some of them only (made again by prepare_replays).
        self.weak_archive = self.build / "mistakes" / f"lib{self.library}_weak.a"

    def make_weak_archive(self) -> None:
        source = Path(self.archive)
        source = source if source.is_absolute() else self.build / source
        made = run(["objcopy", "--weaken", str(source), str(self.weak_archive)])
        if made.returncode != 0:
            raise MistakeError(f"objcopy --weaken {source} failed:\n{made.stdout}")

    def build_for(self, solution: Path, patched: Path, name: str,
                  with_weak_solution: bool = False) -> tuple[bool, str, Path]:
        """Builds the tests against `patched` (a copy of `solution`); returns (ok, log, binary).
        `with_weak_solution`: `patched` instantiates some operators only, and the solution's
        weakened library supplies the rest."""
        library = f"mistake_{name}"
        binary = self.build / "mistakes" / "bin" / f"{name}_tests"
        log = []
        for command in self.commands:
            if with_weak_solution and command == self.link:
                command = command.replace(f" {self.archive}",
                                          f" {self.archive} {self.weak_archive}", 1)
            command = command.replace(str(solution), str(patched))
            command = command.replace(f"bin/{self.binary}", f"mistakes/bin/{name}_tests")
            command = command.replace(f"CMakeFiles/{self.library}.dir/",
                                      f"CMakeFiles/{library}.dir/")
            command = command.replace(f"simt_gen/{self.library}/", f"simt_gen/{library}/")
            command = command.replace(f"lib{self.library}.a", f"lib{library}.a")
            # Ninja creates the folders of a command's outputs; so must the replay. A command
            # that starts with `cd folder &&` has its relative outputs there.
            moved = re.match(r"cd (\S+) &&", command)
            base = Path(moved.group(1)) if moved else self.build
            for output in re.findall(r"(?:^|\s)-o\s+(\S+)", command):
                (base / output).parent.mkdir(parents=True, exist_ok=True)
            done = run(command, shell=True, cwd=self.build)
            log.append(f"$ {command}\n{done.stdout}")
            if done.returncode != 0:
                return False, "\n".join(log), binary
        return True, "\n".join(log), binary


class MistakeError(Exception):
    """A mistake that cannot be tried: its text is not in the solution once, or it does not
    build."""


def mistake_id(m: dict) -> str:
    """The mistake's folder under <build-dir>/mistakes: the lab and the name, not the position in
    the catalog, so that a run of part of the catalog (or tests/lessons/outputs.py) finds it."""
    return f"{m['lab'][:2]}-{slug(m['name'])}"


def patched_solution(m: dict) -> str:
    """The lab's reference solution file with the mistake written into it."""
    solution = (ROOT / "solutions" / m["lab"] / m["file"]).read_text()
    if solution.count(m["find"]) != 1:
        raise MistakeError(f"the text to replace occurs {solution.count(m['find'])} times in the "
                           "solution, not once")
    return solution.replace(m["find"], m["replace"])


GRADED_OPERATORS = ROOT / "common" / "scanlab" / "include" / "scanlab" / "graded_operators.h"
# The line of a lab's .cu file that instantiates its templates for every graded operator.
FOR_EACH_OPERATOR = re.compile(r"^SCANLAB_FOR_EACH_GRADED_OPERATOR\((\w+)\)$", re.M)


def graded_operators() -> dict[str, tuple[str, str]]:
    """Each graded operator (`scanlab::Sum<std::int32_t>`) -> the words the test cases name it
    with (`sum`, `int32`; tests/support/scan_matrix.h), in the header's order."""
    found = re.findall(r"^\s*X\((scanlab::(\w+)<(?:std::)?(\w+?)(?:_t)?>)\)",
                       GRADED_OPERATORS.read_text(), re.M)
    return {operator: (family.lower(), element) for operator, family, element in found}


def operators_named(case_names: list[str],
                    first_type_only: set[str] = frozenset()) -> list[str] | None:
    """The graded operators these test cases scan with, read from their names: `inclusive sum
    int32` is one, `inclusive sum` every element type of sum, or only the family's first type for
    a case in `first_type_only` (one made per family: FAMILY_CASES). None when a case names no
    operator (it may use any) or when they name every operator."""
    operators = graded_operators()
    families = "|".join(sorted({family for family, _ in operators.values()}))
    elements = "|".join(sorted({element for _, element in operators.values()}))
    wanted: set[str] = set()
    for case in case_names:
        named = re.findall(rf"\b({families})\b(?: ({elements})\b)?", case)
        if not named:
            return None
        for family, element in named:
            members = [op for op, words in operators.items()
                       if words[0] == family and element in ("", words[1])]
            wanted |= set(members[:1] if element == "" and case in first_type_only else members)
    return [op for op in operators if op in wanted] if wanted != set(operators) else None


# A test file's cases made per operator family (tests/support/scan_matrix.h): each is named
# "<prefix><kind> <family>" and walks the family's types with for_each_type_of, which stops at
# the first type that fails.
FAMILY_CASES = re.compile(r'SCANLAB_CASE_PER_FAMILY_AND_KIND\(\s*"([^"]*)"')


def family_case_prefixes(lab: str) -> tuple[str, ...]:
    """The prefixes of the lab's cases made per operator family (FAMILY_CASES)."""
    return tuple(prefix for test in sorted((ROOT / "tests" / "labs").glob(f"lab{lab[:2]}_*.cpp"))
                 for prefix in FAMILY_CASES.findall(test.read_text()))


def failed_cases(output: str) -> set[str]:
    """The test cases that doctest's output names as failed (`TEST CASE:  name`)."""
    return set(re.findall(r"^TEST CASE:  (.*)$", output, re.M))


def operators_of(m: dict) -> list[str]:
    """The graded operators of the mistake's `operators` (for cases whose names say none)."""
    known = graded_operators()
    named = [f"scanlab::{op}" for op in m["operators"]]
    unknown = [op for op in m["operators"] if f"scanlab::{op}" not in known]
    if unknown:
        raise MistakeError(f"operators: {unknown} are not graded operators (the names of "
                           f"{GRADED_OPERATORS.relative_to(ROOT)}, without scanlab::)")
    return [op for op in known if op in named]


def listed_cases(binary: Path, cases: str) -> list[str]:
    """The names of the test cases that `-tc=cases` selects in a doctest program."""
    listed = run([str(binary), "--list-test-cases", f"-tc={cases}"])
    names, inside = [], False
    for line in listed.stdout.splitlines():
        if line.startswith("====="):
            inside = not inside
        elif inside:
            names.append(line)
    return names


def for_operators(source: str, operators: list[str]) -> str | None:
    """The solution file instantiating its templates for `operators` only (None when it does not
    have the one line that instantiates them all). Lines keep their numbers."""
    lines = FOR_EACH_OPERATOR.findall(source)
    if len(lines) != 1:
        return None
    macro = lines[0]
    return FOR_EACH_OPERATOR.sub(" ".join(f"{macro}({op})" for op in operators), source)


@dataclasses.dataclass
class MistakeRun:
    output: str
    code: int | None  # None: still running at the time limit
    binary: Path
    build_s: float = 0.0
    run_s: float = 0.0
    operators: list[str] | None = None  # compiled for these graded operators only; None: all
    builds: int = 1  # builds it took (for fewer operators first, then for more)


def run_tests(binary: Path, arguments: list[str], timeout: float) -> tuple[str, int | None]:
    """Runs a test program as the catalog does (SCANLAB_SEED=1 unless set): (output, exit code)."""
    env = dict(os.environ, SCANLAB_SEED=os.environ.get("SCANLAB_SEED", "1"))
    try:
        tests = run([str(binary), *arguments], env=env, timeout=timeout)
        return tests.stdout, tests.returncode
    except subprocess.TimeoutExpired as timeout_expired:
        output = timeout_expired.stdout or ""
        if isinstance(output, bytes):
            output = output.decode(errors="replace")
        return output, None


def solution_tests(lab: str) -> str:
    return f"lab{lab[:2]}_tests_solution_simt"


def prepare_replays(build: Path, labs: list[str], jobs: int) -> dict[str, Replay]:
    """Builds the labs' solution tests (what every mistake's build reuses) and reads the commands
    to replay. Each mistake has its own folder under <build>/mistakes; a run replaces only the
    folders of the mistakes it tries."""
    built = run(["cmake", "--build", str(build), "-j", str(jobs), "--target",
                 *[solution_tests(lab) for lab in labs]])
    if built.returncode != 0:
        raise MistakeError(f"the solutions' tests do not build:\n{built.stdout[-4000:]}")
    (build / "mistakes" / "bin").mkdir(parents=True, exist_ok=True)
    replays = {lab: Replay(build, lab, "simt") for lab in labs}
    for replay in replays.values():
        replay.make_weak_archive()
    return replays


def build_and_run(m: dict, build: Path, replay: Replay, timeout: float,
                  every_operator: bool = False) -> MistakeRun:
    """Builds the lab's tests with the mistake into <build>/mistakes/<id>, runs the catalog's
    cases there and records the output (output.txt) and what it was made from (made_from.json).
    Compiled for as few operators as give the run that every operator would give (the docstring
    at the top says how); when that run does not show the mistake as the catalog says, it is
    built again for every operator and judged on that run alone."""
    runs: list[MistakeRun] = []

    def built_for(operators: list[str] | None) -> MistakeRun:
        runs.append(build_and_run_for(m, build, replay, timeout, operators))
        return runs[-1]

    def counted(done: MistakeRun) -> MistakeRun:
        """The last run, with the time of every build and run it took to get there."""
        return dataclasses.replace(done, build_s=sum(r.build_s for r in runs),
                                   run_s=sum(r.run_s for r in runs), builds=len(runs))

    if every_operator or for_operators(patched_solution(m), []) is None:
        return counted(built_for(None))
    if "operators" in m:
        done = built_for(operators_of(m))
        if not check(m, done.output, done.code):
            return counted(done)
        return counted(built_for(None))
    cases = listed_cases(build / "bin" / solution_tests(m["lab"]), m["cases"])
    # The cases made per family are compiled for the family's first type, where they stop when
    # they fail there: a run in which each of them failed is the whole run. One that passed
    # there goes on to the family's other types, so the run is made again with all of them.
    first_type_only = {case for case in cases if case.startswith(family_case_prefixes(m["lab"]))}
    done = None
    while (operators := operators_named(cases, first_type_only)) is not None:
        if done is None or operators != done.operators:
            done = built_for(operators)
        went_on = first_type_only - failed_cases(done.output)
        if not went_on:
            if not check(m, done.output, done.code):
                return counted(done)
            break
        first_type_only -= went_on
    return counted(built_for(None))


def build_and_run_for(m: dict, build: Path, replay: Replay, timeout: float,
                      operators: list[str] | None) -> MistakeRun:
    name = mistake_id(m)
    folder = build / "mistakes" / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    patched = folder / m["file"]
    source = patched_solution(m)
    patched.write_text(source if operators is None else for_operators(source, operators))
    clock = time.monotonic()
    ok, log, binary = replay.build_for(ROOT / "solutions" / m["lab"] / m["file"], patched,
                                       name.replace("-", "_"),
                                       with_weak_solution=operators is not None)
    build_s = time.monotonic() - clock
    if not ok:
        raise MistakeError(f"does not build:\n{log[-3000:]}")
    clock = time.monotonic()
    output, code = run_tests(binary, [f"-tc={m['cases']}"], timeout)
    run_s = time.monotonic() - clock
    (folder / "output.txt").write_text(output)
    (folder / "made_from.json").write_text(json.dumps(made_from(m, build)))
    # The program is the mistake's for these operators only (the solution's for the others): a
    # run of other cases (tests/lessons/outputs.py's `args`) must build it for every operator.
    (folder / "operators.json").write_text(json.dumps(operators))
    return MistakeRun(output, code, binary, build_s, run_s, operators)


def made_from(m: dict, build: Path) -> dict:
    """What a mistake's recorded output depends on: the patched file, the cases, the seed, and
    the solution's test program (relinked whenever the tests, the runtime or the solution
    change)."""
    tests = build / "bin" / solution_tests(m["lab"])
    return {"source": patched_solution(m), "cases": m["cases"],
            "seed": os.environ.get("SCANLAB_SEED", "1"),
            "tests_mtime_ns": tests.stat().st_mtime_ns if tests.exists() else 0}


def recorded_run(m: dict, build: Path) -> MistakeRun | None:
    """The output of the catalog's last run of this mistake, if it is still what the mistake
    gives with today's code (the lab's solution tests must be built first); else None."""
    folder = build / "mistakes" / mistake_id(m)
    binary = build / "mistakes" / "bin" / f"{mistake_id(m).replace('-', '_')}_tests"
    try:
        recorded = json.loads((folder / "made_from.json").read_text())
        output = (folder / "output.txt").read_text()
        operators = json.loads((folder / "operators.json").read_text())
    except (OSError, ValueError):
        return None
    if recorded != made_from(m, build) or not binary.exists():
        return None
    return MistakeRun(output, None, binary, operators=operators)


# The kind of a mistake the emulator does not report: only the tests' own checks fail.
WRONG_RESULT = "wrong result"


def check(m: dict, output: str, code: int | None) -> str:
    """Why the run does not show the mistake as the catalog says, or '' if it does."""
    if code == 0:
        return "the tests passed"
    if code is None:
        return "the tests timed out"
    if m["kind"] == WRONG_RESULT:
        if "simt: " in output:
            return "a wrong result was expected, but the emulator reported a fault"
        missing = []
    else:
        missing = [] if f"simt: {m['kind']} in kernel" in output else ["kind"]
    missing += [what for what in ("report", "hint") if m[what] not in output]
    said = [text for text in m.get("said", []) if text not in output]
    if missing or said:
        return "the output lacks " + ", ".join([f"{w} '{m[w]}'" for w in missing] +
                                               [f"'{text}'" for text in said])
    wrong = [text for text in m.get("not_said", []) if text in output]
    if wrong:
        return "the output says what it must not: " + ", ".join(f"'{w}'" for w in wrong)
    return ""


def run_simt(args, mistakes) -> int:
    build = args.build_dir.resolve()
    if not (build / "build.ninja").exists():
        print(f"{build} is not a configured Ninja build folder (cmake -S . -B {args.build_dir} "
              "-G Ninja); the catalog replays Ninja's commands")
        print("0 passed, 1 failed")
        return 1
    labs = sorted({m["lab"] for m in mistakes})
    started = time.monotonic()
    print(f"building the solutions' tests in {build}: "
          f"{' '.join(solution_tests(lab) for lab in labs)}", flush=True)
    try:
        replays = prepare_replays(build, labs, args.jobs)
    except MistakeError as error:
        print(error)
        print("0 passed, 1 failed")
        return 1
    print(f"ready after {time.monotonic() - started:.0f} s", flush=True)

    def one(m: dict) -> tuple[str, str]:
        label = f"lab {m['lab'][:2]}: {m['name']}"
        try:
            done = build_and_run(m, build, replays[m["lab"]], args.timeout,
                                 args.every_operator)
        except MistakeError as error:
            return "FAIL", f"{label}: {error}"
        why = check(m, done.output, done.code)
        if why:
            return "FAIL", f"{label}: {why}\n--- output (end) ---\n{done.output[-4000:]}"
        compiled = ("every operator" if done.operators is None
                    else ", ".join(op.removeprefix("scanlab::") for op in done.operators))
        builds = f", {done.builds} builds" if done.builds > 1 else ""
        text = [f"ok: {label}: {m['kind']}, diagnosed (build {done.build_s:.0f} s{builds}, the "
                f"last for {compiled}, run {done.run_s:.0f} s)"]
        report = first_report(done.output, m["kind"])
        if report:
            text.append("    " + report.replace("\n", "\n    "))
        hints = [line.strip() for line in done.output.splitlines() if "hint:" in line]
        text += ["    " + h for h in hints[:2]]
        return "ok", "\n".join(text)

    passed, failed = 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(one, m) for m in mistakes]
        for number, future in enumerate(futures, 1):
            status, text = future.result()
            print(f"[{number}/{len(mistakes)}] " + (text if status == "ok" else f"FAIL: {text}"),
                  flush=True)
            if status == "ok":
                passed += 1
            else:
                failed.append(text)
    print(f"catalog wall time: {time.monotonic() - started:.0f} s", flush=True)
    return report_end(passed, failed)


def run_cuda(args, mistakes) -> int:
    build = (args.build_dir / "mistakes-cuda").resolve()
    labs = build / "labs-with-mistakes"
    if labs.exists():
        shutil.rmtree(labs)
    shutil.copytree(ROOT / "labs", labs)
    print(f"configuring {build} (labs from {labs})", flush=True)
    configure = run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                     "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DSCANLAB_CUDA=ON", "-DSCANLAB_SIMT=OFF",
                     "-DCMAKE_CUDA_ARCHITECTURES=90", f"-DSCANLAB_LABS_DIR={labs}"])
    if configure.returncode != 0:
        print(configure.stdout[-3000:])
        return report_end(0, ["configure failed"])
    passed, failed = 0, []
    for number, m in enumerate(mistakes, 1):
        label = f"lab {m['lab'][:2]}: {m['name']}"
        solution = (ROOT / "solutions" / m["lab"] / m["file"]).read_text()
        if solution.count(m["find"]) != 1:
            failed.append(f"{label}: the text to replace is not in the solution once")
            continue
        (labs / m["lab"] / m["file"]).write_text(solution.replace(m["find"], m["replace"]))
        target = f"lab{m['lab'][:2]}_tests_student_cuda"
        print(f"[{number}/{len(mistakes)}] {label}: building {target}", flush=True)
        started = time.monotonic()
        built = run(["cmake", "--build", str(build), "-j", str(args.jobs), "--target", target])
        if built.returncode != 0:
            failed.append(f"{label}: does not build:\n{built.stdout[-2000:]}")
            continue
        try:
            tests = run([str(build / "bin" / target), f"-tc={m['cases']}"], timeout=args.timeout)
            output, code = tests.stdout, tests.returncode
        except subprocess.TimeoutExpired:
            output, code = "", None
        summary = [line for line in output.splitlines() if "test cases:" in line]
        outcome = ("still running after the time limit (hangs)" if code is None
                   else "the tests PASS: the GPU hides it" if code == 0 else "the tests fail")
        print(f"gpu: {label}: {outcome} ({time.monotonic() - started:.0f} s) "
              f"{summary[-1] if summary else ''}", flush=True)
        passed += 1
    return report_end(passed, failed)


def report_end(passed: int, failed: list[str]) -> int:
    print(f"{passed} passed, {len(failed)} failed")
    return 0 if not failed else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build",
                        help="configured Ninja build folder to reuse (default: build)")
    parser.add_argument("--catalog", type=Path, default=Path(__file__).with_name("catalog.toml"))
    parser.add_argument("--only", help="run only mistakes whose lab or name contains this text")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--backend", choices=("simt", "cuda"), default="simt")
    parser.add_argument("--every-operator", action="store_true",
                        help="compile each patched solution for every graded operator (slower; "
                             "the default compiles the operators the cases name)")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds before a test run counts as hanging (default 600)")
    args = parser.parse_args()

    mistakes = tomllib.loads(args.catalog.read_text())["mistake"]
    if args.only:
        mistakes = [m for m in mistakes if args.only in m["name"] or args.only in m["lab"]]

    names = [mistake_id(m) for m in mistakes]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        print(f"FAIL: mistakes share a folder name (make their names differ): {repeated}")
        return report_end(0, repeated)
    return run_simt(args, mistakes) if args.backend == "simt" else run_cuda(args, mistakes)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs the mistake catalog (tests/mistakes/catalog.toml): each classic mistake is written into
a copy of the lab's reference solution, the lab's graded tests are built against that copy and
run on the emulator, and they must fail with the report and the hint the catalog names.
Ends with the line `N passed, M failed`; exit status 0 only when nothing failed.

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
        if not any(f"-o bin/{self.binary}" in c or f"/bin/{self.binary}" in c
                   for c in self.commands):
            raise RuntimeError(f"could not find the link of {self.binary} in the build commands")

    def build_for(self, solution: Path, patched: Path, name: str) -> tuple[bool, str, Path]:
        """Builds the tests against `patched` (a copy of `solution`); returns (ok, log, binary)."""
        library = f"mistake_{name}"
        binary = self.build / "mistakes" / "bin" / f"{name}_tests"
        log = []
        for command in self.commands:
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


@dataclasses.dataclass
class MistakeRun:
    output: str
    code: int | None  # None: still running at the time limit
    binary: Path
    build_s: float = 0.0
    run_s: float = 0.0


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
    return {lab: Replay(build, lab, "simt") for lab in labs}


def build_and_run(m: dict, build: Path, replay: Replay, timeout: float) -> MistakeRun:
    """Builds the lab's tests with the mistake into <build>/mistakes/<id>, runs the catalog's
    cases there and records the output (output.txt) and what it was made from (made_from.json)."""
    name = mistake_id(m)
    folder = build / "mistakes" / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    patched = folder / m["file"]
    patched.write_text(patched_solution(m))
    clock = time.monotonic()
    ok, log, binary = replay.build_for(ROOT / "solutions" / m["lab"] / m["file"], patched,
                                       name.replace("-", "_"))
    build_s = time.monotonic() - clock
    if not ok:
        raise MistakeError(f"does not build:\n{log[-3000:]}")
    clock = time.monotonic()
    output, code = run_tests(binary, [f"-tc={m['cases']}"], timeout)
    run_s = time.monotonic() - clock
    (folder / "output.txt").write_text(output)
    (folder / "made_from.json").write_text(json.dumps(made_from(m, build)))
    return MistakeRun(output, code, binary, build_s, run_s)


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
    except (OSError, ValueError):
        return None
    if recorded != made_from(m, build) or not binary.exists():
        return None
    return MistakeRun(output, None, binary)


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
            done = build_and_run(m, build, replays[m["lab"]], args.timeout)
        except MistakeError as error:
            return "FAIL", f"{label}: {error}"
        why = check(m, done.output, done.code)
        if why:
            return "FAIL", f"{label}: {why}\n--- output (end) ---\n{done.output[-4000:]}"
        text = [f"ok: {label}: {m['kind']}, diagnosed (build {done.build_s:.0f} s, "
                f"run {done.run_s:.0f} s)"]
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

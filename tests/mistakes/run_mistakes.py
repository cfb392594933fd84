#!/usr/bin/env python3
"""Runs the mistake catalog (tests/mistakes/catalog.toml): each classic mistake is written into
a copy of the lab's reference solution, the lab's graded tests are built against that copy and
run on the emulator, and they must fail with the report and the hint the catalog names.
Ends with the line `N passed, M failed`; exit status 0 only when nothing failed.

With --backend cuda (on a machine with a GPU) it only observes: it builds the same mistakes with
nvcc, runs them on the GPU and prints what happened (passed, failed, or still running at the
time limit), to compare with what the emulator says."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          **kwargs)


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build-mistakes",
                        help="CMake build folder for the patched labs (default: build-mistakes)")
    parser.add_argument("--catalog", type=Path, default=Path(__file__).with_name("catalog.toml"))
    parser.add_argument("--only", help="run only mistakes whose name contains this text")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--backend", choices=("simt", "cuda"), default="simt")
    parser.add_argument("--timeout", type=float, default=900,
                        help="seconds before a test run counts as hanging (default 900)")
    args = parser.parse_args()

    mistakes = tomllib.loads(args.catalog.read_text())["mistake"]
    if args.only:
        mistakes = [m for m in mistakes if args.only in m["name"]]
    build = args.build_dir.resolve()
    labs = build / "labs-with-mistakes"
    if labs.exists():
        shutil.rmtree(labs)
    shutil.copytree(ROOT / "labs", labs)

    print(f"configuring {build} (labs from {labs})", flush=True)
    gpu = args.backend == "cuda"
    backend_args = (["-DSCANLAB_CUDA=ON", "-DSCANLAB_SIMT=OFF", "-DCMAKE_CUDA_ARCHITECTURES=90"]
                    if gpu else ["-DSCANLAB_CUDA=OFF"])
    configure = run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                     "-DCMAKE_BUILD_TYPE=RelWithDebInfo", *backend_args,
                     f"-DSCANLAB_LABS_DIR={labs}"])
    if configure.returncode != 0:
        print(configure.stdout[-3000:])
        print("0 passed, 1 failed")
        return 1

    passed, failed = 0, []
    # A lesson that quotes a report must quote what the emulator says today.
    for m in mistakes:
        lesson = " ".join((ROOT / m["quoted_in"]).read_text().split()) if "quoted_in" in m else ""
        if lesson and " ".join(m["report"].split()) not in lesson:
            failed.append(f"{m['quoted_in']} does not quote the report of '{m['name']}' as "
                          f"the emulator words it: '{m['report']}'")
            print(f"FAIL: {failed[-1]}", flush=True)
    for number, m in enumerate(mistakes, 1):
        label = f"lab {m['lab'][:2]}: {m['name']}"
        solution = (ROOT / "solutions" / m["lab"] / m["file"]).read_text()
        if solution.count(m["find"]) != 1:
            failed.append(f"{label}: the text to replace occurs "
                          f"{solution.count(m['find'])} times in the solution, not once")
            print(f"FAIL: {failed[-1]}", flush=True)
            continue
        (labs / m["lab"] / m["file"]).write_text(solution.replace(m["find"], m["replace"]))
        target = f"lab{m['lab'][:2]}_tests_student_{args.backend}"
        print(f"[{number}/{len(mistakes)}] {label}: building {target}", flush=True)
        started = time.monotonic()
        built = run(["cmake", "--build", str(build), "-j", str(args.jobs), "--target", target])
        if built.returncode != 0:
            failed.append(f"{label}: does not build:\n{built.stdout[-2000:]}")
            print(f"FAIL: {failed[-1]}", flush=True)
            continue
        env = dict(os.environ, SCANLAB_SEED=os.environ.get("SCANLAB_SEED", "1"))
        try:
            tests = run([str(build / "bin" / target), f"-tc={m['cases']}"], env=env,
                        timeout=args.timeout)
            output, code = tests.stdout, tests.returncode
        except subprocess.TimeoutExpired as timeout:
            output, code = (timeout.stdout or b"").decode(errors="replace"), None
        seconds = time.monotonic() - started
        if gpu:
            summary = [line for line in output.splitlines() if "test cases:" in line]
            outcome = ("still running after the time limit (hangs)" if code is None
                       else "the tests PASS: the GPU hides it" if code == 0
                       else "the tests fail")
            print(f"gpu: {label}: {outcome} ({seconds:.0f} s) {summary[-1] if summary else ''}",
                  flush=True)
            passed += 1
            continue
        missing = [what for what in ("kind", "report", "hint") if m[what] not in output]
        if code in (0, None) or missing:
            why = ("the tests passed" if code == 0 else "the tests timed out" if code is None
                   else "the output lacks " + ", ".join(f"{w} '{m[w]}'" for w in missing))
            failed.append(f"{label}: {why}\n--- output (end) ---\n{output[-4000:]}")
            print(f"FAIL: {failed[-1]}", flush=True)
        else:
            passed += 1
            print(f"ok: {label}: {m['kind']}, diagnosed ({seconds:.0f} s)", flush=True)
            print("    " + first_report(output, m["kind"]).replace("\n", "\n    "))
            hints = [line.strip() for line in output.splitlines() if "hint:" in line]
            if hints:
                print("    " + hints[0])

    print(f"{passed} passed, {len(failed)} failed")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())

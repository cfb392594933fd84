"""check_stubs.py: every graded test case must FAIL on the untouched stub and PASS on the
solution (hidden tests included when grading/hidden has them). A test case that passes on the
stub cannot fail, so it grades nothing; one that fails on the solution is wrong or flaky.

Both flavours are built in one build folder: the student targets from the pristine labs/ and
the solution targets from solutions/ (scanlab_add_lab compiles the solution against the same
labs/NN_name interface header, i.e. solutions/ merged over labs/).
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path

from . import cmake, grading, rubric as rubric_mod, tree
from .lab_build import build_lab_target
from .lab_context import Context
from .model import Progress

DESCRIPTION = """\
Checks the graded tests themselves: builds every lab's tests against the untouched stub
(labs/) and against the reference solution (solutions/), runs both with the grader's rules
(own process, time limits, doctest's XML report), and requires that every graded test case
fails on the stub and passes on the solution. Hidden tests (grading/hidden/) are included
when present. Ends with the line `N passed, M failed` (one check per test case and flavour,
plus one per build and run); exit status 0 only when nothing failed."""

EPILOG = """\
examples:
  python3 tools/grader/check_stubs.py                   # all labs, build folder build-check-stubs
  python3 tools/grader/check_stubs.py --labs 01 --build-dir build
  ./scanlab check-stubs"""


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="check_stubs.py", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--labs", help="check only these labs, e.g. 00,01 (default: all)")
    p.add_argument("--build-dir", type=Path,
                   help="CMake build folder (default: build-check-stubs in the repository); "
                        "a build the grader did not make (e.g. ./build) is put back as it was")
    p.add_argument("--hidden", choices=("auto", "yes", "no"), default="auto",
                   help="include grading/hidden tests: auto = when present (default)")
    p.add_argument("--hidden-dir", type=Path, metavar="DIR",
                   help="take the hidden tests (labNN_*.cpp) from DIR instead of grading/hidden")
    p.add_argument("--rubric", type=Path, help="rubric for time limits (default: "
                                               "grading/rubric.toml)")
    p.add_argument("--backend", choices=("simt", "cuda"), default="simt")
    p.add_argument("--seed", type=int, help="SCANLAB_SEED (default: random, printed)")
    p.add_argument("--jobs", "-j", type=int, help="parallel build jobs (default: all cores)")
    p.add_argument("--cmake-arg", action="append", default=[], metavar="ARG",
                   help="extra argument for the CMake configure step (repeatable)")
    p.add_argument("--quiet", "-q", action="store_true", help="only failures and the last line")
    return p


class Checks:
    def __init__(self, quiet: bool) -> None:
        self.passed = 0
        self.failed: list[str] = []
        self.quiet = quiet

    def record(self, ok: bool, text: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed.append(text)
            print(f"FAIL: {text}", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    repo = tree.repo_root()
    say = Progress(quiet=args.quiet)
    checks = Checks(args.quiet)
    try:
        rubric = rubric_mod.load((args.rubric or repo / "grading" / "rubric.toml").resolve())
        labs = tree.select_labs(tree.discover_labs(repo), args.labs)
        hidden = grading.hidden_dir_for(repo, args.hidden, args.hidden_dir)
    except (rubric_mod.RubricError, ValueError, FileNotFoundError) as error:
        print(f"check_stubs.py: {error}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 2
    if not labs:
        print("check_stubs.py: no labs found", file=sys.stderr)
        print("0 passed, 1 failed")
        return 2

    build = (args.build_dir or repo / "build-check-stubs").resolve()
    logs = build / "_grader" / "check-logs"
    logs.mkdir(parents=True, exist_ok=True)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**63 - 1) + 1
    say(f"checking {len(labs)} lab(s) in {build} (seed {seed}, hidden tests: "
        f"{'yes' if hidden else 'no'})")
    foreign = grading.ForeignBuild(build)
    staging = build / "_grader" / "labs"
    if foreign.foreign:
        labs_dir = repo / "labs"
    else:
        tree.stage_labs(repo / "labs", staging, tree.Overlay())
        labs_dir = staging
    cache = grading.configure_cache(repo, args.backend, labs_dir, hidden, need_cuda=False,
                                    foreign=foreign.foreign)
    started = time.monotonic()
    try:
        _check(args, repo, rubric, labs, hidden, build, logs, cache, seed, checks, say)
    except KeyboardInterrupt:
        checks.record(False, "interrupted")
    finally:
        foreign.restore(cache, logs / "restore-configure.log")

    print()
    print(f"check_stubs: {len(labs)} lab(s), {time.monotonic() - started:.0f} s; "
          f"{len(checks.failed)} problem(s)")
    for text in checks.failed:
        print(f"  - {text.splitlines()[0]}")
    print(f"{checks.passed} passed, {len(checks.failed)} failed")
    return 0 if not checks.failed else 1


def _check(args, repo, rubric, labs, hidden, build, logs, cache, seed, checks, say) -> None:
    say(f"configuring {build}")
    proc = cmake.configure(repo, build, cache, args.cmake_arg, 600, logs / "configure.log",
                           say.heartbeat("still configuring"))
    if not proc.exited or proc.returncode != 0:
        checks.record(False, "CMake configure failed:\n" +
                      cmake.error_excerpt(logs / "configure.log", {}))
        return
    targets = cmake.targets(build)
    support = [t for t in grading.SUPPORT_TARGETS if t in targets]
    support += [f"lab{lab.number}_listing_{args.backend}" for lab in labs
                if f"lab{lab.number}_listing_{args.backend}" in targets]
    if support:
        say(f"building the support libraries ({', '.join(support)})")
        proc = cmake.build_target(build, " ".join(support), args.jobs, 1800,
                                  logs / "support-build.log",
                                  say.heartbeat("still building the support libraries"))
        if not proc.exited or proc.returncode != 0:
            checks.record(False, "the support libraries did not build:\n" +
                          cmake.error_excerpt(logs / "support-build.log", {}))
            return

    ctx = Context(repo=repo, rubric=rubric, runs=build / "_grader" / "check-runs",
                          logs=logs, seed=seed, hidden_dir=hidden, backend=args.backend,
                          jobs=args.jobs, progress=say, build=build)
    for lab in labs:
        lab_rubric = rubric.lab(lab.number)
        listing = targets.get(f"lab{lab.number}_listing_{args.backend}")
        listing_exe = next((a for a in listing.artifacts if a.exists()), None) if listing \
            else None
        graded, problem = (grading.list_graded_cases(listing_exe, lab, ctx, f"lab{lab.number}")
                           if listing_exe else (None, "no listing program was built"))
        checks.record(graded is not None, f"lab{lab.number}: the graded test cases are listed"
                      if graded is not None else f"lab{lab.number}: {problem}")
        if graded is None:
            continue
        for flavour in ("student", "solution"):
            what = f"lab{lab.number} {'stub' if flavour == 'student' else 'solution'}"
            if flavour == "solution" and not (repo / "solutions" / lab.folder).is_dir():
                checks.record(False, f"{what}: solutions/{lab.folder} does not exist")
                continue
            target = f"lab{lab.number}_tests_{flavour}_{args.backend}"
            exe, _, problem = build_lab_target(
                target, lab, targets, build, lab_rubric.build_timeout_s, args.jobs,
                logs / f"{target}-build.log", {str(repo) + "/": ""}, say)
            checks.record(exe is not None, f"{what}: builds" if exe else f"{what}: {problem}")
            if exe is None:
                continue
            run = grading.run_lab_tests(exe, lab, lab_rubric, ctx, f"check-{target}", graded)
            ran = run.status == "graded"
            checks.record(ran, f"{what}: runs" if ran else f"{what}: {run.status}: {run.problem}")
            if not ran:
                continue
            if flavour == "solution":
                checks.record(not run.isolated, f"{what}: runs cleanly in one process" if
                              not run.isolated else f"{what}: {run.problem}")
            for test in run.tests:
                label = ("[hidden] " if test.hidden else "") + test.name
                if flavour == "student":
                    checks.record(not test.passed,
                                  f"{what}: '{label}' PASSES on the untouched stub: this test "
                                  f"case cannot fail, so it grades nothing")
                else:
                    first = (test.message or "failed").strip().splitlines()
                    checks.record(test.passed, f"{what}: '{label}' FAILS on the solution: "
                                               f"{first[0] if first else ''}")
            passed = sum(t.passed for t in run.tests)
            say(f"{what}: {passed}/{len(run.tests)} test cases pass "
                f"({'want 0' if flavour == 'student' else 'want all'})")


if __name__ == "__main__":
    sys.exit(main())

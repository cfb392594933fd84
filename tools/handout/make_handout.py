#!/usr/bin/env python3
"""Scan Lab handout builder: the student tree (no solutions, no hidden tests) as a folder and/or
tarball, and the Gradescope autograder bundle (zip). See --help and docs/grading.md."""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("make_handout.py needs Python 3.11 or newer")

REPO = Path(__file__).resolve().parents[2]
GRADESCOPE_DIR = Path(__file__).resolve().parent / "gradescope"

# Never in anything a student gets. Patterns match paths relative to the repository root.
SECRET = ["solutions", "solutions/*", "grading/hidden", "grading/hidden/*"]
# Instructor tooling and local clutter: not in the student handout.
NOT_FOR_STUDENTS = [
    ".ci", ".ci/*",  # CI checks stubs against solutions
    "tests/grader", "tests/grader/*",  # the grader's own tests (planted submissions)
    "tests/tree", "tests/tree/*",  # every lab has its solution, hidden tests, ... (instructor's)
    "tools/handout", "tools/handout/*",  # this builder
    "docs/grading.md",  # for instructors; students get docs/how-you-are-graded.md
]
# Never packed at all (build output, caches, machine-local folders).
CLUTTER = [".git", ".git/*", "build*", "out", "out/*", ".gl", ".gl/*", ".whl", ".whl/*",
           ".device-carry", ".device-carry/*", "*/__pycache__/*", "__pycache__", "*.pyc",
           "grade-results", "grade-results/*"]

DESCRIPTION = """\
Builds what students and Gradescope get from this (instructor) tree:

  handout    the student tree: labs/ (the stubs), common/, tests/ (without the grader's own
             tests), cmake/, CMakeLists.txt, CMakePresets.json, scripts/, README.md, docs/,
             visualizer/, tools/ (the grader, so students can grade themselves on the visible
             tests), grading/rubric.toml. Never solutions/ or grading/hidden/; not
             docs/grading.md (for instructors: students get docs/how-you-are-graded.md).
  gradescope a zip for Gradescope's "Zipped folder" autograder: setup.sh and run_autograder at
             the top, next to the student tree plus grading/hidden/ (still no solutions/: the
             autograder machine runs students' code).

Files come from `git ls-files --cached --others --exclude-standard` (tracked and new files,
nothing ignored) when this is a git checkout, else from a walk that skips build folders.
Every output is checked for leaks (no solutions/ or grading/hidden/ path in the handout, no
file identical to a solution or hidden test, no stub identical to its solution)."""

EPILOG = """\
examples:
  python3 tools/handout/make_handout.py --out dist/scan-lab                 # folder
  python3 tools/handout/make_handout.py --tar dist/scan-lab.tar.gz --check  # tarball, built and tested
  python3 tools/handout/make_handout.py --gradescope dist/autograder.zip --check-gradescope
  python3 tools/handout/make_handout.py --tar dist/week2.tar.gz --labs 00,01,02 --check
                                            # labs released one at a time: 03-09 left out"""


def say(message: str) -> None:
    print(f"make_handout: {message}", flush=True)


def matches(rel: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(rel, p) for p in patterns)


def list_files(root: Path) -> list[str]:
    """Paths (relative, with /) of the files that make up the tree."""
    files: list[str] = []
    if (root / ".git").exists() and shutil.which("git"):
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True)
        files = [f for f in out.stdout.decode().split("\0") if f]
        files = [f for f in files if (root / f).is_file()]  # deleted but still in the index
    else:
        for dirpath, dirnames, filenames in os.walk(root):
            rel_dir = os.path.relpath(dirpath, root)
            rel_dir = "" if rel_dir == "." else rel_dir + "/"
            dirnames[:] = sorted(d for d in dirnames if not matches(rel_dir + d, CLUTTER))
            files += [rel_dir + f for f in sorted(filenames)]
    return sorted(f for f in files if not matches(f, CLUTTER))


def lab_folders(root: Path) -> dict[str, str]:
    """Lab number -> folder name under labs/ ("01" -> "01_naive")."""
    return {d.name[:2]: d.name for d in sorted((root / "labs").glob("[0-9][0-9]_*"))
            if d.is_dir()}


def parse_labs(root: Path, text: str) -> list[str]:
    """The lab numbers of --labs ("1,02" -> ["01", "02"]); SystemExit names a lab not there."""
    labs = lab_folders(root)
    numbers = []
    for part in (p.strip() for p in text.split(",")):
        if not part.isdigit() or f"{int(part):02d}" not in labs:
            raise SystemExit(f"make_handout: --labs: there is no lab '{part}' in labs/ (the "
                             f"labs are {', '.join(labs)})")
        numbers.append(f"{int(part):02d}")
    return sorted(set(numbers))


def unreleased(root: Path, released: list[str] | None) -> list[str]:
    """Patterns of what belongs to the labs not released yet: their folders (stubs and
    lessons), graded and hidden tests, and lab 05's cooperative-groups example (a warp scan).
    Build files skip a lab whose folder or test is missing, so the rest still builds."""
    if released is None:
        return []
    patterns = []
    for number, folder in lab_folders(root).items():
        if number in released:
            continue
        patterns += [f"labs/{folder}", f"labs/{folder}/*", f"tests/labs/lab{number}_*",
                     f"grading/hidden/lab{number}_*"]
        if number == "05":
            patterns += ["examples/tile_scan", "examples/tile_scan/*"]
    return patterns


def student_files(root: Path, extra_excludes: list[str]) -> list[str]:
    return [f for f in list_files(root)
            if not matches(f, SECRET + NOT_FOR_STUDENTS + extra_excludes)]


def gradescope_files(root: Path, extra_excludes: list[str]) -> list[str]:
    hidden = [f for f in list_files(root)
              if matches(f, ["grading/hidden/*"]) and not matches(f, extra_excludes)]
    return sorted(student_files(root, extra_excludes) + hidden)


def leak_problems(root: Path, files: list[str], allow_hidden: bool) -> list[str]:
    """What must not be there: secret paths, copies of solutions or hidden tests, stubs that
    are the solution."""
    problems = []
    for f in files:
        if matches(f, ["solutions", "solutions/*"]):
            problems.append(f"{f}: a solution")
        if not allow_hidden and matches(f, ["grading/hidden/*"]):
            problems.append(f"{f}: a hidden test")
    secrets: dict[bytes, str] = {}
    secret_dirs = [root / "solutions"] + ([] if allow_hidden else [root / "grading" / "hidden"])
    for folder in secret_dirs:
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.is_file() and path.stat().st_size > 200:  # tiny files may repeat
                    secrets[path.read_bytes()] = str(path.relative_to(root))
    for f in files:
        if matches(f, ["grading/hidden/*"]):
            continue
        data = (root / f).read_bytes()
        if data in secrets:
            problems.append(f"{f} is identical to {secrets[data]}")
    return problems


def stub_problems(root: Path) -> list[str]:
    """Lab files that are byte for byte their solution: a stub someone forgot to strip."""
    problems = []
    for f in sorted((root / "labs").glob("*/*")):
        solution = root / "solutions" / f.relative_to(root / "labs")
        if f.is_file() and solution.is_file() and f.read_bytes() == solution.read_bytes():
            problems.append(f"labs/{f.relative_to(root / 'labs')} is identical to "
                            f"solutions/{f.relative_to(root / 'labs')}")
    return problems


def _tar_filter(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def write_tree(root: Path, files: list[str], dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    for f in files:
        target = dest / f
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / f, target)


def write_tar(root: Path, files: list[str], dest: Path, top: str) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(dest, "w:gz") as tar:
        for f in files:
            tar.add(root / f, arcname=f"{top}/{f}", recursive=False, filter=_tar_filter)


def write_zip(root: Path, files: list[str], dest: Path,
              extra: dict[str, tuple[bytes, int]]) -> None:
    """`extra`: name -> (content, mode) added at the top of the zip."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for name, (data, mode) in extra.items():
            info = zipfile.ZipInfo(name, date_time=time.localtime()[:6])
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
        for f in files:
            z.write(root / f, arcname=f)


def extract_zip(archive: Path, dest: Path) -> None:
    """Like Gradescope: files keep their Unix modes (setup.sh must stay executable)."""
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            path = dest / info.filename
            z.extract(info, dest)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                path.chmod(mode)


def run_grader(tree_root: Path, submission: Path, out: Path, extra: list[str]) -> dict:
    command = [sys.executable, str(tree_root / "tools" / "grader" / "grade.py"), str(submission),
               "--out", str(out), *extra]
    say("running " + " ".join(command))
    proc = subprocess.run(command, cwd=tree_root)
    results = out / "results.json"
    if proc.returncode != 0 or not results.exists():
        raise SystemExit(f"make_handout: the grader failed (exit {proc.returncode})")
    return json.loads(results.read_text())


def check_handout(tarball_or_dir: Path, labs: str | None, jobs: int | None) -> None:
    """Unpacks the handout, builds it with its own grader (CMake configure + every lab's test
    program, as a student would) and requires that every lab builds, runs and scores 0."""
    with tempfile.TemporaryDirectory(prefix="scanlab-handout-check-") as tmp:
        tmp_path = Path(tmp)
        if tarball_or_dir.is_dir():
            root = tarball_or_dir
        else:
            with tarfile.open(tarball_or_dir) as tar:
                tar.extractall(tmp_path / "x", filter="data")
            (root,) = list((tmp_path / "x").iterdir())
        say(f"checking the handout unpacked in {root}")
        for secret in ("solutions", "grading/hidden"):
            if (root / secret).exists():
                raise SystemExit(f"make_handout: {secret}/ is in the handout")
        extra = ["--build-dir", str(tmp_path / "build"), "--seed", "1"]
        if labs:
            extra += ["--labs", labs]
        if jobs:
            extra += ["--jobs", str(jobs)]
        data = run_grader(root, root / "labs", tmp_path / "out", extra)
        labs_info = data["extra_data"]["labs"]
        bad = {n: i["status"] for n, i in labs_info.items() if i["status"] != "graded"}
        if bad:
            raise SystemExit(f"make_handout: in the handout, these labs did not build and run: "
                             f"{bad}")
        if data["score"] != 0 or any(t["status"] == "passed" for t in data["tests"]):
            raise SystemExit("make_handout: a stub passes a test in the handout")
        if data["extra_data"]["hidden_tests"]:
            raise SystemExit("make_handout: the handout graded with hidden tests")
        say(f"handout OK: {len(labs_info)} lab(s) build and run; {len(data['tests'])} test "
            f"cases, all failing on the stubs, score 0")


def check_gradescope(bundle: Path, labs: str | None, submission: Path | None,
                     jobs: int | None, sandbox_mode: str = "auto") -> None:
    """Unpacks the bundle like Gradescope (into <tmp>/autograder/source) and runs its
    run_autograder on a submission (default: the stubs) with AUTOGRADER_ROOT pointing there.
    setup.sh is not run (it installs packages and adds a user); the build happens in
    run_autograder instead. As root (like Gradescope) the submission runs as setup.sh's
    scanlab-student, or as `nobody` where that user does not exist, and the check fails unless
    the grader really ran it unprivileged; without root it says that this path went untried.
    sandbox_mode "user" grades in the fallback sandbox (what run_autograder's --sandbox auto
    chooses where namespaces are forbidden), as root only."""
    with tempfile.TemporaryDirectory(prefix="scanlab-gradescope-check-") as tmp:
        os.chmod(tmp, 0o755)  # like /autograder: the unprivileged user must get through
        ag = Path(tmp) / "autograder"
        source = ag / "source"
        extract_zip(bundle, source)
        hidden_dir = source / "grading" / "hidden"
        if hidden_dir.is_dir():  # what setup.sh does
            hidden_dir.chmod(0o700)
            for path in hidden_dir.rglob("*"):
                if path.is_file():
                    path.chmod(0o600)
        for name in ("setup.sh", "run_autograder"):
            if not os.access(source / name, os.X_OK):
                raise SystemExit(f"make_handout: {name} is missing or not executable")
        if (source / "solutions").exists():
            raise SystemExit("make_handout: solutions/ is in the Gradescope bundle")
        sub = ag / "submission"
        shutil.copytree(submission or source / "labs", sub)
        shutil.copy(source / "run_autograder", ag / "run_autograder")
        env = dict(os.environ, AUTOGRADER_ROOT=str(ag))
        as_root = os.geteuid() == 0
        if as_root:
            import pwd
            try:
                pwd.getpwnam("scanlab-student")
            except KeyError:
                env["SCANLAB_RUN_AS"] = "nobody"
                say("no user scanlab-student here (setup.sh makes it): the submission runs "
                    "as nobody instead")
        else:
            say("WARNING: not root, so the unprivileged path (run_autograder --run-as, as on "
                "Gradescope) is NOT exercised; run this check as root to try it")
        args = ["--seed", "1"] + (["--labs", labs] if labs else []) + \
            (["--jobs", str(jobs)] if jobs else [])
        if sandbox_mode == "user":
            if not as_root:
                raise SystemExit("make_handout: --check-sandbox user needs root (the user "
                                 "sandbox runs the submission as another user)")
            args += ["--sandbox", "user"]  # after run_autograder's own --sandbox auto: it wins
        say(f"running run_autograder in {ag}")
        proc = subprocess.run([str(ag / "run_autograder"), *args], env=env)
        results = ag / "results" / "results.json"
        if proc.returncode != 0 or not results.exists():
            raise SystemExit("make_handout: run_autograder did not write results.json")
        data = json.loads(results.read_text())
        statuses = {n: i["status"] for n, i in data["extra_data"]["labs"].items()}
        hidden = [t for t in data["tests"] if "hidden" in t.get("tags", [])]
        say(f"Gradescope bundle OK: score {data['score']} of {data['extra_data']['max_score']}, "
            f"labs {statuses}, {len(hidden)} hidden test case(s) "
            f"({hidden[0]['visibility'] if hidden else '-'})")
        if any(s != "graded" for s in statuses.values()):
            raise SystemExit("make_handout: not every lab was built and run")
        sandbox = data["extra_data"].get("sandbox", "")
        say(f"the submission's code ran with sandbox: {sandbox}")
        if sandbox_mode == "user" and sandbox != "user":
            raise SystemExit(f"make_handout: --check-sandbox user, but the grader used {sandbox}")
        if as_root and sandbox not in ("namespaces", "user"):
            raise SystemExit("make_handout: as root, run_autograder did not run the submission "
                             "as an unprivileged user")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="make_handout.py", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, help="write the student tree into this folder")
    p.add_argument("--tar", type=Path, help="write the student tree as a .tar.gz")
    p.add_argument("--name", default="scan-lab", help="top folder inside the tarball "
                                                      "(default: scan-lab)")
    p.add_argument("--gradescope", type=Path, help="write the Gradescope autograder zip")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="also leave out these paths (relative globs, repeatable)")
    p.add_argument("--list", action="store_true", help="print the handout's files and stop")
    p.add_argument("--allow-stub-copies", action="store_true",
                   help="package even when a lab file is identical to its solution (a lab "
                        "still being written); other leaks still stop it")
    p.add_argument("--check", action="store_true",
                   help="unpack the handout, build it and run its tests with its own grader "
                        "(every lab must build and run, every test case fail: stubs)")
    p.add_argument("--check-gradescope", action="store_true",
                   help="unpack the Gradescope zip and run its run_autograder on the stubs "
                        "(or --submission) in a local stand-in for /autograder")
    p.add_argument("--submission", type=Path, help="submission for --check-gradescope")
    p.add_argument("--check-sandbox", choices=("auto", "user"), default="auto",
                   help="the sandbox --check-gradescope grades in: auto (run_autograder's own "
                        "choice: namespaces where the machine allows them) or user, the "
                        "fallback Gradescope's container may leave (needs root)")
    p.add_argument("--labs", help="release only these labs, e.g. 00,01: the others (their "
                                  "stubs, lessons, graded and hidden tests) are left out of "
                                  "the handout and the bundle, and the checks run on these")
    p.add_argument("--jobs", "-j", type=int, help="parallel build jobs for the checks")
    args = p.parse_args(argv)
    if not (args.out or args.tar or args.gradescope or args.list):
        p.error("nothing to do: give --out, --tar, --gradescope or --list")
    if args.check and not (args.out or args.tar):
        p.error("--check needs --out or --tar")
    if args.check_gradescope and not args.gradescope:
        p.error("--check-gradescope needs --gradescope")

    released = parse_labs(REPO, args.labs) if args.labs else None
    excluded = args.exclude + unreleased(REPO, released)
    labs_arg = ",".join(released) if released is not None else None  # for the checks
    files = student_files(REPO, excluded)
    if args.list:
        print("\n".join(files))
        return 0
    stubs = [p for p in stub_problems(REPO) if not matches(p.split(" is identical")[0], excluded)]

    def without_stub_copies(problems: list[str]) -> list[str]:
        if not args.allow_stub_copies:
            return problems + [p for p in stubs if p not in problems]
        copies = {p.split(" is identical")[0] for p in stubs}
        for p in stubs:
            say(f"WARNING (--allow-stub-copies): {p}")
        return [p for p in problems if p.split(" is identical")[0] not in copies]

    problems = without_stub_copies(leak_problems(REPO, files, allow_hidden=False))
    if problems:
        for problem in problems:
            print(f"make_handout: LEAK: {problem}", file=sys.stderr)
        return 1
    say(f"student handout: {len(files)} files" +
        (f", labs {', '.join(released)} only" if released is not None else ""))
    if args.out:
        write_tree(REPO, files, args.out.resolve())
        say(f"wrote {args.out}")
    if args.tar:
        write_tar(REPO, files, args.tar.resolve(), args.name)
        say(f"wrote {args.tar} ({args.tar.stat().st_size // 1024} KiB)")
    if args.gradescope:
        bundle_files = gradescope_files(REPO, excluded)
        problems = without_stub_copies(leak_problems(REPO, bundle_files, allow_hidden=True))
        if problems:
            for problem in problems:
                print(f"make_handout: LEAK: {problem}", file=sys.stderr)
            return 1
        extra = {name: ((GRADESCOPE_DIR / name).read_bytes(), 0o755)
                 for name in ("setup.sh", "run_autograder")}
        write_zip(REPO, bundle_files, args.gradescope.resolve(), extra)
        hidden = sum(1 for f in bundle_files if f.startswith("grading/hidden/"))
        say(f"wrote {args.gradescope} ({len(bundle_files)} files, {hidden} hidden test "
            f"file(s); upload it as the autograder, base image Ubuntu 24.04)")
    if args.check:
        check_handout(args.tar.resolve() if args.tar else args.out.resolve(), labs_arg,
                      args.jobs)
    if args.check_gradescope:
        check_gradescope(args.gradescope.resolve(), labs_arg,
                         args.submission.resolve() if args.submission else None, args.jobs,
                         args.check_sandbox)
    return 0


if __name__ == "__main__":
    sys.exit(main())

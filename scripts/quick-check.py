#!/usr/bin/env python3
"""The quick check before a commit (`./scanlab check`): what CI would most likely catch in the
files you changed, in a few minutes instead of CI's twenty.

  1. formatting: the changed C++ files against .clang-format, with clang-format 14 (the version
     the tree is formatted with);
  2. warnings: each changed C++ file (a header: the translation units of the build that include
     it, three at most) compiled with g++ through the build's own rules and with clang
     (-fsyntax-only, the same flags), -Wall -Wextra: any warning fails;
  3. the fast tests of what changed: the ctest tests of the labs, the emulator, the trace library,
     the tools and the lessons whose files changed, and the mistakes of the catalog that changed
     (tests/mistakes/run_mistakes.py --only). The slow ones stay in CI: the whole catalog, the
     grader's own tests, check-stubs, the clang and arm64 jobs.

"Changed" is the working tree against HEAD plus new files; --base REF compares with where your
branch left REF instead (--base main: everything on your branch). Uses the build folder ./build (SCANLAB_BUILD_DIR) and
builds only the targets the tests need. Exit status 0 only when every check passed."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CXX_SUFFIXES = {".cpp", ".cc", ".h", ".hpp", ".cu", ".cuh"}
TUS_PER_HEADER = 3

# Changed paths -> the ctest tests that exercise them (regular expressions over test names).
# A lab's number comes from the path: labs/NN_*, solutions/NN_*, tests/labs/labNN_*, ...
LAB_PATH = re.compile(r"^(?:labs|solutions)/(\d\d)_|^tests/labs/lab(\d\d)_|"
                      r"^grading/hidden/lab(\d\d)_|^tools/lab_descriptors/lab(\d\d)\.")
TESTS_FOR = [
    (r"^common/simt/rewrite/|^tests/emulator/rewrite", r"^(simt_rewrite|emulator\.rewrite)$"),
    (r"^common/simt/|^tests/emulator/|^cmake/Simt",
     r"^(emulator\.(semantics|faults|planted_bugs)\.simt|emulator\.simtcc|lab00\.solution\.simt"
     r"|example\.tile_scan\.simt)$"),
    (r"^common/trace/|^tests/trace/|^docs/trace-format\.md", r"^trace\."),
    (r"^common/scanlab/|^tests/support/|^cmake/", r"^lab0[0-9]\.solution\.simt$"),
    (r"^tools/", r"^(tools\.|trace\.tracer_findings)"),
    (r"^visualizer/", r"^visualizer\.record$"),
    (r"\.md$|^tests/lessons/", r"^lessons\.(commands|no_todo|quote\.)"),
    (r"^Dockerfile|^\.devcontainer/|^tests/platform/", r"^platform\.container$"),
    (r"^tests/tree/|^labs/CMakeLists\.txt$|^grading/|^tests/labs/CMakeLists\.txt$",
     r"^tree\."),
]


def say(text: str) -> None:
    print(f"\033[1mcheck:\033[0m {text}", flush=True)


def report(found: list[str]) -> list[str]:
    """Prints what a stage found, as soon as it found it; returns it."""
    for problem in found:
        print(f"  - {problem}", flush=True)
    return found


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          errors="replace", **kwargs)


def changed_files(base: str) -> list[str]:
    """Files changed since `base` (where the branch left it: what `base` gained since is not
    ours), plus new files."""
    fork = run(["git", "merge-base", base, "HEAD"], cwd=ROOT)
    if fork.returncode != 0:
        sys.exit(f"check: git merge-base {base} HEAD failed:\n{fork.stdout}")
    diff = run(["git", "diff", "--name-only", "--diff-filter=d", fork.stdout.strip()], cwd=ROOT)
    if diff.returncode != 0:
        sys.exit(f"check: git diff {base} failed:\n{diff.stdout}")
    new = run(["git", "ls-files", "--others", "--exclude-standard"], cwd=ROOT)
    return sorted(set(diff.stdout.split()) | set(new.stdout.split()))


def clang_format() -> str | None:
    for name in ("clang-format-14", "clang-format"):
        path = shutil.which(name)
        if path and "version 14." in run([path, "--version"]).stdout:
            return path
    return None


def newest_clang() -> str | None:
    for version in range(20, 15, -1):
        if shutil.which(f"clang++-{version}"):
            return f"clang++-{version}"
    return shutil.which("clang++")


def check_format(files: list[str]) -> list[str]:
    sources = [f for f in files if Path(f).suffix in CXX_SUFFIXES]
    if not sources:
        return []
    tool = clang_format()
    if tool is None:
        return ["clang-format 14 is not installed (Debian: apt-get install clang-format-14)"]
    done = run([tool, "--dry-run", "--Werror", *sources], cwd=ROOT)
    if done.returncode == 0:
        return []
    badly = sorted({line.split(":", 1)[0] for line in done.stdout.splitlines()
                    if ": error:" in line})
    return [f"not formatted: {f} (fix: {Path(tool).name} -i {f})" for f in badly] or \
        [done.stdout[-2000:]]


class Build:
    def __init__(self, folder: Path):
        self.folder = folder
        self.commands = {}  # object (relative to the build folder) -> compile command
        for entry in json.loads((folder / "compile_commands.json").read_text()):
            found = re.search(r"\s-o\s+(\S+)", entry["command"])
            if found:
                entry["output"] = found.group(1)
                self.commands[entry["output"]] = entry
        self._deps: dict[str, list[str]] | None = None

    def sources_of(self, entry: dict) -> str:
        """The file a compile command is about: a rewritten .cu names its original on line 1."""
        path = Path(entry["file"])
        if "simt_gen" in path.parts and path.exists():
            with path.open(errors="replace") as f:
                match = re.match(r'#line 1 "(.*)"', f.readline())
            if match:
                return match.group(1)
        return str(path)

    def deps(self) -> dict[str, list[str]]:
        """Object -> the files it was compiled from (Ninja's record; the last build's)."""
        if self._deps is None:
            self._deps = {}
            listed = run(["ninja", "-C", str(self.folder), "-t", "deps"])
            current = None
            for line in listed.stdout.splitlines():
                if line and not line.startswith(" "):
                    current = line.split(":", 1)[0]
                    self._deps[current] = []
                elif current and line.strip():
                    self._deps[current].append(line.strip())
        return self._deps

    def units_for(self, file: str) -> list[dict]:
        """Compile commands of the translation units that compile `file` (itself, or three that
        include it), g++ and host-compiler ones only (not nvcc's)."""
        absolute = str(ROOT / file)
        host = [e for e in self.commands.values() if "nvcc" not in e["command"].split()[0]]
        if file.endswith(".cu"):
            # The emulator compiles a .cu file's rewrite (simt_gen/<target>/<name>.<hash>.cu.cpp,
            # made by a build step): make the rewrites that may be this file's first.
            rewrites = [e["file"] for e in host if "simt_gen" in Path(e["file"]).parts
                        and Path(e["file"]).name.startswith(Path(file).stem + ".")]
            run(["ninja", "-C", str(self.folder),
                 *[os.path.relpath(r, self.folder) for r in rewrites]])
        own = [e for e in host if self.sources_of(e) == absolute]
        if own:
            return own
        including = []
        for obj, inputs in self.deps().items():
            if obj in self.commands and "nvcc" not in self.commands[obj]["command"].split()[0] and any(
                    os.path.normpath(i if os.path.isabs(i) else str(self.folder / i)) == absolute
                    for i in inputs):
                including.append(self.commands[obj])
        return including[:TUS_PER_HEADER]


GCC_ONLY = re.compile(r"^(--param=.*|-finline-small-functions|-finline-functions|-fno-sanitize=all)$")
# The RTL passes a lab's kernels skip with g++ (cmake/Backends.cmake): options clang does not know.
RTL_PASSES_OFF = set(re.search(r"set\(SCANLAB_SIMT_LAB_RTL_PASSES_OFF\s([^)]*)\)",
                               (ROOT / "cmake" / "Backends.cmake").read_text()).group(1).split())


def check_warnings(build: Build, files: list[str], clang: str | None) -> list[str]:
    problems: list[str] = []
    units: dict[str, dict] = {}
    for f in files:
        if Path(f).suffix in CXX_SUFFIXES:
            for entry in build.units_for(f):
                units[entry["file"]] = entry
    if not units:
        return problems
    objects = [e["output"] for e in units.values()]
    say(f"g++: building {len(objects)} object(s) of the changed files")
    built = run(["ninja", "-C", str(build.folder), *objects])
    warnings = [line for line in built.stdout.splitlines() if "warning:" in line]
    problems += [f"g++: {w}" for w in warnings]
    if built.returncode != 0:
        problems.append("g++: the build failed:\n" + built.stdout[-3000:])
    if clang is None:
        problems.append("no clang++ found: the clang warnings were not checked")
        return problems
    say(f"{clang}: compiling the same {len(units)} translation unit(s) (-fsyntax-only)")
    for entry in units.values():
        words = shlex.split(entry["command"])
        words = [clang] + [w for w in words[1:]
                           if not GCC_ONLY.match(w) and w not in RTL_PASSES_OFF]
        if "-o" in words:
            i = words.index("-o")
            del words[i:i + 2]
        words = [w for w in words if w not in ("-MD",) and not w.startswith(("-MT", "-MF"))]
        done = run(words + ["-fsyntax-only", "-Wno-unknown-warning-option"],
                   cwd=entry["directory"])
        problems += [f"clang: {line}" for line in done.stdout.splitlines()
                     if "warning:" in line or "error:" in line]
    return problems


def tests_for(files: list[str]) -> str | None:
    patterns = []
    labs = sorted({next(g for g in m.groups() if g) for f in files if (m := LAB_PATH.match(f))})
    if labs:
        patterns.append(rf"^lab({'|'.join(labs)})\.solution\.simt$")
    for paths, tests in TESTS_FOR:
        if any(re.search(paths, f) for f in files):
            patterns.append(tests)
    return "|".join(f"({p})" for p in patterns) if patterns else None


def targets_of_tests(folder: Path, regex: str) -> tuple[list[str], list[str]]:
    """(test names, build targets their commands run) for the tests the regex selects, read from
    the CTestTestfile.cmake files (ctest itself leaves out the commands of programs not built
    yet)."""
    shown = run(["ctest", "--test-dir", str(folder), "-R", regex, "-LE", "student|gpu", "-N"])
    names = re.findall(r"Test\s+#\d+: (\S+)", shown.stdout)
    programs = re.compile(rf"{re.escape(str(folder))}/bin/([\w.-]+)")
    targets: set[str] = set()
    for testfile in folder.rglob("CTestTestfile.cmake"):
        for match in re.finditer(r"^add_test\(\[=*\[(.+?)\]=*\] (.*)\)$", testfile.read_text(),
                                 re.M):
            if match.group(1) in names:
                targets |= set(programs.findall(match.group(2)))
    # bin/simtcc is a script written at configure time, not a target: build what it runs.
    if "simtcc" in targets:
        targets = (targets - {"simtcc"}) | {"simt-rewrite", "simt_runtime"}
    return names, sorted(targets)


def changed_mistakes(base: str) -> list[str]:
    catalog = "tests/mistakes/catalog.toml"
    fork = run(["git", "merge-base", base, "HEAD"], cwd=ROOT).stdout.strip()
    old = run(["git", "show", f"{fork}:{catalog}"], cwd=ROOT)
    before = tomllib.loads(old.stdout)["mistake"] if old.returncode == 0 else []
    now = tomllib.loads((ROOT / catalog).read_text())["mistake"]
    return [m["name"] for m in now if m not in before]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD",
                        help="compare with this commit (default HEAD: uncommitted changes)")
    parser.add_argument("--jobs", "-j", type=int,
                        default=int(os.environ.get("SCANLAB_JOBS", os.cpu_count() or 2)))
    args = parser.parse_args()
    started = time.monotonic()
    files = changed_files(args.base)
    if not files:
        say(f"nothing changed against {args.base}")
        return 0
    say(f"{len(files)} changed file(s) against {args.base}")
    problems: list[str] = []

    clock = time.monotonic()
    problems += report(check_format(files))
    say(f"formatting: {time.monotonic() - clock:.0f} s")

    folder = Path(os.environ.get("SCANLAB_BUILD_DIR", ROOT / "build")).resolve()
    if not (folder / "build.ninja").exists():
        # ./scanlab configures the folder its way; rebuild_cache builds nothing.
        configured = run([str(ROOT / "scanlab"), "build", "rebuild_cache"], cwd=ROOT)
        if not (folder / "build.ninja").exists():
            problems += report([f"could not configure {folder}:\n{configured.stdout[-2000:]}"])
            return finish(problems, started)
    clock = time.monotonic()
    problems += report(check_warnings(Build(folder), files, newest_clang()))
    say(f"warnings: {time.monotonic() - clock:.0f} s")

    clock = time.monotonic()
    regex = tests_for(files)
    if regex:
        names, targets = targets_of_tests(folder, regex)
        if targets:
            say(f"building {' '.join(targets)}")
            built = run(["cmake", "--build", str(folder), "-j", str(args.jobs), "--target",
                         *targets])
            if built.returncode != 0:
                problems += report(["the tests' build failed:\n" + built.stdout[-3000:]])
        if names and built_ok(problems):
            say(f"running {len(names)} test(s): {' '.join(names)}")
            tested = subprocess.run(["ctest", "--test-dir", str(folder), "-R", regex, "-LE",
                                     "student|gpu", "-j", str(args.jobs), "--output-on-failure"])
            if tested.returncode != 0:
                problems += report(["ctest: some tests failed (above)"])
    if "tests/mistakes/catalog.toml" in files:
        for name in changed_mistakes(args.base):
            say(f"mistake catalog: {name}")
            tried = subprocess.run([sys.executable, str(ROOT / "tests/mistakes/run_mistakes.py"),
                                    "--build-dir", str(folder), "-j", str(args.jobs),
                                    "--only", name])
            if tried.returncode != 0:
                problems += report([f"mistake catalog: '{name}' failed (above)"])
    say(f"tests: {time.monotonic() - clock:.0f} s")
    return finish(problems, started)


def built_ok(problems: list[str]) -> bool:
    return not any(p.startswith("the tests' build failed") for p in problems)


def finish(problems: list[str], started: float) -> int:
    elapsed = time.monotonic() - started
    if problems:
        say(f"{len(problems)} problem(s) (listed above), {elapsed:.0f} s")
        return 1
    say(f"all clean, {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Keeps the lessons and docs honest about the tool.

  check_commands.py commands --build-dir BUILD   every `./scanlab ...` command they quote works
  check_commands.py todo                         no TODO left in the text a student reads

`commands` takes the commands from ```sh blocks and from inline code that starts with
`./scanlab` in README.md, labs/*/README.md and docs/*.md, and checks each one against the tool
itself, not against a copy of its grammar:

- the subcommand is one the `scanlab` script handles (its `case` labels);
- `lab NN [--solution] ARGS`: lab NN exists, and the lab's test program (BUILD/bin/
  labNN_tests_<student|solution>_simt) accepts ARGS: it is run with them and --list-test-cases,
  so emulator flags (--simt-*=, and SIMT_* variables set before the command) are parsed by the
  emulator, and test-case filters (-tc=...) must select at least one test case; other arguments
  must be doctest options;
- `trace ...`: the lab tracer records it for real, into a temporary folder, and must succeed
  (with the reference solution, also for `--student`: the stubs may launch nothing);
- `view TRACE [OPTIONS]`: every option is one the viewer declares (visualizer/src/options.cpp),
  and TRACE is a file `./scanlab trace` writes (traces/labNN*.trace.json);
- `grade`, `check-stubs`: every option appears in the program's --help;
- `run`, `test`, `gpu-check`, `help`: no arguments (there is none to check yet);
- a variable set before the command is one the tools read.

Each lab's "Running the tests" section must run `./scanlab lab NN` for its own lab and must not
configure a build or call test programs itself.

Prints one line per problem and `N commands checked, M problems`; exit status 1 on any problem.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# doctest's command-line options (its -dt- prefixed forms are accepted too); anything else that
# reaches a test program would be ignored by doctest, silently.
DOCTEST_OPTIONS = {
    "-?", "-h", "--help", "-v", "--version", "-c", "--count", "-ltc", "--list-test-cases",
    "-lts", "--list-test-suites", "-lr", "--list-reporters",
    "-tc", "--test-case", "-tce", "--test-case-exclude", "-sf", "--source-file",
    "-sfe", "--source-file-exclude", "-ts", "--test-suite", "-tse", "--test-suite-exclude",
    "-sc", "--subcase", "-sce", "--subcase-exclude", "-r", "--reporters", "-o", "--out",
    "-ob", "--order-by", "-rs", "--rand-seed", "-f", "--first", "-l", "--last",
    "-aa", "--abort-after", "-scfl", "--subcase-filter-levels", "-s", "--success",
    "-cs", "--case-sensitive", "-e", "--exit", "-d", "--duration", "-m", "--minimal",
    "-q", "--quiet", "-nt", "--no-throw", "-ne", "--no-exitcode", "-nr", "--no-run",
    "-ni", "--no-intro", "-nv", "--no-version", "-nc", "--no-colors", "-fc", "--force-colors",
    "-nb", "--no-breaks", "-ns", "--no-skip", "-gfl", "--gnu-file-line", "-npf",
    "--no-path-filenames", "-nln", "--no-line-numbers", "-ndo", "--no-debug-output",
    "-nse", "--no-skipped-summary", "-nto", "--no-time-in-output",
}
# Emulator settings from the environment and the flag each corresponds to (common/simt options).
SIMT_VARIABLE_FLAGS = {"SIMT_MODE": "mode", "SIMT_DISPATCH": "dispatch", "SIMT_SEED": "seed",
                       "SIMT_SMS": "sms", "SIMT_STACK_KB": "stack-kb", "SIMT_CHECKS": "checks",
                       "SIMT_VISIBILITY": "visibility"}
PLACEHOLDER = re.compile(r"^<[^>]+>$")
LESSONS = ["README.md", "labs/*/README.md", "docs/*.md"]
# The text a student reads. `TODO(student)` names the parts of the lab files a student fills in,
# and "the TODOs" refers to them; any other TODO (or FIXME, XXX, TBD) is an unfinished lesson.
STUDENT_TEXT = ["README.md", "labs/*/README.md", "docs/*.md"]
UNFINISHED = re.compile(r"\bTODO\b(?!\(student\))|\bFIXME\b|\bXXX\b|\bTBD\b")


def lesson_files(patterns: list[str]) -> list[Path]:
    return sorted({p for pattern in patterns for p in ROOT.glob(pattern)})


def commands_in(text: str) -> list[tuple[int, str]]:
    """(line, command) for each shell command of a ```sh block and each inline `./scanlab ...`."""
    found = []
    lines = text.splitlines()
    in_sh = False
    pending, pending_line = "", 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            in_sh = not in_sh and stripped in ("```sh", "```bash", "```shell")
            continue
        if in_sh:
            if not pending:
                pending_line = number
            if stripped.endswith("\\"):
                pending += stripped[:-1] + " "
                continue
            pending += stripped
            if pending and not pending.startswith("#"):
                found.append((pending_line, pending))
            pending = ""
        else:
            for span in re.findall(r"`([^`]+)`", line):
                words = span.split()
                while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
                    words = words[1:]
                if words and words[0] == "./scanlab":
                    found.append((number, span))
    return found


def split_command(command: str) -> list[list[str]]:
    """The simple commands of a shell line (split at &&, ||, ;, |), comments dropped."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    parts, current = [], []
    for token in lexer:
        if token and set(token) <= set(";&|"):
            parts.append(current)
            current = []
        else:
            current.append(token)
    parts.append(current)
    return [p for p in parts if p]


class Checker:
    def __init__(self, build: Path | None):
        self.build = build
        self.problems: list[str] = []
        self.checked = 0
        script = (ROOT / "scanlab").read_text()
        self.subcommands = set()
        for label in re.findall(r"^([a-z][a-z|\- ]*)\)$", script, re.M):
            self.subcommands |= {word.strip() for word in label.split("|")}
        self.variables = self.variables_read(script)
        options = (ROOT / "visualizer/src/options.cpp").read_text()
        self.viewer_options = set(re.findall(r'add_(?:option|flag)\("(--[a-z-]+)"', options))
        self.viewer_flags = set(re.findall(r'add_flag\("(--[a-z-]+)"', options))
        self.helps: dict[str, str] = {}
        self.scratch_dir = tempfile.TemporaryDirectory(prefix="scanlab-lesson-commands-")
        self.scratch = Path(self.scratch_dir.name)

    @staticmethod
    def variables_read(script: str) -> set[str]:
        names = set(re.findall(r"\$\{(SCANLAB_[A-Z0-9_]+)", script))
        sources = [*ROOT.glob("common/**/*.cpp"), *ROOT.glob("common/**/*.h"),
                   *ROOT.glob("tests/support/*.cpp"), *ROOT.glob("tools/**/*.cpp")]
        for source in sources:
            text = source.read_text(errors="replace")
            names |= set(re.findall(r'getenv\("([A-Z][A-Z0-9_]*)"\)', text))
            names |= set(re.findall(r'\{"(SIMT_[A-Z0-9_]+)", "', text))
        return names

    def problem(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")
        print(f"FAIL: {where}: {what}", flush=True)

    def run(self, argv: list[str], env: dict[str, str], timeout: float = 120):
        try:
            return subprocess.run(argv, env={**os.environ, **env}, text=True, timeout=timeout,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
        except subprocess.TimeoutExpired:
            return None

    def program(self, name: str, where: str) -> Path | None:
        path = self.build / "bin" / name if self.build else None
        if path is None or not path.exists():
            self.problem(where, f"cannot check it: {name} is not built (build it first, e.g. "
                                f"cmake --build {self.build or 'build'} --target {name})")
            return None
        return path

    def check(self, where: str, command: str) -> None:
        try:
            simple = split_command(command)
        except ValueError as error:
            self.problem(where, f"`{command}` is not a shell command: {error}")
            return
        for words in simple:
            env = {}
            while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
                name, value = words[0].split("=", 1)
                env[name] = value
                words = words[1:]
            if not words or words[0] != "./scanlab":
                continue
            self.checked += 1
            for name in env:
                if name not in self.variables:
                    self.problem(where, f"`{command}`: no tool reads the variable {name}")
            if len(words) < 2:
                continue
            sub, args = words[1], words[2:]
            if sub not in self.subcommands:
                self.problem(where, f"`{command}`: ./scanlab has no command '{sub}' "
                                    f"(it has: {', '.join(sorted(self.subcommands))})")
                continue
            handler = getattr(self, "check_" + sub.replace("-", "_"), None)
            if handler:
                handler(where, command, args, env)
            elif args:
                self.problem(where, f"`{command}`: this checker cannot check arguments of "
                                    f"'./scanlab {sub}'; teach tests/lessons/check_commands.py")

    def check_lab(self, where: str, command: str, args: list[str], env: dict[str, str]) -> None:
        if not args:
            self.problem(where, f"`{command}`: ./scanlab lab needs a lab number")
            return
        number, args = args[0], args[1:]
        if not re.fullmatch(r"\d\d", number) or not list(ROOT.glob(f"labs/{number}_*")):
            self.problem(where, f"`{command}`: there is no lab '{number}'")
            return
        flavour = "student"
        if args and args[0] == "--solution":
            flavour, args = "solution", args[1:]
        program_args = []
        for arg in args:
            if PLACEHOLDER.match(arg):
                continue
            option = arg.split("=", 1)[0]
            if option.startswith("--simt-") or arg == "--verbose":  # the test main's own
                program_args.append(arg)
            elif option in DOCTEST_OPTIONS or option.replace("-dt-", "-", 1) in DOCTEST_OPTIONS:
                program_args.append(arg)
            else:
                self.problem(where, f"`{command}`: '{arg}' is neither an emulator flag "
                                    f"(--simt-*=), --verbose nor a doctest option")
        run_env = {}
        for name, value in env.items():
            if PLACEHOLDER.match(value):
                value = "1"
            if name in SIMT_VARIABLE_FLAGS:
                program_args.append(f"--simt-{SIMT_VARIABLE_FLAGS[name]}={value}")
            else:
                run_env[name] = value
        program = self.program(f"lab{number}_tests_{flavour}_simt", where)
        if program is None:
            return
        result = self.run([str(program), *program_args, "--list-test-cases"], run_env)
        if result is None or result.returncode != 0:
            output = result.stdout.strip() if result else "(timed out)"
            self.problem(where, f"`{command}`: the test program refuses it:\n{output}")
            return
        listed = re.search(r"passing the current filters: (\d+)", result.stdout)
        if not listed or int(listed.group(1)) == 0:
            self.problem(where, f"`{command}`: selects no test case")

    def check_trace(self, where: str, command: str, args: list[str], env: dict[str, str]) -> None:
        # `--student` records the student's code, which may not launch anything yet (the stubs):
        # the reference solution's tracer takes the same options, so it checks them.
        args = [a for a in args if a != "--student"]
        if not args or args[0] == "NN":
            if args[1:]:
                self.problem(where, f"`{command}`: a placeholder lab with options is not "
                                    f"checked; name a lab")
            return
        program = self.program("scanlab_trace_solution", where)
        if program is None:
            return
        folder = self.scratch / f"trace{self.checked}"
        folder.mkdir()
        result = self.run([str(program), *args], {**env, "SCANLAB_TRACE_DIR": str(folder)},
                          timeout=300)
        if result is None or result.returncode != 0:
            output = result.stdout[-3000:].strip() if result else "(timed out)"
            self.problem(where, f"`{command}`: the tracer fails:\n{output}")

    def check_view(self, where: str, command: str, args: list[str], env: dict[str, str]) -> None:
        rest = list(args)
        while rest:
            arg = rest.pop(0)
            if arg.startswith("-"):
                option = arg.split("=", 1)[0]
                if option not in self.viewer_options:
                    self.problem(where, f"`{command}`: the viewer has no option {option}")
                elif option not in self.viewer_flags and "=" not in arg:
                    rest = rest[1:]  # its value
            # The tracer writes a call's later launches as labNN.trace.1.json, .2 ...
            elif not re.fullmatch(r"traces/lab\d\d(-[a-z-]+)?\.trace(\.\d+)?\.json", arg):
                self.problem(where, f"`{command}`: '{arg}' is not a file `./scanlab trace` "
                                    f"writes (traces/labNN....trace.json)")

    def check_with_help(self, where: str, command: str, args: list[str], script: str) -> None:
        if script not in self.helps:
            result = self.run([sys.executable, script, "--help"], {})
            self.helps[script] = result.stdout if result and result.returncode == 0 else ""
        for arg in args:
            option = arg.split("=", 1)[0]
            if option.startswith("-") and not re.search(rf"(^|[\s\[,]){re.escape(option)}\b",
                                                        self.helps[script]):
                self.problem(where, f"`{command}`: {script} --help does not list {option}")

    def check_grade(self, where: str, command: str, args: list[str], env: dict[str, str]) -> None:
        self.check_with_help(where, command, args, "tools/grader/grade.py")

    def check_check_stubs(self, where: str, command: str, args: list[str],
                          env: dict[str, str]) -> None:
        self.check_with_help(where, command, args, "tools/grader/check_stubs.py")

    def check_running_the_tests(self, lesson: Path, text: str) -> None:
        number = lesson.parent.name[:2]
        where = f"{lesson.relative_to(ROOT)}"
        section = re.search(r"^## Running the tests\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        if not section:
            self.problem(where, "has no '## Running the tests' section")
            return
        body = section.group(1)
        commands = [c for _, c in commands_in(body)]
        if not any(re.search(rf"(^|\s)\./scanlab lab {number}\b", c) for c in commands):
            self.problem(where, f"'Running the tests' does not run `./scanlab lab {number}`")
        # `cmake -S . -B build` makes a build that `./scanlab` cannot use (another generator);
        # test programs called by path skip the build. (ctest --preset gpu, for the GPU, is fine.)
        for span in re.findall(r"`([^`\n]+)`", body) + commands:
            if re.search(r"\bcmake -S\b|\bbuild/bin/|\bbuild/<path>/", span):
                self.problem(where, f"'Running the tests' runs `{span}`: use ./scanlab lab "
                                    f"{number} (it configures, builds and runs)")


def check_commands(build: Path | None) -> int:
    checker = Checker(build)
    for lesson in lesson_files(LESSONS):
        text = lesson.read_text()
        for line, command in commands_in(text):
            checker.check(f"{lesson.relative_to(ROOT)}:{line}", command)
        if lesson.parent.parent == ROOT / "labs":
            checker.check_running_the_tests(lesson, text)
    print(f"{checker.checked} commands checked, {len(checker.problems)} problems")
    return 1 if checker.problems or checker.checked == 0 else 0


def check_todo() -> int:
    problems = 0
    files = lesson_files(STUDENT_TEXT)
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if UNFINISHED.search(line):
                problems += 1
                print(f"FAIL: {path.relative_to(ROOT)}:{number}: unfinished text: "
                      f"{line.strip()}")
    print(f"{len(files)} files checked, {problems} problems")
    return 1 if problems or not files else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("commands", "todo"))
    parser.add_argument("--build-dir", type=Path, help="the build with the lab test programs")
    args = parser.parse_args()
    if args.what == "todo":
        return check_todo()
    return check_commands(args.build_dir.resolve() if args.build_dir else None)


if __name__ == "__main__":
    sys.exit(main())

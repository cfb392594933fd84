"""The submission's build in a folder of its own (issue 32).

The grader's build folder holds what must stay out of the submission's reach: the trusted
programs it runs as itself (the listing programs, the harnesses), the hidden tests' objects and
CMakeCache.txt (which names the repository, the hidden tests and the solutions). The submission's
compiler and its programs never get to write there, nor to read it (a compiler reads whatever
`.incbin` or `#embed` names). So a submission's target is not built by ninja in that folder:

1. the grader asks ninja (in its own folder, outside the sandbox) for the commands that build
   the target (`ninja -t commands`) and keeps those of the lab library made from the staged
   labs (the rewrites and compiles of the lab's sources, the archive) and the program's link;
2. a private folder gets copies of what those commands read from the grader's folder (the
   emulator's rewriter and libraries, the worker's server objects; never a hidden test's object
   or the cache), the staged lab folders the commands name (the lab's own: no other lab's
   files), and the folders the commands write into;
3. the commands run there, in the sandbox, as the submission's user, with the grader's folder's
   name replaced by the private folder's. The program they link is the private folder's.

The private folder is the submission user's own; the grader's folder stays the grader's (0700
when a --run-as user exists, so not even its names can be read).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

# Files of the grader's build folder that no submission may read, whatever a command names.
_NEVER_COPIED = re.compile(r"(^|/)(CMakeCache\.txt|\.ninja_log|\.ninja_deps|build\.ninja|"
                           r"compile_commands\.json|CMakeFiles/[^/]*\.(cmake|txt|log))$|"
                           r"lab[0-9][0-9]_(test_objects|harness|listing|pristine)_|"
                           r"_solution_")


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Plan:
    """How to build one target of the grader's folder `build` in `folder`."""
    target: str
    build: Path
    folder: Path
    commands: list[str]
    copied: list[Path] = field(default_factory=list)  # relative to build
    staging_rel: Path = Path("_grader/labs")  # the staged labs, relative to build and folder

    def artifact(self, path: Path) -> Path:
        """Where a file of the grader's folder (the target's program) is in the private one."""
        return self.folder / self.relative(path)

    def relative(self, path: Path) -> Path:
        return Path(path).resolve().relative_to(self.build.resolve())

    def script(self) -> str:
        # Each in a shell of its own, in the folder, as ninja runs them (a `cd DIR &&` stays in
        # its command).
        lines = ["set -e"]
        for command in self.commands:
            lines.append(f"cd {shlex.quote(str(self.folder))}")
            lines.append(f"( {command} )")
        return "\n".join(lines) + "\n"


def _commands(build: Path, target: str) -> list[str]:
    """The commands that build `target` from the submission's files: of every command ninja
    knows for it (`ninja -t commands`, in order), those of the lab libraries built from the
    staged labs (`labNN_student_<backend>`: the rewrites, compiles and archive), those of the
    target's own objects (a speed program's descriptor) and the last one, the program's link. The rest (the emulator, the worker's server objects) the grader
    built already, outside the sandbox."""
    proc = subprocess.run(["ninja", "-C", str(build), "-t", "commands", target],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"ninja -t commands {target} failed in {build}:\n"
                           f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if not lines:
        raise RuntimeError(f"ninja knows no command for {target}")
    own = f"/{target}.dir/"  # the target's own objects (the speed harness's descriptor)
    commands = [line for line in lines[:-1]
                if _STUDENT_LIBRARY.search(line) or own in line]
    for line in commands:
        if " -c " in line and _TRUSTED_TARGET.search(line):
            raise RuntimeError(f"building {target} would compile a trusted target's source "
                               f"with the submission's: {line[:300]}")
    return commands + [lines[-1]]


_STUDENT_LIBRARY = re.compile(r"lab[0-9][0-9]_student_[a-z]+\b")
_TRUSTED_TARGET = re.compile(r"_(test_objects|harness|listing|pristine|worker_objects)_")


def _tokens(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    out = []
    for word in words:
        for prefix in ("-I", "-iquote", "-isystem", "-L", "-o", "-include"):
            if word.startswith(prefix) and len(word) > len(prefix):
                word = word[len(prefix):]
                break
        out.append(word)
    return out


def plan(build: Path, target: str, folder: Path, staging: Path) -> Plan:
    """The commands that build `target` from the staged labs (`staging`, in `build`), to run in
    `folder` (created empty here)."""
    build = build.resolve()
    commands = _commands(build, target)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    prefix = str(build) + "/"
    produced: set[str] = set()
    needed: set[str] = set()
    out_dirs: set[str] = set()
    for command in commands:
        words = _tokens(command)
        for i, word in enumerate(words):
            rel = word[len(prefix):] if word.startswith(prefix) else word
            if os.path.isabs(rel) or rel.startswith("-") or not rel or ".." in rel.split("/"):
                continue
            path = build / rel
            outputs = i > 0 and words[i - 1] in ("-o", "-MF", "-MT", "qc", "rc", "cr")
            if outputs or "-o" + word in command.split() or rel.endswith((".d", ".cu.cpp")):
                produced.add(rel)
                out_dirs.add(os.path.dirname(rel))
            elif path.is_file():
                needed.add(rel)
        # Output folders the compiler names for itself (-o DIR/x.o, --depfile DIR/x.d), and
        # the folders the commands run in (cd DIR &&).
        for match in re.finditer(r"^cd (\S+) &&", command):
            rel = match.group(1)
            if rel.startswith(prefix) or rel == str(build):
                out_dirs.add(rel[len(prefix):] if rel != str(build) else "")
        for match in re.finditer(r"(?:-o|-MF|--depfile)\s+(\S+)", command):
            rel = match.group(1)
            rel = rel[len(prefix):] if rel.startswith(prefix) else rel
            if not os.path.isabs(rel):
                out_dirs.add(os.path.dirname(rel))
                produced.add(rel)
    copied = []
    staging_rel = staging.resolve().relative_to(build)
    for rel in sorted(needed - produced):
        if Path(rel).is_relative_to(staging_rel):
            continue
        if _NEVER_COPIED.search(rel):
            raise RuntimeError(f"building {target} would read {rel} of the grader's build "
                               f"folder, which no submission may read")
        source = build / rel
        dest = folder / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, dest)
        copied.append(Path(rel))
    for rel in out_dirs:
        if rel:
            (folder / rel).mkdir(parents=True, exist_ok=True)
    # Only the lab folders the commands name: nothing of another lab's files can get into the
    # program (build_cache.py keys a program by these folders' files).
    for lab in named_labs(commands, build / staging_rel):
        shutil.copytree(staging / lab, folder / staging_rel / lab, symlinks=False,
                        dirs_exist_ok=True)
    replaced = [c.replace(str(build), str(folder)) for c in commands]
    return Plan(target, build, folder, replaced, copied, staging_rel)


def named_labs(commands: list[str], staging: Path) -> list[str]:
    """The staged lab folders (`01_naive`) that the commands name a file or folder of."""
    prefix = str(staging) + "/"
    labs = set()
    for command in commands:
        for word in _tokens(command):
            if word.startswith(prefix) and len(word) > len(prefix):
                labs.add(word[len(prefix):].split("/")[0])
    return sorted(labs)


def seal(folder: Path) -> None:
    """After the build: the private folder becomes the grader's again, readable but not
    writable by anyone else, so that no later step of the submission (a hidden case's worker)
    can leave anything there for another (a later lab's visible cases)."""
    uid, gid = os.geteuid(), os.getegid()
    for root, dirs, files in os.walk(folder):
        for name in [root] + [os.path.join(root, n) for n in dirs + files]:
            if os.path.islink(name):
                os.unlink(name)
                continue
            os.chown(name, uid, gid)
            mode = os.stat(name).st_mode & 0o7777
            if os.path.isdir(name) or mode & 0o100:
                os.chmod(name, 0o755)
            else:
                os.chmod(name, 0o644)


def hand_over(folder: Path, user: tuple[int, int] | None) -> None:
    """The private folder becomes the submission user's (where it has one)."""
    if user is None:
        return
    for root, dirs, files in os.walk(folder):
        for name in [root] + [os.path.join(root, n) for n in dirs + files]:
            os.lchown(name, *user)
    os.chmod(folder, 0o700)


def run(plan_: Plan, sandbox, view, timeout_s: float, log: Path, memory_mb: int,
        heartbeat=None):
    """Runs the plan's commands in its folder, in `sandbox` (sandbox.Sandbox) with `view`, as
    the submission's user, under the build's limits. Returns procs.ProcResult."""
    from . import procs
    env = {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"), "LANG": "C.UTF-8",
           "HOME": str(plan_.folder), "TMPDIR": str(plan_.folder),
           "CCACHE_DISABLE": "1"}  # a student's files never go into (or come from) a cache
    argv = ["/bin/sh", "-c", plan_.script()]
    return procs.run(sandbox.command(argv, view, plan_.folder), cwd=plan_.folder, env=env,
                     limits=sandbox.limits(timeout_s, memory_mb=memory_mb), output_path=log,
                     heartbeat=heartbeat, shell_status=sandbox.wraps)

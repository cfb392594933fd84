"""Reuse of a submission's private build (private_build.py) when the same lab code is built again.

Every grading compiles each lab's files in a fresh private folder (the student's compile must not
see the grader's build folder), so a warm build folder alone no longer saves the compile of an
unchanged lab (an untouched stub, a regrade, a lab a student did not change). This cache keeps,
per build folder, the programs that earlier private builds linked, and gives one back when the
same commands would build it from the same bytes.

The cache lives in the grader's build folder (`_grader/private-builds/`), which no submission's
build or program can see (namespaces) or read (the user sandbox: the folder is the grader's,
0700); with `--sandbox none` the submission runs as the grader and can write it, as it can the
trusted programs. Only the grader writes it, after a build that succeeded, from the private
folder once no process of the submission is left (sealed where the submission has a user of its
own). The compile of a submission runs none of its code, so what it produces depends only on
what it reads; an entry is found by:

* its key: the sandbox's mode and the submission's user (what else the compilers could see
  depends on them), the build's commands (the private folder's name left out), the SHA-256
  of every input copied from the grader's build folder (the emulator's libraries, the worker's
  server objects), and of every file of the staged lab folder the commands name (the
  submission's files and the lab's given ones: the private folder holds no other lab's);
* the files the compilers reported reading besides those (their depfiles: the project's and the
  system's headers), each checked again by its SHA-256 before the entry is used.

What a compiler reads without reporting it (`.incbin` in inline assembly names a file only to
the assembler) is not in the key: a program reused for the same lab file may hold an older
version of such a file. Such a file is one the same compile could read (a public file of the
tree or of the system), never a hidden test's or another lab's or submission's."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from . import private_build

PRIVATE = "@PRIVATE@"  # the private folder's name in keys and manifests
KEEP_ENTRIES = 48  # the newest entries kept; older ones are deleted when one is stored
KEEP_BYTES = 2 << 30


def file_sha256(path: Path) -> str | None:
    """The SHA-256 of a regular file, not following a symbolic link; None if there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        digest = hashlib.sha256()
        with os.fdopen(fd, "rb") as f:
            fd = -1
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()
    finally:
        if fd >= 0:
            os.close(fd)


def _depfile_paths(text: str) -> list[str]:
    """The prerequisites of a Make-style depfile (`target: dep dep \\`)."""
    text = text.replace("\\\n", " ").replace("\\ ", "\0")
    paths = []
    for line in text.splitlines():
        _, colon, deps = line.partition(": ")
        if not colon:
            continue
        paths += [word.replace("\0", " ") for word in deps.split()]
    return paths


class BuildCache:
    def __init__(self, root: Path, setting: str = ""):
        """`setting`: what else decides what a compile may see (the sandbox's mode and the
        submission's user): a program is reused only under the same setting."""
        self.root = root
        self.setting = setting

    def _staged_lab_files(self, plan) -> dict[str, str]:
        """Every file of the staged lab folders that the commands name, by its path in the
        private folder (PRIVATE/...), with its SHA-256."""
        staging = plan.folder / plan.staging_rel
        labs = private_build.named_labs(plan.commands, staging)
        files = {}
        for lab in sorted(labs):
            for path in sorted((staging / lab).rglob("*")):
                if path.is_file():
                    rel = path.relative_to(plan.folder).as_posix()
                    files[f"{PRIVATE}/{rel}"] = file_sha256(path) or ""
        return files

    def key(self, plan) -> str:
        """Computed before the build runs (the submission's build owns the folder while it runs)."""
        digest = hashlib.sha256(f"scanlab private build 1\n{self.setting}\n".encode())
        for command in plan.commands:
            digest.update(command.replace(str(plan.folder), PRIVATE).encode() + b"\n")
        for rel in sorted(plan.copied):
            digest.update(f"{rel} {file_sha256(plan.folder / rel)}\n".encode())
        for name, sha in self._staged_lab_files(plan).items():
            digest.update(f"{name} {sha}\n".encode())
        return digest.hexdigest()

    def _resolve(self, name: str, folder: Path) -> Path:
        return folder / name[len(PRIVATE) + 1:] if name.startswith(PRIVATE + "/") else Path(name)

    def lookup(self, plan, key: str, artifacts: list[Path]) -> bool:
        """Puts the cached programs of an identical build (`key`) into the private folder; False
        when there is none (or one of the files its compilers read has changed since)."""
        entry = self.root / key
        try:
            manifest = json.loads((entry / "manifest.json").read_text())
        except (OSError, ValueError):
            return False
        for name, sha in manifest["read"].items():
            if file_sha256(self._resolve(name, plan.folder)) != sha:
                return False
        for rel in artifacts:
            source = entry / "programs" / rel
            if not source.is_file() or file_sha256(source) != manifest["programs"].get(str(rel)):
                return False
        for rel in artifacts:
            dest = plan.folder / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(entry / "programs" / rel, dest)
        os.utime(entry)  # the newest are kept
        return True

    def store(self, plan, key: str, artifacts: list[Path]) -> None:
        """Keeps the programs a successful build (`key`, taken before it ran) linked, with what
        its compilers read."""
        read: dict[str, str] = {}
        staged = self._staged_lab_files(plan)
        for depfile in plan.folder.rglob("*.d"):
            if depfile.is_symlink() or not depfile.is_file():
                continue
            for dep in _depfile_paths(depfile.read_text(errors="replace")):
                path = Path(dep) if os.path.isabs(dep) else plan.folder / dep
                path = Path(os.path.normpath(path))
                if path.is_relative_to(plan.folder):
                    rel = path.relative_to(plan.folder)
                    name = f"{PRIVATE}/{rel.as_posix()}"
                    if name in staged or rel in plan.copied:
                        continue  # in the key already
                    if str(rel).startswith(str(plan.staging_rel) + "/"):
                        read[name] = file_sha256(path) or ""  # another lab's staged file
                    continue  # a file the build made itself
                sha = file_sha256(path)
                if sha is None:
                    return  # a file read that is gone: not something to rely on
                read[str(path)] = sha
        programs = {}
        for rel in artifacts:
            sha = file_sha256(plan.folder / rel)
            if sha is None:
                return
            programs[str(rel)] = sha
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)
        scratch = Path(tempfile.mkdtemp(prefix=".new-", dir=self.root))
        try:
            for rel in artifacts:
                dest = scratch / "programs" / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(plan.folder / rel, dest, follow_symlinks=False)
            (scratch / "manifest.json").write_text(json.dumps(
                {"read": read, "programs": programs, "stored": time.time()}, indent=1))
            shutil.rmtree(self.root / key, ignore_errors=True)
            os.rename(scratch, self.root / key)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        self._evict()

    def _evict(self) -> None:
        entries = sorted((p for p in self.root.iterdir() if not p.name.startswith(".")),
                         key=lambda p: p.stat().st_mtime, reverse=True)
        total = 0
        for i, entry in enumerate(entries):
            total += sum(f.stat().st_size for f in entry.rglob("*") if f.is_file())
            if i >= KEEP_ENTRIES or total > KEEP_BYTES:
                shutil.rmtree(entry, ignore_errors=True)

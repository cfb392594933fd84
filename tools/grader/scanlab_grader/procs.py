"""Running untrusted programs: own process group, wall-clock limit, resource limits, output to a
file (never a pipe the program could fill), and the whole group killed when it is over."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

_SIGNAL_TEXT = {
    signal.SIGSEGV: "segmentation fault",
    signal.SIGBUS: "bus error",
    signal.SIGFPE: "arithmetic exception",
    signal.SIGILL: "illegal instruction",
    signal.SIGABRT: "aborted",
    signal.SIGKILL: "killed",
    signal.SIGTERM: "terminated",
    signal.SIGXCPU: "CPU time limit exceeded",
    signal.SIGXFSZ: "file size limit exceeded",
    signal.SIGTRAP: "trap",
}


def signal_text(number: int) -> str:
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
    what = _SIGNAL_TEXT.get(number)
    return f"{name} ({what})" if what else name


@dataclass
class Limits:
    timeout_s: float
    memory_mb: int = 0  # address space; 0: no limit
    file_mb: int = 256  # largest file the program may write (its own output included)
    cpu_s: float | None = None  # CPU seconds, a backstop behind the wall-clock limit
    user: tuple[int, int] | None = None  # (uid, gid) to run as; needs root


@dataclass
class ProcResult:
    command: list[str]
    returncode: int | None  # the exit status when the program exited by itself
    signal: int | None  # the signal that ended it, when one did
    timed_out: bool
    elapsed: float
    output_path: Path
    start_error: str = ""  # the program could not be started at all

    @property
    def exited(self) -> bool:
        """It ended by itself (exit or return from main), within its time."""
        return not self.start_error and not self.timed_out and self.signal is None

    def describe(self, timeout_s: float | None = None) -> str:
        if self.start_error:
            return f"could not be started: {self.start_error}"
        if self.timed_out:
            limit = f" after {timeout_s:g} s" if timeout_s else ""
            return f"timed out{limit} and was killed"
        if self.signal is not None:
            if self.signal == signal.SIGXCPU:
                return "ran out of CPU time and was killed (" + signal_text(self.signal) + ")"
            return "crashed: " + signal_text(self.signal)
        return f"exited with code {self.returncode}"

    def tail(self, max_lines: int = 20, max_bytes: int = 6000) -> str:
        return read_tail(self.output_path, max_lines, max_bytes)


def read_tail(path: Path, max_lines: int = 20, max_bytes: int = 6000) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - max_bytes))
            data = f.read()
    except OSError:
        return ""
    text = data.decode("utf-8", errors="replace")
    lines = text.splitlines()
    if size > max_bytes and lines:
        lines = lines[1:]  # the first one is probably cut
    return "\n".join(lines[-max_lines:])


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(
    command: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str],
    limits: Limits,
    output_path: Path,
    heartbeat: Callable[[float], None] | None = None,
    heartbeat_every: float = 30.0,
) -> ProcResult:
    """Runs `command` in a new session (its own process group), stdout and stderr both into
    `output_path`, stdin from /dev/null. On timeout the whole group gets SIGKILL; after a normal
    end too, so that nothing it forked lives on. `heartbeat(elapsed)` is called every
    `heartbeat_every` seconds while it runs."""
    command = [str(c) for c in command]

    def set_limits() -> None:  # runs in the child, between fork and exec
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if limits.memory_mb > 0:
            size = limits.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        if limits.file_mb > 0:
            size = limits.file_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        if limits.cpu_s:
            soft = int(limits.cpu_s) + 1
            resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))
        if limits.user is not None:  # last: the limits above are then out of its reach
            uid, gid = limits.user
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)

    output_path.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    with open(output_path, "wb") as out:
        try:
            proc = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=set_limits,
            )
        except OSError as error:
            return ProcResult(command, None, None, False, 0.0, output_path, str(error))

    timed_out = False
    next_beat = start + heartbeat_every
    try:
        while True:
            now = time.monotonic()
            left = start + limits.timeout_s - now
            if left <= 0:
                timed_out = True
                break
            wait = min(left, 0.25 if heartbeat is None else max(0.01, min(0.25, next_beat - now)))
            try:
                proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                pass
            if heartbeat is not None and time.monotonic() >= next_beat:
                heartbeat(time.monotonic() - start)
                next_beat += heartbeat_every
    finally:
        _kill_group(proc.pid)  # the timed-out program and anything it left behind
        proc.wait()
    elapsed = time.monotonic() - start

    code = proc.returncode
    if timed_out:
        return ProcResult(command, None, None, True, elapsed, output_path)
    if code is not None and code < 0:
        return ProcResult(command, None, -code, False, elapsed, output_path)
    return ProcResult(command, code, None, False, elapsed, output_path)


def lookup_user(name: str) -> tuple[int, int]:
    """(uid, gid) of a user name, for Limits.user. Raises ValueError when it cannot be used."""
    import pwd

    if os.geteuid() != 0:
        raise ValueError(f"--run-as {name} needs the grader to run as root")
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise ValueError(f"--run-as: no user named {name}") from None
    if entry.pw_uid == 0:
        raise ValueError(f"--run-as {name}: that is root")
    return entry.pw_uid, entry.pw_gid


def hand_over(path: Path, user: tuple[int, int] | None) -> None:
    """Makes a scratch folder the test program's own (when it runs as another user)."""
    if user is None:
        return
    os.chown(path, *user)
    os.chmod(path, 0o700)

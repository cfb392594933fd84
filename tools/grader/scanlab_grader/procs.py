"""Running untrusted programs: own session, wall-clock limit, resource limits, output to a file
(never a pipe the program could fill), an optional report pipe that only the grader reads, and
every process of the run killed when it is over: the session (ninja puts each compiler in a
process group of its own), and all processes of the run's user when it has one of its own."""

from __future__ import annotations

import os
import resource
import select
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
    # Every process of this uid is killed after the run (a user kept for submissions alone).
    kill_user: bool = False
    # The same for a program that runs as the grader but starts processes as another user (the
    # trusted test harness, whose worker runs the submission's code as that user).
    kill_as: tuple[int, int] | None = None
    # The files a submission may keep (disk_limit_mb): everything under disk_paths, and what
    # disk_user owns in SHARED_WRITABLE (the user sandbox, where /tmp and /dev/shm are the
    # machine's). Measured while the program runs; past it, the program is stopped.
    disk: "DiskBudget | None" = None


@dataclass
class DiskBudget:
    limit_mb: int
    paths: tuple[Path, ...] = ()
    user: int | None = None
    max_entries: int = 20000  # more files and folders than this are over the budget too

    def describe(self) -> str:
        where = "its folders" + (", and its files in " + ", ".join(SHARED_WRITABLE)
                                 if self.user is not None else "")
        return (f"wrote more than the {self.limit_mb} MiB of files a submission may keep "
                f"({where}; disk_limit_mb) and was stopped")


@dataclass
class ProcResult:
    command: list[str]
    returncode: int | None  # the exit status when the program exited by itself
    signal: int | None  # the signal that ended it, when one did
    timed_out: bool
    elapsed: float
    output_path: Path
    start_error: str = ""  # the program could not be started at all
    report: bytes | None = None  # what came through the report pipe, when one was asked for
    report_overflow: bool = False  # the report pipe carried more than report_limit bytes
    stopped: str = ""  # it was stopped for going past a limit other than time (what happened)

    @property
    def exited(self) -> bool:
        """It ended by itself (exit or return from main), within its time."""
        return (not self.start_error and not self.timed_out and self.signal is None and
                not self.stopped)

    def describe(self, timeout_s: float | None = None) -> str:
        if self.start_error:
            return f"could not be started: {self.start_error}"
        if self.stopped:
            return self.stopped
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


def _session_members(sid: int) -> list[int]:
    """Processes whose session is `sid` (from /proc: the 6th field of /proc/PID/stat)."""
    members = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 3 and int(fields[3]) == sid:
            members.append(int(entry.name))
    return members


def _kill_session(sid: int) -> None:
    """Kills what is left of a session: ninja starts each compiler in a process group of its
    own, so killing the group alone leaves a blocked compiler running."""
    for _ in range(10):
        members = _session_members(sid)
        if not members:
            return
        for pid in members:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.02)


def kill_user_processes(uid: int) -> None:
    """Kills every process of `uid`, daemons that left the session included: a child takes
    that uid and sends SIGKILL to every process it may signal (kill(-1) spares the sender)."""
    for _ in range(3):
        pid = os.fork()
        if pid == 0:  # pragma: no cover (the child)
            try:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                os.kill(-1, signal.SIGKILL)
            except BaseException:
                pass
            os._exit(0)
        os.waitpid(pid, 0)
        time.sleep(0.02)


# The folders every user may write that outlive a step where there is no mount namespace (the
# user sandbox): what the submission's user leaves there is removed after each step, so that
# nothing passes from one step (a hidden case's worker) to a later one (the next submission's).
SHARED_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


def sweep_user_files(uid: int, folders: Sequence[str] = SHARED_WRITABLE) -> list[str]:
    """Removes the entries of `folders` that `uid` owns (whole trees; links are not followed).
    Returns what was removed."""
    import shutil
    removed = []
    for folder in folders:
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for name in entries:
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if info.st_uid != uid:
                continue
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path)
                else:
                    os.unlink(path)
                removed.append(path)
            except OSError:
                pass
    return removed


def disk_use(budget: DiskBudget) -> tuple[int, int]:
    """(bytes, entries) of the files that count against `budget`: everything under its paths,
    and the entries of SHARED_WRITABLE that its user owns, whole. Bytes are what the files
    occupy (a sparse file counts what it holds). Stops counting past budget.max_entries."""
    used = entries = 0
    stack: list[str] = [str(p) for p in budget.paths]
    if budget.user is not None:
        for folder in SHARED_WRITABLE:
            try:
                with os.scandir(folder) as it:
                    stack += [e.path for e in it
                              if e.stat(follow_symlinks=False).st_uid == budget.user]
            except OSError:
                continue
    while stack and entries <= budget.max_entries:
        path = stack.pop()
        try:
            info = os.lstat(path)
        except OSError:
            continue
        entries += 1
        used += info.st_blocks * 512
        if os.path.isdir(path) and not os.path.islink(path):
            try:
                stack += [os.path.join(path, name) for name in os.listdir(path)]
            except OSError:
                pass
    return used, entries


def _limit(kind: int, value: int) -> None:
    """Sets a resource limit, never above the hard limit the grader itself got (`ulimit -v`
    in the grader's shell), which setrlimit would refuse."""
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(kind, (value, value))


def run(
    command: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str],
    limits: Limits,
    output_path: Path,
    heartbeat: Callable[[float], None] | None = None,
    heartbeat_every: float = 30.0,
    report_fd_arg: Callable[[int], str] | None = None,
    report_limit: int = 64 * 1024 * 1024,
    shell_status: bool = False,
) -> ProcResult:
    """Runs `command` in a new session, stdout and stderr both into `output_path`, stdin from
    /dev/null. On timeout the whole session gets SIGKILL; after a normal end too, so that
    nothing it started lives on (and with `limits.kill_user`, nothing of its user either).
    `heartbeat(elapsed)` is called every `heartbeat_every` seconds while it runs.

    With `report_fd_arg`, the program gets the write end of a pipe that only the grader reads:
    the command gets one more argument, report_fd_arg(fd), and ProcResult.report holds what came
    through it (no file that the program could rewrite afterwards).

    `shell_status`: the command is a wrapper (bwrap) that reports a signal n as exit status
    128 + n; such a status is read as that signal (a program's own exit(139) then reads as a
    crash, which fails it just the same)."""
    command = [str(c) for c in command]
    read_end = write_end = None
    if report_fd_arg is not None:
        read_end, write_end = os.pipe()
        if limits.user is not None:  # it reopens /proc/self/fd/N, which checks the owner
            os.fchown(write_end, *limits.user)
        command.append(report_fd_arg(write_end))

    def set_limits() -> None:  # runs in the child, between fork and exec
        _limit(resource.RLIMIT_CORE, 0)
        if limits.memory_mb > 0:
            _limit(resource.RLIMIT_AS, limits.memory_mb * 1024 * 1024)
        if limits.file_mb > 0:
            _limit(resource.RLIMIT_FSIZE, limits.file_mb * 1024 * 1024)
        if limits.cpu_s:
            soft = int(limits.cpu_s) + 1
            _, hard = resource.getrlimit(resource.RLIMIT_CPU)
            if hard == resource.RLIM_INFINITY:
                hard = soft + 5  # SIGXCPU first, SIGKILL 5 s later
            resource.setrlimit(resource.RLIMIT_CPU, (min(soft, hard), hard))
        if limits.user is not None:  # last: the limits above are then out of its reach
            uid, gid = limits.user
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)

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
                pass_fds=(write_end,) if write_end is not None else (),
            )
        except (OSError, subprocess.SubprocessError) as error:
            for fd in (read_end, write_end):
                if fd is not None:
                    os.close(fd)
            return ProcResult(command, None, None, False, 0.0, output_path, str(error))
    if write_end is not None:
        os.close(write_end)

    report = bytearray()
    overflow = False

    def drain(block_s: float) -> None:
        """Reads what the report pipe holds, waiting at most block_s for the first bytes."""
        nonlocal read_end, overflow
        while read_end is not None:
            ready, _, _ = select.select([read_end], [], [], block_s)
            if not ready:
                return
            data = os.read(read_end, 65536)
            if not data:  # every writer closed it
                os.close(read_end)
                read_end = None
                return
            if len(report) + len(data) > report_limit:
                overflow = True
                return
            else:
                report.extend(data)
            block_s = 0

    timed_out = False
    stopped = ""
    next_beat = start + heartbeat_every
    next_disk_check = start
    try:
        while True:
            now = time.monotonic()
            left = start + limits.timeout_s - now
            if left <= 0:
                timed_out = True
                break
            if limits.disk is not None and now >= next_disk_check:
                used, entries = disk_use(limits.disk)
                spent = time.monotonic() - now
                if used > limits.disk.limit_mb * 1024 * 1024 or \
                        entries > limits.disk.max_entries:
                    stopped = limits.disk.describe() + \
                        f" ({used / 1048576:.0f} MiB in {entries} files and folders)"
                    break
                # Four times a second, unless counting costs more than a tenth of the time.
                next_disk_check = time.monotonic() + max(0.25, 10 * spent)
            wait = min(left, 0.25 if heartbeat is None else max(0.01, min(0.25, next_beat - now)))
            if read_end is not None:
                drain(wait)
                if proc.poll() is not None:
                    break
            else:
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
        _kill_session(proc.pid)
        if limits.kill_user and limits.user is not None:
            kill_user_processes(limits.user[0])
            sweep_user_files(limits.user[0])
        if limits.kill_as is not None:
            kill_user_processes(limits.kill_as[0])
            sweep_user_files(limits.kill_as[0])
        drain(0)  # what the program wrote before it ended; a leftover writer is dead by now
        if read_end is not None:
            os.close(read_end)
    elapsed = time.monotonic() - start

    code = proc.returncode
    if shell_status and code is not None and 128 < code < 128 + 65:
        code = -(code - 128)
    sent = bytes(report) if report_fd_arg is not None else None
    if stopped:
        return ProcResult(command, None, None, False, elapsed, output_path, report=sent,
                          report_overflow=overflow, stopped=stopped)
    if timed_out:
        return ProcResult(command, None, None, True, elapsed, output_path, report=sent,
                          report_overflow=overflow)
    if code is not None and code < 0:
        return ProcResult(command, None, -code, False, elapsed, output_path, report=sent,
                          report_overflow=overflow)
    return ProcResult(command, code, None, False, elapsed, output_path, report=sent,
                      report_overflow=overflow)


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


def hand_over(path: Path, user: tuple[int, int] | None, reach_from: Path | None = None) -> None:
    """Makes a scratch folder the test program's own (when it runs as another user). With
    `reach_from`, a folder above it: the folders from there down to it become passable but not
    listable (0711) for that user, the grader's files in them staying its own (the grader makes
    them 0600 when it runs as root with --run-as: see grading.grade_submission)."""
    if user is None:
        return
    if reach_from is not None:
        folder = Path(path).parent
        stop = Path(reach_from)
        while True:
            if folder.stat().st_uid == os.geteuid():
                os.chmod(folder, (folder.stat().st_mode & 0o7777) | 0o711)
            if folder == stop or folder == folder.parent:
                break
            folder = folder.parent
    os.chown(path, *user)
    os.chmod(path, 0o700)

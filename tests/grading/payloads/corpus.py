# ruff: noqa: PTH102, PTH104, PTH106, PTH108, PTH116, PTH119, PTH208, PTH211, SIM105
# (os functions on purpose: each is the exact system call an attacker makes)
"""The escape drill's corpus: run by `studybot sandbox exec` as plain Python in a worker.

Not imported by the tests: test_escape_drill.py appends `main(json.loads(...))` with the
host's targets (paths, pids, ports; never a canary) and runs the file in a grading worker.
Every payload is what an attacker with real builtins and ctypes would try once the restricted
compiler is bypassed. Each runs in isolation (try/except) and reports one line:

    name<TAB>OK <what it got>      the kernel let it through
    name<TAB>EPERM                 refused, with the errno's name
    name<TAB>RuntimeError: ...     refused some other way

With `close0`, fd 0 (the job socket, the worker's only descriptor) is closed first, so every
payload has a free descriptor slot, as an attacker would arrange it; nothing can be reported
then, and the test judges that run from outside only. x86_64 system-call numbers.
"""

from __future__ import annotations

import ctypes
import errno
import json  # noqa: F401 (the test appends main(json.loads(...)))
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from typing import Any

libc = ctypes.CDLL(None, use_errno=True)  # dlopen(NULL): the loaded libc, no file opened
libc.syscall.restype = ctypes.c_long
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long)  # fmt: skip
libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)

NR = {
    "read": 0, "write": 1, "open": 2, "close": 3, "mmap": 9, "mprotect": 10, "ioctl": 16,
    "pipe": 22, "dup": 32, "getpid": 39, "socket": 41, "connect": 42, "clone": 56, "fork": 57,
    "vfork": 58, "execve": 59, "kill": 62, "truncate": 76, "rename": 82, "unlink": 87,
    "chmod": 90, "ptrace": 101, "setuid": 105, "capset": 126, "personality": 135,
    "modify_ldt": 154, "pivot_root": 155, "prctl": 157, "setrlimit": 160, "chroot": 161,
    "mount": 165, "umount2": 166, "iopl": 172, "tkill": 200, "tgkill": 234, "add_key": 248,
    "keyctl": 250, "openat": 257, "unshare": 272, "perf_event_open": 298, "prlimit64": 302,
    "name_to_handle_at": 303, "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311,
    "seccomp": 317, "memfd_create": 319, "bpf": 321, "execveat": 322, "userfaultfd": 323,
    "pkey_mprotect": 329, "io_uring_setup": 425, "fsopen": 430, "pidfd_open": 434,
    "clone3": 435, "openat2": 437, "pidfd_getfd": 438, "landlock_create_ruleset": 444,
    "memfd_secret": 447,
}  # fmt: skip
AT_FDCWD = -100
PROT_READ, PROT_WRITE, PROT_EXEC = 1, 2, 4
MAP_PRIVATE, MAP_ANONYMOUS = 0x02, 0x20
RLIM_INFINITY = (1 << 64) - 1
SIGKILL, SIGSTOP = 9, 19

PAYLOADS: dict[str, Callable[[dict[str, Any]], object]] = {}


def payload(name: str) -> Callable[[Callable[[dict[str, Any]], object]], Any]:
    def register(fn: Callable[[dict[str, Any]], object]) -> Any:
        PAYLOADS[name] = fn
        return fn

    return register


def sc(name: str, *args: object) -> int:
    """A raw system call; bytes become char pointers, ints C longs."""
    conv = [ctypes.c_char_p(a) if isinstance(a, bytes) else
            ctypes.c_long(a) if isinstance(a, int) else a for a in args]  # fmt: skip
    result = int(libc.syscall(ctypes.c_long(NR[name]), *conv))
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return result


def read_fd(fd: int) -> bytes:
    try:
        return os.read(fd, 300)
    finally:
        os.close(fd)


def opened(fd: int) -> str:
    """An fd we were never to get: read what it holds, and give the slot back."""
    try:
        return f"fd {fd}: {os.read(fd, 120)!r}"
    except OSError as exc:
        return f"fd {fd} (unreadable: {errno.errorcode.get(exc.errno or 0)})"
    finally:
        os.close(fd)


def b(path: str) -> bytes:
    return os.fsencode(path)


# --- read: the database and the .env with a token -------------------------------------------


@payload("read.open")
def _read_open(t: dict[str, Any]) -> object:
    return read_fd(os.open(t["read"] + "/.env", os.O_RDONLY))


@payload("read.raw_open")
def _read_raw_open(t: dict[str, Any]) -> object:
    return read_fd(sc("open", b(t["read"] + "/studybot.sqlite3"), os.O_RDONLY, 0))


@payload("read.openat")
def _read_openat(t: dict[str, Any]) -> object:
    return read_fd(sc("openat", AT_FDCWD, b(t["read"] + "/.env"), os.O_RDONLY, 0))


@payload("read.openat2")
def _read_openat2(t: dict[str, Any]) -> object:
    how = (ctypes.c_uint64 * 3)(os.O_RDONLY, 0, 0)  # struct open_how
    return read_fd(sc("openat2", AT_FDCWD, b(t["read"] + "/.env"), ctypes.byref(how), 24))


@payload("read.etc_passwd")
def _read_passwd(t: dict[str, Any]) -> object:
    return read_fd(os.open("/etc/passwd", os.O_RDONLY))


@payload("read.name_to_handle_at")
def _read_handle(t: dict[str, Any]) -> object:
    # A file handle opens a file by inode, past any path check (open_by_handle_at needs
    # CAP_DAC_READ_SEARCH; name_to_handle_at alone leaks the inode).
    handle = ctypes.create_string_buffer(136)
    ctypes.memmove(handle, (ctypes.c_uint32 * 1)(128), 4)
    mount_id = ctypes.c_int()
    return sc("name_to_handle_at", AT_FDCWD, b(t["read"] + "/.env"), handle,
              ctypes.byref(mount_id), 0)  # fmt: skip


@payload("read.stat")
def _read_stat(t: dict[str, Any]) -> object:
    return os.stat(t["read"] + "/studybot.sqlite3").st_size


@payload("read.listdir")
def _read_listdir(t: dict[str, Any]) -> object:
    return os.listdir(t["read"])


# --- write, truncate, create, rename, unlink, metadata ----------------------------------------


@payload("write.open")
def _write_open(t: dict[str, Any]) -> object:
    fd = os.open(t["write"] + "/studybot.sqlite3", os.O_WRONLY)
    try:
        return os.write(fd, b"pwned")
    finally:
        os.close(fd)


@payload("write.append_env")
def _write_append(t: dict[str, Any]) -> object:
    fd = sc("openat", AT_FDCWD, b(t["write"] + "/.env"), os.O_WRONLY | os.O_APPEND, 0)
    try:
        return os.write(fd, b"\nOPENAI_API_KEY=pwned\n")
    finally:
        os.close(fd)


@payload("truncate.path")
def _truncate_path(t: dict[str, Any]) -> object:
    return os.truncate(t["truncate"] + "/studybot.sqlite3", 0)


@payload("truncate.raw")
def _truncate_raw(t: dict[str, Any]) -> object:
    return sc("truncate", b(t["truncate"] + "/.env"), 0)


@payload("truncate.o_trunc")
def _truncate_o_trunc(t: dict[str, Any]) -> object:
    return opened(os.open(t["truncate"] + "/.env", os.O_WRONLY | os.O_TRUNC))


@payload("truncate.ftruncate")
def _truncate_ftruncate(t: dict[str, Any]) -> object:
    fd = os.open(t["truncate"] + "/studybot.sqlite3", os.O_RDONLY)  # read-only: ftruncate
    try:  # must fail anyway; O_RDWR is the real attempt below
        os.close(fd)
        fd = os.open(t["truncate"] + "/studybot.sqlite3", os.O_RDWR)
        return os.ftruncate(fd, 1)
    finally:
        os.close(fd)


@payload("create.o_creat")
def _create(t: dict[str, Any]) -> object:
    # A side channel: the name itself carries data, read back with stat from outside.
    return opened(os.open(t["create"] + "/leak-secret-bits", os.O_CREAT | os.O_WRONLY, 0o644))


@payload("create.o_excl_tmp")
def _create_tmp(t: dict[str, Any]) -> object:
    return opened(os.open(t["marker"] + "-tmp", os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))


@payload("create.dev_shm")
def _create_shm(t: dict[str, Any]) -> object:
    return opened(os.open("/dev/shm/" + os.path.basename(t["marker"]), os.O_CREAT | os.O_RDWR))


@payload("create.mkdir")
def _create_mkdir(t: dict[str, Any]) -> object:
    return os.mkdir(t["create"] + "/leak-dir")


@payload("create.symlink")
def _create_symlink(t: dict[str, Any]) -> object:
    return os.symlink("/etc/passwd", t["create"] + "/leak-link")


@payload("create.hardlink")
def _create_link(t: dict[str, Any]) -> object:
    return os.link(t["create"] + "/.env", t["create"] + "/leak-hardlink")


@payload("create.mkfifo")
def _create_fifo(t: dict[str, Any]) -> object:
    return os.mkfifo(t["create"] + "/leak-fifo")


@payload("create.unix_bind")
def _create_bind(t: dict[str, Any]) -> object:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        return s.bind(t["create"] + "/leak-socket")  # bind creates the socket file


@payload("rename.os")
def _rename(t: dict[str, Any]) -> object:
    return os.rename(t["rename"] + "/studybot.sqlite3", t["rename"] + "/moved.sqlite3")


@payload("rename.raw_over")
def _rename_raw(t: dict[str, Any]) -> object:
    return sc("rename", b(t["rename"] + "/.env"), b(t["rename"] + "/studybot.sqlite3"))


@payload("unlink.env")
def _unlink(t: dict[str, Any]) -> object:
    return os.unlink(t["unlink"] + "/.env")


@payload("unlink.raw_db")
def _unlink_raw(t: dict[str, Any]) -> object:
    return sc("unlink", b(t["unlink"] + "/studybot.sqlite3"))


@payload("unlink.rmdir_tree")
def _unlink_rmdir(t: dict[str, Any]) -> object:
    return os.rmdir(t["unlink"])


@payload("metadata.chmod")
def _chmod(t: dict[str, Any]) -> object:
    return sc("chmod", b(t["metadata"] + "/.env"), 0o777)


@payload("metadata.utime")
def _utime(t: dict[str, Any]) -> object:
    return os.utime(t["metadata"] + "/studybot.sqlite3", (0, 0))


@payload("metadata.chown")
def _chown(t: dict[str, Any]) -> object:
    return os.chown(t["metadata"] + "/.env", os.getuid(), os.getgid())


# --- processes: list, signal, /proc, ptrace -----------------------------------------------


@payload("processes.list")
def _list_processes(t: dict[str, Any]) -> object:
    return [p for p in os.listdir("/proc") if p.isdigit()][:20]


@payload("signal.kill")
def _kill(t: dict[str, Any]) -> object:
    return os.kill(t["pids"]["signal"], SIGKILL)


@payload("signal.kill_all")
def _kill_all(t: dict[str, Any]) -> object:
    # Every process this uid may signal, the caller excepted. The kernel answers 0 even when
    # every target refused (kill_something_info counts attempts): only the sentinel tells.
    return os.kill(-1, SIGKILL)


@payload("signal.tgkill")
def _tgkill(t: dict[str, Any]) -> object:
    pid = t["pids"]["signal"]
    return sc("tgkill", pid, pid, SIGKILL)


@payload("signal.tkill")
def _tkill(t: dict[str, Any]) -> object:
    return sc("tkill", t["pids"]["signal"], SIGKILL)


@payload("signal.pidfd")
def _pidfd(t: dict[str, Any]) -> object:
    fd = sc("pidfd_open", t["pids"]["signal"], 0)
    try:
        return signal.pidfd_send_signal(fd, SIGKILL)
    finally:
        os.close(fd)


@payload("signal.parent")
def _kill_parent(t: dict[str, Any]) -> object:
    return os.kill(os.getppid() or t["pids"]["signal"], SIGKILL)


@payload("environ.proc")
def _environ(t: dict[str, Any]) -> object:
    return read_fd(os.open(f"/proc/{t['pids']['environ']}/environ", os.O_RDONLY))


@payload("environ.zygote")
def _environ_parent(t: dict[str, Any]) -> object:
    return read_fd(os.open(f"/proc/{os.getppid()}/environ", os.O_RDONLY))


@payload("mem.proc")
def _mem(t: dict[str, Any]) -> object:
    pid = t["pids"]["environ"]
    stat = read_fd(os.open(f"/proc/{pid}/stat", os.O_RDONLY))
    start = int(stat.rsplit(b")", 1)[1].split()[45])  # env_start
    fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY)
    try:
        return os.pread(fd, 300, start)
    finally:
        os.close(fd)


@payload("mem.process_vm_readv")
def _vm_readv(t: dict[str, Any]) -> object:
    buf = ctypes.create_string_buffer(64)
    local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 64)
    remote = (ctypes.c_void_p * 2)(0x400000, 64)  # any address: permission comes first
    return sc("process_vm_readv", t["pids"]["environ"], local, 1, remote, 1, 0)


@payload("mem.process_vm_writev")
def _vm_writev(t: dict[str, Any]) -> object:
    buf = ctypes.create_string_buffer(b"x" * 8)
    local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 8)
    remote = (ctypes.c_void_p * 2)(0x400000, 8)
    return sc("process_vm_writev", t["pids"]["fdwrite"], local, 1, remote, 1, 0)


@payload("fdwrite.proc_fd")
def _fd_write(t: dict[str, Any]) -> object:
    fd = os.open(f"/proc/{t['pids']['fdwrite']}/fd/{t['held_fd']}", os.O_WRONLY | os.O_TRUNC)
    try:
        return os.write(fd, b"pwned")
    finally:
        os.close(fd)


@payload("fdwrite.pidfd_getfd")
def _pidfd_getfd(t: dict[str, Any]) -> object:
    pidfd = sc("pidfd_open", t["pids"]["fdwrite"], 0)
    try:
        fd = sc("pidfd_getfd", pidfd, t["held_fd"], 0)
    finally:
        os.close(pidfd)
    try:
        return os.write(fd, b"pwned")
    finally:
        os.close(fd)


@payload("ptrace.attach")
def _ptrace(t: dict[str, Any]) -> object:
    return sc("ptrace", 16, t["pids"]["ptrace"], 0, 0)  # PTRACE_ATTACH


@payload("ptrace.seize")
def _ptrace_seize(t: dict[str, Any]) -> object:
    return sc("ptrace", 0x4206, t["pids"]["ptrace"], 0, 0)  # PTRACE_SEIZE


@payload("ptrace.traceme")
def _ptrace_traceme(t: dict[str, Any]) -> object:
    return sc("ptrace", 0, 0, 0, 0)  # PTRACE_TRACEME: the keeper or zygote as our tracer


# --- network --------------------------------------------------------------------------------


def _connect(family: int, kind: int, address: object, data: bytes = b"pwned") -> object:
    with socket.socket(family, kind) as s:
        s.connect(address)
        return s.send(data)


@payload("tcp.loopback")
def _tcp_loopback(t: dict[str, Any]) -> object:
    return _connect(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", t["tcp"]))


@payload("tcp.host_address")
def _tcp_host(t: dict[str, Any]) -> object:
    return _connect(socket.AF_INET, socket.SOCK_STREAM, (t["host_ip"], t["tcp"]))


@payload("tcp.ipv6_loopback")
def _tcp_v6(t: dict[str, Any]) -> object:
    return _connect(socket.AF_INET6, socket.SOCK_STREAM, ("::1", t["tcp"]))


@payload("tcp.raw_socket")
def _tcp_raw(t: dict[str, Any]) -> object:
    fd = sc("socket", socket.AF_INET, socket.SOCK_STREAM, 0)
    os.close(fd)
    return fd


@payload("tcp.internet")
def _tcp_internet(t: dict[str, Any]) -> object:
    return _connect(socket.AF_INET, socket.SOCK_STREAM, ("1.1.1.1", 53))


@payload("udp.loopback")
def _udp(t: dict[str, Any]) -> object:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        return s.sendto(b"pwned", ("127.0.0.1", t["udp"]))


@payload("unix.abstract")
def _unix_abstract(t: dict[str, Any]) -> object:
    return _connect(socket.AF_UNIX, socket.SOCK_STREAM, b"\0" + t["abstract"].encode())


@payload("unix.path")
def _unix_path(t: dict[str, Any]) -> object:
    return _connect(socket.AF_UNIX, socket.SOCK_STREAM, t["unix_path"])


@payload("net.netlink")
def _netlink(t: dict[str, Any]) -> object:
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0) as s:
        return s.fileno()


@payload("net.packet")
def _packet(t: dict[str, Any]) -> object:
    with socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0) as s:
        return s.fileno()


@payload("net.socketpair")
def _socketpair(t: dict[str, Any]) -> object:
    a, c = socket.socketpair()
    a.close()
    c.close()
    return "made"


# --- processes and threads ----------------------------------------------------------------


def _trace(t: dict[str, Any], what: str) -> None:
    """What a process or thread we were never to have does: leave a mark the host can see."""
    for mark in (
        lambda: os.close(os.open(f"{t['marker']}-{what}", os.O_CREAT | os.O_WRONLY)),
        lambda: _connect(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", t["tcp"])),
    ):
        try:
            mark()
        except BaseException:
            pass


def _child(t: dict[str, Any]) -> None:
    try:
        _trace(t, "child")
    finally:
        os._exit(0)


@payload("spawn.fork")
def _fork(t: dict[str, Any]) -> object:
    pid = os.fork()
    if pid == 0:
        _child(t)
    return pid


@payload("spawn.raw_fork")
def _raw_fork(t: dict[str, Any]) -> object:
    pid = sc("fork")
    if pid == 0:
        _child(t)
    return pid


@payload("spawn.raw_clone")
def _raw_clone(t: dict[str, Any]) -> object:
    pid = sc("clone", SIGKILL + 8, 0, 0, 0, 0)  # SIGCHLD (17), a fork by another name
    if pid == 0:
        _child(t)
    return pid


@payload("spawn.clone3")
def _clone3(t: dict[str, Any]) -> object:
    args = (ctypes.c_uint64 * 11)()
    args[4] = 17  # exit_signal = SIGCHLD
    pid = sc("clone3", ctypes.byref(args), 88)
    if pid == 0:
        _child(t)
    return pid


@payload("spawn.execve")
def _execve(t: dict[str, Any]) -> object:
    # If this went through the worker would become a shell: the marker would be the proof.
    argv = ["/bin/sh", "-c", f"echo pwned > {t['marker']}-exec"]
    return os.execv("/bin/sh", argv)


@payload("spawn.posix_spawn")
def _posix_spawn(t: dict[str, Any]) -> object:
    return os.posix_spawn("/bin/sh", ["/bin/sh", "-c", f"echo pwned > {t['marker']}-spawn"], {})


@payload("spawn.subprocess")
def _subprocess(t: dict[str, Any]) -> object:
    import subprocess  # already loaded by the zygote: no file needed

    return subprocess.run(["/bin/sh", "-c", f"echo pwned > {t['marker']}-sub"], check=False)


@payload("thread.start")
def _thread(t: dict[str, Any]) -> object:
    worker = threading.Thread(target=_trace, args=(t, "thread"))
    worker.start()
    worker.join()
    return "started"


# --- the kernel's wider surface ------------------------------------------------------------


@payload("kernel.io_uring_setup")
def _io_uring(t: dict[str, Any]) -> object:
    params = ctypes.create_string_buffer(120)
    return sc("io_uring_setup", 8, params)


@payload("kernel.memfd_create")
def _memfd(t: dict[str, Any]) -> object:
    return sc("memfd_create", b"x", 0)


@payload("kernel.memfd_secret")
def _memfd_secret(t: dict[str, Any]) -> object:
    return sc("memfd_secret", 0)


@payload("kernel.userfaultfd")
def _userfaultfd(t: dict[str, Any]) -> object:
    return sc("userfaultfd", 1)  # UFFD_USER_MODE_ONLY


@payload("kernel.bpf")
def _bpf(t: dict[str, Any]) -> object:
    attr = (ctypes.c_uint32 * 30)(2, 4, 4, 1)  # BPF_MAP_TYPE_ARRAY, key 4, value 4, 1 entry
    return sc("bpf", 0, ctypes.byref(attr), 120)  # BPF_MAP_CREATE


@payload("kernel.perf_event_open")
def _perf(t: dict[str, Any]) -> object:
    attr = (ctypes.c_uint32 * 32)(1, 128)  # PERF_TYPE_SOFTWARE, size 128, CPU clock
    return sc("perf_event_open", ctypes.byref(attr), 0, -1, -1, 0)


@payload("kernel.setns")
def _setns(t: dict[str, Any]) -> object:
    return sc("setns", 0, 0)


@payload("kernel.mount")
def _mount(t: dict[str, Any]) -> object:
    return sc("mount", b"none", b"/", b"tmpfs", 0, 0)


@payload("kernel.pivot_root")
def _pivot(t: dict[str, Any]) -> object:
    return sc("pivot_root", b"/", b"/")


@payload("kernel.chroot")
def _chroot(t: dict[str, Any]) -> object:
    return sc("chroot", b"/")


@payload("kernel.keyctl")
def _keyctl(t: dict[str, Any]) -> object:
    return sc("keyctl", 0, -4, 1)  # KEYCTL_GET_KEYRING_ID of the user keyring, created


@payload("kernel.add_key")
def _add_key(t: dict[str, Any]) -> object:
    return sc("add_key", b"user", b"studybot-drill", b"leak", 4, -4)


@payload("kernel.fsopen")
def _fsopen(t: dict[str, Any]) -> object:
    return sc("fsopen", b"tmpfs", 0)


@payload("kernel.landlock_new_ruleset")
def _landlock(t: dict[str, Any]) -> object:
    return sc("landlock_create_ruleset", 0, 0, 1)


@payload("kernel.seccomp_new_filter")
def _seccomp(t: dict[str, Any]) -> object:
    return sc("seccomp", 1, 0, 0)  # SECCOMP_SET_MODE_FILTER with no program: EFAULT if allowed


@payload("kernel.ioctl_fd0")
def _ioctl(t: dict[str, Any]) -> object:
    return sc("ioctl", 0, 0x5412, ctypes.byref(ctypes.c_char(b"x")))  # TIOCSTI


@payload("kernel.dup_fd0")
def _dup(t: dict[str, Any]) -> object:
    return sc("dup", 0)


@payload("kernel.pipe")
def _pipe(t: dict[str, Any]) -> object:
    fds = (ctypes.c_int * 2)()
    return sc("pipe", fds)


@payload("kernel.modify_ldt")
def _ldt(t: dict[str, Any]) -> object:
    buf = ctypes.create_string_buffer(16)
    return sc("modify_ldt", 0, buf, 16)


@payload("kernel.iopl")
def _iopl(t: dict[str, Any]) -> object:
    return sc("iopl", 3)


@payload("kernel.personality")
def _personality(t: dict[str, Any]) -> object:
    return sc("personality", 0x0400000)  # READ_IMPLIES_EXEC: every readable page executable


@payload("kernel.prctl_dumpable")
def _dumpable(t: dict[str, Any]) -> object:
    return sc("prctl", 4, 1, 0, 0, 0)  # PR_SET_DUMPABLE 1: others of our uid could then ptrace


@payload("kernel.setuid_root")
def _setuid(t: dict[str, Any]) -> object:
    return sc("setuid", 0)


@payload("kernel.capset_all")
def _capset(t: dict[str, Any]) -> object:
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)(*([0xFFFFFFFF] * 6))
    return sc("capset", header, data)


# --- limits ---------------------------------------------------------------------------------


@payload("limits.setrlimit_cpu")
def _setrlimit(t: dict[str, Any]) -> object:
    limit = (ctypes.c_uint64 * 2)(RLIM_INFINITY, RLIM_INFINITY)
    return sc("setrlimit", 0, limit)  # RLIMIT_CPU


@payload("limits.prlimit_nofile")
def _prlimit(t: dict[str, Any]) -> object:
    limit = (ctypes.c_uint64 * 2)(1024, 1024)
    return sc("prlimit64", 0, 7, limit, 0)  # RLIMIT_NOFILE


@payload("limits.prlimit_as")
def _prlimit_as(t: dict[str, Any]) -> object:
    limit = (ctypes.c_uint64 * 2)(RLIM_INFINITY, RLIM_INFINITY)
    return sc("prlimit64", 0, 9, limit, 0)  # RLIMIT_AS


@payload("limits.prlimit_other")
def _prlimit_other(t: dict[str, Any]) -> object:
    limit = (ctypes.c_uint64 * 2)(0, 0)
    return sc("prlimit64", t["pids"]["signal"], 4, limit, 0)  # another's RLIMIT_CORE


# --- executable memory -----------------------------------------------------------------------


@payload("exec_memory.mmap_rwx")
def _mmap_rwx(t: dict[str, Any]) -> object:
    addr = libc.mmap(None, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)  # fmt: skip
    if addr in (None, ctypes.c_void_p(-1).value):
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return hex(addr)


@payload("exec_memory.mprotect_exec")
def _mprotect(t: dict[str, Any]) -> object:
    addr = libc.mmap(None, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if libc.mprotect(addr, 4096, PROT_READ | PROT_EXEC) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return hex(addr)


@payload("exec_memory.pkey_mprotect")
def _pkey(t: dict[str, Any]) -> object:
    addr = libc.mmap(None, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    return sc("pkey_mprotect", addr, 4096, PROT_READ | PROT_EXEC, -1)


# --- last: these change the worker itself (a nested user namespace is full of
# capabilities), so nothing after them would be judged as the worker was ------------------


@payload("kernel.unshare_user")
def _unshare(t: dict[str, Any]) -> object:
    return sc("unshare", 0x10000000)  # CLONE_NEWUSER: a fresh namespace full of capabilities


@payload("kernel.unshare_net")
def _unshare_net(t: dict[str, Any]) -> object:
    return sc("unshare", 0x40000000)


# --- running the corpus -----------------------------------------------------------------------


def attempt(fn: Callable[[dict[str, Any]], object], target: dict[str, Any]) -> str:
    try:
        got = fn(target)
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, f"OSError {exc}")
    except BaseException as exc:  # refused some other way (e.g. a thread that cannot start)
        return f"{type(exc).__name__}: {exc}"[:80]
    return f"OK {got!r}"[:160]


def main(target: dict[str, Any]) -> None:
    results = []
    if target.get("close0"):
        os.close(0)  # a free descriptor slot for every payload below
    for name, fn in PAYLOADS.items():
        results.append(f"{name}\t{attempt(fn, target)}")
    sys.stdout.write("\n".join(results) + "\n")

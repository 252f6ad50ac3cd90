"""The seccomp allowlist as data: what it allows, each with a reason, and what it never may."""

from __future__ import annotations

import pyseccomp  # type: ignore[import-untyped]

from bot.grading.sandbox.syscalls import ALLOWLIST, FORBIDDEN, ON_SOCKET, build


def test_every_allowed_call_has_a_reason_and_none_is_forbidden() -> None:
    names = [call.name for call in ALLOWLIST]
    assert len(names) == len(set(names))
    assert all(len(call.reason) > 10 for call in ALLOWLIST)
    assert not set(names) & set(FORBIDDEN)


def test_the_allowlist_is_what_was_reviewed() -> None:
    # A new entry is a decision: add it here too, with its reason in syscalls.py.
    assert {call.name for call in ALLOWLIST} == {
        "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "recvfrom", "sendto",
        "read", "write", "shutdown", "close", "clock_gettime", "clock_getres",
        "gettimeofday", "getrusage", "prlimit64", "getrandom", "futex", "rt_sigreturn",
        "getpid", "gettid", "sched_yield", "exit", "exit_group",
    }  # fmt: skip


def test_descriptor_calls_are_held_to_the_job_socket() -> None:
    by_name = {call.name: call for call in ALLOWLIST}
    for name in ("read", "write", "recvfrom", "sendto", "shutdown"):
        assert by_name[name].conditions == ON_SOCKET, name
    # its own limits only (pid 0), read, never set
    assert by_name["prlimit64"].conditions == ((0, "eq", 0), (2, "eq", 0))
    for name in ("mmap", "mprotect"):
        assert by_name[name].conditions[0][:2] == (2, "masked_eq"), name  # never PROT_EXEC


def test_every_name_is_known_to_libseccomp_and_the_program_builds() -> None:
    arch = pyseccomp.system_arch()
    for call in ALLOWLIST:  # (a forbidden name may not exist on every machine: fine)
        assert pyseccomp.resolve_syscall(arch, call.name) >= 0, call.name
    program = build(pyseccomp)
    assert program and len(program) % 8 == 0  # struct sock_filter: 8 bytes an instruction

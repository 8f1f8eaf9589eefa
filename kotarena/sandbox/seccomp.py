"""The seccomp filter every sandbox runs under: no channel to another sandbox.

Namespaces give each sandbox its own processes, network, IPC objects and filesystem
view, but some kernel objects are shared by every process that reaches the same file or
the same kernel: locks on a file (every sandbox binds the bot's module read-only, and a
lock on it is seen from every other sandbox), file-change notifications, keyrings.
The filter (classic BPF, written here by hand and handed to bubblewrap with ``--seccomp
FD``) answers ``EPERM`` to

* file locks: ``flock``, and ``fcntl``'s lock, lease and notification commands
  (``F_GETLK``, ``F_SETLK``, ``F_SETLKW``, their open-file-description variants,
  ``F_SETLEASE``, ``F_GETLEASE``, ``F_NOTIFY``); ``fcntl``'s other commands are allowed;
* file-change notification: ``inotify_init``, ``inotify_init1``, ``inotify_add_watch``,
  ``fanotify_init``, ``fanotify_mark``;
* the kernel's keyrings: ``keyctl``, ``add_key``, ``request_key``;
* what tells whether a shared file's pages are in memory (another sandbox may have read
  them): ``mincore``, ``cachestat``, ``preadv2`` with ``RWF_NOWAIT`` (the time a read
  takes still tells it, slowly: see "What is left" in docs/sandbox.md);
* what reaches outside a process's namespaces or into another process and that no bot
  has a use for: ``perf_event_open``, ``userfaultfd``, ``bpf``, ``ptrace``,
  ``process_vm_readv``/``writev``, ``kcmp``, ``pidfd_getfd``, ``io_uring`` (whose
  operations no seccomp filter sees), the mount family, ``unshare``, ``setns``, new
  namespaces through ``clone`` (``clone3``, whose flags a filter cannot read, answers
  ``ENOSYS`` so that the C library falls back to ``clone``), handles to files
  (``open_by_handle_at``, ``name_to_handle_at``), kernel modules, ``kexec``, swap,
  ``reboot``, ``acct``, quotas, ``syslog``, and the old x86 calls (``iopl``, ``ioperm``,
  ``modify_ldt``, ``uselib``...).

The filter checks the architecture first: only the machine's own 64-bit ABI (x86_64 or
aarch64) is let through; on x86_64 the x32 ABI (system call numbers with bit 30 set) and
the 32-bit ABI (``int 0x80``) are denied whole, since their numbers mean other calls.
"""

from __future__ import annotations

import errno
import functools
import platform
import struct

# Classic BPF, as <linux/filter.h> and <linux/bpf_common.h> spell it.
_LD_W_ABS = 0x20   # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15      # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35      # BPF_JMP | BPF_JGE | BPF_K
_JSET_K = 0x45     # BPF_JMP | BPF_JSET | BPF_K
_RET_K = 0x06      # BPF_RET | BPF_K

_ALLOW = 0x7FFF0000              # SECCOMP_RET_ALLOW
_ERRNO = 0x00050000              # SECCOMP_RET_ERRNO | errno
DENY = _ERRNO | errno.EPERM      #: what a denied call returns: EPERM
_NOSYS = _ERRNO | errno.ENOSYS

# struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]
# (little-endian on both machines, so an argument's low half comes first).
_NR, _ARCH = 0, 4


def _arg(index: int) -> int:
    return 16 + 8 * index


#: Each machine's audit architecture and the bit that marks x32 calls (x86_64 only).
ARCHES = {"x86_64": (0xC000003E, 0x40000000), "aarch64": (0xC00000B7, None)}

#: System calls denied outright: name -> (x86_64 number, aarch64 number); None where
#: the machine has no such call.
DENIED = {
    "flock": (73, 32),
    "inotify_init": (253, None), "inotify_init1": (294, 26), "inotify_add_watch": (254, 27),
    "fanotify_init": (300, 262), "fanotify_mark": (301, 263),
    "keyctl": (250, 219), "add_key": (248, 217), "request_key": (249, 218),
    "perf_event_open": (298, 241), "userfaultfd": (323, 282), "bpf": (321, 280),
    "ptrace": (101, 117), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "kcmp": (312, 272), "pidfd_getfd": (438, 438),
    "io_uring_setup": (425, 425), "io_uring_enter": (426, 426), "io_uring_register": (427, 427),
    "mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41), "chroot": (161, 51),
    "open_tree": (428, 428), "move_mount": (429, 429), "fsopen": (430, 430), "fsconfig": (431, 431),
    "fsmount": (432, 432), "fspick": (433, 433), "mount_setattr": (442, 442),
    "unshare": (272, 97), "setns": (308, 268),
    "open_by_handle_at": (304, 265), "name_to_handle_at": (303, 264),
    "kexec_load": (246, 104), "kexec_file_load": (320, 294),
    "init_module": (175, 105), "finit_module": (313, 273), "delete_module": (176, 106),
    "swapon": (167, 224), "swapoff": (168, 225), "reboot": (169, 142), "acct": (163, 89),
    "quotactl": (179, 60), "quotactl_fd": (443, 443), "syslog": (103, 116), "lookup_dcookie": (212, 18),
    "vhangup": (153, 58), "nfsservctl": (180, 42),
    "iopl": (172, None), "ioperm": (173, None), "modify_ldt": (154, None), "uselib": (134, None),
    "_sysctl": (156, None),
    "mincore": (27, 232), "cachestat": (451, 451),
}
FCNTL = (72, 25)
CLONE = (56, 220)
CLONE3 = (435, 435)
PREADV2 = (327, 286)
#: preadv2's flag that fails a read instead of waiting for the disk: a probe of the page cache.
RWF_NOWAIT = 0x8

#: fcntl's commands that lock, lease or watch a file (<asm-generic/fcntl.h>, the same on
#: both machines): F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW,
#: F_SETLEASE, F_GETLEASE, F_NOTIFY.
FCNTL_DENIED = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
#: clone's flags for new namespaces: CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER,
#: NEWPID, NEWNET (CLONE_NEWTIME is 0x80, which clone reads as the exit signal's bits).
CLONE_NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def filter_program(machine: str | None = None) -> bytes:
    """The filter for ``machine`` (``platform.machine()`` by default), as the array of
    ``struct sock_filter`` that bubblewrap's ``--seccomp`` reads.

    Raises :class:`OSError` on a machine it has no system call table for.
    """
    machine = machine or platform.machine()
    if machine not in ARCHES:
        raise OSError(f"no seccomp filter for this machine ({machine}): the sandbox supports x86_64 and aarch64")
    column = 0 if machine == "x86_64" else 1
    arch, x32 = ARCHES[machine]
    code = [_insn(_LD_W_ABS, _ARCH),
            _insn(_JEQ_K, arch, jt=1),   # another ABI: deny every call
            _insn(_RET_K, DENY),
            _insn(_LD_W_ABS, _NR)]
    if x32 is not None:
        code += [_insn(_JGE_K, x32, jf=1), _insn(_RET_K, DENY)]
    # Each test skips its own return when it does not match: no jump is ever long.
    for numbers in DENIED.values():
        if numbers[column] is not None:
            code += [_insn(_JEQ_K, numbers[column], jf=1), _insn(_RET_K, DENY)]
    code += [_insn(_JEQ_K, CLONE3[column], jf=1), _insn(_RET_K, _NOSYS)]
    # clone: its first argument's low half holds the namespace flags (on both machines).
    code += [_insn(_JEQ_K, CLONE[column], jf=4), _insn(_LD_W_ABS, _arg(0)),
             _insn(_JSET_K, CLONE_NEW_NAMESPACES, jf=1), _insn(_RET_K, DENY), _insn(_RET_K, _ALLOW)]
    # preadv2: its sixth argument holds the flags.
    code += [_insn(_JEQ_K, PREADV2[column], jf=4), _insn(_LD_W_ABS, _arg(5)),
             _insn(_JSET_K, RWF_NOWAIT, jf=1), _insn(_RET_K, DENY), _insn(_RET_K, _ALLOW)]
    # fcntl: its command is the second argument (an unsigned int: the low half is all of it).
    commands = FCNTL_DENIED
    code += [_insn(_JEQ_K, FCNTL[column], jf=2 * len(commands) + 2), _insn(_LD_W_ABS, _arg(1))]
    for command in commands:
        code += [_insn(_JEQ_K, command, jf=1), _insn(_RET_K, DENY)]
    code += [_insn(_RET_K, _ALLOW), _insn(_RET_K, _ALLOW)]
    return b"".join(code)


@functools.cache
def seccomp_program() -> bytes:
    """This machine's filter (computed once)."""
    return filter_program()


__all__ = ["DENIED", "DENY", "FCNTL_DENIED", "filter_program", "seccomp_program"]

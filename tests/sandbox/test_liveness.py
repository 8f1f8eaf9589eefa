"""A process counts as ended from the moment it is killed, not when it has died: a seat
that kills its fork server and answers at once must forfeit however fast the server dies."""

from __future__ import annotations

import os
import signal

from kotarena.sandbox.seat import _running


def test_a_killed_process_is_not_running_even_before_it_has_died():
    for _ in range(50):
        pid = os.fork()
        if pid == 0:  # busy on the other core, so the kill lands while it runs
            while True:
                pass
        try:
            assert _running(pid)
            os.kill(pid, signal.SIGKILL)
            assert not _running(pid)
        finally:
            os.waitpid(pid, 0)


def test_a_process_that_has_ended_is_not_running():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    assert not _running(pid)

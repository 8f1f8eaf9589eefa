"""Seating untrusted bots: a JSON-lines protocol, in a bubblewrap sandbox, timed from outside.

* :mod:`kotarena.sandbox.protocol`: the messages (``docs/protocol.md`` is their reference);
* :mod:`kotarena.sandbox.host`: the Python host that runs inside the sandbox, imports an
  installed bot once and forks a fresh process for each seat of each game;
* :mod:`kotarena.sandbox.jail`: the sandbox itself (namespaces, a read-only filesystem,
  no network), and whether this machine can have it;
* :mod:`kotarena.sandbox.seccomp`: the system calls a sandbox is denied (no channel to
  another sandbox);
* :mod:`kotarena.sandbox.cgroups`: CPU time counted from outside, memory and process caps;
* :mod:`kotarena.sandbox.seat`: the referee's side of a seat;
* :mod:`kotarena.sandbox.relay`: a sandboxed seat behind a bot object, for the commands
  that call bots themselves (``play``, ``match``, ``compare``, ``bots check``).

``docs/sandbox.md`` says what a trusted and an untrusted bot can and cannot do.
"""

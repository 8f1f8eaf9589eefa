"""Seating untrusted bots: a JSON-lines protocol, in a bubblewrap sandbox, timed from outside.

* :mod:`kotarena.sandbox.protocol`: the messages (``docs/protocol.md`` is their reference);
* :mod:`kotarena.sandbox.host`: the Python host that runs inside the sandbox, imports an
  installed bot once and forks the player that plays its instance's games;
* :mod:`kotarena.sandbox.jail`: the sandbox itself (namespaces, a read-only filesystem,
  no network), and whether this machine can have it;
* :mod:`kotarena.sandbox.seccomp`: the system calls a sandbox is denied (no channel to
  another sandbox);
* :mod:`kotarena.sandbox.cgroups`: CPU time counted from outside, CPU, memory and process caps;
* :mod:`kotarena.sandbox.instance`: a bot's instances, kept from game to game, never
  meeting a deal twice;
* :mod:`kotarena.sandbox.seat`: the referee's side of a seat;
* :mod:`kotarena.sandbox.relay`: a sandboxed seat behind a bot object, for the commands
  that call bots themselves (``play``, ``match``, ``compare``, ``bots check``);
* :mod:`kotarena.sandbox.catalogue`: what untrusted packages declare, read in the sandbox;
* :mod:`kotarena.sandbox.botstore`: the bot store, where strangers' bots are installed.

``docs/sandbox.md`` says what a trusted and an untrusted bot can and cannot do.
"""

"""Seating untrusted bots: a JSON-lines protocol, in a bubblewrap sandbox, timed from outside.

* :mod:`kotarena.sandbox.protocol`: the messages (``docs/protocol.md`` is their reference);
* :mod:`kotarena.sandbox.host`: the Python host that runs inside the sandbox, imports an
  installed bot once and forks the player that plays its instance's games;
* :mod:`kotarena.sandbox.jail`: the sandbox itself (namespaces, a read-only filesystem,
  no network), and whether this machine can have it;
* :mod:`kotarena.sandbox.cgroups`: CPU time counted from outside, CPU, memory and process caps;
* :mod:`kotarena.sandbox.instance`: a bot's instances, kept from game to game, never
  meeting a deal twice;
* :mod:`kotarena.sandbox.seat`: the referee's side of a seat.

``docs/sandbox.md`` says what a trusted and an untrusted bot can and cannot do.
"""

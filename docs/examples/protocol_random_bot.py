"""A bot that speaks the protocol itself (docs/protocol.md): random legal actions.

It reads the referee's lines on standard input and answers on standard output, as a
bot in any language would; kotarena's tests play whole games against it.
"""

import json
import random
import sys


def say(message: dict) -> None:
    print(json.dumps(message), flush=True)


def main() -> None:
    say({"type": "bot", "protocol": 1})
    view: dict = {}
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        view.update(message["view"])  # hello: the whole view; then only what changed
        if message["type"] == "hello":
            rng.seed(message["seed"])
            say({"type": "ready"})
        elif message["type"] == "decide":
            say({"type": "action", "action": rng.choice(view["legal"])})
        elif message["type"] == "finish":
            say({"type": "bye"})
            return


if __name__ == "__main__":
    main()

"""A hostile batch implementation for the verify fuzzing (issue 15, section 3).

    python tests/hostile_impl.py SCRIPT PIDFILE

Speaks just enough of the adapter protocol to be started by ``linguo verify
--impl ... --batch``, then answers from the scripted list :data:`SCRIPTS`
``[SCRIPT]``: one step per line read (the hello is the first line), the
last step repeated. Steps: ``ready`` (a valid hello answer), ``refuse`` (a
``ready: false`` hello), ``garbage`` (invalid UTF-8), ``two`` (two lines for
one request), ``huge`` (one 9 MiB line, over the capture limit), ``deep``
(nested 100,000 levels), ``empty`` (an empty line), ``nan``, ``error``
(the error object), ``unsupported``, ``exit`` (exit 3 without answering),
``sleep`` (past any short timeout) and ``fork`` (double-fork a sleeper in its
own session, its pid written to PIDFILE, then answer garbage).
"""

from __future__ import annotations

import os
import sys
import time

SCRIPTS: dict[str, list[str]] = {
    "garbage": ["ready", "garbage"],
    "two-lines": ["ready", "two"],
    "huge": ["ready", "huge", "error"],
    "deep": ["ready", "deep", "nan", "empty"],
    "mixed": ["ready", "error", "unsupported", "nan", "empty", "garbage"],
    "exits": ["ready", "exit"],
    "sleeps": ["ready", "sleep"],
    "fork": ["ready", "fork", "sleep"],
    "refuse": ["refuse"],
    "deep-hello": ["deep"],
    "fork-hello": ["fork"],
}


def _fork_sleeper(pidfile: str) -> None:
    """Double-fork a sleeper that leaves this process group (``setsid``)."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with open(pidfile + ".tmp", "w", encoding="ascii") as fh:
                fh.write(str(os.getpid()))
            os.replace(pidfile + ".tmp", pidfile)
            time.sleep(600)
        os._exit(0)
    os.wait()
    while not os.path.exists(pidfile):
        time.sleep(0.01)


def _step(step: str, out: object, pidfile: str) -> None:
    write = sys.stdout.buffer.write
    if step == "ready":
        write(b'{"ready": true, "rulesets": {"linguomancy": {}}}\n')
    elif step == "refuse":
        write(b'{"ready": false, "reason": "no\\nway\\u001b"}\n')
    elif step == "garbage":
        write(b"\xff\xfe garbage \x1b[2J\n")
    elif step == "two":
        write(b'{"kind": "damage"}\n{"kind": "damage"}\n')
    elif step == "huge":
        for _ in range(9):
            write(b"x" * (1024 * 1024))
        write(b"\n")
    elif step == "deep":
        write(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    elif step == "empty":
        write(b"\n")
    elif step == "nan":
        write(b'{"hp": NaN, "amount": Infinity}\n')
    elif step == "error":
        write(b'{"error": {"exit": 4, "rule": "D7", "message": "a\\nforged"}}\n')
    elif step == "unsupported":
        write(b'{"unsupported": true, "reason": "not\\u0007here"}\n')
    elif step == "exit":
        sys.exit(3)
    elif step == "sleep":
        time.sleep(600)
    elif step == "fork":
        _fork_sleeper(pidfile)
        write(b"\x00 not json\n")
    sys.stdout.flush()


def main() -> None:
    """Answer each line of stdin with the next step of the script."""
    steps = SCRIPTS[sys.argv[1]]
    pidfile = sys.argv[2]
    sys.stderr.write("hostile implementation \x1b[31mstarting\n")
    for i, _line in enumerate(sys.stdin.buffer):
        _step(steps[min(i, len(steps) - 1)], sys.stdout, pidfile)


if __name__ == "__main__":
    main()

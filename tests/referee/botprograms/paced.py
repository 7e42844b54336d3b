"""A bot that spends CPU or waits as each match tells it, for the referee's CPU-clock tests.

Usage: ``python paced.py`` with ``ARENA_ENDPOINT`` and ``ARENA_TOKEN`` set; it speaks the wire
directly (raw ZeroMQ and msgpack). A match's id carries every seat's plan: ``name;SEAT=STEP,STEP...``
for each seat that does not simply answer at once, one step per ``act`` (the last one repeats):

r       answer the first legal action at once
bS      sleep 0.1 s, burn S seconds of CPU, then answer
sS      sleep S seconds (no CPU), then answer
h       never answer this ``act``
cS      sleep 0.1 s, then answer 8 ms of CPU after S seconds of CPU, sending a ``pong`` with the ``act``'s ``seq``
        12 and 2 ms before S, so that the referee is handling a frame, not idle, when S passes
wS      answer at once, then spin until the next message is in (S seconds of elapsed time at most)
x       answer at once, then stop this process (SIGSTOP): next to no CPU from then on
aS      burn 0.2 s of CPU, answer, then burn S seconds of CPU and print ``burnt``

After ``end``, a bot whose plan ends with ``!`` spins until ``bye``. It prints the ``welcome``'s
server name, the endpoint it connected to, each ``start``'s clock kind and each ``act``'s ply and bank (ms).
"""

from __future__ import annotations

import os
import signal
import time

import msgpack
import zmq


def burn(seconds: float) -> None:
    """Use ``seconds`` of this process's CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def plan_of(match: str, seat: int) -> tuple[list[str], bool]:
    """This seat's steps in ``match``'s id, and whether to spin after ``end``."""
    for part in match.split(";")[1:]:
        who, _, steps = part.partition("=")
        if int(who) == seat:
            return steps.rstrip("!").split(","), steps.endswith("!")
    return ["r"], False


def main() -> None:
    socket = zmq.Context().socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(os.environ["ARENA_ENDPOINT"])
    print("endpoint", os.environ["ARENA_ENDPOINT"], flush=True)
    socket.send(msgpack.packb({"type": "hello", "protocol": 1, "name": "paced", "version": "0",
                               "token": os.environ["ARENA_TOKEN"]}))
    steps, spin_after_end, acts = ["r"], False, 0
    while True:
        message = msgpack.unpackb(socket.recv())
        kind = message["type"]
        if kind == "welcome":
            print("welcome from", message["server"], flush=True)
        elif kind == "bye":
            return
        elif kind == "ping":
            socket.send(msgpack.packb({"type": "pong", "seq": message["seq"]}))
        elif kind == "start":
            steps, spin_after_end = plan_of(message["match"], message["seat"])
            print("start", message["clock_kind"], flush=True)
            acts = 0
        elif kind == "end" and spin_after_end:
            while not socket.poll(0):
                pass
        elif kind == "act":
            step = steps[min(acts, len(steps) - 1)]
            acts += 1
            print("act", message["ply"], message["clock"]["bank_ms"], flush=True)
            what, amount = step[0], float(step[1:] or 0)
            reply = msgpack.packb({"type": "action", "seq": message["seq"], "action": message["legal"][0]})
            if what == "h":
                continue
            if what in "bc":
                time.sleep(0.1)
            if what == "a":
                burn(0.2)
            if what == "b":
                burn(amount)
            elif what == "s":
                time.sleep(amount)
            elif what == "c":
                pong = msgpack.packb({"type": "pong", "seq": message["seq"]})
                burn(amount - 0.012)
                socket.send(pong)
                burn(0.01)
                socket.send(pong)
                burn(0.01)
            socket.send(reply)
            if what == "x":
                time.sleep(0.2)  # the reply leaves (ZeroMQ sends it from its own thread)
                os.kill(os.getpid(), signal.SIGSTOP)
            if what == "a":
                burn(amount)
                print("burnt", flush=True)
            if what == "w":
                end = time.monotonic() + amount
                while not socket.poll(0) and time.monotonic() < end:
                    pass


if __name__ == "__main__":
    main()

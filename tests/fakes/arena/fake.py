#!/usr/bin/env python3
"""A misbehaving engine for the arena's tests.

Usage: fake.py MODE AFTER TABULA [ARGS...]

It runs the real engine TABULA and relays every command to it, so it plays legal
moves, until its AFTER-th genmove (counting from 1), where it misbehaves by MODE:

  crash    exits at once without answering
  hang     never answers (sleeps)
  garbage  answers a line that is no GTP answer
  illegal  answers the last move seen again (an occupied square / cell, a spent shot)
  slow     sleeps 1.5 s, then answers the real move
  liar     (Battleship) from then on, reports every shot at its own fleet wrongly
  refuse   from then on, answers every play and resolve_turn with "? no"
"""

import subprocess
import sys
import time


def main():
    mode, after, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    engine = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )

    def relay(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        lines = []
        while True:
            out = engine.stdout.readline()
            if out == "":
                sys.exit(4)
            out = out.rstrip("\n")
            if out == "" and lines:
                return "\n".join(lines)
            if out != "":
                lines.append(out)

    def answer(text):
        sys.stdout.write(text + "\n\n")
        sys.stdout.flush()

    genmoves = 0
    last_move = None
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        words = line.split()
        name = words[0].lower()
        if name == "genmove":
            genmoves += 1
            if genmoves == after:
                if mode == "crash":
                    sys.exit(3)
                if mode == "hang":
                    time.sleep(3600)
                if mode == "garbage":
                    answer("hello, I am not an engine")
                    continue
                if mode == "illegal" and last_move is not None:
                    answer("= " + last_move)
                    continue
                if mode == "slow":
                    time.sleep(1.5)
        misbehaving = genmoves >= after
        if misbehaving and mode == "refuse" and name in ("play", "resolve_turn"):
            answer("? no")
            continue
        reply = relay(line)
        if name == "genmove" and reply.startswith("= "):
            last_move = reply[2:].split()[0]
        if name == "play" and len(words) >= 3:
            last_move = words[2]
        if name == "resolve_turn" and len(words) >= 2:
            last_move = words[1]
        if misbehaving and mode == "liar" and name == "play" and len(words) == 3:
            reply = "= hit" if reply == "= miss" else "= miss"
        answer(reply)
        if name == "quit":
            break


if __name__ == "__main__":
    main()

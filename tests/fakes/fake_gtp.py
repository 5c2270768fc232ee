#!/usr/bin/env python3
"""A fake GTP 2 engine for the conformance runner's tests: it behaves, or misbehaves
on purpose, as its options say.

Commands: protocol_version (2), name (fake), echo ARGS (the args), pwd (its working
folder), list (three lines), fail (an error answer), quit; anything else is an
unknown command.

Options:
  --crash-after N     exit with status 3, without answering, on the Nth command
  --hang-on NAME      never answer command NAME
  --garbage-on NAME   answer command NAME with a line that is not GTP
  --wrong-on NAME     answer command NAME with "wrong"
  --ignore-quit       answer quit, then ignore it and EOF, and sleep
"""

import os
import sys
import time


def option(name):
    if name in sys.argv:
        index = sys.argv.index(name)
        return sys.argv[index + 1] if index + 1 < len(sys.argv) else ""
    return None


def sleep_forever():
    while True:
        time.sleep(60)


def answer(ok, ident, text):
    mark = "=" if ok else "?"
    sys.stdout.write(f"{mark}{ident} {text}\n\n")
    sys.stdout.flush()


def main():
    crash_after = option("--crash-after")
    crash_after = int(crash_after) if crash_after is not None else None
    hang_on = option("--hang-on")
    garbage_on = option("--garbage-on")
    wrong_on = option("--wrong-on")
    ignore_quit = "--ignore-quit" in sys.argv
    count = 0
    for line in sys.stdin:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
        if not words:
            continue
        name, args = words[0], words[1:]
        count += 1
        if crash_after is not None and count >= crash_after:
            sys.exit(3)
        if name == hang_on:
            sleep_forever()
        if name == garbage_on:
            sys.stdout.write("I am not a GTP engine\n\n")
            sys.stdout.flush()
            continue
        if name == wrong_on:
            answer(True, ident, "wrong")
        elif name == "protocol_version":
            answer(True, ident, "2")
        elif name == "name":
            answer(True, ident, "fake")
        elif name == "echo":
            answer(True, ident, " ".join(args))
        elif name == "pwd":
            answer(True, ident, os.getcwd())
        elif name == "list":
            answer(True, ident, "alpha\nbeta\ngamma")
        elif name == "fail":
            answer(False, ident, "failed on purpose")
        elif name == "quit":
            answer(True, ident, "")
            if ignore_quit:
                sleep_forever()
            return
        else:
            answer(False, ident, "unknown command")
    if ignore_quit:
        sleep_forever()


if __name__ == "__main__":
    main()

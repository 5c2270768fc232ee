#!/usr/bin/env python3
"""A What the Shell engine written outside Tabula: a deterministic one-ply
threat-builder that speaks the protocol on stdin/stdout.

It shows the shortest way to a working engine: the rules are left to a child
`tabula --game shell`, which keeps the game (every command but `name`,
`list_games`, `set_game` of another game and `genmove` is passed to it and its
answer passed back), and only the pick is this program's own. Its pick, in order:

1. the first empty cell (a1, b1, ... i9) where its own turtle completes five;
2. else the first empty cell where the opponent's turtle would complete five
   (taking it, or colliding there, blocks it);
3. else the empty cell with the best score: over the five-cell windows through
   the cell, OWN[n] for a window with n of its turtles and none of the
   opponent's, THEIRS[n] for one with n of the opponent's and none of its own,
   plus CAPTURE for each direction in which a turtle there would capture (two
   stones not its own, then its own turtle); ties go to the cell nearest e5,
   then the first in board order.

The five-in-a-row checks ignore captures: it is a one-ply player, strong-looking
and predictable, the kind of opponent a simultaneous player has to punish.

    tabula arena --game shell --engine tabula=tabula \
        --engine builder="python3 examples/shell_builder.py" --games 40 --movetime 100

Environment: TABULA (the tabula binary, default `tabula` on PATH), CAPTURE (the
capture bonus, default 150), EGGS_BLOCK=1 (a window holding an egg counts
nothing; by default eggs are read as empty cells).
"""
import os
import subprocess
import sys

OWN = [1, 6, 36, 216, 1296]
THEIRS = [0, 5, 30, 180, 1100]
CAPTURE = int(os.environ.get("CAPTURE", "150"))
EGGS_BLOCK = os.environ.get("EGGS_BLOCK", "0") == "1"
COLUMNS = "abcdefghi"


def windows():
    """Every five-cell line segment of the 9x9 board, as lists of cell indices."""
    found = []
    for row in range(9):
        for col in range(9):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + k * d_row, col + k * d_col) for k in range(5)]
                if all(0 <= r < 9 and 0 <= c < 9 for r, c in cells):
                    found.append([r * 9 + c for r, c in cells])
    return found


THROUGH = [[w for w in windows() if i in w] for i in range(81)]


def name_of(index):
    return COLUMNS[index % 9] + str(index // 9 + 1)


def completes_five(board, me, index):
    with_it = board[:index] + me + board[index + 1:]
    return any(all(with_it[j] == me for j in w) for w in THROUGH[index])


def captures(board, me, index):
    row, col = divmod(index, 9)
    count = 0
    for d_row in (-1, 0, 1):
        for d_col in (-1, 0, 1):
            if d_row == d_col == 0:
                continue
            cells = [(row + k * d_row, col + k * d_col) for k in (1, 2, 3)]
            if not all(0 <= r < 9 and 0 <= c < 9 for r, c in cells):
                continue
            first, second, third = (board[r * 9 + c] for r, c in cells)
            if first not in "-" + me and second not in "-" + me and third == me:
                count += 1
    return count


def pick(board, me):
    """The pick of colour `me` ('X' black, 'O' white) on an 81-character board."""
    them = "O" if me == "X" else "X"
    empty = [i for i, stone in enumerate(board) if stone == "-"]
    for colour in (me, them):
        for index in empty:
            if completes_five(board, colour, index):
                return index
    best = None
    for index in empty:
        score = CAPTURE * captures(board, me, index)
        for window in THROUGH[index]:
            stones = [board[j] for j in window]
            if EGGS_BLOCK and "E" in stones:
                continue
            mine, theirs = stones.count(me), stones.count(them)
            if theirs == 0:
                score += OWN[mine]
            if mine == 0:
                score += THEIRS[theirs]
        row, col = divmod(index, 9)
        key = (score, -(abs(row - 4) + abs(col - 4)), -index)
        if best is None or key > best[0]:
            best = (key, index)
    return None if best is None else best[1]


class Bookkeeper:
    """The child tabula that keeps the game by the rules."""

    def __init__(self):
        binary = os.environ.get("TABULA", "tabula")
        self.child = subprocess.Popen(
            [binary, "--game", "shell"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, line):
        """Sends one command; its answer's lines, without the closing empty line."""
        self.child.stdin.write(line + "\n")
        self.child.stdin.flush()
        lines = []
        while True:
            answer = self.child.stdout.readline()
            if answer == "" or (answer.strip() == "" and lines):
                return lines
            if answer.strip():
                lines.append(answer.rstrip("\n"))


def main():
    rules = Bookkeeper()
    for raw in sys.stdin:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        number = words.pop(0) if words[0].isdigit() else ""
        command = words[0].lower() if words else ""
        if command == "name":
            reply = [f"={number} shell_builder"]
        elif command == "list_games":
            reply = [f"={number} shell"]
        elif command == "set_game" and words[1:] != ["shell"]:
            # The child would switch games; this engine only picks Shell cells.
            reply = [f"?{number} unknown game: this engine plays only shell"]
        elif command in ("genmove", "reg_genmove") and len(words) == 2:
            colour = words[1].lower()
            status = rules.ask("status")
            position = rules.ask("position")
            if colour not in ("b", "black", "w", "white"):
                reply = [f"?{number} syntax error: {words[1]} is not a colour"]
            elif status != ["= ongoing"] and status != ["= sudden_death"]:
                reply = [f"?{number} the game is over"]
            else:
                board = position[0][2:].split()[0]
                index = pick(board, "X" if colour.startswith("b") else "O")
                if index is None:
                    reply = [f"?{number} no empty cell"]
                else:
                    reply = [f"={number} {name_of(index)}"]
        else:
            reply = rules.ask(line) or [f"?{number} the rules bookkeeper has stopped"]
        print("\n".join(reply) + "\n", flush=True)
        if command == "quit":
            break


if __name__ == "__main__":
    main()

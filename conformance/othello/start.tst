# extension: position
# Othello: the start position, the board, and the basic commands (O1).
# Rule ids refer to RULES.md; CONTRACT sections to CONTRACT.md.
set_game othello

# O1: the start: white d4 e5, black e4 d5, black to move
1 position
#? [---------------------------OX------XO--------------------------- X]

# O1: black's four opening moves, in canonical order (row 1 first, left to right)
2 all_legal black
#? [d3 c4 f5 e6]

# O1: black moves first, so white has no legal move now
3 all_legal white
#? []

# O1: the game is under way
4 status
#? [ongoing]

# O4 / CONTRACT Othello: final_score counts the board as it stands, 2:2
5 final_score
#? [0]

# O1 / CONTRACT Commands every game has: the board is 8x8
6 boardsize 8
#? []

# O1: boardsize 10 is refused (unacceptable size) and changes nothing
boardsize 10
7 position
#? [---------------------------OX------XO--------------------------- X]

# CONTRACT Commands every game has: list_games names the three games
8 list_games
#? [othello\nbattleship\nshell]

# CONTRACT Commands every game has: known_command
9 known_command perft
#? [true]

# CONTRACT Commands every game has: known_command for a name that is no command
10 known_command castle
#? [false]

# O1 / CONTRACT Othello: cells are read in any case
11 is_legal black D3
#? [true]

# O1 / CONTRACT: colours are read in any case and as one letter
12 is_legal B f5
#? [true]

# O1: black is to move, so no white move is legal
13 is_legal white d3
#? [false]

# O1: a malformed cell is not legal, and not an error
14 is_legal black i9
#? [false]

# O1: rows run 1-8, a9 is off the board
15 is_legal black a9
#? [false]

# O1: input in capitals is accepted...
PLAY BLACK F5
# O2: ...f5 flips e5; white to move
#   4 ...OX...
#   5 ...XXX..
16 position
#? [---------------------------OX------XXX-------------------------- O]

# O1: output is lowercase, canonical order: f4 (row 4), d6, f6 (row 6)
17 all_legal W
#? [f4 d6 f6]

# O1: players alternate: black is not to move and its play is refused
play black e6
18 position
#? [---------------------------OX------XXX-------------------------- O]

# O1: players alternate: black has nothing legal while white is to move
19 is_legal black e6
#? [false]

# CONTRACT Commands every game has: undo takes back the last move
20 undo
#? []

# O1: back at the start
21 position
#? [---------------------------OX------XO--------------------------- X]

# CONTRACT Commands every game has: undo at the start is refused (cannot undo)
undo
22 position
#? [---------------------------OX------XO--------------------------- X]

# O1: clear_board after some moves gives the start again
play black d3
play white c3
clear_board
23 position
#? [---------------------------OX------XO--------------------------- X]

# CONTRACT Commands every game has: after clear_board there is nothing to undo
undo
24 all_legal black
#? [d3 c4 f5 e6]

# O2: black d3 flips d4; white's c3 then flips d4 back (diagonal c3-d4-e5)
play black d3
play white c3
#   expected:
#   1 ........
#   2 ........
#   3 ..OX....
#   4 ...OX...
#   5 ...XO...
#   6 ........
#   7 ........
#   8 ........
#   black to move
25 position
#? [------------------OX-------OX------XO--------------------------- X]

# CONTRACT Commands every game has: undo goes back one move at a time
undo
#   expected:
#   1 ........
#   2 ........
#   3 ...X....
#   4 ...XX...
#   5 ...XO...
#   6 ........
#   7 ........
#   8 ........
#   white to move
26 position
#? [-------------------X-------XX------XO--------------------------- O]

# CONTRACT Commands every game has: protocol_version
27 protocol_version
#? [2]

# CONTRACT Commands every game has: name
28 name
#? [tabula]

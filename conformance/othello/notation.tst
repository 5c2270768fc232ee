# extension: position set_position
# Othello position notation (CONTRACT Othello): round trip, input variants, refusals.
set_game othello

# CONTRACT Othello: a position set is read back the same
set_position ------------------OX-------OX------XO--------------------------- X
1 position
#? [------------------OX-------OX------XO--------------------------- X]

# CONTRACT Othello: a set position has no history: undo is refused...
undo
# ...and the position stays
2 position
#? [------------------OX-------OX------XO--------------------------- X]

# CONTRACT Othello: the side to move is part of the position (black's moves here)
3 all_legal black
#? [b3 c4 f5 e6]

# CONTRACT Othello: the same board with white to move
set_position ------------------OX-------OX------XO--------------------------- O
4 all_legal white
#? [d2 e3 f4 c5 d6]

# CONTRACT Othello / O1: x and * read as black, o as white, . as empty; the output
# is canonical (X, O, -)
set_position ..................ox.......ox......*o........................... X
5 position
#? [------------------OX-------OX------XO--------------------------- X]

# CONTRACT Othello: a text that is not 64 board characters, a space and a side is
# refused, and the position stays
set_position XO X
6 position
#? [------------------OX-------OX------XO--------------------------- X]

# CONTRACT Othello: 63 board characters are refused
set_position -----------------OX-------OX------XO--------------------------- X
7 position
#? [------------------OX-------OX------XO--------------------------- X]

# CONTRACT Othello: a board character that is none of X O - x o * . is refused
set_position Q-----------------OX-------OX------XO--------------------------- X
8 position
#? [------------------OX-------OX------XO--------------------------- X]

# CONTRACT Othello: a side that is neither X nor O is refused
set_position ------------------OX-------OX------XO--------------------------- Z
9 position
#? [------------------OX-------OX------XO--------------------------- X]

# CONTRACT Othello: a missing side is refused
set_position ------------------OX-------OX------XO---------------------------
10 position
#? [------------------OX-------OX------XO--------------------------- X]

# O1: an empty centre square (d4) is impossible and refused
set_position ----------------------------X------XO--------------------------- X
11 position
#? [------------------OX-------OX------XO--------------------------- X]

# O2: a disc (a1) that no chain of neighbouring discs links to the centre is
# impossible: refused
set_position X--------------------------OX------XO--------------------------- X
12 position
#? [------------------OX-------OX------XO--------------------------- X]

# O2: the same a1 linked to the centre by b2, c3 is accepted
set_position X--------X--------O--------OX------XO--------------------------- X
13 position
#? [X--------X--------O--------OX------XO--------------------------- X]

# CONTRACT Othello: the notation's board is row by row from a1 (a1 the first
# character, b2 the tenth, c3 the nineteenth): f6 brackets e5 d4 c3 against b2
14 all_legal black
#? [d3 c4 f5 e6 f6]

# extension: position set_position
# Othello passes (O3) and the end of the game (O4).
set_game othello

# O3: white's discs a4, a7, h7 are walled in by black with no empty square beyond:
# white has no move and must pass; black has a8 and h8
#   1 XXXXXXXX
#   2 XXXXXXXX
#   3 XXXXXXXX
#   4 OXXXXXXX
#   5 XXXXXXXX
#   6 XXXXXXXX
#   7 OXXXXXXO
#   8 .XXXXXX.
#   white to move
set_position XXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXO-XXXXXX- O
# O3: a forced pass is the only legal move (all_legal answers pass alone)
1 all_legal white
#? [pass]

# O3: the pass is legal
2 is_legal white pass
#? [true]

# O3: a8 would flip nothing for white (b8..g8 end at the empty h8, the diagonal at
# the edge)
3 is_legal white a8
#? [false]

# O3: the game is not over while one side can move
4 status
#? [ongoing]

# O1: it is white's turn: black has no legal move now
5 all_legal black
#? []

# O3: the move text pass, in any case
play w PASS
6 position
#? [XXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXO-XXXXXX- X]

# O3: now black moves: a8 flips a7 (against a6), h8 flips h7 (against h6)
7 all_legal black
#? [a8 h8]

# O3: a player with a legal move must move: pass is refused, nothing changes
play black pass
8 position
#? [XXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXO-XXXXXX- X]

# O3: pass is not legal with moves
9 is_legal black pass
#? [false]

play black a8
# O3: white is walled in again: a forced pass
10 all_legal white
#? [pass]

play white pass
play black h8
# O4: the board is full, black 63 white 1
11 status
#? [black_wins]

# O4: 63 - 1
12 final_score
#? [B\+62]

# O4: after the end nobody has a legal move
13 all_legal black
#? []

# O4: after the end nobody has a legal move, not even a pass
14 all_legal white
#? []

# O4: a pass after the end is refused (the game is over), nothing changes
play white pass
15 position
#? [XXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O]

# O4 / CONTRACT Commands every game has: undo takes back the last move of the game
undo
16 status
#? [ongoing]

# O3: the same for black: black is walled in and must pass, white has a8 and h8
#   1 OOOOOOOO
#   2 OOOOOOOO
#   3 OOOOOOOO
#   4 XOOOOOOO
#   5 OOOOOOOO
#   6 OOOOOOOO
#   7 XOOOOOOX
#   8 .OOOOOO.
#   black to move
set_position OOOOOOOOOOOOOOOOOOOOOOOOXOOOOOOOOOOOOOOOOOOOOOOOXOOOOOOX-OOOOOO- X
17 all_legal black
#? [pass]

play b pass
# O3: after black's forced pass white moves: a8 and h8
18 all_legal white
#? [a8 h8]

# O4: the seed's diagram 10: nobody can play b1; black 34, white 29, one empty
#   1 X.XXXXXX
#   2 OOXXXXXX
#   3 OOOXXXXX
#   4 OOOOXXXX
#   5 OOOOOXXX
#   6 OOOOOOXX
#   7 OOOOOOOX
#   8 XOXOXXXX
#   white to move
set_position X-XXXXXXOOXXXXXXOOOXXXXXOOOOXXXXOOOOOXXXOOOOOOXXOOOOOOOXXOXOXXXX O
# O4: neither player can move: the game is over, black has more discs
19 status
#? [black_wins]

# O4: the empty square goes to the winner: 34:29 counts 35:29
20 final_score
#? [B\+6]

# O4: the game is over: white has no move and no pass
21 all_legal white
#? []

# O4: b1 brackets nothing for black either
22 is_legal black b1
#? [false]

# O4: the same position with the colours swapped: white wins 35:29
#   1 O.OOOOOO
#   2 XXOOOOOO
#   3 XXXOOOOO
#   4 XXXXOOOO
#   5 XXXXXOOO
#   6 XXXXXXOO
#   7 XXXXXXXO
#   8 OXOXOOOO
#   black to move
set_position O-OOOOOOXXOOOOOOXXXOOOOOXXXXOOOOXXXXXOOOXXXXXXOOXXXXXXXOOXOXOOOO X
23 status
#? [white_wins]

# O4: the empty square goes to the winner
24 final_score
#? [W\+6]

# O4: equal counts on a full board: a draw
#   1 XXXXXXXX
#   2 XXXXXXXX
#   3 XXXXXXXX
#   4 XXXXXXXX
#   5 OOOOOOOO
#   6 OOOOOOOO
#   7 OOOOOOOO
#   8 OOOOOOOO
#   black to move
set_position XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X
25 status
#? [draw]

# O4: a draw scores 0
26 final_score
#? [0]

# O4: only white discs, black can not move and white can not flip: the game is over
# and all 60 empty squares go to white
#   1 ........
#   2 ........
#   3 ........
#   4 ...OO...
#   5 ...OO...
#   6 ........
#   7 ........
#   8 ........
#   black to move
set_position ---------------------------OO------OO--------------------------- X
27 status
#? [white_wins]

# O4: 4 white discs plus 60 empties
28 final_score
#? [W\+64]

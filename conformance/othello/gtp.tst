# Othello with GTP 2's own commands only: play and genmove from the start, no
# position read or set, so any Othello engine speaking GTP 2 can run it (an engine
# whose list_games spells the game otherwise, such as `Othello`, is set up in its
# spelling). Rule ids refer to the rules document; CONTRACT sections to the contract.
set_game othello

# O1: the board is 8x8
1 boardsize 8
#? []

# O1 / O2: black moves first; its four opening moves, in lowercase
2 genmove b
#? [(d3|c4|f5|e6)]

# O2: after black d3 (flipping d4) white has c3, e3 and c5
clear_board
3 play b d3
#? []

4 genmove w
#? [(c3|e3|c5)]

# O2: e3 flips nothing for black at the start, so it is refused and nothing
# changes: black is still to move with its four opening moves
clear_board
play b e3
5 genmove b
#? [(d3|c4|f5|e6)]

# O3: after d3 c3 b3 b2 f5 a3 a1 c1 black has no legal move and must pass...
clear_board
play b d3
play w c3
play b b3
play w b2
play b f5
play w a3
play b a1
play w c1
6 genmove b
#? [pass]

# O3: ...and white, with moves, plays on: e3 or f6
7 genmove w
#? [(e3|f6)]

# O2 / CONTRACT Othello: a pass is legal only when forced; at the start black plays
clear_board
play b pass
8 genmove b
#? [(d3|c4|f5|e6)]

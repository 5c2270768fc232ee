# extension: position set_position set_option
# Othello genmove (CONTRACT Othello): legality only, never which move is chosen.
set_game othello
set_option seed 1
set_option depth 2

# CONTRACT Othello: reg_genmove answers one of black's legal moves...
1 reg_genmove black
#? [(d3|c4|f5|e6)]

# CONTRACT Othello: ...and never plays it
2 position
#? [---------------------------OX------XO--------------------------- X]

# CONTRACT Othello: genmove for the colour not to move is refused, nothing changes
genmove white
3 position
#? [---------------------------OX------XO--------------------------- X]

# CONTRACT Othello: genmove answers a legal move, in lowercase...
4 genmove b
#? [(d3|c4|f5|e6)]

# CONTRACT Othello: ...and plays it: white is to move now
5 position
#? [[XO-]{64} O]

# CONTRACT Othello: the game goes on
6 status
#? [ongoing]

# CONTRACT Othello / O2: after black d3 white has c3, e3, c5
set_position -------------------X-------XX------XO--------------------------- O
7 reg_genmove white
#? [(c3|e3|c5)]

# CONTRACT Othello: reg_genmove changed nothing
8 position
#? [-------------------X-------XX------XO--------------------------- O]

# O3 / CONTRACT Othello: with no move, genmove answers pass...
set_position XXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXO-XXXXXX- O
9 reg_genmove white
#? [pass]

# O3 / CONTRACT Othello: ...genmove too, and plays it
10 genmove white
#? [pass]

# O3 / CONTRACT Othello: the pass was played: black to move
11 position
#? [XXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXO-XXXXXX- X]

# O3: black's genmove is one of a8, h8
12 genmove black
#? [(a8|h8)]

# O4 / CONTRACT Othello: after the end genmove plays nothing, nothing changes
set_position X-XXXXXXOOXXXXXXOOOXXXXXOOOOXXXXOOOOOXXXOOOOOOXXOOOOOOOXXOXOXXXX O
genmove white
13 position
#? [X-XXXXXXOOXXXXXXOOOXXXXXOOOOXXXXOOOOOXXXOOOOOOXXOOOOOOOXXOXOXXXX O]

# O4: the finished game is still won by black
14 status
#? [black_wins]

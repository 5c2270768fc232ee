# extension: position set_position
# Othello perft (CONTRACT Othello): move-sequence counts, passes and finished games.
set_game othello

# CONTRACT Othello: perft 0 is the position itself
1 perft 0
#? [1]

# CONTRACT Othello / O1 O2: from the start, d3 c4 f5 e6
2 perft 1
#? [4]

# CONTRACT Othello: the known Othello perft numbers from the start
3 perft 2
#? [12]

# CONTRACT Othello: the known Othello perft numbers from the start
4 perft 3
#? [56]

# CONTRACT Othello: the known Othello perft numbers from the start
5 perft 4
#? [244]

# CONTRACT Othello: the known Othello perft numbers from the start
6 perft 5
#? [1396]

# CONTRACT Othello: the known Othello perft numbers from the start
7 perft 6
#? [8200]

# CONTRACT Othello: perft changes nothing
8 position
#? [---------------------------OX------XO--------------------------- X]

# CONTRACT Othello / O2: after black f5 white has three moves
play black f5
9 perft 1
#? [3]

# CONTRACT Othello: the four opening moves are symmetric, so a quarter of the 56
# sequences of three moves from the start begin with f5
10 perft 2
#? [14]

# CONTRACT Othello: a quarter of the 244 sequences of four moves begin with f5
11 perft 3
#? [61]

# O3 / CONTRACT Othello: white must pass (the pass counts as a move), then black has
# a8 or h8, then white passes again, then black fills the board and the game ends
set_position XXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXO-XXXXXX- O
12 perft 1
#? [1]

# O3 / CONTRACT Othello: pass, then a8 or h8
13 perft 2
#? [2]

# O3 / CONTRACT Othello: pass, a8|h8, pass
14 perft 3
#? [2]

# O3 / CONTRACT Othello: pass, a8|h8, pass, h8|a8 (the board is full)
15 perft 4
#? [2]

# O4 / CONTRACT Othello: a game that ends before the depth counts as one leaf
16 perft 6
#? [2]

# O4 / CONTRACT Othello: a finished game (the seed's diagram 10) is one leaf at any depth
set_position X-XXXXXXOOXXXXXXOOOXXXXXOOOOXXXXOOOOOXXXOOOOOOXXOOOOOOOXXOXOXXXX O
17 perft 1
#? [1]

# O4 / CONTRACT Othello: a finished game is one leaf at any depth
18 perft 5
#? [1]

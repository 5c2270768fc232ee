# extension: position
# What the Shell: cells, placement and the basic commands (S1, S3).
set_game shell

# S1: the board is 9x9, boardsize 9 is accepted
1 boardsize 9
#? []

# S1: any other size is refused (unacceptable size), nothing changes
boardsize 8
2 position
#? [--------------------------------------------------------------------------------- -]

# S1 / CONTRACT What the Shell: all 81 cells are empty and legal for both, columns
# a-i (i included), rows 1-9, row 1 first
3 all_legal black
#? [a1 b1 c1 d1 e1 f1 g1 h1 i1 a2 b2 c2 d2 e2 f2 g2 h2 i2 a3 b3 c3 d3 e3 f3 g3 h3 i3 a4 b4 c4 d4 e4 f4 g4 h4 i4 a5 b5 c5 d5 e5 f5 g5 h5 i5 a6 b6 c6 d6 e6 f6 g6 h6 i6 a7 b7 c7 d7 e7 f7 g7 h7 i7 a8 b8 c8 d8 e8 f8 g8 h8 i8 a9 b9 c9 d9 e9 f9 g9 h9 i9]

# S3: the same empty cells for white
4 all_legal white
#? [a1 b1 c1 d1 e1 f1 g1 h1 i1 a2 b2 c2 d2 e2 f2 g2 h2 i2 a3 b3 c3 d3 e3 f3 g3 h3 i3 a4 b4 c4 d4 e4 f4 g4 h4 i4 a5 b5 c5 d5 e5 f5 g5 h5 i5 a6 b6 c6 d6 e6 f6 g6 h6 i6 a7 b7 c7 d7 e7 f7 g7 h7 i7 a8 b8 c8 d8 e8 f8 g8 h8 i8 a9 b9 c9 d9 e9 f9 g9 h9 i9]

# S1: i9 is on the board
5 is_legal white i9
#? [true]

# S1: column j is off the board: not legal, not an error
6 is_legal black j1
#? [false]

# S1: row 10 is off the board
7 is_legal black a10
#? [false]

# S3 / CONTRACT What the Shell: play is refused for Shell (one colour alone never
# moves), nothing changes
play black e5
8 position
#? [--------------------------------------------------------------------------------- -]

# S3: a turn is resolved with both picks; both turtles land, nothing is captured
9 resolve_turn e5 d4
#? [placed status ongoing]

# S3: black on e5, white on d4
10 position
#? [------------------------------O---------X---------------------------------------- -]

# S3: a pick must be empty: black's pick holds a turtle, the turn is refused and
# nothing changes
resolve_turn e5 a1
11 position
#? [------------------------------O---------X---------------------------------------- -]

# S3: white's pick must be empty too
resolve_turn a1 e5
12 position
#? [------------------------------O---------X---------------------------------------- -]

# S3: occupied cells are not legal, for either colour
13 is_legal white e5
#? [false]

# S3: occupied cells are not legal, for either colour
14 is_legal black d4
#? [false]

# S3: the other 79 cells are legal
15 all_legal white
#? [a1 b1 c1 d1 e1 f1 g1 h1 i1 a2 b2 c2 d2 e2 f2 g2 h2 i2 a3 b3 c3 d3 e3 f3 g3 h3 i3 a4 b4 c4 e4 f4 g4 h4 i4 a5 b5 c5 d5 f5 g5 h5 i5 a6 b6 c6 d6 e6 f6 g6 h6 i6 a7 b7 c7 d7 e7 f7 g7 h7 i7 a8 b8 c8 d8 e8 f8 g8 h8 i8 a9 b9 c9 d9 e9 f9 g9 h9 i9]

# S3 / S1: a malformed pick is a syntax error and changes nothing
resolve_turn j1 a1
16 position
#? [------------------------------O---------X---------------------------------------- -]

# S3 / S1: cells are read in any case and printed lowercase
17 resolve_turn A1 I9
#? [placed status ongoing]

# S3: a turtle never moves once placed
18 position
#? [X-----------------------------O---------X---------------------------------------O -]

# CONTRACT Commands every game has: undo takes back one whole turn (both picks)
19 undo
#? []

# CONTRACT Commands every game has: the turn before is back
20 position
#? [------------------------------O---------X---------------------------------------- -]

# CONTRACT Commands every game has: undo back to the start, then cannot undo
undo
undo
21 position
#? [--------------------------------------------------------------------------------- -]

# S3 / CONTRACT What the Shell: genmove answers an empty cell, lowercase...
resolve_turn e5 d4
22 genmove black
#? [[a-i][1-9]]

# S3: ...never an occupied one
23 genmove white
#? [!(e5|d4)]

# S3 / CONTRACT What the Shell: ...and changes nothing
24 position
#? [------------------------------O---------X---------------------------------------- -]

# S3 / CONTRACT What the Shell: reg_genmove changes nothing either
25 reg_genmove white
#? [[a-i][1-9]]

# S3 / CONTRACT What the Shell: reg_genmove changes nothing
26 position
#? [------------------------------O---------X---------------------------------------- -]

# S3: the game goes on
27 status
#? [ongoing]

# CONTRACT Commands every game has: a game not over scores 0
28 final_score
#? [0]

# CONTRACT PROTOCOL: perft is not a command of Shell: refused, nothing changes
perft 1
29 position
#? [------------------------------O---------X---------------------------------------- -]

# CONTRACT Commands every game has: set_game shell starts afresh
set_game shell
30 position
#? [--------------------------------------------------------------------------------- -]

# CONTRACT Commands every game has: known_command resolve_turn
31 known_command resolve_turn
#? [true]

# extension: position set_position
# What the Shell: the win check, sudden death and the draw (S9).
set_game shell

# S9: one line of five wins at once
#   1 X X X X . . . . .
#   eggs oldest first: none
set_position XXXX----------------------------------------------------------------------------- -
1 resolve_turn e1 e5
#? [placed status black_wins]

# S9: status after the win
2 status
#? [black_wins]

# CONTRACT Commands every game has: the winner with +1
3 final_score
#? [B\+1]

# S9: a finished game has no legal pick
4 all_legal white
#? []

# S9: a finished game has no legal pick
5 is_legal black a5
#? [false]

# S9: a finished game refuses further turns, nothing changes
resolve_turn a5 b5
#   expected:
#   1 X X X X X . . . .
#   5 . . . . O . . . .
#   eggs oldest first: none
6 position
#? [XXXXX-----------------------------------O---------------------------------------- -]

# S9: white's line of five wins for white
#   1 X X X . . . . . .
#   9 O O O O . . . . .
#   eggs oldest first: none
set_position XXX---------------------------------------------------------------------OOOO----- -
7 resolve_turn a5 e9
#? [placed status white_wins]

# CONTRACT Commands every game has: white wins scores W+1
8 final_score
#? [W\+1]

# S9: a line that formed and broke within the turn never counts: black completes
# a5..e5 with e5, white's e3 captures e4 and the new e5 (S7)
#   4 . . . . X . . . .
#   5 X X X X . . . . .
#   6 . . . . O . . . .
#   eggs oldest first: none
set_position -------------------------------X----XXXX---------O------------------------------- -
9 resolve_turn e5 e3
#? [step 1 captures 0 1 captured_black e4 e5 status ongoing]

# S9: a line of six (6 winning turtles) beats a line of five (5)
#   1 X X X X . X . . .
#   9 O O O O . . . . .
#   eggs oldest first: none
set_position XXXX-X------------------------------------------------------------------OOOO----- -
10 resolve_turn e1 e9
#? [placed status black_wins]

# S9: two crossing lines of five sharing a turtle count 9, beating white's seven
#   3 . . X . . . . . .
#   4 . . X . . . . . .
#   5 X X . X X . . . .
#   6 . . X . . . . . .
#   7 . . X . . . . . .
#   9 O O O O . O O . .
#   eggs oldest first: none
set_position --------------------X--------X------XX-XX------X--------X---------------OOOO-OO-- -
11 resolve_turn c5 e9
#? [placed status black_wins]

# S9: equal positive counts (5 and 5): sudden death, play goes on
#   1 . O . . . . . . .
#   2 X X X X . . . . .
#   3 . X . . . . . . .
#   6 . . O . . . . . .
#   7 . O O O O . . . .
#   8 . . X . . . . . .
#   9 X X X X . . . . .
#   eggs oldest first: none
set_position -O-------XXXX------X---------------------------O-------OOOO------X------XXXX----- -
12 resolve_turn e2 f7
#? [placed status sudden_death]

# S9: status reports sudden death
13 status
#? [sudden_death]

# CONTRACT Commands every game has: a game not over scores 0
14 final_score
#? [0]

# S9: the counts are taken afresh after every turn: still equal, still sudden death
15 resolve_turn i5 h5
#? [placed status sudden_death]

# S9: sudden death resolved by extending a line: 6 against 5
undo
16 resolve_turn f2 i5
#? [placed status black_wins]

# S9: sudden death resolved by a second line: black's a9..e9 makes 10 against 5
undo
17 resolve_turn e9 i5
#? [placed status black_wins]

# S9: sudden death resolved by breaking the other line: c5 captures c6 c7 (against
# c8), white's line b7..f7 is broken
undo
18 resolve_turn c5 i5
#? [step 1 captures 1 0 captured_white c6 c7 status black_wins]

# S9: both lines broken in one turn: back to normal play
#   1 . O . . . . . . .
#   2 X X X X . . . . .
#   3 . X . . . . . . .
#   6 . . O . . . . . .
#   7 . O O O O . . . .
#   8 . . X . . . . . .
#   eggs oldest first: none
set_position -O-------XXXX------X---------------------------O-------OOOO------X--------------- -
19 resolve_turn e2 f7
#? [placed status sudden_death]

# S9: black's c5 breaks white's line (c6 c7 against c8), white's b4 breaks black's
# (b3 b2 against b1): both counts 0, the game goes on
20 resolve_turn c5 b4
#? [step 1 captures 1 1 captured_black b2 b3 captured_white c6 c7 status ongoing]

# S9: the status is back to ongoing
21 status
#? [ongoing]

# S9: the game may enter sudden death again: both rebuild
22 resolve_turn b2 c7
#? [placed status sudden_death]

# S9 RULING: the board full without a win is a draw
#   5 . E E E E E E E .
#   (undrawn cells: E)
#   eggs oldest first: a1, b1, c1, d1, e1, f1, g1, h1, i1, a2, b2, c2, d2, e2, f2, g2, h2, i2, a3, b3, c3, d3, e3, f3, g3, h3, i3, a4, b4, c4, d4, e4, f4, g4, h4, i4, b5, c5, d5, e5, f5, g5, h5, a6, b6, c6, d6, e6, f6, g6, h6, i6, a7, b7, c7, d7, e7, f7, g7, h7, i7, a8, b8, c8, d8, e8, f8, g8, h8, i8, a9, b9, c9, d9, e9, f9, g9, h9, i9
set_position EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE-EEEEEEE-EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE a1,b1,c1,d1,e1,f1,g1,h1,i1,a2,b2,c2,d2,e2,f2,g2,h2,i2,a3,b3,c3,d3,e3,f3,g3,h3,i3,a4,b4,c4,d4,e4,f4,g4,h4,i4,b5,c5,d5,e5,f5,g5,h5,a6,b6,c6,d6,e6,f6,g6,h6,i6,a7,b7,c7,d7,e7,f7,g7,h7,i7,a8,b8,c8,d8,e8,f8,g8,h8,i8,a9,b9,c9,d9,e9,f9,g9,h9,i9
23 all_legal black
#? [a5 i5]

# S9 RULING: both turtles land, the board is full, nobody has five: a draw
24 resolve_turn a5 i5
#? [placed status draw]

# CONTRACT Commands every game has: a draw scores 0
25 final_score
#? [0]

# S9: a full board has no further turn
26 all_legal white
#? []

# S9: with exactly one empty cell both players must pick it: a collision, which
# fills the board: a draw
#   5 . E E E E E E E E
#   (undrawn cells: E)
#   eggs oldest first: a1, b1, c1, d1, e1, f1, g1, h1, i1, a2, b2, c2, d2, e2, f2, g2, h2, i2, a3, b3, c3, d3, e3, f3, g3, h3, i3, a4, b4, c4, d4, e4, f4, g4, h4, i4, b5, c5, d5, e5, f5, g5, h5, i5, a6, b6, c6, d6, e6, f6, g6, h6, i6, a7, b7, c7, d7, e7, f7, g7, h7, i7, a8, b8, c8, d8, e8, f8, g8, h8, i8, a9, b9, c9, d9, e9, f9, g9, h9, i9
set_position EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE-EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE a1,b1,c1,d1,e1,f1,g1,h1,i1,a2,b2,c2,d2,e2,f2,g2,h2,i2,a3,b3,c3,d3,e3,f3,g3,h3,i3,a4,b4,c4,d4,e4,f4,g4,h4,i4,b5,c5,d5,e5,f5,g5,h5,i5,a6,b6,c6,d6,e6,f6,g6,h6,i6,a7,b7,c7,d7,e7,f7,g7,h7,i7,a8,b8,c8,d8,e8,f8,g8,h8,i8,a9,b9,c9,d9,e9,f9,g9,h9,i9
27 all_legal white
#? [a5]

# S9: the forced collision
28 resolve_turn a5 a5
#? [collision a5 status draw]

# S9 RULING: the board is full in sudden death: a draw
#   1 X X X X X E E E E
#   5 . E E E E E E E E
#   9 O O O O O E E E E
#   (undrawn cells: E)
#   eggs oldest first: f1, g1, h1, i1, a2, b2, c2, d2, e2, f2, g2, h2, i2, a3, b3, c3, d3, e3, f3, g3, h3, i3, a4, b4, c4, d4, e4, f4, g4, h4, i4, b5, c5, d5, e5, f5, g5, h5, i5, a6, b6, c6, d6, e6, f6, g6, h6, i6, a7, b7, c7, d7, e7, f7, g7, h7, i7, a8, b8, c8, d8, e8, f8, g8, h8, i8, f9, g9, h9, i9
set_position XXXXXEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE-EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEOOOOOEEEE f1,g1,h1,i1,a2,b2,c2,d2,e2,f2,g2,h2,i2,a3,b3,c3,d3,e3,f3,g3,h3,i3,a4,b4,c4,d4,e4,f4,g4,h4,i4,b5,c5,d5,e5,f5,g5,h5,i5,a6,b6,c6,d6,e6,f6,g6,h6,i6,a7,b7,c7,d7,e7,f7,g7,h7,i7,a8,b8,c8,d8,e8,f8,g8,h8,i8,f9,g9,h9,i9
29 status
#? [sudden_death]

# S9 RULING: the last cell fills by collision: a draw, even in sudden death
30 resolve_turn a5 a5
#? [collision a5 status draw]

# S9 / CONTRACT What the Shell: a set position's status is computed from its board
#   5 . . O O O O O . .
#   eggs oldest first: none
set_position --------------------------------------OOOOO-------------------------------------- -
31 status
#? [white_wins]

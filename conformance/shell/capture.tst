# extension: position set_position
# What the Shell: the capture pattern (S5), only the closer captures (S6),
# simultaneous captures (S7).
set_game shell

# S5: N x x C: a1 flanks white b1, c1 against black d1
#   1 . O O X . . . . .
#   eggs oldest first: none
set_position -OOX----------------------------------------------------------------------------- -
1 resolve_turn a1 i9
#? [step 1 captures 1 0 captured_white b1 c1 status ongoing]

# S5: the two flanked turtles left the board
#   expected:
#   1 X . . X . . . . .
#   9 . . . . . . . . O
#   eggs oldest first: none
2 position
#? [X--X----------------------------------------------------------------------------O -]

# S5: the same for white: a1 flanks black b1, c1 against white d1
#   1 . X X O . . . . .
#   eggs oldest first: none
set_position -XXO----------------------------------------------------------------------------- -
3 resolve_turn i9 a1
#? [step 1 captures 0 1 captured_black b1 c1 status ongoing]

# S5: two eggs are flanked like turtles; the claim finds no egg left (S8)
#   1 . E E X . . . . .
#   eggs oldest first: c1, b1
set_position -EEX----------------------------------------------------------------------------- c1,b1
4 resolve_turn a1 i9
#? [step 1 captures 1 0 captured_egg b1 c1 status ongoing]

# S5: the captured eggs are gone from the board and from the list
#   expected:
#   1 X . . X . . . . .
#   9 . . . . . . . . O
#   eggs oldest first: none
5 position
#? [X--X----------------------------------------------------------------------------O -]

# S5: a turtle and an egg in a mix; the captured egg c1 was the oldest, so the
# claim takes the next one, i9 (S8)
#   1 . O E X . . . . .
#   9 . . . . . . . . E
#   eggs oldest first: c1, i9
set_position -OEX----------------------------------------------------------------------------E c1,i9
6 resolve_turn a1 e5
#? [step 1 captures 1 0 captured_white b1 captured_egg c1 hatched_black i9 status ongoing]

# S5: exactly two: N x C (one flanked turtle) does not capture
#   1 . O X . . . . . .
#   3 . O O O X . . . .
#   eggs oldest first: none
set_position -OX----------------OOOX---------------------------------------------------------- -
7 resolve_turn a1 i9
#? [placed status ongoing]

# S5: exactly two: N x x x C (three flanked turtles) does not capture
8 resolve_turn a3 i8
#? [placed status ongoing]

# S5: nothing left the board
#   expected:
#   1 X O X . . . . . .
#   3 X O O O X . . . .
#   8 . . . . . . . . O
#   9 . . . . . . . . O
#   eggs oldest first: none
9 position
#? [XOX---------------XOOOX------------------------------------------------O--------O -]

# S5: the flank must end on a turtle of the capturer: an egg at the end does not
# capture
#   1 . O O E . . . O O
#   2 X . . . . . . . .
#   3 . O O . X . . . .
#   eggs oldest first: d1
set_position -OOE---OOX---------OO-X---------------------------------------------------------- d1
10 resolve_turn a1 e9
#? [placed status ongoing]

# S5: an empty cell inside the flank does not capture
#   1 . O O E . . . O O
#   2 X . . . . . . . .
#   3 . O O . X . . . .
#   eggs oldest first: d1
set_position -OOE---OOX---------OO-X---------------------------------------------------------- d1
11 resolve_turn a3 e9
#? [placed status ongoing]

# S5: the board's edge closes nothing, and rows do not wrap (h1, i1, then a2 is no
# continuation)
#   1 . O O E . . . O O
#   2 X . . . . . . . .
#   3 . O O . X . . . .
#   eggs oldest first: d1
set_position -OOE---OOX---------OO-X---------------------------------------------------------- d1
12 resolve_turn g1 e9
#? [placed status ongoing]

# S5: vertical and diagonal flanks capture too; each matching direction is a
# capture and claims an egg: e5 closes north-west (d4 c3 against b2), east (f5 g5
# against h5) and south (e6 and the egg e7 against e8). The oldest egg e7 is
# captured; the three claims take g9, a9, i9 (oldest first); c9 stays
#   2 . X . . . . . . .
#   3 . . O . . . . . .
#   4 . . . O . . . . .
#   5 . . . . . O O X .
#   6 . . . . O . . . .
#   7 . . . . E . . . .
#   8 . . . . X . . . .
#   9 E . E . . . E . E
#   eggs oldest first: e7, g9, a9, i9, c9
set_position ----------X---------O---------O----------OOX-----O--------E--------X----E-E---E-E e7,g9,a9,i9,c9
13 resolve_turn e5 i1
#? [step 1 captures 3 0 captured_white c3 d4 f5 g5 e6 captured_egg e7 hatched_black a9 g9 i9 status ongoing]

# S5 / S8: after: the hatched a9 g9 i9, the egg c9 left
#   expected:
#   1 . . . . . . . . O
#   2 . X . . . . . . .
#   5 . . . . X . . X .
#   8 . . . . X . . . .
#   9 X . E . . . X . X
#   eggs oldest first: c9
14 position
#? [--------O-X-----------------------------X--X-----------------------X----X-E---X-X c9]

# S6: placing a turtle into the middle of an enemy flank is safe: white c1 between
# black a1 and d1 is not captured, and the egg i9 is not claimed
#   1 X O . X . . . . .
#   9 . . . . . . . . E
#   eggs oldest first: i9
set_position XO-X----------------------------------------------------------------------------E i9
15 resolve_turn e5 c1
#? [placed status ongoing]

# S6: after: b1 c1 stay white
#   expected:
#   1 X O O X . . . . .
#   5 . . . . X . . . .
#   9 . . . . . . . . E
#   eggs oldest first: i9
16 position
#? [XOOX------------------------------------X---------------------------------------E i9]

# S6: an old turtle never captures: a later quiet turn leaves the flank alone
17 resolve_turn i1 h1
#? [placed status ongoing]

# S7: anticipatory capture: white's new c1 is flanked with b1 by black's new a1
#   1 . O . X . . . . .
#   eggs oldest first: none
set_position -O-X----------------------------------------------------------------------------- -
18 resolve_turn a1 c1
#? [step 1 captures 1 0 captured_white b1 c1 status ongoing]

# S7: after: both white turtles gone
#   expected:
#   1 X . . X . . . . .
#   eggs oldest first: none
19 position
#? [X--X----------------------------------------------------------------------------- -]

# S7 / S8: worked example A: mutual capture; black's c5 is being captured by white's
# c3 and still captures d5, e5; b = w = 1, the oldest egg e9 vanishes, i9 stays
#   4 . . X . . . . . .
#   5 . . . O O X . . .
#   6 . . O . . . . . .
#   9 . . . . E . . . E
#   eggs oldest first: e9, i9
set_position -----------------------------X---------OOX-----O----------------------------E---E e9,i9
20 resolve_turn c5 c3
#? [step 1 captures 1 1 captured_black c4 c5 captured_white d5 e5 vanished e9 status ongoing]

# S7: worked example A, after
#   expected:
#   3 . . O . . . . . .
#   5 . . . . . X . . .
#   6 . . O . . . . . .
#   9 . . . . . . . . E
#   eggs oldest first: i9
21 position
#? [--------------------O--------------------X-----O--------------------------------E i9]

# S5 RULING: two turtles hatched in the same step close one flank from both ends:
# one capture, not two. Step 1: e3 captures twice, a9 and d9 hatch black. Step 2:
# a9 and d9 close b9 c9: one capture, so only i5 hatches; a5 stays
#   3 . X O O . O O X .
#   5 E . . . . . . . E
#   9 E O O E . . . . .
#   eggs oldest first: a9, d9, i5, a5
set_position -------------------XOO-OOX----------E-------E---------------------------EOOE----- a9,d9,i5,a5
22 resolve_turn e3 i1
#? [step 1 captures 2 0 captured_white c3 d3 f3 g3 hatched_black a9 d9 ; step 2 captures 1 0 captured_white b9 c9 hatched_black i5 status ongoing]

# S5 RULING: the egg a5 is still there
#   expected:
#   1 . . . . . . . . O
#   3 . X . . X . . X .
#   5 E . . . . . . . X
#   9 X . . X . . . . .
#   eggs oldest first: a5
23 position
#? [--------O----------X--X--X----------E-------X---------------------------X--X----- a5]

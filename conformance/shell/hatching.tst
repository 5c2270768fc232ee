# extension: position set_position
# What the Shell: hatching (S8) and its rulings, worked examples B and C.
set_game shell

# S8: a capture claims the oldest egg: i9 is older than a9 and hatches black
#   1 . O O X . . . . .
#   9 E . . . . . . . E
#   eggs oldest first: i9, a9
set_position -OOX--------------------------------------------------------------------E-------E i9,a9
1 resolve_turn a1 e5
#? [step 1 captures 1 0 captured_white b1 c1 hatched_black i9 status ongoing]

# S8: a9 is still an egg; i9 is a black turtle
#   expected:
#   1 X . . X . . . . .
#   5 . . . . O . . . .
#   9 E . . . . . . . X
#   eggs oldest first: a9
2 position
#? [X--X------------------------------------O-------------------------------E-------X a9]

# S8: a white capture hatches the oldest egg white
#   1 . X X O . . . . .
#   9 E . . . . . . . E
#   eggs oldest first: i9, a9
set_position -XXO--------------------------------------------------------------------E-------E i9,a9
3 resolve_turn e5 a1
#? [step 1 captures 0 1 captured_black b1 c1 hatched_white i9 status ongoing]

# S8 RULING: b = w = 2: the two oldest eggs (g9, i9) are claimed by both and vanish
# for nobody; the third (c9) stays
#   3 . X X O . . . . .
#   4 X . . . . . . . .
#   5 X X O O . O O X .
#   6 O . . . . . . . .
#   9 . . E . . . E . E
#   eggs oldest first: g9, i9, c9
set_position -------------------XXO-----X--------XXOO-OOX-O----------------------------E---E-E g9,i9,c9
4 resolve_turn e5 a3
#? [step 1 captures 2 2 captured_black b3 c3 a4 a5 captured_white c5 d5 f5 g5 vanished g9 i9 status ongoing]

# S8 RULING: after: g9 i9 vanished, c9 still an egg
#   expected:
#   3 O . . O . . . . .
#   5 . X . . X . . X .
#   6 O . . . . . . . .
#   9 . . E . . . . . .
#   eggs oldest first: c9
5 position
#? [------------------O--O---------------X--X--X-O----------------------------E------ c9]

# S8 / worked example C: black's e5 captures twice (f5 g5 against h5; e6 and the
# egg e7 against e8), white's a1 once (b1 c1 against d1). The egg e7 is gone with
# the capture; b = 2, w = 1: the oldest egg a9 vanishes, the next, i9, hatches
# black, i1 stays
#   1 . X X O . . . . E
#   5 . . . . . O O X .
#   6 . . . . O . . . .
#   7 . . . . E . . . .
#   8 . . . . X . . . .
#   9 E . . . . . . . E
#   eggs oldest first: a9, e7, i9, i1
set_position -XXO----E--------------------------------OOX-----O--------E--------X----E-------E a9,e7,i9,i1
6 resolve_turn e5 a1
#? [step 1 captures 2 1 captured_black b1 c1 captured_white f5 g5 e6 captured_egg e7 hatched_black i9 vanished a9 status ongoing]

# S8: worked example C, after
#   expected:
#   1 O . . O . . . . E
#   5 . . . . X . . X .
#   8 . . . . X . . . .
#   9 . . . . . . . . X
#   eggs oldest first: i1
7 position
#? [O--O----E-------------------------------X--X-----------------------X------------X i1]

# S8: with no egg on the board a capture hatches nothing...
#   1 . O O X . . . . .
#   eggs oldest first: none
set_position -OOX----------------------------------------------------------------------------- -
8 resolve_turn a1 i5
#? [step 1 captures 1 0 captured_white b1 c1 status ongoing]

# S8: ...and the claim is not saved: a later egg is not claimed
9 resolve_turn i9 i9
#? [collision i9 status ongoing]

# S8: a quiet turn after it hatches nothing
10 resolve_turn e5 a9
#? [placed status ongoing]

# S8: i9 is still an egg
#   expected:
#   1 X . . X . . . . .
#   5 . . . . X . . . O
#   9 O . . . . . . . E
#   eggs oldest first: i9
11 position
#? [X--X------------------------------------X---O---------------------------O-------E i9]

# S8 RULING / worked example B: a hatching chain. Step 1: a1 captures b1 c1, the
# oldest egg g7 hatches black. Step 2: the new g7 captures f7 e7 against d7, the
# next egg a9 hatches black. Step 3: a9 captures nothing; the turn ends
#   1 . O O X . . . . .
#   7 . . . X O O E . .
#   9 E . . . . . . . .
#   eggs oldest first: g7, a9
set_position -OOX-----------------------------------------------------XOOE-----------E-------- g7,a9
12 resolve_turn a1 i5
#? [step 1 captures 1 0 captured_white b1 c1 hatched_black g7 ; step 2 captures 1 0 captured_white e7 f7 hatched_black a9 status ongoing]

# S8 RULING: worked example B, after
#   expected:
#   1 X . . X . . . . .
#   5 . . . . . . . . O
#   7 . . . X . . X . .
#   9 X . . . . . . . .
#   eggs oldest first: none
13 position
#? [X--X----------------------------------------O------------X--X-----------X-------- -]

# S8 RULING: a hatched turtle captures even with no egg left to hatch: step 2's
# capture by g7 has no egg to claim but still removes e7 f7
#   1 . O O X . . . . .
#   7 . . . X O O E . .
#   eggs oldest first: g7
set_position -OOX-----------------------------------------------------XOOE-------------------- g7
14 resolve_turn a1 i5
#? [step 1 captures 1 0 captured_white b1 c1 hatched_black g7 ; step 2 captures 1 0 captured_white e7 f7 status ongoing]

# S8 RULING: after: e7 f7 removed although no egg hatched
#   expected:
#   1 X . . X . . . . .
#   5 . . . . . . . . O
#   7 . . . X . . X . .
#   eggs oldest first: none
15 position
#? [X--X----------------------------------------O------------X--X-------------------- -]

# S8 RULING: the same chain for white: the hatched white g7 captures in step 2
#   1 . X X O . . . . .
#   7 . . . O X X E . .
#   9 E . . . . . . . .
#   eggs oldest first: g7, a9
set_position -XXO-----------------------------------------------------OXXE-----------E-------- g7,a9
16 resolve_turn i5 a1
#? [step 1 captures 0 1 captured_black b1 c1 hatched_white g7 ; step 2 captures 0 1 captured_black e7 f7 hatched_white a9 status ongoing]

# S8 RULING: the mirrored worked example B, after
#   expected:
#   1 O . . O . . . . .
#   5 . . . . . . . . X
#   7 . . . O . . O . .
#   9 O . . . . . . . .
#   eggs oldest first: none
17 position
#? [O--O----------------------------------------X------------O--O-----------O-------- -]

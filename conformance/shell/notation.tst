# extension: position set_position
# What the Shell: the position notation carries the egg order (S10).
set_game shell

# S10: a position is read back the same, eggs in the given order (not board order)
#   1 E . . . . . . . .
#   3 . . X . . . . . .
#   4 . . . O . O O X .
#   5 . . . . E . . . .
#   9 . . . . . . . . E
#   eggs oldest first: i9, a1, e5
set_position E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5
#   expected:
#   1 E . . . . . . . .
#   3 . . X . . . . . .
#   4 . . . O . O O X .
#   5 . . . . E . . . .
#   9 . . . . . . . . E
#   eggs oldest first: i9, a1, e5
1 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10 / S8: the egg order decides which egg a capture hatches: e4 captures f4 g4
# (against h4) and the oldest egg, i9, hatches black; a1 would be first in board order
2 resolve_turn e4 h8
#? [step 1 captures 1 0 captured_white f4 g4 hatched_black i9 status ongoing]

# S10: the remaining eggs keep their order
#   expected:
#   1 E . . . . . . . .
#   3 . . X . . . . . .
#   4 . . . O X . . X .
#   5 . . . . E . . . .
#   8 . . . . . . . O .
#   9 . . . . . . . . X
#   eggs oldest first: a1, e5
3 position
#? [E-------------------X---------OX--X-----E-----------------------------O---------X a1,e5]

# S10 / CONTRACT Commands every game has: undo goes back to the set position...
undo
4 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10 / CONTRACT Commands every game has: ...and no further: a set position has no
# history
undo
5 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: the same board with another egg order is another position: a1 oldest
set_position E-------------------X---------O-OOX-----E---------------------------------------E a1,e5,i9
6 resolve_turn e4 h8
#? [step 1 captures 1 0 captured_white f4 g4 hatched_black a1 status ongoing]

# S10: a board that is not 81 characters is refused, nothing changes
set_position E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5
set_position -------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5
7 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: a character other than X O - E is refused
set_position E-------------------X---------O-OOX-----E---------------------------------------Z i9,a1,e5
8 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: a missing egg list is refused
set_position E-------------------X---------O-OOX-----E---------------------------------------E
9 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: every E must be in the list: an egg left out is refused
set_position E-------------------X---------O-OOX-----E---------------------------------------E i9,a1
10 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: a list of no eggs while the board has eggs is refused
set_position E-------------------X---------O-OOX-----E---------------------------------------E -
11 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: a listed cell that is not an E is refused
set_position E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5,c3
12 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: a cell listed twice is refused
set_position E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5,a1
13 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: text after the list is refused
set_position E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5 x
14 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

# S10: the empty board has the egg list -
set_position --------------------------------------------------------------------------------- -
15 position
#? [--------------------------------------------------------------------------------- -]

# S10: egg cells are read in any case and printed lowercase
set_position E-------------------X---------O-OOX-----E---------------------------------------E I9,A1,E5
16 position
#? [E-------------------X---------O-OOX-----E---------------------------------------E i9,a1,e5]

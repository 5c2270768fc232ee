# extension: position set_position
# What the Shell: collisions and the age order of eggs (S4, S10).
set_game shell

# S4: both pick e5: no turtle lands, an egg appears there
1 resolve_turn e5 e5
#? [collision e5 status ongoing]

# S4 / S10: the egg is in the notation and in the egg list
2 position
#? [----------------------------------------E---------------------------------------- e5]

# S4: an egg blocks its cell for both players
3 is_legal black e5
#? [false]

# S4: an egg blocks its cell: a pick on it is refused, nothing changes
resolve_turn e5 a1
4 position
#? [----------------------------------------E---------------------------------------- e5]

# S4: eggs are remembered oldest first, in the order they were created
resolve_turn a1 a1
resolve_turn i9 i9
5 resolve_turn c3 c3
#? [collision c3 status ongoing]

# S4 / S10: the egg list is e5, a1, i9, c3: creation order, not board order
#   expected:
#   1 E . . . . . . . .
#   3 . . E . . . . . .
#   5 . . . . E . . . .
#   9 . . . . . . . . E
#   eggs oldest first: e5, a1, i9, c3
6 position
#? [E-------------------E-------------------E---------------------------------------E e5,a1,i9,c3]

# CONTRACT Commands every game has: undo takes back the collision turn and its egg
undo
#   expected:
#   1 E . . . . . . . .
#   5 . . . . E . . . .
#   9 . . . . . . . . E
#   eggs oldest first: e5, a1, i9
7 position
#? [E---------------------------------------E---------------------------------------E e5,a1,i9]

# S4: a collision has no captures: black alone on c5 would capture d5 and e5
#   5 . . . O O X . . .
#   9 . . . . . . . . E
#   eggs oldest first: i9
set_position ---------------------------------------OOX--------------------------------------E i9
8 resolve_turn c5 c5
#? [collision c5 status ongoing]

# S4: d5 and e5 stay, c5 is an egg, the newest after i9; nothing hatched (S8)
#   expected:
#   5 . . E O O X . . .
#   9 . . . . . . . . E
#   eggs oldest first: i9, c5
9 position
#? [--------------------------------------EOOX--------------------------------------E i9,c5]


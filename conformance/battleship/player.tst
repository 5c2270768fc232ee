# extension: position set_position
# Battleship in player mode: the session knows only black's fleet; black's shots at
# white's unknown sea come with their results, which the session checks are possible
# (B2-B6). Black's fleet: J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
set_game battleship
fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
ready white

# B9: an unknown fleet counts as placed out of sight: the game starts
1 start
#? [black]

# CONTRACT Battleship: white's fleet is unknown (-)
2 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: without the fleet the session can not judge: a shot without
# its result is refused, nothing changes
play black A1
# CONTRACT Battleship: the unjudged shot was refused
3 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B4 / CONTRACT Battleship: the caller gives the result: a hit
4 play black A1 hit
#? [hit]

# B4: after a hit black shoots again; A1-A2 is a destroyer
5 play black a2 sunk destroyer
#? [sunk destroyer]

# B5 / B6: the ring of A1-A2 is spent: a hit on B3 (its corner) is impossible,
# refused, nothing changes
play black B3 hit
# B6: the ringed shot was refused
6 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer offers=-- score=0,0,0 clocks=-,-]

# B5 / B6: a miss on the ring cell A3 is refused too: it is spent
play black A3 miss
# B6: the ringed shot was refused
7 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer offers=-- score=0,0,0 clocks=-,-]

# B6: the ring cells are not legal
8 is_legal black B1
#? [false]

# B2 / B4: a single hit sunk is a boat
9 play black C5 sunk boat
#? [sunk boat]

# B2 / B4: a single hit can not be a sunk cruiser (3 cells): refused, nothing changes
play black E5 sunk cruiser
# B2: the impossible sinking was refused
10 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer,C5:sunk-boat offers=-- score=0,0,0 clocks=-,-]

play black E5 sunk boat
play black G5 sunk boat
# B2: the fourth boat
11 play black I5 sunk boat
#? [sunk boat]

# B2: a fleet has four boats: a fifth sunk boat is impossible, refused
play black E9 sunk boat
# B2: the fifth boat was refused
12 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer,C5:sunk-boat,E5:sunk-boat,G5:sunk-boat,I5:sunk-boat offers=-- score=0,0,0 clocks=-,-]

# B4: a hit on an unknown ship
13 play black E7 hit
#? [hit]

# B3: ships never touch by a corner, so a hit diagonal to the hit E7 is impossible:
# refused
play black F8 hit
# B3: the refused shot left F8 unshot
14 is_legal black F8
#? [true]

# B2 / B4: E7 E8 sunk: a destroyer (two cells)
15 play black E8 sunk destroyer
#? [sunk destroyer]

# B4: a miss passes the turn
16 play black J10 miss
#? [miss]

# B4: black has no shot now
17 all_legal black
#? []

# CONTRACT Battleship: white's shots at black's known fleet are judged: J1 holds the battleship
18 play white J1
#? [hit]

# CONTRACT Battleship: a result for the known fleet must agree: J2 is no miss,
# refused
play white J2 miss
# CONTRACT Battleship: the disagreeing result was refused
19 position
#? [game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer,C5:sunk-boat,E5:sunk-boat,G5:sunk-boat,I5:sunk-boat,E7:hit,E8:sunk-destroyer,J10:miss,J1:hit offers=-- score=0,0,0 clocks=-,-]

# B4: judged
20 play white J2
#? [hit]

# CONTRACT Battleship: the player session's position round-trips
set_game battleship
set_position game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer,C5:sunk-boat,E5:sunk-boat,G5:sunk-boat,I5:sunk-boat,E7:hit,E8:sunk-destroyer,J10:miss,J1:hit,J2:hit offers=-- score=0,0,0 clocks=-,-
# CONTRACT Battleship: read back the same
21 position
#? [game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer,C5:sunk-boat,E5:sunk-boat,G5:sunk-boat,I5:sunk-boat,E7:hit,E8:sunk-destroyer,J10:miss,J1:hit,J2:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Commands every game has: a set position has no history
undo
# CONTRACT Battleship: undo after set_position is refused (no history)
22 position
#? [game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer,C5:sunk-boat,E5:sunk-boat,G5:sunk-boat,I5:sunk-boat,E7:hit,E8:sunk-destroyer,J10:miss,J1:hit,J2:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: reg_genmove answers a cell white may shoot (not J1, J2: shot)
23 reg_genmove white
#? [!(J1|J2)]

# CONTRACT Battleship: the answer is a cell
24 reg_genmove white
#? [[A-J]([1-9]|10)]

# CONTRACT Battleship: reg_genmove never fires
25 position
#? [game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,A2:sunk-destroyer,C5:sunk-boat,E5:sunk-boat,G5:sunk-boat,I5:sunk-boat,E7:hit,E8:sunk-destroyer,J10:miss,J1:hit,J2:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: black's fleet is known, so genmove fires and answers the judged result
26 genmove white
#? [[A-J]([1-9]|10) (miss|hit|sunk (battleship|cruiser|destroyer|boat))]

# A claimed miss is checked like a hit or a sinking: refused when no fleet explains it.
set_game battleship
fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
ready white
start
play black A1 hit
play black B1 miss
play white A10
# B4 / B5: A1 is hit; with B1 water, a miss at A2 would close it at the edge: A1
# would be a whole boat never reported sunk. Refused, nothing changes
play black A2 miss
# B4: the impossible miss was refused
27 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=A1:hit,B1:miss,A10:miss offers=-- score=0,0,0 clocks=-,-]

# B5: A2 is still open
28 is_legal black A2
#? [true]

# B4: the room left around A1 is A2 and beyond: a hit there is possible
29 play black A2 hit
#? [hit]

# B4 / B5: all three destroyers sunk; J10 hit and I10 water leave J10's ship room
# only upwards; a miss at J8 would leave J9-J10, a destroyer, and none is afloat
set_game battleship
fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
ready white
start
play black C1 hit
play black C2 sunk destroyer
play black E1 hit
play black E2 sunk destroyer
play black G1 hit
play black G2 sunk destroyer
play black J10 hit
play black I10 miss
play white A10
# B4: the impossible miss at J8 is refused, nothing changes
play black J8 miss
# B4: the refused miss left the shots as they were
30 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=- shots=C1:hit,C2:sunk-destroyer,E1:hit,E2:sunk-destroyer,G1:hit,G2:sunk-destroyer,J10:hit,I10:miss,A10:miss offers=-- score=0,0,0 clocks=-,-]

# B4: a miss at J7 still leaves J8-J10, a cruiser
31 play black J7 miss
#? [miss]

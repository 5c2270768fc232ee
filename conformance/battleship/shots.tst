# extension: position set_position
# Battleship: shots and their results (B4), no repeats (B5), rings (B6).
# White's fleet: A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
# Black's fleet: J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
set_game battleship
fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
ready white
start

# B4: black shoots first; white has no legal shot now
1 all_legal white
#? []

# B4: white is not to shoot
2 is_legal white A1
#? [false]

# B4: white shooting out of turn is refused, nothing changes
play white A1
3 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B4: A1 holds white's battleship: hit
4 play black A1
#? [hit]

# B4: after a hit the same player shoots again
5 is_legal black A2
#? [true]

# B4: after a hit white is still not to shoot
6 all_legal white
#? []

# B5: a cell already shot can not be shot again: refused, nothing changes
play black A1
7 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit offers=-- score=0,0,0 clocks=-,-]

# B5: a cell already shot is not legal
8 is_legal black A1
#? [false]

# B4: a hit, a hit
play black A2
9 play black a3
#? [hit]

# B4: the fourth cell sinks the battleship, answered with its type
10 play black A4
#? [sunk battleship]

# B6: the ring around A1-A4 is spent: B1..B5 and A5, corners included
11 is_legal black B1
#? [false]

# B6: the ring: the side cell B3
12 is_legal black B3
#? [false]

# B6: the ring: the end cell A5
13 is_legal black A5
#? [false]

# B6: the ring: the corner cell B5
14 is_legal black B5
#? [false]

# B6: C5 is outside the ring
15 is_legal black C5
#? [true]

# B5 / B6: a ringed cell can not be shot: refused, nothing changes
play black B2
16 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship offers=-- score=0,0,0 clocks=-,-]

# B6: the ring is spent for both views: all_legal no longer lists A5, B1-B5
17 all_legal black
#? [C1 D1 E1 F1 G1 H1 I1 J1 C2 D2 E2 F2 G2 H2 I2 J2 C3 D3 E3 F3 G3 H3 I3 J3 C4 D4 E4 F4 G4 H4 I4 J4 C5 D5 E5 F5 G5 H5 I5 J5 A6 B6 C6 D6 E6 F6 G6 H6 I6 J6 A7 B7 C7 D7 E7 F7 G7 H7 I7 J7 A8 B8 C8 D8 E8 F8 G8 H8 I8 J8 A9 B9 C9 D9 E9 F9 G9 H9 I9 J9 A10 B10 C10 D10 E10 F10 G10 H10 I10 J10]

# B4: a boat sinks with one shot
18 play black A8
#? [sunk boat]

# B6: the boat's ring: A7, B7, B8, B9, A9
19 is_legal black B9
#? [false]

# B4: the destroyer A6-B6: hit, then sunk
20 play black B6
#? [hit]

# B4: the destroyer sunk
21 play black A6
#? [sunk destroyer]

# B4: the cruiser C1-C3: hit, hit, sunk
play black C2
play black C3
22 play black C1
#? [sunk cruiser]

# B4: a miss passes the turn
23 play black J10
#? [miss]

# B4: after the miss black has no legal shot
24 all_legal black
#? []

# B4: ...and white shoots
25 is_legal white J10
#? [true]

# B4 / CONTRACT Battleship: black's fleet is judged for white's shots: J1 holds the
# battleship
26 play white J1
#? [hit]

# B4: white shoots again after the hit
27 play white A1
#? [miss]

# CONTRACT Battleship: the position lists the shots in the order fired with their
# results; the shooter follows from the misses: black to shoot
28 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit,C1:sunk-cruiser,J10:miss,J1:hit,A1:miss offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Commands every game has: undo takes back one shot: white shoots again
29 undo
#? []

# CONTRACT Commands every game has: white to shoot
30 position
#? [game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit,C1:sunk-cruiser,J10:miss,J1:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Commands every game has: undo shot by shot, back over the miss: black to
# shoot
undo
undo
undo
31 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit offers=-- score=0,0,0 clocks=-,-]

# B1: a cell off the board is not legal
32 is_legal black K1
#? [false]

# B1 / CONTRACT Battleship: a shot off the board is refused, nothing changes
play black A11
33 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: a result given for a known fleet must agree with it: C1 is
# the cruiser's last cell, not a miss; refused, nothing changes
play black C1 miss
34 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: a result that agrees is accepted
35 play black C1 sunk cruiser
#? [sunk cruiser]

# CONTRACT Battleship: position and set_position round-trip
set_position game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit,C1:sunk-cruiser,J10:miss,J1:hit offers=-- score=0,0,0 clocks=-,-
36 position
#? [game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit,C1:sunk-cruiser,J10:miss,J1:hit offers=-- score=0,0,0 clocks=-,-]

# B4: white hit J1 and shoots again
37 is_legal white J2
#? [true]

# B4: black is not to shoot
38 all_legal black
#? []

# B6 / CONTRACT Battleship: set_position replays the shots, rings included: B4 is
# in the ring of the sunk battleship A1-A4
set_position game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit,C1:sunk-cruiser offers=-- score=0,0,0 clocks=-,-
39 is_legal black B4
#? [false]

# B6: D4 is in the ring of the sunk cruiser C1-C3 (its corner)
40 is_legal black D4
#? [false]

# B6: D5 is in no ring
41 is_legal black D5
#? [true]

# B6 / CONTRACT Commands every game has: undoing a sinking takes its ring back
set_position game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit offers=-- score=0,0,0 clocks=-,-
play black C1
undo
42 is_legal black D4
#? [true]

# CONTRACT Battleship: set_position refuses a shot list the rules forbid (a repeated
# shot), nothing changes
set_position game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A1:hit offers=-- score=0,0,0 clocks=-,-
43 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: set_position refuses a result that disagrees with a known
# fleet (A1 holds a ship, not water), nothing changes
set_position game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:miss offers=-- score=0,0,0 clocks=-,-
44 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: set_position refuses a stage that disagrees with the shots
# (after a miss the other player shoots), nothing changes
set_position game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A9:miss offers=-- score=0,0,0 clocks=-,-
45 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship / B5 / B6: reg_genmove never answers a cell shot or ringed
# already (the shots A1-A4, A6, B6, A8, C2, C3; the rings B1-B5, A5, A7, B7, B8, B9,
# A9, C5-C7)
46 reg_genmove black
#? [!(A[1-9]|B[1-9]|C[2-3]|C[5-7])]

# CONTRACT Battleship: reg_genmove never fires
47 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,A8:sunk-boat,B6:hit,A6:sunk-destroyer,C2:hit,C3:hit offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: the referee knows white's fleet: genmove fires and answers
# the cell and its judged result
48 genmove black
#? [[A-J]([1-9]|10) (miss|hit|sunk (battleship|cruiser|destroyer|boat))]

# extension: position
# Battleship: fleets (B2, B3) and the start (B9).
set_game battleship

# B9 / CONTRACT Battleship: a fresh table: no fleet known, no shot, score 0
1 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B1: the board is 10x10
2 boardsize 10
#? []

# B2: a fleet of one ship is refused (wrong counts), nothing changes
fleet black A1-A4
3 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B2: two destroyers and five boats (one destroyer short, one boat too many) are
# refused
fleet black A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6 A8 C8 E8 G8
4 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B2: a ship of five cells instead of the battleship is refused
fleet black A10-E10 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
5 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B3: a bent ship is refused
fleet black A1-B2 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
6 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B3: ships touching by a side are refused (the cruiser B1-B3 lies along A1-A4)
fleet black A1-A4 B8-B10 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
fleet black A1-A4 B1-B3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
7 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B3: ships touching by a corner are refused (the boat D4 touches the corners of
# the cruisers C1-C3 and E1-E3)
fleet black A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 D4
8 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B3: touching end to end is touching too (the boat A5 after A1-A4 and before A6-B6)
fleet black A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 A5
9 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B1 / B3: a ship off the board is refused (column K)
fleet black A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 K8
10 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B1 / B3: a ship running off the board is refused (row 11)
fleet black A1-A4 C1-C3 E1-E3 J10-J11 I1-I2 A6-B6 A8 C8 E8 G8
11 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B3: overlapping ships are refused (the boat A2 lies on the battleship)
fleet black A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 A2
12 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B2 / B3: a valid fleet is accepted...
13 fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
#? []

# CONTRACT Battleship: ...and printed in canonical order, joined by commas
14 position
#? [game=1 stage=setup black=- white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# CONTRACT Battleship: ships given in any order, ends either way round, cells in
# any case, print in canonical order (longest first, then by first cell)
fleet black d8 F8 H8 J8 J6-I6 B2-B1 D1-D2 F3-F1 H1-H3 J4-J1
15 position
#? [game=1 stage=setup black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B9: before the start nobody shoots: the shot is refused, nothing changes
play black A1
16 position
#? [game=1 stage=setup black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B9: before the start no shot is legal
17 is_legal black A1
#? [false]

# B9: the host starts only once the guest is ready: start is refused
start
18 position
#? [game=1 stage=setup black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B9: only the guest (white) declares ready
ready black
19 position
#? [game=1 stage=setup black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B9: the guest declares ready
20 ready white
#? []

# B9 / CONTRACT Battleship: the stage is ready
21 position
#? [game=1 stage=ready black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B9 / B7: start answers the first shooter: black, the host, in the first game
22 start
#? [black]

# B9: black is to shoot
23 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B9: a fleet can not be changed after the start, nothing changes
fleet white J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
24 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B9: the game is under way
25 status
#? [ongoing]

# B3: a fleet replaces one placed before (before the start)
set_game battleship
fleet white J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
26 position
#? [game=1 stage=setup black=- white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B3: a refused fleet leaves the fleet placed before
fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 D4
27 position
#? [game=1 stage=setup black=- white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=-,-]

# B2: genfleet makes a fleet of ten ships (4, 3, 3, 2, 2, 2, 1, 1, 1, 1 cells)
28 genfleet black
#? [([A-J]([1-9]|10)-[A-J]([1-9]|10) ){6}([A-J]([1-9]|10) ){3}[A-J]([1-9]|10)]

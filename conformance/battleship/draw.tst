# extension: position
# Battleship: draw by agreement (B8 and its ruling).
# White's fleet: A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
# Black's fleet: J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
set_game battleship
fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
ready white
start

# B8: either player may offer a draw: black offers
1 offer_draw black
#? []

# B8 / CONTRACT Battleship: the offer is pending (p), black's first
2 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=p- score=0,0,0 clocks=-,-]

# B8: one offer per player per shot: a second offer is refused, nothing changes
offer_draw black
# B8: the second offer was refused
3 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=p- score=0,0,0 clocks=-,-]

# B8: the offerer can not accept its own offer: refused, nothing changes
accept_draw black
# B8: black's accept was refused
4 status
#? [ongoing]

# B8: the other player declines
5 decline_draw white
#? []

# B8 / CONTRACT Battleship: declined, black's offer is spent until the next shot (d)
6 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=d- score=0,0,0 clocks=-,-]

# B8: declined: nothing to accept any more
accept_draw white
# B8: the accept was refused, the game goes on
7 status
#? [ongoing]

# B8: black may not offer again before a shot
offer_draw black
# B8: the repeated offer was refused
8 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=d- score=0,0,0 clocks=-,-]

# B8: a shot opens a new interval: black fires (a miss)
play black J10
# B8: after the shot black may offer again
9 offer_draw black
#? []

# B8: pending again
10 position
#? [game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=J10:miss offers=p- score=0,0,0 clocks=-,-]

# B8 RULING: a pending offer lapses with the next shot, whoever fires it: white
# shoots instead of answering, so white has declined
play white A1
# B8 RULING: the offer lapsed
11 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=J10:miss,A1:miss offers=-- score=0,0,0 clocks=-,-]

# B8 RULING: there is nothing to accept after the lapse
accept_draw white
# B8 RULING: the late accept was refused
12 status
#? [ongoing]

# B8: there is nothing to decline either
decline_draw white
# B8: the decline was refused
13 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=J10:miss,A1:miss offers=-- score=0,0,0 clocks=-,-]

# B8: white may offer (the player not to shoot)
14 offer_draw white
#? []

# B8: white's offer pending
15 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=J10:miss,A1:miss offers=-p score=0,0,0 clocks=-,-]

# B8: the offerer can not accept: refused
accept_draw white
# B8: the other player accepts: the game ends drawn
16 accept_draw black
#? []

# B8: a draw
17 status
#? [draw]

# CONTRACT Commands every game has: a draw scores 0
18 final_score
#? [0]

# B8 / B10: the table counts the draw
19 score
#? [black 0 white 0 draws 1]

# B8: after the end no shot: refused
play black A1
# B8 / CONTRACT Battleship: the stage is draw
20 position
#? [game=1 stage=draw black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=J10:miss,A1:miss offers=-- score=0,0,1 clocks=-,-]

# B8: no offer before the start: refused, nothing changes
again
offer_draw black
# B8: the offer before the start was refused
21 position
#? [game=2 stage=setup black=- white=- shots=- offers=-- score=0,0,1 clocks=-,-]

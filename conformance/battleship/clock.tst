# extension: position
# Battleship: clocks (B11 RULING).
# White's fleet: A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
# Black's fleet: J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
set_game battleship
fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8

# B11 RULING: a time control per player: 60 s main time, 5 s increment per shot,
# set with KGS's extension (CONTRACT: time_settings)
1 kgs-time_settings fischer 60 5
#? []

# B11 RULING / CONTRACT Battleship: both clocks full, in milliseconds
2 position
#? [game=1 stage=setup black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=60000/60000\+5000,60000/60000\+5000]

ready white
start
# B11 RULING: only the shooter's clock runs: a report for white (not to shoot) changes nothing
3 time_left white 0 0
#? []

# B11 RULING: white's flag does not fall while black shoots
4 status
#? [ongoing]

# B11 RULING: white's clock is untouched
5 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=60000/60000\+5000,60000/60000\+5000]

# B11 RULING: black's clock runs
6 time_left black 30 0
#? []

# B11 RULING: black has 30 s left
7 position
#? [game=1 stage=black black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=- offers=-- score=0,0,0 clocks=30000/60000\+5000,60000/60000\+5000]

# B11 RULING: black misses; the increment is added after its shot
8 play black J10
#? [miss]

# B11 RULING: 30 s + 5 s
9 position
#? [game=1 stage=white black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=J10:miss offers=-- score=0,0,0 clocks=35000/60000\+5000,60000/60000\+5000]

# B11 RULING: a clock that reaches zero loses: white's flag falls
10 time_left white 0 0
#? []

# B11 RULING: black wins on time
11 status
#? [black_wins]

# B11 RULING / B10: the table counts the win
12 score
#? [black 1 white 0 draws 0]

# B11 RULING: after the flag fell nobody shoots
play white A1
# B11 RULING: the shot was refused
13 all_legal white
#? []

# B11 RULING: a flag fall for black in a fresh table
set_game battleship
time_settings 60 0 0
fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
ready white
start
# B11 RULING: black's flag falls while it shoots
14 time_left black 0 0
#? []

# B11 RULING: white wins on time
15 status
#? [white_wins]

# CONTRACT Commands every game has: the winner with +1
16 final_score
#? [W\+1]

# CONTRACT time_settings: GTP 2's byo-yomi time > 0 with 0 stones means no time
# limit, whatever the main time: no clock (B11 RULING: a table may have none)
set_game battleship
time_settings 60 5 0
# B11 RULING: no clock
17 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# CONTRACT time_settings: GTP 2's byo-yomi time 0 is absolute time: main time alone
18 time_settings 90 0 0
#? []

# B11 RULING: 90 s each, no increment
19 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=90000/90000\+0,90000/90000\+0]

# B11 RULING: a clock is main time plus an increment: byo-yomi periods are refused,
# nothing changes
kgs-time_settings byoyomi 60 10 5
# B11 RULING: the refused clock left the clocks as they were
20 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=90000/90000\+0,90000/90000\+0]

# CONTRACT time_settings: kgs-time_settings none removes the clocks
21 kgs-time_settings none
#? []

# B11 RULING: no clock
22 position
#? [game=1 stage=setup black=- white=- shots=- offers=-- score=0,0,0 clocks=-,-]

# B11 RULING / B9: no clock runs before the start: a report before the start
# changes nothing
set_game battleship
time_settings 60 0 0
time_left black 0 0
# B11 RULING / B9: the game has not begun and nobody lost
23 status
#? [ongoing]

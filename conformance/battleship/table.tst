# extension: position
# Battleship: winning (B7), the table's score and the next game (B10), the first
# shooter alternating (B7 RULING). White's fleet: A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
# Black's fleet: J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
set_game battleship
fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
ready white
start
# B4 / B7: black's script sinks the ten ships of white's fleet without a miss

play black A1
play black A2
play black A3
play black A4
play black C1
play black C2
play black C3
play black E1
play black E2
play black E3
play black G1
play black G2
play black I1
play black I2
play black A6
play black B6
play black A8
play black C8
play black E8

# B7: the game is not over with one ship afloat
1 status
#? [ongoing]

# B7: nor is it scored yet
2 final_score
#? [0]

# B4 / B7: the last boat sinks...
3 play black G8
#? [sunk boat]

# B7: ...and black, who sank all ten ships, wins
4 status
#? [black_wins]

# CONTRACT Commands every game has: the winner with +1
5 final_score
#? [B\+1]

# B10: the table counts the win
6 score
#? [black 1 white 0 draws 0]

# B7: after the end nobody shoots: refused, nothing changes
play black J10

# B7: after the end no shot is legal
7 all_legal black
#? []

# CONTRACT Battleship: the stage is the result
8 position
#? [game=1 stage=black_wins black=J1-J4,F1-F3,H1-H3,B1-B2,D1-D2,I6-J6,D8,F8,H8,J8 white=A1-A4,C1-C3,E1-E3,G1-G2,I1-I2,A6-B6,A8,C8,E8,G8 shots=A1:hit,A2:hit,A3:hit,A4:sunk-battleship,C1:hit,C2:hit,C3:sunk-cruiser,E1:hit,E2:hit,E3:sunk-cruiser,G1:hit,G2:sunk-destroyer,I1:hit,I2:sunk-destroyer,A6:hit,B6:sunk-destroyer,A8:sunk-boat,C8:sunk-boat,E8:sunk-boat,G8:sunk-boat offers=-- score=1,0,0 clocks=-,-]

# B10: again prepares the next game at the same table
9 again
#? []

# B10: game 2, fleets placed anew, the score kept
10 position
#? [game=2 stage=setup black=- white=- shots=- offers=-- score=1,0,0 clocks=-,-]

# B10: the score is kept
11 score
#? [black 1 white 0 draws 0]

fleet black J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8
fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8
ready white

# B7 RULING: in the second game of the table white shoots first
12 start
#? [white]

# B7 RULING: black is not to shoot
13 is_legal black A1
#? [false]

# B4 / B7: white sinks black's ten ships

play white J1
play white J2
play white J3
play white J4
play white F1
play white F2
play white F3
play white H1
play white H2
play white H3
play white B1
play white B2
play white D1
play white D2
play white I6
play white J6
play white D8
play white F8
play white H8
play white J8

# B7: white wins game 2
14 status
#? [white_wins]

# CONTRACT Commands every game has: the winner with +1
15 final_score
#? [W\+1]

# B10: the table's running score
16 score
#? [black 1 white 1 draws 0]

# B7 RULING: the third game: black shoots first again
again
ready white

# B7 RULING: the first shooter alternates game by game
17 start
#? [black]

# B10: clear_board restarts the current game
18 clear_board
#? []

# B10: clear_board keeps the game number and the score
19 position
#? [game=3 stage=setup black=- white=- shots=- offers=-- score=1,1,0 clocks=-,-]

# B10: again is refused while a game is not over (nothing changes)
again

# B10: again was refused
20 position
#? [game=3 stage=setup black=- white=- shots=- offers=-- score=1,1,0 clocks=-,-]

# B9: the guest is ready again
21 ready white
#? []

# B7 RULING: game 3 still starts with black
22 start
#? [black]

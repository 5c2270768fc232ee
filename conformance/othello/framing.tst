# extension: position
# The commands every game has, on Othello: GTP 2 framing of moves and refusals (CONTRACT
# sections and RULES.md ids O1, O2, ...). Refusals cannot be cases (an error answer
# fails a case), so a refused command is sent as unnumbered set-up and the next case
# checks that nothing changed, with the `position` extension: an extension file.

set_game othello

# CONTRACT Commands every game has: boardsize of the game's size, empty success
11 boardsize 8
#? []

# O1: the start position, in CONTRACT Othello's notation
12 position
#? [-{27}OX-{6}XO-{27} X]

# CONTRACT Framing, a refused command changes nothing: boardsize 19 is unacceptable
boardsize 19
13 position
#? [-{27}OX-{6}XO-{27} X]

# CONTRACT Commands every game has: all_legal in canonical order; O2 at the start
14 all_legal black
#? [d3 c4 f5 e6]

# CONTRACT Commands every game has: COLOR is read in any case
15 all_legal BLACK
#? [d3 c4 f5 e6]

# CONTRACT Commands every game has: is_legal; cells are read in any case (O2)
16 is_legal b D3
#? [true]

# O2: a move must flip; CONTRACT is_legal answers false
17 is_legal b a1
#? [false]

# O2 and CONTRACT Framing: an illegal play is refused and changes nothing
play b a1
18 position
#? [-{27}OX-{6}XO-{27} X]

# CONTRACT Othello: play refuses a colour that is not to move, changing nothing
play w d3
19 position
#? [-{27}OX-{6}XO-{27} X]

# CONTRACT Commands every game has: reg_genmove answers a legal move (O2) ...
20 reg_genmove b
#? [d3|c4|f5|e6]

# ... and never plays it
21 position
#? [-{27}OX-{6}XO-{27} X]

# O2: black d3 flips d4; white is to move
play b d3
22 position
#? [-{19}X-{7}XX-{6}XO-{27} O]

# CONTRACT Commands every game has: status of a game under way
23 status
#? [ongoing]

# CONTRACT Commands every game has: undo takes back the last move
undo
24 position
#? [-{27}OX-{6}XO-{27} X]

# CONTRACT Commands every game has: undo at the start is refused, changing nothing
undo
25 position
#? [-{27}OX-{6}XO-{27} X]

# CONTRACT Commands every game has: final_score, O4 disc difference (2-2 at the start)
26 final_score
#? [0]

# CONTRACT Othello: perft 1 from the start (four moves, O2)
27 perft 1
#? [4]

# CONTRACT Othello: perft 3 from the start
28 perft 3
#? [56]

# CONTRACT Commands every game has: set_game of an unknown game is refused, the game stays
set_game chess
29 all_legal b
#? [d3 c4 f5 e6]

# CONTRACT Commands every game has: clear_board starts a fresh game
play b f5
clear_board
30 position
#? [-{27}OX-{6}XO-{27} X]

# CONTRACT Commands every game has: showboard is a multi-line picture
31 showboard
#? [.*\n.*]

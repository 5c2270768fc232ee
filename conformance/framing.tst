# GTP 2 framing and the commands every game has, on Othello (the default game).
# Each case names the rule it checks: CONTRACT sections ("Framing", "Commands every
# game has", "Othello") and RULES.md ids (O1, O2, ...).
# Refusals cannot be cases (an error answer fails a case), so a refused command is
# sent as unnumbered set-up and the next case checks that nothing changed.

# CONTRACT Framing, protocol_version: the protocol is GTP version 2
1 protocol_version
#? [2]

# CONTRACT Commands every game has: name
2 name
#? [tabula]

# CONTRACT Commands every game has: version is the crate version
3 version
#? [\d+\.\d+\.\d+\S*]

# CONTRACT Commands every game has: known_command of a known command
4 known_command play
#? [true]

# CONTRACT Commands every game has: known_command of an unknown command
5 known_command frobnicate
#? [false]

# CONTRACT Commands every game has: list_commands, one name a line, no empty line
6 list_commands
#? [(?:[a-z_-]+\n)*[a-z_-]+]

# CONTRACT Commands every game has: list_commands includes the GTP core
7 list_commands
#? [.*^protocol_version$.*^known_command$.*^quit$.*]

# CONTRACT Commands every game has: list_games, one name a line
8 list_games
#? [othello\nbattleship\nshell]

# CONTRACT Framing: white space between the id, the name and the arguments is tolerated
9    known_command     genmove
#? [true]

# CONTRACT Framing: everything from # to the end of the line is dropped
10 name # a trailing comment
#? [tabula]

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

# CONTRACT Commands every game has: set_option seed
32 set_option seed 7
#? []

# CONTRACT Commands every game has: quit answers an empty success
33 quit
#? []

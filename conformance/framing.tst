# GTP 2 framing and the commands every engine has, whatever its game: the portable
# core (no engine name, version format, command order or extension command), so any
# GTP 2 engine can be checked against it. Each case names the rule it checks (CONTRACT
# sections). Tabula's own identity and extensions are in tabula.tst; the commands
# every game has, on Othello, in othello/framing.tst.

# CONTRACT Framing, protocol_version: the protocol is GTP version 2
1 protocol_version
#? [2]

# CONTRACT Commands every game has: name, the engine's name (any, not empty)
2 name
#? [.+]

# CONTRACT Commands every game has: version (any text; GTP 2 allows it empty)
3 version
#? [.*]

# CONTRACT Commands every game has: known_command of a known command
4 known_command play
#? [true]

# CONTRACT Commands every game has: known_command of an unknown command
5 known_command frobnicate
#? [false]

# CONTRACT Commands every game has: list_commands, one name a line, no empty line
6 list_commands
#? [(?:[a-z][a-z0-9_-]*\n)*[a-z][a-z0-9_-]*]

# CONTRACT Commands every game has: list_commands includes the GTP core, in any order
7 list_commands
#? [.*^protocol_version$.*]

# (continued)
34 list_commands
#? [.*^known_command$.*]

# (continued)
35 list_commands
#? [.*^quit$.*]

# CONTRACT Framing: white space between the id, the name and the arguments is tolerated
9    known_command     genmove
#? [true]

# CONTRACT Framing: everything from # to the end of the line is dropped
10 protocol_version # a trailing comment
#? [2]

# CONTRACT Commands every game has: quit answers an empty success
33 quit
#? []

# extension: list_games set_option
# Tabula's identity and its extensions to GTP 2: its name, its version format,
# list_games and set_option. An extension file: it applies only to engines whose
# known_command knows every command of the `# extension:` line.

# CONTRACT Commands every game has: name
2 name
#? [tabula]

# CONTRACT Commands every game has: version is the crate version
3 version
#? [\d+\.\d+\.\d+\S*]

# CONTRACT Commands every game has: list_games, one name a line
8 list_games
#? [othello\nbattleship\nshell]

# CONTRACT Framing: everything from # to the end of the line is dropped
10 name # a trailing comment
#? [tabula]

# CONTRACT Commands every game has: set_option seed
32 set_option seed 7
#? []

//! Command sequences against a session: random lines built from the command table,
//! plausible and implausible arguments, and raw garbage. Nothing may panic, and every
//! refused command must leave the whole session exactly as it was.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use tabula::games::GameKind;
use tabula::protocol::Session;
use tabula::protocol::parse::{COMMANDS, Line, parse_line, preprocess};

/// Argument words: colours, cells of every game, results, numbers and junk.
const WORDS: &[&str] = &[
    "b",
    "w",
    "black",
    "WHITE",
    "purple",
    "d3",
    "c4",
    "f5",
    "e6",
    "a1",
    "h8",
    "pass",
    "e5",
    "i9",
    "j10",
    "A1",
    "A1-A4",
    "C1-C3",
    "hit",
    "miss",
    "sunk",
    "cruiser",
    "boat",
    "0",
    "1",
    "2",
    "3",
    "5",
    "15",
    "-1",
    "99999999999999999999",
    "x",
    "é",
    "🐢",
    "depth",
    "seed",
    "movetime",
    "threads",
    "hash",
    "othello",
    "shell",
    "battleship",
    "chess",
    "---------------------------OX------XO--------------------------- X",
    "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O",
    "A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8",
    "A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 J10",
    "sunk boat",
    "sunk destroyer",
    "b6",
    "a6",
    "e7",
];

fn line_strategy() -> impl Strategy<Value = Vec<u8>> {
    let names: Vec<&'static str> = COMMANDS.iter().map(|spec| spec.name).collect();
    // Battleship needs a few commands in order before a shot is possible.
    let table_setup = prop::sample::select(vec![
        "genfleet b",
        "genfleet w",
        "ready w",
        "start",
        "again",
        "offer_draw b",
        "accept_draw w",
        "fleet w A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8",
    ])
    .prop_map(|line| line.as_bytes().to_vec());
    // Clocks at the edges of what parses: every later think must still be bounded.
    let clocks = prop::sample::select(vec![
        "time_left b 1e300 0",
        "time_left w 1.7976931348623157e308 1",
        "time_settings 1e300 0 0",
        "time_settings 0 1e300 1",
        "time_settings 0.001 0 0",
        "time_left b 0 0",
    ])
    .prop_map(|line| line.as_bytes().to_vec());
    prop_oneof![
        2 => table_setup,
        1 => clocks,
        8 => (
            prop::sample::select(names),
            prop::collection::vec(prop::sample::select(WORDS.to_vec()), 0..4),
            prop::option::of(0u64..100),
        )
            .prop_map(|(name, args, id)| {
                let mut line = id.map(|id| format!("{id} ")).unwrap_or_default();
                line.push_str(name);
                for arg in args {
                    line.push(' ');
                    line.push_str(arg);
                }
                line.into_bytes()
            }),
        1 => prop::collection::vec(any::<u8>(), 0..40),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn refused_commands_change_nothing_and_nothing_panics(
        game in prop::sample::select(GameKind::ALL.to_vec()),
        lines in prop::collection::vec(line_strategy(), 1..60),
    ) {
        let mut session = Session::new(game);
        let stop = AtomicBool::new(false);
        // Keep searches short whatever the sequence (or its clock) asks.
        for option in ["set_option depth 2", "set_option iterations 200"] {
            let (_, set) = parse_line(option);
            session.handle(&set.expect("parses"), &stop).expect("accepted");
        }
        for raw in lines {
            let Line::Text(text) = preprocess(&raw) else { continue };
            let (_, parsed) = parse_line(&text);
            let Ok(command) = parsed else { continue };
            if command.name() == "set_option" && (text.contains("depth") || text.contains("iterations")) {
                continue;
            }
            // `solve` plays to the end whatever the depth: only an interrupt or the
            // clock bound it, and this loop has neither.
            if command.name() == "solve" {
                continue;
            }
            let before = session.clone();
            let answer = session.handle(&command, &stop);
            if answer.is_err() {
                prop_assert_eq!(&session, &before, "{:?} was refused but changed the session", text);
            }
        }
    }
}

//! Fake engines for the tests of `tabula conformance` and `tabula arena`: programs that
//! speak the protocol and misbehave on purpose, as their arguments say. Built by cargo
//! only for the tests (the `fake-engine` feature, which the crate's dev-dependency on
//! itself turns on), never installed.
//!
//! `tabula-fake-engine gtp [OPTIONS]` — a tiny GTP 2 engine for the conformance
//! runner. Commands: `protocol_version` (2), `name` (fake), `echo ARGS` (the args
//! joined by single spaces), `pwd` (its working folder), `list` (three lines), `fail`
//! (an error answer), `quit`; anything else is an unknown command. Options:
//!
//! - `--crash-after N`: exit with status 3, without answering, on the Nth command;
//! - `--hang-on NAME`: never answer command NAME;
//! - `--garbage-on NAME`: answer command NAME with a line that is not GTP;
//! - `--wrong-on NAME`: answer command NAME with `wrong`;
//! - `--ignore-quit`: answer `quit`, then ignore it and the end of input, and sleep;
//! - `--spaced-id`: write a command's id after a space (`= 1 2`, as Edax does).
//!
//! `tabula-fake-engine relay [--pid-file PATH] [--log PATH] [--interrupt] [--kgs] MODE
//! AFTER PROGRAM [ARGS…]` — a misbehaving engine for the arena. It runs the real engine PROGRAM and
//! relays every command to it, so it plays legal moves, until its AFTER-th `genmove`
//! of a game (counting from 1; `set_game` and `clear_board` start a new count), where
//! it misbehaves by MODE:
//!
//! - `crash`: exits at once without answering;
//! - `hang`: never answers; with `--interrupt`, answers the real move when a
//!   `# interrupt` line arrives;
//! - `garbage`: answers a line that is no GTP answer;
//! - `illegal`: answers the last move seen again (an occupied square or cell, a spent
//!   shot);
//! - `slow`: sleeps 1.5 s, then answers the real move;
//! - `liar` (Battleship): from then on in the game, reports every shot at its own
//!   fleet wrongly;
//! - `refuse`: from then on in the game, answers every `play` and `resolve_turn` with
//!   `? no`;
//! - `none`: never misbehaves.
//!
//! `--pid-file PATH` appends the fake's process id to PATH when it starts, so a test
//! can count the processes an arena started; `--log PATH` appends every line it reads
//! to PATH. `--interrupt` makes `list_commands` list `gogui-interrupt`, and `--kgs`
//! makes it list `kgs-time_settings` (then answered by the fake itself); without them
//! those names are taken out of the real engine's list.
//!
//! `tabula-fake-engine plain [--log PATH] [--no-list]` — an Othello engine that knows
//! nothing but standard GTP 2, as engines from elsewhere do: `protocol_version`,
//! `name`, `version`, `known_command`, `list_commands`, `quit`, `boardsize` (8 only),
//! `clear_board`, `komi`, `play`, `genmove`, `time_settings` and `time_left` (whole
//! seconds only, as GTP 2 has them: anything else is `? syntax error`); every other
//! command is `? unknown command`. It checks every move with Tabula's rules (an
//! illegal one, or a colour out of turn, is `? illegal move`) and plays the legal move
//! that flips the fewest discs (the first such, in canonical order). `--log PATH`
//! appends every line it reads to PATH; `--no-list` refuses `list_commands`, so that
//! only `known_command` tells what it knows. `--set-game NAME` adds GoGui's
//! `list_games` (answering NAME) and `set_game` (accepting NAME exactly, and like
//! Edax's, without clearing the board: `clear_board` does that);
//! `--protocol-version TEXT` answers `protocol_version` so (Egaroucid writes `2.0`).
//! Faults, for the arena's tests:
//!
//! - `--junk`: prints a banner line before its first answer;
//! - `--wrong-id`: answers every command with the id 99;
//! - `--flood-stdout`: answers its first `genmove` of a game with 100 000 junk lines;
//! - `--flood-stderr MB`: writes MB megabytes to stderr at start, then plays on;
//! - `--mute`: reads its input and never answers.
//!
//! `tabula-fake-engine nboard [--log PATH]` — an Othello engine that speaks only the
//! NBoard protocol: `nboard 2`, `set depth N` (and any other `set`), `set game GGF`
//! (the board of `BO[…]` and the `B[…]`/`W[…]` moves after it), `move SQUARE`, `go`
//! (answered `=== SQUARE/0.00/0.0`, the same choice as `plain`'s; `PA` to pass;
//! `--spaces` writes `=== SQUARE 0.00 0.0` as Edax does),
//! `ping N` (answered `pong N`) and `quit`; it announces `set myname fake-nboard` and
//! a `status` line, as NBoard engines do. A move it cannot play is reported on
//! stderr and ends it with status 6.

use std::io::{BufRead, Write};

use std::process::exit;
use std::thread::sleep;
use std::time::Duration;
use tabula::client::{Client, Echo, Framing, Launch, Stderr};
use tabula::games::othello::{Move, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first() {
        Some((mode, rest)) if mode == "gtp" => gtp(rest),
        Some((mode, rest)) if mode == "relay" => relay(rest),
        Some((mode, rest)) if mode == "plain" => plain(rest),
        Some((mode, rest)) if mode == "nboard" => nboard(rest),
        _ => {
            eprintln!("usage: tabula-fake-engine gtp|relay|plain …");
            exit(2);
        }
    }
}

fn sleep_forever() -> ! {
    loop {
        sleep(Duration::from_secs(60));
    }
}

/// Writes one answer and its empty line.
fn answer(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(format!("{text}\n\n").as_bytes());
    let _ = out.flush();
}

/// The value after `name` in `args`.
fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let index = args.iter().position(|a| a == name)?;
    Some(args.get(index + 1).map_or("", String::as_str))
}

fn gtp(args: &[String]) {
    let crash_after: Option<u64> = option(args, "--crash-after").and_then(|n| n.parse().ok());
    let hang_on = option(args, "--hang-on");
    let garbage_on = option(args, "--garbage-on");
    let wrong_on = option(args, "--wrong-on");
    let ignore_quit = args.iter().any(|a| a == "--ignore-quit");
    let spaced_id = args.iter().any(|a| a == "--spaced-id");
    let mut count = 0;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let line = line.split('#').next().unwrap_or("");
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let mut id = "";
        if words
            .first()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))
        {
            id = words.remove(0);
        }
        let Some((&name, rest)) = words.split_first() else {
            continue;
        };
        count += 1;
        if crash_after.is_some_and(|n| count >= n) {
            exit(3);
        }
        if Some(name) == hang_on {
            sleep_forever();
        }
        let ok = |text: &str| match spaced_id && !id.is_empty() {
            true => answer(&format!("= {id} {text}")),
            false => answer(&format!("={id} {text}")),
        };
        if Some(name) == garbage_on {
            answer("I am not a GTP engine");
            continue;
        }
        if Some(name) == wrong_on {
            ok("wrong");
            continue;
        }
        match name {
            "protocol_version" => ok("2"),
            "name" => ok("fake"),
            "echo" => ok(&rest.join(" ")),
            "pwd" => ok(&std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_default()),
            "list" => ok("alpha\nbeta\ngamma"),
            "fail" => answer(&format!("?{id} failed on purpose")),
            "quit" => {
                ok("");
                if ignore_quit {
                    sleep_forever();
                }
                return;
            }
            _ => answer(&format!("?{id} unknown command")),
        }
    }
    if ignore_quit {
        sleep_forever();
    }
}

/// The real engine behind a relaying fake, driven through the library's client.
struct Real {
    client: Client,
}

impl Real {
    /// Sends `line` and reads the whole answer as framed (its lines without the empty
    /// one); exits with status 4 if the real engine closes its output or breaks the
    /// framing.
    fn ask(&mut self, line: &str) -> String {
        let Ok(reply) = self
            .client
            .ask(line, Echo::Any, Duration::from_secs(86_400))
        else {
            exit(4);
        };
        match reply.text.split_once('\n') {
            Some((_, rest)) => format!("{}\n{rest}", reply.head),
            None => reply.head,
        }
    }
}

fn relay(args: &[String]) {
    let mut args = args.to_vec();
    let mut interrupt = false;
    let mut kgs = false;
    let mut log: Option<std::fs::File> = None;
    loop {
        match args.first().map(String::as_str) {
            Some("--log") if args.len() > 1 => {
                let opened = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&args[1]);
                let Ok(file) = opened else { exit(5) };
                log = Some(file);
                args.drain(..2);
            }
            Some("--kgs") => {
                kgs = true;
                args.remove(0);
            }
            Some("--pid-file") if args.len() > 1 => {
                let path = args[1].clone();
                args.drain(..2);
                let appended = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .and_then(|mut f| writeln!(f, "{}", std::process::id()));
                if appended.is_err() {
                    exit(5);
                }
            }
            Some("--interrupt") => {
                interrupt = true;
                args.remove(0);
            }
            _ => break,
        }
    }
    let (Some(mode), Some(after), Some(program)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!(
            "usage: tabula-fake-engine relay [--pid-file PATH] [--interrupt] MODE AFTER PROGRAM [ARGS…]"
        );
        exit(2);
    };
    let mode = mode.as_str();
    let after: u32 = after.parse().unwrap_or(1);
    let launch = Launch {
        stderr: Stderr::Inherit,
        framing: Framing::Lenient,
        ..Launch::new("real", program, &args[3..])
    };
    let Ok(client) = Client::spawn(&launch) else {
        exit(4);
    };
    let mut real = Real { client };

    let mut genmoves = 0;
    let mut last_move: Option<String> = None;
    // A genmove held back by `hang --interrupt` until `# interrupt` arrives.
    let mut held: Option<String> = None;
    for raw in std::io::stdin().lock().lines() {
        let Ok(raw) = raw else { break };
        if let Some(file) = &mut log {
            let _ = writeln!(file, "{raw}");
        }
        let line = raw.trim();
        if line == "# interrupt" {
            if let Some(genmove) = held.take() {
                let reply = real.ask(&genmove);
                answer(&reply);
            }
            continue;
        }
        let line = line.split('#').next().unwrap_or("").trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(name) = words.first().map(|w| w.to_ascii_lowercase()) else {
            continue;
        };
        if name == "set_game" || name == "clear_board" {
            genmoves = 0;
        }
        if name == "genmove" {
            genmoves += 1;
            if genmoves == after {
                match mode {
                    "crash" => exit(3),
                    "hang" if interrupt => {
                        held = Some(line.to_string());
                        continue;
                    }
                    "hang" => sleep_forever(),
                    "garbage" => {
                        answer("hello, I am not an engine");
                        continue;
                    }
                    "illegal" => {
                        if let Some(mv) = &last_move {
                            answer(&format!("= {mv}"));
                            continue;
                        }
                    }
                    "slow" => sleep(Duration::from_millis(1500)),
                    _ => {}
                }
            }
        }
        if kgs && name == "kgs-time_settings" {
            answer("=");
            continue;
        }
        let misbehaving = genmoves >= after;
        if misbehaving && mode == "refuse" && (name == "play" || name == "resolve_turn") {
            answer("? no");
            continue;
        }
        let mut reply = real.ask(line);
        match name.as_str() {
            "genmove" => {
                if let Some(mv) = reply
                    .strip_prefix("= ")
                    .and_then(|r| r.split_whitespace().next())
                {
                    last_move = Some(mv.to_string());
                }
            }
            "play" if words.len() >= 3 => last_move = Some(words[2].to_string()),
            "resolve_turn" if words.len() >= 2 => last_move = Some(words[1].to_string()),
            "list_commands" => {
                let mut names: Vec<&str> = reply
                    .trim_start_matches("= ")
                    .lines()
                    .filter(|n| !["gogui-interrupt", "kgs-time_settings"].contains(n))
                    .collect();
                if interrupt {
                    names.push("gogui-interrupt");
                }
                if kgs {
                    names.push("kgs-time_settings");
                }
                reply = format!("= {}", names.join("\n"));
            }
            _ => {}
        }
        if misbehaving && mode == "liar" && name == "play" && words.len() == 3 {
            reply = if reply == "= miss" { "= hit" } else { "= miss" }.to_string();
        }
        answer(&reply);
        if name == "quit" {
            break;
        }
    }
    real.client.close_input();
    real.client.wait_exit(Duration::from_secs(5));
}

/// The file `--log PATH` names, opened to append.
fn log_file(args: &[String]) -> Option<std::fs::File> {
    let path = option(args, "--log")?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .ok()
}

/// The commands of the `plain` fake: standard GTP 2 and nothing else.
const PLAIN_COMMANDS: [&str; 13] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "time_settings",
    "time_left",
];

/// A GTP colour.
fn plain_color(word: &str) -> Option<tabula::games::Color> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(tabula::games::Color::Black),
        "w" | "white" => Some(tabula::games::Color::White),
        _ => None,
    }
}

/// The legal move of the side to move that flips the fewest discs.
fn plain_choice(position: &Position) -> Move {
    let mut best: Option<(u32, Move)> = None;
    for mv in position.legal_moves() {
        let flips = position.check(mv).map_or(u32::MAX, u64::count_ones);
        if best.is_none_or(|(fewest, _)| flips < fewest) {
            best = Some((flips, mv));
        }
    }
    best.map_or(Move::Pass, |(_, mv)| mv)
}

fn plain(args: &[String]) {
    let mut log = log_file(args);
    let flag = |name: &str| args.iter().any(|a| a == name);
    let no_list = flag("--no-list");
    let (mut junk, wrong_id, mute) = (flag("--junk"), flag("--wrong-id"), flag("--mute"));
    let mut flood = flag("--flood-stdout");
    let game_name = option(args, "--set-game");
    let mut commands = PLAIN_COMMANDS.to_vec();
    if game_name.is_some() {
        commands.extend(["list_games", "set_game"]);
    }
    if let Some(megabytes) = option(args, "--flood-stderr").and_then(|n| n.parse::<usize>().ok()) {
        let line = format!("{}\n", "x".repeat(1023));
        let mut err = std::io::stderr().lock();
        for _ in 0..megabytes * 1024 {
            let _ = err.write_all(line.as_bytes());
        }
    }
    let mut position = Position::start();
    for raw in std::io::stdin().lock().lines() {
        let Ok(raw) = raw else { break };
        if let Some(file) = &mut log {
            let _ = writeln!(file, "{raw}");
        }
        let line = raw.split('#').next().unwrap_or("");
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let mut id = String::new();
        if words
            .first()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))
        {
            id = words.remove(0).to_string();
        }
        let Some((&name, rest)) = words.split_first() else {
            continue;
        };
        if mute {
            continue;
        }
        if std::mem::take(&mut junk) {
            println!("Welcome to plain 1.0, the engine that talks first");
        }
        if wrong_id {
            id = "99".to_string();
        }
        if name == "clear_board" {
            flood = flag("--flood-stdout");
        }
        if name == "genmove" && std::mem::take(&mut flood) {
            let mut out = std::io::stdout().lock();
            for i in 0..100_000 {
                let _ = writeln!(out, "info depth {i}");
            }
        }
        let ok = |text: &str| answer(&format!("={id} {text}"));
        let fail = |text: &str| answer(&format!("?{id} {text}"));
        let whole = |words: &[&str]| words.iter().all(|w| w.parse::<u64>().is_ok());
        match (name, rest) {
            ("protocol_version", _) => ok(option(args, "--protocol-version").unwrap_or("2")),
            ("name", _) => ok("plain"),
            ("version", _) => ok("1"),
            ("list_commands", _) if no_list => fail("unknown command"),
            ("list_commands", _) => ok(&commands.join("\n")),
            ("list_games", []) if game_name.is_some() => ok(game_name.unwrap_or_default()),
            ("set_game", [name]) if game_name.is_some() => {
                if Some(*name) == game_name {
                    ok("");
                } else {
                    fail("unsupported game");
                }
            }
            ("known_command", [command]) => ok(&commands
                .iter()
                .any(|c| c == command && !(no_list && *c == "list_commands"))
                .to_string()),
            ("quit", _) => {
                ok("");
                return;
            }
            ("boardsize", ["8"]) => ok(""),
            ("boardsize", _) => fail("unacceptable size"),
            ("clear_board", []) => {
                position = Position::start();
                ok("");
            }
            ("komi", [_]) => ok(""),
            ("time_settings", [_, _, _]) if whole(rest) => ok(""),
            ("time_left", [color, _, _]) if plain_color(color).is_some() && whole(&rest[1..]) => {
                ok("");
            }
            ("play", [color, mv]) => {
                let played = plain_color(color)
                    .zip(Move::parse(mv))
                    .is_some_and(|(color, mv)| position.play(color, mv).is_ok());
                if played { ok("") } else { fail("illegal move") }
            }
            ("genmove", [color]) => match plain_color(color) {
                Some(color) if color == position.side_to_move() && !position.is_over() => {
                    let mv = plain_choice(&position);
                    if position.play(color, mv).is_ok() {
                        ok(&mv.to_string());
                    } else {
                        fail("internal error");
                    }
                }
                _ => fail("illegal move"),
            },
            (
                "known_command" | "clear_board" | "komi" | "time_settings" | "time_left" | "play"
                | "genmove",
                _,
            ) => fail("syntax error"),
            _ => fail("unknown command"),
        }
    }
}

/// The position of a GGF record: its `BO[8 BOARD SIDE]` and the moves after it.
fn ggf_position(ggf: &str) -> Option<Position> {
    let board_start = ggf.find("BO[8 ")? + 5;
    let rest = &ggf[board_start..];
    let (board, rest) = (rest.get(..64)?, rest.get(64..)?);
    let side = rest.trim_start().chars().next()?;
    let board: String = board
        .chars()
        .map(|c| match c {
            '*' => 'X',
            'O' => 'O',
            _ => '-',
        })
        .collect();
    let side = if side == 'O' { 'O' } else { 'X' };
    let mut position = Position::from_notation(&format!("{board} {side}")).ok()?;
    let mut moves = rest.split_once(']')?.1;
    while let Some(open) = moves
        .find(['B', 'W'])
        .filter(|&i| moves[i + 1..].starts_with('['))
    {
        let close = moves[open..].find(']')? + open;
        let word = &moves[open + 2..close];
        let mv = if word.eq_ignore_ascii_case("pa") {
            Move::Pass
        } else {
            Move::parse(word.split('/').next()?)?
        };
        position.play(position.side_to_move(), mv).ok()?;
        moves = &moves[close + 1..];
    }
    Some(position)
}

fn nboard(args: &[String]) {
    let mut log = log_file(args);
    let spaces = args.iter().any(|a| a == "--spaces");
    let mut position = Position::start();
    let say = |text: &str| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some(file) = &mut log {
            let _ = writeln!(file, "{line}");
        }
        let line = line.trim();
        let (name, rest) = line.split_once(' ').unwrap_or((line, ""));
        match name {
            "nboard" => say("set myname fake-nboard"),
            "set" if rest.starts_with("game ") => match ggf_position(rest) {
                Some(game) => position = game,
                None => {
                    eprintln!("fake-nboard: a game it cannot read: {rest}");
                    exit(6);
                }
            },
            "move" => {
                let word = rest.split('/').next().unwrap_or("");
                let mv = if word.eq_ignore_ascii_case("pa") {
                    Some(Move::Pass)
                } else {
                    Move::parse(word)
                };
                if mv.is_none_or(|mv| position.play(position.side_to_move(), mv).is_err()) {
                    eprintln!("fake-nboard: a move it cannot play: {rest}");
                    exit(6);
                }
            }
            "go" => {
                say("status thinking");
                let mv = plain_choice(&position);
                let word = match mv {
                    Move::Pass => "PA".to_string(),
                    Move::Place(square) => square.to_string().to_ascii_uppercase(),
                };
                if spaces {
                    say(&format!("=== {word} 0.00 0.0"));
                } else {
                    say(&format!("=== {word}/0.00/0.0"));
                }
            }
            "ping" => say(&format!("pong {rest}")),
            "quit" => return,
            _ => {}
        }
    }
}

//! `tabula serve --db FILE` across a killed server: the real binary killed with
//! SIGKILL mid-game and started again on the same database (on another port), both
//! seats back by their tokens, the game finished; and the finished games' records
//! downloaded.

use super::{Pick, Seat, Server, WHITE_FLEET, audit_fleet};

/// A database file of its own for one test, removed with its companions.
struct Db(String);

impl Db {
    fn new(name: &str) -> Db {
        let path = format!(
            "{}/{name}-{}.db",
            env!("CARGO_TARGET_TMPDIR"),
            std::process::id()
        );
        let db = Db(path);
        db.remove();
        db
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0));
        }
    }

    fn server(&self) -> Server {
        Server::start_with(&["--db", &self.0, "--commands-per-second", "1000"])
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Kills the server as a crash would (SIGKILL: nothing is flushed or closed).
fn crash(mut server: Server) {
    server.child.kill().expect("SIGKILL");
    let status = server.child.wait().expect("the server ends");
    assert!(!status.success());
}

/// The events a seat was told, without the connection's own ones (`seat`,
/// `present`, `absent`): what it would be told again on connecting.
fn told(frames: &[String]) -> Vec<String> {
    frames
        .iter()
        .filter(|f| f.starts_with("event "))
        .filter(|f| {
            !["event seat ", "event present ", "event absent "]
                .iter()
                .any(|p| f.starts_with(p))
        })
        .cloned()
        .collect()
}

/// Waits until every event caused before now has reached `seat`: answers follow the
/// events queued before them.
fn settle(seat: &mut Seat) {
    seat.ok("status");
}

/// Connects `token` again and reads its greeting: the frames before the answer to a
/// `status` sent right after connecting.
fn reconnect(server: &Server, token: &str) -> (Seat, Vec<String>) {
    let mut seat = server.seat(token);
    seat.ok("status");
    let greeting = seat.frames[..seat.frames.len() - 1].to_vec();
    seat.read = seat.frames.len();
    (seat, greeting)
}

/// Fires `color`'s shots while it keeps hitting, up to `most`; answers the shots
/// fired and whether the game is over.
fn shoot(seats: &mut [Seat; 2], turn: &mut usize, pick: &mut Pick, most: usize) -> usize {
    let names = ["black", "white"];
    let mut shots = 0;
    while shots < most && !seats[0].saw("over ") {
        let legal = seats[*turn].ok(&format!("all_legal {}", names[*turn]));
        let cells: Vec<&str> = legal.split(' ').collect();
        let cell = pick.from(&cells).to_string();
        let result = seats[*turn].ok(&format!("play {} {cell}", names[*turn]));
        shots += 1;
        let next = seats[0].wait_any(&["turn ", "over "]);
        assert_eq!(seats[1].wait_any(&["turn ", "over "]), next);
        let other = format!("event turn {}", names[1 - *turn]);
        assert_eq!(result == "miss", next == other, "{result} {next}");
        *turn = usize::from(next == "event turn white");
    }
    shots
}

/// The last `event over …` a seat received.
fn last_over(seat: &Seat) -> String {
    seat.frames
        .iter()
        .rev()
        .find(|f| f.starts_with("event over "))
        .cloned()
        .expect("the game is over")
}

fn clock_of(frames: &[String], color: &str) -> f64 {
    let prefix = format!("event clock {color} ");
    frames
        .iter()
        .rev()
        .find_map(|f| f.strip_prefix(&prefix))
        .and_then(|s| s.parse().ok())
        .expect("a clock reading")
}

#[test]
fn a_battleship_table_survives_a_killed_server() {
    let db = Db::new("battleship-restart");
    let server = db.server();
    let (id, host, invite) = server.open_table(r#"{"game": "battleship", "clock": "600+5"}"#);
    let mut seats = [server.seat(&host), server.seat(&invite)];
    let black_fleet = seats[0].ok("genfleet black");
    seats[1].ok(&format!("fleet white {WHITE_FLEET}"));
    seats[1].ok("ready white");
    assert_eq!(seats[0].ok("start"), "black");
    let mut pick = Pick(17);
    let mut turn = 0;
    let mut shots = shoot(&mut seats, &mut turn, &mut pick, 6);
    // A declined offer before the crash, and one still pending across it.
    let names = ["black", "white"];
    seats[turn].ok(&format!("offer_draw {}", names[turn]));
    seats[1 - turn].ok(&format!("decline_draw {}", names[1 - turn]));
    shots += shoot(&mut seats, &mut turn, &mut pick, 3);
    seats[turn].ok(&format!("offer_draw {}", names[turn]));
    for seat in &mut seats {
        settle(seat);
    }
    let before = [told(&seats[0].frames), told(&seats[1].frames)];
    let shooter_clock = clock_of(&seats[0].frames, names[turn]);
    let [black, white] = seats;
    crash(server);

    let server = db.server();
    let (black2, greeting) = reconnect(&server, &host);
    assert_eq!(greeting[0], format!("event seat black battleship {id}"));
    assert_eq!(told(&greeting), before[0], "black is told the game so far");
    let (white2, greeting) = reconnect(&server, &invite);
    assert_eq!(greeting[0], format!("event seat white battleship {id}"));
    assert_eq!(told(&greeting), before[1], "white is told the game so far");
    assert!(
        greeting.iter().all(|f| !f.starts_with("event fleet black")),
        "{greeting:?}"
    );
    let mut seats = [black2, white2];
    // The pending offer came back: it can be declined, once.
    let other = 1 - turn;
    seats[other].ok(&format!("decline_draw {}", names[other]));
    assert!(
        seats[other]
            .command(&format!("decline_draw {}", names[other]))
            .is_err()
    );
    // The shooter's clock goes on from its reading before the crash: the next shot
    // adds the increment to what was left, less the time taken.
    let shooter = turn;
    shots += shoot(&mut seats, &mut turn, &mut pick, 1);
    let after = clock_of(&seats[0].frames, names[shooter]);
    assert!(
        after <= shooter_clock + 5.05 && after > shooter_clock - 60.0,
        "{shooter_clock} then {after}"
    );
    shots += shoot(&mut seats, &mut turn, &mut pick, 500);
    let over = last_over(&seats[0]);
    assert!(over.ends_with(" fleet sunk"), "{over}");
    // Every shot is there, before and after the crash, in both seats' histories.
    let (_, greeting) = reconnect(&server, &host);
    let fired = greeting
        .iter()
        .filter(|f| f.starts_with("event shot "))
        .count();
    assert_eq!(fired, shots);
    // Nothing of the other fleet was told before the end, across both servers.
    let all = |before: &Seat, after: &Seat| {
        let mut frames = before.frames.clone();
        frames.extend(after.frames.iter().cloned());
        frames
    };
    audit_fleet(
        &all(&black, &seats[0]),
        "black",
        "white",
        WHITE_FLEET,
        &black_fleet,
    );
    audit_fleet(
        &all(&white, &seats[1]),
        "white",
        "black",
        &black_fleet,
        WHITE_FLEET,
    );
    let winner = if over.starts_with("event over black_wins") {
        "black 1 white 0 draws 0"
    } else {
        "black 0 white 1 draws 0"
    };
    assert_eq!(seats[1].ok("score"), winner);
    seats[1].ok("again");
    seats[0].wait_for("game battleship 2");
    drop(seats);
    crash(server);

    // Killed again between games: the score and the finished game are still there.
    let server = db.server();
    let (mut black3, greeting) = reconnect(&server, &host);
    assert!(
        greeting.contains(&"event game battleship 2".to_string()),
        "{greeting:?}"
    );
    assert_eq!(black3.ok("score"), winner);
    let (status, pgn) = server.request(
        "GET",
        &format!("/api/tables/{id}/record?token={invite}"),
        "",
    );
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.starts_with("[Event \"tabula serve\"]\n"), "{pgn}");
    assert!(pgn.contains("[Game \"battleship\"]\n"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"600+5\"]\n"), "{pgn}");
    assert!(
        pgn.contains(&format!("[BlackFleet \"{black_fleet}\"]\n")),
        "{pgn}"
    );
    assert!(
        pgn.contains(&format!("[WhiteFleet \"{WHITE_FLEET}\"]\n")),
        "{pgn}"
    );
    assert!(pgn.contains("[Reason \"fleet sunk\"]\n"), "{pgn}");
    let result = if winner.starts_with("black 1") {
        "0-1"
    } else {
        "1-0"
    };
    assert!(pgn.contains(&format!("[Result \"{result}\"]\n")), "{pgn}");
    let movetext = pgn.split_once("\n\n").expect("a movetext").1;
    let moves = movetext
        .split_whitespace()
        .filter(|w| w.contains(':'))
        .count();
    assert_eq!(moves, shots, "{pgn}");
    // Only a seat of this table downloads it; GGF is for Othello.
    let (other_table, other_host, _) = server.open_table(r#"{"game": "battleship"}"#);
    for query in [
        format!("/api/tables/{id}/record?token={other_host}"),
        format!("/api/tables/{other_table}/record?token={host}"),
        format!("/api/tables/{id}/record?token={}", "0".repeat(48)),
        format!("/api/tables/{id}/record"),
    ] {
        assert_eq!(server.request("GET", &query, "").0, 404, "{query}");
    }
    let ggf = format!("/api/tables/{id}/record?token={host}&format=ggf");
    assert_eq!(server.request("GET", &ggf, "").0, 400);
}

/// Plays `moves` Othello moves (or to the end when `None`) from `turn` (the seat
/// to move), passing when a side has no move; answers the moves played.
fn othello_moves(
    seats: &mut [Seat; 2],
    turn: &mut usize,
    pick: &mut Pick,
    moves: Option<usize>,
) -> Vec<String> {
    let names = ["black", "white"];
    let mut played = Vec::new();
    while moves.is_none_or(|n| played.len() < n) && !seats[0].saw("over ") {
        let mv = seats[*turn]
            .legal_move(names[*turn], pick)
            .unwrap_or_else(|| "pass".to_string());
        seats[*turn].ok(&format!("play {} {mv}", names[*turn]));
        played.push(mv);
        let next = seats[0].wait_any(&["turn ", "over "]);
        assert_eq!(seats[1].wait_any(&["turn ", "over "]), next);
        *turn = usize::from(next == "event turn white");
    }
    played
}

#[test]
fn an_othello_table_survives_a_killed_server_and_its_record_downloads() {
    let db = Db::new("othello-restart");
    let server = db.server();
    let (id, host, invite) = server.open_table(r#"{"game": "othello", "clock": "900+2"}"#);
    let mut seats = [server.seat(&host), server.seat(&invite)];
    for seat in &mut seats {
        seat.wait_for("turn black");
    }
    let mut pick = Pick(3);
    let mut turn = 0;
    let mut played = othello_moves(&mut seats, &mut turn, &mut pick, Some(12));
    for seat in &mut seats {
        settle(seat);
    }
    let before = [told(&seats[0].frames), told(&seats[1].frames)];
    drop(seats);
    crash(server);

    let server = db.server();
    let (black, greeting) = reconnect(&server, &host);
    assert_eq!(told(&greeting), before[0]);
    let (white, greeting) = reconnect(&server, &invite);
    assert_eq!(told(&greeting), before[1]);
    let mut seats = [black, white];
    played.extend(othello_moves(&mut seats, &mut turn, &mut pick, None));
    let over = last_over(&seats[0]);
    let (status, pgn) = server.request("GET", &format!("/api/tables/{id}/record?token={host}"), "");
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("[Game \"othello\"]\n"), "{pgn}");
    assert!(pgn.contains("[Black \"host\"]\n[Result"), "{pgn}");
    let movetext = pgn.split_once("\n\n").expect("a movetext").1;
    let inside = movetext
        .trim_start_matches('{')
        .split_once('}')
        .expect("the moves in a comment")
        .0;
    let recorded: Vec<&str> = inside.split_whitespace().collect();
    assert_eq!(recorded, played);
    let (status, ggf) = server.request(
        "GET",
        &format!("/api/tables/{id}/record?token={invite}&format=ggf"),
        "",
    );
    assert_eq!(status, 200, "{ggf}");
    let game = tabula::games::othello::ggf::read(ggf.trim_end()).expect("GGF reads back");
    assert_eq!(game.moves.len(), played.len());
    let (black_discs, white_discs) = game.final_position().counts();
    assert!(
        over.ends_with(&format!(" {black_discs}-{white_discs}")),
        "{over} {black_discs}-{white_discs}"
    );
}

/// A second server on a database in use refuses to start (and says why), and the
/// first one goes on serving.
#[test]
fn a_database_serves_one_server_at_a_time() {
    let db = Db::new("one-server");
    let server = db.server();
    let (host, _) = server.open(r#"{"game": "shell"}"#);
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db", &db.0])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("tabula starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut second = second;
    let status = loop {
        if let Some(status) = second.try_wait().expect("a status") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = second.kill();
            panic!("a second server on the same database is still running");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let output = second.wait_with_output().expect("its output");
    assert!(!status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("in use by another server"), "{stderr}");
    assert!(output.stdout.is_empty());
    let mut black = server.seat(&host);
    black.ok("play black e5");
}

/// A sealed Shell pick made before the crash stays sealed after it: the other seat
/// is told only that it was made, and the turn resolves when the other picks.
#[test]
fn a_sealed_shell_pick_stays_sealed_across_a_killed_server() {
    let db = Db::new("shell-restart");
    let server = db.server();
    let (host, invite) = server.open(r#"{"game": "shell"}"#);
    let mut seats = [server.seat(&host), server.seat(&invite)];
    seats[0].ok("play black e5");
    seats[1].ok("play white d4");
    seats[0].wait_for("revealed e5 d4 ");
    seats[0].ok("play black c3");
    seats[1].wait_for("picked black");
    drop(seats);
    crash(server);

    let server = db.server();
    let (_, greeting) = reconnect(&server, &invite);
    assert!(greeting.contains(&"event picked black".to_string()));
    assert!(
        greeting.iter().all(|f| !super::names_cell(f, "c3")),
        "{greeting:?}"
    );
    let (mut black, greeting) = reconnect(&server, &host);
    assert!(greeting.contains(&"event picked black c3".to_string()));
    assert_eq!(
        black.command("play black c4"),
        Err("you have picked this turn already".to_string())
    );
    let (mut white, _) = reconnect(&server, &invite);
    white.ok("play white g7");
    let revealed = black.wait_for("revealed");
    assert!(revealed.starts_with("event revealed c3 g7 "), "{revealed}");
}

use super::*;

const BLACK: Color = Color::Black;
const WHITE: Color = Color::White;

fn room(kind: GameKind) -> Room {
    Room::new(kind, TimeControl::Unlimited, 7)
}

fn ok(room: &mut Room, seat: Color, line: &str) -> Reply {
    let reply = room.handle(seat, line);
    assert!(reply.answer.is_ok(), "{line}: {:?}", reply.answer);
    reply
}

/// A refused line answers an error, causes no event and changes nothing.
fn refused(room: &mut Room, seat: Color, line: &str) -> String {
    let before = (room.history(BLACK).to_vec(), room.history(WHITE).to_vec());
    let board = (room.picture(BLACK), room.picture(WHITE));
    let reply = room.handle(seat, line);
    assert!(reply.events.is_empty(), "{line}: {:?}", reply.events);
    assert_eq!(
        (room.history(BLACK).to_vec(), room.history(WHITE).to_vec()),
        before
    );
    assert_eq!((room.picture(BLACK), room.picture(WHITE)), board);
    reply.answer.expect_err(line)
}

fn texts(reply: &Reply, seat: Color) -> Vec<String> {
    reply
        .events
        .iter()
        .filter(|e| e.to.includes(seat))
        .map(|e| e.text.clone())
        .collect()
}

#[test]
fn a_seat_acts_only_for_its_own_colour() {
    let mut othello = room(GameKind::Othello);
    assert_eq!(
        refused(&mut othello, WHITE, "play black f5"),
        "this seat plays white"
    );
    assert_eq!(
        refused(&mut othello, WHITE, "play white f5"),
        "it is black's move"
    );
    let reply = ok(&mut othello, BLACK, "play black f5");
    let told = texts(&reply, WHITE);
    assert_eq!(told[0], "played black f5");
    assert!(told[1].starts_with("position "), "{told:?}");
    assert_eq!(told.last().map(String::as_str), Some("turn white"));
    refused(&mut othello, BLACK, "play black d6");
    refused(&mut othello, WHITE, "play white a1");
    refused(&mut othello, WHITE, "genmove white");
    refused(&mut othello, WHITE, "fleet white A1-A4");
}

#[test]
fn othello_plays_to_the_end_with_passes_and_keeps_the_score() {
    let mut othello = room(GameKind::Othello);
    let mut rng = Rng::new(11);
    let mut seat = BLACK;
    let mut over = None;
    for _ in 0..200 {
        let legal = othello.all_legal(seat);
        let moves: Vec<&str> = legal.split(' ').filter(|m| !m.is_empty()).collect();
        let Some(mv) = rng.choose(&moves) else {
            seat = seat.opponent();
            continue;
        };
        let reply = ok(&mut othello, seat, &format!("play {} {mv}", seat.name()));
        if let Some(end) = texts(&reply, BLACK).iter().find(|t| t.starts_with("over")) {
            over = Some(end.clone());
            break;
        }
        seat = seat.opponent();
        if othello.all_legal(seat) == "pass" {
            ok(&mut othello, seat, &format!("play {} pass", seat.name()));
            seat = seat.opponent();
        }
    }
    let over = over.expect("the game ended");
    assert!(over.starts_with("over "), "{over}");
    assert!(othello.is_over());
    refused(&mut othello, BLACK, "play black a1");
    let score = ok(&mut othello, WHITE, "score").answer.expect("a score");
    assert_eq!(
        score
            .split(' ')
            .filter_map(|w| w.parse::<u32>().ok())
            .sum::<u32>(),
        1
    );
    let again = ok(&mut othello, WHITE, "again");
    assert_eq!(texts(&again, BLACK)[0], "game othello 2");
    assert_eq!(othello.history(BLACK)[0], "game othello 2");
    ok(&mut othello, BLACK, "play black f5");
}

#[test]
fn shell_picks_stay_sealed_until_both_are_in() {
    let mut shell = room(GameKind::Shell);
    let reply = ok(&mut shell, BLACK, "play black e5");
    assert_eq!(texts(&reply, BLACK), ["picked black e5"]);
    assert_eq!(texts(&reply, WHITE), ["picked black"]);
    assert_eq!(
        refused(&mut shell, BLACK, "play black d4"),
        "you have picked this turn already"
    );
    assert!(shell.history(WHITE).iter().all(|e| !e.contains("e5")));
    let reply = ok(&mut shell, WHITE, "play white d4");
    let revealed = texts(&reply, BLACK)[1..].to_vec();
    assert_eq!(texts(&reply, BLACK)[0], "picked white");
    assert_eq!(texts(&reply, WHITE)[0], "picked white d4");
    assert_eq!(revealed, texts(&reply, WHITE)[1..]);
    assert!(
        revealed[0].starts_with("revealed e5 d4 placed status"),
        "{revealed:?}"
    );
    refused(&mut shell, WHITE, "play white e5");
}

#[test]
fn shell_games_end_and_no_pick_is_told_early() {
    let mut shell = room(GameKind::Shell);
    let mut rng = Rng::new(5);
    for _ in 0..2000 {
        if shell.is_over() {
            break;
        }
        let mut sealed = Vec::new();
        for seat in [WHITE, BLACK] {
            let legal = shell.all_legal(seat);
            let cells: Vec<&str> = legal.split(' ').collect();
            let cell = (*rng.choose(&cells).expect("an empty cell")).to_string();
            let reply = ok(&mut shell, seat, &format!("play {} {cell}", seat.name()));
            sealed.push((seat, cell, reply));
        }
        // The first pick's cell reaches the other seat only with the reveal.
        let (first, cell, reply) = &sealed[0];
        assert!(
            texts(reply, first.opponent())
                .iter()
                .all(|t| !t.contains(cell.as_str()))
        );
        let last = texts(&sealed[1].2, *first);
        assert!(last.iter().any(|t| t.starts_with("revealed")), "{last:?}");
    }
    assert!(shell.is_over(), "a random game ends within 2000 turns");
    assert!(shell.history(BLACK).iter().any(|t| t.starts_with("over ")));
}

/// Every event a seat received before the game ended names no cell of the other
/// fleet's ships that are still afloat.
fn audit_fleet_secrecy(room: &Room, seat: Color, other_fleet: &Fleet) {
    let history = room.history(seat);
    let end = history
        .iter()
        .position(|e| e.starts_with("over "))
        .unwrap_or(history.len());
    for (i, event) in history[..end].iter().enumerate() {
        assert!(
            !event.starts_with(&format!("fleet {}", seat.opponent().name())),
            "{event}"
        );
        for ship in other_fleet.ships() {
            let sunk_before = history[..i].iter().chain([event]).any(|e| {
                e.starts_with(&format!("shot {}", seat.name())) && e.ends_with(&ship.to_string())
            });
            if !sunk_before && ship.len() > 1 {
                assert!(!event.contains(&ship.to_string()), "{event} shows {ship}");
            }
        }
    }
}

#[test]
fn battleship_table_ready_start_offers_again_score_and_no_fleet_leaks() {
    let mut table = room(GameKind::Battleship);
    assert_eq!(
        refused(&mut table, BLACK, "play black A1"),
        "the game has not started"
    );
    assert_eq!(
        refused(&mut table, BLACK, "start"),
        "place your fleet first"
    );
    let black = ok(&mut table, BLACK, "genfleet black")
        .answer
        .expect("a fleet");
    assert_eq!(
        refused(&mut table, WHITE, "ready white"),
        "place your fleet first"
    );
    assert_eq!(
        refused(&mut table, BLACK, "ready black"),
        "only the guest (white) declares ready"
    );
    let reply = ok(
        &mut table,
        WHITE,
        "fleet white A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8",
    );
    assert_eq!(texts(&reply, BLACK), ["placed white"]);
    assert_eq!(
        refused(&mut table, BLACK, "start"),
        "white (the guest) is not ready"
    );
    ok(&mut table, WHITE, "ready white");
    assert_eq!(
        refused(&mut table, WHITE, "start"),
        "only the host (black) starts"
    );
    assert_eq!(
        ok(&mut table, BLACK, "start").answer,
        Ok("black".to_string())
    );
    assert_eq!(
        refused(&mut table, WHITE, "play white A1"),
        "it is black's shot"
    );
    refused(&mut table, WHITE, "genfleet white");
    // An offer, lapsed by the next shot; then an offer declined.
    ok(&mut table, WHITE, "offer_draw white");
    refused(&mut table, WHITE, "offer_draw white");
    refused(&mut table, WHITE, "accept_draw white");
    let mut rng = Rng::new(3);
    let shoot = |table: &mut Room, rng: &mut Rng| {
        let seat = if table.all_legal(BLACK).is_empty() {
            WHITE
        } else {
            BLACK
        };
        let legal = table.all_legal(seat);
        let cells: Vec<&str> = legal.split(' ').collect();
        let cell = (*rng.choose(&cells).expect("a cell")).to_string();
        ok(table, seat, &format!("play {} {cell}", seat.name()))
    };
    shoot(&mut table, &mut rng);
    refused(&mut table, BLACK, "accept_draw black");
    ok(&mut table, BLACK, "offer_draw black");
    let reply = ok(&mut table, WHITE, "decline_draw white");
    assert_eq!(texts(&reply, BLACK), ["declined white"]);
    refused(&mut table, BLACK, "offer_draw black");
    let mut guard = 0;
    while !table.is_over() {
        shoot(&mut table, &mut rng);
        guard += 1;
        assert!(guard < 200);
    }
    let black_fleet = Fleet::parse(&black).expect("a fleet");
    let white_fleet = Fleet::parse("A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8").expect("ok");
    audit_fleet_secrecy(&table, WHITE, &black_fleet);
    audit_fleet_secrecy(&table, BLACK, &white_fleet);
    // At the end both fleets are public.
    let white_saw = table.history(WHITE);
    assert!(
        white_saw
            .iter()
            .any(|e| e == &format!("fleet black {black}"))
    );
    assert!(white_saw.iter().any(|e| e.ends_with("fleet sunk")));
    refused(&mut table, BLACK, "play black J10");
    // Again: fleets anew, white shoots first, a draw by agreement counted.
    let again = ok(&mut table, WHITE, "again");
    assert_eq!(texts(&again, BLACK)[0], "game battleship 2");
    ok(&mut table, BLACK, "genfleet black");
    ok(&mut table, WHITE, "genfleet white");
    ok(&mut table, WHITE, "ready white");
    assert_eq!(
        ok(&mut table, BLACK, "start").answer,
        Ok("white".to_string())
    );
    ok(&mut table, BLACK, "offer_draw black");
    let reply = ok(&mut table, WHITE, "accept_draw white");
    let told = texts(&reply, BLACK);
    assert!(told.iter().any(|t| t == "over draw agreed"), "{told:?}");
    let score = ok(&mut table, BLACK, "score").answer.expect("a score");
    assert!(score.ends_with("draws 1"), "{score}");
    assert_eq!(
        score
            .split(' ')
            .filter_map(|w| w.parse::<u32>().ok())
            .sum::<u32>(),
        2
    );
}

#[test]
fn showboard_shows_the_own_fleet_only() {
    let mut table = room(GameKind::Battleship);
    ok(
        &mut table,
        BLACK,
        "fleet black A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8",
    );
    ok(
        &mut table,
        WHITE,
        "fleet white J1-J4 H1-H3 F1-F3 D1-D2 B1-B2 I6-J6 J8 H8 F8 D8",
    );
    let white = ok(&mut table, WHITE, "showboard")
        .answer
        .expect("a picture");
    // 20 ship cells on the left, and the legend's `# ship`; none on the right.
    assert_eq!(white.matches('#').count(), 21, "{white}");
    assert!(
        white.lines().all(|l| !l.chars().skip(26).any(|c| c == '#')),
        "{white}"
    );
}

#[test]
fn battleship_clocks_run_only_after_the_start_and_a_flag_loses() {
    let control = parse_clock("2+1").expect("a clock");
    let mut table = Room::new(GameKind::Battleship, control, 1);
    assert!(
        table
            .history(WHITE)
            .contains(&"clock black 2.0".to_string())
    );
    ok(&mut table, BLACK, "genfleet black");
    ok(&mut table, WHITE, "genfleet white");
    ok(&mut table, WHITE, "ready white");
    assert!(table.elapse(60_000).is_empty());
    assert!(!table.clock_running());
    ok(&mut table, BLACK, "start");
    assert!(table.clock_running());
    assert!(table.elapse(1500).is_empty());
    let events = table.elapse(600);
    let texts: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
    assert!(texts.contains(&"clock black 0.0"), "{texts:?}");
    assert!(texts.contains(&"over white_wins on time"), "{texts:?}");
    assert!(!table.clock_running());
}

#[test]
fn othello_clocks_start_with_the_first_move_and_add_increments() {
    let control = parse_clock("10+2").expect("a clock");
    let mut othello = Room::new(GameKind::Othello, control, 1);
    assert!(othello.elapse(9000).is_empty());
    ok(&mut othello, BLACK, "play black f5");
    othello.elapse(4000);
    let reply = ok(&mut othello, WHITE, "play white f6");
    let told = texts(&reply, BLACK);
    assert!(told.contains(&"clock white 8.0".to_string()), "{told:?}");
    let events = othello.elapse(10_000);
    assert!(
        events.iter().any(|e| e.text == "over white_wins on time"),
        "{events:?}"
    );
    let score = ok(&mut othello, BLACK, "score").answer.expect("a score");
    assert_eq!(score, "black 0 white 1 draws 0");
}

#[test]
fn clock_texts_are_checked() {
    assert_eq!(
        parse_clock("300+5"),
        Ok(TimeControl::Timed {
            main_ms: 300_000,
            increment_ms: 5000
        })
    );
    assert!(parse_clock("0+5").is_err());
    assert!(parse_clock("-1").is_err());
    assert!(parse_clock("ten").is_err());
    assert!(parse_clock("1e300").is_err());
}

#[test]
fn bad_lines_are_refused_without_effect() {
    let mut shell = room(GameKind::Shell);
    refused(&mut shell, BLACK, "");
    refused(&mut shell, BLACK, "play black");
    refused(&mut shell, BLACK, "play black z99");
    refused(&mut shell, BLACK, "\u{0}\u{1}");
    refused(&mut shell, BLACK, &"x".repeat(100_000));
    refused(&mut shell, BLACK, "start");
    refused(&mut shell, BLACK, "again");
}

/// The lines a room reports as changes, replayed with the same time between them on
/// a new room with another seed, rebuild it: what each seat was told, the score, the
/// clocks, the finished games. Lines that changed nothing are not reported.
#[test]
fn stored_changes_replay_to_the_same_table() {
    let control = parse_clock("30+1").expect("a clock");
    let mut live = Room::new(GameKind::Battleship, control, 11);
    let mut log: Vec<(u64, Option<(Color, String)>)> = Vec::new();
    let mut pending_ms = 0;
    let mut act = |room: &mut Room, ms: u64, seat: Color, line: &str| {
        pending_ms += ms;
        room.elapse(ms);
        let reply = room.handle(seat, line);
        if let Some(change) = reply.change.clone() {
            log.push((std::mem::take(&mut pending_ms), Some((seat, change))));
        }
        reply
    };
    let fleet = act(&mut live, 0, BLACK, "genfleet black").answer;
    assert!(fleet.is_ok());
    assert_eq!(act(&mut live, 5, BLACK, "score").change, None);
    assert_eq!(act(&mut live, 5, WHITE, "ready white").change, None);
    act(&mut live, 0, WHITE, "genfleet white");
    act(&mut live, 100, WHITE, "ready white");
    act(&mut live, 100, BLACK, "start");
    let mut rng = Rng::new(5);
    let mut turn = BLACK;
    let mut shots = 0;
    while !live.is_over() {
        let legal = live.all_legal(turn);
        let cells: Vec<&str> = legal.split(' ').collect();
        let cell = *rng.choose(&cells).expect("a cell");
        let reply = act(
            &mut live,
            250,
            turn,
            &format!("play {} {cell}", turn.name()),
        );
        shots += 1;
        if shots == 4 {
            act(&mut live, 10, turn, &format!("offer_draw {}", turn.name()));
            let other = turn.opponent();
            act(
                &mut live,
                10,
                other,
                &format!("decline_draw {}", other.name()),
            );
        }
        if reply.answer.as_deref() == Ok("miss") {
            turn = turn.opponent();
        }
    }
    act(&mut live, 0, WHITE, "again");
    act(&mut live, 0, BLACK, "genfleet black");
    // The first record's fleets are both there: the game is over.
    assert_eq!(live.finished().len(), 1);
    assert!(live.finished()[0].fleets.iter().all(Option::is_some));
    assert!(live.finished()[0].moves.len() >= shots);
    let mut replayed = Room::new(GameKind::Battleship, control, 999);
    for (ms, command) in &log {
        replayed.elapse(*ms);
        if let Some((seat, line)) = command {
            assert!(replayed.handle(*seat, line).change.is_some(), "{line}");
        }
    }
    for seat in Color::ALL {
        assert_eq!(replayed.history(seat), live.history(seat));
    }
    assert_eq!(replayed.finished(), live.finished());
    assert_eq!(replayed.picture(BLACK), live.picture(BLACK));
    assert_eq!(replayed.clock(BLACK), live.clock(BLACK));
    assert!(
        log.iter()
            .all(|(_, c)| c.as_ref().is_none_or(|(_, l)| !l.starts_with("genfleet"))),
        "genfleet is stored as the fleet it placed"
    );
}

#[test]
fn a_forfeit_ends_the_game_for_the_other_colour_with_its_reason() {
    let mut othello = room(GameKind::Othello);
    ok(&mut othello, BLACK, "play black f5");
    let events = othello.forfeit(WHITE, "engine tabula disconnects\n(its output closed)");
    let texts: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "over black_wins forfeit: engine tabula disconnects (its output closed)",
            "score black 1 white 0 draws 0"
        ]
    );
    assert!(events.iter().all(|e| e.to == Audience::Both));
    assert!(othello.is_over());
    assert_eq!(othello.history(BLACK).last(), othello.history(WHITE).last());
    refused(&mut othello, BLACK, "play black d6");
    assert!(othello.forfeit(WHITE, "again").is_empty());
    ok(&mut othello, BLACK, "again");
    assert!(!othello.is_over());
    ok(&mut othello, BLACK, "play black f5");

    // Battleship: even before the start, and counted in the table's score.
    let mut table = room(GameKind::Battleship);
    ok(&mut table, BLACK, "genfleet black");
    let events = table.forfeit(WHITE, "engine x stalls");
    assert_eq!(events[0].text, "over black_wins forfeit: engine x stalls");
    assert_eq!(
        ok(&mut table, BLACK, "score").answer,
        Ok("black 1 white 0 draws 0".to_string())
    );
    ok(&mut table, WHITE, "again");
    ok(&mut table, BLACK, "genfleet black");
}

//! Battleship through the real binary (B1–B11): a referee session that knows both
//! fleets, and two player sessions that each know only their own, agreeing shot by
//! shot.

use crate::common::Engine;

fn battleship_engine(seed: u64) -> Engine {
    let mut engine = Engine::start(&["--game", "battleship"]);
    engine.ok(&format!("set_option seed {seed}"));
    engine
}

const FLEET: &str = "A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8";

#[test]
fn two_players_and_a_referee_agree_shot_by_shot() {
    for round in 0..2 {
        let mut black = battleship_engine(10 + round);
        let mut white = battleship_engine(20 + round);
        let mut referee = battleship_engine(30 + round);
        let black_fleet = black.ok("genfleet black");
        let white_fleet = white.ok("genfleet white");
        referee.ok(&format!("fleet black {black_fleet}"));
        referee.ok(&format!("fleet white {white_fleet}"));
        for engine in [&mut black, &mut white, &mut referee] {
            engine.ok("ready white");
            assert_eq!(engine.ok("start"), "black", "B7: the host shoots first");
        }
        let mut shots = 0;
        while referee.ok("status") == "ongoing" {
            let shooter = if referee.ok("all_legal black").is_empty() {
                "white"
            } else {
                "black"
            };
            let (me, target) = if shooter == "black" {
                (&mut black, &mut white)
            } else {
                (&mut white, &mut black)
            };
            let cell = me.ok(&format!("genmove {shooter}"));
            assert!(
                !cell.contains(' '),
                "the shooter's session cannot judge: {cell}"
            );
            let result = referee.ok(&format!("play {shooter} {cell}"));
            assert_eq!(
                target.ok(&format!("play {shooter} {cell}")),
                result,
                "the target's own fleet agrees"
            );
            me.ok(&format!("play {shooter} {cell} {result}"));
            shots += 1;
            assert!(shots <= 200, "B5: every shot spends a cell, so a game ends");
        }
        assert!(
            shots >= 20,
            "B7: a win needs all 20 ship cells hit ({shots} shots)"
        );
        let status = referee.ok("status");
        assert!(status == "black_wins" || status == "white_wins", "{status}");
        assert_eq!(black.ok("status"), status);
        assert_eq!(white.ok("status"), status);
        let score = referee.ok("score");
        assert_eq!(black.ok("score"), score);
        assert_eq!(white.ok("score"), score);
        let final_score = if status == "black_wins" { "B+1" } else { "W+1" };
        assert_eq!(referee.ok("final_score"), final_score);
    }
}

#[test]
fn the_referee_answers_cell_and_result_for_genmove() {
    let mut referee = battleship_engine(3);
    referee.ok("genfleet black");
    referee.ok("genfleet white");
    referee.ok("ready white");
    referee.ok("start");
    let answer = referee.ok("genmove black");
    let mut words = answer.split(' ');
    let cell = words.next().expect("a cell");
    let result: Vec<&str> = words.collect();
    assert!(
        matches!(result.as_slice(), ["miss"] | ["hit"] | ["sunk", _]),
        "{answer}"
    );
    // B5: the same cell cannot be shot again, by anyone.
    assert_eq!(referee.ok(&format!("is_legal black {cell}")), "false");
    referee.ok("undo");
    assert_eq!(referee.ok(&format!("is_legal black {cell}")), "true");
}

#[test]
fn refusals_give_a_reason_and_change_nothing() {
    let mut engine = battleship_engine(1);
    let fresh = engine.ok("position");
    for (line, expected) in [
        ("fleet black A1-A4", "invalid fleet"),
        (
            "fleet black A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 F8",
            "invalid fleet",
        ),
        (
            "fleet black A1-B2 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 G8",
            "invalid fleet",
        ),
        (
            "fleet black A1-A4 C1-C3 E1-E3 G1-G2 I1-I2 A6-B6 A8 C8 E8 K8",
            "invalid fleet",
        ),
        ("play black A1 miss", "illegal move"),
        ("start", ""),
        ("ready black", ""),
        ("accept_draw white", ""),
        ("again", ""),
    ] {
        let message = engine.refused(line);
        assert!(
            message.starts_with(expected),
            "{line:?} answered {message:?}"
        );
        assert_eq!(engine.ok("position"), fresh, "after {line:?}");
    }
    engine.ok(&format!("fleet white {FLEET}"));
    engine.ok("genfleet black");
    engine.ok("ready white");
    engine.ok("start");
    let started = engine.ok("position");
    for (line, expected) in [
        ("play white A1", "illegal move"), // black shoots first (B7)
        ("play black K1", "syntax error"),
        ("play black A1 sunk cruiser", "illegal move"), // disagrees with the known fleet
        (&format!("fleet white {FLEET}") as &str, ""),  // no fleet after the start (B9)
        ("accept_draw white", ""),                      // nothing offered (B8)
    ] {
        let message = engine.refused(line);
        assert!(
            message.starts_with(expected),
            "{line:?} answered {message:?}"
        );
        assert_eq!(engine.ok("position"), started, "after {line:?}");
    }
    // A1 holds white's battleship: a hit, and black shoots again (B4); then the
    // same cell is refused (B5).
    assert_eq!(engine.ok("play black A1"), "hit");
    assert!(engine.refused("play black A1").starts_with("illegal move"));
    assert_eq!(engine.ok("all_legal white"), "");
}

#[test]
fn draw_offers_and_the_table_score() {
    let mut engine = battleship_engine(2);
    engine.ok(&format!("fleet white {FLEET}"));
    engine.ok("genfleet black");
    engine.ok("ready white");
    engine.ok("start");
    engine.ok("offer_draw black");
    assert!(
        !engine.ask("offer_draw black").ok,
        "B8: one offer per player per shot"
    );
    assert!(
        !engine.ask("accept_draw black").ok,
        "the offerer cannot accept"
    );
    engine.ok("accept_draw white");
    assert_eq!(engine.ok("status"), "draw");
    assert_eq!(engine.ok("score"), "black 0 white 0 draws 1");
    engine.ok("again");
    assert_eq!(
        engine.ok("score"),
        "black 0 white 0 draws 1",
        "B10: the score is kept"
    );
    engine.ok(&format!("fleet white {FLEET}"));
    engine.ok("genfleet black");
    engine.ok("ready white");
    assert_eq!(
        engine.ok("start"),
        "white",
        "B7: the first shooter alternates"
    );
}

/// The `clocks=` field of the table's notation.
fn clocks(engine: &mut Engine) -> String {
    let position = engine.ok("position");
    let field = position.split(' ').find(|f| f.starts_with("clocks="));
    field.unwrap_or_default().to_string()
}

/// Regression: `time_settings 60 5 0` gave each player 60 s plus 5 s a shot; GTP 2
/// says byo-yomi time with 0 stones is no time limit. B11's main time plus an
/// increment is KGS's `kgs-time_settings fischer MAIN INC`.
#[test]
fn b11_clocks_follow_gtp_and_kgs_time_settings() {
    let mut engine = battleship_engine(5);
    engine.ok("time_settings 60 5 0");
    assert_eq!(clocks(&mut engine), "clocks=-,-");
    engine.ok("kgs-time_settings fischer 60 5");
    assert_eq!(
        clocks(&mut engine),
        "clocks=60000/60000+5000,60000/60000+5000"
    );
    engine.ok("kgs-time_settings absolute 90");
    assert_eq!(clocks(&mut engine), "clocks=90000/90000+0,90000/90000+0");
    // Refused, nothing changes: periods (no B11 clock), no main time, bad words.
    for bad in [
        "kgs-time_settings byoyomi 60 10 5",
        "kgs-time_settings canadian 60 300 25",
        "time_settings 60 300 25",
        "kgs-time_settings fischer 0 5",
        "kgs-time_settings fischer 60",
        "kgs-time_settings sandglass 60",
    ] {
        engine.refused(bad);
        assert_eq!(
            clocks(&mut engine),
            "clocks=90000/90000+0,90000/90000+0",
            "{bad}"
        );
    }
    engine.ok("kgs-time_settings none");
    assert_eq!(clocks(&mut engine), "clocks=-,-");
    // After the start the clocks are fixed (B9).
    engine.ok(&format!("fleet white {FLEET}"));
    engine.ok("genfleet black");
    engine.ok("ready white");
    engine.ok("start");
    assert!(
        engine
            .refused("kgs-time_settings fischer 60 5")
            .contains("started")
    );
    assert_eq!(clocks(&mut engine), "clocks=-,-");
}

#[test]
fn a_flag_fall_loses() {
    let mut engine = battleship_engine(4);
    engine.ok("time_settings 60 0 0");
    engine.ok(&format!("fleet white {FLEET}"));
    engine.ok("genfleet black");
    engine.ok("ready white");
    engine.ok("start");
    engine.ok("time_left black 30 0");
    assert_eq!(engine.ok("status"), "ongoing");
    engine.ok("time_left black 0 0");
    assert_eq!(engine.ok("status"), "white_wins", "B11: black's flag fell");
    assert_eq!(engine.ok("score"), "black 0 white 1 draws 0");
}

#[test]
fn the_bench_reports_both_fleet_sets() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args([
            "bench",
            "battleship",
            "--fleets",
            "3",
            "--seed",
            "5",
            "--threads",
            "1",
        ])
        .output()
        .expect("the bench runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("utf-8");
    let mean = |line: &str| -> f64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "mean").expect("a mean");
        words[at + 1].parse().expect("a number")
    };
    let sets: Vec<&str> = text.split("hunter vs ").skip(1).collect();
    assert_eq!(sets.len(), 2, "{text}");
    for (i, set) in sets.iter().enumerate() {
        assert!(set.contains("(3 games)"), "{set}");
        let line = |start: &str| set.lines().find(|l| l.trim_start().starts_with(start));
        let shots = mean(line("shots").expect("shots"));
        let misses = mean(line("misses  ").expect("misses"));
        // Every game hits the fleet's 20 cells once: misses are shots less 20.
        assert!((shots - misses - 20.0).abs() < 0.011, "{set}");
        assert!((15.0..=80.0).contains(&misses), "{set}");
        assert!(line("time per shot").is_some());
        // The control variate assumes uniform boats: the uniform set only.
        let variate = line("misses with the last boats");
        assert_eq!(variate.is_some(), i == 0, "{set}");
        if let Some(v) = variate {
            assert!((mean(v) - misses).abs() < 15.0, "{set}");
        }
    }
}

#[test]
fn the_bench_pairs_hunters_on_the_same_fleets_and_seeds() {
    let bench = |hunters: &str| -> String {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args([
                "bench",
                "battleship",
                "--fleets",
                "2",
                "--seed",
                "9",
                "--uniform-only",
                "--hunters",
                hunters,
                "--rollout-candidates",
                "2",
                "--rollout-fleets",
                "3",
            ])
            .output()
            .expect("the bench runs");
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).expect("utf-8")
    };
    // The same hunter twice plays the same games: a paired difference of zero.
    let same = bench("default,default");
    assert_eq!(same.matches("hunter vs ").count(), 2, "{same}");
    assert!(!same.contains("placer"), "{same}");
    let line = same
        .lines()
        .find(|l| l.contains("paired difference"))
        .expect("a paired difference");
    assert!(
        line.contains("+0.000 (se 0.000); with the control variate +0.000 (se 0.000)"),
        "{line}"
    );
    // The rollout hunter beside the default one.
    let both = bench("default,rollout");
    assert!(both.contains("rollout (candidates 2, fleets 3"), "{both}");
    assert_eq!(both.matches("paired difference").count(), 1, "{both}");
    // The finisher at two probe credits in one run, each paired with the first.
    let finishers = bench("default,finish,finish@0.5");
    assert!(
        finishers.contains("finish (probe 2, draws 500)"),
        "{finishers}"
    );
    assert!(
        finishers.contains("finish (probe 0.5, draws 500)"),
        "{finishers}"
    );
    assert_eq!(
        finishers.matches("paired difference").count(),
        2,
        "{finishers}"
    );
    // An unknown hunter, and a finisher's credit that is no number of at least 0,
    // are refused.
    for (hunters, error) in [
        ("default,psychic", "unknown hunter"),
        ("default,finish@-1", "probe credit"),
        ("default,finish@nan", "probe credit"),
        ("default,finish@x", "needs a number"),
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["bench", "battleship", "--hunters", hunters])
            .output()
            .expect("the bench runs");
        assert!(!output.status.success(), "{hunters}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(error),
            "{hunters}: {output:?}"
        );
    }
}

#[test]
fn the_bench_plays_the_learned_hunter_and_the_placement_styles() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args([
            "bench",
            "battleship",
            "--fleets",
            "1",
            "--seed",
            "4",
            "--uniform-only",
            "--hunters",
            "default,learned",
            "--styles",
        ])
        .output()
        .expect("the bench runs");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(
        text.contains("learned (candidates 4, margin 0.2)"),
        "{text}"
    );
    assert_eq!(text.matches("paired difference").count(), 1, "{text}");
    assert!(text.contains("CPU"), "{text}");
    let styles: Vec<&str> = text
        .split("placement styles")
        .nth(1)
        .expect("the styles' section")
        .lines()
        .skip(1)
        .collect();
    for (line, name) in styles
        .iter()
        .zip(["uniform", "border", "compact", "packed", "placer"])
    {
        assert!(line.trim_start().starts_with(name), "{line}");
        assert!(
            line.contains("mixture prior")
                && line.contains("adaptive (in-game)")
                && line.contains("mixture weights at the end"),
            "{line}"
        );
    }
    assert_eq!(styles.len(), 5, "{text}");
}

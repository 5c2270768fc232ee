//! Moves keep to their budget whatever the search memory: tables are made when the
//! engine starts or an option changes them, never inside a move, and options the
//! machine cannot hold are refused before anything is allocated.

use std::time::{Duration, Instant};

use tabula::games::othello::Move;

use crate::common::Engine;

#[test]
fn a_large_hash_costs_no_move_time_from_the_first_move_on() {
    let mut engine = Engine::othello();
    engine.ok("set_option hash 1024");
    engine.ok("set_option movetime 100");
    let started = Instant::now();
    for color in ["black", "white", "black", "white", "black"] {
        let asked = Instant::now();
        let answer = engine.ok(&format!("genmove {color}"));
        assert!(Move::parse(&answer).is_some(), "{answer}");
        // Far above the 100 ms asked for, far below building 1.25 GiB of tables.
        let took = asked.elapsed();
        assert!(took < Duration::from_secs(1), "{color}: {took:?}");
    }
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "five 100 ms moves took {:?}",
        started.elapsed()
    );
}

#[test]
fn the_hash_option_is_checked_before_anything_is_allocated() {
    let mut engine = Engine::othello();
    engine.ok("set_option hash 8");
    for bad in ["0", "-1", "lots", "1e3", "99999999999999999999", "65537"] {
        let refused = engine.refused(&format!("set_option hash {bad}"));
        assert!(refused.contains("hash"), "{bad}: {refused}");
    }
    // More than the machine has free: refused with the reason, where it can be
    // told and the machine is not so large that the request would fit.
    match tabula::machine::available_memory() {
        Some(free) if free < 60 << 30 => {
            let refused = engine.refused("set_option hash 65536");
            assert!(refused.contains("memory"), "{refused}");
        }
        other => eprintln!("skipped the over-memory case: free memory {other:?}"),
    }
    // Nothing changed: the engine still plays with its small table.
    engine.ok("set_option depth 3");
    assert!(Move::parse(&engine.ok("genmove black")).is_some());
}

#[test]
fn thread_counts_beyond_reason_are_refused() {
    let mut engine = Engine::othello();
    let refused = engine.refused("set_option threads 10000");
    assert!(refused.contains("threads"), "{refused}");
    engine.ok("set_option threads 2");
    engine.ok("set_option depth 4");
    assert!(Move::parse(&engine.ok("genmove black")).is_some());
}

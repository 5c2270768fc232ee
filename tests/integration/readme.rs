//! The transcripts of the README and of `protocol/*.md`, run through the real binary.
//!
//! A fenced block whose info string is `gtp` is a transcript: each exchange is a
//! command line followed by the engine's answer (a line starting with `=` or `?`, then
//! any further lines of a multi-line answer) and an empty line. Every block runs in a
//! fresh engine, one command at a time, and every answer must match the text exactly,
//! trailing spaces included (an empty success is `= `). Blocks without the `gtp` mark
//! (grammars, elided pictures) are prose and are not run.

use super::common::Engine;

/// One documented exchange: the command typed and the answer's lines.
#[derive(Debug, PartialEq, Eq)]
struct Exchange {
    /// The line number of the command in its file, for failure messages.
    line: usize,
    command: String,
    answer: Vec<String>,
}

/// The `gtp` blocks of a markdown text, each as its exchanges.
fn transcripts(markdown: &str) -> Vec<Vec<Exchange>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Exchange>> = None;
    let mut awaiting_answer = false;
    for (index, line) in markdown.lines().enumerate() {
        let number = index + 1;
        let Some(block) = current.as_mut() else {
            if line.trim_end() == "```gtp" {
                current = Some(Vec::new());
                awaiting_answer = false;
            }
            continue;
        };
        if line.trim_end() == "```" {
            assert!(
                block.last().is_none_or(|e| !e.answer.is_empty()),
                "line {number}: the block ends before the last command's answer"
            );
            blocks.push(current.take().unwrap_or_default());
            continue;
        }
        if line.is_empty() {
            awaiting_answer = false;
        } else if awaiting_answer || line.starts_with('=') || line.starts_with('?') {
            let exchange = block
                .last_mut()
                .unwrap_or_else(|| panic!("line {number}: an answer before any command"));
            assert!(
                awaiting_answer || exchange.answer.is_empty(),
                "line {number}: an answer after the answer's empty line"
            );
            exchange.answer.push(line.to_string());
            awaiting_answer = true;
        } else {
            if let Some(previous) = block.last() {
                assert!(
                    !previous.answer.is_empty(),
                    "line {number}: a command follows {:?} without its answer",
                    previous.command
                );
            }
            block.push(Exchange {
                line: number,
                command: line.to_string(),
                answer: Vec::new(),
            });
        }
    }
    assert!(current.is_none(), "a gtp block is not closed");
    blocks
}

/// Runs every block of `markdown` through a fresh engine each and checks every answer.
fn run_all(file: &str, markdown: &str) -> usize {
    let blocks = transcripts(markdown);
    for block in &blocks {
        let mut engine = Engine::start(&[]);
        for exchange in block {
            engine.send(&exchange.command);
            let mut answer = Vec::new();
            loop {
                let line = engine.line().unwrap_or_else(|| {
                    panic!(
                        "{file}:{}: the engine ended while answering {:?}",
                        exchange.line, exchange.command
                    )
                });
                if line.is_empty() {
                    break;
                }
                answer.push(line);
            }
            assert_eq!(
                answer, exchange.answer,
                "{file}:{}: the answer to {:?} (left: the engine's, right: the text's)",
                exchange.line, exchange.command
            );
        }
        if block.last().is_some_and(|e| e.command.ends_with("quit")) {
            assert_eq!(engine.wait(), Some(0), "{file}: quit ends with status 0");
        }
    }
    blocks.len()
}

#[test]
fn readme_sessions_reproduce() {
    let readme = include_str!("../../README.md");
    let blocks = transcripts(readme);
    for game in ["set_game shell", "set_game battleship", "play black f5"] {
        assert!(
            blocks
                .iter()
                .any(|b| b.iter().any(|e| e.command.ends_with(game))),
            "the README has a session with {game:?}"
        );
    }
    assert_eq!(run_all("README.md", readme), blocks.len());
}

#[test]
fn readme_protocol_examples_reproduce() {
    let files = [
        (
            "protocol/PROTOCOL.md",
            include_str!("../../protocol/PROTOCOL.md"),
        ),
        (
            "protocol/othello.md",
            include_str!("../../protocol/othello.md"),
        ),
        ("protocol/shell.md", include_str!("../../protocol/shell.md")),
        ("protocol/gogui.md", include_str!("../../protocol/gogui.md")),
        (
            "protocol/battleship.md",
            include_str!("../../protocol/battleship.md"),
        ),
    ];
    for (file, text) in files {
        assert!(run_all(file, text) > 0, "{file} has runnable examples");
    }
}

#[test]
fn readme_transcript_reader_splits_exchanges() {
    let text = "prose\n```\nnot run\n= x\n```\n```gtp\n1 name\n=1 tabula\n\nshowboard\n= \n a\n b\n\nfoo\n? unknown command\n```\n";
    let blocks = transcripts(text);
    assert_eq!(blocks.len(), 1);
    let commands: Vec<_> = blocks[0].iter().map(|e| e.command.as_str()).collect();
    assert_eq!(commands, ["1 name", "showboard", "foo"]);
    assert_eq!(blocks[0][1].answer, ["= ", " a", " b"]);
    assert_eq!(blocks[0][2].line, 15);
}

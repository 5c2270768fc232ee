//! The page in a real browser: Debian's headless Chromium driven through WebDriver
//! (chromedriver), two browser sessions playing a whole Battleship game through the
//! page; screenshots are left in `target/tmp/serve-browser/`. Skipped, saying so,
//! where Chromium is not installed, unless `CI=true` or `TABULA_REQUIRE_CHROMIUM=1`
//! (set by `.ci/run`) makes that a failure.
//!
//! The WebDriver client is a few plain HTTP requests: W3C WebDriver is JSON over
//! HTTP, and chromedriver answers with a Content-Length.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Server;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The key W3C WebDriver names an element by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("chromedriver listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("request sent");
    // chromedriver keeps the connection open: read the headers, then Content-Length
    // bytes.
    let mut response = Vec::new();
    let mut byte = [0u8; 1];
    while !response.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).expect("response headers");
        response.push(byte[0]);
    }
    let headers = String::from_utf8_lossy(&response).to_ascii_lowercase();
    let length: usize = headers
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a Content-Length");
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).expect("the body");
    serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&body)))
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver { child, port };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver listens"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }

    fn session(&self, profile: &Path) -> Browser {
        let capabilities = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=900,1000",
                     format!("--user-data-dir={}", profile.display())],
        }}}});
        let answer = http(self.port, "POST", "/session", Some(&capabilities));
        let id = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("a session: {answer}"))
            .to_string();
        Browser {
            port: self.port,
            id,
        }
    }
}

/// One browser session.
struct Browser {
    port: u16,
    id: String,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(self.port, "DELETE", &format!("/session/{}", self.id), None);
    }
}

impl Browser {
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let answer = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.id),
            body,
        );
        assert!(answer["value"].get("error").is_none(), "{path}: {answer}");
        answer["value"].clone()
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(&json!({ "url": url })));
    }

    fn eval(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(&json!({ "script": script, "args": [] })),
        )
    }

    /// Clicks the element `selector` names, as a user would.
    fn click(&self, selector: &str) {
        let found = self.call(
            "POST",
            "/element",
            Some(&json!({ "using": "css selector", "value": selector })),
        );
        let element = found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{selector}: {found}"))
            .to_string();
        self.call(
            "POST",
            &format!("/element/{element}/click"),
            Some(&json!({})),
        );
    }

    /// Waits (20 s at most) until `script` returns true.
    fn wait(&self, script: &str) {
        let started = Instant::now();
        while self.eval(script) != Value::Bool(true) {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "waited for {script}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    fn visible(&self, id: &str) -> String {
        format!("return !document.getElementById('{id}').hidden")
    }

    fn text(&self, id: &str) -> String {
        let script = format!("return document.getElementById('{id}').textContent");
        self.eval(&script).as_str().unwrap_or_default().to_string()
    }

    fn screenshot(&self, path: &Path) {
        let png = self.call("GET", "/screenshot", None);
        let bytes = base64(png.as_str().expect("base64 PNG"));
        assert_eq!(bytes.get(1..4), Some(&b"PNG"[..]));
        std::fs::write(path, bytes).expect("screenshot written");
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

#[test]
fn two_browsers_play_a_battleship_table_through_the_page() {
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        let required = std::env::var("TABULA_REQUIRE_CHROMIUM").as_deref() == Ok("1")
            || std::env::var("CI").as_deref() == Ok("true");
        assert!(
            !required,
            "Chromium is not installed at {CHROMIUM} with {CHROMEDRIVER} and CI=true or \
             TABULA_REQUIRE_CHROMIUM=1: `apt-get install chromium chromium-driver` (.ci/run does)"
        );
        eprintln!(
            "SKIPPED two_browsers_play_a_battleship_table_through_the_page: Chromium is not \
             installed at {CHROMIUM} with {CHROMEDRIVER} (`apt-get install chromium \
             chromium-driver` to run it)"
        );
        return;
    }
    let server = Server::start();
    let driver = Driver::start();
    let artifacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-browser");
    std::fs::create_dir_all(&artifacts).expect("an artifact folder");
    // Fresh profiles: a profile left by an earlier run may still be locked.
    for profile in ["host-profile", "guest-profile"] {
        let _ = std::fs::remove_dir_all(artifacts.join(profile));
    }
    let host = driver.session(&artifacts.join("host-profile"));
    let guest = driver.session(&artifacts.join("guest-profile"));
    // The host opens a Battleship table from the page and reads the invitation.
    host.go(&format!("http://{}/", server.address));
    host.click("#open");
    host.wait("return document.getElementById('invite').value.includes('#seat=')");
    let invite = host
        .eval("return document.getElementById('invite').value")
        .as_str()
        .expect("a link")
        .to_string();
    guest.go(&invite);
    host.wait("return document.getElementById('news').textContent.includes('friend is here')");
    // Fleets: random for both; the guest is ready, the host starts.
    for browser in [&host, &guest] {
        browser.wait(&browser.visible("random"));
        browser.click("#random");
        browser.wait("return document.querySelectorAll('#mine td.ship').length === 20");
    }
    guest.wait(&guest.visible("ready"));
    guest.click("#ready");
    host.wait(&host.visible("start"));
    host.click("#start");
    // Shots by clicks on the enemy waters until the game ends.
    let mut shots = 0;
    let started = Instant::now();
    while host.eval("return document.body.dataset.over") != "true" {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the game ends"
        );
        for browser in [&host, &guest] {
            if browser.eval("return document.body.dataset.myturn") != "true" {
                continue;
            }
            let cell = browser.eval(
                "const open = document.querySelector('#enemy td.open'); \
                 return open ? open.dataset.cell : null",
            );
            let Some(cell) = cell.as_str() else { continue };
            browser.click(&format!("#enemy td[data-cell='{cell}']"));
            browser.wait(&format!(
                "return !document.querySelector(\"#enemy td[data-cell='{cell}']\")\
                 .classList.contains('open')"
            ));
            shots += 1;
            if shots == 40 {
                host.screenshot(&artifacts.join("battleship-mid-game.png"));
            }
        }
    }
    guest.wait("return document.body.dataset.over === 'true'");
    let (won, lost) = (host.text("status"), guest.text("status"));
    assert!(won.starts_with("game over: you"), "{won}");
    assert!(lost.starts_with("game over: you"), "{lost}");
    assert_ne!(
        won.contains("you won"),
        lost.contains("you won"),
        "{won} / {lost}"
    );
    assert!(host.text("score").contains("draws 0"));
    assert!(shots >= 20, "at least one shot per ship cell: {shots}");
    host.screenshot(&artifacts.join("battleship-over.png"));
    // The finished game's record, by the address the page's Records button fetches.
    guest.wait(&guest.visible("records"));
    let record = guest.eval("return fetch(recordUrl('pgn')).then(r => r.text())");
    let record = record.as_str().unwrap_or_default();
    assert!(record.starts_with("[Event \"tabula serve\"]"), "{record}");
    assert!(record.contains("[BlackFleet "), "{record}");
    // Again: the next game's setup, the score kept.
    host.wait(&host.visible("again"));
    host.click("#again");
    guest.wait(&guest.visible("random"));
    assert!(guest.text("score").contains("draws 0"));
    assert!(guest.text("score") != "score: black 0 white 0 draws 0");
}

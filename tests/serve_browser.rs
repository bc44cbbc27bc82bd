//! `lapiz serve`'s page in headless Chromium, driven over the DevTools protocol (a websocket)
//! as a person would use it: real mouse clicks and key presses. It loads a puzzle, enters a
//! digit and a pencil mark (undo, redo), asks for a nudge and then the hint, applies it, shows
//! a mistake, walks the explained solution, generates a puzzle, and checks the page on a
//! phone-sized window.
//!
//! Chromium is found as `tests/html_browser.rs` finds it; without one the test skips with a
//! message, unless `LAPIZ_REQUIRE_BROWSER` is set (CI sets it). With `LAPIZ_SCREENSHOTS=DIR`
//! it also writes the screenshots docs/serve.md shows into DIR.

mod common;

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use common::browser::chromium;
use common::serve::{Server, request_from};

/// Solved by the default pipeline with discontinuous nice loops.
const CHAINS: &str =
    "....9.7..8....3.6.7.3....2...6.471............2.1....5.9.6........5..68...4....5.";

/// Headless Chromium with the DevTools protocol on a free port, stopped when dropped.
struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Browser {
    fn start(binary: &Path, dir: &Path) -> Browser {
        let mut child = Command::new(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "--window-size=1200,1000",
            ])
            .arg(format!("--user-data-dir={}", dir.join("profile").display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the browser starts");
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let mut port = None;
        for line in stderr.lines() {
            let line = line.unwrap_or_default();
            if let Some(at) = line.find("ws://127.0.0.1:") {
                let rest = &line[at + "ws://127.0.0.1:".len()..];
                port = rest[..rest.find('/').unwrap()].parse::<u16>().ok();
                break;
            }
        }
        let port = port.expect("the browser's DevTools address");
        let addr = format!("127.0.0.1:{port}").parse().unwrap();
        let (status, list) = request_from(addr, None, "GET", "/json/list", &[], b"").unwrap();
        assert_eq!(status, 200, "{list}");
        let targets: Value = serde_json::from_str(&list).unwrap();
        let page = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .expect("a page target");
        let url = page["webSocketDebuggerUrl"].as_str().unwrap();
        let (ws, _) = tungstenite::connect(url).expect("the DevTools websocket");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        }
        Browser {
            child,
            ws,
            next_id: 0,
        }
    }

    /// One DevTools command and its result (events in between are skipped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let msg = json!({ "id": id, "method": method, "params": params });
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let Message::Text(text) = self.ws.read().expect("a DevTools message") else {
                continue;
            };
            let v: Value = serde_json::from_str(&text).unwrap();
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page (promises awaited).
    fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "{expression}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Waits until `expression` is true (a generous guard, not a timing check).
    fn wait(&mut self, expression: &str) {
        let start = Instant::now();
        while self.eval(&format!("!!({expression})")) != Value::Bool(true) {
            if start.elapsed() > Duration::from_secs(120) {
                let status = self.eval("document.getElementById('status').textContent");
                panic!("waited in vain for {expression} (status: {status})");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A real mouse click in the middle of the element `testid`.
    fn click(&mut self, testid: &str) {
        let rect = self.eval(&format!(
            "(function(){{var e=document.querySelector('[data-testid=\"{testid}\"]');\
             e.scrollIntoView({{block:'center'}});var r=e.getBoundingClientRect();\
             return [r.left+r.width/2,r.top+r.height/2,r.width];}})()"
        ));
        let (x, y) = (rect[0].as_f64().unwrap(), rect[1].as_f64().unwrap());
        assert!(rect[2].as_f64().unwrap() > 0.0, "{testid} is not shown");
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// A real key press: `key` (`6`, `ArrowRight`, `z`), with modifiers (1 Alt, 2 Ctrl, 8 Shift).
    fn key(&mut self, key: &str, modifiers: u32) {
        let (code, vk, text) = match key {
            "ArrowRight" => ("ArrowRight".to_string(), 39, String::new()),
            "ArrowLeft" => ("ArrowLeft".to_string(), 37, String::new()),
            "End" => ("End".to_string(), 35, String::new()),
            k if k.len() == 1 && k.as_bytes()[0].is_ascii_digit() => (
                format!("Digit{k}"),
                u32::from(k.as_bytes()[0]),
                k.to_string(),
            ),
            k => (
                format!("Key{}", k.to_ascii_uppercase()),
                u32::from(k.to_ascii_uppercase().as_bytes()[0]),
                k.to_string(),
            ),
        };
        let text = if modifiers & 2 != 0 {
            String::new()
        } else {
            text
        };
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": if text.is_empty() { "rawKeyDown" } else { "keyDown" }, "key": key,
                    "code": code, "windowsVirtualKeyCode": vk, "text": text, "modifiers": modifiers }),
        );
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk,
                    "modifiers": modifiers }),
        );
    }

    /// The text of the element `testid`.
    fn text(&mut self, testid: &str) -> String {
        self.eval(&format!(
            "document.querySelector('[data-testid=\"{testid}\"]').textContent"
        ))
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    /// The attribute `name` of the element `testid` (empty when absent).
    fn attr(&mut self, testid: &str, name: &str) -> String {
        self.eval(&format!(
            "document.querySelector('[data-testid=\"{testid}\"]').getAttribute('{name}')||''"
        ))
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    /// A screenshot of the page as PNG bytes.
    fn screenshot(&mut self) -> Vec<u8> {
        let r = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        decode_base64(r["data"].as_str().unwrap())
    }
}

/// Standard base64, as the DevTools protocol sends screenshots.
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)) << (18 - 6 * i);
        }
        out.push((n >> 16) as u8);
        if chunk.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if chunk.len() > 3 {
            out.push(n as u8);
        }
    }
    out
}

/// Checks a PNG is a picture (many colours), and writes it to `$LAPIZ_SCREENSHOTS/name`.
fn keep_screenshot(png_bytes: &[u8], name: &str) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let mut colours: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 20, "{name}: {} colours", colours.len());
    if let Some(dir) = std::env::var_os("LAPIZ_SCREENSHOTS") {
        std::fs::write(Path::new(&dir).join(name), png_bytes).unwrap();
    }
}

#[test]
fn a_person_plays_asks_for_hints_and_walks_the_solution() {
    let Some(binary) = chromium() else { return };
    let server = Server::start(&[]);
    let dir = scratch("serve-browser");
    let mut b = Browser::start(&binary, &dir);
    let trace = lapiz::solve_puzzle(CHAINS, &lapiz::Pipeline::default_pipeline());
    let solution: Vec<u8> = trace
        .solution
        .as_ref()
        .unwrap()
        .bytes()
        .map(|c| c - b'0')
        .collect();
    let steps = trace.steps().count();

    b.call("Page.enable", json!({}));
    b.call("Page.navigate", json!({ "url": server.url("/") }));
    b.wait(
        "document.readyState==='complete'&&document.querySelector('[data-testid=\"cell-r9c9\"]')",
    );

    // type the puzzle and load it
    b.click("puzzle-input");
    b.call("Input.insertText", json!({ "text": CHAINS }));
    b.click("load");
    b.wait("document.body.getAttribute('data-state')==='playing'");
    b.wait("document.querySelector('[data-testid=\"rating\"]').textContent.startsWith('Rating')");
    assert_eq!(b.attr("cell-r1c5", "data-value"), "9");

    // a digit, by mouse and keyboard, in the first empty cell
    let empty = CHAINS.bytes().position(|c| c == b'.').unwrap();
    let cell = format!("cell-r{}c{}", empty / 9 + 1, empty % 9 + 1);
    let digit = solution[empty].to_string();
    b.click(&cell);
    b.key(&digit, 0);
    assert_eq!(b.attr(&cell, "data-value"), digit);
    // a pencil mark with Shift in the next cell, undone and redone
    b.key("ArrowRight", 0);
    let next = format!("cell-r{}c{}", (empty + 1) / 9 + 1, (empty + 1) % 9 + 1);
    b.key("3", 8);
    assert_eq!(b.attr(&next, "data-marks"), "3");
    b.key("z", 2);
    assert_eq!(b.attr(&next, "data-marks"), "");
    b.click("redo");
    assert_eq!(b.attr(&next, "data-marks"), "3");
    b.click("undo");
    assert_eq!(b.attr(&cell, "data-value"), digit);
    // pencil marks everywhere, as the hint will see them
    b.click("fill-marks");
    assert!(!b.attr(&next, "data-marks").is_empty());

    // the nudge, then the step drawn on the player's grid, then apply it
    b.click("hint-button");
    b.wait(
        "document.querySelector('[data-testid=\"hint-text\"]').textContent.startsWith('Look for')",
    );
    let nudge = b.text("hint-text");
    assert!(!nudge.contains("=>") && !nudge.contains("<>"), "{nudge}");
    assert!(b.eval("!!document.querySelector('#hint-view svg')") == Value::Bool(true));
    b.click("hint-button");
    b.wait("!document.querySelector('[data-testid=\"hint-apply\"]').hidden");
    let explanation = b.text("hint-text");
    assert!(explanation.contains("=>"), "{explanation}");
    let marks_before = b.eval("document.querySelectorAll('.marks span:not(:empty)').length");
    let values_before = b.eval("document.querySelectorAll('.cell[data-value]').length");
    b.click("hint-apply");
    b.wait(
        "document.querySelector('[data-testid=\"hint-text\"]').textContent.startsWith('Applied')",
    );
    let marks_after = b.eval("document.querySelectorAll('.marks span:not(:empty)').length");
    let values_after = b.eval("document.querySelectorAll('.cell[data-value]').length");
    assert!(
        values_after.as_u64() > values_before.as_u64()
            || marks_after.as_u64() < marks_before.as_u64(),
        "the hint changed nothing: {values_before}/{values_after} values, {marks_before}/{marks_after} marks"
    );
    if std::env::var_os("LAPIZ_SCREENSHOTS").is_some() {
        b.click("hint-button");
        b.wait("document.querySelector('[data-testid=\"hint-text\"]').textContent.startsWith('Look for')");
        b.click("hint-button");
        b.wait("!document.querySelector('[data-testid=\"hint-apply\"]').hidden");
        b.eval("window.scrollTo(0,0)");
        let shot = b.screenshot();
        keep_screenshot(&shot, "serve-hint.png");
        b.click("hint-close");
    }

    // a wrong digit shows as a mistake on request
    let wrong_at = CHAINS
        .bytes()
        .enumerate()
        .rposition(|(i, c)| c == b'.' && i != empty)
        .unwrap();
    let wrong_cell = format!("cell-r{}c{}", wrong_at / 9 + 1, wrong_at % 9 + 1);
    let wrong = (solution[wrong_at] % 9 + 1).to_string();
    b.click(&wrong_cell);
    b.key(&wrong, 0);
    b.click("mistakes");
    assert!(b.attr(&wrong_cell, "class").contains("wrong"));
    b.click("hint-button");
    b.wait("document.querySelector('[data-testid=\"hint-text\"]').className==='bad'");
    b.click("undo");
    b.click("mistakes");
    assert!(!b.attr(&wrong_cell, "class").contains("wrong"));

    // the explained solution: the list, the arrow keys, a click on a step, the end
    b.click("walk-show");
    b.wait("document.querySelector('[data-testid=\"step-1\"]')");
    let listed =
        b.eval("document.querySelectorAll('[data-testid=\"step-list\"] li[data-step]').length");
    assert_eq!(listed.as_u64(), Some(steps as u64));
    b.click("walk-view");
    b.key("ArrowRight", 0);
    assert_eq!(
        b.eval("document.getElementById('walk').getAttribute('data-current')"),
        "1"
    );
    let shown = b.eval(
        "document.querySelector('#walk-view .frame:not([hidden])').getAttribute('data-shows-step')",
    );
    assert_eq!(shown, "1");
    let chain_step = trace
        .steps()
        .position(|s| !s.chains.is_empty())
        .expect("a chain step")
        + 1;
    b.click(&format!("step-{chain_step}"));
    let at = b.eval("document.getElementById('walk').getAttribute('data-current')");
    assert_eq!(at, chain_step.to_string().as_str());
    assert!(
        b.eval("!!document.querySelector('#walk-view .frame:not([hidden]) g.chain')")
            == Value::Bool(true)
    );
    if std::env::var_os("LAPIZ_SCREENSHOTS").is_some() {
        b.eval("document.getElementById('walk').scrollIntoView()");
        let shot = b.screenshot();
        keep_screenshot(&shot, "serve-solution.png");
    }
    b.click("walk-next");
    b.key("End", 0);
    let end = b.eval(
        "document.querySelector('#walk-view .frame:not([hidden])').getAttribute('data-title')",
    );
    assert_eq!(end, "Solved");
    // back on the grid, keys type into it again
    b.click(&wrong_cell);
    b.key(&solution[wrong_at].to_string(), 0);
    assert_eq!(
        b.attr(&wrong_cell, "data-value"),
        solution[wrong_at].to_string()
    );
    b.key("z", 2);
    assert_eq!(b.attr(&wrong_cell, "data-value"), "");

    // a new puzzle by level
    b.eval("document.querySelector('[data-testid=\"level\"]').value='easy'");
    b.click("generate");
    b.wait("document.querySelector('[data-testid=\"status\"]').textContent.startsWith('A new easy puzzle')");
    let generated = b.eval("document.querySelector('[data-testid=\"puzzle-input\"]').value");
    assert_eq!(generated.as_str().map(str::len), Some(81));
    b.wait("document.querySelector('[data-testid=\"rating\"]').textContent.includes('(easy)')");

    // a phone-sized window: nothing wider than the screen, the grid whole
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    b.eval("window.scrollTo(0,0)");
    b.wait("document.documentElement.clientWidth===390");
    let wide = b.eval("document.documentElement.scrollWidth");
    assert!(wide.as_u64().unwrap() <= 390, "the page is {wide} px wide");
    let board = b.eval("document.getElementById('board').getBoundingClientRect().right");
    assert!(board.as_f64().unwrap() <= 390.0);
    let shot = b.screenshot();
    keep_screenshot(&shot, "serve-phone.png");

    // a 16x16 puzzle: the board plays 9x9 ones, so the page says so and shows its explained
    // solution, drawn on a 16x16 grid
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    );
    b.eval(&format!(
        "document.querySelector('[data-testid=\"puzzle-input\"]').value='{SIXTEEN}'"
    ));
    b.click("load");
    b.wait("document.querySelector('[data-testid=\"status\"]').textContent.startsWith('A 16x16 puzzle')");
    assert_eq!(b.eval("document.body.getAttribute('data-state')"), "empty");
    b.click("walk-show");
    b.wait("document.querySelector('[data-testid=\"step-1\"]')");
    assert!(
        b.eval(
            "document.querySelector('#walk-view .frame:not([hidden])').textContent.includes('r16')"
        ) == Value::Bool(true)
    );
}

/// 16x16 (4x4 boxes), 110 clues, from `tests/sized_traces.rs`.
const SIXTEEN: &str = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";

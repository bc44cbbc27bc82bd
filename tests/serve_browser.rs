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
        let mut b = Browser {
            child,
            ws,
            next_id: 0,
        };
        // every page records its uncaught errors, which `wait` reports
        b.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": "window.errors=[];window.addEventListener('error',function(e){errors.push(e.message);});" }),
        );
        b
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
        loop {
            let errors = self.eval("(window.errors||[]).join(' / ')");
            assert_eq!(errors, "", "the page's script failed");
            if self.eval(&format!("!!({expression})")) == Value::Bool(true) {
                break;
            }
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
            "ArrowDown" => ("ArrowDown".to_string(), 40, String::new()),
            "Tab" => ("Tab".to_string(), 9, String::new()),
            "Escape" => ("Escape".to_string(), 27, String::new()),
            "Delete" => ("Delete".to_string(), 46, String::new()),
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
    b.wait("document.readyState==='complete'&&document.querySelector('[data-testid=\"load\"]')");

    // type the puzzle and load it
    b.click("puzzle-input");
    b.call("Input.insertText", json!({ "text": CHAINS }));
    b.click("load");
    b.wait("document.body.getAttribute('data-state')==='playing'");
    b.wait("document.querySelector('[data-testid=\"rating\"]').textContent.startsWith('Rating')");
    assert_eq!(b.attr("cell-r1c5", "data-value"), "9");
    // the rating's step count is the explained solution's
    let rating = b.text("rating");
    assert!(
        rating.contains(&format!("explained in {steps} steps")),
        "{rating}"
    );

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
    // the nudge shades its house on the player's board, and shows no candidate
    assert!(
        b.eval("document.querySelectorAll('.cell.hint-house').length")
            .as_u64()
            >= Some(4)
    );
    assert_eq!(
        b.eval("document.querySelectorAll('.marks.ghost, .marks span[class^=\"h-\"]').length"),
        0
    );
    // its text once, nowhere a second board
    assert_eq!(
        b.eval(
            "document.body.innerText.split(document.getElementById('hint-text').innerText).length"
        ),
        2
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#play svg, #hint svg').length"),
        0
    );
    b.click("hint-button");
    b.wait("!document.querySelector('[data-testid=\"hint-apply\"]').hidden");
    let explanation = b.text("hint-text");
    // the step in words, on the board: what it removes or places coloured there
    assert!(
        !explanation.contains("=>") && explanation.contains(", so "),
        "{explanation}"
    );
    assert!(
        b.eval("document.querySelectorAll('.marks span.h-gone, .marks span.h-put').length")
            .as_u64()
            > Some(0)
    );
    // Esc closes it
    b.click(&next);
    b.key("Escape", 0);
    assert!(
        b.eval("document.querySelector('[data-testid=\"hint-apply\"]').hidden")
            == Value::Bool(true)
    );
    assert_eq!(
        b.eval("document.querySelectorAll('.cell.hint-house').length"),
        0
    );
    b.click("hint-button");
    b.wait(
        "document.querySelector('[data-testid=\"hint-text\"]').textContent.startsWith('Look for')",
    );
    b.click("hint-button");
    b.wait("!document.querySelector('[data-testid=\"hint-apply\"]').hidden");
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
        b.eval("document.getElementById('play').scrollIntoView()");
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
    // a wrong digit: the hint names it (not "no solution")
    b.click("hint-button");
    b.wait("document.querySelector('[data-testid=\"hint-text\"]').className==='bad'");
    let said = b.text("hint-text");
    let name = &wrong_cell["cell-".len()..];
    assert!(
        said.contains(name) && !said.contains("no solution"),
        "{said}"
    );
    b.click("mistakes");
    assert!(b.attr(&wrong_cell, "class").contains("wrong"));
    b.click("undo");
    // the grid is right again: the hint's error is gone
    assert_eq!(b.text("hint-text"), "");
    b.click("mistakes");
    assert!(!b.attr(&wrong_cell, "class").contains("wrong"));
    // two equal digits in a row show at once, without Show mistakes
    let (first_empty, given_in_row) = (0..9)
        .filter(|&c| CHAINS.as_bytes()[c] == b'.')
        .map(|c| (c, CHAINS[..9].bytes().find(|&x| x != b'.').unwrap()))
        .next()
        .unwrap();
    let clash_cell = format!("cell-r1c{}", first_empty + 1);
    b.click(&clash_cell);
    b.key(&char::from(given_in_row).to_string(), 0);
    assert!(b.attr(&clash_cell, "class").contains("clash"));
    assert!(b.attr(&clash_cell, "aria-label").contains("clashes"));
    b.key("z", 2);
    assert!(!b.attr(&clash_cell, "class").contains("clash"));

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
    b.click("confirm-yes");
    b.wait("document.querySelector('[data-testid=\"status\"]').textContent.startsWith('A new easy puzzle')");
    // the last puzzle's hint is gone, the rating is above the fold at 1280x900
    let hint = b.text("hint-text");
    assert!(hint.starts_with("A hint looks"), "{hint}");
    b.eval("window.scrollTo(0,0)");
    let rating_bottom = b.eval("document.getElementById('rating').getBoundingClientRect().bottom");
    assert!(rating_bottom.as_f64() < Some(900.0), "{rating_bottom}");
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
    // marks that can be read, keys that can be tapped
    b.click("fill-marks");
    let font = b.eval("parseFloat(getComputedStyle(document.querySelector('.marks')).fontSize)");
    assert!(font.as_f64() >= Some(9.0), "pencil marks of {font} px");
    let key = b.eval("document.querySelector('#pad button').getBoundingClientRect().height");
    assert!(key.as_f64() >= Some(44.0), "keypad buttons {key} px tall");
    b.click("undo");
    // the hint's words on a phone: on screen with the board, once the puzzle box is folded
    b.eval("document.getElementById('source').open=false");
    let said = ask_hint(&mut b);
    assert_eq!(
        b.eval("document.getElementById('hint-close').hidden"),
        false,
        "{said}"
    );
    b.eval("window.scrollTo(0,0)");
    let bottom = b.eval("document.getElementById('hint-text').getBoundingClientRect().bottom");
    assert!(bottom.as_f64() < Some(844.0), "the hint ends at {bottom}");
    let board_bottom = b.eval("document.getElementById('board').getBoundingClientRect().bottom");
    assert!(
        board_bottom.as_f64() <= Some(844.0),
        "the board ends at {board_bottom}"
    );
    b.click("hint-close");
    b.eval("document.getElementById('source').open=true");

    // a 16x16 puzzle: played on a 16x16 board with 16 symbols, rated, its solution drawn
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    );
    b.eval(&format!(
        "document.querySelector('[data-testid=\"puzzle-input\"]').value='{SIXTEEN}'"
    ));
    // a pencil mark on the generated puzzle is progress: Load asks before it drops it
    let free =
        b.eval("document.querySelector('.cell:not([data-value])').getAttribute('data-testid')");
    let free = free.as_str().unwrap().to_string();
    b.click(&free);
    b.key("1", 8);
    b.click("load");
    b.click("confirm-no");
    assert_eq!(b.attr(&free, "data-marks"), "1");
    b.click("load");
    b.click("confirm-yes");
    b.wait("document.querySelector('[data-testid=\"cell-r16c16\"]')&&document.body.getAttribute('data-state')==='playing'");
    assert_eq!(
        b.eval("document.querySelectorAll('#pad button').length"),
        16
    );
    assert_eq!(b.eval("document.querySelectorAll('.cell').length"), 256);
    let empty16 = SIXTEEN.bytes().position(|c| c == b'.').unwrap();
    let cell16 = format!("cell-r{}c{}", empty16 / 16 + 1, empty16 % 16 + 1);
    b.click(&cell16);
    b.key("g", 8);
    assert_eq!(b.attr(&cell16, "data-marks"), "G");
    b.wait("document.querySelector('[data-testid=\"rating\"]').textContent.startsWith('Rating')");
    if std::env::var_os("LAPIZ_SCREENSHOTS").is_some() {
        b.eval("window.scrollTo(0,0)");
        let shot = b.screenshot();
        keep_screenshot(&shot, "serve-16x16.png");
    }
    b.wait("document.querySelector('#walk-view .frame')");
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

/// The page with the puzzle in its address, once its board is playable.
fn play(b: &mut Browser, server: &Server, puzzle: &str) {
    b.call("Page.enable", json!({}));
    b.call(
        "Page.navigate",
        json!({ "url": server.url(&format!("/#puzzle={puzzle}")) }),
    );
    b.wait(
        "document.readyState==='complete'&&document.body.getAttribute('data-state')==='playing'",
    );
}

/// The cells' heights row by row: the smallest and largest of each row's tops and heights.
fn row_heights(b: &mut Browser) -> Vec<f64> {
    let v = b.eval(
        "Array.prototype.map.call(document.querySelectorAll('#board [role=row]'),function(r){\
         return r.firstElementChild.getBoundingClientRect().height;})",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_f64().unwrap())
        .collect()
}

/// The smallest and largest of `values`.
fn spread(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::MAX, 0f64), |(l, h), &x| (l.min(x), h.max(x)))
}

/// Presses Hint and waits for its answer (a hint shown, or the page's reason for none): the
/// hint's text.
fn ask_hint(b: &mut Browser) -> String {
    b.click("hint-button");
    b.wait(
        "!document.querySelector('[data-testid=\"hint-close\"]').hidden||\
         document.getElementById('hint-text').className==='bad'",
    );
    b.text("hint-text")
}

/// The relative luminance of a CSS `rgb(...)` colour, 0 (black) to 1 (white).
fn luminance(css: &str) -> f64 {
    let parts: Vec<f64> = css
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    (0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2]) / 255.0
}

#[test]
fn rows_keep_their_height_with_and_without_digits_on_desktop_and_phone() {
    let Some(binary) = chromium() else { return };
    let server = Server::start(&[]);
    let mut b = Browser::start(&binary, &scratch("serve-rows"));
    // row 5 of CHAINS has no digit
    play(&mut b, &server, CHAINS);
    for (width, height, mobile) in [(1280, 900, false), (390, 844, true)] {
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile }),
        );
        b.wait(&format!("document.documentElement.clientWidth==={width}"));
        for stage in ["digits", "pencil marks"] {
            let rows = row_heights(&mut b);
            assert_eq!(rows.len(), 9);
            let (lo, hi) = spread(&rows);
            assert!(
                hi - lo <= 1.0 && lo > 20.0,
                "{width} px, {stage}: row heights {rows:?}"
            );
            if stage == "digits" {
                b.click("fill-marks");
            }
        }
        b.click("undo");
    }
    // on a touch screen the page says to tap, not to type
    b.call(
        "Emulation.setTouchEmulationEnabled",
        json!({ "enabled": true, "maxTouchPoints": 5 }),
    );
    b.call("Page.reload", json!({}));
    b.wait(
        "document.readyState==='complete'&&document.body.getAttribute('data-state')==='playing'",
    );
    let said = b.text("status");
    assert!(said.contains("Tap a cell"), "{said}");
}

#[test]
fn a_burst_of_generate_clicks_ends_with_one_puzzle_shown() {
    let Some(binary) = chromium() else { return };
    let server = Server::start(&[]);
    let mut b = Browser::start(&binary, &scratch("serve-burst"));
    b.call("Page.enable", json!({}));
    b.call("Page.navigate", json!({ "url": server.url("/") }));
    b.wait("document.readyState==='complete'");
    // a 16x16 puzzle's first row pasted alone: read as 4x4, and said so
    b.eval("document.querySelector('[data-testid=\"puzzle-input\"]').value='123456789ABCDEFG'");
    b.click("load");
    b.wait("document.querySelector('[data-testid=\"status\"]').className==='bad'");
    let said = b.text("status");
    assert!(said.starts_with("Read as a 4x4 puzzle (16 cells"), "{said}");
    b.eval("document.querySelector('[data-testid=\"level\"]').value='easy'");
    for _ in 0..6 {
        b.click("generate");
    }
    b.wait(
        "!document.querySelector('[data-testid=\"generate\"]').disabled&&\
         document.querySelector('[data-testid=\"rating\"]').textContent.startsWith('Rating')",
    );
    // the board shows the puzzle in the text box, rated, with no error on the way
    let text = b.eval("document.querySelector('[data-testid=\"puzzle-input\"]').value");
    let shown = b.eval(
        "Array.prototype.map.call(document.querySelectorAll('.cell'),function(c){\
         return c.classList.contains('given')?c.getAttribute('data-value'):'.';}).join('')",
    );
    assert_eq!(text, shown);
    let status = b.text("status");
    assert!(status.starts_with("A new easy puzzle"), "{status}");
    assert!(b.text("rating").contains("(easy)"));
}

#[test]
fn the_forcing_walk_buttons_and_keys_move_the_lit_implication() {
    let Some(binary) = chromium() else { return };
    let server = Server::start(&[]);
    let mut b = Browser::start(&binary, &scratch("serve-walk"));
    // the first puzzle of top1465: the default pipeline needs a forcing net
    const FORCING: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    play(&mut b, &server, FORCING);
    b.wait("document.querySelector('#walk-view .frame')");
    b.click("walk-show");
    let k = b.eval(
        "Array.prototype.findIndex.call(document.querySelectorAll('#walk-view .frame'),\
         function(f){return !!f.querySelector('.net .branch');})",
    );
    let k = k.as_i64().expect("a frame with a net");
    assert!(k > 0);
    b.eval(&format!(
        "document.querySelector('#step-list li[data-frame=\"{k}\"]').click()"
    ));
    b.eval("document.getElementById('walk-view').focus()");
    let lit = |b: &mut Browser| {
        b.eval(
            "(function(){var f=document.querySelector('#walk-view .frame:not([hidden])');\
             var l=f.querySelector('.proof .pl.cur');\
             return (l?l.textContent:'')+'|'+Array.prototype.map.call(f.querySelectorAll('.net line.lit'),\
             function(a){return a.getAttribute('data-to');}).sort().join(' ');})()",
        )
        .as_str()
        .unwrap()
        .to_string()
    };
    assert_eq!(lit(&mut b), "|");
    // N lights a line at a time (the first, an assumption, has no arrow), each with its arrows
    b.key("n", 0);
    let first = lit(&mut b);
    b.key("n", 0);
    let second = lit(&mut b);
    b.key("n", 0);
    let third = lit(&mut b);
    assert!(
        !first.starts_with('|')
            && !second.ends_with('|')
            && !third.ends_with('|')
            && first != second
            && second != third,
        "{first} / {second} / {third}"
    );
    // the frame's own buttons: a branch at a time, then the whole net
    b.eval("document.querySelector('#walk-view .frame:not([hidden]) .w-branch').scrollIntoView()");
    b.eval("document.querySelector('#walk-view .frame:not([hidden]) .w-branch').click()");
    let walk = b.eval(
        "document.querySelector('#walk-view .frame:not([hidden])').getAttribute('data-walk')",
    );
    assert!(walk.as_str().unwrap_or("").starts_with("branch"), "{walk}");
    b.eval("document.querySelector('#walk-view .frame:not([hidden]) .w-all').click()");
    assert_eq!(lit(&mut b), "|");
    // a technique's name links to its description on this page
    let href = b.eval(
        "(document.querySelector('#walk-view .frame:not([hidden]) a.tech')||{}).getAttribute\
         ?document.querySelector('#walk-view .frame:not([hidden]) a.tech').getAttribute('href'):''",
    );
    let href = href.as_str().unwrap().to_string();
    assert!(href.starts_with("#t-"), "{href}");
    assert!(b.eval(&format!("!!document.getElementById('{}')", &href[1..])) == Value::Bool(true));
    let rating = b.text("rating");
    assert!(
        !rating.contains("se-") && !rating.contains("forcing-chain"),
        "raw ids: {rating}"
    );
}

#[test]
fn progress_is_kept_across_reloads_and_in_the_address() {
    let Some(binary) = chromium() else { return };
    let server = Server::start(&[]);
    let mut b = Browser::start(&binary, &scratch("serve-keep"));
    play(&mut b, &server, CHAINS);
    b.click("cell-r1c1");
    b.key("5", 0);
    b.click("cell-r1c2");
    b.key("3", 8);
    b.key("4", 8);
    let hash = b.eval("location.hash").as_str().unwrap().to_string();
    assert!(
        hash.contains("puzzle=") && hash.contains("&marks="),
        "{hash}"
    );
    b.call("Page.reload", json!({}));
    b.wait(
        "document.readyState==='complete'&&document.body.getAttribute('data-state')==='playing'",
    );
    assert_eq!(b.attr("cell-r1c1", "data-value"), "5");
    assert_eq!(b.attr("cell-r1c2", "data-marks"), "34");
    // undo survives the reload too
    b.click("undo");
    assert_eq!(b.attr("cell-r1c2", "data-marks"), "3");
    // the share link, opened in a fresh browser, shows the same grid
    let link = b.attr("share", "href");
    drop(b);
    let mut fresh = Browser::start(&binary, &scratch("serve-keep-2"));
    fresh.call("Page.enable", json!({}));
    fresh.call("Page.navigate", json!({ "url": link }));
    fresh.wait(
        "document.readyState==='complete'&&document.body.getAttribute('data-state')==='playing'",
    );
    assert_eq!(fresh.attr("cell-r1c1", "data-value"), "5");
    assert_eq!(fresh.attr("cell-r1c2", "data-marks"), "3");
    // a changed address loads its puzzle once the player agrees to drop their progress
    fresh.click("cell-r1c3");
    fresh.key("1", 8);
    let other = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    fresh.eval(&format!("location.hash='#puzzle={other}'"));
    fresh.wait("!document.querySelector('[data-testid=\"confirm\"]').hidden");
    fresh.click("confirm-no");
    assert_eq!(fresh.attr("cell-r1c1", "data-value"), "5");
    fresh.eval("location.hash='#elsewhere'");
    fresh.eval(&format!("location.hash='#puzzle={other}'"));
    fresh.wait("!document.querySelector('[data-testid=\"confirm\"]').hidden");
    fresh.click("confirm-yes");
    fresh.wait(
        "document.querySelector('[data-testid=\"cell-r1c3\"]').getAttribute('data-value')==='3'",
    );
    assert_eq!(fresh.attr("cell-r1c1", "data-value"), "");
    // a broken game in storage is ignored, not a broken page (written from another page of
    // the server: the game page saves its own game when it is hidden)
    fresh.call("Page.navigate", json!({ "url": server.url("/elsewhere") }));
    fresh.wait("document.readyState==='complete'&&!document.getElementById('board')");
    fresh.eval(
        "localStorage.setItem('lapiz-play','{\"text\":\"x\",\"board\":{\"values\":[1]},\"values\":[1,2],\"marks\":[]}')",
    );
    fresh.call("Page.navigate", json!({ "url": server.url("/") }));
    fresh
        .wait("document.readyState==='complete'&&document.querySelector('[data-testid=\"load\"]')");
    assert_eq!(fresh.eval("window.errors.join(' / ')"), "");
    assert_eq!(
        fresh.eval("document.body.getAttribute('data-state')"),
        "empty"
    );
}

#[test]
fn keyboard_only_play_reaches_the_grid_and_cells_say_what_they_hold() {
    let Some(binary) = chromium() else { return };
    let server = Server::start(&[]);
    let mut b = Browser::start(&binary, &scratch("serve-keys"));
    play(&mut b, &server, CHAINS);
    b.eval("document.activeElement&&document.activeElement.blur()");
    let mut tabs = 0;
    while b.eval(
        "!!(document.activeElement&&document.activeElement.getAttribute('role')==='gridcell')",
    ) != Value::Bool(true)
    {
        b.key("Tab", 0);
        tabs += 1;
        assert!(tabs <= 40, "Tab never reaches the grid");
    }
    // on r1c1: right to r1c2, down to r2c2, a digit and a pencil mark
    b.key("ArrowRight", 0);
    b.key("ArrowDown", 0);
    assert_eq!(
        b.eval("document.activeElement.getAttribute('data-testid')"),
        "cell-r2c2"
    );
    b.key("4", 0);
    b.key("ArrowRight", 0);
    b.key("2", 8);
    b.key("7", 8);
    assert_eq!(b.attr("cell-r2c2", "data-value"), "4");
    assert_eq!(b.attr("cell-r2c3", "data-marks"), "27");
    // Pause hides the board and stops the clock; typing does nothing until Resume
    b.click("pause");
    assert!(b.eval("!document.getElementById('paused').hidden") == Value::Bool(true));
    let stopped = b.text("clock");
    b.click("cell-r2c3");
    b.key("5", 0);
    assert_eq!(b.attr("cell-r2c3", "data-value"), "");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(b.text("clock"), stopped);
    b.click("pause");
    assert!(b.eval("document.getElementById('paused').hidden") == Value::Bool(true));
    // the accessibility tree: a grid of rows of cells named with what they hold
    b.call("Accessibility.enable", json!({}));
    let tree = b.call("Accessibility.getFullAXTree", json!({}));
    let nodes = tree["nodes"].as_array().unwrap();
    let role_of = |n: &Value| n["role"]["value"].as_str().unwrap_or("").to_string();
    let name_of = |n: &Value| n["name"]["value"].as_str().unwrap_or("").to_string();
    assert!(nodes.iter().any(|n| role_of(n) == "grid"));
    assert!(nodes.iter().filter(|n| role_of(n) == "row").count() >= 9);
    let names: Vec<String> = nodes
        .iter()
        .filter(|n| role_of(n) == "gridcell")
        .map(name_of)
        .collect();
    assert_eq!(names.len(), 81, "{names:?}");
    for want in ["r1c5, given 9", "r2c2, 4", "r2c3, empty, pencil marks 2 7"] {
        assert!(names.iter().any(|n| n == want), "no cell named {want:?}");
    }
    // the selected cell's row, column and box are shaded so that it shows
    let peer = b.eval("getComputedStyle(document.querySelector('.cell.peer')).backgroundColor");
    assert!(luminance(peer.as_str().unwrap()) < 0.92, "{peer}");
    // the digit of the selected cell stands out among the pencil marks
    b.click("fill-marks");
    b.click("cell-r1c5");
    assert!(
        b.eval("document.querySelectorAll('.marks span.hl').length")
            .as_u64()
            > Some(0)
    );
    assert_eq!(
        b.eval("Array.prototype.every.call(document.querySelectorAll('.marks span.hl'),function(s){return s.textContent==='9';})"),
        true
    );
}

#[test]
fn dark_mode_print_and_the_finish() {
    let Some(binary) = chromium() else { return };
    let server = Server::start(&[]);
    let mut b = Browser::start(&binary, &scratch("serve-dark"));
    // the CHAINS solution with its first cell empty: one digit to go
    let trace = lapiz::solve_puzzle(CHAINS, &lapiz::Pipeline::default_pipeline());
    let solution = trace.solution.unwrap();
    let almost = format!(".{}", &solution[1..]);
    b.call(
        "Emulation.setEmulatedMedia",
        json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }),
    );
    // a game in progress, in the dark
    play(&mut b, &server, CHAINS);
    b.click("fill-marks");
    b.click("cell-r5c5");
    b.wait("document.querySelector('[data-testid=\"rating\"]').textContent.startsWith('Rating')");
    let shot = b.screenshot();
    keep_screenshot(&shot, "serve-dark.png");
    b.eval(&format!(
        "document.querySelector('[data-testid=\"puzzle-input\"]').value='{almost}'"
    ));
    b.click("load");
    b.click("confirm-yes");
    b.wait("document.querySelector('[data-testid=\"cell-r1c2\"]').classList.contains('given')");
    let bg = b.eval("getComputedStyle(document.body).backgroundColor");
    assert!(luminance(bg.as_str().unwrap()) < 0.2, "{bg}");
    let cell = b.eval("getComputedStyle(document.querySelectorAll('.cell')[80]).backgroundColor");
    assert!(luminance(cell.as_str().unwrap()) < 0.3, "{cell}");
    // the Theme button overrides the system
    b.click("theme");
    b.click("theme");
    assert_eq!(
        b.eval("document.documentElement.getAttribute('data-theme')"),
        "dark"
    );
    b.click("theme");
    let auto = b.eval("getComputedStyle(document.body).backgroundColor");
    assert!(luminance(auto.as_str().unwrap()) < 0.2, "{auto}");
    // print: the board and rating, no buttons
    b.call("Emulation.setEmulatedMedia", json!({ "media": "print" }));
    assert_eq!(
        b.eval("getComputedStyle(document.getElementById('pad')).display"),
        "none"
    );
    assert_eq!(
        b.eval("getComputedStyle(document.querySelector('header')).display"),
        "none"
    );
    assert!(
        b.eval("document.getElementById('board').getBoundingClientRect().width")
            .as_f64()
            > Some(200.0)
    );
    let shot = b.screenshot();
    keep_screenshot(&shot, "serve-print.png");
    b.call("Emulation.setEmulatedMedia", json!({ "media": "" }));
    // a hint on a grid whose empty cell has one candidate and no pencil mark
    let said = ask_hint(&mut b);
    assert!(said.contains("Full House"), "{said}");
    // the last digit: the finish, and the board no longer takes input
    b.click("cell-r1c1");
    let last = &solution[..1];
    b.key(last, 0);
    b.wait("!document.querySelector('[data-testid=\"finish\"]').hidden");
    let finish = b.text("finish");
    assert!(
        finish.starts_with("Solved in ") && finish.contains("with 1 hint and 0 mistakes"),
        "{finish}"
    );
    assert_eq!(b.eval("document.body.getAttribute('data-state')"), "solved");
    b.key("Delete", 0);
    assert_eq!(b.attr("cell-r1c1", "data-value"), last);
    assert!(
        b.eval("document.querySelector('[data-testid=\"undo\"]').disabled") == Value::Bool(true)
    );
    let status = b.text("status");
    assert!(status.starts_with("Solved"), "{status}");
}

#[test]
fn a_25x25_puzzle_is_played_and_its_long_solve_answered_as_stopped() {
    let Some(binary) = chromium() else { return };
    let server = Server::start(&["--time-limit", "15"]);
    let mut b = Browser::start(&binary, &scratch("serve-25"));
    let puzzle = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal-25x25.txt"),
    )
    .unwrap();
    let puzzle = puzzle
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap()
        .trim()
        .to_string();
    play(&mut b, &server, &puzzle);
    assert_eq!(b.eval("document.querySelectorAll('.cell').length"), 625);
    assert_eq!(
        b.eval("document.querySelectorAll('#pad button').length"),
        25
    );
    let empty = puzzle.bytes().position(|c| c == b'.').unwrap();
    let cell = format!("cell-r{}c{}", empty / 25 + 1, empty % 25 + 1);
    b.click(&cell);
    b.key("p", 8);
    assert_eq!(b.attr(&cell, "data-marks"), "P");
    b.click("pad-24");
    assert_eq!(b.attr(&cell, "data-value"), "24");
    // the rows keep one height on the big board too
    let rows = row_heights(&mut b);
    let (lo, hi) = spread(&rows);
    assert!(hi - lo <= 1.0, "{rows:?}");
    b.click("undo");
    assert_eq!(b.attr(&cell, "data-value"), "");
    assert_eq!(b.attr(&cell, "data-marks"), "P");
    b.click("undo");
    // a hint comes at once (no solve in the background holds the address's job slot)
    let said = ask_hint(&mut b);
    assert_eq!(
        b.eval("document.getElementById('hint-text').className"),
        "",
        "{said}"
    );
    assert!(
        b.eval("document.querySelectorAll('.cell.hint-house').length")
            .as_u64()
            >= Some(25)
    );
    // the explained solve, asked for, needs minutes: the page says so, the board stays playable
    assert!(b.text("rating").starts_with("Not rated"));
    b.click("walk-show");
    b.wait("/longer than this server allows/.test(document.querySelector('[data-testid=\"walk-pos\"]').textContent)");
    b.click(&cell);
    b.key("a", 8);
    assert_eq!(b.attr(&cell, "data-marks"), "A");
}

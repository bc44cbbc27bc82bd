//! The HTML page in a real browser: `lapiz solve --format html` rendered by headless Chromium.
//! The DOM after the page's script ran must hold every step, and the page's own self-test
//! (`#selftest`: arrow keys, a click and Home, checking that the grid shown changes) must pass;
//! a screenshot of a chain step must not be blank; walking a forcing step's proof lights another
//! proof line and other arrows at each step. A 16x16 page passes the same self-test, with its
//! step list beside the grid.
//!
//! Chromium is found as `$LAPIZ_CHROMIUM`, else `chromium`, `chromium-browser` or
//! `google-chrome` on the PATH (`.ci/run` installs it on Debian). Without one the tests skip
//! with a message, unless `LAPIZ_REQUIRE_BROWSER` is set (CI sets it), when they fail.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::browser::chromium;

/// Solved by the default pipeline with discontinuous nice loops (from `top1465`).
const CHAINS: &str =
    "....9.7..8....3.6.7.3....2...6.471............2.1....5.9.6........5..68...4....5.";

/// The first puzzle of `top1465`: the default pipeline needs a dynamic forcing chain (a net).
const FORCING: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// A fresh folder under the target directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 16x16, 110 clues, solved with fish, wings, nice loops and ALS-XZ (our own: `lapiz generate
/// --size 16 --clues 110 --seed 11 --count 6`, the fourth).
const SIXTEEN: &str = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";

/// Writes the solve page of `puzzle` to `dir/page.html` and returns its path and text.
fn page(puzzle: &str, dir: &Path) -> (PathBuf, String) {
    let path = dir.join("page.html");
    let out = Command::new(env!("CARGO_BIN_EXE_lapiz"))
        .args(["solve", puzzle, "--html"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}

/// Runs the browser headless on `url` with `args`, and returns its stdout. A browser that hangs
/// is killed after a generous while (a guard, not a timing check).
fn run_browser(browser: &Path, dir: &Path, args: &[String], url: &str) -> String {
    let profile = dir.join("profile");
    let mut child = Command::new(browser)
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
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the browser starts");
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
    let mut waited = 0;
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if waited > 300 {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the browser did not finish");
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
        waited += 1;
    }
    reader.join().unwrap()
}

/// Fails unless the page's own test `name` (`#selftest`, `#walktest-K`: the attribute
/// `data-selftest`, `data-walktest`) marked its body as passed.
fn assert_page_test_passed(dom: &str, name: &str) {
    assert!(
        dom.contains(&format!("data-{name}=\"pass\"")),
        "the page's {name} did not pass: {}",
        dom.lines()
            .find(|l| l.contains("<body"))
            .unwrap_or("no body")
    );
}

fn file_url(path: &Path, fragment: &str) -> String {
    format!(
        "file://{}#{fragment}",
        path.canonicalize().unwrap().display()
    )
}

/// The number of the first frame that draws a chain.
fn first_chain_frame(page: &str) -> usize {
    first_frame_with(page, "<g class=\"chain\">")
}

/// The number of the first frame holding `mark`.
fn first_frame_with(page: &str, mark: &str) -> usize {
    let at = page.find(mark).expect("the mark is on the page");
    let before = &page[..at];
    let key = "<div class=\"frame\" data-frame=\"";
    let i = before.rfind(key).unwrap() + key.len();
    before[i..i + before[i..].find('"').unwrap()]
        .parse()
        .unwrap()
}

#[test]
fn the_page_runs_in_a_browser_and_its_navigation_changes_the_grid() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("html-dom");
    let (path, text) = page(CHAINS, &dir);
    let steps = text.matches("<li value=").count();
    assert!(steps > 20);
    let dom = run_browser(
        &browser,
        &dir,
        &["--dump-dom".into()],
        &file_url(&path, "selftest"),
    );
    assert_page_test_passed(&dom, "selftest");
    for k in 1..=steps {
        assert!(
            dom.contains(&format!("data-step=\"{k}\"")),
            "step {k} missing"
        );
    }
    // opened at a step, the script shows that frame only
    let k = first_chain_frame(&text);
    let dom = run_browser(
        &browser,
        &dir,
        &["--dump-dom".into()],
        &file_url(&path, &k.to_string()),
    );
    assert!(dom.contains(&format!("data-current=\"{k}\"")));
    assert!(dom.contains(&format!(
        "data-frame=\"{k}\" data-title=\"Step {k}\" data-shows-step=\"{k}\">"
    )));
    assert_eq!(dom.matches("<div class=\"frame\"").count(), steps + 2);
    assert_eq!(
        dom.matches("<div class=\"frame\"").count() - dom.matches("hidden=\"\"").count(),
        1,
        "one frame shown"
    );
}

#[test]
fn a_screenshot_of_a_chain_step_is_not_blank() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("html-shot");
    let (path, text) = page(CHAINS, &dir);
    let k = first_chain_frame(&text);
    let shot = dir.join("shot.png");
    run_browser(
        &browser,
        &dir,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1100,760".into(),
        ],
        &file_url(&path, &k.to_string()),
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bytes = &buf[..info.buffer_size()];
    let channels = info.color_type.samples();
    assert!(channels >= 3);
    let pixels: Vec<&[u8]> = bytes.chunks(channels).collect();
    let first = pixels[0];
    let differing = pixels.iter().filter(|p| p[..3] != first[..3]).count();
    assert!(
        differing * 10 > pixels.len(),
        "only {differing} of {} pixels differ from the first",
        pixels.len()
    );
    let mut colours: Vec<[u8; 3]> = pixels.iter().map(|p| [p[0], p[1], p[2]]).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 50, "{} colours", colours.len());
    // the chain's colours are there: strong-link blue (#1c7ed6) and weak-link orange (#e8590c)
    let near = |c: [u8; 3]| {
        pixels
            .iter()
            .any(|p| (0..3).all(|i| (i32::from(p[i]) - i32::from(c[i])).abs() < 12))
    };
    assert!(near([0x1c, 0x7e, 0xd6]), "no strong-link blue");
    assert!(near([0xe8, 0x59, 0x0c]), "no weak-link orange");
}

#[test]
fn a_forcing_step_has_its_net_drawn_as_arrows_after_the_script_ran() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("html-net");
    let (path, text) = page(FORCING, &dir);
    let k = first_frame_with(&text, "<g class=\"net\">");
    let dom = run_browser(
        &browser,
        &dir,
        &["--dump-dom".into()],
        &file_url(&path, &k.to_string()),
    );
    assert!(dom.contains(&format!("data-current=\"{k}\"")));
    // the frame shown is the forcing step's, and its SVG holds the net's arrows
    let open = format!("data-frame=\"{k}\" data-title=\"Step {k}\" data-shows-step=\"{k}\">");
    let at = dom.find(&open).expect("the forcing step's frame");
    let frame = &dom[at..at + dom[at..].find("</svg>").expect("its grid")];
    assert!(frame.contains("<g class=\"net\">"), "no net drawn");
    assert!(
        frame.contains("<g class=\"branch\" data-branch=\"1\""),
        "no branch"
    );
    let arrows = frame
        .matches(&format!("marker-end=\"url(#arrow-on-{k})\""))
        .count()
        + frame
            .matches(&format!("marker-end=\"url(#arrow-off-{k})\""))
            .count();
    assert!(arrows >= 3, "{arrows} arrows");
    assert!(frame.contains(&format!("<marker id=\"arrow-on-{k}\"")));
    assert_eq!(
        dom.matches("<div class=\"frame\"").count() - dom.matches("hidden=\"\"").count(),
        1,
        "one frame shown"
    );
}

/// In the frame `k` of a dumped DOM: the text of the proof line shown (`.pl.cur`) and the
/// `data-to` of the arrows lit with it.
fn walk_state(dom: &str, k: usize) -> (String, Vec<String>) {
    let open = format!("data-frame=\"{k}\" data-title=\"Step {k}\"");
    let at = dom.find(&open).expect("the frame");
    let frame = &dom[at..];
    let frame = &frame[..frame.find("<div class=\"frame\"").unwrap_or(frame.len())];
    let lit: Vec<String> = frame
        .split("<line ")
        .skip(1)
        .filter_map(|tag| {
            let tag = &tag[..tag.find('>')?];
            let class = tag.split("class=\"").nth(1)?.split('"').next()?;
            class.split(' ').any(|c| c == "lit").then(|| {
                tag.split("data-to=\"")
                    .nth(1)?
                    .split('"')
                    .next()
                    .map(String::from)
            })?
        })
        .collect();
    let line = frame
        .split("<p class=\"")
        .skip(1)
        .find(|p| {
            p.split('"')
                .next()
                .is_some_and(|c| c.split(' ').any(|c| c == "cur"))
        })
        .map(|p| {
            let text = &p[p.find('>').unwrap() + 1..];
            text[..text.find("</p>").unwrap()].to_string()
        })
        .unwrap_or_default();
    (line, lit)
}

#[test]
fn walking_a_forcing_step_lights_another_arrow_and_proof_line_each_step() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("html-walk");
    let (path, text) = page(FORCING, &dir);
    let k = first_frame_with(&text, "<g class=\"net\">");
    // the page's own walk test: the N key three times, each lighting only the current line's
    // arrows, the last two different
    let dom = run_browser(
        &browser,
        &dir,
        &["--dump-dom".into()],
        &file_url(&path, &format!("walktest-{k}")),
    );
    assert_page_test_passed(&dom, "walktest");
    // opened at proof lines 1, 2 and 3 (`#K.N`): another line and other arrows each time
    let mut seen = Vec::new();
    for n in 1..=3 {
        let dom = run_browser(
            &browser,
            &dir,
            &["--dump-dom".into()],
            &file_url(&path, &format!("{k}.{n}")),
        );
        let (line, lit) = walk_state(&dom, k);
        assert!(line.starts_with(&format!("{n}. ")), "line {n}: {line}");
        assert!(!lit.is_empty(), "no arrow lit with {line}");
        seen.push((line, lit));
    }
    assert_ne!(seen[0], seen[1]);
    assert_ne!(seen[1], seen[2]);
    assert_ne!(seen[0].1, seen[1].1, "the same arrows lit");
}

#[test]
fn a_sixteen_by_sixteen_page_runs_with_its_list_beside_the_grid() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("html-sixteen");
    let (path, text) = page(SIXTEEN, &dir);
    let steps = text.matches("<li value=").count();
    let dom = run_browser(
        &browser,
        &dir,
        &["--dump-dom".into(), "--window-size=1400,1000".into()],
        &file_url(&path, "selftest"),
    );
    assert_page_test_passed(&dom, "selftest");
    assert_eq!(dom.matches("<div class=\"frame\"").count(), steps + 2);
    // opened at the last step, the page shows that frame
    let dom = run_browser(
        &browser,
        &dir,
        &["--dump-dom".into(), "--window-size=1400,1000".into()],
        &file_url(&path, &steps.to_string()),
    );
    assert!(dom.contains(&format!("data-current=\"{steps}\"")));
}

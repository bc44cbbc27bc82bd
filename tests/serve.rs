//! `lapiz serve`'s API, over HTTP from this test to a server process: each endpoint answers what
//! the command line says (the trace as the RON trace, the hint as `lapiz hint`, the rating as
//! the library rates, the generated puzzle as `lapiz generate`), errors are JSON with a 4xx,
//! the limits hold, and docs/openapi.yaml names exactly the routes.

mod common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use common::cli::run_lapiz;
use common::serve::Server;
use lapiz::engine::Trace;

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Solved by the default pipeline with discontinuous nice loops.
const CHAINS: &str =
    "....9.7..8....3.6.7.3....2...6.471............2.1....5.9.6........5..68...4....5.";
/// The first puzzle of `top1465`: the default pipeline needs a forcing net.
const FORCING: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

fn body(puzzle: &str, extra: &str) -> String {
    format!("{{\"puzzle\":\"{puzzle}\"{extra}}}")
}

#[test]
fn solve_answers_the_trace_the_ron_trace_carries() {
    let server = Server::start(&[]);
    for puzzle in [EASY, CHAINS] {
        let (status, answer) = server.post("/api/solve", &body(puzzle, ""));
        assert_eq!(status, 200, "{answer}");
        let from_json: Trace = serde_json::from_value(answer["trace"].clone()).unwrap();
        let (ok, ron, _) = run_lapiz(&["solve", puzzle, "--format", "ron"]);
        assert!(ok);
        assert_eq!(from_json, Trace::from_ron(&ron).unwrap());
        assert!(answer.get("html").is_none());
        assert_eq!(answer["names"]["hidden-single"], "Hidden Single");
    }
    // numbers as the trace writes them
    let (_, text) = server.request(
        "POST",
        "/api/solve",
        &[("Content-Type", "application/json")],
        body(EASY, "").as_bytes(),
    );
    assert!(text.contains("\"difficulty\":1.2,"), "{}", &text[..300]);
    // with the page the command line writes
    let (status, answer) = server.post("/api/solve", &body(CHAINS, ",\"html\":true"));
    assert_eq!(status, 200);
    let (_, page, _) = run_lapiz(&["solve", CHAINS, "--format", "html"]);
    assert_eq!(answer["html"], page.as_str());
}

#[test]
fn hint_answers_what_lapiz_hint_prints_on_a_grid_with_pencil_marks() {
    let server = Server::start(&[]);
    // a player's grid: digits placed (+) and pencil marks (deleted candidates)
    let (ok, grid, _) = run_lapiz(&["solve", CHAINS, "--format", "ron"]);
    assert!(ok);
    let trace = Trace::from_ron(&grid).unwrap();
    let mut g = lapiz::text::parse_puzzle(CHAINS).unwrap();
    for s in trace.steps().take(25) {
        s.apply(&mut g);
    }
    let line = lapiz::text::format_grid_library_line(&g);
    for puzzle in [EASY, CHAINS, line.as_str()] {
        for level in ["full", "nudge"] {
            let (status, answer) = server.post(
                "/api/hint",
                &body(puzzle, &format!(",\"level\":\"{level}\"")),
            );
            assert_eq!(status, 200, "{answer}");
            let (ok, printed, _) = run_lapiz(&["hint", puzzle, "--level", level]);
            assert!(ok);
            assert_eq!(answer["text"], printed.trim_end(), "{level} on {puzzle}");
            assert_eq!(answer["found"], true);
            assert_eq!(answer["level"], level);
            let step = &answer["step"];
            if level == "nudge" {
                assert!(step.get("placements").is_none() && step.get("eliminations").is_none());
                assert!(step.get("highlights").is_none() && step.get("chains").is_none());
            } else {
                let step: lapiz::Step = serde_json::from_value(step.clone()).unwrap();
                assert!(!step.is_empty());
            }
        }
    }
    let (status, answer) = server.post("/api/hint", &body(FORCING, ",\"html\":true"));
    assert_eq!(status, 200);
    let (_, page, _) = run_lapiz(&["hint", FORCING, "--format", "html"]);
    assert_eq!(answer["html"], page.as_str());
}

#[test]
fn rate_and_generate_answer_as_the_command_line() {
    let server = Server::start(&[]);
    let (status, answer) = server.post("/api/rate", &body(CHAINS, ""));
    assert_eq!(status, 200, "{answer}");
    let se = lapiz::Pipeline::embedded("se").unwrap();
    let rating = lapiz::engine::rate(&lapiz::solve_puzzle(CHAINS, &se), &se).expect("a rating");
    let got: lapiz::engine::Rating = serde_json::from_value(answer["rating"].clone()).unwrap();
    assert_eq!(got, rating);
    assert_eq!(answer["text"], rating.rating_text().as_str());
    assert_eq!(answer["level"], rating.level.name());
    assert_eq!(answer["pipeline"], "se");
    let hardest = rating.hardest_technique.as_deref().unwrap();
    let name = se
        .techniques()
        .iter()
        .find(|t| t.id() == hardest)
        .unwrap()
        .name();
    assert_eq!(answer["hardest_name"], name);

    let (status, answer) = server.post("/api/generate", r#"{"level":"easy","seed":7}"#);
    assert_eq!(status, 200, "{answer}");
    let (ok, printed, _) = run_lapiz(&["generate", "--seed", "7", "--difficulty", "easy"]);
    assert!(ok);
    assert_eq!(answer["puzzle"], printed.trim());
    assert_eq!(answer["seed"], 7);
    assert_eq!(answer["rating"]["level"], "Easy");
    let solution = answer["solution"].as_str().unwrap();
    assert_eq!(solution.len(), 81);
    let (status, answer) = server.post(
        "/api/generate",
        r#"{"symmetry":"rot180","max_clues":30,"pipeline":"default"}"#,
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["pipeline"], "default");
}

/// 16x16 (4x4 boxes), 110 clues, from `tests/sized_traces.rs`.
const SIXTEEN: &str = "...5...64..E8...D8..F54..1.GB.2EG.92...E3.8.D..73.B..G.8....15....6..93.1.4.A..D.4..6.....A...7.1B.7..DF.C..6....CG.8.....3.9.....D1B...A..7G6.5...E....8......A86F..4AG.D....9....C9..1B5.4....5D.B1.FA.GE....6C31978.D.......4.2.8...B..D.39AG6AE.4....3...DB1";

#[test]
fn every_size_is_served_as_the_command_line_serves_it() {
    let server = Server::start(&[]);
    // solve: the trace and the page `lapiz solve` writes, in the puzzle's symbols
    let (status, answer) = server.post("/api/solve", &body(SIXTEEN, ",\"html\":true"));
    assert_eq!(status, 200, "{answer}");
    let from_json: Trace = serde_json::from_value(answer["trace"].clone()).unwrap();
    let (ok, ron, _) = run_lapiz(&["solve", SIXTEEN, "--format", "ron"]);
    assert!(ok);
    assert_eq!(from_json, Trace::from_ron(&ron).unwrap());
    assert_eq!(from_json.solution.as_deref().map(str::len), Some(256));
    let (_, page, _) = run_lapiz(&["solve", SIXTEEN, "--format", "html"]);
    assert_eq!(answer["html"], page.as_str());
    // hint: what `lapiz hint` prints, both levels
    for level in ["full", "nudge"] {
        let extra = format!(",\"level\":\"{level}\"");
        let (status, answer) = server.post("/api/hint", &body(SIXTEEN, &extra));
        assert_eq!(status, 200, "{answer}");
        let (ok, printed, _) = run_lapiz(&["hint", SIXTEEN, "--level", level]);
        assert!(ok);
        assert_eq!(answer["text"], printed.trim_end(), "{level}");
        assert_eq!(answer["found"], true);
    }
    // rate: as `lapiz rate` rates other sizes, by the default pipeline
    let (status, answer) = server.post("/api/rate", &body(SIXTEEN, ""));
    assert_eq!(status, 200, "{answer}");
    let (ok, printed, _) = run_lapiz(&["rate", SIXTEEN, "--no-header"]);
    assert!(ok);
    let rated = printed.split('\t').nth(1).unwrap_or_default();
    assert_eq!(answer["text"], rated, "{printed}");
    assert_eq!(answer["pipeline"], "default");
    // a 6x6 puzzle with 3x2 boxes, in letters: read with `symbols` and `box`
    let (status, made) = server.post(
        "/api/generate",
        r#"{"size":6,"box":"3x2","symbols":"A-Z","seed":4}"#,
    );
    assert_eq!(status, 200, "{made}");
    let (ok, printed, _) = run_lapiz(&[
        "generate",
        "--size",
        "6",
        "--box",
        "3x2",
        "--symbols",
        "A-Z",
        "--seed",
        "4",
    ]);
    assert!(ok);
    assert_eq!(made["puzzle"], printed.trim());
    assert_eq!(made["solution"].as_str().map(str::len), Some(36));
    // the solved boards tried, as the library counts them
    let six_by_three = lapiz::model::Layout::with_box(6, 3, 2).unwrap();
    let here = lapiz::Puzzle::generate(
        six_by_three,
        lapiz::model::Alphabet::Letters,
        &lapiz::puzzle::generate::GenerateOptions::default(),
        &lapiz::Pipeline::default_pipeline(),
        4,
        0,
    )
    .unwrap();
    assert_eq!(made["puzzle"], here.puzzle.to_line());
    assert_eq!(made["attempts"], here.attempts);
    let six = made["puzzle"].as_str().unwrap();
    let extra = ",\"symbols\":\"A-Z\",\"box\":\"3x2\"";
    let (status, answer) = server.post("/api/solve", &body(six, extra));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["trace"]["outcome"], "Solved");
    assert_eq!(answer["trace"]["solution"], made["solution"]);
    // 16x16 generation, minimal and reproducible
    let (status, made) = server.post("/api/generate", r#"{"size":16,"seed":2}"#);
    assert_eq!(status, 200, "{made}");
    let (_, printed, _) = run_lapiz(&["generate", "--size", "16", "--seed", "2"]);
    assert_eq!(made["puzzle"], printed.trim());
    assert!(made["rating"].is_null(), "{made}");
    // to a target: rated by the solving pipeline, as the command line does
    let (status, made) = server.post("/api/generate", r#"{"size":16,"seed":2,"level":"hard"}"#);
    assert_eq!(status, 200, "{made}");
    let (_, printed, _) = run_lapiz(&[
        "generate",
        "--size",
        "16",
        "--seed",
        "2",
        "--difficulty",
        "hard",
    ]);
    assert_eq!(made["puzzle"], printed.trim());
    assert_eq!(made["rating"]["level"], "Hard", "{made}");
    assert_eq!(made["pipeline"], "default", "{made}");
    // what is refused, and why
    let empty25 = ".".repeat(625);
    for (path, request, says) in [
        ("/api/read", body(&empty25, ""), "more than one solution"),
        ("/api/solve", body(&empty25, ""), "more than one solution"),
        (
            "/api/generate",
            r#"{"size":16,"rating":"3..2"}"#.to_string(),
            "empty range",
        ),
        ("/api/generate", r#"{"size":7}"#.to_string(), "7"),
        // `attempts` is read on every size: no 6x6 puzzle with 5 clues has one solution
        (
            "/api/generate",
            r#"{"size":6,"clues":5,"attempts":3}"#.to_string(),
            "in 3 attempts",
        ),
        // fewer clues than any 4x4 puzzle with one solution has: refused at once
        (
            "/api/generate",
            r#"{"size":4,"clues":2,"attempts":3}"#.to_string(),
            "fewer than 4",
        ),
        (
            "/api/generate",
            r#"{"size":6,"attempts":0}"#.to_string(),
            "attempts must be 1 to",
        ),
        (
            "/api/solve",
            body(SIXTEEN, ",\"box\":\"4x\""),
            "not a box shape",
        ),
        (
            "/api/solve",
            body(SIXTEEN, ",\"symbols\":\"xyz\""),
            "not an alphabet",
        ),
    ] {
        let (status, answer) = server.post(path, &request);
        assert_eq!(status, 422, "{path} {request}: {answer}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{path} {request}: {error}");
    }
}

#[test]
fn bad_requests_are_json_errors_with_a_4xx() {
    let server = Server::start(&[]);
    let json = [("Content-Type", "application/json")];
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("/api/solve", "{bad".into(), 400, "cannot read the request"),
        ("/api/solve", "[1,2]".into(), 400, "cannot read the request"),
        ("/api/solve", "{}".into(), 400, "missing field `puzzle`"),
        // no request can name a file, a script or a plugin
        (
            "/api/solve",
            body(EASY, ",\"technique\":\"/etc/passwd\""),
            400,
            "unknown field `technique`",
        ),
        (
            "/api/hint",
            body(EASY, ",\"plugin\":\"x.so\""),
            400,
            "unknown field `plugin`",
        ),
        (
            "/api/solve",
            body(EASY, ",\"pipeline\":\"/tmp/p.ron\""),
            422,
            "no pipeline `/tmp/p.ron` on this server",
        ),
        (
            "/api/solve",
            body("12345", ""),
            422,
            "cannot read the puzzle",
        ),
        (
            "/api/solve",
            body(&format!("11{}", ".".repeat(79)), ""),
            422,
            "invalid puzzle: r1c1 and r1c2 both hold 1",
        ),
        (
            "/api/solve",
            body(&".".repeat(81), ""),
            422,
            "invalid puzzle: the puzzle has more than one solution",
        ),
        (
            "/api/hint",
            body(&".".repeat(81), ""),
            422,
            "more than one solution",
        ),
        (
            "/api/rate",
            body(&".".repeat(81), ""),
            422,
            "more than one solution",
        ),
        (
            "/api/hint",
            body(EASY, ",\"level\":\"all\""),
            422,
            "level `all`: expected full or nudge",
        ),
        (
            "/api/generate",
            r#"{"level":"impossible"}"#.into(),
            422,
            "impossible",
        ),
        (
            "/api/generate",
            r#"{"attempts":0}"#.into(),
            422,
            "attempts must be",
        ),
        (
            "/api/generate",
            r#"{"requires":["no-such-technique"]}"#.into(),
            422,
            "no-such-technique",
        ),
    ];
    for (path, text, want, message) in cases {
        let (status, answer) = server.post(path, &text);
        assert_eq!(status, want, "{path} {text}: {answer}");
        let error = answer["error"].as_str().expect("an error message");
        assert!(error.contains(message), "{path} {text}: {error}");
    }
    // not JSON
    let (status, text) = server.request("POST", "/api/solve", &[], body(EASY, "").as_bytes());
    assert_eq!(status, 415, "{text}");
    assert!(text.contains("\"error\""));
    // too large
    let big = body(&"1".repeat(100_000), "");
    let (status, text) = server.request("POST", "/api/solve", &json, big.as_bytes());
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("larger than 65536 bytes"), "{text}");
    // the wrong method, an unknown path
    let (status, text) = server.request("GET", "/api/solve", &[], b"");
    assert_eq!(status, 405, "{text}");
    assert!(text.contains("\"error\""));
    let (status, text) = server.request("GET", "/etc/passwd", &[], b"");
    assert_eq!(status, 404, "{text}");
    assert!(text.contains("\"error\""));
}

#[test]
fn the_page_is_self_contained_and_another_host_name_is_refused() {
    let server = Server::start(&[]);
    let (status, page) = server.request("GET", "/", &[], b"");
    assert_eq!(status, 200);
    assert!(
        page.contains("data-testid=\"hint-button\"") && page.contains("data-testid=\"step-list\"")
    );
    for outside in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "@import",
        "src=\"//",
    ] {
        assert!(!page.contains(outside), "{outside}");
    }
    // a page elsewhere reaching the server through DNS rebinding names another host
    let (status, text) = common::serve::request_from(
        server.addr,
        None,
        "GET",
        "/",
        &[("Host", "attacker.example:80")],
        b"",
    )
    .unwrap();
    assert_eq!(status, 421, "{text}");
}

#[test]
fn the_rate_limit_answers_429_and_the_time_limit_503() {
    let server = Server::start(&["--rate-limit", "60"]);
    let mut statuses = Vec::new();
    for _ in 0..14 {
        let (status, answer) = server.post("/api/rate", "{\"puzzle\":\"x\"}");
        assert!(answer["error"].is_string());
        statuses.push(status);
    }
    // a burst of 10, then refilled at one a second
    assert!(statuses[..10].iter().all(|&s| s == 422), "{statuses:?}");
    assert!(statuses.contains(&429), "{statuses:?}");

    let server = Server::start(&["--time-limit", "0.001"]);
    let (status, answer) = server.post("/api/solve", &body(FORCING, ""));
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("time limit")
            || answer["error"].as_str().unwrap().contains("busy"),
        "{answer}"
    );
}

/// The paths of docs/openapi.yaml (the keys under `paths:`).
fn openapi_paths(text: &str) -> Vec<String> {
    let mut in_paths = false;
    let mut paths = Vec::new();
    for line in text.lines() {
        if line == "paths:" {
            in_paths = true;
        } else if in_paths && !line.starts_with(' ') && !line.trim().is_empty() {
            break;
        } else if in_paths && line.starts_with("  /") {
            paths.push(line.trim().trim_end_matches(':').to_string());
        }
    }
    paths
}

#[test]
fn the_openapi_file_names_the_routes_the_server_has() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/openapi.yaml")).unwrap();
    let mut paths = openapi_paths(&text);
    paths.sort();
    assert_eq!(
        paths,
        [
            "/api/generate",
            "/api/hint",
            "/api/rate",
            "/api/read",
            "/api/solve"
        ]
    );
    let server = Server::start(&[]);
    for path in &paths {
        // each is a POST route: a GET is 405, a POST without a body 400 or 422, never 404
        let (status, _) = server.request("GET", path, &[], b"");
        assert_eq!(status, 405, "{path}");
        let (status, answer) = server.post(path, "{}");
        assert!(status == 400 || status == 200, "{path}: {status} {answer}");
    }
    let (status, served) = server.request("GET", "/api/openapi.yaml", &[], b"");
    assert_eq!(status, 200);
    assert_eq!(served, text);
    // every request field the file names is one the server reads, and the other way round
    for (path, fields) in [
        (
            "/api/solve",
            vec!["puzzle", "pipeline", "html", "symbols", "box"],
        ),
        (
            "/api/hint",
            vec!["puzzle", "pipeline", "level", "html", "symbols", "box"],
        ),
        ("/api/rate", vec!["puzzle", "pipeline", "symbols", "box"]),
        (
            "/api/generate",
            vec![
                "level",
                "symmetry",
                "seed",
                "clues",
                "max_clues",
                "rating",
                "requires",
                "attempts",
                "pipeline",
                "size",
                "symbols",
                "box",
            ],
        ),
    ] {
        let schema = request_schema(&text, path);
        let mut named = schema_properties(&text, &schema);
        named.sort();
        let mut want: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(named, want, "{path}");
        for field in fields {
            // an unknown field is refused, so a field the server reads is not "unknown"
            let (_, answer) = server.post(path, &format!("{{\"{field}\":null}}"));
            let error = answer["error"].as_str().unwrap_or("");
            assert!(!error.contains("unknown field"), "{path} {field}: {error}");
        }
    }
}

/// The name of the request body schema of `path` (`$ref: '#/components/schemas/NAME'`).
fn request_schema(text: &str, path: &str) -> String {
    let at = text.find(&format!("\n  {path}:")).expect("the path");
    let rest = &text[at..];
    let r = rest
        .find("$ref: '#/components/schemas/")
        .expect("a request schema");
    let name = &rest[r + "$ref: '#/components/schemas/".len()..];
    name[..name.find('\'').unwrap()].to_string()
}

/// The property names of the schema `name` under `components: schemas:`.
fn schema_properties(text: &str, name: &str) -> Vec<String> {
    let at = text.find(&format!("\n    {name}:\n")).expect("the schema");
    let rest = &text[at + 1..];
    let props = rest.find("      properties:\n").expect("properties");
    let mut out = Vec::new();
    for line in rest[props..].lines().skip(1) {
        if !line.starts_with("        ") {
            break;
        }
        if line.starts_with("        ") && !line.starts_with("         ") {
            out.push(line.trim().split(':').next().unwrap_or("").to_string());
        }
    }
    out
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_server_with_status_0() {
    let mut server = Server::start(&[]);
    let (status, _) = server.post("/api/solve", &body(EASY, ""));
    assert_eq!(status, 200);
    // SAFETY: kill(2) on the server process this test started
    assert_eq!(unsafe { libc::kill(server.pid() as i32, libc::SIGINT) }, 0);
    let exit = server
        .wait_for_exit(std::time::Duration::from_secs(60))
        .expect("the server stops");
    assert!(exit.success(), "{exit:?}");
}

#[test]
fn one_address_cannot_hold_every_connection() {
    let server = Server::start(&[]);
    let idle_from = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
    let connect = || {
        let socket =
            socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        socket.bind(&SocketAddr::new(idle_from, 0).into()).unwrap();
        socket.connect(&server.addr.into()).unwrap();
        std::net::TcpStream::from(socket)
    };
    // idle connections up to the address's cap (128), then one more request from it
    let idle: Vec<_> = (0..128).map(|_| connect()).collect();
    let request = |from: IpAddr| {
        common::serve::request_from(
            server.addr,
            Some(from),
            "POST",
            "/api/rate",
            &[("Content-Type", "application/json")],
            body(EASY, "").as_bytes(),
        )
        .unwrap()
    };
    let (status, text) = request(idle_from);
    assert_eq!(status, 429, "{text}");
    assert!(
        text.contains("too many connections from this address"),
        "{text}"
    );
    // another address is served
    let (status, text) = request(IpAddr::V4(Ipv4Addr::LOCALHOST));
    assert_eq!(status, 200, "{text}");
    // once the idle ones close, the address is served again
    drop(idle);
    let mut served = false;
    for _ in 0..100 {
        if request(idle_from).0 == 200 {
            served = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(served);
}

#[test]
fn read_answers_the_board_its_givens_marks_and_solution() {
    let server = Server::start(&[]);
    let (status, b) = server.post("/api/read", &body(SIXTEEN, ""));
    assert_eq!(status, 200, "{b}");
    assert_eq!(b["size"], 16);
    assert_eq!(b["box"], "4x4");
    assert_eq!(b["symbols"], "1-9A");
    assert_eq!(b["symbol_list"][15], "G");
    let values: Vec<u64> = b["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(values.len(), 256);
    assert_eq!(
        values.iter().filter(|&&v| v != 0).count(),
        SIXTEEN.bytes().filter(|&c| c != b'.').count()
    );
    assert!(b["marks"].is_null());
    let trace = lapiz::solve_puzzle(SIXTEEN, &lapiz::Pipeline::default_pipeline());
    let solution: String = b["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            b["symbol_list"][v.as_u64().unwrap() as usize - 1]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(Some(solution), trace.solution);
    // a library line: its placed digit is no given, its deleted candidate gone from the marks
    let sol = lapiz::solve_puzzle(CHAINS, &lapiz::Pipeline::default_pipeline())
        .solution
        .unwrap();
    let gone = other_than(&sol, 1);
    let placed = format!(":0000::+{}{}:{gone}12:::", &sol[..1], &CHAINS[1..]);
    let (status, b) = server.post("/api/read", &body(&placed, ""));
    assert_eq!(status, 200, "{b}");
    assert_eq!(
        b["values"][0].as_u64(),
        Some(u64::from(sol.as_bytes()[0] - b'0'))
    );
    assert_eq!(b["givens"][0], false);
    assert_eq!(b["givens"][4], true);
    let r1c2 = b["marks"][1].as_u64().unwrap();
    assert_eq!(r1c2 & (1 << (gone - 1)), 0, "{b}");
    assert_ne!(r1c2, 0);
    // not one solution, or not a puzzle: 422 with the reason
    let (status, b) = server.post("/api/read", &body(&".".repeat(81), ""));
    assert_eq!(status, 422);
    assert!(b["error"].as_str().unwrap().contains("solution"), "{b}");
    let (status, b) = server.post("/api/read", &body("12x", ""));
    assert_eq!(status, 422);
    assert!(
        b["error"]
            .as_str()
            .unwrap()
            .contains("cannot read the puzzle"),
        "{b}"
    );
}

/// A candidate of cell `i` of CHAINS that is not its digit in the solution `sol`.
fn other_than(sol: &str, i: usize) -> u32 {
    let cands = lapiz::text::Puzzle::read(CHAINS, None, None)
        .unwrap()
        .candidates()[i];
    let d = u32::from(sol.as_bytes()[i] - b'0');
    (1..=9)
        .find(|&k| k != d && cands & (1 << (k - 1)) != 0)
        .unwrap()
}

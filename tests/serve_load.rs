//! A load test of `lapiz serve` from a second process (this test, against a server process):
//! 200 concurrent requests, every one answered, and a burst of slow requests from one address
//! does not stall another address. It prints the figures docs/performance.md gives (run
//! `cargo test --release --test serve_load -- --nocapture`); it asserts no timing.

mod common;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use common::serve::{Server, request_from};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Solved by the default pipeline with discontinuous nice loops.
const CHAINS: &str =
    "....9.7..8....3.6.7.3....2...6.471............2.1....5.9.6........5..68...4....5.";
/// The first puzzle of `top1465`: the default pipeline needs a forcing net.
const FORCING: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// Rated 11.9 by the `se` pipeline: its rating takes seconds (nested dynamic forcing chains).
const HARDEST: &str =
    ".2.4...8.....8...68....71..2..5...9..95.......4..3.........1..7..28...4.....6.3..";

/// `127.0.0.N`: a client of its own, as far as the server's limits go.
fn client(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
}

/// One answer: its status and how long it took.
type Timed = (u16, Duration);

/// `n` requests at once (each thread waits at a barrier, then sends), `path` with the body
/// `body(i)` from the address `from(i)`.
fn burst(
    server: &Server,
    n: usize,
    path: &'static str,
    from: impl Fn(usize) -> IpAddr,
    body: impl Fn(usize) -> String,
) -> Vec<Timed> {
    let barrier = Arc::new(Barrier::new(n));
    let threads: Vec<_> = (0..n)
        .map(|i| {
            let (addr, ip, text, barrier) = (server.addr, from(i), body(i), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                let start = Instant::now();
                let json = [("Content-Type", "application/json")];
                let (status, answer) =
                    request_from(addr, Some(ip), "POST", path, &json, text.as_bytes())
                        .expect("an answer");
                assert!(
                    answer.starts_with('{'),
                    "{status}: the answer is not JSON: {answer}"
                );
                (status, start.elapsed())
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// `p50 12 ms, p90 30 ms, max 41 ms` of the answers' times.
fn spread(times: &[Timed]) -> String {
    let mut d: Vec<Duration> = times.iter().map(|t| t.1).collect();
    d.sort();
    let at = |q: f64| d[((d.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0;
    format!(
        "p50 {:.0} ms, p90 {:.0} ms, max {:.0} ms",
        at(0.5),
        at(0.9),
        at(1.0)
    )
}

/// How many answers had each status.
fn counts(times: &[Timed]) -> String {
    let mut statuses: Vec<u16> = times.iter().map(|t| t.0).collect();
    statuses.sort_unstable();
    statuses.dedup();
    statuses
        .iter()
        .map(|s| format!("{s}: {}", times.iter().filter(|t| t.0 == *s).count()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn two_hundred_concurrent_solves_are_all_answered() {
    // the rate limits opened, eight client addresses so that every core works
    let server = Server::start(&[
        "--rate-limit",
        "0",
        "--client-requests",
        "1000",
        "--jobs",
        "2",
    ]);
    let puzzles = [EASY, CHAINS, FORCING];
    let start = Instant::now();
    let answers = burst(
        &server,
        200,
        "/api/solve",
        |i| client(1 + (i % 8) as u8),
        |i| format!("{{\"puzzle\":\"{}\"}}", puzzles[i % 3]),
    );
    let wall = start.elapsed();
    eprintln!(
        "200 concurrent solves (easy, chains, forcing net; 8 addresses): {:.2} s, {:.0} a second; {}; {}",
        wall.as_secs_f64(),
        200.0 / wall.as_secs_f64(),
        spread(&answers),
        counts(&answers)
    );
    // every request answered: solved, or past the time limit on a very slow machine
    assert!(
        answers.iter().all(|a| a.0 == 200 || a.0 == 503),
        "{}",
        counts(&answers)
    );
    assert!(answers.iter().any(|a| a.0 == 200));
}

#[test]
fn a_burst_from_one_address_does_not_stall_another() {
    // two job slots whatever the cores: one address may hold one of them
    let server = Server::start(&["--jobs", "2"]);
    let burst_server = &server;
    let (slow, other) = std::thread::scope(|scope| {
        let slow = scope.spawn(move || {
            burst(
                burst_server,
                200,
                "/api/rate",
                |_| client(1),
                |_| format!("{{\"puzzle\":\"{HARDEST}\"}}"),
            )
        });
        // meanwhile another address solves, one request after the other
        std::thread::sleep(Duration::from_millis(300));
        let mut other = Vec::new();
        for i in 0..10 {
            let start = Instant::now();
            let puzzle = [EASY, CHAINS][i % 2];
            let json = [("Content-Type", "application/json")];
            let body = format!("{{\"puzzle\":\"{puzzle}\"}}");
            let (status, _) = request_from(
                server.addr,
                Some(client(2)),
                "POST",
                "/api/solve",
                &json,
                body.as_bytes(),
            )
            .expect("an answer");
            other.push((status, start.elapsed()));
        }
        (slow.join().unwrap(), other)
    });
    eprintln!(
        "a burst of 200 ratings of an 11.9 puzzle from one address: {}; {}",
        counts(&slow),
        spread(&slow)
    );
    eprintln!(
        "meanwhile 10 solves from another address: {}; {}",
        counts(&other),
        spread(&other)
    );
    // the burst is refused or served, never left hanging; the other address is served
    assert!(
        slow.iter().all(|a| [200, 429, 503].contains(&a.0)),
        "{}",
        counts(&slow)
    );
    assert!(slow.iter().any(|a| a.0 == 429), "{}", counts(&slow));
    assert!(other.iter().all(|a| a.0 == 200), "{}", counts(&other));
}

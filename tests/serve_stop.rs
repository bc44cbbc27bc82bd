//! `lapiz serve` stops a request's work at its deadline: the slot it held is free for the next
//! request of its address, two slow requests leave other addresses served, and bad input is
//! refused without waiting for a slot. No timing is asserted: each check is a status that the
//! old behaviour (a worker keeping its slot past its deadline) would change to 503.

mod common;

use std::net::{IpAddr, Ipv4Addr};

use common::serve::{Server, request_from};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// A generation that takes hours of attempts (the issue's example).
const SLOW: &str = r#"{"size":16,"rating":"11.5..12","attempts":20000}"#;

/// `127.0.0.N`: a client of its own, as far as the server's limits go.
fn client(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
}

fn post(server: &Server, from: IpAddr, path: &str, body: &str) -> (u16, String) {
    let json = [("Content-Type", "application/json")];
    request_from(
        server.addr,
        Some(from),
        "POST",
        path,
        &json,
        body.as_bytes(),
    )
    .expect("an answer")
}

fn hint_body() -> String {
    format!("{{\"puzzle\":\"{EASY}\"}}")
}

#[test]
fn a_slow_request_costs_its_address_nothing_after_its_deadline() {
    // one slot per address (jobs / 2), so a slot kept past the deadline would starve the hint
    let server = Server::start(&["--time-limit", "1", "--jobs", "2"]);
    let (status, text) = post(&server, client(2), "/api/generate", SLOW);
    assert_eq!(status, 503, "{text}");
    let (status, text) = post(&server, client(2), "/api/hint", &hint_body());
    assert_eq!(status, 200, "{text}");
}

#[test]
fn two_slow_requests_leave_other_addresses_served() {
    let server = Server::start(&["--time-limit", "1", "--jobs", "2"]);
    let server = &server;
    std::thread::scope(|s| {
        let slow: Vec<_> = [2, 3]
            .map(|n| s.spawn(move || post(server, client(n), "/api/generate", SLOW)))
            .into_iter()
            .collect();
        for t in slow {
            let (status, text) = t.join().expect("a thread");
            assert_eq!(status, 503, "{text}");
        }
    });
    let (status, text) = post(server, client(4), "/api/hint", &hint_body());
    assert_eq!(status, 200, "{text}");
}

#[test]
fn bad_input_is_refused_without_waiting_for_a_slot() {
    // one slot, held by a slow request: a request that waited for it would get 503
    let server = Server::start(&["--time-limit", "3", "--jobs", "1"]);
    std::thread::scope(|s| {
        let slow = s.spawn(|| post(&server, client(2), "/api/generate", SLOW));
        std::thread::sleep(std::time::Duration::from_millis(500));
        for (path, body) in [
            ("/api/solve", r#"{"puzzle":"x"}"#),
            ("/api/hint", r#"{"puzzle":"12x"}"#),
            ("/api/generate", r#"{"clues":16}"#),
            ("/api/generate", r#"{"size":16,"clues":14}"#),
            ("/api/generate", r#"{"rating":"20.5..100"}"#),
        ] {
            let (status, text) = post(&server, client(3), path, body);
            assert_eq!(status, 422, "{path} {body}: {text}");
        }
        let (status, text) = slow.join().expect("a thread");
        assert_eq!(status, 503, "{text}");
    });
}

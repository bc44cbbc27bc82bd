//! What the fuzz targets (`fuzz/`, README "Development") read, checked on stable with fixed
//! inputs: each crash a fuzzer finds becomes a case here, with the input it found. The runs so
//! far found none (docs/performance.md, "Fuzzing"); the cases below are the hostile inputs the
//! host-frame target starts from, since `read_host_output` is what lapiz does with whatever a
//! hostile plugin host writes.

use lapiz::plugin::host::read_host_output;

/// One frame: a little-endian `u32` length, then the payload.
fn frame(payload: &[u8]) -> Vec<u8> {
    let mut f = (payload.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(payload);
    f
}

/// A text as the wire writes it.
fn text(s: &str) -> Vec<u8> {
    let mut t = (s.len() as u32).to_le_bytes().to_vec();
    t.extend_from_slice(s.as_bytes());
    t
}

/// The host's first frame: its hello, naming wire protocol version 1.
fn hello() -> Vec<u8> {
    frame(&[b'H', 1, 0, 0, 0])
}

/// A description of one technique.
fn description() -> Vec<u8> {
    let mut d = vec![b'D'];
    d.extend(text("p"));
    d.extend(3u32.to_le_bytes()); // the plugin's ABI version
    d.extend(1u16.to_le_bytes());
    d.extend(text("t"));
    d.extend(text("T"));
    d.extend(0u16.to_le_bytes());
    d.extend(2.5f32.to_le_bytes());
    d.push(0);
    d.extend((1u32 << 9).to_le_bytes()); // runs on 9x9
    d.push(1); // a sized search
    d
}

/// A step eliminating `digit` from `cell`, with difficulty `difficulty`.
fn step(cell: u16, digit: u8, difficulty: f32) -> Vec<u8> {
    let mut s = vec![b'T'];
    s.extend(difficulty.to_le_bytes());
    s.extend(0u16.to_le_bytes()); // placements
    s.extend(1u16.to_le_bytes()); // eliminations
    s.extend(cell.to_le_bytes());
    s.push(digit);
    s.extend(0u16.to_le_bytes()); // highlights
    s.extend(0u16.to_le_bytes()); // houses
    s.extend(text("x"));
    s
}

#[test]
fn a_well_formed_host_output_reads() {
    let mut out = hello();
    out.extend(frame(&description()));
    out.extend(frame(&step(3, 4, 2.5)));
    out.extend(frame(b"O"));
    assert_eq!(read_host_output(&out), Ok(4));
    assert_eq!(read_host_output(&[]), Ok(0));
}

#[test]
fn hostile_host_output_is_an_error_not_a_panic() {
    let mut good = hello();
    good.extend(frame(&description()));
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "a length longer than any frame",
            u32::MAX.to_le_bytes().to_vec(),
        ),
        ("no hello first", frame(&description())),
        ("a hello of another version", frame(&[b'H', 2, 0, 0, 0])),
        ("a length cut short", vec![1, 0]),
        ("a frame cut short", {
            let mut f = good.clone();
            f.truncate(f.len() - 1);
            f
        }),
        ("no description first", [hello(), frame(b"O")].concat()),
        ("an empty first frame", frame(b"")),
        ("a description claiming 65535 techniques", {
            let mut d = vec![b'D'];
            d.extend(text("p"));
            d.extend(3u32.to_le_bytes());
            d.extend(u16::MAX.to_le_bytes());
            [hello(), frame(&d)].concat()
        }),
        ("a text longer than its frame", {
            let mut d = vec![b'D'];
            d.extend(u32::MAX.to_le_bytes());
            [hello(), frame(&d)].concat()
        }),
        ("a name that is not UTF-8", {
            let mut d = vec![b'D', 2, 0, 0, 0, 0xff, 0xfe];
            d.extend(0u16.to_le_bytes());
            [hello(), frame(&d)].concat()
        }),
        ("a step naming cell 81", {
            let mut o = good.clone();
            o.extend(frame(&step(81, 1, 2.5)));
            o
        }),
        ("a step naming cell 625, past every board", {
            let mut o = good.clone();
            o.extend(frame(&step(625, 1, 2.5)));
            o
        }),
        ("a step naming digit 0", {
            let mut o = good.clone();
            o.extend(frame(&step(0, 0, 2.5)));
            o
        }),
        ("a step of difficulty NaN", {
            let mut o = good.clone();
            o.extend(frame(&step(0, 1, f32::NAN)));
            o
        }),
        ("an unknown frame", {
            let mut o = good.clone();
            o.extend(frame(b"?"));
            o
        }),
        ("an empty frame in a search", {
            let mut o = good.clone();
            o.extend(frame(b""));
            o
        }),
    ];
    for (what, bytes) in cases {
        let read = read_host_output(&bytes);
        assert!(read.is_err(), "{what}: {read:?}");
    }
    // the loader's own message is read as such, not as a broken protocol
    let mut failed = vec![b'E'];
    failed.extend(text("plugin p: no such file"));
    assert_eq!(
        read_host_output(&[hello(), frame(&failed)].concat()),
        Err("plugin p: no such file".to_string())
    );
}

proptest::proptest! {
    /// Random bytes, and random bytes after a good description, are read or refused.
    #[test]
    fn any_bytes_are_read_or_refused(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..512)) {
        let _ = read_host_output(&bytes);
        let mut after = hello();
        after.extend(frame(&description()));
        after.extend(frame(&bytes));
        let _ = read_host_output(&after);
    }
}

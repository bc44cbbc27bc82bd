//! The plugin host's wire format: length-prefixed binary frames over the host's stdin and
//! stdout (`docs/plugins.md`, "Plugins in their own process").
//!
//! A frame is a little-endian `u32` length and that many bytes; the first byte is a tag. Each
//! side's first frame is a [`HELLO`] naming the protocol version it speaks
//! ([`PROTOCOL_VERSION`]); a side that reads another version stops with a
//! [`VersionMismatch`] naming both. The host then sends [`DESCRIBE`] (or [`LOAD_FAILED`]);
//! then each search is one [`SEARCH`] or [`SEARCH_SIZED`] frame from lapiz, answered by
//! [`STEP`] frames (each answered in turn by [`CONTINUE`] or [`STOP`]) and one [`DONE`] or
//! [`FAILED`] frame. The builders below (`hello`, `describe`, ...) are the only places a
//! payload is laid out, and the tests pin each kind's exact bytes.

use std::io::{self, Read, Write};

use lapiz_plugin_api::abi::LpBoard;

use crate::model::Layout;
use crate::model::cell::{Cell, House};
use crate::model::grid::{Candidate, Grid};
use crate::step::{Highlight, Role, Step};

/// The version of this protocol; a change to any frame's layout raises it.
pub(crate) const PROTOCOL_VERSION: u32 = 1;

/// Each side's first frame: the protocol version it speaks follows.
pub(crate) const HELLO: u8 = b'H';
/// Host → lapiz: the plugin loaded; its name and techniques follow.
pub(crate) const DESCRIBE: u8 = b'D';
/// Host → lapiz: the plugin did not load; the message follows.
pub(crate) const LOAD_FAILED: u8 = b'E';
/// lapiz → host: run technique `index` on the 9x9 grid that follows.
pub(crate) const SEARCH: u8 = b'S';
/// lapiz → host: run technique `index` (a sized search, ABI version 3) on the board that
/// follows: its side, box shape, values and candidate masks.
pub(crate) const SEARCH_SIZED: u8 = b'Z';
/// Host → lapiz: a step the search found (already checked by the host).
pub(crate) const STEP: u8 = b'T';
/// lapiz → host: keep searching.
pub(crate) const CONTINUE: u8 = b'C';
/// lapiz → host: no more steps wanted.
pub(crate) const STOP: u8 = b'B';
/// Host → lapiz: the search ended normally.
pub(crate) const DONE: u8 = b'O';
/// Host → lapiz: the search failed; the message follows.
pub(crate) const FAILED: u8 = b'F';

/// The longest frame either side accepts (a step is at most a few kilobytes).
pub(crate) const MAX_FRAME: usize = 1 << 20;

/// The other side speaks another version of this protocol (a host program from another lapiz
/// build).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "lapiz speaks plugin wire protocol version {lapiz} but the plugin host speaks version {host}: run hosts with the same lapiz build (see LAPIZ_PLUGIN_HOST)"
)]
pub(crate) struct VersionMismatch {
    /// The version lapiz speaks.
    pub(crate) lapiz: u32,
    /// The version the host speaks.
    pub(crate) host: u32,
}

/// Why a first frame is not a good [`HELLO`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum HelloError {
    /// Not a hello frame at all (not a lapiz plugin host, or one from before the handshake).
    #[error("its first frame is not a hello")]
    NotHello,
    /// A hello of another version: the number it names.
    #[error("it speaks wire protocol version {0}")]
    Version(u32),
}

/// A [`HELLO`] payload naming [`PROTOCOL_VERSION`].
pub(crate) fn hello() -> Vec<u8> {
    let mut e = Encoder::new(HELLO);
    e.u32(PROTOCOL_VERSION);
    e.0
}

/// Checks a first frame: a [`HELLO`] of [`PROTOCOL_VERSION`].
pub(crate) fn check_hello(frame: &[u8]) -> Result<(), HelloError> {
    if frame.first() != Some(&HELLO) || frame.len() != 5 {
        return Err(HelloError::NotHello);
    }
    match u32::from_le_bytes([frame[1], frame[2], frame[3], frame[4]]) {
        PROTOCOL_VERSION => Ok(()),
        other => Err(HelloError::Version(other)),
    }
}

/// One technique as a host describes it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Described {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) codes: Vec<String>,
    pub(crate) difficulty: f32,
    pub(crate) needs_uniqueness: bool,
    /// The sizes it runs on, `lp_size(n)` bits.
    pub(crate) sizes: u32,
    /// Whether its search is the sized one (ABI version 3).
    pub(crate) sized: bool,
}

/// What a host says of its library: the plugin's name, its ABI version and its techniques.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Description {
    pub(crate) name: String,
    pub(crate) abi: u32,
    pub(crate) techniques: Vec<Described>,
}

/// A [`DESCRIBE`] payload.
pub(crate) fn describe(d: &Description) -> Vec<u8> {
    let mut e = Encoder::new(DESCRIBE);
    e.str(&d.name);
    e.u32(d.abi);
    e.u16(d.techniques.len() as u16);
    for t in &d.techniques {
        e.str(&t.id);
        e.str(&t.name);
        e.u16(t.codes.len() as u16);
        for c in &t.codes {
            e.str(c);
        }
        e.f32(t.difficulty);
        e.u8(u8::from(t.needs_uniqueness));
        e.u32(t.sizes);
        e.u8(u8::from(t.sized));
    }
    e.0
}

/// A payload of `tag` holding one text: [`LOAD_FAILED`] or [`FAILED`].
pub(crate) fn message(tag: u8, text: &str) -> Vec<u8> {
    let mut e = Encoder::new(tag);
    e.str(text);
    e.0
}

/// A [`SEARCH`] payload: technique `index` on a 9x9 grid (values, then candidate masks).
pub(crate) fn search(index: usize, grid: &Grid) -> Vec<u8> {
    let mut e = Encoder::new(SEARCH);
    e.u16(index as u16);
    e.0.extend_from_slice(grid.values());
    for cell in Cell::all() {
        e.u16(grid.candidates(cell));
    }
    e.0
}

/// A [`SEARCH_SIZED`] payload: technique `index` on `board` (its side, box shape, values and
/// candidate masks).
pub(crate) fn search_sized(index: usize, board: &LpBoard) -> Vec<u8> {
    let mut e = Encoder::new(SEARCH_SIZED);
    e.u16(index as u16);
    let cells = board.cells as usize;
    e.u8(board.n as u8);
    e.u8(board.box_rows as u8);
    e.u8(board.box_cols as u8);
    e.0.extend_from_slice(&board.values[..cells]);
    for &mask in &board.candidates[..cells] {
        e.u32(mask);
    }
    e.0
}

/// A [`STEP`] payload: `step`, found on an `n x n` board.
pub(crate) fn step(step: &Step, n: usize) -> Vec<u8> {
    let mut e = Encoder::new(STEP);
    e.step(step, n);
    e.0
}

/// A search request, as the host reads it.
pub(crate) enum Request {
    /// A 9x9 search of the grid by technique `index`.
    Nine(usize, Box<Grid>),
    /// A sized search (ABI version 3) by technique `index` of a board of `layout`: its
    /// values and candidate masks.
    Sized {
        index: usize,
        layout: Layout,
        values: Vec<u8>,
        masks: Vec<u32>,
    },
}

impl Request {
    /// The technique's index.
    pub(crate) fn index(&self) -> usize {
        match self {
            Request::Nine(index, _) | Request::Sized { index, .. } => *index,
        }
    }

    /// The board's side.
    pub(crate) fn n(&self) -> usize {
        match self {
            Request::Nine(..) => 9,
            Request::Sized { layout, .. } => layout.n(),
        }
    }

    /// Reads a [`SEARCH`] or [`SEARCH_SIZED`] frame.
    pub(crate) fn read(frame: &[u8]) -> Result<Request, FrameError> {
        if frame.first() == Some(&SEARCH_SIZED) {
            let mut d = Decoder::new(&frame[1..]);
            let index = d.u16()? as usize;
            let (n, rows, cols) = (d.u8()?, d.u8()?, d.u8()?);
            let layout =
                Layout::with_box(n, rows, cols).map_err(|_| FrameError::Board { n, rows, cols })?;
            let cells = layout.n() * layout.n();
            let values = d.bytes(cells)?.to_vec();
            let masks = (0..cells).map(|_| d.u32()).collect::<Result<_, _>>()?;
            return Ok(Request::Sized {
                index,
                layout,
                values,
                masks,
            });
        }
        if frame.first() != Some(&SEARCH) {
            return Err(FrameError::NotASearch);
        }
        let mut d = Decoder::new(&frame[1..]);
        let index = d.u16()? as usize;
        let values: [u8; 81] = d
            .bytes(81)?
            .try_into()
            .map_err(|_| FrameError::EndsEarly { at: frame.len() })?;
        let mut grid = Grid::from_values(&values);
        for cell in Cell::all() {
            let mask = d.u16()?;
            if grid.value(cell) == 0 {
                grid.set_candidates(cell, mask);
            }
        }
        Ok(Request::Nine(index, Box::new(grid)))
    }
}

/// Writes one frame (length and payload) and flushes.
pub(crate) fn write_frame(w: &mut impl Write, payload: &[u8]) -> io::Result<()> {
    let mut frame = Vec::with_capacity(4 + payload.len());
    frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    frame.extend_from_slice(payload);
    w.write_all(&frame)?;
    w.flush()
}

/// Reads one frame into `buf`; `Ok(false)` at a clean end of input (no byte of a new frame).
pub(crate) fn read_frame(r: &mut impl Read, buf: &mut Vec<u8>) -> io::Result<bool> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut len[got..]) {
            Ok(0) if got == 0 => return Ok(false),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a frame of {len} bytes is longer than {MAX_FRAME}"),
        ));
    }
    buf.clear();
    buf.resize(len, 0);
    r.read_exact(buf)?;
    Ok(true)
}

/// Builds a frame's payload.
#[derive(Default)]
pub(crate) struct Encoder(pub(crate) Vec<u8>);

impl Encoder {
    /// A payload starting with `tag`.
    pub(crate) fn new(tag: u8) -> Encoder {
        Encoder(vec![tag])
    }
    pub(crate) fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn f32(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn str(&mut self, s: &str) {
        self.0.extend_from_slice(&(s.len() as u32).to_le_bytes());
        self.0.extend_from_slice(s.as_bytes());
    }
    fn candidates(&mut self, cs: &[Candidate], n: usize) {
        self.u16(cs.len() as u16);
        for c in cs {
            self.u16(c.cell.index_in(n) as u16);
            self.u8(c.digit);
        }
    }
    /// A step a plugin found on an `n x n` board: what a plugin step can hold (placements,
    /// eliminations, highlights, houses, explanation, difficulty); cells and houses by their
    /// index on the board.
    pub(crate) fn step(&mut self, s: &Step, n: usize) {
        self.f32(s.difficulty);
        self.candidates(&s.placements, n);
        self.candidates(&s.eliminations, n);
        self.u16(s.highlights.len() as u16);
        for h in &s.highlights {
            self.u8(h.role.code());
            self.candidates(&h.candidates, n);
        }
        self.u16(s.houses.len() as u16);
        for h in &s.houses {
            self.u8(h.index_in(n) as u8);
        }
        self.str(&s.explanation);
    }
}

/// What is wrong with a frame's payload.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum FrameError {
    /// The payload is shorter than what it announces.
    #[error("a frame ends early (at byte {at})")]
    EndsEarly {
        /// Where it ends.
        at: usize,
    },
    /// A text is not UTF-8.
    #[error("a text is not UTF-8")]
    NotUtf8,
    /// A candidate outside the board.
    #[error("candidate cell {cell} digit {digit} out of range")]
    Candidate {
        /// The cell index sent.
        cell: u16,
        /// The digit sent.
        digit: u8,
    },
    /// A difficulty outside (0, 20].
    #[error("difficulty {0} out of range")]
    Difficulty(f32),
    /// A role code no role has.
    #[error("role {0} out of range")]
    Role(u8),
    /// A house index outside the board (`3n` houses).
    #[error("house {0} out of range")]
    House(u8),
    /// A board size or box shape lapiz does not have.
    #[error("a board of size {n} with {rows}x{cols} boxes")]
    Board {
        /// The side sent.
        n: u8,
        /// Box rows sent.
        rows: u8,
        /// Box columns sent.
        cols: u8,
    },
    /// A frame that should be a search request is not one.
    #[error("not a search")]
    NotASearch,
}

/// Reads a frame's payload; every read checks the length, so a short or corrupt frame is an
/// error, never a panic.
pub(crate) struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    /// Reads `bytes` from the start.
    pub(crate) fn new(bytes: &'a [u8]) -> Decoder<'a> {
        Decoder { bytes, at: 0 }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], FrameError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(FrameError::EndsEarly { at: self.at })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    pub(crate) fn u8(&mut self) -> Result<u8, FrameError> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u16(&mut self) -> Result<u16, FrameError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub(crate) fn u32(&mut self) -> Result<u32, FrameError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn f32(&mut self) -> Result<f32, FrameError> {
        let b = self.take(4)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8], FrameError> {
        self.take(n)
    }
    pub(crate) fn str(&mut self) -> Result<String, FrameError> {
        let b = self.take(4)?;
        let n = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
        let s = self.take(n)?;
        String::from_utf8(s.to_vec()).map_err(|_| FrameError::NotUtf8)
    }
    fn candidates(&mut self, n: usize) -> Result<Vec<Candidate>, FrameError> {
        let count = self.u16()? as usize;
        let raw = self.take(count * 3)?;
        raw.chunks_exact(3)
            .map(|p| {
                let (cell, digit) = (u16::from_le_bytes([p[0], p[1]]), p[2]);
                if usize::from(cell) >= n * n || !(1..=n).contains(&usize::from(digit)) {
                    return Err(FrameError::Candidate { cell, digit });
                }
                Ok(Candidate::new(
                    Cell::from_index_in(usize::from(cell), n),
                    digit,
                ))
            })
            .collect()
    }
    /// A step of technique `id` on an `n x n` board, as [`Encoder::step`] wrote it.
    pub(crate) fn step(&mut self, id: &str, n: usize) -> Result<Step, FrameError> {
        let difficulty = self.f32()?;
        if !(difficulty.is_finite() && difficulty > 0.0 && difficulty <= 20.0) {
            return Err(FrameError::Difficulty(difficulty));
        }
        let mut step = Step::new(id, difficulty);
        step.placements = self.candidates(n)?;
        step.eliminations = self.candidates(n)?;
        let groups = self.u16()?;
        for _ in 0..groups {
            let code = self.u8()?;
            let role = Role::from_code(code).ok_or(FrameError::Role(code))?;
            step.highlights.push(Highlight {
                role,
                candidates: self.candidates(n)?,
            });
        }
        let houses = self.u16()? as usize;
        for &h in self.take(houses)? {
            if usize::from(h) >= 3 * n {
                return Err(FrameError::House(h));
            }
            step.houses.push(House::from_index_in(usize::from(h), n));
        }
        step.explanation = self.str()?;
        Ok(step)
    }

    /// The plugin's name, ABI version and techniques, as [`describe`] wrote them (after the
    /// tag).
    pub(crate) fn description(&mut self) -> Result<Description, FrameError> {
        let name = self.str()?;
        let abi = self.u32()?;
        let count = self.u16()?;
        let mut techniques = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let id = self.str()?;
            let name = self.str()?;
            let codes = (0..self.u16()?)
                .map(|_| self.str())
                .collect::<Result<_, _>>()?;
            let difficulty = self.f32()?;
            let needs_uniqueness = self.u8()? != 0;
            let sizes = self.u32()?;
            let sized = self.u8()? != 0;
            techniques.push(Described {
                id,
                name,
                codes,
                difficulty,
                needs_uniqueness,
                sizes,
                sized,
            });
        }
        Ok(Description {
            name,
            abi,
            techniques,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_survives_the_round_trip() {
        let mut step = Step::new("t", 4.2)
            .place(Cell::new(3), 7)
            .eliminate(Cell::new(80), 9)
            .explain("XY: r1c4=7 => r9c9<>9");
        step.highlights.push(Highlight {
            role: Role::Pincer,
            candidates: vec![Candidate::new(Cell::new(0), 1)],
        });
        step = step.house(House::row(0)).house(House::boxed(8));
        let mut e = Encoder::new(STEP);
        e.step(&step, 9);
        let mut d = Decoder::new(&e.0[1..]);
        assert_eq!(d.step("t", 9).unwrap(), step);
        // a house index out of range is an error, not a panic
        let at = e.0.len() - 4 - step.explanation.len() - 1;
        e.0[at] = 27;
        let err = Decoder::new(&e.0[1..]).step("t", 9).unwrap_err();
        assert_eq!(err, FrameError::House(27));
    }

    #[test]
    fn a_step_of_a_larger_board_survives_the_round_trip_and_is_bounded_by_its_size() {
        let last = Cell::at(15, 15);
        let mut step = Step::new("t", 4.2)
            .place(Cell::at(0, 12), 16)
            .eliminate(last, 13)
            .house(House::boxed(15))
            .explain("r16c16<>13");
        step.highlights.push(Highlight {
            role: Role::Pattern,
            candidates: vec![Candidate::new(Cell::at(9, 3), 10)],
        });
        let mut e = Encoder::new(STEP);
        e.step(&step, 16);
        assert_eq!(Decoder::new(&e.0[1..]).step("t", 16).unwrap(), step);
        // the same frame read as a 9x9 step names cells off that board
        assert!(matches!(
            Decoder::new(&e.0[1..]).step("t", 9),
            Err(FrameError::Candidate { .. })
        ));
        let mut bad = e.0.clone();
        bad[1 + 4 + 2 + 2] = 17; // the placement's digit, above 16
        assert_eq!(
            Decoder::new(&bad[1..]).step("t", 16).unwrap_err(),
            FrameError::Candidate {
                cell: 12,
                digit: 17
            }
        );
    }

    #[test]
    fn a_short_or_corrupt_frame_is_an_error() {
        let mut e = Encoder::new(STEP);
        e.step(&Step::new("t", 1.0).eliminate(Cell::new(2), 3), 9);
        for cut in 1..e.0.len() - 1 {
            assert!(
                Decoder::new(&e.0[1..cut]).step("t", 9).is_err(),
                "cut {cut}"
            );
        }
        let mut bad = e.0.clone();
        bad[1 + 4 + 2 + 2 + 2] = 0; // the elimination's digit
        assert_eq!(
            Decoder::new(&bad[1..]).step("t", 9).unwrap_err(),
            FrameError::Candidate { cell: 2, digit: 0 }
        );
    }

    #[test]
    fn frames_round_trip_and_a_huge_length_is_refused() {
        let mut buf = Vec::new();
        write_frame(&mut buf, b"abc").unwrap();
        let mut got = Vec::new();
        let mut r = &buf[..];
        assert!(read_frame(&mut r, &mut got).unwrap());
        assert_eq!(got, b"abc");
        assert!(!read_frame(&mut r, &mut got).unwrap());
        let huge = (MAX_FRAME as u32 + 1).to_le_bytes();
        assert!(read_frame(&mut &huge[..], &mut got).is_err());
    }

    #[test]
    fn a_bad_search_request_is_an_error_not_a_panic() {
        assert!(Request::read(b"").is_err());
        assert!(Request::read(b"X").is_err());
        assert!(Request::read(&[SEARCH, 0, 0, 1, 2]).is_err());
    }

    /// `payload` framed as it goes on the wire.
    fn framed(payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        write_frame(&mut out, payload).unwrap();
        out
    }

    /// Bytes written as hex pairs, spaces between groups ignored.
    fn hex(text: &str) -> Vec<u8> {
        let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        digits
            .chunks(2)
            .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
            .collect()
    }

    // Golden bytes: the exact frame of every kind. A change here is a wire change, which
    // needs a new `PROTOCOL_VERSION`.

    #[test]
    fn golden_hello() {
        assert_eq!(framed(&hello()), hex("05000000 48 01000000"));
        assert_eq!(check_hello(&hello()), Ok(()));
        assert_eq!(
            check_hello(&hex("48 02000000")),
            Err(HelloError::Version(2))
        );
        assert_eq!(check_hello(&hex("44")), Err(HelloError::NotHello));
    }

    #[test]
    fn golden_describe() {
        let d = Description {
            name: "p".into(),
            abi: 3,
            techniques: vec![Described {
                id: "t".into(),
                name: "T".into(),
                codes: vec!["c".into()],
                difficulty: 2.5,
                needs_uniqueness: true,
                sizes: 1 << 9,
                sized: true,
            }],
        };
        let bytes = framed(&describe(&d));
        assert_eq!(
            bytes,
            hex(
                "27000000 44 01000000 70 03000000 0100 01000000 74 01000000 54
                 0100 01000000 63 00002040 01 00020000 01"
            )
        );
        assert_eq!(Decoder::new(&bytes[5..]).description(), Ok(d));
    }

    #[test]
    fn golden_load_failed_and_failed() {
        assert_eq!(
            framed(&message(LOAD_FAILED, "no")),
            hex("07000000 45 02000000 6e6f")
        );
        assert_eq!(
            framed(&message(FAILED, "no")),
            hex("07000000 46 02000000 6e6f")
        );
    }

    #[test]
    fn golden_search() {
        let grid = Grid::from_values(&[0; 81]);
        let mut want = hex("f6000000 53 0200");
        want.extend([0u8; 81]);
        want.extend(hex("ff01").repeat(81));
        assert_eq!(framed(&search(2, &grid)), want);
        assert!(matches!(Request::read(&want[4..]), Ok(Request::Nine(2, _))));
    }

    #[test]
    fn golden_search_sized() {
        let mut board = LpBoard {
            n: 4,
            box_rows: 2,
            box_cols: 2,
            cells: 16,
            candidates: [0; 625],
            values: [0; 625],
        };
        board.values[0] = 4;
        for c in 1..16 {
            board.candidates[c] = 0b0111;
        }
        let mut want = hex("56000000 5a 0100 04 02 02 04");
        want.extend([0u8; 15]);
        want.extend(hex("00000000"));
        want.extend(hex("07000000").repeat(15));
        assert_eq!(framed(&search_sized(1, &board)), want);
        assert!(matches!(
            Request::read(&want[4..]),
            Ok(Request::Sized { index: 1, .. })
        ));
    }

    #[test]
    fn golden_step() {
        let mut s = Step::new("t", 2.5)
            .place(Cell::new(3), 7)
            .eliminate(Cell::new(80), 9)
            .house(House::row(1))
            .explain("x");
        s.highlights.push(Highlight {
            role: Role::Pincer,
            candidates: vec![Candidate::new(Cell::new(0), 1)],
        });
        let bytes = framed(&step(&s, 9));
        assert_eq!(
            bytes,
            hex("1f000000 54 00002040 0100 0300 07 0100 5000 09
                 0100 05 0100 0000 01 0100 01 01000000 78")
        );
        assert_eq!(Decoder::new(&bytes[5..]).step("t", 9), Ok(s));
    }

    #[test]
    fn golden_answers_and_done() {
        assert_eq!(framed(&[CONTINUE]), hex("01000000 43"));
        assert_eq!(framed(&[STOP]), hex("01000000 42"));
        assert_eq!(framed(&[DONE]), hex("01000000 4f"));
    }
}

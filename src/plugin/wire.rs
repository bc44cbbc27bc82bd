//! The plugin host's wire format: length-prefixed binary frames over the host's stdin and
//! stdout (`docs/plugins.md`, "Plugins in their own process").
//!
//! A frame is a little-endian `u32` length and that many bytes; the first byte is a tag. The
//! host opens with [`DESCRIBE`] (or [`LOAD_FAILED`]); then each search is one [`SEARCH`]
//! frame from lapiz, answered by [`STEP`] frames (each answered in turn by [`CONTINUE`] or
//! [`STOP`]) and one [`DONE`] or [`FAILED`] frame.

use std::io::{self, Read, Write};

use crate::model::cell::{Cell, House};
use crate::model::grid::Candidate;
use crate::step::{Highlight, Role, Step};

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

/// Reads a frame's payload; every read checks the length, so a short or corrupt frame is an
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
}

//! [`Alphabet`]: the symbols a puzzle is written in, and how explanations write digits in
//! them.
//!
//! A 16x16 puzzle written `1-9A-G` reads its digit 14 as `E`, so its steps say `Er4c2` and
//! `r4c2<>E`, not `14r4c2`; in `0-9A-F` the same digit 14 is `E` and 16 is `0`; in `A-P` it is
//! `N`. Cells stay `r12c16`.
//!
//! Explanations are words built inside each technique, far from the puzzle's text, so the
//! symbols are a setting of the thread that solves (or draws) the puzzle: [`with_symbols`]
//! sets them for the length of a call, and every digit written through [`Sym`] (the
//! candidates' `Display`, `digits_text`, the step texts) follows them. Outside such a call,
//! and for 9x9 in its standard alphabet, digits are their numbers. Data (RON traces, the
//! candidates' serialized form) always writes numbers.

use std::cell::Cell;
use std::fmt;
use std::str::FromStr;

use crate::model::ParseError;

/// The symbols a puzzle is written in. Output uses the input's alphabet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Alphabet {
    /// `1`-`9`, then `A`-`Z` for 10 up (16x16: `1-9A-G`, 25x25: `1-9A-P`); `.` or `0` empty.
    #[default]
    Standard,
    /// `0`-`9` then `A`-`Z`, `0` standing for the size (16x16: `0-9A-F`, 0 is 16); `.` empty.
    ZeroFirst,
    /// `A` for 1, `B` for 2 … (16x16: `A-P`); `.` or `0` empty.
    Letters,
    /// Numbers separated by whitespace (`1` .. `16`); `.` or `0` empty.
    Numbers,
}

impl Alphabet {
    /// The value (1..=n) of symbol `c` for size `n`, 0 for an empty cell, `None` when `c`
    /// is neither. In `0-9A` the size's value is written `0` only: the symbol after the one
    /// for `n - 1` (`G` on 16x16) is not one.
    ///
    /// ```
    /// use lapiz::model::Alphabet;
    /// assert_eq!(Alphabet::ZeroFirst.value('0', 16), Some(16));
    /// assert_eq!(Alphabet::ZeroFirst.value('g', 16), None);
    /// assert_eq!(Alphabet::Standard.value('g', 16), Some(16));
    /// ```
    pub fn value(self, c: char, n: u8) -> Option<u8> {
        let c = c.to_ascii_uppercase();
        let v = match (self, c) {
            (_, '.' | '*' | '_') => return Some(0),
            (Alphabet::ZeroFirst, '0') => return Some(n),
            (_, '0') => return Some(0),
            (Alphabet::Letters, 'A'..='Z') => c as u8 - b'A' + 1,
            (Alphabet::Letters, _) => return None,
            (_, '1'..='9') => c as u8 - b'0',
            (Alphabet::Standard | Alphabet::ZeroFirst, 'A'..='Z') => c as u8 - b'A' + 10,
            _ => return None,
        };
        let top = match self {
            Alphabet::ZeroFirst => n.saturating_sub(1),
            _ => n,
        };
        (v <= top).then_some(v)
    }

    /// The symbol of value `v` (0: `.`) for size `n`.
    pub fn symbol(self, v: u8, n: usize) -> String {
        let letter = |k: u8| char::from(b'A' + k).to_string();
        match (self, v) {
            (_, 0) => ".".to_string(),
            (Alphabet::Numbers, v) => v.to_string(),
            (Alphabet::Letters, v) => letter(v - 1),
            (Alphabet::ZeroFirst, v) if usize::from(v) == n => "0".to_string(),
            (_, 1..=9) => char::from(b'0' + v).to_string(),
            (_, v) => letter(v - 10),
        }
    }

    /// The symbols of size `n` in words, for messages: `1-9, A-G`.
    pub fn describe(self, n: u8) -> String {
        let last = |v: u8| self.symbol(v, n.into());
        match self {
            Alphabet::Numbers => format!("numbers 1-{n}"),
            Alphabet::Letters => format!("letters A-{}", last(n)),
            Alphabet::Standard if n <= 9 => format!("digits 1-{n}, `.` or `0` empty"),
            Alphabet::Standard => format!("1-9, A-{}, `.` or `0` empty", last(n)),
            Alphabet::ZeroFirst => format!("0-9, A-{}, 0 for {n}, `.` empty", last(n - 1)),
        }
    }

    /// The name `--symbols` takes: `1-9A`, `0-9A`, `A-Z`, `numbers`.
    pub fn name(self) -> &'static str {
        match self {
            Alphabet::Standard => "1-9A",
            Alphabet::ZeroFirst => "0-9A",
            Alphabet::Letters => "A-Z",
            Alphabet::Numbers => "numbers",
        }
    }
}

impl FromStr for Alphabet {
    type Err = ParseError;
    /// Reads `1-9A` (also `1-9A-G`, `1-9A-P`, `standard`), `0-9A` (`0-9A-F`), `A-Z` (`A-P`,
    /// `letters`) or `numbers` (`1-16`).
    fn from_str(s: &str) -> Result<Alphabet, ParseError> {
        let l = s.trim().to_ascii_lowercase();
        Ok(match l.as_str() {
            "standard" => Alphabet::Standard,
            "letters" => Alphabet::Letters,
            "numbers" => Alphabet::Numbers,
            _ if l.starts_with("1-9a") => Alphabet::Standard,
            _ if l.starts_with("0-9a") => Alphabet::ZeroFirst,
            _ if l.starts_with("a-") && l.len() == 3 => Alphabet::Letters,
            _ if l.starts_with("1-") && l[2..].parse::<u8>().is_ok() => Alphabet::Numbers,
            _ => {
                return Err(ParseError::BadSize {
                    what: format!(
                        "`{s}` is not an alphabet (1-9A for 1-9 then A-Z, 0-9A-F where 0 is 16, \
                         A-P, or numbers)"
                    ),
                });
            }
        })
    }
}

impl fmt::Display for Alphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

thread_local! {
    /// The symbols of the puzzle this thread is working on: its alphabet and size. `None`:
    /// digits are their numbers.
    static SYMBOLS: Cell<Option<(Alphabet, u8)>> = const { Cell::new(None) };
}

/// Runs `f` with digits written in `alphabet` for a board of size `n` (see the module's
/// doc), then restores the previous setting, also when `f` panics.
///
/// ```
/// use lapiz::model::{Alphabet, Sym, with_symbols};
/// assert_eq!(Sym(14).to_string(), "14");
/// assert_eq!(with_symbols(Alphabet::Standard, 16, || Sym(14).to_string()), "E");
/// assert_eq!(with_symbols(Alphabet::Letters, 16, || Sym(14).to_string()), "N");
/// assert_eq!(with_symbols(Alphabet::ZeroFirst, 16, || Sym(16).to_string()), "0");
/// ```
#[doc(hidden)]
pub fn with_symbols<R>(alphabet: Alphabet, n: usize, f: impl FnOnce() -> R) -> R {
    /// Puts the previous setting back when dropped.
    struct Restore(Option<(Alphabet, u8)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SYMBOLS.with(|s| s.set(self.0));
        }
    }
    let plain = alphabet == Alphabet::Numbers || (alphabet == Alphabet::Standard && n <= 9);
    let setting = (!plain).then_some((alphabet, n as u8));
    let _restore = Restore(SYMBOLS.with(|s| s.replace(setting)));
    f()
}

/// A digit (1..=25) written in the symbols of the puzzle being worked on: `E` for 14 on a
/// 16x16 puzzle in `1-9A-G`, its number otherwise (see
/// [`Puzzle::in_its_symbols`](crate::Puzzle::in_its_symbols)).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sym(pub u8);

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match SYMBOLS.with(Cell::get) {
            Some((alphabet, n)) if (1..=n).contains(&self.0) => {
                f.write_str(&alphabet.symbol(self.0, n.into()))
            }
            _ => write!(f, "{}", self.0),
        }
    }
}

/// Whether every digit is written as one character here: true outside [`with_symbols`] only
/// for digits up to 9, inside it for every alphabet of one character a symbol.
pub(crate) fn one_char_each(max_digit: u8) -> bool {
    match SYMBOLS.with(Cell::get) {
        Some((Alphabet::Numbers, _)) => max_digit <= 9,
        Some(_) => true,
        None => max_digit <= 9,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_numbers_outside_and_symbols_inside() {
        assert_eq!(Sym(9).to_string(), "9");
        assert_eq!(Sym(25).to_string(), "25");
        with_symbols(Alphabet::Standard, 25, || {
            assert_eq!(Sym(9).to_string(), "9");
            assert_eq!(Sym(10).to_string(), "A");
            assert_eq!(Sym(25).to_string(), "P");
            assert!(one_char_each(25));
        });
        assert_eq!(Sym(25).to_string(), "25");
        assert!(!one_char_each(25));
        with_symbols(Alphabet::Numbers, 16, || {
            assert_eq!(Sym(16).to_string(), "16")
        });
        with_symbols(Alphabet::Standard, 9, || {
            assert_eq!(Sym(9).to_string(), "9")
        });
        with_symbols(Alphabet::Letters, 9, || assert_eq!(Sym(1).to_string(), "A"));
    }

    #[test]
    fn the_setting_nests_and_is_restored_after_a_panic() {
        with_symbols(Alphabet::Letters, 16, || {
            with_symbols(Alphabet::Standard, 16, || {
                assert_eq!(Sym(12).to_string(), "C")
            });
            assert_eq!(Sym(12).to_string(), "L");
            let caught = std::panic::catch_unwind(|| {
                with_symbols(Alphabet::Standard, 16, || panic!("inside"));
            });
            assert!(caught.is_err());
            assert_eq!(Sym(12).to_string(), "L");
        });
        assert_eq!(Sym(12).to_string(), "12");
    }
}

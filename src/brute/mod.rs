//! The brute force, above the text layer: 9x9's tuned solver ([`nine`]) and the one every size
//! shares ([`sized`], on the [`board`]), with what they answer of a puzzle.

pub mod board;
pub mod nine;
pub mod puzzle;
pub mod sized;

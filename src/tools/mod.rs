//! Tools over the whole engine: HoDoKu's regression library ([`reglib`]) and the harness that
//! checks a technique over positions ([`check`]).

pub mod check;
pub mod reglib;

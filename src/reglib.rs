//! Runs HoDoKu regression-library cases against lapiz's finders.

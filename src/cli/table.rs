//! The rating table of `rate` and `generate --rate`: its format option; the header and rows
//! are the library's ([`lapiz::tools::table`]), which Python's `Rating.row` writes too.

use clap::{Args, ValueEnum};

use lapiz::engine::Rating;
use lapiz::tools::table as lib;

/// Table format of `rate` and `generate --rate`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum TableFormat {
    /// Tab-separated values.
    Tsv,
    /// Comma-separated values (fields quoted when needed).
    Csv,
}

impl From<TableFormat> for lib::TableFormat {
    fn from(f: TableFormat) -> lib::TableFormat {
        match f {
            TableFormat::Tsv => lib::TableFormat::Tsv,
            TableFormat::Csv => lib::TableFormat::Csv,
        }
    }
}

/// The table format option of `rate` and `generate --rate`.
#[derive(Args)]
pub struct TableArgs {
    /// Output format of the rating table.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: TableFormat,
}

/// One row of `fields` ([`lib::row`]).
pub fn row(format: TableFormat, fields: &[&str]) -> String {
    lib::row(format.into(), fields)
}

/// One output row ([`lib::rating_row`]).
pub fn rating_row(
    format: TableFormat,
    puzzle: &str,
    r: &Result<Rating, String>,
    se_all: bool,
) -> String {
    lib::rating_row(format.into(), puzzle, r, se_all)
}

pub use lib::header;

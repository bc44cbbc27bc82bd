//! `lapiz techniques`: the pipeline's techniques in order, with scripts and plugins where
//! `solve` puts them.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use lapiz::text::printable;

use crate::cli::args::PipelineArgs;

/// Arguments of `lapiz techniques`.
#[derive(Args)]
pub struct TechniquesArgs {
    /// The pipeline to list, with the scripts and plugins `solve` would add.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
    /// List the pipeline as it runs on N x N boards (4, 6, 8, 9, 12, 16 or 25): the techniques
    /// that run there, then those left out of that size and why. Without it, every technique of
    /// the pipeline is listed, whichever sizes it runs on.
    #[arg(long, value_name = "N", value_parser = parse_size)]
    pub size: Option<u8>,
}

/// Reads `--size`: one of the sizes lapiz reads.
fn parse_size(text: &str) -> Result<u8, String> {
    let n: u8 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a size (4, 6, 8, 9, 12, 16 or 25)"))?;
    lapiz::model::Layout::new(n).map_err(|e| e.to_string())?;
    Ok(n)
}

/// One technique's row: id, name, difficulty, source (escaped).
type Row = (String, String, f32, String);

/// The ids of a group of techniques, escaped.
fn ids_of<T: std::ops::Deref<Target = dyn lapiz::Technique>>(group: &[&T]) -> Vec<String> {
    group
        .iter()
        .map(|t| printable(t.id()).into_owned())
        .collect()
}

/// Runs `lapiz techniques`.
pub fn run(args: TechniquesArgs, out: &mut impl Write) -> Result<ExitCode> {
    let p = args.pipeline.load("default")?;
    let n = args.size.map(usize::from);
    let (runs, left_out): (Vec<_>, Vec<_>) = p
        .techniques()
        .iter()
        .partition(|t| n.is_none_or(|n| t.runs_on(n)));
    let rows: Vec<Row> = runs
        .iter()
        .map(|t| {
            (
                printable(t.id()).into_owned(),
                printable(t.name()).into_owned(),
                t.difficulty(),
                printable(&t.origin().to_string()).into_owned(),
            )
        })
        .collect();
    // the columns widen for a long id or name (a script's, a plugin's), so they stay aligned
    let width =
        |min: usize, f: &dyn Fn(&Row) -> usize| rows.iter().map(f).max().unwrap_or(0).max(min);
    let id_w = width(16, &|r| r.0.chars().count());
    let name_w = width(40, &|r| r.1.chars().count());
    writeln!(
        out,
        "{:<3} {:<id_w$} {:<name_w$} {:>10}  source",
        "#", "id", "name", "difficulty"
    )?;
    for (i, (id, name, difficulty, origin)) in rows.iter().enumerate() {
        writeln!(
            out,
            "{:<3} {id:<id_w$} {name:<name_w$} {difficulty:>10.1}  {origin}",
            i + 1,
        )?;
    }
    if let Some(n) = n {
        // plugin techniques left out, by plugin and reason: built for an ABI version before
        // the board's size (9x9 only), or not declaring this size
        let plugins = lapiz::plugin::skipped_on(p.techniques(), n);
        for s in &plugins {
            let ids: Vec<_> = s
                .techniques
                .iter()
                .map(|id| printable(id).into_owned())
                .collect();
            writeln!(
                out,
                "Left out on {n}x{n} boards (plugin `{}`, ABI v{}: {}): {}",
                printable(&s.plugin),
                s.abi_version,
                s.why,
                ids.join(", ")
            )?;
        }
        let left_out: Vec<_> = left_out
            .into_iter()
            .filter(|t| {
                !plugins
                    .iter()
                    .any(|s| s.techniques.iter().any(|id| id == t.id()))
            })
            .collect();
        // a technique left out of a size is one that runs on 9x9 alone (SE's own, a built-in
        // not generic yet, a script declaring `SIZES = [9]`), one whose pattern needs larger
        // houses (it runs on 25x25), or one that names other sizes (a script's `SIZES`)
        let others = |t: &dyn lapiz::Technique| -> Vec<usize> {
            lapiz::model::Layout::SIZES
                .iter()
                .map(|&s| usize::from(s))
                .filter(|&s| t.runs_on(s))
                .collect()
        };
        let (larger, rest): (Vec<&Box<dyn lapiz::Technique>>, Vec<_>) =
            left_out.into_iter().partition(|t| t.runs_on(25));
        let (nine_only, declared): (Vec<_>, Vec<_>) =
            rest.into_iter().partition(|t| others(t.as_ref()) == [9]);
        for (group, why) in [
            (ids_of(&nine_only), "they run on 9x9 only"),
            (ids_of(&larger), "their pattern needs larger houses"),
        ] {
            if !group.is_empty() {
                writeln!(
                    out,
                    "Left out on {n}x{n} boards ({why}): {}",
                    group.join(", ")
                )?;
            }
        }
        if !declared.is_empty() {
            let each: Vec<String> = declared
                .iter()
                .map(|t| {
                    let sizes = others(t.as_ref());
                    let sizes = if sizes.is_empty() {
                        "no size".to_string()
                    } else {
                        lapiz::script::sizes_text(&sizes)
                    };
                    format!("{} ({sizes})", printable(t.id()))
                })
                .collect();
            writeln!(
                out,
                "Left out on {n}x{n} boards (they run on other sizes only): {}",
                each.join(", ")
            )?;
        }
    }
    for way in lapiz::plugin::Way::loaded() {
        writeln!(out, "plugin sandbox: {}", way.sandbox_words())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

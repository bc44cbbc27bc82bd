//! Short descriptions of the built-in techniques for the page, read from `docs/techniques.md`
//! (compiled in, so the page needs nothing else and works offline): a technique's description
//! is the first paragraph of its `###` section, else of the `##` section it is in. The docs
//! stay the one place where a technique is described.

use std::fmt::Write as _;

use super::escape;
use crate::engine::trace::Trace;
use crate::technique::TechniqueInfo;

/// The techniques page, compiled in.
const TECHNIQUES_MD: &str = include_str!("../../docs/techniques.md");

/// One `###` section: its heading, its first paragraph, and the first paragraph of the `##`
/// section it is in.
struct Section<'a> {
    heading: &'a str,
    body: Vec<&'a str>,
    family: &'a str,
}

/// The `###` sections of the techniques page, each with the intro of its `##` section.
fn sections() -> Vec<Section<'static>> {
    let mut out = Vec::new();
    for family in TECHNIQUES_MD.split("\n## ").skip(1) {
        let rest = family.split_once('\n').map_or("", |(_, r)| r);
        let mut parts = rest.split("\n### ");
        let intro = parts.next().unwrap_or("").trim_start();
        let intro = &intro[..intro.find("\n\n").unwrap_or(intro.len())];
        for section in parts {
            let (heading, body) = section.split_once('\n').unwrap_or((section, ""));
            out.push(Section {
                heading: heading.trim(),
                body: body.lines().collect(),
                family: intro,
            });
        }
    }
    out
}

/// The names a heading stands for: `Naked Pair, Triple, Quadruple` is Naked Pair, Naked Triple
/// and Naked Quadruple; `Locked Pair, Locked Triple` is both.
fn heading_names(heading: &str) -> Vec<String> {
    let mut parts = heading.split(", ");
    let Some(first) = parts.next() else {
        return Vec::new();
    };
    let stem = first.rsplit_once(' ').map_or("", |(s, _)| s);
    let mut names = vec![first.to_string()];
    for p in parts {
        if p.contains(' ') || stem.is_empty() {
            names.push(p.to_string());
        } else {
            names.push(format!("{stem} {p}"));
        }
    }
    names
}

/// Markdown's marks taken out of a paragraph, its lines joined.
fn plain(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    joined.replace(['`', '*'], "")
}

/// The short description of the built-in technique `id` (named `name`), or `None` for one
/// the techniques page does not describe (a script's, a plugin's).
pub(crate) fn description(id: &str, name: &str) -> Option<String> {
    let sections = sections();
    let id_mark = format!("`{id}`");
    let section = sections
        .iter()
        .find(|s| heading_names(s.heading).iter().any(|n| n == name))
        .or_else(|| {
            sections.iter().find(|s| {
                s.body
                    .iter()
                    .any(|l| l.starts_with("- id") && l.contains(&id_mark))
            })
        })
        .or_else(|| {
            // a section on a group (`…: Squirmbag, Whale, Leviathan`), by the name's last word
            let bare = name.split(" (").next().unwrap_or(name);
            let last = bare.rsplit(' ').next()?.to_lowercase();
            sections
                .iter()
                .find(|s| s.heading.to_lowercase().contains(&last))
        })?;
    // the prose before the section's list and examples, else the family's intro
    let prose: Vec<&str> = section
        .body
        .iter()
        .copied()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty() && !l.starts_with("- ") && !l.starts_with('`'))
        .collect();
    let text = if prose.is_empty() {
        plain(section.family)
    } else {
        plain(&prose.join(" "))
    };
    (!text.is_empty()).then_some(text)
}

/// The anchor of a technique's entry in the page's glossary.
pub(crate) fn anchor(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("t-{safe}")
}

/// The built-in techniques of the trace's steps, in the order they first appear, with their
/// descriptions.
pub(crate) fn used(trace: &Trace) -> Vec<(&'static TechniqueInfo, String)> {
    let mut out: Vec<(&'static TechniqueInfo, String)> = Vec::new();
    for step in trace.steps() {
        if out.iter().any(|(i, _)| i.id == step.technique) {
            continue;
        }
        if let Some(info) = TechniqueInfo::lookup(&step.technique)
            && let Some(d) = description(info.id, info.name)
        {
            out.push((info, d));
        }
    }
    out
}

/// A step's explanation as HTML, its technique's name a link to the glossary entry (with the
/// description as its tooltip): the name the explanation starts with, else an `(about …)` link
/// after it. Escaped as it is for a technique the glossary lacks.
pub(crate) fn linked(
    technique: &str,
    explanation: &str,
    used: &[(&'static TechniqueInfo, String)],
) -> String {
    let Some((info, d)) = used.iter().find(|(i, _)| i.id == technique) else {
        return escape(explanation);
    };
    let link = |text: &str| {
        format!(
            "<a class=\"tech\" href=\"#{}\" title=\"{}\">{}</a>",
            anchor(info.id),
            escape(d),
            escape(text)
        )
    };
    match explanation.strip_prefix(info.name) {
        Some(rest) => format!("{}{}", link(info.name), escape(rest)),
        None => format!(
            "{} {}",
            escape(explanation),
            link(&format!("(about {})", info.name))
        ),
    }
}

/// The glossary under the page: each technique of the solve, its name (the target of the links
/// on the page), id and difficulty, and its description.
pub(crate) fn write_glossary(out: &mut String, used: &[(&'static TechniqueInfo, String)]) {
    if used.is_empty() {
        return;
    }
    out.push_str(
        "<section id=\"glossary\"><h2>The techniques of this solve</h2>\
         <p><small>From lapiz's docs/techniques.md.</small></p><dl>\n",
    );
    for (info, d) in used {
        let _ = writeln!(
            out,
            "<dt id=\"{}\">{} <small>({}, {:.1})</small></dt><dd>{}</dd>",
            anchor(info.id),
            escape(info.name),
            escape(info.id),
            info.difficulty,
            escape(d)
        );
    }
    out.push_str("</dl></section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::technique::builtins;

    #[test]
    fn every_built_in_of_the_default_pipeline_has_a_description() {
        let pipeline = crate::engine::pipeline::Pipeline::default_pipeline();
        for t in pipeline.techniques() {
            let d = description(t.id(), t.name());
            assert!(
                d.as_ref().is_some_and(|d| d.len() > 20),
                "{}: {d:?}",
                t.id()
            );
        }
        // the built-ins outside it too, where the page describes them
        let described = builtins()
            .iter()
            .filter(|t| description(t.id(), t.name()).is_some())
            .count();
        assert_eq!(described, builtins().len());
    }

    #[test]
    fn a_description_is_its_sections_first_paragraph_in_plain_words() {
        assert_eq!(
            description("naked-single", "Naked Single").as_deref(),
            Some("A cell with one candidate left takes it (2.3).")
        );
        let triple = description("naked-triple", "Naked Triple").unwrap();
        assert!(
            triple.starts_with("N cells of a house whose candidates"),
            "{triple}"
        );
        // a forcing technique's section is only a list: its family's intro
        let forcing = description("dynamic-forcing-chain", "Dynamic Forcing Chain").unwrap();
        assert!(forcing.contains("assumption"), "{forcing}");
        assert!(
            !forcing.contains('`') && !forcing.contains("**"),
            "{forcing}"
        );
        assert_eq!(description("my-script", "My Script"), None);
    }
}

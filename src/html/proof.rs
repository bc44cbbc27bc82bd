//! A forcing net's proof under the grid, walkable: one line per implication, numbered as in
//! the text trace, each tied to the arrows it stands for, with the buttons and keys that step
//! through it.

use std::fmt::Write as _;

use super::escape;
use super::position::Measures;
use crate::step::net::ForcingNet;

/// The walk's buttons and the proof's lines. Each line is a `<p class="pl">` with its branch
/// (`data-branch`, from 1), the implications whose arrows light up with it (`data-imps`: the
/// arrows' `data-to`) and where its candidate is drawn (`data-at`, for the focus ring, in the
/// grid's measures `m`).
pub(super) fn write_proof(out: &mut String, m: &Measures, net: &ForcingNet) {
    out.push_str(
        "<div class=\"walk\"><button type=\"button\" class=\"w-prev\" aria-label=\"previous implication\">&#9664; implication</button>\
         <button type=\"button\" class=\"w-next\" aria-label=\"next implication\">implication &#9654;</button>\
         <button type=\"button\" class=\"w-branch\">one branch</button>\
         <button type=\"button\" class=\"w-all\">whole net</button>\
         <small>keys: N next, P previous, B next branch, A whole net; or click a line</small></div>\n",
    );
    out.push_str("<div class=\"proof\">\n");
    for (b, branch) in net.branches.iter().enumerate() {
        for line in branch.proof_lines() {
            let imps: Vec<String> = line.imps.iter().map(u16::to_string).collect();
            let at = line
                .at
                .map(|c| {
                    let (x, y) = m.candidate_centre(c);
                    format!(" data-at=\"{x:.1},{y:.1}\"")
                })
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "<p class=\"pl d{}\" data-branch=\"{}\" data-imps=\"{}\"{at}>{}</p>",
                line.depth.min(3),
                b + 1,
                imps.join(" "),
                escape(&line.text)
            );
        }
    }
    out.push_str("</div>\n");
}

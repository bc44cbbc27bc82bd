//! The catalogue of built-in techniques: one [`TechniqueInfo`] per built-in — id, name,
//! difficulty, HoDoKu library codes, whether it needs a unique solution, and why it is off in
//! the default pipeline when it is — in one table, [`CATALOGUE`].
//!
//! A built-in technique does not write its metadata itself: it holds (or names) its entry,
//! looked up by id at compile time with `entry`, and answers [`Technique::info`]; the
//! trait's `id`, `name`, `difficulty`, `library_codes` and `needs_uniqueness` read from it.
//! Scripts and plugins have no entry and answer those themselves. The table lists the
//! built-ins in [`builtins`](super::builtins) order, and `tests/catalogue.rs` checks it against
//! `builtins()`, the default pipeline and `docs/techniques.md`.
//!
//! [`Technique::info`]: super::Technique::info

/// What lapiz knows about a built-in technique without running it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TechniqueInfo {
    /// Stable id, e.g. `naked-pair` (what pipelines and traces name it by).
    pub id: &'static str,
    /// Display name, e.g. `Naked Pair`.
    pub name: &'static str,
    /// Difficulty on Sudoku Explainer's scale (the lowest its steps get).
    pub difficulty: f32,
    /// The HoDoKu library codes it answers, e.g. `["0311", "03111"]` (siamese fish have their
    /// own code); empty when the library has none for it.
    pub codes: &'static [&'static str],
    /// Whether it is only sound on puzzles with a unique solution.
    pub needs_uniqueness: bool,
    /// Why the default pipeline leaves it out, or `None` when the default pipeline has it.
    pub off_by_default: Option<&'static str>,
}

impl TechniqueInfo {
    /// The catalogue entry of the built-in `id`, if there is one. Usable in constants.
    pub const fn lookup(id: &str) -> Option<&'static TechniqueInfo> {
        let mut i = 0;
        while i < CATALOGUE.len() {
            if same(CATALOGUE[i].id, id) {
                return Some(&CATALOGUE[i]);
            }
            i += 1;
        }
        None
    }

    /// An entry in the default pipeline that does not need uniqueness.
    const fn new(
        id: &'static str,
        name: &'static str,
        difficulty: f32,
        codes: &'static [&'static str],
    ) -> TechniqueInfo {
        TechniqueInfo {
            id,
            name,
            difficulty,
            codes,
            needs_uniqueness: false,
            off_by_default: None,
        }
    }

    /// The same entry, only sound with a unique solution.
    const fn uniqueness(self) -> TechniqueInfo {
        TechniqueInfo {
            needs_uniqueness: true,
            ..self
        }
    }

    /// The same entry, left out of the default pipeline for `reason`.
    const fn off(self, reason: &'static str) -> TechniqueInfo {
        TechniqueInfo {
            off_by_default: Some(reason),
            ..self
        }
    }

    /// The library codes as owned strings (what [`Technique::library_codes`] returns).
    ///
    /// [`Technique::library_codes`]: super::Technique::library_codes
    pub fn library_codes(&self) -> Vec<String> {
        self.codes.iter().map(|c| c.to_string()).collect()
    }
}

/// Why Franken and mutant fish are off.
const WIDE_FISH: &str = "a wider search (every mix of houses): a few milliseconds (Franken) to \
                         a few tenths of a second (finned mutant) per search on a hard grid";
/// Why the basic, finned and sashimi fish of five to seven houses are off.
const BIG_FISH: &str = "five to seven houses, off in HoDoKu too: without fins each is the \
                        complement of a fish of four houses or fewer in the other lines";
/// Why the templates are off.
const TEMPLATES: &str = "an exhaustive search over every placement of a digit, not a pattern \
                         a person spots";
/// Why Sudoku Explainer's own techniques are off (they are in the `se` pipeline).
const SE_ONLY: &str = "Sudoku Explainer's own technique, for the se pipeline; the default \
                       pipeline's techniques cover the same ground";
/// Why the Kraken fish are off.
const KRAKEN: &str = "a forcing net anchored on a fish: the forcing chains at the same \
                      difficulty (8.0) find what it finds, and more, in the same search";
/// Why the guess is off.
const GUESS: &str = "not a deduction: a trial placement from the brute-force solution, rated \
                     above every logical technique";

/// Every built-in technique, in [`builtins`](super::builtins) order: the basic ones (singles,
/// intersections, subsets) in the default pipeline's order, then each family's, easiest first,
/// and the guess last.
///
/// Difficulties are Sudoku Explainer's where it has the technique and a consistent extension of
/// its scale where it has not (docs/techniques.md says which and why). A technique that rates
/// its steps by where, how big or how long (hidden singles in a line, remote pairs, unique
/// rectangle type 3, chains, forcing, Death Blossom) has its lowest rating here.
#[rustfmt::skip]
pub const CATALOGUE: &[TechniqueInfo] = &[
    // singles, intersections, subsets
    TechniqueInfo::new("full-house", "Full House", 1.0, &["0000"]),
    TechniqueInfo::new("hidden-single", "Hidden Single", 1.2, &["0002"]),
    TechniqueInfo::new("naked-single", "Naked Single", 2.3, &["0003"]),
    TechniqueInfo::new("pointing", "Locked Candidates Type 1 (Pointing)", 2.6, &["0100"]),
    TechniqueInfo::new("claiming", "Locked Candidates Type 2 (Claiming)", 2.8, &["0101"]),
    TechniqueInfo::new("locked-pair", "Locked Pair", 3.0, &["0110"]),
    TechniqueInfo::new("naked-pair", "Naked Pair", 3.0, &["0200"]),
    TechniqueInfo::new("locked-triple", "Locked Triple", 3.6, &["0111"]),
    TechniqueInfo::new("hidden-pair", "Hidden Pair", 3.4, &["0210"]),
    TechniqueInfo::new("naked-triple", "Naked Triple", 3.6, &["0201"]),
    TechniqueInfo::new("hidden-triple", "Hidden Triple", 4.0, &["0211"]),
    TechniqueInfo::new("naked-quad", "Naked Quadruple", 5.0, &["0202"]),
    TechniqueInfo::new("hidden-quad", "Hidden Quadruple", 5.4, &["0212"]),
    // subsets beyond quadruples: boards of 10x10 and up (lapiz's own ratings)
    TechniqueInfo::new("naked-quintuple", "Naked Quintuple", 5.2, &[]),
    TechniqueInfo::new("hidden-quintuple", "Hidden Quintuple", 5.6, &[]),
    TechniqueInfo::new("naked-sextuple", "Naked Sextuple", 5.4, &[]),
    TechniqueInfo::new("hidden-sextuple", "Hidden Sextuple", 5.8, &[]),
    TechniqueInfo::new("naked-septuple", "Naked Septuple", 5.6, &[]),
    TechniqueInfo::new("hidden-septuple", "Hidden Septuple", 6.0, &[]),
    TechniqueInfo::new("naked-octuple", "Naked Octuple", 5.8, &[]),
    TechniqueInfo::new("hidden-octuple", "Hidden Octuple", 6.2, &[]),
    TechniqueInfo::new("naked-nonuple", "Naked Nonuple", 6.0, &[]),
    TechniqueInfo::new("hidden-nonuple", "Hidden Nonuple", 6.4, &[]),
    TechniqueInfo::new("naked-decuple", "Naked Decuple", 6.2, &[]),
    TechniqueInfo::new("hidden-decuple", "Hidden Decuple", 6.6, &[]),
    TechniqueInfo::new("naked-undecuple", "Naked Undecuple", 6.4, &[]),
    TechniqueInfo::new("hidden-undecuple", "Hidden Undecuple", 6.8, &[]),
    TechniqueInfo::new("naked-duodecuple", "Naked Duodecuple", 6.6, &[]),
    TechniqueInfo::new("hidden-duodecuple", "Hidden Duodecuple", 7.0, &[]),
    // direct.rs
    TechniqueInfo::new("direct-pointing", "Direct Pointing", 1.7, &[]).off(SE_ONLY),
    TechniqueInfo::new("direct-claiming", "Direct Claiming", 1.9, &[]).off(SE_ONLY),
    TechniqueInfo::new("direct-hidden-pair", "Direct Hidden Pair", 2.0, &[]).off(SE_ONLY),
    TechniqueInfo::new("direct-hidden-triple", "Direct Hidden Triple", 2.5, &[]).off(SE_ONLY),
    // fish.rs
    TechniqueInfo::new("x-wing", "X-Wing", 3.2, &["0300"]),
    TechniqueInfo::new("swordfish", "Swordfish", 3.8, &["0301"]),
    TechniqueInfo::new("jellyfish", "Jellyfish", 5.2, &["0302"]),
    TechniqueInfo::new("finned-x-wing", "Finned X-Wing", 3.4, &["0310"]),
    TechniqueInfo::new("finned-swordfish", "Finned Swordfish", 4.0, &["0311", "03111"]),
    TechniqueInfo::new("finned-jellyfish", "Finned Jellyfish", 5.4, &["0312", "03121"]),
    TechniqueInfo::new("sashimi-x-wing", "Sashimi X-Wing", 3.5, &["0320"]),
    TechniqueInfo::new("sashimi-swordfish", "Sashimi Swordfish", 4.1, &["0321", "03211"]),
    TechniqueInfo::new("sashimi-jellyfish", "Sashimi Jellyfish", 5.5, &["0322", "03221"]),
    TechniqueInfo::new("franken-x-wing", "Franken X-Wing", 3.8, &["0330"]).off(WIDE_FISH),
    TechniqueInfo::new("franken-swordfish", "Franken Swordfish", 4.4, &["0331"]).off(WIDE_FISH),
    TechniqueInfo::new("franken-jellyfish", "Franken Jellyfish", 5.8, &["0332"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-franken-x-wing", "Finned Franken X-Wing", 4.0, &["0340"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-franken-swordfish", "Finned Franken Swordfish", 4.6, &["0341", "03411"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-franken-jellyfish", "Finned Franken Jellyfish", 6.0, &["0342", "03421"]).off(WIDE_FISH),
    TechniqueInfo::new("mutant-x-wing", "Mutant X-Wing", 4.2, &["0350"]).off(WIDE_FISH),
    TechniqueInfo::new("mutant-swordfish", "Mutant Swordfish", 4.8, &["0351"]).off(WIDE_FISH),
    TechniqueInfo::new("mutant-jellyfish", "Mutant Jellyfish", 6.2, &["0352"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-mutant-x-wing", "Finned Mutant X-Wing", 4.4, &["0360"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-mutant-swordfish", "Finned Mutant Swordfish", 5.0, &["0361", "03611"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-mutant-jellyfish", "Finned Mutant Jellyfish", 6.4, &["0362", "03621"]).off(WIDE_FISH),
    // fish.rs, five to seven houses
    TechniqueInfo::new("squirmbag", "Squirmbag", 5.4, &["0303"]).off(BIG_FISH),
    TechniqueInfo::new("whale", "Whale", 5.6, &["0304"]).off(BIG_FISH),
    TechniqueInfo::new("leviathan", "Leviathan", 5.8, &["0305"]).off(BIG_FISH),
    TechniqueInfo::new("finned-squirmbag", "Finned Squirmbag", 5.6, &["0313", "03131"]).off(BIG_FISH),
    TechniqueInfo::new("finned-whale", "Finned Whale", 5.8, &["0314", "03141"]).off(BIG_FISH),
    TechniqueInfo::new("finned-leviathan", "Finned Leviathan", 6.0, &["0315", "03151"]).off(BIG_FISH),
    TechniqueInfo::new("sashimi-squirmbag", "Sashimi Squirmbag", 5.7, &["0323", "03231"]).off(BIG_FISH),
    TechniqueInfo::new("sashimi-whale", "Sashimi Whale", 5.9, &["0324", "03241"]).off(BIG_FISH),
    TechniqueInfo::new("sashimi-leviathan", "Sashimi Leviathan", 6.1, &["0325", "03251"]).off(BIG_FISH),
    TechniqueInfo::new("franken-squirmbag", "Franken Squirmbag", 6.0, &["0333"]).off(WIDE_FISH),
    TechniqueInfo::new("franken-whale", "Franken Whale", 6.2, &["0334"]).off(WIDE_FISH),
    TechniqueInfo::new("franken-leviathan", "Franken Leviathan", 6.4, &["0335"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-franken-squirmbag", "Finned Franken Squirmbag", 6.2, &["0343", "03431"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-franken-whale", "Finned Franken Whale", 6.4, &["0344", "03441"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-franken-leviathan", "Finned Franken Leviathan", 6.6, &["0345", "03451"]).off(WIDE_FISH),
    TechniqueInfo::new("mutant-squirmbag", "Mutant Squirmbag", 6.4, &["0353"]).off(WIDE_FISH),
    TechniqueInfo::new("mutant-whale", "Mutant Whale", 6.6, &["0354"]).off(WIDE_FISH),
    TechniqueInfo::new("mutant-leviathan", "Mutant Leviathan", 6.8, &["0355"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-mutant-squirmbag", "Finned Mutant Squirmbag", 6.6, &["0363", "03631"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-mutant-whale", "Finned Mutant Whale", 6.8, &["0364", "03641"]).off(WIDE_FISH),
    TechniqueInfo::new("finned-mutant-leviathan", "Finned Mutant Leviathan", 7.0, &["0365", "03651"]).off(WIDE_FISH),
    // single_digit.rs
    TechniqueInfo::new("skyscraper", "Skyscraper", 4.0, &["0400"]),
    TechniqueInfo::new("2-string-kite", "2-String Kite", 4.1, &["0401"]),
    TechniqueInfo::new("dual-2-string-kite", "Dual 2-String Kite", 4.1, &["0404"]),
    TechniqueInfo::new("turbot-fish", "Turbot Fish", 4.2, &["0403"]),
    TechniqueInfo::new("empty-rectangle", "Empty Rectangle", 4.3, &["0402"]),
    TechniqueInfo::new("dual-empty-rectangle", "Dual Empty Rectangle", 4.3, &["0405"]),
    // coloring.rs, medusa.rs
    TechniqueInfo::new("simple-colors-trap", "Simple Colors Trap", 4.5, &["0500"]),
    TechniqueInfo::new("simple-colors-wrap", "Simple Colors Wrap", 4.5, &["0501"]),
    TechniqueInfo::new("multi-colors-1", "Multi-Colors 1", 4.7, &["0502"]),
    TechniqueInfo::new("multi-colors-2", "Multi-Colors 2", 4.7, &["0503"]),
    TechniqueInfo::new("3d-medusa", "3D Medusa", 6.8, &[]),
    // chains/
    TechniqueInfo::new("remote-pairs", "Remote Pair", 4.3, &["0703"]),
    TechniqueInfo::new("x-chain", "X-Chain", 6.6, &["0701"]),
    TechniqueInfo::new("xy-chain", "XY-Chain", 6.6, &["0702"]),
    TechniqueInfo::new("continuous-nice-loop", "Continuous Nice Loop", 7.0, &["0706"]),
    TechniqueInfo::new("discontinuous-nice-loop", "Discontinuous Nice Loop", 7.0, &["0707"]),
    TechniqueInfo::new("aic", "AIC", 7.0, &["0708"]),
    TechniqueInfo::new("grouped-continuous-nice-loop", "Grouped Continuous Nice Loop", 7.1, &["0709"]),
    TechniqueInfo::new("grouped-discontinuous-nice-loop", "Grouped Discontinuous Nice Loop", 7.1, &["0710"]),
    TechniqueInfo::new("grouped-aic", "Grouped AIC", 7.1, &["0711"]),
    TechniqueInfo::new("als-continuous-nice-loop", "Continuous Nice Loop with ALS", 7.3, &["0709"]),
    TechniqueInfo::new("als-discontinuous-nice-loop", "Discontinuous Nice Loop with ALS", 7.3, &["0710"]),
    TechniqueInfo::new("als-aic", "AIC with ALS", 7.3, &["0711"]),
    // se_chaining/
    TechniqueInfo::new("forcing-chains-and-cycles", "Forcing Chains & Cycles", 6.5, &[]).off(SE_ONLY),
    TechniqueInfo::new("nishio", "Nishio", 7.5, &[]).off(SE_ONLY),
    TechniqueInfo::new("se-multiple-forcing-chain", "Multiple Forcing Chains", 8.0, &[]).off(SE_ONLY),
    TechniqueInfo::new("se-dynamic-forcing-chain", "Dynamic Forcing Chains", 8.5, &[]).off(SE_ONLY),
    TechniqueInfo::new("se-dynamic-forcing-chain-plus", "Dynamic Forcing Chains (+)", 9.0, &[]).off(SE_ONLY),
    TechniqueInfo::new("se-nested-forcing-chain", "Nested Forcing Chains (+ Forcing Chains)", 9.5, &[]).off(SE_ONLY),
    TechniqueInfo::new("se-nested-multiple-forcing-chain", "Nested Forcing Chains (+ Multiple Forcing Chains)", 10.0, &[]).off(SE_ONLY),
    TechniqueInfo::new("se-nested-dynamic-forcing-chain", "Nested Forcing Chains (+ Dynamic Forcing Chains)", 10.5, &[]).off(SE_ONLY),
    TechniqueInfo::new("se-nested-dynamic-forcing-chain-plus", "Nested Forcing Chains (+ Nested Forcing Chains)", 11.0, &[]).off(SE_ONLY),
    // wings.rs
    TechniqueInfo::new("xy-wing", "XY-Wing", 4.2, &["0800"]),
    TechniqueInfo::new("xyz-wing", "XYZ-Wing", 4.4, &["0801"]),
    TechniqueInfo::new("w-wing", "W-Wing", 4.4, &["0803"]),
    TechniqueInfo::new("wxyz-wing", "WXYZ-Wing", 4.6, &["0802"]),
    // uniqueness.rs
    TechniqueInfo::new("unique-rectangle-1", "Unique Rectangle Type 1", 4.5, &["0600"]).uniqueness(),
    TechniqueInfo::new("unique-rectangle-2", "Unique Rectangle Type 2", 4.5, &["0601"]).uniqueness(),
    TechniqueInfo::new("unique-rectangle-4", "Unique Rectangle Type 4", 4.5, &["0603"]).uniqueness(),
    TechniqueInfo::new("unique-rectangle-5", "Unique Rectangle Type 5", 4.5, &["0604"]).uniqueness(),
    TechniqueInfo::new("avoidable-rectangle-1", "Avoidable Rectangle Type 1", 4.5, &["0607"]).uniqueness(),
    TechniqueInfo::new("avoidable-rectangle-2", "Avoidable Rectangle Type 2", 4.5, &["0608"]).uniqueness(),
    TechniqueInfo::new("unique-rectangle-3", "Unique Rectangle Type 3", 4.6, &["0602"]).uniqueness(),
    TechniqueInfo::new("unique-rectangle-6", "Unique Rectangle Type 6", 4.6, &["0605"]).uniqueness(),
    TechniqueInfo::new("hidden-rectangle", "Hidden Rectangle", 4.6, &["0606"]).uniqueness(),
    TechniqueInfo::new("bug-plus-1", "Bivalue Universal Grave + 1", 5.6, &["0610"]).uniqueness(),
    // sue_de_coq.rs, templates.rs
    TechniqueInfo::new("sue-de-coq", "Sue de Coq", 5.0, &["1101"]),
    TechniqueInfo::new("template-set", "Template Set", 8.0, &["1201"]).off(TEMPLATES),
    TechniqueInfo::new("template-delete", "Template Delete", 8.0, &["1202"]).off(TEMPLATES),
    // als/
    TechniqueInfo::new("als-xz", "ALS-XZ", 7.0, &["0901"]),
    TechniqueInfo::new("als-xy-wing", "ALS-XY-Wing", 7.2, &["0902"]),
    TechniqueInfo::new("als-xy-chain", "ALS-XY-Chain", 7.4, &["0903"]),
    TechniqueInfo::new("death-blossom", "Death Blossom", 7.6, &["0904"]),
    // aligned.rs
    TechniqueInfo::new("aligned-pair-exclusion", "Aligned Pair Exclusion", 6.2, &[]).off(SE_ONLY),
    TechniqueInfo::new("aligned-triple-exclusion", "Aligned Triple Exclusion", 7.5, &[]).off(SE_ONLY),
    // forcing/
    TechniqueInfo::new("forcing-chain", "Forcing Chain", 8.0, &[]),
    TechniqueInfo::new("dynamic-forcing-chain", "Dynamic Forcing Chain", 8.5, &[]),
    TechniqueInfo::new("dynamic-forcing-chain-plus", "Dynamic Forcing Chain (+)", 9.0, &[]),
    TechniqueInfo::new("nested-forcing-chain", "Nested Forcing Chain", 9.5, &[]),
    TechniqueInfo::new("nested-dynamic-forcing-chain", "Nested Dynamic Forcing Chain", 10.5, &[]),
    TechniqueInfo::new("nested-dynamic-forcing-chain-plus", "Nested Dynamic Forcing Chain (+)", 11.0, &[]),
    TechniqueInfo::new("double-nested-forcing-chain", "Double Nested Forcing Chain", 11.5, &[]),
    // forcing/kraken.rs
    TechniqueInfo::new("kraken-fish-type-1", "Kraken Fish Type 1", 8.0, &["0371"]).off(KRAKEN),
    TechniqueInfo::new("kraken-fish-type-2", "Kraken Fish Type 2", 8.0, &["0372"]).off(KRAKEN),
    // guess.rs
    TechniqueInfo::new("guess", "Guess", 12.0, &[]).off(GUESS),
];

/// The catalogue entry of the built-in `id`, for the built-ins to hold: evaluated in a
/// constant, a misspelt id stops the build.
pub(crate) const fn entry(id: &str) -> &'static TechniqueInfo {
    match TechniqueInfo::lookup(id) {
        Some(info) => info,
        None => panic!("no built-in technique has this id in the catalogue"),
    }
}

/// String equality in a `const fn`.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_finds_entries_by_id() {
        assert_eq!(
            TechniqueInfo::lookup("naked-pair").map(|i| i.name),
            Some("Naked Pair")
        );
        assert_eq!(TechniqueInfo::lookup("naked-pai"), None);
        assert_eq!(TechniqueInfo::lookup(""), None);
        assert!(entry("bug-plus-1").needs_uniqueness);
        assert!(entry("guess").off_by_default.is_some());
    }
}

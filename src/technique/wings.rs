//! (being written)

use crate::technique::Technique;

/// The techniques of this family, easiest first.
pub fn techniques() -> Vec<Box<dyn Technique>> {
    Vec::new()
}

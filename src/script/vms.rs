//! The VMs this thread keeps for the scripts of the shared host, one per script (its
//! function-resolution cache is the script's own: another script's functions never answer its
//! calls), with the engine's operation count each has reached.

use std::cell::RefCell;

use rhai::grain::Vm;

/// VMs kept per thread; the oldest goes first past this.
const KEPT: usize = 16;

thread_local! {
    static VMS: RefCell<Vec<(u64, Box<Vm<'static>>, u64)>> = const { RefCell::new(Vec::new()) };
}

/// Script `key`'s VM and its operation count, taken out while a call runs (a call that
/// panics drops it; a nested call of the same script makes its own).
pub(super) fn take(key: u64) -> Option<(Box<Vm<'static>>, u64)> {
    VMS.with(|v| {
        let mut v = v.borrow_mut();
        let i = v.iter().position(|(k, ..)| *k == key)?;
        let (_, vm, count) = v.remove(i);
        Some((vm, count))
    })
}

/// Keeps script `key`'s VM for its next call on this thread.
pub(super) fn keep(key: u64, vm: Box<Vm<'static>>, count: u64) {
    VMS.with(|v| {
        let mut v = v.borrow_mut();
        if v.len() >= KEPT {
            v.remove(0);
        }
        v.push((key, vm, count));
    });
}

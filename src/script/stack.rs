//! The big stack every script load and call runs on, made once per thread and reused.
//!
//! Rhai formats, compares, clones and drops nested arrays and maps recursively in native code,
//! where no limit applies but the data sizes (an array nested 10,000 deep is 10,000 elements);
//! at about 1.5 KiB of stack a level that overflows a 2 MiB thread (a rayon worker) near 1,500
//! levels and takes the process down. On a stack of [`SCRIPT_STACK`] bytes the deepest value
//! the size limits allow is handled safely.
//!
//! Making a fresh stack for each call (`stacker::grow`) maps and unmaps 64 MiB and faults its
//! touched pages in again every time, many times the cost of an empty script call
//! (docs/performance.md).
//! So each thread maps its stack once (with a guard page below it), keeps it, and switches to
//! it with `psm` for each call; the pages a call touched stay mapped for the next one.

/// The size of the script stack.
pub(crate) const SCRIPT_STACK: usize = 64 << 20;

/// Runs `f` on this thread's script stack (same thread, so thread-locals still apply). A call
/// made while already on it runs in place.
pub(crate) fn on_script_stack<R>(f: impl FnOnce() -> R) -> R {
    imp::on_script_stack(f)
}

#[cfg(unix)]
mod imp {
    use std::cell::Cell;
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

    use super::SCRIPT_STACK;

    /// A mapped stack: `guard` bytes of no access at the bottom, then `size` usable bytes.
    struct Stack {
        map: *mut u8,
        guard: usize,
        size: usize,
    }

    impl Stack {
        /// Maps a stack, or `None` when the system refuses.
        fn map() -> Option<Stack> {
            // SAFETY: sysconf has no preconditions.
            let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
                .ok()
                .filter(|&p| p > 0)
                .unwrap_or(4096);
            let len = SCRIPT_STACK + page;
            // SAFETY: an anonymous private mapping with no address hint touches no memory of
            // ours; the result is checked against MAP_FAILED.
            let map = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if map == libc::MAP_FAILED {
                return None;
            }
            // SAFETY: the first page lies inside the mapping just made.
            if unsafe { libc::mprotect(map, page, libc::PROT_NONE) } != 0 {
                // SAFETY: unmapping exactly what was mapped above.
                unsafe { libc::munmap(map, len) };
                return None;
            }
            Some(Stack {
                map: map.cast(),
                guard: page,
                size: SCRIPT_STACK,
            })
        }

        /// The lowest usable address.
        fn base(&self) -> *mut u8 {
            // SAFETY: `guard` is within the mapping.
            unsafe { self.map.add(self.guard) }
        }
    }

    impl Drop for Stack {
        fn drop(&mut self) {
            // SAFETY: unmapping exactly the mapping `map` made; nothing runs on it any more
            // (the thread is exiting, and `on_script_stack` is not running on this thread).
            unsafe { libc::munmap(self.map.cast(), self.guard + self.size) };
        }
    }

    thread_local! {
        /// This thread's script stack, mapped at the first script call.
        static STACK: Cell<Option<(*mut u8, usize)>> = const { Cell::new(None) };
        /// Keeps the stack mapped for the thread's life and unmaps it at exit.
        static OWNER: std::cell::RefCell<Option<Stack>> = const { std::cell::RefCell::new(None) };
        /// Whether this thread is running on its script stack now.
        static ON_IT: Cell<bool> = const { Cell::new(false) };
    }

    /// The base and size of this thread's stack, mapping it the first time.
    fn stack() -> Option<(*mut u8, usize)> {
        if let Some(s) = STACK.with(Cell::get) {
            return Some(s);
        }
        let stack = Stack::map()?;
        let s = (stack.base(), stack.size);
        OWNER.with(|o| *o.borrow_mut() = Some(stack));
        STACK.with(|c| c.set(Some(s)));
        Some(s)
    }

    pub(super) fn on_script_stack<R>(f: impl FnOnce() -> R) -> R {
        if ON_IT.with(Cell::get) {
            return f();
        }
        let Some((base, size)) = stack() else {
            // No memory for a stack of our own: a fresh one each call, as stacker makes it.
            return stacker::grow(SCRIPT_STACK, f);
        };
        ON_IT.with(|c| c.set(true));
        // SAFETY: `base..base+size` is a mapped, writable, page-aligned region owned by this
        // thread and used by nothing else while `ON_IT` is set; the callback never unwinds
        // (panics are caught and resumed after switching back).
        let result = unsafe { psm::on_stack(base, size, || catch_unwind(AssertUnwindSafe(f))) };
        ON_IT.with(|c| c.set(false));
        match result {
            Ok(r) => r,
            Err(panic) => resume_unwind(panic),
        }
    }
}

#[cfg(not(unix))]
mod imp {
    pub(super) fn on_script_stack<R>(f: impl FnOnce() -> R) -> R {
        stacker::grow(super::SCRIPT_STACK, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_on_a_big_stack_and_reuses_it() {
        fn depth(n: u32) -> u32 {
            // about 4 KiB a level: 8,000 levels need some 32 MiB, far past a test thread's
            let pad = std::hint::black_box([0u8; 4000]);
            if n == 0 {
                pad[0] as u32
            } else {
                depth(n - 1) + 1 + pad[1] as u32
            }
        }
        assert_eq!(on_script_stack(|| depth(8_000)), 8_000);
        let first = on_script_stack(|| psm::stack_pointer() as usize);
        let second = on_script_stack(|| psm::stack_pointer() as usize);
        assert_eq!(first, second, "the same stack each call");
        assert_eq!(
            on_script_stack(|| on_script_stack(|| 7)),
            7,
            "nested calls run in place"
        );
    }

    #[test]
    fn a_panic_comes_back_out() {
        let r = std::panic::catch_unwind(|| on_script_stack(|| panic!("boom")));
        assert!(r.is_err());
        assert_eq!(on_script_stack(|| 1), 1, "usable after a panic");
    }
}

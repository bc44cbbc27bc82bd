//! Where a script's operations go: sampled calls of `find` on the VM, charged to lines and
//! functions ([`Profile`]).

use super::*;

impl ScriptTechnique {
    /// Adds to `profile` where a call of `find` on `grid` spends its operations: one full call
    /// counts them, then up to `samples` more are stopped at evenly spaced operations, and the
    /// line (and the function written around it) each stop lands in is charged its share.
    /// Runs on the VM; the per-call limits apply, the per-solve budget does not.
    pub fn profile(
        &self,
        grid: &Grid,
        samples: u64,
        profile: &mut Profile,
    ) -> Result<(), ScriptError> {
        let ctx = Context::new(grid);
        let _position = context::PositionGuard::enter(&ctx);
        let sidecar = self.program.sidecar();
        on_script_stack(|| {
            let total = self.call_counting(grid, 0, &sidecar)?.0;
            profile.operations += total;
            let n = samples.min(total);
            for i in 0..n {
                // the middle of each of n equal stretches of the call's operations
                let at = ((2 * i + 1) * total / (2 * n)).max(1);
                let (_, stopped) = self.call_counting(grid, at, &sidecar)?;
                let Some(line) = stopped else {
                    continue;
                };
                let function = self.function_at(line);
                let share = total / n + u64::from(i < total % n);
                profile.samples += 1;
                *profile.lines.entry(line).or_default() += share;
                *profile.functions.entry(function).or_default() += share;
            }
            Ok(())
        })
    }

    /// One call of `find` on the VM, stopped at operation `stop_at` (0: not stopped): the
    /// operations counted, and the line it was stopped at (from the VM's fault trace).
    fn call_counting(
        &self,
        grid: &Grid,
        stop_at: u64,
        sidecar: &rhai::grain::Sidecar,
    ) -> Result<(u64, Option<usize>), ScriptError> {
        struct Stop(u64);
        impl Drop for Stop {
            fn drop(&mut self) {
                STOP_AT.with(|s| s.set(self.0));
            }
        }
        let _restore = Stop(STOP_AT.with(|s| s.replace(stop_at)));
        let call = CallGuard::new(&self.host.limits, None, 0);
        let mut vm = rhai::grain::Vm::new(&self.host.engine);
        let result = vm.call_fn_with_options::<Dynamic>(
            CallFnOptions::new().eval_ast(false).rewind_scope(true),
            &mut Scope::new(),
            &self.program,
            "find",
            (grid.clone(),),
        );
        let operations = call.operations();
        let Err(e) = result.map_err(unwrap_find) else {
            return Ok((operations, None));
        };
        let mut inner = &*e;
        while let EvalAltResult::ErrorInFunctionCall(_, _, next, _) = inner {
            inner = next;
        }
        if let EvalAltResult::ErrorTerminated(token, _) = inner
            && token.to_string() == PROFILE_STOP
        {
            let trace = vm.fault_trace();
            let line = trace
                .first()
                .and_then(|&f| sidecar.site(f))
                .map_or(0, |site| site.line as usize);
            return Ok((operations, Some(line)));
        }
        let (pos, message) = describe(e, &self.host.limits, None);
        Err(ScriptError::Runtime {
            at: if pos.is_none() {
                self.find_at.clone()
            } else {
                Location::new(&self.path, pos)
            },
            message,
        })
    }
}

impl ScriptTechnique {
    /// The function whose definition holds `line`: the last `fn NAME(` written at or before
    /// it (`(top level)` when none is).
    fn function_at(&self, line: usize) -> String {
        if line == 0 {
            return "(no line recorded)".to_string();
        }
        self.functions
            .iter()
            .rev()
            .find(|(at, _)| *at <= line)
            .map_or_else(|| "(top level)".to_string(), |(_, name)| name.clone())
    }
}

/// The functions of `text`, as (line, name), in order.
pub(super) fn function_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let rest = l.trim_start().strip_prefix("fn ")?;
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some((i + 1, name))
        })
        .collect()
}

//! Techniques written as Rhai scripts, loaded at run time (`techniques/*.rhai`).
//!
//! A script declares its metadata as top-level constants and a `find(grid)` function (and,
//! optionally, `const SIZES = [9];`: the board sizes it runs on, every size when it declares
//! none; see [`ScriptTechnique::sizes`]):
//!
//! ```rhai
//! const ID = "x-wing-script";
//! const NAME = "X-Wing (script)";
//! const DIFFICULTY = 3.2;
//! const CODES = ["0300"];
//!
//! fn find(grid) {
//!     let steps = [];
//!     // ... steps.push(step().eliminate(cells, digit).explain("..."));
//!     steps
//! }
//! ```
//!
//! From Rust, a script is loaded from its file ([`ScriptTechnique::load`]) or its text, and is a
//! [`Technique`] like any other:
//!
//! ```
//! use lapiz::script::{ScriptHost, ScriptTechnique};
//! use lapiz::technique::{builtin, find_all};
//! use lapiz::{Pipeline, Technique, solve_puzzle};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let source = r#"
//!     const ID = "lone-candidate";
//!     const NAME = "Lone Candidate (script)";
//!     const DIFFICULTY = 2.3;
//!     fn find(grid) {
//!         let steps = [];
//!         for c in grid.empty() {
//!             if grid.count(c) == 1 {
//!                 let d = grid.candidates(c)[0];
//!                 steps.push(step().place(c, d).explain(`Lone Candidate: ${c}=${d}`));
//!             }
//!         }
//!         steps
//!     }
//! "#;
//! let script = ScriptTechnique::from_source(source, "lone.rhai", ScriptHost::shared())?;
//! assert_eq!((script.id(), script.difficulty()), ("lone-candidate", 2.3));
//!
//! // On its own it finds what the built-in naked single finds.
//! let puzzle =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
//! let grid = lapiz::text::parse_puzzle(puzzle)?;
//! let naked_single = builtin("naked-single").expect("a built-in");
//! let placed = |steps: Vec<lapiz::Step>| {
//!     let mut placed: Vec<_> = steps.into_iter().flat_map(|s| s.placements).collect();
//!     placed.sort();
//!     placed
//! };
//! let found = placed(find_all(&script, &grid)?);
//! assert!(!found.is_empty());
//! assert_eq!(found, placed(find_all(naked_single.as_ref(), &grid)?));
//!
//! // In a pipeline it is searched like a built-in, and its steps verified like any other's.
//! let full_house = builtin("full-house").expect("a built-in");
//! let lone = Pipeline::from_techniques("lone", vec![full_house, Box::new(script)])?;
//! let trace = solve_puzzle(puzzle, &lone);
//! assert!(trace.is_solved());
//! assert!(trace.steps().any(|s| s.technique == "lone-candidate"));
//! # Ok(())
//! # }
//! ```
//!
//! One Rhai [`Engine`] is built per [`ScriptHost`] (the shared one, [`ScriptHost::shared`], is
//! built once), each script is compiled once to an [`AST`], its top level runs once at load to
//! read the constants, and every search calls `find` on the compiled AST without re-running the
//! top level. Every call runs under explicit [`Limits`], and during a solve each script also has
//! a per-solve [`ScriptBudget`] (see [`budget`]). Loading is bounded too: the file's size and its
//! number of functions are limited. Any failure (parse error, runtime
//! error, broken limit, malformed return value) is a [`ScriptError`] naming the file, line and
//! column; during a solve it becomes a [`TechniqueError`], so the engine records it and disables
//! the script for the rest of the solve. See `docs/scripting.md`.

use std::cell::Cell as StdCell;
use std::fmt;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use web_time::{Duration, Instant};

use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Position, Scope};

use crate::model::Shape;
use crate::model::grid::Grid;
use crate::step::Step;
use crate::technique::context::Context;
use crate::technique::{Origin, SizedContext, StepSink, Technique, TechniqueError};

pub(crate) mod api;
mod patterns;
pub(crate) mod searched;
mod sizes;
use sizes::declared_sizes;
#[doc(hidden)]
pub use sizes::sizes_text;
#[doc(hidden)]
pub mod budget;
mod call_limits;
use call_limits::*;
mod describe;
use describe::{PosText, describe, unwrap_find};
mod context;
mod profile;
use profile::function_lines;
mod stack;
pub(crate) mod value;

use stack::on_script_stack;

#[doc(hidden)]
pub use budget::{MAX_PRINT_BYTES, ScriptUsage, last_solve_usage};
pub(crate) use budget::{ScriptBudget, SolveScope};

/// The limits every script call runs under. Rhai's own defaults differ between debug and
/// release builds; lapiz sets every one of these explicitly.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Operations per call of `find` (and for the top level at load).
    pub max_operations: u64,
    /// Depth of nested function calls.
    pub max_call_levels: usize,
    /// Depth of nested expressions (statements at top level; functions get the same).
    pub max_expr_depth: usize,
    /// Length of any string, in bytes.
    pub max_string_size: usize,
    /// Length of any array.
    pub max_array_size: usize,
    /// Number of entries of any map.
    pub max_map_size: usize,
    /// Wall-clock time per call.
    pub time_limit: Duration,
    /// Size of a script file, in bytes (checked before it is read or compiled).
    pub max_script_bytes: usize,
    /// Functions a script may define (compiling many functions is slow).
    pub max_functions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_operations: 5_000_000,
            max_call_levels: 48,
            max_expr_depth: 64,
            max_string_size: 64 * 1024,
            max_array_size: 10_000,
            max_map_size: 1_000,
            time_limit: Duration::from_secs(2),
            max_script_bytes: 64 * 1024,
            max_functions: 256,
        }
    }
}

/// The shared host, [`ScriptHost::shared`].
static SHARED_HOST: OnceLock<Arc<ScriptHost>> = OnceLock::new();

/// Gives every script its own key for the per-solve accounts.
static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

/// A Rhai engine with lapiz's types, helpers and limits, shared by every script loaded with it.
pub struct ScriptHost {
    engine: Engine,
    limits: Limits,
}

impl fmt::Debug for ScriptHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScriptHost")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl ScriptHost {
    /// A host with its own engine and these limits.
    pub fn new(limits: Limits) -> ScriptHost {
        let mut engine = Engine::new();
        // The operations per call are counted by `on_progress` below, from the count at the
        // start of the call: a VM kept from call to call (see `vms`) never resets Rhai's own.
        engine
            .set_max_operations(0)
            .set_max_call_levels(limits.max_call_levels)
            .set_max_expr_depths(limits.max_expr_depth, limits.max_expr_depth)
            .set_max_string_size(limits.max_string_size)
            .set_max_array_size(limits.max_array_size)
            .set_max_map_size(limits.max_map_size)
            .set_max_functions(limits.max_functions)
            .set_max_modules(0)
            .set_strict_variables(true)
            .set_fail_on_invalid_map_property(true);
        engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
        engine.disable_symbol("eval");
        // Scripts print to stderr so they never mix with lapiz's own output, escaped as every
        // untrusted text is (`printable`) and at most `MAX_PRINT_BYTES` a solve; a line stderr
        // refuses (closed, full) is dropped rather than failing the search.
        engine.on_print(|s| print_line(&format!("{}\n", crate::text::printable(s))));
        engine.on_debug(|s, src, pos| {
            print_line(&format!(
                "{}:{}: {}\n",
                crate::text::printable(src.unwrap_or("script")),
                PosText(pos),
                crate::text::printable(s)
            ));
        });
        // Counts every operation and stops a call past its operations per call; every 1024
        // checks the clock and the per-solve operations. Outside a call (the engine used
        // directly, `ScriptHost::engine`) nothing is limited.
        engine.on_progress(|count| {
            OPERATIONS.with(|o| o.set(count));
            let call = CALL.with(StdCell::get)?;
            let ops = count.saturating_sub(call.base);
            if call.max_operations != 0 && ops > call.max_operations {
                return Some(Dynamic::from(OPERATIONS_UP));
            }
            let stop = STOP_AT.with(StdCell::get);
            if stop != 0 && ops >= stop {
                return Some(Dynamic::from(PROFILE_STOP));
            }
            if ops & 0x3ff != 0 {
                return None;
            }
            if ops >= call.operations_left {
                return Some(Dynamic::from(BUDGET_OPERATIONS_UP));
            }
            if Instant::now() >= call.deadline {
                let token = if call.deadline_is_budget {
                    BUDGET_TIME_UP
                } else {
                    TIME_UP
                };
                return Some(Dynamic::from(token));
            }
            None
        });
        api::register(&mut engine);
        ScriptHost { engine, limits }
    }

    /// The host with default limits, built once and shared by every script loaded through
    /// [`ScriptTechnique::load`] and pipelines.
    pub fn shared() -> Arc<ScriptHost> {
        SHARED_HOST
            .get_or_init(|| Arc::new(ScriptHost::new(Limits::default())))
            .clone()
    }

    /// The limits scripts run under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The Rhai engine (to run snippets in tests and tools). Used directly, outside a script
    /// call, it counts operations but limits neither them nor the time.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
}

/// Where in a script something happened: file, and line and column when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The script's path as given.
    pub path: String,
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub column: usize,
}

impl Location {
    fn new(path: &str, pos: Position) -> Location {
        Location {
            path: path.to_string(),
            line: pos.line().unwrap_or(0),
            column: pos.position().unwrap_or(0),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.path),
            (l, 0) => write!(f, "{}:{l}", self.path),
            (l, c) => write!(f, "{}:{l}:{c}", self.path),
        }
    }
}

/// A script could not be loaded or failed while searching.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScriptError {
    /// The file or folder could not be read.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        error: std::io::Error,
    },
    /// A folder of scripts holds no `.rhai` file.
    #[error("{path}: no .rhai scripts in this folder")]
    EmptyFolder {
        /// The folder.
        path: String,
    },
    /// The script file is larger than [`Limits::max_script_bytes`].
    #[error("{path}: script too large: {size} bytes (the limit is {limit} bytes)")]
    TooLarge {
        /// The path.
        path: String,
        /// Its size in bytes (at least this many when it was not read whole).
        size: u64,
        /// The limit.
        limit: usize,
    },
    /// The script does not parse.
    #[error("{at}: syntax error: {message}")]
    Syntax {
        /// Where.
        at: Location,
        /// Rhai's message.
        message: String,
    },
    /// The metadata constants or `find` are missing or wrong.
    #[error("{at}: {message}")]
    Declaration {
        /// Where (the file, and the line when known).
        at: Location,
        /// What is wrong.
        message: String,
    },
    /// The script failed while running: a runtime error or a broken limit.
    #[error("{at}: {message}")]
    Runtime {
        /// Where.
        at: Location,
        /// What went wrong, e.g. `operation limit exceeded (20000000 operations)`.
        message: String,
    },
    /// `find` returned something that is not steps.
    #[error("{at}: find returned a malformed value: {field}: {message}")]
    Malformed {
        /// Where `find` is defined.
        at: Location,
        /// The path of the bad field, e.g. `[0].eliminations[2].cell`.
        field: String,
        /// What is wrong with it.
        message: String,
    },
}

/// How a script's `find` is evaluated. Both give the same steps, limits and errors; neither
/// is faster for lapiz's scripts (docs/performance.md, "Rhai's bytecode VM"), so the default is
/// the interpreter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluator {
    /// On Rhai Grain's bytecode VM, from the program compiled once at load; each thread keeps
    /// a script's VM from call to call.
    Bytecode,
    /// By Rhai's tree-walking interpreter, on the compiled AST (the default).
    #[default]
    Tree,
}

/// A technique whose search is a Rhai script's `find(grid)`.
pub struct ScriptTechnique {
    host: Arc<ScriptHost>,
    /// Its key in the per-solve accounts.
    key: u64,
    ast: AST,
    /// `ast` compiled to bytecode once, at load.
    program: rhai::grain::Program<'static>,
    /// Which of the two `find` runs on.
    evaluator: Evaluator,
    /// Where each function is written (line, name), for profiles.
    functions: Vec<(usize, String)>,
    path: String,
    id: String,
    name: String,
    difficulty: f32,
    codes: Vec<String>,
    needs_uniqueness: bool,
    /// The board sizes it declares it runs on (`const SIZES = [9];`); `None`: every size.
    sizes: Option<Vec<usize>>,
    /// Where `fn find` is written, for errors about its return value.
    find_at: Location,
}

impl fmt::Debug for ScriptTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScriptTechnique")
            .field("path", &self.path)
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// Where `fn find(` is written in `text`, as 1-based line and column.
fn find_position(text: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("fn")
            && rest.trim_start().starts_with("find")
            && rest.trim_start()["find".len()..]
                .trim_start()
                .starts_with('(')
        {
            return (i + 1, line.len() - t.len() + 1);
        }
    }
    (0, 0)
}

impl ScriptTechnique {
    /// Loads a script with the shared host.
    pub fn load(path: &Path) -> Result<ScriptTechnique, ScriptError> {
        ScriptTechnique::load_with(path, ScriptHost::shared())
    }

    /// Loads a script with `host` (its engine and limits).
    pub fn load_with(path: &Path, host: Arc<ScriptHost>) -> Result<ScriptTechnique, ScriptError> {
        let shown = path.display().to_string();
        let io = |error| ScriptError::Io {
            path: shown.clone(),
            error,
        };
        let limit = host.limits.max_script_bytes;
        let too_large = |size: u64| ScriptError::TooLarge {
            path: shown.clone(),
            size,
            limit,
        };
        let file = crate::text::files::open_regular(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if size > limit as u64 {
            return Err(too_large(size));
        }
        // Read at most one byte more than the limit: the file may have grown since.
        let mut bytes = Vec::new();
        file.take(limit as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() > limit {
            return Err(too_large(bytes.len() as u64));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not UTF-8 ({})", e.utf8_error()),
            ))
        })?;
        // a byte-order mark some editors write is not part of the script
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        ScriptTechnique::from_source(text, &shown, host)
    }

    /// A script from its text; `path` names it in errors and in its [`Origin`].
    pub fn from_source(
        text: &str,
        path: &str,
        host: Arc<ScriptHost>,
    ) -> Result<ScriptTechnique, ScriptError> {
        on_script_stack(|| ScriptTechnique::compile(text, path, host))
    }

    /// [`ScriptTechnique::from_source`], on the script stack.
    fn compile(
        text: &str,
        path: &str,
        host: Arc<ScriptHost>,
    ) -> Result<ScriptTechnique, ScriptError> {
        let engine = &host.engine;
        if text.len() > host.limits.max_script_bytes {
            return Err(ScriptError::TooLarge {
                path: path.to_string(),
                size: text.len() as u64,
                limit: host.limits.max_script_bytes,
            });
        }
        let mut ast = engine.compile(text).map_err(|e| ScriptError::Syntax {
            at: Location::new(path, e.position()),
            message: match e.err_type() {
                rhai::ParseErrorType::TooManyFunctions => format!(
                    "too many functions (the limit is {} per script)",
                    host.limits.max_functions
                ),
                other => other.to_string(),
            },
        })?;
        ast.set_source(path);
        let decl = |line: usize, message: String| ScriptError::Declaration {
            at: Location {
                path: path.to_string(),
                line,
                column: 0,
            },
            message,
        };
        let (find_line, find_col) = find_position(text);
        let has_find = ast
            .iter_functions()
            .any(|f| f.name == "find" && f.params.len() == 1);
        if !has_find {
            return Err(decl(
                0,
                "no `fn find(grid)`: a technique script defines find(grid) returning its steps"
                    .into(),
            ));
        }
        // Run the top level once, to read the declarations.
        let mut scope = Scope::new();
        {
            let _call = CallGuard::new(&host.limits, None, 0);
            engine.run_ast_with_scope(&mut scope, &ast).map_err(|e| {
                let (pos, message) = describe(e, &host.limits, None);
                ScriptError::Runtime {
                    at: Location::new(path, pos),
                    message,
                }
            })?;
        }
        let line_of = |name: &str| {
            text.lines()
                .position(|l| {
                    let t = l.trim_start();
                    (t.starts_with("const ") || t.starts_with("let "))
                        && t.split_whitespace().nth(1) == Some(name)
                })
                .map_or(0, |i| i + 1)
        };
        let string = |name: &str| -> Result<Option<String>, ScriptError> {
            match scope.get(name) {
                None => Ok(None),
                Some(v) if v.is_string() => Ok(Some(v.to_string())),
                Some(v) => Err(decl(
                    line_of(name),
                    format!("{name} must be a string, found {}", v.type_name()),
                )),
            }
        };
        let id = string("ID")?.ok_or_else(|| {
            decl(
                0,
                "missing `const ID = \"...\";` (the technique id, e.g. \"x-wing-script\")".into(),
            )
        })?;
        if id.is_empty()
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(decl(
                line_of("ID"),
                format!("ID `{id}` must be letters, digits, `-` and `_`"),
            ));
        }
        if let Some(native) = crate::technique::builtin(&id) {
            return Err(decl(
                line_of("ID"),
                format!(
                    "ID `{id}` is the id of the built-in technique {}; choose another (e.g. `{id}-script`)",
                    native.name()
                ),
            ));
        }
        let name = string("NAME")?.unwrap_or_else(|| id.clone());
        let difficulty = match scope.get("DIFFICULTY") {
            None => {
                return Err(decl(
                    0,
                    "missing `const DIFFICULTY = ...;` (Sudoku Explainer scale, e.g. 3.2)".into(),
                ));
            }
            Some(v) => match (v.as_float(), v.as_int()) {
                (Ok(f), _) if crate::technique::valid_difficulty(f) => f,
                (_, Ok(i)) if crate::technique::valid_difficulty(i as f32) => i as f32,
                _ => {
                    return Err(decl(
                        line_of("DIFFICULTY"),
                        match v.is_string() {
                            true => format!(
                                "DIFFICULTY must be a number in (0, 20], found the string {:?} \
                                 (write it without quotes)",
                                v.to_string()
                            ),
                            false => format!("DIFFICULTY must be a number in (0, 20], found {v}"),
                        },
                    ));
                }
            },
        };
        let codes = match scope.get("CODES") {
            None => Vec::new(),
            Some(v) if v.is_string() => vec![v.to_string()],
            Some(v) if v.is_array() => {
                let arr = v.clone().cast::<rhai::Array>();
                let mut codes = Vec::new();
                for c in arr {
                    if !c.is_string() {
                        return Err(decl(
                            line_of("CODES"),
                            "CODES must be an array of strings like [\"0300\"]".into(),
                        ));
                    }
                    codes.push(c.to_string());
                }
                codes
            }
            Some(_) => {
                return Err(decl(
                    line_of("CODES"),
                    "CODES must be an array of strings like [\"0300\"]".into(),
                ));
            }
        };
        let needs_uniqueness = match scope.get("NEEDS_UNIQUENESS") {
            None => false,
            Some(v) => v.as_bool().map_err(|_| {
                decl(
                    line_of("NEEDS_UNIQUENESS"),
                    "NEEDS_UNIQUENESS must be true or false".into(),
                )
            })?,
        };
        let sizes = match scope.get("SIZES") {
            None => None,
            Some(v) => Some(declared_sizes(v).map_err(|m| decl(line_of("SIZES"), m))?),
        };
        let program = rhai::grain::Compiler::new().compile(&ast);
        Ok(ScriptTechnique {
            host,
            key: NEXT_KEY.fetch_add(1, Ordering::Relaxed),
            ast,
            program,
            evaluator: Evaluator::default(),
            functions: function_lines(text),
            path: path.to_string(),
            id,
            name,
            difficulty,
            codes,
            needs_uniqueness,
            sizes,
            find_at: Location {
                path: path.to_string(),
                line: find_line,
                column: find_col,
            },
        })
    }

    /// Every `.rhai` script of a folder, sorted by file name, loaded with the shared host.
    pub fn load_folder(dir: &Path) -> Result<Vec<ScriptTechnique>, ScriptError> {
        let shown = dir.display().to_string();
        let io = |error| ScriptError::Io {
            path: shown.clone(),
            error,
        };
        let mut files: Vec<PathBuf> = crate::text::files::read_folder(dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "rhai") && p.is_file())
            .collect();
        files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        if files.is_empty() {
            return Err(ScriptError::EmptyFolder { path: shown });
        }
        files.iter().map(|p| ScriptTechnique::load(p)).collect()
    }

    /// The script's path as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The board sizes the script declares it runs on (`const SIZES = [9];`), in increasing
    /// order; `None` when it declares none, and then it runs on every size.
    pub fn sizes(&self) -> Option<&[usize]> {
        self.sizes.as_deref()
    }

    /// How `find` is evaluated: as [`ScriptTechnique::set_evaluator`] chose, except that a
    /// script making function pointers (`Fn("f")`, `|x| ...`) always runs on the interpreter
    /// (a native such as `filter` cannot call back into the VM from a `call_fn`).
    pub fn evaluator(&self) -> Evaluator {
        if self.program.makes_fn_pointers() {
            Evaluator::Tree
        } else {
            self.evaluator
        }
    }

    /// Evaluates `find` with `evaluator` from now on (both give the same steps and limits).
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.evaluator = evaluator;
    }

    /// How many fragments of the script the bytecode compiler left to the interpreter (they
    /// still run, through the interpreter, from the VM).
    pub fn residual_fragments(&self) -> usize {
        self.program.residual_count()
    }

    /// Calls `find` on `grid` and converts what it returns. Inside a solve (a solve scope
    /// on this thread) the call is charged to the script's per-solve budget and stopped when
    /// that runs out.
    pub fn run(&self, grid: &Grid) -> Result<Vec<Step>, ScriptError> {
        self.run_in(&Context::new(grid))
    }

    /// [`ScriptTechnique::run`] on a position whose shared [`Context`] the engine already
    /// has: the script's context helpers (`grid.als()`, `grid.bivalue()` …) read it instead of
    /// building their own.
    ///
    /// The position may be of any size (see [`ScriptTechnique::run_sized`]).
    pub fn run_in<S: Shape>(&self, ctx: &Context<'_, S>) -> Result<Vec<Step>, ScriptError> {
        let _position = context::PositionGuard::enter(ctx);
        on_script_stack(|| self.call_find(ctx.grid()))
    }

    /// [`ScriptTechnique::run_in`] on a position of any size: `find` gets that size's grid,
    /// and the helpers with no grid among their arguments (`rows()`, `cell(r, c)`,
    /// `house.cells` …) answer for its board. It runs whatever sizes the script declares.
    pub fn run_sized(&self, ctx: SizedContext<'_>) -> Result<Vec<Step>, ScriptError> {
        crate::model::on_size!(ctx, c => self.run_in(c))
    }

    /// [`ScriptTechnique::run`], on the script stack (the returned value is converted and
    /// dropped there too).
    fn call_find<S: Shape>(&self, grid: &Grid<S>) -> Result<Vec<Step>, ScriptError> {
        let engine = &self.host.engine;
        let allowance = budget::allowance(self.key);
        let budget = budget::current_budget();
        if let (Some(a), Some(b)) = (allowance, budget)
            && (a.operations == 0 || a.time.is_zero())
        {
            let message = if a.operations == 0 {
                BUDGET_OPERATIONS_UP
            } else {
                BUDGET_TIME_UP
            };
            let (_, message) = describe(
                Box::new(EvalAltResult::ErrorTerminated(
                    Dynamic::from(message),
                    Position::NONE,
                )),
                &self.host.limits,
                Some(b),
            );
            return Err(ScriptError::Runtime {
                at: self.find_at.clone(),
                message,
            });
        }
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let start = Instant::now();
        let (result, operations) = match self.evaluator() {
            Evaluator::Bytecode => {
                let call_vm = |vm: &mut rhai::grain::Vm<'_>, base: u64| {
                    let call = CallGuard::new(&self.host.limits, allowance, base);
                    let result = vm
                        .call_fn_with_options::<Dynamic>(
                            options,
                            &mut scope,
                            &self.program,
                            "find",
                            (grid.clone(),),
                        )
                        .map_err(unwrap_find);
                    (result, call.operations(), call.count())
                };
                // The shared host's engine lives as long as the program: this thread keeps
                // the script's VM (and the functions it has resolved) for its next call.
                match SHARED_HOST.get() {
                    Some(shared) if Arc::ptr_eq(shared, &self.host) => {
                        let (mut vm, base) = vms::take(self.key)
                            .unwrap_or_else(|| (Box::new(rhai::grain::Vm::new(&shared.engine)), 0));
                        let (result, operations, count) = call_vm(&mut vm, base);
                        vms::keep(self.key, vm, count);
                        (result, operations)
                    }
                    _ => {
                        let (result, operations, _) = call_vm(&mut rhai::grain::Vm::new(engine), 0);
                        (result, operations)
                    }
                }
            }
            Evaluator::Tree => {
                let call = CallGuard::new(&self.host.limits, allowance, 0);
                let result = engine.call_fn_with_options::<Dynamic>(
                    options,
                    &mut scope,
                    &self.ast,
                    "find",
                    (grid.clone(),),
                );
                (result, call.operations())
            }
        };
        budget::charge(self.key, &self.path, operations, start.elapsed());
        let value = result.map_err(|e| {
            let (pos, message) = describe(e, &self.host.limits, budget);
            // Rhai gives no position for some broken limits (stack, sizes, time): then the
            // error points at `fn find`.
            let at = if pos.is_none() {
                self.find_at.clone()
            } else {
                Location::new(&self.path, pos)
            };
            ScriptError::Runtime { at, message }
        })?;
        value::to_steps(value, &self.id, self.difficulty, grid).map_err(|m| {
            ScriptError::Malformed {
                at: self.find_at.clone(),
                field: if m.path.is_empty() {
                    "(returned value)".into()
                } else {
                    m.path
                },
                message: m.message,
            }
        })
    }
}

mod vms;

/// Where a script's operations go: the operations of its `find` calls, and an estimate of
/// how many of them were counted at each line and in each function, from samples (see
/// [`ScriptTechnique::profile`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// The operations of every profiled call.
    pub operations: u64,
    /// The samples taken.
    pub samples: u64,
    /// Estimated operations by line (0: no position).
    pub lines: std::collections::BTreeMap<usize, u64>,
    /// Estimated operations by the function they were counted in.
    pub functions: std::collections::BTreeMap<String, u64>,
}

impl Technique for ScriptTechnique {
    fn id(&self) -> &str {
        &self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn difficulty(&self) -> f32 {
        self.difficulty
    }

    fn origin(&self) -> Origin {
        Origin::Script(self.path.clone())
    }

    fn needs_uniqueness(&self) -> bool {
        self.needs_uniqueness
    }

    fn library_codes(&self) -> Vec<String> {
        self.codes.clone()
    }

    fn find(&self, grid: &Grid, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        self.find_in(&Context::new(grid), sink)
    }

    fn find_in(&self, ctx: &Context<'_>, sink: &mut StepSink<'_>) -> Result<(), TechniqueError> {
        // a script that does not run on 9x9 finds nothing there, whoever asks
        if !self.runs_on(9) {
            return Ok(());
        }
        let steps = self.run_in(ctx).map_err(|e| TechniqueError::Script {
            technique: self.id.clone(),
            message: e.to_string(),
        })?;
        crate::technique::stoppable(|| steps.into_iter().try_for_each(sink))
    }

    fn runs_on(&self, n: usize) -> bool {
        self.sizes.as_ref().is_none_or(|s| s.contains(&n))
    }

    fn find_sized(
        &self,
        ctx: SizedContext<'_>,
        sink: &mut StepSink<'_>,
    ) -> Result<(), TechniqueError> {
        let n = ctx.n();
        if !self.runs_on(n) {
            return Err(TechniqueError::WrongSize {
                technique: self.id.clone(),
                n,
                message: format!(
                    "{}: runs on {} boards only (its SIZES), not {n}x{n}",
                    self.path,
                    sizes_text(self.sizes.as_deref().unwrap_or_default())
                ),
            });
        }
        let steps = self.run_sized(ctx).map_err(|e| TechniqueError::Script {
            technique: self.id.clone(),
            message: e.to_string(),
        })?;
        crate::technique::stoppable(|| steps.into_iter().try_for_each(sink))
    }
}

/// Writes a script's `print` or `debug` line to stderr in one write, ignoring a failure.
fn print_line(line: &str) {
    use std::io::Write as _;
    let text = match budget::print_allowance(line.len()) {
        budget::Print::Write => line.to_string(),
        budget::Print::CapReached => format!(
            "script output cut: scripts printed more than {} bytes in this solve; \
             the rest of their lines are dropped\n",
            budget::MAX_PRINT_BYTES
        ),
        budget::Print::Drop => return,
    };
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A script technique `t` ("T", 1.0) of `body`, for the tests of this folder.
    pub(crate) fn script(body: &str) -> Result<ScriptTechnique, ScriptError> {
        let text =
            format!("const ID = \"t\";\nconst NAME = \"T\";\nconst DIFFICULTY = 1.0;\n{body}");
        ScriptTechnique::from_source(&text, "t.rhai", ScriptHost::shared())
    }

    #[test]
    fn metadata_is_read_once() {
        let t = script("const CODES = [\"0300\"];\nfn find(grid) { () }").unwrap();
        assert_eq!(t.id(), "t");
        assert_eq!(t.name(), "T");
        assert_eq!(t.library_codes(), vec!["0300".to_string()]);
        assert_eq!(t.origin(), Origin::Script("t.rhai".into()));
    }

    #[test]
    fn a_quoted_difficulty_is_named_as_a_string() {
        let text = "const ID = \"t\";\nconst DIFFICULTY = \"3.0\";\nfn find(grid) { () }";
        let e = ScriptTechnique::from_source(text, "t.rhai", ScriptHost::shared()).unwrap_err();
        assert!(e.to_string().contains("found the string \"3.0\""), "{e}");
    }

    #[test]
    fn a_script_file_may_start_with_a_byte_order_mark() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bom.rhai");
        std::fs::write(
            &path,
            "\u{feff}const ID = \"bom\";\nconst DIFFICULTY = 1.0;\nfn find(grid) { () }",
        )
        .unwrap();
        assert_eq!(ScriptTechnique::load(&path).unwrap().id(), "bom");
    }

    #[test]
    fn missing_find_is_a_declaration_error() {
        let e = script("fn other(grid) { () }").unwrap_err();
        assert!(e.to_string().contains("no `fn find(grid)`"), "{e}");
    }

    #[test]
    fn builtin_ids_are_refused() {
        let text = "const ID = \"naked-pair\"; const DIFFICULTY = 1; fn find(g) { () }";
        let e = ScriptTechnique::from_source(text, "x.rhai", ScriptHost::shared()).unwrap_err();
        assert!(e.to_string().contains("built-in technique"), "{e}");
    }

    #[test]
    fn find_position_is_found() {
        assert_eq!(find_position("const X = 1;\n  fn find (grid) {}"), (2, 3));
    }
}

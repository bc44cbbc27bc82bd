//! `Pipeline`: an embedded pipeline or a RON file, with technique scripts and plugin libraries
//! added as the command line's `--technique` and `--plugin` add them.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use pyo3::prelude::*;

use crate::py_repr;
use pyo3::types::PyTuple;

use lapiz::engine::Pipeline as LibPipeline;
use lapiz::script::ScriptTechnique;

use crate::errors::{Kind, error};

/// Where a pipeline comes from, to build it again (in another process, after pickling).
#[derive(Clone, Debug, PartialEq)]
enum Source {
    /// `default` or `se`.
    Embedded(String),
    /// A RON file.
    File(String),
    /// RON text, with the name its errors use.
    Ron { text: String, name: String },
}

/// The recipe of a pipeline: its source, scripts, plugins and step limit.
#[derive(Clone, Debug, PartialEq)]
struct Recipe {
    source: Source,
    scripts: Vec<String>,
    plugins: Vec<String>,
    step_limit: Option<usize>,
}

impl Recipe {
    /// Builds the pipeline as the command line does: the pipeline (a plugin of a pipeline file
    /// that fails to load is an error), the plugins, then the scripts.
    fn build(&self) -> Result<LibPipeline, String> {
        let mut p = match &self.source {
            Source::Embedded(name) => {
                LibPipeline::embedded(name).ok_or_else(|| format!("no pipeline `{name}`"))?
            }
            Source::File(path) => {
                LibPipeline::from_file(Path::new(path)).map_err(|e| e.to_string())?
            }
            Source::Ron { text, name } => {
                LibPipeline::from_ron(text, name).map_err(|e| e.to_string())?
            }
        };
        if let Some(first) = p.plugin_failures().first() {
            let more = p.plugin_failures().len() - 1;
            return Err(match more {
                0 => first.clone(),
                _ => format!("{first} (and {more} more plugins that do not load)"),
            });
        }
        for file in &self.plugins {
            p.add_plugin(Path::new(file)).map_err(|e| e.to_string())?;
        }
        for file in &self.scripts {
            let t = ScriptTechnique::load(Path::new(file)).map_err(|e| e.to_string())?;
            p.add_technique(Box::new(t))
                .map_err(|e| format!("{file}: {e}"))?;
        }
        if let Some(limit) = self.step_limit {
            p.set_step_limit(limit);
        }
        Ok(p)
    }
}

/// A technique of a pipeline, as `lapiz techniques` lists it.
#[pyclass(frozen, module = "lapiz._lapiz", get_all)]
pub struct Technique {
    /// The id, e.g. `naked-pair`.
    id: String,
    /// The display name, e.g. `Naked Pair`.
    name: String,
    /// The difficulty on Sudoku Explainer's scale (the lowest its steps get).
    difficulty: f64,
    /// `built-in`, or the script's or plugin's path.
    origin: String,
}

#[pymethods]
impl Technique {
    fn __repr__(&self) -> String {
        format!(
            "Technique(id={}, name={}, difficulty={}, origin={})",
            py_repr(&self.id),
            py_repr(&self.name),
            self.difficulty,
            py_repr(&self.origin)
        )
    }
}

/// A list of strings as Python's `repr` writes it.
fn py_list(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|s| py_repr(s)).collect();
    format!("[{}]", items.join(", "))
}

/// A difficulty as Python shows it: the tenth the command line prints.
pub fn tenth(d: f32) -> f64 {
    format!("{d:.1}").parse().unwrap_or(f64::from(d))
}

/// An ordered list of techniques and the solve settings: `Pipeline("default")`,
/// `Pipeline("se")`, `Pipeline("path/to/pipeline.ron")`, with `techniques=[script, ...]` and
/// `plugins=[library, ...]`.
#[pyclass(frozen, module = "lapiz._lapiz")]
pub struct Pipeline {
    recipe: Recipe,
    inner: Arc<LibPipeline>,
}

impl Pipeline {
    /// The library's pipeline.
    pub fn inner(&self) -> &Arc<LibPipeline> {
        &self.inner
    }

    fn from_recipe(recipe: Recipe) -> PyResult<Pipeline> {
        let plain =
            recipe.scripts.is_empty() && recipe.plugins.is_empty() && recipe.step_limit.is_none();
        let inner = match (&recipe.source, plain) {
            (Source::Embedded(name), true) => embedded(name)
                .ok_or_else(|| error(Kind::Pipeline, format!("no pipeline `{name}`")))?,
            _ => Arc::new(recipe.build().map_err(|e| error(Kind::Pipeline, e))?),
        };
        Ok(Pipeline { recipe, inner })
    }
}

/// The embedded pipelines, each built once per process.
fn embedded(name: &str) -> Option<Arc<LibPipeline>> {
    static DEFAULT: OnceLock<Arc<LibPipeline>> = OnceLock::new();
    static SE: OnceLock<Arc<LibPipeline>> = OnceLock::new();
    let cell = match name {
        "default" => &DEFAULT,
        "se" => &SE,
        _ => return None,
    };
    let p =
        cell.get_or_init(|| Arc::new(LibPipeline::embedded(name).expect("an embedded pipeline")));
    Some(Arc::clone(p))
}

/// The pipeline a function's `pipeline` argument names: a `Pipeline`, a name or path, or
/// `None` for `fallback` (`default` to solve, `se` to rate, as the command line does).
pub fn resolve(arg: Option<&Bound<'_, PyAny>>, fallback: &str) -> PyResult<Arc<LibPipeline>> {
    match arg {
        None => Ok(embedded(fallback).expect("an embedded pipeline")),
        Some(obj) if obj.is_none() => Ok(embedded(fallback).expect("an embedded pipeline")),
        Some(obj) => {
            if let Ok(p) = obj.cast::<Pipeline>() {
                return Ok(Arc::clone(&p.get().inner));
            }
            let name: String = obj
                .call_method0("__fspath__")
                .and_then(|p| p.extract())
                .or_else(|_| obj.extract())
                .map_err(|_| {
                    error(
                        Kind::Pipeline,
                        "a pipeline is a Pipeline, a name (`default`, `se`) or a RON file's path",
                    )
                })?;
            Ok(Arc::clone(
                &Pipeline::new(&name, Vec::new(), Vec::new(), None)?.inner,
            ))
        }
    }
}

/// [`resolve`], with the step limit set to `limit` (a hint needs one step): the pipeline is
/// built again from its recipe.
pub fn resolve_with_step_limit(
    arg: Option<&Bound<'_, PyAny>>,
    fallback: &str,
    limit: usize,
) -> PyResult<Arc<LibPipeline>> {
    let recipe = match arg {
        Some(obj) if !obj.is_none() => match obj.cast::<Pipeline>() {
            Ok(p) => p.get().recipe.clone(),
            Err(_) => {
                let name = path_text(obj)?;
                Pipeline::new(&name, Vec::new(), Vec::new(), None)?
                    .recipe
                    .clone()
            }
        },
        _ => Recipe {
            source: Source::Embedded(fallback.to_string()),
            scripts: Vec::new(),
            plugins: Vec::new(),
            step_limit: None,
        },
    };
    let recipe = Recipe {
        step_limit: Some(limit),
        ..recipe
    };
    Ok(Pipeline::from_recipe(recipe)?.inner)
}

/// A path argument as a string (`str` or `os.PathLike`).
fn path_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let os = obj.py().import("os")?;
    os.call_method1("fspath", (obj,))?.extract()
}

fn paths(items: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(items) = items else {
        return Ok(Vec::new());
    };
    if items.is_instance_of::<pyo3::types::PyString>() {
        return Ok(vec![path_text(items)?]);
    }
    items.try_iter()?.map(|i| path_text(&i?)).collect()
}

#[pymethods]
impl Pipeline {
    /// `name` is `default` (lapiz's own), `se` (Sudoku Explainer's techniques) or a RON
    /// pipeline file (a file named like an embedded pipeline is given with its folder:
    /// `./default`). `techniques` adds technique scripts, `plugins` plugin libraries, each in
    /// difficulty order; `step_limit` overrides the pipeline's.
    #[new]
    #[pyo3(signature = (name = None, techniques = None, plugins = None, step_limit = None))]
    fn py_new(
        name: Option<&Bound<'_, PyAny>>,
        techniques: Option<&Bound<'_, PyAny>>,
        plugins: Option<&Bound<'_, PyAny>>,
        step_limit: Option<usize>,
    ) -> PyResult<Pipeline> {
        let name = match name {
            Some(n) if !n.is_none() => path_text(n)?,
            _ => "default".to_string(),
        };
        Pipeline::new(&name, paths(techniques)?, paths(plugins)?, step_limit)
    }

    /// A pipeline from RON text (the format of a pipeline file); `name` is what its errors
    /// call it.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<string>".to_string(), techniques = None, plugins = None, step_limit = None))]
    fn from_ron(
        text: String,
        name: String,
        techniques: Option<&Bound<'_, PyAny>>,
        plugins: Option<&Bound<'_, PyAny>>,
        step_limit: Option<usize>,
    ) -> PyResult<Pipeline> {
        Pipeline::from_recipe(Recipe {
            source: Source::Ron { text, name },
            scripts: paths(techniques)?,
            plugins: paths(plugins)?,
            step_limit,
        })
    }

    /// The pipeline's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// The technique ids in order.
    #[getter]
    fn ids(&self) -> Vec<String> {
        self.inner.ids()
    }

    /// The techniques in order (id, name, difficulty, origin).
    #[getter]
    fn techniques(&self) -> Vec<Technique> {
        self.inner
            .techniques()
            .iter()
            .map(|t| Technique {
                id: t.id().to_string(),
                name: t.name().to_string(),
                difficulty: tenth(t.difficulty()),
                origin: t.origin().to_string(),
            })
            .collect()
    }

    /// The most steps a solve takes before it stops.
    #[getter]
    fn step_limit(&self) -> usize {
        self.inner.step_limit()
    }

    /// Whether every step is checked against the solution before it is applied.
    #[getter]
    fn verify(&self) -> bool {
        self.inner.verify()
    }

    /// What the pipeline file's loading warned about.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings().to_vec()
    }

    fn __len__(&self) -> usize {
        self.inner.techniques().len()
    }

    fn __repr__(&self) -> String {
        let source = match &self.recipe.source {
            Source::Embedded(n) | Source::File(n) => py_repr(n),
            Source::Ron { name, .. } => format!("<RON {}>", py_repr(name)),
        };
        let mut extra = String::new();
        if !self.recipe.scripts.is_empty() {
            extra.push_str(&format!(", techniques={}", py_list(&self.recipe.scripts)));
        }
        if !self.recipe.plugins.is_empty() {
            extra.push_str(&format!(", plugins={}", py_list(&self.recipe.plugins)));
        }
        if let Some(l) = self.recipe.step_limit {
            extra.push_str(&format!(", step_limit={l}"));
        }
        format!("Pipeline({source}{extra})")
    }

    /// Pickles as its recipe: the receiving process loads the same files (they must be there).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let r = &slf.get().recipe;
        let (kind, a, b) = match &r.source {
            Source::Embedded(n) => ("embedded", n.clone(), String::new()),
            Source::File(p) => ("file", p.clone(), String::new()),
            Source::Ron { text, name } => ("ron", text.clone(), name.clone()),
        };
        let restore = py.get_type::<Pipeline>().getattr("_restore")?;
        let args = (
            kind,
            a,
            b,
            r.scripts.clone(),
            r.plugins.clone(),
            r.step_limit,
        );
        PyTuple::new(py, [restore.into_any(), args.into_pyobject(py)?.into_any()])
    }

    #[staticmethod]
    fn _restore(
        kind: &str,
        a: String,
        b: String,
        scripts: Vec<String>,
        plugins: Vec<String>,
        step_limit: Option<usize>,
    ) -> PyResult<Pipeline> {
        let source = match kind {
            "embedded" => Source::Embedded(a),
            "file" => Source::File(a),
            _ => Source::Ron { text: a, name: b },
        };
        Pipeline::from_recipe(Recipe {
            source,
            scripts,
            plugins,
            step_limit,
        })
    }
}

impl Pipeline {
    /// The pipeline `name` names (embedded or a file), with scripts and plugins.
    pub fn new(
        name: &str,
        scripts: Vec<String>,
        plugins: Vec<String>,
        step_limit: Option<usize>,
    ) -> PyResult<Pipeline> {
        let source = if LibPipeline::EMBEDDED.contains(&name) {
            Source::Embedded(name.to_string())
        } else {
            Source::File(name.to_string())
        };
        Pipeline::from_recipe(Recipe {
            source,
            scripts,
            plugins,
            step_limit,
        })
    }
}

//! Raising the package's exceptions (defined in Python, `lapiz/_errors.py`, so that they can
//! also derive from `ValueError` and pickle by name).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The exception classes of `lapiz._errors`.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A puzzle text that cannot be read (`ParseError`).
    Parse,
    /// A puzzle that reads but is not a proper puzzle (`InvalidPuzzleError`).
    Invalid,
    /// A pipeline, script or plugin that does not load (`PipelineError`).
    Pipeline,
    /// A generation target not reached (`GenerateError`).
    Generate,
    /// Anything else lapiz refuses (`LapizError`).
    Other,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::Parse => "ParseError",
            Kind::Invalid => "InvalidPuzzleError",
            Kind::Pipeline => "PipelineError",
            Kind::Generate => "GenerateError",
            Kind::Other => "LapizError",
        }
    }

    /// The name an error record gives its kind (`ErrorRecord.kind`).
    pub fn record_name(self) -> &'static str {
        match self {
            Kind::Parse => "parse",
            Kind::Invalid => "invalid",
            Kind::Pipeline => "pipeline",
            Kind::Generate => "generate",
            Kind::Other => "input",
        }
    }

    /// The kind named [`Kind::record_name`].
    pub fn from_record_name(name: &str) -> Kind {
        match name {
            "parse" => Kind::Parse,
            "invalid" => Kind::Invalid,
            "pipeline" => Kind::Pipeline,
            "generate" => Kind::Generate,
            _ => Kind::Other,
        }
    }
}

/// The exception of `kind` with `message`.
pub fn error(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        match py
            .import("lapiz._errors")
            .and_then(|m| m.getattr(kind.class_name()))
        {
            Ok(class) => match class.call1((message.clone(),)) {
                Ok(instance) => PyErr::from_value(instance),
                Err(e) => e,
            },
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

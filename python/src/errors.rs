//! How rulesc's errors become the exceptions of the bindings (`exceptions.rs`): a policy
//! with errors, or a path that cannot be read, is a `PolicyError` carrying its diagnostics.

use pyo3::prelude::*;
use rulesc::{Diagnostics, LoadError};
use serde_json::Value as Json;

use crate::exceptions::PolicyError;
use crate::json;

/// The `PolicyError` of a policy with errors: its message names the first error
pub(crate) fn invalid_policy(py: Python<'_>, diagnostics: &Diagnostics) -> PyErr {
    let list = diagnostic_list(diagnostics);
    let errors: Vec<&Json> = list
        .iter()
        .filter(|diagnostic| diagnostic.get("severity") == Some(&Json::from("error")))
        .collect();
    let message = match errors.split_first() {
        Some((first, [])) => describe(first),
        Some((first, [_])) => format!("{} (and 1 more error)", describe(first)),
        Some((first, rest)) => format!("{} (and {} more errors)", describe(first), rest.len()),
        None => "the policy has errors".to_owned(),
    };
    policy_error(py, message, &Json::Array(list))
}

/// The `PolicyError` of a path that could not be read: no diagnostics
pub(crate) fn unreadable(py: Python<'_>, err: &LoadError) -> PyErr {
    policy_error(py, err.to_string(), &Json::Array(Vec::new()))
}

/// Each diagnostic as `rulesc check --format json` writes it
pub(crate) fn diagnostic_list(diagnostics: &Diagnostics) -> Vec<Json> {
    match serde_json::from_str::<Json>(&diagnostics.to_json()) {
        Ok(Json::Object(mut document)) => match document.remove("diagnostics") {
            Some(Json::Array(list)) => list,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// `policy.rules:1:21: E012 field `tool` is not visible in `before_step``
fn describe(diagnostic: &Json) -> String {
    let text = |key: &str| {
        diagnostic
            .get(key)
            .map(|value| match value {
                Json::String(text) => text.clone(),
                other => other.to_string(),
            })
            .unwrap_or_default()
    };
    let place = match diagnostic.get("line") {
        Some(Json::Number(_)) => format!("{}:{}:{}: ", text("file"), text("line"), text("column")),
        _ => String::new(),
    };
    format!("{place}{} {}", text("code"), text("message"))
}

/// A `PolicyError` carrying `diagnostics`; if they cannot be attached, the error says so
fn policy_error(py: Python<'_>, message: String, diagnostics: &Json) -> PyErr {
    let err = PolicyError::new_err(message);
    let attached = json::to_python(py, diagnostics)
        .and_then(|list| err.value(py).setattr("diagnostics", list));
    match attached {
        Ok(()) => err,
        Err(attach_err) => attach_err,
    }
}

//! Opening a plugin library in this process: with libloading under the `plugins` feature;
//! without it, every load is [`PluginError::Unavailable`].

use std::path::Path;

use lapiz_plugin_api::abi::LpEntryFn;

use super::PluginError;

/// Opens the library at `canonical` (never closed: its function pointers and strings stay
/// valid for the process) and finds its entry function.
#[cfg(feature = "plugins")]
pub(super) fn entry_of(canonical: &Path, shown: &str) -> Result<LpEntryFn, PluginError> {
    let library = open_library(canonical).map_err(|e| PluginError::NotALibrary {
        path: shown.to_string(),
        message: e.to_string(),
    })?;
    let entry: LpEntryFn = {
        // SAFETY: the symbol's type is fixed by the ABI; a library that exports the name with
        // another type breaks the ABI contract, which loading a plugin trusts.
        let symbol =
            unsafe { library.get::<LpEntryFn>(lapiz_plugin_api::abi::LP_ENTRY_SYMBOL.as_bytes()) }
                .map_err(|e| PluginError::NoEntry {
                    path: shown.to_string(),
                    symbol: lapiz_plugin_api::abi::LP_ENTRY_SYMBOL,
                    message: e.to_string(),
                })?;
        *symbol
    };
    std::mem::forget(library);
    Ok(entry)
}

/// Without the `plugins` feature no library is opened.
#[cfg(not(feature = "plugins"))]
pub(super) fn entry_of(_canonical: &Path, shown: &str) -> Result<LpEntryFn, PluginError> {
    Err(unavailable(shown))
}

/// The error of a build without the `plugins` feature.
pub(super) fn unavailable(shown: &str) -> PluginError {
    PluginError::Unavailable {
        path: shown.to_string(),
    }
}

#[cfg(all(feature = "plugins", unix))]
fn open_library(path: &Path) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
    // SAFETY: loading runs the library's initialisers; a plugin is trusted code in that
    // respect (docs/plugins.md says so). RTLD_NOW resolves every symbol at load time.
    unsafe { Library::open(Some(path), RTLD_NOW | RTLD_LOCAL) }.map(Into::into)
}

#[cfg(all(feature = "plugins", not(unix)))]
fn open_library(path: &Path) -> Result<libloading::Library, libloading::Error> {
    // SAFETY: as above; Windows resolves imports at load time.
    unsafe { libloading::Library::new(path) }
}

//! Files lapiz writes whole (`solve --trace`, `--html`): written to a temporary file in the
//! same folder and renamed over the target once every byte is written, so a full disk or any
//! other failure leaves no truncated file (the temporary one is removed, an existing target is
//! kept as it was). A target that is not a regular file (a device such as `/dev/stdout`, a
//! FIFO, a symbolic link) is written in place, as renaming over it would replace it.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Writes `bytes` to `path` whole or not at all (see the module's doc).
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    write_whole_with(path, |w| w.write_all(bytes))
}

/// [`write_whole`] with the contents written by `write`; an error it returns is the error of
/// the whole write.
pub fn write_whole_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let what = || format!("cannot write {}", path.display());
    let in_place = std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_file());
    if in_place {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(path)
            .with_context(what)?;
        write(&mut file).with_context(what)?;
        return file.flush().with_context(what);
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".lapiz-").suffix(".part");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // as `File::create` makes a file: 0666 less the umask
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // dropped on every error path: the temporary file goes with it
    let mut temp = builder.tempfile_in(dir).with_context(what)?;
    write(temp.as_file_mut()).with_context(what)?;
    temp.as_file_mut().flush().with_context(what)?;
    temp.as_file().sync_all().with_context(what)?;
    temp.persist(path).map_err(|e| e.error).with_context(what)?;
    Ok(())
}

/// Whether two output paths name one file: equal, or the same name in the same folder once
/// the folders are resolved.
pub fn same_target(a: &Path, b: &Path) -> bool {
    fn resolved(p: &Path) -> Option<PathBuf> {
        if let Ok(full) = std::fs::canonicalize(p) {
            return Some(full);
        }
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(dir).ok()?.join(p.file_name()?))
    }
    a == b || matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the files in `dir`.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_failed_write_leaves_no_file_and_keeps_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("page.html");
        let failing = |w: &mut dyn Write| {
            w.write_all(b"<html>half a page")?;
            Err(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                "No space left on device",
            ))
        };
        let e = write_whole_with(&target, failing).unwrap_err();
        assert!(format!("{e:#}").contains("No space left"), "{e:#}");
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
        std::fs::write(&target, "old").unwrap();
        assert!(write_whole_with(&target, failing).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(names(dir.path()), ["page.html"]);
        write_whole(&target, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(names(dir.path()), ["page.html"]);
    }

    #[test]
    fn paths_naming_one_file_are_told() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("x.ron");
        let b = dir.path().join(".").join("x.ron");
        assert!(same_target(&a, &b));
        assert!(!same_target(&a, &dir.path().join("y.ron")));
    }
}

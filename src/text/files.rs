//! Reading the files lapiz loads whole (pipelines, scripts, regression libraries): only
//! regular files, never more than a limit. A FIFO or a device (`/dev/zero`) is refused
//! without blocking on it, and a file larger than the limit is refused after reading at most
//! one byte past it, so no input can make lapiz wait forever or fill its memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Opens `path` for reading without blocking (a FIFO with no writer would block `open`) and
/// refuses what is not a regular file: a FIFO, a device, a folder. A build without the
/// `files` feature reads no file: an error of kind [`io::ErrorKind::Unsupported`] says so.
pub fn open_regular(path: &Path) -> io::Result<File> {
    files_readable()?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // no effect on a regular file; lets a FIFO open at once, to be refused below
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a device or a folder is not read)",
        ));
    }
    Ok(file)
}

/// The entries of the folder `path`; without the `files` feature, as [`open_regular`], an
/// error.
pub fn read_folder(path: &Path) -> io::Result<std::fs::ReadDir> {
    files_readable()?;
    std::fs::read_dir(path)
}

/// An error of kind [`io::ErrorKind::Unsupported`] in a build without the `files` feature.
fn files_readable() -> io::Result<()> {
    if cfg!(feature = "files") {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "this build of lapiz reads no files (built without the `files` feature)",
    ))
}

/// The bytes of the regular file `path` ([`open_regular`]), or an error of kind
/// [`io::ErrorKind::FileTooLarge`] when it holds more than `limit` bytes.
pub fn read_capped(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    // at most one byte past the limit: the file may have grown since it was opened
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("larger than the limit of {limit} bytes"),
        ));
    }
    Ok(bytes)
}

/// [`read_capped`] as UTF-8 text; text that is not UTF-8 is an error of kind
/// [`io::ErrorKind::InvalidData`] naming where.
pub fn read_text_capped(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_capped(path, limit)?).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not UTF-8 ({})", e.utf8_error()),
        )
    })
}

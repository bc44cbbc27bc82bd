//! Streaming, parallel processing of puzzle files: read a chunk of lines, process it on all
//! cores (rayon), write each result as soon as every earlier one is written (input order),
//! read the next chunk. Memory stays flat however large the file; a progress bar shows on
//! stderr when stderr is a terminal. How results are written in order and flushed, on one
//! thread or several, is `output`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use lapiz::text::Puzzle;
use lapiz::text::lines::{excerpt, line_text};
use lapiz::text::printable;

mod output;
use output::with_output;

/// Puzzle lines per chunk when several workers share it: enough to keep every core busy,
/// small enough to keep memory flat.
pub const CHUNK: usize = 4096;

/// Puzzle lines per chunk with one worker, which needs no more than one line at a time: a
/// chunk of [`CHUNK`] lines held about 700 KB (its items and their texts), 170 pages the
/// kernel had to map and clear, 1% of counting a file of fast puzzles.
pub const ONE_WORKER_CHUNK: usize = 64;

/// The longest line read, in bytes, not counting its line end (a puzzle line or a HoDoKu library
/// line is far shorter); the rest of a longer line is skipped without being held. The
/// library's, which Python's reader shares.
pub use lapiz::text::lines::MAX_LINE;

/// The size of the buffers between lapiz and its input file and stdout, in bytes: a file of
/// puzzles is read (and a batch's results written) in a twelfth of the system calls that
/// std's default 8 KiB takes.
pub const IO_BUFFER: usize = 64 * 1024;

/// The most worker threads lapiz starts (`--threads`, `RAYON_NUM_THREADS`): more gain nothing
/// on any machine lapiz runs on and only cost the time and memory of starting them.
pub const MAX_THREADS: usize = 256;

/// The worker threads `--threads` asked for.
static REQUESTED_THREADS: OnceLock<usize> = OnceLock::new();

/// rayon's global pool, once started: its number of threads, or why it could not start.
static POOL: OnceLock<Result<usize, String>> = OnceLock::new();

/// Reads `--threads`: a whole number from 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a number of threads from 1 to {MAX_THREADS}"
        )),
    }
}

/// Sets the number of worker threads the pool starts with (`--threads`).
pub fn request_threads(n: usize) {
    let _ = REQUESTED_THREADS.set(n);
}

/// The number of worker threads, starting rayon's pool on the first call: `--threads`, else
/// `RAYON_NUM_THREADS` (at most [`MAX_THREADS`]), else one per core. One worker is the calling
/// thread ([`output::Output::in_order`]), so no pool starts then. Only commands with a batch to run call it,
/// so a single puzzle never starts threads.
pub fn workers() -> Result<usize> {
    let pool = POOL.get_or_init(|| {
        let n = match REQUESTED_THREADS.get() {
            Some(&n) => n,
            None => match std::env::var("RAYON_NUM_THREADS").ok() {
                Some(v) => match v.trim().parse::<usize>() {
                    Ok(n) if n > MAX_THREADS => {
                        return Err(format!(
                            "RAYON_NUM_THREADS={n}: lapiz starts at most {MAX_THREADS} threads"
                        ));
                    }
                    Ok(n) => n,
                    // unset in effect: one thread per core, as rayon reads it
                    Err(_) if v.trim().is_empty() => 0,
                    Err(_) => {
                        return Err(format!(
                            "RAYON_NUM_THREADS={}: not a number of threads (0 for one per \
                             core, at most {MAX_THREADS})",
                            printable(&v)
                        ));
                    }
                },
                None => 0,
            },
        };
        // one per core, as rayon reads 0; known here so that one core starts no pool either
        let n = match n {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        if n == 1 {
            // one worker is the calling thread (see `output::Output`): no pool to start
            return Ok(1);
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.min(MAX_THREADS))
            .build_global()
            .map_err(|e| format!("cannot start {n} threads: {e}"))?;
        Ok(rayon::current_num_threads())
    });
    pool.clone().map_err(anyhow::Error::msg)
}

/// `FILE:LINE`, naming a line of an input file in a diagnostic; the file's name is escaped
/// ([`printable`]) as everything else from outside is.
pub fn line_ref(path: &Path, line: usize) -> String {
    format!("{}:{line}", printable(&path.display().to_string()))
}

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// A puzzle file or stdin, buffered, that can tell whether more input is ready without
/// waiting for it (a pipe, a FIFO or a terminal whose writer is slow).
pub struct Input {
    reader: BufReader<Box<dyn Read>>,
    /// The descriptor to ask, for input that is not a regular file (Unix).
    stream: Option<i32>,
}

impl Input {
    /// Whether reading a line now would not wait on a writer: data is buffered, or the input
    /// is a regular file, or the descriptor has data (or its end) ready.
    fn ready(&self) -> bool {
        if !self.reader.buffer().is_empty() {
            return true;
        }
        #[cfg(unix)]
        if let Some(fd) = self.stream {
            let mut poll = libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one pollfd, owned here, and a zero timeout: poll only reports.
            return unsafe { libc::poll(&mut poll, 1, 0) } != 0;
        }
        true
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.reader.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.reader.consume(amount)
    }
}

/// Opens a file, or stdin for `-`.
pub fn open_input(path: &Path) -> Result<Input> {
    if path.as_os_str() == "-" {
        if super::stdio::stdin_closed() {
            anyhow::bail!("cannot read -: standard input is closed");
        }
        let regular = stdin_is_regular();
        return Ok(Input {
            reader: BufReader::with_capacity(IO_BUFFER, Box::new(io::stdin())),
            stream: (!regular).then_some(0),
        });
    }
    let f = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let regular = f.metadata().is_ok_and(|m| m.is_file());
    #[cfg(unix)]
    let stream = {
        use std::os::fd::AsRawFd;
        (!regular).then(|| f.as_raw_fd())
    };
    #[cfg(not(unix))]
    let stream = {
        let _ = regular;
        None
    };
    Ok(Input {
        reader: BufReader::with_capacity(IO_BUFFER, Box::new(f)),
        stream,
    })
}

/// Whether stdin is a regular file (`< file`), which never makes a reader wait.
fn stdin_is_regular() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .map(File::from)
            .and_then(|f| f.metadata())
            .is_ok_and(|m| m.is_file())
    }
    #[cfg(not(unix))]
    true
}

pub use lapiz::text::lines::puzzle_of_line;

/// The most bytes of an over-long line skipped in search of its end: past them the line is
/// taken to end there (an input without line ends, such as `/dev/zero`, is then reported a
/// line at a time instead of read without end).
pub const MAX_SKIP: usize = 64 * MAX_LINE;

/// Reads one line of bytes into `buf`, holding at most `cap` bytes and its line end: returns
/// the bytes consumed (0 at the end of the input) and the line's length without its line end
/// (`\n` or `\r\n`); when that is above `cap`, `buf` holds only the line's start. A line is
/// cut after [`MAX_SKIP`] bytes.
pub fn read_capped_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<(usize, usize)> {
    buf.clear();
    let hold = cap + 2;
    let mut consumed = 0usize;
    // The length without the line end: when the whole line is held, its line end is known.
    let length = |buf: &Vec<u8>, consumed: usize, ended: bool| {
        if !ended {
            return consumed;
        }
        let whole = buf.len() == consumed;
        consumed
            - if whole && buf.ends_with(b"\r\n") {
                2
            } else {
                1
            }
    };
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok((consumed, length(buf, consumed, false)));
        }
        let (part, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        // an over-long line without an end in sight: cut (its length says it is too long)
        let part = &part[..part.len().min(MAX_SKIP.saturating_sub(consumed).max(1))];
        let done = done || consumed + part.len() >= MAX_SKIP;
        let room = hold.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let n = part.len();
        input.consume(n);
        consumed += n;
        if done && consumed >= MAX_SKIP && !buf.ends_with(b"\n") {
            return Ok((consumed, consumed));
        }
        if done {
            return Ok((consumed, length(buf, consumed, true)));
        }
    }
}

/// Every line of `input` as the batch reads them ([`read_capped_line`]): its 1-based number
/// and its text, or why it cannot be read (too long, not UTF-8); an error of the input ends it.
pub fn capped_lines(
    mut input: impl BufRead,
) -> impl Iterator<Item = io::Result<(usize, Result<String, String>)>> {
    let (mut buf, mut number) = (Vec::new(), 0usize);
    std::iter::from_fn(
        move || match read_capped_line(&mut input, &mut buf, MAX_LINE) {
            Err(e) => Some(Err(e)),
            Ok((0, _)) => None,
            Ok((_, length)) => {
                number += 1;
                let text =
                    line_text(&buf, length).map(|t| t.trim_end_matches(['\n', '\r']).to_string());
                Some(Ok((number, text)))
            }
        },
    )
}

/// A progress bar on stderr, hidden when stderr is not a terminal. With `len` (the total,
/// in bytes for a file or items for `generate`) a bar drawn with `template`, else a spinner
/// drawn with it.
pub fn progress(len: Option<u64>, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match len {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    let bar = bar.with_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// One puzzle line of the input: its 1-based line number and the puzzle text.
pub struct Item {
    /// 1-based line number in the file.
    pub line: usize,
    /// Why the line cannot be read (not UTF-8, too long), if so; `text` is then a printable
    /// excerpt of it.
    pub problem: Option<String>,
    /// The puzzle text ([`puzzle_of_line`]).
    pub text: String,
    /// The line's length in bytes.
    pub bytes: u64,
}

/// A puzzle grid spread over several lines of the input, being read: its first line's number,
/// its text so far, the rows still to come and the bytes read.
struct OpenGrid {
    line: usize,
    /// The line of its last row so far.
    last: usize,
    text: String,
    width: usize,
    rows_left: usize,
    bytes: u64,
}

impl OpenGrid {
    /// Why the grid, cut short, is not read: its size, its lines and the rows they hold.
    fn cut_short(&self) -> String {
        let n = self.width;
        let rows = n - self.rows_left;
        let lines = if self.last == self.line {
            format!("line {} holds", self.line)
        } else {
            format!("lines {}-{} hold", self.line, self.last)
        };
        format!("a {n}x{n} grid cut short: {lines} {rows} of its {n} rows")
    }

    /// Reports the grid, cut short, as the chunk's next item: an error record naming its
    /// lines, its first row as the excerpt.
    fn report_cut(&self, chunk: &mut Vec<Item>, used: &mut usize) {
        let first = self.text.lines().next().unwrap_or_default();
        next_item(
            chunk,
            used,
            self.line,
            Some(self.cut_short()),
            first,
            self.bytes,
        );
    }
}

/// Reads a line that is not inside a grid: a puzzle by itself becomes the chunk's next item; the
/// first row of a grid over several lines opens that grid (returned).
fn start_item(
    text: &str,
    line: usize,
    bytes: u64,
    chunk: &mut Vec<Item>,
    used: &mut usize,
) -> Option<OpenGrid> {
    // an 81-character line is a whole 9x9 puzzle: the common case, told without reading it
    let rows = if text.len() == 81 {
        1
    } else {
        Puzzle::lines_of(text)
    };
    match rows {
        1 => {
            next_item(chunk, used, line, None, text, bytes);
            None
        }
        rows => Some(OpenGrid {
            line,
            last: line,
            text: text.to_string(),
            width: rows,
            rows_left: rows - 1,
            bytes,
        }),
    }
}

/// Fills the chunk's next item (`chunk[*used]`), reusing the allocation of the text it held in
/// the chunk before.
fn next_item(
    chunk: &mut Vec<Item>,
    used: &mut usize,
    line: usize,
    problem: Option<String>,
    text: &str,
    bytes: u64,
) {
    if *used == chunk.len() {
        chunk.push(Item {
            line,
            problem: None,
            text: String::new(),
            bytes,
        });
    }
    let item = &mut chunk[*used];
    item.line = line;
    item.problem = problem;
    item.bytes = bytes;
    item.text.clear();
    item.text.push_str(text);
    *used += 1;
}

/// Runs `work` on every puzzle line of `path` (`-` for stdin) in parallel, a chunk at a time,
/// and hands each result to `emit` with `out` in input order as soon as its turn comes (see
/// [`output::Output::in_order`]), with the progress bar (use `bar.suspend` to write to stderr). A line that
/// cannot be read (not UTF-8, longer than [`MAX_LINE`]) becomes `unreadable(excerpt, why)` in
/// its place, and the run goes on.
pub fn for_each_puzzle<T: Send, W: Write + Send>(
    path: &Path,
    out: &mut W,
    work: impl Fn(&str) -> T + Sync,
    unreadable: impl Fn(&str, &str) -> T + Sync,
    emit: impl FnMut(&mut W, &Item, T, &ProgressBar) -> Result<()>,
) -> Result<()> {
    for_each_puzzle_up_to(path, None, out, work, unreadable, emit)
}

/// [`for_each_puzzle`] over the first `limit` puzzle lines only (all of them with `None`);
/// the rest of the input is not read.
pub fn for_each_puzzle_up_to<T: Send, W: Write + Send>(
    path: &Path,
    limit: Option<usize>,
    out: &mut W,
    work: impl Fn(&str) -> T + Sync,
    unreadable: impl Fn(&str, &str) -> T + Sync,
    mut emit: impl FnMut(&mut W, &Item, T, &ProgressBar) -> Result<()>,
) -> Result<()> {
    let limit = limit.unwrap_or(usize::MAX);
    let mut input = open_input(path)?;
    let len = if path.as_os_str() == "-" {
        None
    } else {
        std::fs::metadata(path).ok().map(|m| m.len())
    };
    let bar = match len {
        Some(_) => progress(
            len,
            "{elapsed_precise} [{bar:40}] {percent}% of {binary_total_bytes} (eta {eta}) {msg}",
        ),
        None => progress(None, "{elapsed_precise} {spinner} {pos} puzzles"),
    };
    // The bar moves as each puzzle is done: by its line's bytes for a file, by one for stdin.
    let step = |item: &Item| if len.is_some() { item.bytes } else { 1 };
    // Asked once: a hidden bar stays hidden, and asking takes a lock (0.5% of counting a file
    // of fast puzzles when asked for each).
    let drawn = !bar.is_hidden();
    let mut line: Vec<u8> = Vec::with_capacity(256);
    let (mut line_number, mut bytes, mut done) = (0usize, 0u64, 0u64);
    // The chunk's items are reused from one chunk to the next (their texts' allocations
    // with them): `used` of them hold this chunk's lines.
    let mut chunk: Vec<Item> = Vec::new();
    // A grid spread over several lines, until its last row is read.
    let mut open: Option<OpenGrid> = None;
    with_output(out, |out| {
        let chunk_len = out.chunk();
        loop {
            let mut used = 0;
            let mut eof = false;
            while used < chunk_len {
                if done + used as u64 >= limit as u64 {
                    eof = true;
                    break;
                }
                // a pipe whose writer has nothing more yet: work on what came, and write out what
                // is done before waiting
                if !input.ready() {
                    if used > 0 {
                        break;
                    }
                    out.flush()?;
                }
                let (n, mut length) = read_capped_line(&mut input, &mut line, MAX_LINE)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if n == 0 {
                    // a grid cut short is reported, naming its lines
                    if let Some(g) = open.take() {
                        g.report_cut(&mut chunk, &mut used);
                    }
                    eof = true;
                    break;
                }
                bytes += n as u64;
                line_number += 1;
                if line_number == 1 && line.starts_with(BOM) {
                    // a byte-order mark is not part of the first line
                    line.drain(..BOM.len());
                    length -= BOM.len();
                }
                let mut push = |problem: Option<String>, text: &str| {
                    next_item(&mut chunk, &mut used, line_number, problem, text, n as u64)
                };
                match line_text(&line, length) {
                    Err(problem) => {
                        push(Some(problem), &excerpt(&line));
                    }
                    Ok(text) => match (puzzle_of_line(text), open.as_mut()) {
                        (None, Some(g)) => g.bytes += n as u64,
                        (None, None) => {}
                        (Some(t), _)
                            if t.chars().all(|c| c.is_whitespace() || "|-+=".contains(c)) =>
                        {
                            // a border line of a pasted grid: not a puzzle, not a row
                            if let Some(g) = open.as_mut() {
                                g.bytes += n as u64;
                            }
                        }
                        (Some(t), Some(g))
                            if !Puzzle::continues_grid(
                                &g.text.lines().collect::<Vec<_>>(),
                                t,
                                g.width,
                            ) =>
                        {
                            // not a row of the open grid: the grid is reported (cut short),
                            // and the line read on its own
                            if let Some(g) = open.take() {
                                g.report_cut(&mut chunk, &mut used);
                            }
                            open = start_item(t, line_number, n as u64, &mut chunk, &mut used);
                        }
                        (Some(t), Some(g)) => {
                            g.text.push('\n');
                            g.text.push_str(t);
                            g.bytes += n as u64;
                            g.last = line_number;
                            g.rows_left -= 1;
                            if g.rows_left == 0
                                && let Some(g) = open.take()
                            {
                                next_item(&mut chunk, &mut used, g.line, None, &g.text, g.bytes);
                            }
                        }
                        (Some(t), None) => {
                            open = start_item(t, line_number, n as u64, &mut chunk, &mut used);
                        }
                    },
                }
            }
            let items = &chunk[..used];
            out.in_order(
                used,
                |i| {
                    let item = &items[i];
                    let r = match &item.problem {
                        Some(why) => unreadable(&item.text, why),
                        None => work(&item.text),
                    };
                    if drawn {
                        bar.inc(step(item));
                    }
                    r
                },
                |out, i, r| emit(out, &items[i], r, &bar),
            )?;
            done += used as u64;
            if len.is_some() {
                // Also count comment and blank lines.
                bar.set_position(bytes);
                bar.set_message(format!("{done} puzzles"));
            }
            // after Ctrl-C, the chunk's records are out and no more is read
            if eof || super::stop::interrupted() {
                return Ok(());
            }
        }
    })?;
    bar.finish_and_clear();
    Ok(())
}

/// Runs `work` on `0..count` in parallel, `chunk` indices at a time, handing each result to
/// `emit` with `out` in index order as soon as its turn comes ([`output::Output::in_order`]); stops at the
/// first error `emit` returns.
pub fn for_each_index<T: Send, W: Write + Send>(
    count: u64,
    chunk: u64,
    out: &mut W,
    work: impl Fn(u64) -> T + Sync,
    mut emit: impl FnMut(&mut W, u64, T, &ProgressBar) -> Result<()>,
) -> Result<()> {
    let bar = progress(
        Some(count),
        "{elapsed_precise} [{bar:40}] {pos}/{len} puzzles (eta {eta})",
    );
    let mut start = 0u64;
    with_output(out, |out| {
        while start < count {
            let end = count.min(start + chunk.max(1));
            out.in_order(
                (end - start) as usize,
                |k| {
                    let r = work(start + k as u64);
                    bar.inc(1);
                    r
                },
                |out, k, r| emit(out, start + k as u64, r, &bar),
            )?;
            start = end;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::puzzle_of_line;

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn puzzle_lines_are_read_the_same_on_the_fast_path_and_off_it() {
        assert_eq!(puzzle_of_line(P), Some(P));
        assert_eq!(puzzle_of_line(&format!("{P}\r")), Some(P));
        // As read from a file, with the line end.
        assert_eq!(puzzle_of_line(&format!("{P}\n")), Some(P));
        assert_eq!(puzzle_of_line(&format!("{P}\r\n")), Some(P));
        assert_eq!(puzzle_of_line(&format!("  {P} ")), Some(P));
        assert_eq!(puzzle_of_line(&format!("{P}\t10.5 name")), Some(P));
        assert_eq!(puzzle_of_line(&format!("#{}", &P[1..])), None);
        assert_eq!(puzzle_of_line("   "), None);
        let library = format!(":{}", &P[1..]);
        assert_eq!(puzzle_of_line(&library), Some(library.as_str()));
        assert_eq!(puzzle_of_line("short"), Some("short"));
    }
}

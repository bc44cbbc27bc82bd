//! The server's connections: at most [`PER_ADDRESS`] open from one address and [`TOTAL`] in all,
//! and a connection with nothing read or written for its idle time is closed, so that idle or
//! trickling connections from one address cannot take the server from the others. A
//! connection over the address's cap is answered 429 and closed.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// Connections open at once from one address.
pub const PER_ADDRESS: usize = 128;
/// Connections open at once in all.
pub const TOTAL: usize = 1024;

/// The open connections per address.
type Counts = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// A TCP listener that keeps to the caps and closes idle connections.
pub struct Limited {
    inner: TcpListener,
    idle: Duration,
    counts: Counts,
    total: Arc<Semaphore>,
}

impl Limited {
    /// `inner`, closing connections idle for `idle`.
    pub fn new(inner: TcpListener, idle: Duration) -> Limited {
        Limited {
            inner,
            idle,
            counts: Arc::new(Mutex::new(HashMap::new())),
            total: Arc::new(Semaphore::new(TOTAL)),
        }
    }
}

/// The client's address of a connection, for `ConnectInfo`.
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

impl Connected<IncomingStream<'_, Limited>> for Peer {
    fn connect_info(stream: IncomingStream<'_, Limited>) -> Peer {
        Peer(*stream.remote_addr())
    }
}

impl Listener for Limited {
    type Io = Conn;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Conn, SocketAddr) {
        loop {
            let Ok(permit) = Arc::clone(&self.total).acquire_owned().await else {
                continue;
            };
            let (stream, addr) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                Err(_) => {
                    // out of file descriptors, or a connection reset before it was accepted
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let ip = addr.ip();
            let admitted = {
                let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
                let n = counts.entry(ip).or_insert(0);
                *n += 1;
                *n <= PER_ADDRESS
            };
            let conn = Conn {
                stream,
                idle: self.idle,
                deadline: Box::pin(tokio::time::sleep(self.idle)),
                _permit: permit,
                counts: Arc::clone(&self.counts),
                ip,
            };
            if admitted {
                return (conn, addr);
            }
            tokio::spawn(refuse(conn));
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// Answers a connection over its address's cap with a 429 and closes it (after reading what
/// the client sent, so that closing does not reset the connection under the answer).
async fn refuse(mut conn: Conn) {
    let mut buf = [0u8; 4096];
    let _ = tokio::time::timeout(Duration::from_millis(500), conn.read(&mut buf)).await;
    let body =
        format!("{{\"error\":\"too many connections from this address (at most {PER_ADDRESS})\"}}");
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = conn.write_all(answer.as_bytes()).await;
    let _ = conn.shutdown().await;
}

/// One connection: its stream, its idle deadline, and its place in the caps (given back when
/// dropped).
pub struct Conn {
    stream: TcpStream,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
    _permit: OwnedSemaphorePermit,
    counts: Counts,
    ip: IpAddr,
}

impl Drop for Conn {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

impl Conn {
    /// Something moved: the idle time starts again.
    fn moved(&mut self) {
        let next = Instant::now() + self.idle;
        self.deadline.as_mut().reset(next);
    }

    /// Whether the idle time is over (then the connection fails with `TimedOut`).
    fn idle_over(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline.as_mut().poll(cx).is_ready()
    }
}

fn timed_out<T>() -> Poll<io::Result<T>> {
    Poll::Ready(Err(io::Error::new(
        io::ErrorKind::TimedOut,
        "the connection was idle too long",
    )))
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(r) => {
                this.moved();
                Poll::Ready(r)
            }
            Poll::Pending if this.idle_over(cx) => timed_out(),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Ready(r) => {
                this.moved();
                Poll::Ready(r)
            }
            Poll::Pending if this.idle_over(cx) => timed_out(),
            Poll::Pending => Poll::Pending,
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

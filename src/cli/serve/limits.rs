//! What keeps one client, or a burst, from taking the server: a token bucket of requests per
//! client address, a cap on each client's requests in progress, CPU job slots (a semaphore
//! sized to the cores, each client held to about half of them), and a deadline per request.
//!
//! A request past its deadline is answered at once (503); its work sees the same deadline
//! (a [`Stop`](lapiz::model::Stop)) and ends within moments, freeing its job slot.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::api::ApiError;

/// The server's limits, as `lapiz serve`'s options set them.
#[derive(Clone, Debug)]
pub struct Settings {
    /// API requests per minute per client address (0: no limit).
    pub per_minute: u32,
    /// CPU jobs at once (solves, hints, ratings, generations).
    pub jobs: usize,
    /// The time a request may take, waiting for a job slot included.
    pub time_limit: Duration,
    /// Requests one client may have in progress (waiting or running).
    pub client_requests: usize,
}

/// A client's token bucket.
struct Bucket {
    tokens: f64,
    last: Instant,
}

/// One client's jobs: its own slots (about half the server's) and its requests in progress.
struct Client {
    slots: Arc<Semaphore>,
    in_progress: AtomicUsize,
}

/// The limits in force, shared by every request.
pub struct Limits {
    settings: Settings,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
    clients: Mutex<HashMap<IpAddr, Arc<Client>>>,
    jobs: Arc<Semaphore>,
}

/// Past this many clients remembered, the idle ones are forgotten.
const CLIENTS_KEPT: usize = 4096;

/// A request admitted: it counts as in progress for its client until dropped.
pub struct Admitted {
    client: Arc<Client>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.client.in_progress.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A job slot (the server's and the client's), held by the worker until it finishes.
pub struct Slot {
    _server: OwnedSemaphorePermit,
    _client: OwnedSemaphorePermit,
}

impl Limits {
    /// Limits with these settings.
    pub fn new(settings: Settings) -> Limits {
        let jobs = Arc::new(Semaphore::new(settings.jobs.max(1)));
        Limits {
            settings,
            buckets: Mutex::new(HashMap::new()),
            clients: Mutex::new(HashMap::new()),
            jobs,
        }
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Takes a token from the client's bucket (429 when empty), then counts the request in
    /// progress (429 when the client has too many).
    pub fn admit(&self, ip: IpAddr) -> Result<Admitted, ApiError> {
        self.take_token(ip)?;
        let client = {
            let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
            if clients.len() >= CLIENTS_KEPT {
                clients.retain(|_, c| Arc::strong_count(c) > 1);
            }
            let per_client = (self.settings.jobs / 2).max(1);
            Arc::clone(clients.entry(ip).or_insert_with(|| {
                Arc::new(Client {
                    slots: Arc::new(Semaphore::new(per_client)),
                    in_progress: AtomicUsize::new(0),
                })
            }))
        };
        let before = client.in_progress.fetch_add(1, Ordering::AcqRel);
        let admitted = Admitted { client };
        if before >= self.settings.client_requests {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many requests in progress from this address (at most {})",
                    self.settings.client_requests
                ),
            ));
        }
        Ok(admitted)
    }

    /// One token from the client's bucket: `per_minute` a minute, up to a burst of a sixth of
    /// that (at least 10).
    fn take_token(&self, ip: IpAddr) -> Result<(), ApiError> {
        let per_minute = self.settings.per_minute;
        if per_minute == 0 {
            return Ok(());
        }
        let capacity = f64::from((per_minute / 6).max(10));
        let rate = f64::from(per_minute) / 60.0;
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= CLIENTS_KEPT {
            buckets.retain(|_, b| {
                b.tokens + now.duration_since(b.last).as_secs_f64() * rate < capacity
            });
        }
        let b = buckets.entry(ip).or_insert(Bucket {
            tokens: capacity,
            last: now,
        });
        b.tokens = (b.tokens + now.duration_since(b.last).as_secs_f64() * rate).min(capacity);
        b.last = now;
        if b.tokens < 1.0 {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many requests from this address (at most {per_minute} a minute)"),
            ));
        }
        b.tokens -= 1.0;
        Ok(())
    }

    /// A job slot for an admitted request: the client's, then the server's, waiting at most
    /// until `deadline` (503 when none came in time).
    pub async fn slot(&self, admitted: &Admitted, deadline: Instant) -> Result<Slot, ApiError> {
        let busy = || {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy: no job slot came free in time; try again later",
            )
        };
        let deadline = tokio::time::Instant::from_std(deadline);
        let client = Arc::clone(&admitted.client.slots);
        let client = tokio::time::timeout_at(deadline, client.acquire_owned())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        let server = tokio::time::timeout_at(deadline, Arc::clone(&self.jobs).acquire_owned())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        Ok(Slot {
            _server: server,
            _client: client,
        })
    }
}

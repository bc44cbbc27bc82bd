//! `lapiz serve`: a local web server with one page (type or generate a puzzle, play it, ask for
//! hints on your own grid, step through the explained solution, see the rating) and the JSON API
//! it uses (`POST /api/solve`, `/api/hint`, `/api/rate`, `/api/generate`; `docs/openapi.yaml`).
//! axum on a tokio runtime; the library's work runs on the blocking pool under the limits of
//! `limits.rs`. See docs/serve.md.

mod api;
mod conn;
mod limits;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use clap::Args;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::args::PipelineArgs;
use super::diag;
use api::{ApiError, Pipelines};
use conn::{Limited, Peer};
use limits::{Limits, Settings};

/// Arguments of `lapiz serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines use the
    /// server (a warning says so).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Seconds a request may take, waiting for a job slot included (above 0, at most 3600).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_time_limit)]
    pub time_limit: f64,
    /// Solves, hints, ratings and generations at once (default: the cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// API requests a minute from one address (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 120)]
    pub rate_limit: u32,
    /// API requests one address may have in progress at once.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..))]
    pub client_requests: u16,
    /// The pipelines the server runs, with scripts and plugins, as `solve` (and `rate`) take
    /// them; requests can only choose among these, by name.
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// A time limit in seconds: above 0, at most an hour.
fn parse_time_limit(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds above 0 and at most 3600"
        )),
    }
}

/// The largest request body, in bytes: a puzzle with its pencil marks is under 2 KiB.
const BODY_LIMIT: usize = 64 * 1024;

/// The page: one HTML file, its style and script inline, with the solve page's drawing styles.
const PAGE_HTML: &str = include_str!("page.html");
/// The solve page's style (the frames, the grid drawing), which the page's frames use.
const FRAME_CSS: &str = include_str!("../../html/page.css");
/// The page's own style.
const PAGE_CSS: &str = include_str!("play.css");
/// The page's script, after the solve page's walker of forcing nets.
const PAGE_JS: &str = concat!(include_str!("../../html/walk.js"), include_str!("play.js"));
/// The OpenAPI description of the API, served at `/api/openapi.yaml`.
const OPENAPI: &str = include_str!("../../../docs/openapi.yaml");

/// What every request shares.
struct App {
    pipelines: Pipelines,
    limits: Limits,
    page: String,
    /// Whether requests must name this machine in `Host` (a loopback server).
    local_only: bool,
}

/// Runs `lapiz serve` until Ctrl-C.
pub fn run(args: ServeArgs, out: &mut impl Write) -> Result<ExitCode> {
    let load_pair = |fallback: &str| -> Result<_> {
        let whole = args.pipeline.load(fallback)?;
        let mut one = args.pipeline.load(fallback)?;
        one.set_step_limit(1);
        Ok((whole, one))
    };
    let pipelines = Pipelines {
        sets: vec![load_pair("default")?, load_pair("se")?],
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let settings = Settings {
        per_minute: args.rate_limit,
        jobs: args.jobs.map_or(cores, usize::from),
        time_limit: Duration::from_secs_f64(args.time_limit),
        client_requests: usize::from(args.client_requests),
    };
    let page = PAGE_HTML
        .replace("/*STYLE*/", &format!("{FRAME_CSS}\n{PAGE_CSS}"))
        .replace("/*SCRIPT*/", PAGE_JS);
    let app = Arc::new(App {
        pipelines,
        limits: Limits::new(settings.clone()),
        page,
        local_only: args.host.is_loopback(),
    });
    if !args.host.is_loopback() {
        diag(&format!(
            "warning: listening on {}: anyone who can reach this machine can use the server \
             (it has no accounts; requests are limited as docs/serve.md says)",
            args.host
        ));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .worker_threads(cores.min(4))
        // workers past their deadline still hold their job slots: a few more threads suffice
        .max_blocking_threads(settings.jobs * 2 + 4)
        .build()
        .context("cannot start the server's runtime")?;
    let served = runtime.block_on(async {
        let addr = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        // idle past any request's time limit, so that no answer being computed is cut off
        let listener = Limited::new(listener, settings.time_limit + Duration::from_secs(30));
        let url = match local.ip() {
            IpAddr::V6(ip) => format!("http://[{ip}]:{}/", local.port()),
            IpAddr::V4(ip) => format!("http://{ip}:{}/", local.port()),
        };
        writeln!(out, "lapiz serve: {url} (Ctrl-C to stop)")?;
        out.flush()?;
        if args.open {
            open_browser(&url);
        }
        axum::serve(
            listener,
            router(app).into_make_service_with_connect_info::<Peer>(),
        )
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the server stopped")
    });
    // workers still solving past their deadlines are not waited for
    runtime.shutdown_timeout(Duration::from_secs(1));
    served?;
    Ok(ExitCode::from(super::exit::OK))
}

/// The routes: the page, the API and its description; anything else is a JSON 404.
fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/openapi.yaml", get(openapi))
        .route("/api/read", post(read))
        .route("/api/solve", post(solve))
        .route("/api/hint", post(hint))
        .route("/api/rate", post(rate))
        .route("/api/generate", post(generate))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), guard))
        .with_state(app)
}

/// Opens `url` in the desktop's browser; says so on stderr when it cannot.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let started = command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        diag(&format!("warning: cannot open a browser ({e}); open {url}"));
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response =
            (self.status, axum::Json(json!({ "error": self.message }))).into_response();
        if self.status == StatusCode::TOO_MANY_REQUESTS
            || self.status == StatusCode::SERVICE_UNAVAILABLE
        {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

/// Every response: no sniffing, no framing by other sites; on a loopback server, a `Host` that
/// is not this machine (a page elsewhere reaching it through DNS rebinding) is refused.
async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if app.local_only && !local_host(request.headers()) {
        return ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers only requests for localhost or an IP address",
        )
        .into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Whether the `Host` header names localhost or an IP address (or is absent, as HTTP/1.0
/// allows).
fn local_host(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok()
}

/// `GET /`: the page. Its script and style are inline, and the policy lets it fetch nothing
/// but this server's API.
async fn page(State(app): State<Arc<App>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                 img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
                 frame-ancestors 'none'",
            ),
        ],
        app.page.clone(),
    )
        .into_response()
}

/// `GET /api/openapi.yaml`: the API's description.
async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI).into_response()
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or endpoint")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed: the API takes POST with a JSON body",
    )
}

/// One API call: admitted by the rate limits, its body read (JSON only) and checked
/// ([`api::Checked`]), then `work` on the blocking pool with a job slot, answered by the
/// deadline; the work stops at the deadline too, and its slot comes free.
async fn call<Q: DeserializeOwned + api::Checked + Send + 'static>(
    app: Arc<App>,
    ip: IpAddr,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
    work: fn(Q, &Pipelines) -> Result<String, ApiError>,
) -> Result<Response, ApiError> {
    let admitted = app.limits.admit(ip)?;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        });
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the request body must be JSON (Content-Type: application/json)",
        ));
    }
    let body = body.map_err(|e| {
        let status = e.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            format!("the request body is larger than {BODY_LIMIT} bytes")
        } else {
            format!("cannot read the request body: {}", e.body_text())
        };
        ApiError::new(status, message)
    })?;
    let request: Q = api::read(&body)?;
    let limit = app.limits.settings().time_limit;
    let deadline = Instant::now() + limit;
    // bad input is refused before it waits for a slot
    request.check(&app.pipelines)?;
    let slot = app.limits.slot(&admitted, deadline).await?;
    let worker = Arc::clone(&app);
    let job = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        lapiz::model::Stop::at(deadline).during(|| work(request, &worker.pipelines))
    });
    match tokio::time::timeout_at(tokio::time::Instant::from_std(deadline), job).await {
        Ok(Ok(answer)) => {
            answer.map(|text| ([(header::CONTENT_TYPE, "application/json")], text).into_response())
        }
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the request's work failed",
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the request took longer than the server's time limit ({} s)",
                limit.as_secs_f64()
            ),
        )),
    }
}

async fn read(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    call(app, addr.ip(), &headers, body, api::read_puzzle).await
}

async fn solve(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    call(app, addr.ip(), &headers, body, api::solve).await
}

async fn hint(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    call(app, addr.ip(), &headers, body, api::hint).await
}

async fn rate(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    call(app, addr.ip(), &headers, body, api::rate_puzzle).await
}

async fn generate(
    State(app): State<Arc<App>>,
    ConnectInfo(Peer(addr)): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    call(app, addr.ip(), &headers, body, api::generate_puzzle).await
}

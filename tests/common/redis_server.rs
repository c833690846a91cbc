//! A `redis-server` of one test, on a free loopback port, in a temporary folder of its own,
//! without persistence (as a cache server runs), stopped when dropped.
//!
//! The Redis tests need `redis-server` (Debian package `redis-server`): without it they
//! fail and say how to install it. `RULESC_SKIP_REDIS=1` skips them (CI never sets it).

#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a helper of tests: a server that cannot start should stop the test"
)]
#![allow(
    dead_code,
    reason = "each test binary uses its own subset of the helpers"
)]

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `redis-server` of this test, stopped and its folder removed when dropped
pub(crate) struct RedisServer {
    child: Child,
    /// The loopback port it listens on
    pub(crate) port: u16,
    dir: tempfile::TempDir,
}

impl RedisServer {
    /// Starts a server on a free loopback port; `None` when the Redis tests are skipped
    pub(crate) fn start() -> Option<RedisServer> {
        if std::env::var_os("RULESC_SKIP_REDIS").is_some_and(|value| value == "1") {
            eprintln!("RULESC_SKIP_REDIS=1: the Redis store is not tested");
            return None;
        }
        // Another process may take the free port before the server binds it: try again.
        for _ in 0..5 {
            let dir = tempfile::tempdir().unwrap();
            let port = free_port();
            if let Some(server) = RedisServer::spawn(port, dir) {
                return Some(server);
            }
        }
        panic!("`redis-server` did not start on a free port in five attempts");
    }

    /// A server on `port` in `dir`, once it answers; `None` when it exited (the port was
    /// taken)
    fn spawn(port: u16, dir: tempfile::TempDir) -> Option<RedisServer> {
        let child = launch(port, dir.path())?;
        Some(RedisServer { child, port, dir })
    }

    /// Stops the server and starts it again on the same port: without persistence, it
    /// comes back empty
    pub(crate) fn restart(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        // The port was this server's a moment ago; nobody else is given it so soon.
        self.child = launch(self.port, self.dir.path()).unwrap();
    }

    /// `redis://127.0.0.1:PORT/0`
    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// A connection to database 0
    pub(crate) fn connection(&self) -> redis::Connection {
        redis::Client::open(self.url())
            .unwrap()
            .get_connection()
            .unwrap()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        // Already gone is fine: the test is over either way.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `redis-server` on `port` in `dir` and waits until it answers `PING`; `None` when
/// it exited (its port was taken)
fn launch(port: u16, dir: &Path) -> Option<Child> {
    let spawned = Command::new("redis-server")
        .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
        .args(["--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => panic!(
            "`redis-server` is not installed, and the Redis store's tests need it: \
             install it with `apt-get install -y redis-server` (or set \
             RULESC_SKIP_REDIS=1 to skip them)"
        ),
        Err(err) => panic!("`redis-server` does not start: {err}"),
    };
    let url = format!("redis://127.0.0.1:{port}/0");
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            return None;
        }
        let pinged = redis::Client::open(url.as_str())
            .and_then(|client| client.get_connection())
            .and_then(|mut con| redis::cmd("PING").query::<String>(&mut con));
        if pinged.is_ok() {
            return Some(child);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("`redis-server` on port {port} did not answer in 10 s");
}

/// A loopback port nobody listens on (at the moment of asking)
pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

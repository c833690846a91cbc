//! The Redis store: one key per session on a Redis server that hook processes of many
//! machines share, for budgets and rate limits across a fleet of agents.
//!
//! Key: `rulesc:session:<id>`, the raw session id (Redis keys are binary-safe), holding the
//! JSON of [`SessionState`]. A session's state belongs to the session, not to a policy, as
//! in one state folder: hooks of several policies on one session share it, and an edited
//! policy keeps a latched `forbid`. Agents whose state must stay apart use different
//! databases (`/DB`) or servers.
//!
//! Invariant: an update is optimistic: `WATCH` the key, read it, change the state, and
//! write it in `MULTI`/`EXEC`, which Redis refuses when another client wrote the key since
//! the `WATCH`; the transaction then runs again on the new state, at most
//! [`MAX_ATTEMPTS`] times.
//!
//! Pruning: the same transaction records when each session was written in the sorted set
//! `rulesc:sessions` (member: the session id, score: the writer's clock in milliseconds),
//! and `--prune-older-than` removes, in one Lua script, every session whose last write is
//! older, as the file store removes old files. A write with `--prune-older-than` also
//! gives the key that expiry, so the server forgets a session idle for that long even if
//! no hook call passes the flag again.

use std::io::{self, ErrorKind};
use std::time::Duration;

use redis::{Client, Connection, RedisError, Value};

use super::Store;
use crate::session::SessionState;

/// How long connecting may take before the server counts as unreachable
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// How long one command may wait for its answer
const IO_TIMEOUT: Duration = Duration::from_secs(2);

/// The sorted set of sessions by the time of their last write
const INDEX: &str = "rulesc:sessions";

/// Removes the sessions of `INDEX` (`KEYS[1]`) last written before `ARGV[1]` (milliseconds),
/// keys prefixed `ARGV[2]`, at once, so no write can slip between the check and the removal;
/// answers how many sessions had state
const PRUNE: &str = r"
local removed = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])) do
  removed = removed + redis.call('DEL', ARGV[2] .. id)
  redis.call('ZREM', KEYS[1], id)
end
return removed
";

/// The prefix of a session's key, before its id
const KEY_PREFIX: &str = "rulesc:session:";

/// How many times an update runs before contention counts as a failure: each retry means
/// another client's write went through, so only that many parallel writers exhaust it
const MAX_ATTEMPTS: usize = 1_000;

/// Sessions' state on a Redis server
pub(crate) struct RedisStore {
    con: Connection,
    /// `HOST:PORT/DB`, for messages (never the URL: it may hold a password)
    server: String,
    /// How long a session's key outlives its last write
    expire_after: Option<Duration>,
}

impl RedisStore {
    /// Connects to the server at `url` (`redis://HOST:PORT/DB`)
    pub(crate) fn open(url: &str, expire_after: Option<Duration>) -> io::Result<RedisStore> {
        let client = Client::open(url).map_err(|err| {
            io::Error::new(
                ErrorKind::InvalidInput,
                format!(
                    "`--state` is not a url such as `redis://127.0.0.1:6379/0`: {}",
                    describe(&err)
                ),
            )
        })?;
        let info = client.get_connection_info();
        let server = format!("{}/{}", info.addr(), info.redis_settings().db());
        let con = client
            .get_connection_with_timeout(CONNECT_TIMEOUT)
            .and_then(|con| {
                con.set_read_timeout(Some(IO_TIMEOUT))?;
                con.set_write_timeout(Some(IO_TIMEOUT))?;
                Ok(con)
            })
            .map_err(|err| failure(&server, "cannot be reached", &err))?;
        Ok(RedisStore {
            con,
            server,
            expire_after,
        })
    }

    fn key(session_id: &str) -> String {
        format!("{KEY_PREFIX}{session_id}")
    }

    /// One run of the transaction: `Ok(false)` when another client wrote the key meanwhile
    fn attempt(
        &mut self,
        key: &str,
        session_id: &str,
        now_ms: u64,
        change: &mut dyn FnMut(&mut SessionState),
    ) -> Result<bool, Failure> {
        // One round trip: the `WATCH` is in force before the `GET` runs.
        let (stored,): (Option<Vec<u8>>,) = redis::pipe()
            .cmd("WATCH")
            .arg(key)
            .ignore()
            .cmd("GET")
            .arg(key)
            .query(&mut self.con)?;
        let loaded = match stored {
            None => SessionState::new(now_ms),
            Some(bytes) => match self.decode(&bytes, key, session_id) {
                Ok(state) => state,
                Err(err) => {
                    redis::cmd("UNWATCH").exec(&mut self.con)?;
                    return Err(err);
                }
            },
        };
        let Some(session) = super::changed(&loaded, change) else {
            redis::cmd("UNWATCH").exec(&mut self.con)?;
            return Ok(true);
        };
        let bytes = session.encode().map_err(Failure::State)?;
        let mut write = redis::cmd("SET");
        write.arg(key).arg(bytes);
        if let Some(age) = self.expire_after {
            write
                .arg("PX")
                .arg(u64::try_from(age.as_millis()).unwrap_or(u64::MAX).max(1));
        }
        let mut index = redis::cmd("ZADD");
        index.arg(INDEX).arg(now_ms).arg(session_id);
        // EXEC answers nil when a watched key changed: nothing was written.
        let committed: Option<Vec<Value>> = redis::pipe()
            .atomic()
            .add_command(write)
            .add_command(index)
            .query(&mut self.con)?;
        Ok(committed.is_some())
    }

    fn decode(&self, bytes: &[u8], key: &str, session_id: &str) -> Result<SessionState, Failure> {
        let place = format!("redis `{}` (key `{key}`)", self.server);
        let reset = format!(" --state redis://{}", self.server);
        SessionState::decode(bytes, session_id, &place, &reset).map_err(Failure::State)
    }
}

impl Store for RedisStore {
    fn update(
        &mut self,
        session_id: &str,
        now_ms: u64,
        change: &mut dyn FnMut(&mut SessionState),
    ) -> io::Result<()> {
        let key = RedisStore::key(session_id);
        for _ in 0..MAX_ATTEMPTS {
            match self.attempt(&key, session_id, now_ms, change) {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                Err(Failure::State(err)) => return Err(err),
                Err(Failure::Redis(err)) => return Err(self.failed("failed", &err)),
            }
        }
        Err(io::Error::other(format!(
            "redis `{}`: the state of session `{session_id}` changed under {MAX_ATTEMPTS} \
             attempts to update it in a row",
            self.server
        )))
    }

    fn reset(&mut self, session_id: &str) -> io::Result<bool> {
        let (removed, _): (u64, u64) = redis::pipe()
            .atomic()
            .cmd("DEL")
            .arg(RedisStore::key(session_id))
            .cmd("ZREM")
            .arg(INDEX)
            .arg(session_id)
            .query(&mut self.con)
            .map_err(|err| self.failed("failed", &err))?;
        Ok(removed > 0)
    }

    fn prune(&mut self, age: Duration) -> io::Result<usize> {
        let age_ms = u64::try_from(age.as_millis()).unwrap_or(u64::MAX);
        let before_ms = crate::now_ms().saturating_sub(age_ms);
        let removed: usize = redis::cmd("EVAL")
            .arg(PRUNE)
            .arg(1)
            .arg(INDEX)
            .arg(before_ms)
            .arg(KEY_PREFIX)
            .query(&mut self.con)
            .map_err(|err| self.failed("failed", &err))?;
        Ok(removed)
    }
}

impl RedisStore {
    fn failed(&self, what: &str, err: &RedisError) -> io::Error {
        failure(&self.server, what, err)
    }
}

/// Why a run of the transaction failed
enum Failure {
    /// The server failed, or could not be reached
    Redis(RedisError),
    /// The stored state cannot be read, or this state cannot be written
    State(io::Error),
}

impl From<RedisError> for Failure {
    fn from(err: RedisError) -> Failure {
        Failure::Redis(err)
    }
}

/// An error of the server at `server`: what failed and why, in words
fn failure(server: &str, what: &str, err: &RedisError) -> io::Error {
    let kind = if err.is_connection_refusal() {
        ErrorKind::ConnectionRefused
    } else if err.is_timeout() {
        ErrorKind::TimedOut
    } else {
        ErrorKind::Other
    };
    io::Error::new(kind, format!("redis `{server}` {what}: {}", describe(err)))
}

/// Why `err` happened, in words (the crate's own text names its error kinds as Rust does)
fn describe(err: &RedisError) -> String {
    if err.is_connection_refusal() {
        return "the connection was refused".to_owned();
    }
    if err.is_timeout() {
        return "it did not answer in time".to_owned();
    }
    if let Some(code) = err.code() {
        return match err.detail() {
            Some(detail) => format!("it answered `{code} {detail}`"),
            None => format!("it answered `{code}`"),
        };
    }
    let text = err.to_string();
    let description = text
        .split_once(" - ")
        .map_or(text.as_str(), |(description, _)| description);
    let mut chars = description.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

//! The Redis store: one key per session on a Redis server that hook processes of many
//! machines share, for budgets and rate limits across a fleet of agents.
//!
//! Keys: `rulesc:session:<id>`, the raw session id (Redis keys are binary-safe), holding the
//! JSON of [`SessionState`]; the sorted set `rulesc:sessions` of every session by the
//! server's time of its last write, in milliseconds; the sorted set `rulesc:expiries` of
//! the sessions written with an expiry, by when it falls; and the hash `rulesc:epoch`, the
//! server's epoch: a random `id`, made with the first session written, and the count of
//! `sessions` the index lists. A session's state belongs to the session, not to a policy,
//! as in one state folder: hooks of several policies on one session share it, and an
//! edited policy keeps a latched `forbid`. Agents whose state must stay apart use different
//! databases (`/DB`) or servers.
//!
//! Invariant: an update reads (one script) and then writes (another) only if the session's
//! key still holds what was read and the epoch is the one read; otherwise it runs again on
//! the new state, at most [`MAX_ATTEMPTS`] times. Every change to the keys is one script,
//! which checks the kind of each key before its first write: a failing step writes nothing.
//!
//! Invariant: a server that lost data is refused, never taken for a new one. Redis forgets
//! without a word (a restart without persistence, `FLUSHALL`, eviction under `maxmemory`),
//! and a session that starts over has lost its latched `forbid`. A loss shows as the epoch
//! gone or changed since this machine last saw it (`epochs.rs`), the index listing another
//! count of sessions than the epoch recorded, or a session's key gone, before its expiry,
//! while the index lists it; each refuses the call until `rulesc hook reset` acknowledges
//! it.
//!
//! Pruning: `--prune-older-than` removes the sessions whose last write is older by the
//! server's clock, [`PRUNE_BATCH`] per script and [`PRUNE_BATCHES`] scripts per call at
//! most, so no call holds the server up for long. A write with `--prune-older-than` also gives the key that
//! expiry, so the server forgets a session idle for that long even if no hook call passes
//! the flag again.

mod epochs;
mod scripts;

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, ErrorKind};
use std::time::Duration;

use redis::{Client, Connection, RedisError};

use super::Store;
use crate::session::SessionState;
use crate::state::StateDir;
use epochs::Epochs;

/// How long connecting may take before the server counts as unreachable
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// How long one command may wait for its answer
const IO_TIMEOUT: Duration = Duration::from_secs(2);

/// The sorted set of sessions by the server's time of their last write
const INDEX: &str = "rulesc:sessions";

/// The hash of the server's epoch: its `id` and the count of `sessions` in [`INDEX`]
const EPOCH: &str = "rulesc:epoch";

/// How many sessions one pruning script forgets at most: the server runs nothing else
/// while a script runs, so each is short (about a millisecond) and other clients' calls run
/// between two
const PRUNE_BATCH: usize = 256;

/// How many pruning scripts one call runs at most: as the file store looks at a bounded
/// part of its folder per call, calls go round any number of stale sessions a part each
const PRUNE_BATCHES: usize = 16;

/// The sorted set of sessions written with an expiry, by the server's time it falls
const EXPIRIES: &str = "rulesc:expiries";

/// The prefix of a session's key, before its id
const KEY_PREFIX: &str = "rulesc:session:";

/// How many times an update runs before contention counts as a failure: each retry means
/// another client's write went through, so only that many parallel writers exhaust it
const MAX_ATTEMPTS: usize = 1_000;

/// The longest age a key's expiry or a pruning takes, a century: longer ones are clamped
/// so the server's arithmetic on times cannot overflow
const MAX_AGE_MS: u64 = 100 * 366 * 24 * 3_600 * 1_000;

/// Sessions' state on a Redis server
pub(crate) struct RedisStore {
    con: Connection,
    /// `HOST:PORT/DB`, for messages (never the URL: it may hold a password)
    server: String,
    /// How long a session's key outlives its last write
    expire_after: Option<Duration>,
    /// The epochs this machine last saw
    epochs: Epochs,
}

/// What a hook call reads of the server, in one script
struct Read {
    /// The session's stored state
    state: Option<Vec<u8>>,
    /// The epoch's id
    epoch: Option<String>,
    /// How many sessions the epoch recorded
    recorded: Option<u64>,
    /// How many sessions the index lists
    indexed: u64,
    /// The index lists the session, and its key is gone before its expiry
    gone: bool,
    /// The server's time (`TIME`), in milliseconds since 1970
    now_ms: u64,
}

/// What the reading script answers, in the order of [`Read`]'s fields
type ReadReply = (Option<Vec<u8>>, Option<String>, Option<u64>, u64, bool, u64);

impl RedisStore {
    /// Connects to the server at `url` (`redis://HOST:PORT/DB`); `dir`, the state folder,
    /// keeps the epochs this machine saw
    pub(crate) fn open(
        url: &str,
        dir: StateDir,
        expire_after: Option<Duration>,
    ) -> io::Result<RedisStore> {
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
            epochs: Epochs::new(dir),
        })
    }

    fn key(session_id: &str) -> String {
        format!("{KEY_PREFIX}{session_id}")
    }

    /// `script` on the index, the epoch, the expiries and `session_id`'s key (when given),
    /// with `args`
    fn eval<T: redis::FromRedisValue>(
        &mut self,
        script: &str,
        session_id: Option<&str>,
        args: &[&[u8]],
    ) -> Result<T, RedisError> {
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(script)
            .arg(if session_id.is_some() { 4 } else { 3 })
            .arg(INDEX)
            .arg(EPOCH)
            .arg(EXPIRIES);
        if let Some(id) = session_id {
            cmd.arg(RedisStore::key(id));
        }
        for arg in args {
            cmd.arg(*arg);
        }
        cmd.query(&mut self.con)
    }

    fn read(&mut self, session_id: &str) -> Result<Read, RedisError> {
        let (state, epoch, recorded, indexed, gone, now_ms): ReadReply =
            self.eval(scripts::READ, Some(session_id), &[session_id.as_bytes()])?;
        Ok(Read {
            state,
            epoch,
            recorded,
            indexed,
            gone,
            now_ms,
        })
    }

    /// One run of the transaction: `Ok(false)` when another client wrote meanwhile
    fn attempt(
        &mut self,
        session_id: &str,
        known: &mut Option<String>,
        change: &mut dyn FnMut(&mut SessionState, u64),
    ) -> Result<bool, Failure> {
        let read = self.read(session_id)?;
        self.check(&read, known.as_deref(), session_id)
            .map_err(Failure::Refused)?;
        if let (None, Some(epoch)) = (known.as_deref(), read.epoch.as_deref()) {
            self.epochs
                .remember(&self.server, epoch)
                .map_err(Failure::Refused)?;
            *known = Some(epoch.to_owned());
        }
        // The server's time, as for its index: a machine whose clock runs ahead moves no
        // session's clock on.
        let loaded = match &read.state {
            None => SessionState::new(read.now_ms),
            Some(bytes) => self.decode(bytes, session_id).map_err(Failure::Refused)?,
        };
        let Some(session) = super::changed(&loaded, read.now_ms, change) else {
            return Ok(true);
        };
        let bytes = session.encode().map_err(Failure::Refused)?;
        let new_epoch = read.epoch.is_none().then(new_epoch);
        let expire_ms = self.expire_after.map_or(0, |age| clamped_ms(age).max(1));
        let written: bool = self.eval(
            scripts::WRITE,
            Some(session_id),
            &[
                session_id.as_bytes(),
                if read.state.is_some() { b"1" } else { b"0" },
                read.state.as_deref().unwrap_or_default(),
                read.epoch.as_deref().unwrap_or_default().as_bytes(),
                new_epoch.as_deref().unwrap_or_default().as_bytes(),
                &bytes,
                expire_ms.to_string().as_bytes(),
            ],
        )?;
        if let (true, Some(epoch)) = (written, new_epoch) {
            self.epochs
                .remember(&self.server, &epoch)
                .map_err(Failure::Refused)?;
            *known = Some(epoch);
        }
        Ok(written)
    }

    /// Refuses a server that lost data since this machine (`known`: the epoch it last saw)
    /// or the epoch's count of sessions knew it, or lost `session_id`'s state
    fn check(&self, read: &Read, known: Option<&str>, session_id: &str) -> io::Result<()> {
        let acknowledge = format!(
            "check the server's persistence and eviction settings (docs/state.md), then run \
             `rulesc hook reset --lost{}` to go on with what it kept",
            self.reset_flags()
        );
        let everything = "and with it the state of every session there, a latched forbid \
                          included";
        let cause = match (known, read.epoch.as_deref()) {
            (Some(_), None) => Some(format!(
                "its epoch key `{EPOCH}` is gone (a restart without persistence, `FLUSHALL` \
                 or eviction), {everything}"
            )),
            (None, None) if read.indexed > 0 || read.state.is_some() => Some(format!(
                "its epoch key `{EPOCH}` is gone while sessions are kept (eviction, a key \
                 deleted by hand, or sessions of an older rulesc, which kept no epoch), and \
                 with it the state of sessions, a latched forbid included"
            )),
            (Some(was), Some(now)) if was != now => Some(format!(
                "its epoch is `{now}`, not `{was}` as this machine last saw it (it was \
                 emptied by a restart without persistence or `FLUSHALL`, and started again), \
                 {everything}"
            )),
            (_, Some(_)) if read.recorded != Some(read.indexed) => Some(format!(
                "its index `{INDEX}` lists {} sessions where its epoch recorded {} (eviction, \
                 or a key deleted by hand), so the state of a session, a latched forbid \
                 included, may be gone",
                read.indexed,
                read.recorded
                    .map_or_else(|| "none".to_owned(), |count| count.to_string())
            )),
            _ => None,
        };
        if let Some(cause) = cause {
            return Err(lost(format!(
                "redis `{}` lost data: {cause}; {acknowledge}",
                self.server
            )));
        }
        if read.gone {
            return Err(lost(format!(
                "redis `{}` lost the state of session `{session_id}`: its key `{}` is gone \
                 while `{INDEX}` lists it (eviction, or a key deleted by hand), a latched \
                 forbid included; check the server's eviction settings (docs/state.md), then \
                 run `rulesc hook reset --session {session_id}{}` to start the session afresh",
                self.server,
                RedisStore::key(session_id),
                self.reset_flags()
            )));
        }
        Ok(())
    }

    fn decode(&self, bytes: &[u8], session_id: &str) -> io::Result<SessionState> {
        let place = format!(
            "redis `{}` (key `{}`)",
            self.server,
            RedisStore::key(session_id)
        );
        SessionState::decode(bytes, session_id, &place, &self.reset_flags())
    }

    fn failed(&self, err: &RedisError) -> io::Error {
        failure(&self.server, "failed", err)
    }
}

impl Store for RedisStore {
    fn update(
        &mut self,
        session_id: &str,
        // The server's clock is the store's time: this machine's is not read.
        _now_ms: u64,
        change: &mut dyn FnMut(&mut SessionState, u64),
    ) -> io::Result<()> {
        let mut known = self.epochs.known(&self.server)?;
        for _ in 0..MAX_ATTEMPTS {
            match self.attempt(session_id, &mut known, change) {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                Err(Failure::Refused(err)) => return Err(err),
                Err(Failure::Redis(err)) => return Err(self.failed(&err)),
            }
        }
        Err(io::Error::other(format!(
            "redis `{}`: the state of session `{session_id}` changed under {MAX_ATTEMPTS} \
             attempts to update it in a row",
            self.server
        )))
    }

    fn reset(&mut self, session_id: &str) -> io::Result<bool> {
        self.eval(scripts::RESET, Some(session_id), &[session_id.as_bytes()])
            .map_err(|err| self.failed(&err))
    }

    fn prune(&mut self, age: Duration) -> io::Result<usize> {
        let age_ms = clamped_ms(age).to_string();
        let batch = PRUNE_BATCH.to_string();
        let mut removed = 0;
        for _ in 0..PRUNE_BATCHES {
            let (had_state, forgotten): (usize, usize) = self
                .eval(
                    scripts::PRUNE,
                    None,
                    &[age_ms.as_bytes(), KEY_PREFIX.as_bytes(), batch.as_bytes()],
                )
                .map_err(|err| self.failed(&err))?;
            removed += had_state;
            if forgotten < PRUNE_BATCH {
                break;
            }
        }
        Ok(removed)
    }

    fn acknowledge_loss(&mut self) -> io::Result<String> {
        // The epoch this machine knew comes back, so the other machines that knew it go on.
        let epoch = self.epochs.known(&self.server)?.unwrap_or_else(new_epoch);
        let (epoch, kept, forgotten): (String, u64, u64) = self
            .eval(
                scripts::ACKNOWLEDGE,
                None,
                &[KEY_PREFIX.as_bytes(), epoch.as_bytes()],
            )
            .map_err(|err| self.failed(&err))?;
        self.epochs.remember(&self.server, &epoch)?;
        Ok(format!(
            "redis `{}`: the loss of data is acknowledged; hook calls go on with the {kept} \
             sessions it lists ({forgotten} listed sessions whose state was gone are \
             forgotten)",
            self.server
        ))
    }

    fn reset_flags(&self) -> String {
        format!(" --state redis://{}", self.server)
    }
}

/// Why a run of the transaction failed
enum Failure {
    /// The server failed, or could not be reached
    Redis(RedisError),
    /// The server lost data, the stored state cannot be read, or this state cannot be
    /// written
    Refused(io::Error),
}

impl From<RedisError> for Failure {
    fn from(err: RedisError) -> Failure {
        Failure::Redis(err)
    }
}

/// The error of a server that lost data
fn lost(message: String) -> io::Error {
    io::Error::new(ErrorKind::InvalidData, message)
}

/// A fresh epoch id: 128 random bits (the standard library's hash keys come from the
/// system's random source, and each `RandomState` takes new ones)
fn new_epoch() -> String {
    let random = |salt: u64| {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(salt);
        hasher.finish()
    };
    format!(
        "{:016x}{:016x}",
        random(u64::from(std::process::id())),
        random(crate::now_ms())
    )
}

/// `age` in milliseconds, at most [`MAX_AGE_MS`]
fn clamped_ms(age: Duration) -> u64 {
    u64::try_from(age.as_millis()).map_or(MAX_AGE_MS, |ms| ms.min(MAX_AGE_MS))
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
        return answered(code, err.detail());
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

/// The server's error answer `code detail`, in words
fn answered(code: &str, detail: Option<&str>) -> String {
    let words = match code {
        "WRONGTYPE" => return wrong_type(detail),
        "OOM" => {
            "it is out of memory (OOM: `maxmemory` is reached and nothing may be \
                  evicted), so nothing was written; raise `maxmemory` or prune old sessions"
        }
        "READONLY" => "it is a read-only replica (READONLY); point `--state` at the primary",
        "NOAUTH" => {
            "it needs a password (NOAUTH); give it in the url, \
                     `redis://:PASSWORD@HOST:PORT/DB`"
        }
        "WRONGPASS" => "it refused the user or password of the url (WRONGPASS)",
        "NOPERM" => {
            "the url's user may not run what rulesc needs (NOPERM): `EVAL` with \
                     `GET`, `SET`, `DEL`, `EXISTS`, `TYPE`, `TIME` and the hash and sorted set \
                     commands"
        }
        "MISCONF" => {
            "it cannot save its data to disk, so it refuses writes (MISCONF); see \
                      its log"
        }
        "LOADING" => "it is still loading its data from disk (LOADING); try again shortly",
        "BUSY" => "it is busy running another script (BUSY)",
        _ => {
            return match detail {
                Some(detail) => format!("it answered `{code} {detail}`"),
                None => format!("it answered `{code}`"),
            }
        }
    };
    words.to_owned()
}

/// A key holding another kind of value than rulesc keeps there, in words; `detail` is
/// `<kind found> <key>` from the scripts' check
fn wrong_type(detail: Option<&str>) -> String {
    let Some((found, key)) = detail.and_then(|detail| detail.split_once(' ')) else {
        return "a key holds the wrong kind of value (WRONGTYPE); give rulesc a database of \
                its own"
            .to_owned();
    };
    // A script's error may carry where it was raised after the key.
    let key = key.split(" script: ").next().unwrap_or(key);
    let expected = match key {
        INDEX | EXPIRIES => "a sorted set",
        EPOCH => "a hash",
        _ => "a string",
    };
    let found = match found {
        "zset" => "a sorted set",
        "string" => "a string",
        "hash" => "a hash",
        "list" => "a list",
        "set" => "a set",
        "stream" => "a stream",
        other => other,
    };
    format!(
        "key `{key}` holds the wrong kind of value (WRONGTYPE): {found} where rulesc keeps \
         {expected}; delete the key, or give rulesc a database of its own"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_errors_read_as_words() {
        assert_eq!(
            answered("WRONGTYPE", Some("hash rulesc:sessions")),
            "key `rulesc:sessions` holds the wrong kind of value (WRONGTYPE): a hash where \
             rulesc keeps a sorted set; delete the key, or give rulesc a database of its own"
        );
        assert_eq!(
            answered("WRONGTYPE", Some("zset rulesc:session:a b")),
            "key `rulesc:session:a b` holds the wrong kind of value (WRONGTYPE): a sorted set \
             where rulesc keeps a string; delete the key, or give rulesc a database of its own"
        );
        assert_eq!(
            answered("ERR", Some("unknown command")),
            "it answered `ERR unknown command`"
        );
    }

    /// A `redis-server` of one test, stopped when dropped (a failed assertion included)
    struct Server(std::process::Child);

    impl Drop for Server {
        fn drop(&mut self) {
            // Already gone is fine: the test is over either way.
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// A `redis-server` on a Unix socket in `dir` (no port to race for), and its url;
    /// `None` when the Redis tests are skipped (`RULESC_SKIP_REDIS=1`)
    fn server(dir: &std::path::Path) -> Option<(Server, String)> {
        if std::env::var_os("RULESC_SKIP_REDIS").is_some_and(|value| value == "1") {
            return None;
        }
        let socket = dir.join("redis.sock");
        let server = Server(
            std::process::Command::new("redis-server")
                .args(["--port", "0", "--save", "", "--appendonly", "no"])
                .arg("--unixsocket")
                .arg(&socket)
                .arg("--dir")
                .arg(dir)
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("`redis-server` runs (apt-get install -y redis-server)"),
        );
        let url = format!("redis+unix://{}", socket.display());
        for _ in 0..1_000 {
            let pinged = Client::open(url.as_str())
                .and_then(|client| client.get_connection())
                .and_then(|mut con| redis::cmd("PING").query::<String>(&mut con));
            if pinged.is_ok() {
                return Some((server, url));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("`redis-server` did not answer in 10 s");
    }

    #[test]
    fn a_writer_days_ahead_is_scored_by_the_servers_clock() {
        let dir = tempfile::tempdir().unwrap();
        let Some((_server, url)) = server(dir.path()) else {
            return;
        };
        let state = StateDir::open(&dir.path().join("state")).unwrap();
        let mut store = RedisStore::open(&url, state, None).unwrap();
        let day_ms = 24 * 3_600 * 1_000;
        let ahead = crate::now_ms() + 8 * day_ms;
        let mut given = 0;
        store
            .update("ahead", ahead, &mut |session, now_ms| {
                given = now_ms;
                *session = SessionState::new(ahead + 1);
            })
            .unwrap();
        let (secs, micros): (u64, u64) = redis::cmd("TIME").query(&mut store.con).unwrap();
        let server_now = secs * 1_000 + micros / 1_000;
        // The session's clock moves by the server's time too (docs/state.md).
        assert!(
            given <= server_now && server_now - given < 60_000,
            "{given} {server_now}"
        );
        let score: u64 = redis::cmd("ZSCORE")
            .arg(INDEX)
            .arg("ahead")
            .query(&mut store.con)
            .unwrap();
        assert!(
            score <= server_now && server_now - score < 60_000,
            "{score} {server_now}"
        );
        // Neither the writer's clock nor the pruner's (this one's) makes it look old.
        assert_eq!(store.prune(Duration::from_millis(7 * day_ms)).unwrap(), 0);
        let kept: bool = redis::cmd("EXISTS")
            .arg(RedisStore::key("ahead"))
            .query(&mut store.con)
            .unwrap();
        assert!(kept);
    }

    #[test]
    fn ages_are_clamped_to_a_century() {
        assert_eq!(clamped_ms(Duration::from_secs(7)), 7_000);
        assert_eq!(clamped_ms(Duration::MAX), MAX_AGE_MS);
    }
}

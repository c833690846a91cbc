//! What `rulesc hook` remembers of a session between calls, and how a store keeps it.
//!
//! A session is seen by every hook command its host runs, and two of them may run different
//! policies (a user's and a project's, each its own `rulesc hook`). Each policy keeps its own
//! run of the session ([`PolicyRun`]: the counters, `metadata`, the trace terms, the labels),
//! so no policy counts an event twice, erases the counts of another, or rewrites what another
//! set. What the policies share is what no policy can weaken: the session's clock and the
//! latch of a `forbid`, which every later tool call of the session meets, whichever policy
//! latched it (docs/state.md).
//!
//! Every store keeps a session's state as the JSON of [`SessionState`], which names its
//! `version`. Stored state that is not valid state (truncated, edited, of an unknown
//! version) is an error: the caller fails closed on it, and nothing is reset behind the
//! user's back; `rulesc hook reset --session ID` removes it.

use std::collections::BTreeMap;
use std::io::{self, ErrorKind};
use std::path::PathBuf;

use rulesc_runtime::{RunCounters, StopChain, StopReason, TraceState};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::digest::digest;

/// The `version` of session state this rulesc writes (2: a forbid latches; 3: the run's
/// trace; 4: a run per policy and a clock that never goes back)
const STATE_VERSION: u64 = 4;

/// The version before runs were kept per policy, which this rulesc still reads
const SHARED_RUN_VERSION: u64 = 3;

/// The most policies whose runs one session keeps; past it, the run of the policy that
/// called least recently is forgotten, so a session's state stays bounded however many
/// policies (or moved policy folders) call it
pub(crate) const MAX_POLICY_RUNS: usize = 16;

/// What persists of one session between hook calls
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SessionState {
    /// The format's version
    pub(crate) version: u64,
    /// When the session was first seen, in milliseconds since the Unix epoch
    pub(crate) started_ms: u64,
    /// The session's own clock
    #[serde(default)]
    pub(crate) clock: Clock,
    /// Why a `forbid` stopped the session, once one did: every later tool call is denied
    /// and every later prompt refused with it, until `rulesc hook reset` clears it
    #[serde(default)]
    pub(crate) forbidden: Option<String>,
    /// Each policy's run of the session, by the policy's key ([`policy_key`])
    #[serde(default)]
    pub(crate) runs: BTreeMap<String, PolicyRun>,
    /// A run read from state written before runs were kept per policy: the first policy
    /// without a run of its own takes it over, so an upgrade loses no count
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) unclaimed: Option<PolicyRun>,
}

/// The session's clock: how long it has run, which never goes back
///
/// A wall clock may be set back (by NTP, by hand, across machines sharing a Redis store);
/// `elapsed` must not follow it, or a time budget (`elapsed >= 30min forbid`) would be
/// postponed. The clock adds the wall-clock time between calls when it moved forward and
/// nothing when it moved back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Clock {
    /// The wall clock at the last call, in milliseconds since the Unix epoch
    pub(crate) wall_ms: u64,
    /// How long the session has run, in milliseconds
    pub(crate) elapsed_ms: u64,
}

impl Clock {
    /// A clock started at `now_ms`
    fn started(now_ms: u64) -> Clock {
        Clock {
            wall_ms: now_ms,
            elapsed_ms: 0,
        }
    }

    /// Moves the clock to the wall-clock time `now_ms`, and returns the session's elapsed
    /// time then
    pub(crate) fn tick(&mut self, now_ms: u64) -> u64 {
        let forward = now_ms.saturating_sub(self.wall_ms);
        self.elapsed_ms = self.elapsed_ms.saturating_add(forward);
        self.wall_ms = now_ms;
        self.elapsed_ms
    }
}

/// One policy's run of a session: what its rules count, set and remember
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct PolicyRun {
    /// Turns completed: each `Stop` ends one
    pub(crate) steps: u64,
    /// Failed or blocked tool calls in this session
    pub(crate) errors: u64,
    /// Failed or blocked tool calls since a model step last ended without one: a tool call
    /// that succeeded, or the answer that ended a turn
    pub(crate) failures: u64,
    /// Stops prevented in a row in the main agent's current chain
    pub(crate) stop_requests: u64,
    /// Stops prevented in a row in the current sub-agent's chain
    pub(crate) subagent_stop_requests: u64,
    /// Why the session last stopped: a `forbid`'s reason, or `completed` when a turn ended;
    /// cleared when a new turn begins
    pub(crate) stop_reason: Option<StopReason>,
    /// Values set by `set` effects
    pub(crate) metadata: Map<String, Json>,
    /// What the policy's trace terms and labels remember of the session (docs/trace.md)
    #[serde(default)]
    pub(crate) trace: TraceState,
    /// The session's elapsed time at this policy's last call: the run used least recently
    /// is the one forgotten past [`MAX_POLICY_RUNS`]
    #[serde(default)]
    pub(crate) last_used_ms: u64,
}

impl PolicyRun {
    /// The run's counters, as the runtime's model of a run moves them
    pub(crate) fn counters(&self) -> RunCounters {
        RunCounters::resumed(self.steps, self.errors, self.failures, self.stop_requests)
    }

    /// The chain of stops prevented in the current sub-agent
    pub(crate) fn subagent_stops(&self) -> StopChain {
        StopChain::resumed(self.subagent_stop_requests)
    }

    /// Keeps the counters and the sub-agent's chain of stops a call left (every call ends the
    /// model steps it sees, so none is under way between calls)
    pub(crate) fn keep(&mut self, counters: RunCounters, subagent_stops: StopChain) {
        self.steps = counters.steps();
        self.errors = counters.errors();
        self.failures = counters.failures();
        self.stop_requests = counters.stop_requests();
        self.subagent_stop_requests = subagent_stops.count();
    }
}

/// The state as version 3 wrote it: one run for every policy
#[derive(Deserialize)]
struct SharedRun {
    started_ms: u64,
    steps: u64,
    errors: u64,
    failures: u64,
    stop_requests: u64,
    subagent_stop_requests: u64,
    stop_reason: Option<StopReason>,
    metadata: Map<String, Json>,
    #[serde(default)]
    forbidden: Option<String>,
    #[serde(default)]
    trace: TraceState,
}

impl From<SharedRun> for SessionState {
    fn from(old: SharedRun) -> SessionState {
        SessionState {
            version: STATE_VERSION,
            started_ms: old.started_ms,
            clock: Clock::started(old.started_ms),
            forbidden: old.forbidden,
            runs: BTreeMap::new(),
            unclaimed: Some(PolicyRun {
                steps: old.steps,
                errors: old.errors,
                failures: old.failures,
                stop_requests: old.stop_requests,
                subagent_stop_requests: old.subagent_stop_requests,
                stop_reason: old.stop_reason,
                metadata: old.metadata,
                trace: old.trace,
                last_used_ms: 0,
            }),
        }
    }
}

/// Only the version, read to choose how to read state of another version
#[derive(Deserialize)]
struct Versioned {
    version: u64,
}

impl SessionState {
    /// The state of a session first seen at `now_ms`
    pub(crate) fn new(now_ms: u64) -> SessionState {
        SessionState {
            version: STATE_VERSION,
            started_ms: now_ms,
            clock: Clock::started(now_ms),
            forbidden: None,
            runs: BTreeMap::new(),
            unclaimed: None,
        }
    }

    /// The run of the policy `key`, made (or taken over from older state) at its first call;
    /// `elapsed_ms` marks it as used now
    pub(crate) fn run_of(&mut self, key: &str, elapsed_ms: u64) -> &mut PolicyRun {
        if !self.runs.contains_key(key) {
            if self.runs.len() >= MAX_POLICY_RUNS {
                let least_recent = self
                    .runs
                    .iter()
                    .min_by_key(|(_, run)| run.last_used_ms)
                    .map(|(key, _)| key.clone());
                if let Some(least_recent) = least_recent {
                    self.runs.remove(&least_recent);
                }
            }
            let run = self.unclaimed.take().unwrap_or_default();
            self.runs.insert(key.to_owned(), run);
        }
        let run = self.runs.entry(key.to_owned()).or_default();
        run.last_used_ms = elapsed_ms;
        run
    }

    /// Reads a session's stored state, `bytes`, found at `place` (for the error)
    ///
    /// State that is not of a version this rulesc reads is an error naming the session, the
    /// place and the problem, and how to start afresh (`reset_flags`: what `rulesc hook
    /// reset` needs to find this store, after `--session ID`).
    pub(crate) fn decode(
        bytes: &[u8],
        session_id: &str,
        place: &str,
        reset_flags: &str,
    ) -> io::Result<SessionState> {
        // State of this version, what nearly every call reads, is read in one pass; the
        // version alone is read first only to tell why anything else is not read so.
        if let Ok(state) = serde_json::from_slice::<SessionState>(bytes) {
            if state.version == STATE_VERSION {
                return Ok(state);
            }
        }
        let problem = match serde_json::from_slice::<Versioned>(bytes) {
            Ok(Versioned {
                version: STATE_VERSION,
            }) => match serde_json::from_slice::<SessionState>(bytes) {
                Ok(state) => return Ok(state),
                Err(err) => format!("it is damaged ({err})"),
            },
            Ok(Versioned {
                version: SHARED_RUN_VERSION,
            }) => match serde_json::from_slice::<SharedRun>(bytes) {
                Ok(old) => return Ok(SessionState::from(old)),
                Err(err) => format!("it is damaged ({err})"),
            },
            Ok(Versioned { version }) => {
                format!("it is of version {version}, this rulesc reads version {STATE_VERSION}")
            }
            Err(err) => format!("it is damaged ({err})"),
        };
        Err(io::Error::new(
            ErrorKind::InvalidData,
            format!(
                "the state of session `{session_id}` in {place} cannot be read: {problem}; \
                 run `rulesc hook reset --session {session_id}{reset_flags}` to start the \
                 session afresh"
            ),
        ))
    }

    /// The stored form of this state, which [`SessionState::decode`] reads
    pub(crate) fn encode(&self) -> io::Result<Vec<u8>> {
        serde_json::to_vec(self).map_err(io::Error::other)
    }
}

/// The key of the policy named by the POLICY arguments `arguments` in a session's runs
///
/// The arguments made absolute, as the compiled-policy cache names its entries, but without
/// the rulesc version: an upgrade keeps the counts. Relative arguments are taken from the
/// working folder, so two projects whose hooks both name `.rulesc/` keep a run each.
pub(crate) fn policy_key(arguments: &[PathBuf]) -> String {
    let working = std::env::current_dir().unwrap_or_default();
    let absolute: Vec<PathBuf> = arguments.iter().map(|path| working.join(path)).collect();
    let mut key = digest(
        absolute
            .iter()
            .map(|path| path.as_os_str().as_encoded_bytes()),
    );
    // 64 bits tell a session's few policies apart.
    key.truncate(16);
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_and_damaged_or_foreign_state_is_an_error() {
        let mut state = SessionState::new(7);
        state.run_of("p", 0).errors = 3;
        state
            .run_of("p", 0)
            .metadata
            .insert("tainted".to_owned(), Json::Bool(true));
        let bytes = state.encode().unwrap();
        assert_eq!(
            SessionState::decode(&bytes, "s1", "`here`", "").unwrap(),
            state
        );
        let mut foreign: Json = serde_json::from_slice(&bytes).unwrap();
        foreign["version"] = Json::from(99);
        let of_another_version = (
            &foreign.to_string(),
            &format!("it is of version 99, this rulesc reads version {STATE_VERSION}"),
        );
        for (damaged, problem) in [
            (&"{\"steps\": ".to_owned(), &"it is damaged".to_owned()),
            (&"\u{0}".to_owned(), &"it is damaged".to_owned()),
            (
                &"{\"version\": 1}".to_owned(),
                &"it is of version 1".to_owned(),
            ),
            (&"{\"version\": 4}".to_owned(), &"it is damaged".to_owned()),
            (&"{\"version\": 3}".to_owned(), &"it is damaged".to_owned()),
            of_another_version,
        ] {
            let err = SessionState::decode(damaged.as_bytes(), "s1", "`here`", " --state x")
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with("the state of session `s1` in `here` cannot be read: "),
                "{err}"
            );
            assert!(err.contains(problem), "{damaged}: {err}");
            assert!(
                err.ends_with(
                    "run `rulesc hook reset --session s1 --state x` to start the session afresh"
                ),
                "{err}"
            );
        }
    }

    #[test]
    fn state_of_version_3_is_taken_over_by_the_first_policy_that_calls() {
        let old = r#"{"version": 3, "started_ms": 5, "steps": 2, "errors": 1, "failures": 1,
            "stop_requests": 0, "subagent_stop_requests": 0, "stop_reason": null,
            "metadata": {"tainted": true}, "forbidden": "stop", "trace": {}}"#;
        let mut state = SessionState::decode(old.as_bytes(), "s", "`here`", "").unwrap();
        assert_eq!(state.forbidden.as_deref(), Some("stop"));
        let first = state.run_of("a", 0).clone();
        assert_eq!((first.steps, first.errors), (2, 1));
        assert_eq!(first.metadata.get("tainted"), Some(&Json::Bool(true)));
        assert_eq!(
            state.run_of("b", 0).steps,
            0,
            "the second policy starts afresh"
        );
    }

    #[test]
    fn the_clock_never_goes_back_and_goes_on_after_a_step_back() {
        let day = 86_400_000;
        let start = 10 * day;
        let mut clock = Clock::started(start);
        assert_eq!(clock.tick(start + 60_000), 60_000);
        assert_eq!(clock.tick(start + 60_000 - day), 60_000, "set back a day");
        assert_eq!(clock.tick(start + 65_000 - day), 65_000);
    }

    #[test]
    fn a_session_keeps_the_runs_of_its_most_recent_policies() {
        let mut state = SessionState::new(0);
        for n in 0..MAX_POLICY_RUNS {
            state
                .run_of(&format!("p{n}"), u64::try_from(n).unwrap())
                .steps = 1;
        }
        state.run_of("p0", 100);
        state.run_of("new", 101);
        assert_eq!(state.runs.len(), MAX_POLICY_RUNS);
        assert!(state.runs.contains_key("p0"), "used recently");
        assert!(!state.runs.contains_key("p1"), "used least recently");
    }

    #[test]
    fn policy_keys_tell_folders_apart_and_not_rulesc_versions() {
        let a = policy_key(&[PathBuf::from("/p/a/.rulesc")]);
        assert_eq!(a.len(), 16);
        assert_ne!(a, policy_key(&[PathBuf::from("/p/b/.rulesc")]));
        assert_eq!(a, policy_key(&[PathBuf::from("/p/a/.rulesc")]));
    }
}

//! A shared, replaceable policy: the hot-reload point of an embedding application.
//!
//! Threads evaluate through clones of one [`PolicyHandle`] while another thread swaps in a
//! new policy with [`PolicyHandle::replace`].
//!
//! Invariant: every evaluation runs on one snapshot. [`PolicyHandle::evaluate`] copies the
//! current `Arc<Policy>` under a read lock held only for that copy, then evaluates without
//! any lock, so an outcome comes from exactly one policy (never a mix of the old and the
//! new one), a reload never waits for an evaluation to finish, and an evaluation never
//! waits for more than a reload's pointer swap. An evaluation that started before a reload
//! finishes on the policy it started with.
//!
//! The lock is std's `RwLock` around an `Arc` rather than a lock-free swap crate: its
//! critical sections are a pointer copy or a pointer swap, so readers barely contend, and
//! the runtime keeps its short dependency list. A poisoned lock cannot hide a policy: no
//! code panics while holding it, and a poisoned guard is used as it is.
//!
//! The generation lives beside the lock, in an atomic counter that a replacement bumps
//! after its swap: a reader that evaluates many events (the agent loop) keeps its snapshot
//! while the counter has not moved, and pays a plain load per event rather than the lock and
//! the reference count.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use crate::event::Event;
use crate::outcome::Outcome;
use crate::policy::{EvalOptions, Policy};

/// A policy that many threads share and that can be replaced while they evaluate
///
/// Clones share the same slot: a [`PolicyHandle::replace`] through one clone is seen by
/// every other.
///
/// ```
/// use rulesc_runtime::{Decision, Defaults, Event, EventKind, Policy, PolicyHandle};
///
/// let handle = PolicyHandle::new(Policy::new(Vec::new(), Defaults::default())?);
/// let reader = handle.clone();
/// let worker = std::thread::spawn(move || reader.evaluate(&Event::new(EventKind::PreToolUse)));
///
/// let stricter = Defaults { pre_tool_use: Some(rulesc_runtime::Verb::Block), ..Defaults::default() };
/// let old = handle.replace(Policy::new(Vec::new(), stricter)?);
/// assert_eq!(old.defaults().pre_tool_use, None);
/// assert_eq!(handle.generation(), 1);
///
/// // The worker saw one policy or the other, whole.
/// let decision = worker.join().expect("the worker ran").resolution.decision;
/// assert!(matches!(decision, Decision::None | Decision::Block));
/// assert_eq!(handle.evaluate(&Event::new(EventKind::PreToolUse)).resolution.decision, Decision::Block);
/// # Ok::<(), rulesc_runtime::PolicyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct PolicyHandle {
    slot: Arc<Slot>,
}

/// The policy in force and how many times it was replaced
#[derive(Debug)]
struct Slot {
    policy: RwLock<Arc<Policy>>,
    /// Bumped after each swap, so a reader that saw a number saw at least that policy
    generation: AtomicU64,
}

/// A snapshot of the policy in force, with the generation it was taken at
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    generation: u64,
    policy: Arc<Policy>,
}

impl Snapshot {
    /// The policy of the snapshot
    pub(crate) fn policy(&self) -> &Policy {
        &self.policy
    }
}

impl PolicyHandle {
    /// A handle on `policy`, at generation 0
    pub fn new(policy: Policy) -> PolicyHandle {
        PolicyHandle {
            slot: Arc::new(Slot {
                policy: RwLock::new(Arc::new(policy)),
                generation: AtomicU64::new(0),
            }),
        }
    }

    /// The policy in force now; it stays valid (and unchanged) however often the handle is
    /// replaced afterwards
    pub fn snapshot(&self) -> Arc<Policy> {
        Arc::clone(&self.read())
    }

    /// How many times the policy was replaced since the handle was made
    pub fn generation(&self) -> u64 {
        self.slot.generation.load(Ordering::Acquire)
    }

    /// The policy in force now, with its generation
    pub(crate) fn take_snapshot(&self) -> Snapshot {
        // The number first: a swap between the two reads gives a newer policy under an
        // older number, which the next `refresh` takes again, never an older policy kept.
        let generation = self.generation();
        Snapshot {
            generation,
            policy: self.snapshot(),
        }
    }

    /// Makes `snapshot` the policy in force now: kept as it is while no replacement
    /// happened since it was taken
    pub(crate) fn refresh(&self, snapshot: &mut Snapshot) {
        if self.generation() != snapshot.generation {
            *snapshot = self.take_snapshot();
        }
    }

    /// Makes `policy` the one in force for every evaluation that starts from now on, and
    /// returns the one it replaces
    pub fn replace(&self, policy: Policy) -> Arc<Policy> {
        let policy = Arc::new(policy);
        let mut current = self
            .slot
            .policy
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let old = std::mem::replace(&mut *current, policy);
        // Under the lock, so two replacements cannot bump past each other's swap.
        self.slot.generation.fetch_add(1, Ordering::AcqRel);
        old
    }

    /// Evaluates `event` on the policy in force when the call starts
    pub fn evaluate(&self, event: &Event) -> Outcome {
        self.snapshot().evaluate(event)
    }

    /// [`Policy::evaluate_with`] on the policy in force when the call starts
    pub fn evaluate_with(&self, event: &Event, options: EvalOptions<'_>) -> Outcome {
        self.snapshot().evaluate_with(event, options)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Arc<Policy>> {
        self.slot
            .policy
            .read()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl From<Policy> for PolicyHandle {
    fn from(policy: Policy) -> PolicyHandle {
        PolicyHandle::new(policy)
    }
}

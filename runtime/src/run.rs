//! One model of a run's counters, `steps`, `errors`, `failures` and `stop_requests`, with a
//! method for each thing that can happen to them (docs/state.md, "What the counters mean").
//!
//! Invariant: these methods are the only rules by which a counter of a run moves. The agent
//! loop (`state.rs`) and the hook's mapping of a host's calls (`rulesc-host`) drive them; a
//! front door decides which of its own signals is which transition (a hook sees a turn where
//! the loop sees a step), never how a counter changes, so `failures` or `stop_requests` count
//! by one rule wherever a run is seen.

use crate::event::Event;

/// The counters of one run, as its events see them
///
/// Changed only by its transitions: [`RunCounters::call_failed`],
/// [`RunCounters::step_ended`] and those of its [`StopChain`]. Every value is valid (a host may resume any counts it kept), so a
/// resumed run starts from whatever it is given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunCounters {
    /// Steps completed
    steps: u64,
    /// Failed calls, and blocked tool calls, in the whole run
    errors: u64,
    /// Failed and blocked calls since a step last ended without one
    failures: u64,
    /// Whether a call failed, or was blocked, in the step under way
    step_failed: bool,
    /// The stops prevented in a row
    stop_requests: StopChain,
}

/// The stops prevented in a row: a chain that a prevented stop lengthens and a stop that
/// stands, or a user who speaks again, ends
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StopChain(u64);

impl RunCounters {
    /// A run resumed with the counts a host kept between two of its events
    pub fn resumed(steps: u64, errors: u64, failures: u64, stop_requests: u64) -> RunCounters {
        RunCounters {
            steps,
            errors,
            failures,
            step_failed: false,
            stop_requests: StopChain(stop_requests),
        }
    }

    /// The same counters, in a step under way in which a call failed (`failed`) or none did
    #[must_use]
    pub fn in_step_that_failed(self, failed: bool) -> RunCounters {
        RunCounters {
            step_failed: failed,
            ..self
        }
    }

    /// Steps completed so far
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Failed calls, and blocked tool calls, in the whole run
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// Failed and blocked calls since a step last ended without one
    pub fn failures(&self) -> u64 {
        self.failures
    }

    /// Whether a call failed, or was blocked, in the step under way
    pub fn step_failed(&self) -> bool {
        self.step_failed
    }

    /// The stops prevented in a row
    pub fn stop_requests(&self) -> u64 {
        self.stop_requests.count()
    }

    /// The chain of prevented stops, for a stop hook's transitions
    pub fn stops(&mut self) -> &mut StopChain {
        &mut self.stop_requests
    }

    /// A model call or a tool call failed, or a tool call was blocked: one more error, one
    /// more failure in a row, and the step under way is one that failed
    pub fn call_failed(&mut self) {
        self.errors = self.errors.saturating_add(1);
        self.failures = self.failures.saturating_add(1);
        self.step_failed = true;
    }

    /// The step under way ended (a loop's step, a hook's turn): it counts in `steps` when
    /// `counted`, and when none of its calls failed the failures in a row are over
    pub fn step_ended(&mut self, counted: bool) {
        if counted {
            self.steps = self.steps.saturating_add(1);
        }
        if !self.step_failed {
            self.failures = 0;
        }
        self.step_failed = false;
    }

    /// Writes the counters every event sees (`steps`, `errors`, `failures`) into `event`;
    /// `stop_requests`, seen by stop events alone, is theirs to write
    pub fn describe(&self, event: &mut Event) {
        event.steps = self.steps;
        event.errors = self.errors;
        event.failures = self.failures;
    }
}

impl StopChain {
    /// A chain resumed at `count` prevented stops
    pub fn resumed(count: u64) -> StopChain {
        StopChain(count)
    }

    /// How many stops were prevented in a row
    pub fn count(self) -> u64 {
        self.0
    }

    /// A stop was prevented: the chain grows by one
    pub fn prevented(&mut self) {
        self.0 = self.0.saturating_add(1);
    }

    /// A stop stood: the chain is over, and the next stop starts a new one
    pub fn stood(&mut self) {
        self.0 = 0;
    }

    /// The host says whether this stop follows a prevented one (`going_on`), which it knows
    /// better than a count kept between calls (another hook may have prevented it): a chain
    /// going on has at least one prevented stop, and one that is not starts at 0
    pub fn reported(&mut self, going_on: bool) {
        self.0 = if going_on { self.0.max(1) } else { 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::EventKind;

    /// (steps, errors, failures, stop_requests)
    fn counts(counters: &RunCounters) -> (u64, u64, u64, u64) {
        (
            counters.steps(),
            counters.errors(),
            counters.failures(),
            counters.stop_requests(),
        )
    }

    /// docs/language.md §4.1: `failures` are consecutive, reset by a step that ended
    /// without one; `errors` are the run's total
    #[test]
    fn failures_count_in_a_row_until_a_step_ends_without_one() {
        let mut counters = RunCounters::default();
        counters.call_failed();
        counters.call_failed();
        counters.step_ended(true);
        assert_eq!(counts(&counters), (1, 2, 2, 0));
        assert!(!counters.step_failed());
        counters.step_ended(false);
        assert_eq!(
            counts(&counters),
            (1, 2, 0, 0),
            "a clean step, even uncounted"
        );
        counters.call_failed();
        assert!(counters.step_failed());
        assert_eq!(counts(&counters), (1, 3, 1, 0));
        let resumed = RunCounters::resumed(1, 3, 1, 0).in_step_that_failed(true);
        assert_eq!(resumed, counters);
        let mut event = Event::new(EventKind::PreToolUse);
        counters.describe(&mut event);
        assert_eq!((event.steps, event.errors, event.failures), (1, 3, 1));
        assert_eq!(event.stop_requests, None, "a tool event sees no stop count");
    }

    /// docs/language.md §5.6: prevented stops count in a row; the host's word on a chain
    /// wins over the count kept
    #[test]
    fn a_stop_chain_grows_until_a_stop_stands_or_the_host_says_it_is_over() {
        let mut counters = RunCounters::resumed(4, 0, 0, 0);
        counters.stops().prevented();
        counters.stops().prevented();
        assert_eq!(counters.stop_requests(), 2);
        counters.stops().stood();
        assert_eq!(counters.stop_requests(), 0);
        let mut chain = StopChain::resumed(0);
        chain.reported(true);
        assert_eq!(chain.count(), 1, "a chain going on has one stop prevented");
        chain.prevented();
        chain.reported(true);
        assert_eq!(chain.count(), 2);
        chain.reported(false);
        assert_eq!(chain.count(), 0);
        assert_eq!(counters.steps(), 4);
    }

    #[test]
    fn counters_saturate_rather_than_wrap() {
        let mut counters = RunCounters::resumed(u64::MAX, u64::MAX, u64::MAX, u64::MAX);
        counters.call_failed();
        counters.step_ended(true);
        counters.stops().prevented();
        assert_eq!(counts(&counters), (u64::MAX, u64::MAX, u64::MAX, u64::MAX));
    }
}

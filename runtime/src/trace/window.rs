//! A windowed count kept in bounded memory: the positions (steps or milliseconds) of the
//! most recent counted events, at most as many as the count's comparisons can tell apart.
//!
//! Invariant: positions are pushed in non-decreasing order (the trace clock never goes
//! back), so the events that left the window are always at the front, and each position is
//! pushed and popped once: O(1) amortized work per event.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// The positions of the latest counted events, oldest first
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct WindowCount {
    positions: VecDeque<u64>,
}

impl WindowCount {
    /// Counts an event at `position`, keeping at most `horizon` positions
    pub(crate) fn push(&mut self, position: u64, horizon: u64) {
        self.positions.push_back(position);
        while u64::try_from(self.positions.len()).unwrap_or(u64::MAX) > horizon {
            self.positions.pop_front();
        }
    }

    /// Forgets the events `width` or more behind `now`, and returns how many remain
    ///
    /// With at most `horizon` positions kept, the result is the true count in the window
    /// when that is below `horizon`, and `horizon` otherwise: the newest `horizon` events
    /// are kept, and if that many are in the window, so are at least that many.
    pub(crate) fn count(&mut self, now: u64, width: u64) -> u64 {
        while self
            .positions
            .front()
            .is_some_and(|oldest| now.saturating_sub(*oldest) >= width)
        {
            self.positions.pop_front();
        }
        u64::try_from(self.positions.len()).unwrap_or(u64::MAX)
    }
}

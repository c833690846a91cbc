//! N threshold rules on one counter: `on before_step when steps >= {10 (i + 1)} forbid`.
//!
//! The no-match event has 5 steps, under every bound; the one-match event has 10, the
//! lowest bound.

use rulesc::{Event, EventKind};

use crate::tool_rules::Request;

/// `n_rules` budgets on `steps`, ten apart
pub fn rulesc_source(n_rules: usize) -> String {
    let mut source = String::from("policy \"steps\"\n");
    for rule_idx in 0..n_rules {
        let bound = 10 * (rule_idx + 1);
        source.push_str(&format!(
            "\n@id(\"steps{bound}\")\non before_step when steps >= {bound} forbid steps_limit_reached\n"
        ));
    }
    source
}

/// The `before_step` event of `request`
pub fn event(request: Request) -> Event {
    let mut event = Event::new(EventKind::BeforeStep);
    event.steps = match request {
        Request::NoMatch => 5,
        Request::OneMatch => 10,
    };
    event
}

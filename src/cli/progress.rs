//! A progress bar on stderr for commands that work through many items (`rulesc test` over a
//! big folder), drawn only when stderr is a terminal: piped or redirected, a command's
//! output is exactly what it is without one.
//!
//! The bar is cleared when the work ends, so what stays on the terminal is the command's own
//! output; anything printed on stderr meanwhile goes through [`Progress::suspend`], so a
//! warning never lands in the middle of a bar.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Work of a known number of items below which no bar is worth drawing
const MIN_ITEMS: u64 = 2;

/// The progress of one command's work
pub(crate) struct Progress {
    /// The bar; `None` when stderr is not a terminal or the work is too small
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Progress over `len` items, each one `what` (`tests`), shown when stderr is a terminal
    pub(crate) fn new(len: u64, what: &str) -> Progress {
        Progress::shown_if(std::io::stderr().is_terminal(), len, what)
    }

    /// Progress drawn only when `terminal` holds and the work has a few items
    fn shown_if(terminal: bool, len: u64, what: &str) -> Progress {
        if !terminal || len < MIN_ITEMS {
            return Progress { bar: None };
        }
        let bar = ProgressBar::new(len);
        // The template is fixed text, so it always parses; without it the default bar stands.
        if let Ok(style) =
            ProgressStyle::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {what} {{msg}}"))
        {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }

    /// One more item done
    pub(crate) fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Shows which item is being worked on
    pub(crate) fn set_message(&self, message: impl Into<String>) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.into());
        }
    }

    /// Runs `work` with the bar out of the way, for anything it prints on stderr
    pub(crate) fn suspend<T>(&self, work: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(work),
            None => work(),
        }
    }

    /// Whether a bar is drawn
    #[cfg(test)]
    fn is_shown(&self) -> bool {
        self.bar.is_some()
    }
}

impl Drop for Progress {
    /// Clears the bar, whichever way the command ends
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_is_drawn_only_on_a_terminal_and_for_some_work() {
        assert!(Progress::shown_if(true, 10, "tests").is_shown());
        assert!(!Progress::shown_if(false, 10, "tests").is_shown());
        assert!(!Progress::shown_if(true, 1, "tests").is_shown());
    }
}

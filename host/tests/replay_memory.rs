//! A trace far larger than memory should need replays in bounded memory: the trace is
//! generated as it is read, never held whole, and the peak resident memory of this test
//! process (its own binary, so no other test shares it) is held to a bound.

#![cfg(target_os = "linux")]
#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test: a failure should stop it"
)]

use std::io::{BufReader, Read};

use rulesc_host::replay::{Replay, MAX_LINE};
use rulesc_runtime::{Defaults, Policy};

/// Lines made on demand: `lines` copies of `line`, after an optional overlong first line
struct Generated {
    head: usize,
    line: &'static [u8],
    lines: usize,
    at: usize,
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.head > 1 {
            let n = buf.len().min(self.head - 1);
            buf[..n].fill(b'x');
            self.head -= n;
            return Ok(n);
        }
        if self.head == 1 {
            self.head = 0;
            buf[0] = b'\n';
            return Ok(1);
        }
        if self.lines == 0 {
            return Ok(0);
        }
        let rest = &self.line[self.at..];
        let n = buf.len().min(rest.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.at += n;
        if self.at == self.line.len() {
            self.at = 0;
            self.lines -= 1;
        }
        Ok(n)
    }
}

/// The peak resident memory of this process so far, in bytes (`VmHWM`)
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

#[test]
fn a_large_trace_replays_in_bounded_memory() {
    const LINE: &[u8] = b"{\"session\": \"big\", \"event\": \"pre_tool_use\", \"tool\": \"Bash\", \"arg\": {\"command\": \"ls -la /home/user/project/src/a/rather/long/path/so/that/each/line/weighs/something\"}, \"step\": 1}\n";
    let lines = 12 << 20 >> 7; // about 12 MiB of events
    let policy = Policy::new(Vec::new(), Defaults::default()).unwrap();
    let policies = [policy];
    let before = peak_rss();
    let mut replay = Replay::new(&policies, false);
    let trace = Generated {
        head: 2 * MAX_LINE,
        line: LINE,
        lines,
        at: 0,
    };
    let mut read = 0;
    replay
        .read("big.jsonl", BufReader::new(trace), None, &mut |bytes| {
            read = bytes
        })
        .unwrap();
    let replayed = replay.finish();
    let growth = peak_rss().saturating_sub(before);
    let total = (2 * MAX_LINE + lines * LINE.len()) as u64;
    assert_eq!(read, total);
    assert_eq!(replayed.runs[0][0].events, lines as u64);
    assert_eq!(replayed.warnings.len(), 2, "{:?}", replayed.warnings);
    assert!(replayed.warnings[0].reason.contains("longer than 64 MiB"));
    assert!(replayed.warnings[1].reason.contains("no `stop`"));
    // At most one line's bound, and slack for the allocator: far less than the trace.
    let bound = (MAX_LINE as u64) + (16 << 20);
    assert!(
        growth < bound,
        "peak grew by {growth} bytes reading {total}"
    );
}

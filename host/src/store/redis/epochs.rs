//! What this machine remembers of the Redis servers it used: the epoch each had when last
//! seen, in `redis-epochs` of the state folder, one line `HOST:PORT/DB EPOCH` per server.
//!
//! Why on the machine: a server emptied whole (`FLUSHALL`, a restart without persistence)
//! keeps nothing that tells it from a new one, so only its clients can notice that the
//! epoch they knew is gone. The file is read on every hook call (it is a few lines) and
//! written only when a server is first seen or a loss is acknowledged, under the state
//! folder's lock.

use std::io::{self, ErrorKind};
use std::path::PathBuf;

use crate::private;
use crate::state::{with_path, write_atomically, StateDir};

/// The file's name in the state folder
const FILE_NAME: &str = "redis-epochs";

/// The largest record read: a line per server, a few dozen bytes each
const MAX_BYTES: u64 = 64 * 1024;

/// The epochs this machine last saw, by server
pub(super) struct Epochs {
    dir: StateDir,
}

impl Epochs {
    /// The record kept in the state folder `dir`
    pub(super) fn new(dir: StateDir) -> Epochs {
        Epochs { dir }
    }

    fn path(&self) -> PathBuf {
        // The state folder holds `sessions/`; the record sits beside it.
        self.dir.sessions().with_file_name(FILE_NAME)
    }

    /// The record, read as every file of the state folder is: the user's own, private, no
    /// link and no fifo, within [`MAX_BYTES`]; empty when there is none
    fn read(&self) -> io::Result<String> {
        let path = self.path();
        let Some(bytes) = private::read(&path, MAX_BYTES)? else {
            return Ok(String::new());
        };
        String::from_utf8(bytes).map_err(|_| {
            with_path(
                io::Error::new(ErrorKind::InvalidData, "it is not UTF-8 text"),
                &path,
            )
        })
    }

    /// The epoch of `server` when this machine last saw it, if it ever did
    pub(super) fn known(&self, server: &str) -> io::Result<Option<String>> {
        Ok(epoch_of(&self.read()?, server).map(str::to_owned))
    }

    /// Records that `server`'s epoch is now `epoch`
    pub(super) fn remember(&self, server: &str, epoch: &str) -> io::Result<()> {
        let _lock = self.dir.lock()?;
        let text = self.read()?;
        if epoch_of(&text, server) == Some(epoch) {
            return Ok(());
        }
        let mut lines: Vec<&str> = text
            .lines()
            .filter(|line| line.split_once(' ').map(|(name, _)| name) != Some(server))
            .collect();
        let line = format!("{server} {epoch}");
        lines.push(&line);
        let mut bytes = lines.join("\n");
        bytes.push('\n');
        write_atomically(&self.path(), bytes.as_bytes())
    }
}

/// `server`'s epoch in the record `text`
fn epoch_of<'a>(text: &'a str, server: &str) -> Option<&'a str> {
    text.lines()
        .filter_map(|line| line.split_once(' '))
        .find(|(name, _)| *name == server)
        .map(|(_, epoch)| epoch)
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn each_server_keeps_one_line() {
        let root = tempfile::tempdir().unwrap();
        let epochs = Epochs::new(StateDir::open(root.path()).unwrap());
        assert_eq!(epochs.known("h:1/0").unwrap(), None);
        epochs.remember("h:1/0", "a").unwrap();
        epochs.remember("h:1/1", "b").unwrap();
        epochs.remember("h:1/0", "c").unwrap();
        assert_eq!(epochs.known("h:1/0").unwrap().as_deref(), Some("c"));
        assert_eq!(epochs.known("h:1/1").unwrap().as_deref(), Some("b"));
        assert_eq!(
            fs::read_to_string(root.path().join("redis-epochs")).unwrap(),
            "h:1/1 b\nh:1/0 c\n"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_or_fifo_record_is_refused_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let epochs = Epochs::new(StateDir::open(root.path()).unwrap());
        let record = root.path().join("redis-epochs");
        std::os::unix::fs::symlink("/dev/zero", &record).unwrap();
        let err = epochs.known("h:1/0").unwrap_err().to_string();
        assert!(err.contains("redis-epochs"), "{err}");
        fs::remove_file(&record).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&record)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(
            epochs.known("h:1/0").is_err(),
            "a fifo is no record, and no wait"
        );
    }
}

//! What this machine remembers of the Redis servers it used: the epoch each had when last
//! seen, in `redis-epochs` of the state folder, one line `HOST:PORT/DB EPOCH` per server.
//!
//! Why on the machine: a server emptied whole (`FLUSHALL`, a restart without persistence)
//! keeps nothing that tells it from a new one, so only its clients can notice that the
//! epoch they knew is gone. The file is read on every hook call (it is a few lines) and
//! written only when a server is first seen or a loss is acknowledged, under the state
//! folder's lock.

use std::fs;
use std::io::{self, ErrorKind};
use std::path::PathBuf;

use crate::state::{with_path, write_atomically, StateDir};

/// The file's name in the state folder
const FILE_NAME: &str = "redis-epochs";

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

    fn read(&self) -> io::Result<String> {
        let path = self.path();
        match fs::read_to_string(&path) {
            Ok(text) => Ok(text),
            Err(err) if err.kind() == ErrorKind::NotFound => Ok(String::new()),
            Err(err) => Err(with_path(err, &path)),
        }
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
}

//! Files written on the line from a secret (`gpg -c -o k.gpg ~/.ssh/id_rsa`, `split -b 200
//! ~/.aws/credentials /tmp/k.`, `base64 .env > e.txt`): each carries the secret it was made
//! from, so a later command that reads one reads the secret too, as far as a rule can tell.

use crate::knowledge;

/// The files written on the line so far from a secret, each with the secret's path
#[derive(Debug, Default)]
pub(crate) struct SecretCopies {
    copies: Vec<(String, String)>,
}

impl SecretCopies {
    /// Notes the files `written` by a command of `program` whose paths are `paths`: those
    /// written from a secret among them carry it. What a program makes public of a secret
    /// (`ssh-keygen -y`, a checksum) carries nothing.
    pub(crate) fn note<'a>(
        &mut self,
        program: &str,
        paths: &[String],
        written: impl Iterator<Item = &'a String>,
    ) {
        // Most commands write no file: then no path need be asked whether it is a secret.
        let mut written = written.peekable();
        if written.peek().is_none() || knowledge::PUBLIC_FROM_SECRETS.contains(&program) {
            return;
        }
        let Some(secret) = paths.iter().find(|path| knowledge::is_secret_path(path)) else {
            return;
        };
        for file in written {
            if !knowledge::is_secret_path(file) {
                self.copies.push((file.clone(), secret.clone()));
            }
        }
    }

    /// Whether no file written from a secret was noted
    pub(crate) fn is_empty(&self) -> bool {
        self.copies.is_empty()
    }

    /// The secrets the files among `paths` and the files `args` give (`-F f=@FILE`,
    /// `--data-binary @FILE`, `--post-file=FILE`) carry; `as_path` normalises a file an
    /// option gives as the command's paths are (`-d @t` reads `t` in the working directory)
    pub(crate) fn read_by(
        &self,
        paths: &[String],
        args: &[String],
        as_path: impl Fn(&str) -> String,
    ) -> Vec<String> {
        if self.copies.is_empty() {
            return Vec::new();
        }
        let given = args.iter().filter_map(|arg| {
            let start = arg.find(['@', '<']).or_else(|| arg.find('='))?;
            let file = arg.get(start + 1..)?;
            Some(as_path(file.split(';').next().unwrap_or(file)))
        });
        let given: Vec<String> = given.collect();
        let read: Vec<&str> = paths.iter().chain(&given).map(String::as_str).collect();
        let mut secrets = Vec::new();
        for (file, secret) in &self.copies {
            if read.iter().any(|path| names(path, file)) && !secrets.contains(secret) {
                secrets.push(secret.clone());
            }
        }
        secrets
    }
}

/// Whether `path` may name the copy `file`: the same path, a path going on from it (the
/// pieces `split` names after its prefix, `k.aa`), or a glob whose text before its first
/// pattern character starts it (`/tmp/k.*`)
fn names(path: &str, file: &str) -> bool {
    let literal = path.find(['*', '?', '[']).map_or(path, |at| &path[..at]);
    if literal.len() < path.len() {
        return !literal.is_empty() && (file.starts_with(literal) || literal.starts_with(file));
    }
    path.starts_with(file)
}

#[cfg(test)]
mod tests {
    use super::SecretCopies;

    fn owned(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn a_file_written_from_a_secret_carries_it() {
        let mut copies = SecretCopies::default();
        let key = "/home/u/.ssh/id_ed25519";
        copies.note("gpg", &owned(&[key]), owned(&["/tmp/k.gpg"]).iter());
        copies.note("split", &owned(&[key]), owned(&["/tmp/p."]).iter());
        copies.note("cp", &owned(&["README.md"]), owned(&["/tmp/r"]).iter());
        copies.note("base64", &owned(&[key]), owned(&["/p/t"]).iter());
        let read = |paths: &[&str], args: &[&str]| {
            copies.read_by(&owned(paths), &owned(args), |file| {
                if file.starts_with('/') {
                    file.to_owned()
                } else {
                    format!("/p/{file}")
                }
            })
        };
        assert_eq!(read(&[], &["-F", "f=@/tmp/k.gpg"]), [key]);
        assert_eq!(read(&["/tmp/k.gpg"], &[]), [key]);
        assert_eq!(read(&[], &["--data-binary", "@/tmp/p.aa"]), [key]);
        assert_eq!(read(&[], &["f=@/tmp/p.*;type=text/plain"]), [key]);
        assert!(read(&["/tmp/r"], &["-T", "/tmp/other"]).is_empty());
        // curl(1) `-d @FILE` reads FILE where curl runs: a relative name is that path.
        assert_eq!(read(&[], &["-d", "@t"]), [key]);
    }

    #[test]
    fn what_is_made_public_of_a_secret_carries_nothing() {
        let mut copies = SecretCopies::default();
        let key = owned(&["/home/u/.ssh/id_rsa"]);
        copies.note("ssh-keygen", &key, owned(&["/tmp/key.pub"]).iter());
        copies.note("sha256sum", &key, owned(&["/tmp/sums"]).iter());
        assert!(copies
            .read_by(&owned(&["/tmp/key.pub", "/tmp/sums"]), &[], str::to_owned)
            .is_empty());
    }
}

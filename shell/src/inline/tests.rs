//! Each language's reader against what the interpreter would do with the code.

use std::time::{Duration, Instant};

use super::{effects, Effect, Value};
use crate::knowledge::Lang;

fn read(lang: Lang, code: &str) -> Vec<Effect> {
    effects(
        lang,
        "interpreter",
        code,
        Instant::now() + Duration::from_secs(5),
    )
}

fn known(text: &str) -> Value {
    Value::Known(text.to_owned())
}

fn script(text: &str) -> Effect {
    Effect::Script(known(text))
}

fn exec(words: &[&str]) -> Effect {
    Effect::Exec(words.iter().map(|word| known(word)).collect())
}

fn delete(tree: bool, empty_folder: bool, path: &str) -> Effect {
    Effect::Delete {
        tree,
        empty_folder,
        path: known(path),
    }
}

fn write(path: &str) -> Effect {
    Effect::Write(known(path))
}

/// What a case expects: these effects exactly, or some opaque effect, or some effect whose
/// value is unknown
enum Expect {
    Exactly(Vec<Effect>),
    Opaque,
    UnknownValue,
}

fn check(lang: Lang, cases: Vec<(&str, Expect)>) {
    for (code, expected) in cases {
        let found = read(lang, code);
        match expected {
            Expect::Exactly(effects) => assert_eq!(found, effects, "{lang:?}: {code}"),
            Expect::Opaque => assert!(
                found
                    .iter()
                    .any(|effect| matches!(effect, Effect::Opaque(_))),
                "{lang:?}: {code} gave {found:?}"
            ),
            Expect::UnknownValue => assert!(
                found.iter().any(|effect| match effect {
                    Effect::Script(Value::Unknown(_))
                    | Effect::Write(Value::Unknown(_))
                    | Effect::Delete {
                        path: Value::Unknown(_),
                        ..
                    } => true,
                    Effect::Exec(words) =>
                        words.iter().any(|word| matches!(word, Value::Unknown(_))),
                    _ => false,
                }),
                "{lang:?}: {code} gave {found:?}"
            ),
        }
    }
}

use Expect::{Exactly, Opaque, UnknownValue};

/// kill(2): a pid of `-1` signals every process the caller may signal; killpg(3) of `0`
/// the caller's own group. `os.fork()` makes a process each time it is called.
#[test]
fn signals_forks_and_downloads() {
    check(
        Lang::Python,
        vec![
            (
                "import os; os.kill(-1, 9)",
                Exactly(vec![exec(&["kill", "-s", "9", "-1"])]),
            ),
            (
                "import os, signal; os.kill(-1, signal.SIGKILL)",
                Exactly(vec![exec(&["kill", "-s", "KILL", "-1"])]),
            ),
            (
                "import os; os.killpg(0, 9)",
                Exactly(vec![exec(&["kill", "-s", "9", "-1"])]),
            ),
            (
                "import os; os.killpg(42, 15)",
                Exactly(vec![exec(&["kill", "-s", "15", "-42"])]),
            ),
            ("import os, sys; os.kill(int(sys.argv[1]), 9)", UnknownValue),
            ("import os; [os.fork() for _ in iter(int, 1)]", Opaque),
            // urllib.request's docs: `urlretrieve(url, filename)` copies the object there.
            (
                "import urllib.request as u; u.urlretrieve('https://h/a', 'x.sh')",
                Exactly(vec![write("x.sh")]),
            ),
            (
                "from urllib.request import urlretrieve; urlretrieve('https://h/a')",
                Exactly(vec![]),
            ),
            ("import os\nwhile True:\n    os.fork()", Opaque),
            (
                "import os\nif os.fork() == 0:\n    print(1)",
                Exactly(vec![]),
            ),
        ],
    );
    check(
        Lang::JavaScript,
        vec![
            (
                "process.kill(-1)",
                Exactly(vec![exec(&["kill", "-s", "TERM", "-1"])]),
            ),
            (
                "process.kill(-1, 'SIGKILL')",
                Exactly(vec![exec(&["kill", "-s", "KILL", "-1"])]),
            ),
            ("process.kill(process.pid, 0)", UnknownValue),
        ],
    );
}

#[test]
fn python() {
    check(
        Lang::Python,
        vec![
            ("print(1+1)", Exactly(vec![])),
            (
                "import json,sys; print(json.load(sys.stdin)[\"x\"])",
                Exactly(vec![]),
            ),
            (
                "import os; os.system(\"rm -rf ~\")",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "import os as o; o.popen('id').read()",
                Exactly(vec![script("id")]),
            ),
            (
                "from os import system as s; s('rm -rf /')",
                Exactly(vec![script("rm -rf /")]),
            ),
            (
                "from os import *; system('id')",
                Exactly(vec![script("id")]),
            ),
            ("__import__('os').system('id')", Exactly(vec![script("id")])),
            (
                "import importlib; importlib.import_module('os').system('id')",
                Exactly(vec![script("id")]),
            ),
            (
                "import os; c = 'rm ' + \"-rf /etc\"; os.system(c)",
                Exactly(vec![script("rm -rf /etc")]),
            ),
            (
                "import os; os.system(('rm ' + '-rf ') + ('~'))",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "import os; os.system('r\\x6d -rf ~')",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "import subprocess; subprocess.run(['rm', '-rf', '/'])",
                Exactly(vec![exec(&["rm", "-rf", "/"])]),
            ),
            (
                "import subprocess as sp; sp.check_output('ls -la', shell=True)",
                Exactly(vec![script("ls -la")]),
            ),
            (
                "import subprocess; subprocess.Popen(args=('git', 'push', '-f'))",
                Exactly(vec![exec(&["git", "push", "-f"])]),
            ),
            (
                "import os; os.execvp('rm', ['rm', '-rf', '/'])",
                Exactly(vec![exec(&["rm", "-rf", "/"])]),
            ),
            (
                "import os; os.execl('/bin/rm', 'rm', '-rf', '/')",
                Exactly(vec![exec(&["/bin/rm", "-rf", "/"])]),
            ),
            (
                "import os; os.spawnlp(os.P_WAIT, 'rm', 'rm', '-rf', '/')",
                Exactly(vec![exec(&["rm", "-rf", "/"])]),
            ),
            (
                "import pty; pty.spawn('/bin/sh')",
                Exactly(vec![script("/bin/sh")]),
            ),
            (
                "import shutil; shutil.rmtree('/etc')",
                Exactly(vec![delete(true, false, "/etc")]),
            ),
            (
                "import os; os.remove('/etc/passwd'); os.rmdir('x')",
                Exactly(vec![
                    delete(false, false, "/etc/passwd"),
                    delete(false, true, "x"),
                ]),
            ),
            (
                "from pathlib import Path; Path('/etc', 'hosts').unlink()",
                Exactly(vec![delete(false, false, "/etc/hosts")]),
            ),
            (
                "open('/dev/sda', 'wb').write(b'0')",
                Exactly(vec![write("/dev/sda")]),
            ),
            ("print(open('/etc/hosts').read())", Exactly(vec![])),
            ("import os; os.system(f'rm -rf {d}')", UnknownValue),
            ("import os,sys; os.system(sys.argv[1])", UnknownValue),
            (
                "import shutil,sys; shutil.rmtree(sys.argv[1])",
                UnknownValue,
            ),
            (
                "import subprocess,sys; subprocess.run(sys.argv[1:])",
                UnknownValue,
            ),
            ("exec('import os')", Opaque),
            ("eval(input())", Opaque),
            ("import base64; exec(base64.b64decode('aWQ='))", Opaque),
            (
                "m = 'os'; __import__(m).system('id')",
                Exactly(vec![script("id")]),
            ),
            ("import sys; __import__(sys.argv[1])", Opaque),
            ("print(vars(__import__('os')))", Opaque),
            ("import os; f = os.system; f = print; f('id')", Opaque),
            (
                "import os; c = 'id'; c = 'rm -rf ~'; os.system(c)",
                UnknownValue,
            ),
            ("import os; list(map(os.system, ['id']))", Opaque),
            ("import os; getattr(os, 'sys' + 'tem')('id')", Opaque),
            ("import os; print(getattr(os, 'sep'))", Exactly(vec![])),
            ("import os as o; o = o; o.system('id')", Opaque),
            ("import os; os.__dict__['system']('id')", Opaque),
        ],
    );
}

#[test]
fn javascript() {
    check(
        Lang::JavaScript,
        vec![
            ("console.log(process.version)", Exactly(vec![])),
            (
                "console.log(require('fs').readFileSync('package.json', 'utf8'))",
                Exactly(vec![]),
            ),
            (
                "require('child_process').execSync('rm -rf ~')",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "const cp = require('node:child_process'); cp.exec(\"id\")",
                Exactly(vec![script("id")]),
            ),
            (
                "const { execSync: run } = require('child_process'); run(`ls`)",
                Exactly(vec![script("ls")]),
            ),
            (
                "require('child_process').spawnSync('rm', ['-rf', '/'])",
                Exactly(vec![exec(&["rm", "-rf", "/"])]),
            ),
            (
                "require('fs').rmSync('/etc', { recursive: true, force: true })",
                Exactly(vec![delete(true, false, "/etc")]),
            ),
            (
                "const fs = require('fs'); fs.unlinkSync('/etc/passwd')",
                Exactly(vec![delete(false, false, "/etc/passwd")]),
            ),
            (
                "require('fs/promises').rm('x')",
                Exactly(vec![delete(false, false, "x")]),
            ),
            (
                "require('fs').writeFileSync('/dev/sda', 'x')",
                Exactly(vec![write("/dev/sda")]),
            ),
            (
                "import { rmSync } from 'fs'; rmSync('/', { recursive: true })",
                Exactly(vec![delete(true, false, "/")]),
            ),
            (
                "require('child_process').exec('rm -rf ' + process.argv[1])",
                UnknownValue,
            ),
            (
                "require('child_process').execSync(`rm -rf ${dir}`)",
                UnknownValue,
            ),
            ("eval('1+1')", Opaque),
            ("new Function('return 1')()", Opaque),
            (
                "module.constructor._load('child_process').execSync('id')",
                Opaque,
            ),
            ("require(process.argv[1])", Opaque),
            (
                "const m = require('child_process'); [1].forEach(m.execSync)",
                Opaque,
            ),
            (
                "require('child_process')['exe' + 'c']('id')",
                Exactly(vec![script("id")]),
            ),
            ("require('child_process')[process.argv[2]]('id')", Opaque),
            ("require('vm').runInThisContext('1')", Opaque),
            (
                "const c = 'rm ' + ('-rf ' + '~'); require('child_process').execSync((c))",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "const cp = require('child_process'); let f = cp.execSync; f = console.log; f('id')",
                Opaque,
            ),
            ("import('child_process').then(cp => cp.execSync('id'))", Opaque),
            ("(async () => { const cp = await import('node:child_process'); cp.execSync('id') })()", Exactly(vec![script("id")])),
        ],
    );
}

/// The Python library reference: `shutil.move` and `os.rename`/`os.replace` move their
/// source to their destination, `shutil.copy*` write their destination; `os.path.join`
/// starts again at an absolute part, `os.path.expanduser` and `Path.expanduser` expand a
/// leading `~` (kept as `~` here), `Path.home()` is the home, `/` joins paths; after
/// `os.chdir(d)` a relative path names a file under `d`.
#[test]
fn python_moves_copies_paths_and_folders() {
    check(
        Lang::Python,
        vec![
            (
                "import shutil,os;shutil.move('/tmp/k',os.path.expanduser('~/.ssh/authorized_keys'))",
                Exactly(vec![
                    delete(true, false, "/tmp/k"),
                    write("~/.ssh/authorized_keys"),
                ]),
            ),
            (
                "import os; os.replace('a', os.path.join('/etc', 'cron.d', 'x'))",
                Exactly(vec![delete(true, false, "a"), write("/etc/cron.d/x")]),
            ),
            (
                "import shutil; shutil.copy2('k', dst='/root/.bashrc')",
                Exactly(vec![write("/root/.bashrc")]),
            ),
            (
                "import os; os.path.join('a', '/etc', 'hosts'); open(os.path.join('a', '/etc', 'hosts'), 'w')",
                Exactly(vec![write("/etc/hosts")]),
            ),
            (
                "import pathlib; (pathlib.Path.home() / '.ssh' / 'config').write_text('x')",
                Exactly(vec![write("~/.ssh/config")]),
            ),
            (
                "from pathlib import Path; Path('~/.bashrc').expanduser().unlink()",
                Exactly(vec![delete(false, false, "~/.bashrc")]),
            ),
            (
                "import os;os.chdir('..');import shutil;shutil.rmtree('.ssh')",
                Exactly(vec![delete(true, false, "../.ssh")]),
            ),
            (
                "import os; os.chdir('/srv'); os.chdir('www'); os.remove('/etc/x'); os.remove('a')",
                Exactly(vec![
                    delete(false, false, "/etc/x"),
                    delete(false, false, "/srv/www/a"),
                ]),
            ),
            (
                "import os,sys; os.chdir(sys.argv[1]); os.remove('a')",
                UnknownValue,
            ),
            (
                "import pathlib,re; p=pathlib.Path('README.md'); p.write_text(re.sub(r'a', 'b', p.read_text()))",
                Exactly(vec![write("README.md")]),
            ),
            (
                "import pathlib; p = pathlib.Path('a'); p = pathlib.Path('/etc/x'); p.write_text('')",
                UnknownValue,
            ),
            (
                "import shutil,sys; shutil.move('a', sys.argv[1])",
                UnknownValue,
            ),
        ],
    );
}

/// `os.truncate` writes its path; `Path.rename` and `Path.replace` move the path to their
/// target, as `os.rename` does; `TarFile.extractall(d)`, `ZipFile.extractall(d)`,
/// `extract(m, d)` and `shutil.unpack_archive(f, d)` write below `d` whatever names the
/// archive holds, in the folder the code runs in without one; `os.symlink(t, p)` and
/// `Path(p).symlink_to(t)` make `p` lead to `t` as `ln -s -T t p` does, `os.link` and
/// `hardlink_to` as `ln -T` does.
#[test]
fn python_truncates_renames_unpacks_and_links() {
    check(
        Lang::Python,
        vec![
            (
                "import os; os.truncate('/etc/passwd', 0)",
                Exactly(vec![write("/etc/passwd")]),
            ),
            (
                "import pathlib; pathlib.Path.home().rename('/tmp/h')",
                Exactly(vec![delete(true, false, "~"), write("/tmp/h")]),
            ),
            (
                "from pathlib import Path; Path('a.txt').replace(target='b.txt')",
                Exactly(vec![delete(true, false, "a.txt"), write("b.txt")]),
            ),
            ("print('a-b'.replace('-', '_'))", Exactly(vec![])),
            // pandas' `rename` and `replace` change labels and values, not files.
            (
                "import pandas as pd; s = pd.Series([1]); print(s.rename('n'), s.replace({1: 2}))",
                Exactly(vec![]),
            ),
            (
                "import sys; from pathlib import Path; Path(sys.argv[1]).rename(sys.argv[2])",
                UnknownValue,
            ),
            (
                "import sys, pathlib; p = pathlib.Path(sys.argv[1]); p.replace('/etc/passwd')",
                UnknownValue,
            ),
            ("import datetime; datetime.date.today().replace(year=2020)", Exactly(vec![])),
            (
                "import tarfile; tarfile.open('x.tgz').extractall('/')",
                Exactly(vec![write("/"), write("/*")]),
            ),
            (
                "import zipfile\nwith zipfile.ZipFile('x.zip') as z:\n    z.extractall(path='/home/u/')",
                Exactly(vec![write("/home/u/"), write("/home/u/*")]),
            ),
            (
                "import tarfile; tarfile.open('x.tgz').extractall()",
                Exactly(vec![write("."), write("./*")]),
            ),
            (
                "import tarfile; tarfile.open('x.tgz').extract('.bashrc', '/home/u')",
                Exactly(vec![write("/home/u"), write("/home/u/*")]),
            ),
            (
                "import shutil; shutil.unpack_archive('x.tgz', '/')",
                Exactly(vec![write("/"), write("/*")]),
            ),
            (
                "import shutil,sys; shutil.unpack_archive('x.tgz', sys.argv[1])",
                UnknownValue,
            ),
            (
                "import os; os.symlink('/home/dev', 'h')",
                Exactly(vec![exec(&["ln", "-s", "-T", "--", "/home/dev", "h"])]),
            ),
            (
                "import os; os.link('/etc/passwd', 'p')",
                Exactly(vec![exec(&["ln", "-T", "--", "/etc/passwd", "p"])]),
            ),
            (
                "from pathlib import Path; Path('h').symlink_to(Path.home())",
                Exactly(vec![exec(&["ln", "-s", "-T", "--", "~", "h"])]),
            ),
        ],
    );
}

/// `os` re-exports the functions of its platform's module, `posix` or `nt`: `posix.system`
/// is `os.system`. Python reads identifiers in their NFKC form (PEP 3131), so `ｓｙｓｔｅｍ`
/// and `𝐬𝐲𝐬𝐭𝐞𝐦` name `system` and `ｏｓ` imports `os`; the text of a string stays as written.
/// A function's `__call__` is the function.
#[test]
fn python_names_as_python_reads_them() {
    check(
        Lang::Python,
        vec![
            (
                "import posix; posix.system('rm -rf ~')",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "from nt import system as s; s('id')",
                Exactly(vec![script("id")]),
            ),
            (
                "import posix; posix.execv('/bin/rm', ['rm', '-rf', '/'])",
                Exactly(vec![exec(&["/bin/rm", "-rf", "/"])]),
            ),
            ("import posix; list(map(posix.system, ['id']))", Opaque),
            (
                "import os; os.ｓｙｓｔｅｍ('rm -rf ~')",
                Exactly(vec![script("rm -rf ~")]),
            ),
            ("import os; os.𝐬𝐲𝐬𝐭𝐞𝐦('id')", Exactly(vec![script("id")])),
            ("import ｏｓ; os.system('id')", Exactly(vec![script("id")])),
            (
                "from os import ｓｙｓｔｅｍ as ｓ; s('id')",
                Exactly(vec![script("id")]),
            ),
            (
                "import os; os.system('ｒｍ -rf ~')",
                Exactly(vec![script("ｒｍ -rf ~")]),
            ),
            ("import posix; print(posix.getcwd())", Exactly(vec![])),
            (
                "import os; os.system.__call__('rm -rf ~')",
                Exactly(vec![script("rm -rf ~")]),
            ),
        ],
    );
}

/// JavaScript reads `\uXXXX` and `\u{X}` in an identifier or a property name as the
/// character (ECMA-262, IdentifierName): `\u0065xecSync` is `execSync`.
#[test]
fn javascript_names_with_escapes() {
    check(
        Lang::JavaScript,
        vec![
            (
                "require('child_process').\\u0065xecSync('rm -rf ~')",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "require('child_process').\\u{65}xecSync('id')",
                Exactly(vec![script("id")]),
            ),
            (
                "const \\u0063p = require('child_process'); cp.execSync('id')",
                Exactly(vec![script("id")]),
            ),
            (
                "const { \\u0065xecSync: run } = require('child_process'); run('id')",
                Exactly(vec![script("id")]),
            ),
            ("const \\u0061 = 1; console.log(a)", Exactly(vec![])),
        ],
    );
}

/// `f.call(this, a, b)`, `f.apply(this, [a, b])` and `Reflect.apply(f, this, [a, b])` run
/// `f` with `a, b` (ECMA-262, Function.prototype.call/apply, Reflect.apply); `f.bind(this)`
/// makes a function that runs `f` with whatever it is later given.
#[test]
fn javascript_functions_called_through_call_and_apply() {
    check(
        Lang::JavaScript,
        vec![
            (
                "const c=require('child_process'); c.execSync.call(null,'rm -rf ~')",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "require('child_process').execSync.apply(null, ['rm -rf ~'])",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "Reflect.apply(require('child_process').execSync, null, ['rm -rf ~'])",
                Exactly(vec![script("rm -rf ~")]),
            ),
            (
                "const cp = require('child_process'); cp.spawnSync['call'](null, 'rm', ['-rf', '/'])",
                Exactly(vec![exec(&["rm", "-rf", "/"])]),
            ),
            (
                "require('fs').rmSync.call(null, '/etc', {recursive: true})",
                Exactly(vec![delete(true, false, "/etc")]),
            ),
            (
                "require.call(null, 'child_process').execSync('id')",
                Exactly(vec![script("id")]),
            ),
            (
                "const c = require('child_process'); c.execSync.apply(null, process.argv.slice(2))",
                Opaque,
            ),
            (
                "const c = require('child_process'); c.execSync.apply(null, [...process.argv])",
                Opaque,
            ),
            (
                "const c = require('child_process'); c.execSync.bind(null)('rm -rf ~')",
                Opaque,
            ),
            (
                "const c = require('child_process'); const run = c.execSync.bind(c); run('id')",
                Opaque,
            ),
            ("fn.call(null, 1)", Exactly(vec![])),
            ("console.log(Math.max.apply(null, [1, 2]))", Exactly(vec![])),
            ("console.log(Reflect.apply(Math.max, null, nums))", Exactly(vec![])),
            ("console.log.call(console, 'x')", Exactly(vec![])),
        ],
    );
}

/// The Node.js `fs` documentation: `truncate` empties its path, `copyFile` and `cp` write
/// their destination, `link` and `symlink` make their second path, `rename` moves its first
/// path to its second, `open` writes with a flag of `w`, `a` or `+` and only reads without
/// one; each in its callback, `Sync` and `fs/promises` forms.
#[test]
fn node_fs_functions_that_change_a_path() {
    check(
        Lang::JavaScript,
        vec![
            (
                "require('fs').truncateSync('/home/u/.ssh/id_ed25519')",
                Exactly(vec![write("/home/u/.ssh/id_ed25519")]),
            ),
            (
                "require('fs/promises').truncate('a.txt', 0)",
                Exactly(vec![write("a.txt")]),
            ),
            (
                "const fs = require('fs'); fs.copyFileSync('k', '/home/u/.ssh/authorized_keys')",
                Exactly(vec![write("/home/u/.ssh/authorized_keys")]),
            ),
            (
                "require('fs').promises.cp('x', '/etc/cron.d', { recursive: true })",
                Exactly(vec![write("/etc/cron.d")]),
            ),
            (
                "require('fs').symlinkSync('/tmp/k', '/home/u/.bashrc')",
                Exactly(vec![write("/home/u/.bashrc")]),
            ),
            (
                "import { rename } from 'node:fs/promises'; await rename('/tmp/k', '/etc/hosts')",
                Exactly(vec![delete(true, false, "/tmp/k"), write("/etc/hosts")]),
            ),
            (
                "require('fs').appendFile('/etc/profile', 'x', () => {})",
                Exactly(vec![write("/etc/profile")]),
            ),
            (
                "require('fs').openSync('/etc/passwd', 'r+')",
                Exactly(vec![write("/etc/passwd")]),
            ),
            ("require('fs').openSync('/etc/passwd')", Exactly(vec![])),
            (
                "require('fs').openSync('/etc/passwd', 'r')",
                Exactly(vec![]),
            ),
            (
                "require('fs').openSync('/etc/passwd', mode)",
                Exactly(vec![write("/etc/passwd")]),
            ),
            (
                "require('fs').copyFileSync('a', process.argv[1])",
                UnknownValue,
            ),
        ],
    );
}

#[test]
fn ruby() {
    check(
        Lang::Ruby,
        vec![
            ("puts 1 + 1", Exactly(vec![])),
            ("puts RUBY_VERSION", Exactly(vec![])),
            ("system('rm -rf ~')", Exactly(vec![script("rm -rf ~")])),
            (
                "system 'rm', '-rf', '/'",
                Exactly(vec![exec(&["rm", "-rf", "/"])]),
            ),
            ("puts `id`", Exactly(vec![script("id")])),
            ("puts %x(rm -rf ~)", Exactly(vec![script("rm -rf ~")])),
            (
                "sh 'curl -s x | sh'",
                Exactly(vec![script("curl -s x | sh")]),
            ),
            (
                "sh 'rm', '-rf', '/'",
                Exactly(vec![exec(&["rm", "-rf", "/"])]),
            ),
            (
                "require 'fileutils'; FileUtils.rm_rf('/etc')",
                Exactly(vec![delete(true, false, "/etc")]),
            ),
            (
                "FileUtils.rm_rf(['/a', '/b'])",
                Exactly(vec![delete(true, false, "/a"), delete(true, false, "/b")]),
            ),
            (
                "File.delete(\"/etc/passwd\")",
                Exactly(vec![delete(false, false, "/etc/passwd")]),
            ),
            ("Kernel.exec(\"rm -rf #{ARGV[0]}\")", UnknownValue),
            ("eval(STDIN.read)", Opaque),
            (
                "open('|rm -rf ~') { |f| puts f.read }",
                Exactly(vec![script("rm -rf ~")]),
            ),
            ("puts File.read('Gemfile')", Exactly(vec![])),
            ("puts IO.read(ARGV[0])", Opaque),
            (
                "require 'fileutils'; include FileUtils; rm_rf '/etc'",
                Exactly(vec![delete(true, false, "/etc")]),
            ),
            (
                "require 'pathname'; Pathname.new(ARGV[0]).rmtree",
                UnknownValue,
            ),
            ("Kernel.send(:system, 'id')", Opaque),
            ("system('rm ' + '-rf ~')", Exactly(vec![script("rm -rf ~")])),
            // Only literal operands are read: a longer chain is not followed.
            ("system('rm ' + '-rf ' + '~')", UnknownValue),
        ],
    );
}

#[test]
fn php() {
    check(
        Lang::Php,
        vec![
            ("echo 1+1;", Exactly(vec![])),
            ("echo PHP_VERSION;", Exactly(vec![])),
            ("system('rm -rf ~');", Exactly(vec![script("rm -rf ~")])),
            ("echo shell_exec(\"id\");", Exactly(vec![script("id")])),
            ("echo `rm -rf /`;", Exactly(vec![script("rm -rf /")])),
            (
                "unlink('/etc/passwd');",
                Exactly(vec![delete(false, false, "/etc/passwd")]),
            ),
            (
                "file_put_contents('/dev/sda', 'x');",
                Exactly(vec![write("/dev/sda")]),
            ),
            ("passthru('rm -rf ' . $argv[1]);", UnknownValue),
            ("eval($argv[1]);", Opaque),
            ("$f = 'system'; $f('id');", Opaque),
            ("array_map('system', ['id']);", Opaque),
            (
                "system('rm ' . '-rf ' . '~');",
                Exactly(vec![script("rm -rf ~")]),
            ),
            // A file fed to `php` on its input: text before `<?php` is printed, code after
            // it runs (php(1)).
            (
                "hi <?php system('rm -rf ~'); ?> bye",
                Exactly(vec![script("rm -rf ~")]),
            ),
            ("<?php $f = 'system'; $f('id');", Opaque),
            ("plain text", Exactly(vec![])),
            // Laravel's facades (`php artisan tinker --execute=CODE`).
            (
                "File::deleteDirectory('/home/u');",
                Exactly(vec![delete(true, false, "/home/u")]),
            ),
            (
                "\\Illuminate\\Support\\Facades\\Storage::delete('/etc/hosts');",
                Exactly(vec![delete(false, false, "/etc/hosts")]),
            ),
            (
                "Process::run('rm -rf ~');",
                Exactly(vec![script("rm -rf ~")]),
            ),
            ("File::deleteDirectory(getenv('HOME'));", UnknownValue),
            // No `;`: the grammar stumbles, and the words decide.
            ("File::deleteDirectory(getenv('HOME'))", Opaque),
            ("echo User::count();", Exactly(vec![])),
        ],
    );
}

#[test]
fn languages_the_reader_does_not_read_run_what_only_run_time_knows() {
    // Tcl's every word may be a command (`exec`, or any procedure it defines).
    for lang in [Lang::Tcl, Lang::Other] {
        check(lang, vec![("print(1)", Opaque), ("puts hi", Opaque)]);
    }
}

#[test]
fn lua_r_and_julia_are_judged_by_their_ways_to_the_system() {
    // Each language's manual: Lua's `os` and `io` libraries and `load`; R's `system`,
    // `unlink` and functions called by a name built at run time; Julia's `run` of a
    // backquoted command, `rm` and `ccall`.
    check(
        Lang::Lua,
        vec![
            ("print(2^10)", Exactly(vec![])),
            ("os.execute('rm -rf ~')", Opaque),
            ("io.popen('id'):read('*a')", Opaque),
            ("local f = load('return 1')", Opaque),
            ("_G['o'..'s'].remove('x')", Opaque),
        ],
    );
    check(
        Lang::R,
        vec![
            ("print(summary(c(1, 2, 3)))", Exactly(vec![])),
            ("system2('id')", Opaque),
            ("unlink('~', recursive=TRUE)", Opaque),
            ("cat('x', file = '~/.bashrc')", Opaque),
            ("do.call(paste0('sys', 'tem'), list('id'))", Opaque),
            ("f <- get('sys' %+% 'tem')", Opaque),
        ],
    );
    check(
        Lang::Julia,
        vec![
            ("println(VERSION)", Exactly(vec![])),
            ("run(`rm -rf /tmp/x`)", Opaque),
            ("rm(homedir(); recursive=true)", Opaque),
            ("ccall(:system, Int32, (Cstring,), \"id\")", Opaque),
            ("using Pkg; Pkg.test()", Opaque),
        ],
    );
}

#[test]
fn languages_without_a_grammar_are_judged_by_their_words() {
    check(
        Lang::Perl,
        vec![
            ("print 1+1", Exactly(vec![])),
            ("system('rm -rf ~')", Opaque),
            ("print `id`", Opaque),
            ("symlink \"/home/dev\", \"h\"", Opaque),
            ("link '/etc/passwd', 'p'", Opaque),
            ("truncate '/etc/passwd', 0", Opaque),
            ("readpipe(\"rm -rf ~\")", Opaque),
            ("&{\"POSIX::sys\".\"tem\"}(\"rm -rf ~\")", Opaque),
            ("my $f = \"unl\".\"ink\"; &$f(\"x\")", Opaque),
            ("$main::{\"sys\".\"tem\"}->(\"id\")", Opaque),
            ("main->can(\"x\")->()", Opaque),
            ("do \"/tmp/x.pl\"", Opaque),
            ("print decode_json(join \"\", <>)->{name}", Exactly(vec![])),
            (
                "use IPC::Run qw(run); run ['rm', '-rf', '/home/dev']",
                Opaque,
            ),
        ],
    );
    check(
        Lang::Awk,
        vec![
            ("{print $1}", Exactly(vec![])),
            ("BEGIN{system(\"id\")}", Opaque),
            ("{print | \"sh\"}", Opaque),
            ("NR>1 {print $2}", Exactly(vec![])),
            ("$3 > 100 { n++ } END { print n }", Exactly(vec![])),
            ("NR>1 {print $2 > \"/etc/x\"}", Opaque),
        ],
    );
}

#[test]
fn code_a_grammar_cannot_read_is_judged_by_its_words() {
    check(
        Lang::Python,
        vec![
            ("print(1", Exactly(vec![])),
            ("import os; os.system('id'", Opaque),
        ],
    );
}

#[test]
fn deep_code_is_read_without_overflowing() {
    let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
    for lang in [Lang::Python, Lang::JavaScript, Lang::Ruby, Lang::Php] {
        // An answer, whatever it is: the walk does not recurse.
        let _ = read(lang, &deep);
    }
    let nested = format!(
        "import os; os.system({}'id'{})",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert!(!read(Lang::Python, &nested).is_empty());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Any text, in any language, gives an answer within the deadline: never a panic
    #[test]
    fn any_code_gets_an_answer(code in "[ -~\n]{0,200}|(os|system|require|eval|\\(|\\)|\\[|\\]|\"|'|`|\\.|,|;|=|\\+| ){0,60}") {
        for lang in [Lang::Python, Lang::JavaScript, Lang::Ruby, Lang::Php, Lang::Perl, Lang::Awk] {
            let started = Instant::now();
            let _ = read(lang, &code);
            proptest::prop_assert!(started.elapsed() < Duration::from_secs(2));
        }
    }
}

/// Each language's reference: `os.chdir`, `process.chdir`, PHP's `chdir` and Ruby's
/// `Dir.chdir` change the working folder of the process, which the commands it starts
/// inherit (`os.system`, `subprocess.run`, `execSync`, `system`); Ruby's `Dir.chdir` with a
/// block changes back when the block returns.
#[test]
fn a_command_run_after_a_change_of_folder_runs_in_that_folder() {
    check(
        Lang::Python,
        vec![
            (
                "import os; os.chdir('/'); os.system('rm -rf home')",
                Exactly(vec![script("cd -- '/' && rm -rf home")]),
            ),
            (
                "import os, subprocess; os.chdir('/etc'); subprocess.run(['rm', '-f', 'passwd'])",
                Exactly(vec![script("cd -- '/etc' && 'rm' '-f' 'passwd'")]),
            ),
            (
                "import os; os.chdir(os.path.expanduser('~')); os.system('rm -rf .ssh')",
                Exactly(vec![script("cd -- ~ && rm -rf .ssh")]),
            ),
            (
                "import os; os.chdir(\"/tmp/it's\"); os.system('ls')",
                Exactly(vec![script("cd -- '/tmp/it'\\''s' && ls")]),
            ),
            (
                "import os; os.system('make'); os.chdir('/')",
                Exactly(vec![script("make")]),
            ),
            (
                "import os,sys; os.chdir(sys.argv[1]); os.system('rm -rf *')",
                Opaque,
            ),
        ],
    );
    check(
        Lang::JavaScript,
        vec![(
            "process.chdir('/'); require('child_process').execSync('rm -rf home')",
            Exactly(vec![script("cd -- '/' && rm -rf home")]),
        )],
    );
    check(
        Lang::Php,
        vec![(
            "chdir('/var'); system('rm -rf lib');",
            Exactly(vec![script("cd -- '/var' && rm -rf lib")]),
        )],
    );
    check(
        Lang::Ruby,
        vec![
            (
                "Dir.chdir('/'); system('rm -rf home')",
                Exactly(vec![script("cd -- '/' && rm -rf home")]),
            ),
            ("Dir.chdir('/tmp') { }; system('rm -rf .')", Opaque),
        ],
    );
}

/// The references again: `subprocess.run(…, cwd=…)`, Node's `{cwd: …}` option and Ruby's
/// `chdir:` run the command in that folder, taken from the process's own; `os.fchdir`
/// changes the folder to one an open descriptor names.
#[test]
fn a_command_given_a_folder_to_run_in_runs_there() {
    check(
        Lang::Python,
        vec![
            (
                "import subprocess; subprocess.run('rm -rf home', shell=True, cwd='/')",
                Exactly(vec![script("cd -- '/' && rm -rf home")]),
            ),
            (
                "import subprocess; subprocess.run(['rm', '-rf', 'home'], cwd='/')",
                Exactly(vec![script("cd -- '/' && 'rm' '-rf' 'home'")]),
            ),
            (
                "import os, subprocess; os.chdir('/srv'); subprocess.run(['make'], cwd='app')",
                Exactly(vec![script("cd -- '/srv' && cd -- 'app' && 'make'")]),
            ),
            (
                "import subprocess, sys; subprocess.run('rm -rf x', shell=True, cwd=sys.argv[1])",
                Opaque,
            ),
            (
                "import subprocess; subprocess.run('make', shell=True, **opts)",
                Opaque,
            ),
            (
                "import os; os.fchdir(os.open('/', os.O_RDONLY)); os.system('rm -rf home')",
                Opaque,
            ),
        ],
    );
    check(
        Lang::JavaScript,
        vec![
            (
                "require('child_process').execSync('rm -rf home', {cwd: '/'})",
                Exactly(vec![script("cd -- '/' && rm -rf home")]),
            ),
            (
                "require('child_process').spawnSync('rm', ['-rf', 'home'], {'cwd': '/'})",
                Exactly(vec![script("cd -- '/' && 'rm' '-rf' 'home'")]),
            ),
            (
                "require('child_process').execSync('npm test', {stdio: 'inherit'})",
                Exactly(vec![script("npm test")]),
            ),
            (
                "require('child_process').execSync('make', {...opts})",
                Opaque,
            ),
        ],
    );
    check(
        Lang::Ruby,
        vec![
            (
                "system('rm -rf home', chdir: '/')",
                Exactly(vec![script("cd -- '/' && rm -rf home")]),
            ),
            ("system('make', **opts)", Opaque),
        ],
    );
}

/// chmod(2) and chown(2) through the languages' own calls, read as chmod(1) and chown(1):
/// a mode given as an integer literal is written in octal, as chmod(1) takes it.
#[test]
fn changes_of_mode_and_owner_read_as_chmod_and_chown() {
    check(
        Lang::Python,
        vec![
            (
                "import os; os.chmod('/bin/bash', 0o4755)",
                Exactly(vec![exec(&["chmod", "4755", "/bin/bash"])]),
            ),
            (
                "import os; os.chmod('run.sh', 493)",
                Exactly(vec![exec(&["chmod", "755", "run.sh"])]),
            ),
            (
                "import os, shutil; shutil.chown('/etc/sudoers', 'me')",
                Exactly(vec![exec(&["chown", "--", "/etc/sudoers"])]),
            ),
            ("import os; os.chmod(path, 0o777)", UnknownValue),
        ],
    );
    check(
        Lang::JavaScript,
        vec![
            (
                "require('fs').chmodSync('/etc/shadow', 0o777)",
                Exactly(vec![exec(&["chmod", "777", "/etc/shadow"])]),
            ),
            (
                "require('fs').chmodSync('bin/cli.js', 0755)",
                Exactly(vec![exec(&["chmod", "755", "bin/cli.js"])]),
            ),
            (
                "require('fs').promises.chown('/etc', 0, 0)",
                Exactly(vec![exec(&["chown", "--", "/etc"])]),
            ),
        ],
    );
}

/// An infrastructure library's method named for removing or running something does what
/// its command-line tool would; its other methods, and such names on other objects, do not
#[test]
fn infrastructure_libraries_that_remove_or_run_are_unknown() {
    let opaque = |found: &[Effect]| {
        found
            .iter()
            .any(|effect| matches!(effect, Effect::Opaque(_)))
    };
    for (lang, code) in [
        (
            Lang::Python,
            "import docker; docker.from_env().volumes.prune()",
        ),
        (
            Lang::Python,
            "from kubernetes import client; client.CoreV1Api().delete_namespace('p')",
        ),
        (
            Lang::JavaScript,
            "const D = require('dockerode'); new D().getContainer('db').remove()",
        ),
        (
            Lang::JavaScript,
            "const k = require('@kubernetes/client-node'); api.deleteNamespace('p')",
        ),
        (
            Lang::Python,
            "import paramiko; c = paramiko.SSHClient(); c.exec_command('id')",
        ),
        (
            Lang::Ruby,
            "require 'docker'; Docker::Container.get('db').kill",
        ),
    ] {
        let found = read(lang, code);
        assert!(opaque(&found), "{code}: {found:?}");
    }
    for code in [
        "import docker; print(docker.from_env().containers.list())",
        "xs = [1, 2]; xs.remove(1)",
        "import dockerfile_parse; p.remove(x)",
    ] {
        assert!(!opaque(&read(Lang::Python, code)), "{code}");
    }
}

/// Each quote closes only on its own kind, a backslash escapes, and an unclosed quote is
/// no literal: the quoted texts come out in order, as the languages' own lexers give them.
#[test]
fn string_literals_are_the_quoted_texts() {
    fn literals(code: &str) -> Vec<&str> {
        super::string_literals(code).collect()
    }
    assert_eq!(
        literals(r#"print(open('/h/.ssh/id_rsa').read(), "a\"b", `t`)"#),
        ["/h/.ssh/id_rsa", r#"a\"b"#, "t"]
    );
    assert_eq!(literals(r#"x = "it's"; y = 'z'"#), ["it's", "z"]);
    assert_eq!(literals(r"'a\\' + 'b'"), [r"a\\", "b"]);
    assert_eq!(literals("print(\"unclosed"), Vec::<&str>::new());
    assert_eq!(literals("'é' \"\""), ["é", ""]);
}

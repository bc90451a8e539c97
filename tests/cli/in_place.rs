//! `utf8fix -i` as careful Unix tools rewrite a file (SPEC 5): symbolic links replaced (or with
//! `--follow-symlinks` followed, carefully), only regular files rewritten, every attribute carried
//! over or the rewrite refused, hard links split, nothing left behind after a signal. Run as root
//! and, through `setpriv`, as the unprivileged user `nobody`.

use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt, symlink};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::common::{names_in, program, skip};

fn utf8fix() -> assert_cmd::Command {
    program("utf8fix")
}

/// A lone surrogate (WTF-8 or CESU-8 debris): broken, and no legacy encoding's text, so that the
/// default repair rewrites it.
const BROKEN: &[u8] = b"caf\xed\xa0\x80\n";
const REPAIRED: &[u8] = "caf\u{FFFD}\u{FFFD}\u{FFFD}\n".as_bytes();

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether a command of the acl or attr packages is installed (`.ci/run` installs them).
fn has_tool(name: &str) -> bool {
    StdCommand::new(name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

fn run_tool(name: &str, args: &[&str], dir: &Path) -> String {
    let output = StdCommand::new(name)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// A fresh directory others may enter, so that `nobody` can work below it.
fn open_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[test]
fn a_symbolic_link_is_replaced_by_the_repaired_file_and_its_target_left_alone() {
    let dir = open_tempdir();
    let root = dir.path();
    fs::create_dir(root.join("real")).unwrap();
    fs::write(root.join("real/target.txt"), BROKEN).unwrap();
    fs::set_permissions(
        root.join("real/target.txt"),
        fs::Permissions::from_mode(0o4751),
    )
    .unwrap();
    symlink("real/target.txt", root.join("link.txt")).unwrap();
    utf8fix()
        .current_dir(root)
        .args(["-i", "link.txt"])
        .assert()
        .code(0)
        .stderr("");
    let link = fs::symlink_metadata(root.join("link.txt")).unwrap();
    assert!(link.is_file(), "the link became a regular file");
    assert_eq!(fs::read(root.join("link.txt")).unwrap(), REPAIRED);
    assert_eq!(fs::read(root.join("real/target.txt")).unwrap(), BROKEN);
    assert_eq!(
        fs::metadata(root.join("real/target.txt")).unwrap().mode() & 0o7777,
        0o4751,
        "the target is untouched"
    );
    // The copy takes the target's permissions, but not its set-user-ID bit.
    assert_eq!(link.mode() & 0o7777, 0o751);
    assert_eq!(names_in(root), ["link.txt", "real"]);
    assert_eq!(names_in(&root.join("real")), ["target.txt"]);

    // With a suffix, the link itself is kept as the backup, as with sed -i.
    fs::remove_file(root.join("link.txt")).unwrap();
    symlink("real/target.txt", root.join("link.txt")).unwrap();
    utf8fix()
        .current_dir(root)
        .args(["-i.orig", "link.txt"])
        .assert()
        .code(0);
    assert!(
        fs::symlink_metadata(root.join("link.txt.orig"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(root.join("link.txt.orig")).unwrap(), BROKEN);
    assert_eq!(fs::read(root.join("link.txt")).unwrap(), REPAIRED);
}

#[test]
fn follow_symlinks_rewrites_the_target_and_keeps_the_link() {
    let dir = open_tempdir();
    let root = dir.path();
    fs::create_dir(root.join("real")).unwrap();
    fs::write(root.join("real/target.txt"), BROKEN).unwrap();
    symlink("real/target.txt", root.join("link.txt")).unwrap();
    utf8fix()
        .current_dir(root)
        .args(["-i.bak", "--follow-symlinks", "link.txt"])
        .assert()
        .code(0)
        .stderr("");
    assert!(
        fs::symlink_metadata(root.join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(root.join("real/target.txt")).unwrap(), REPAIRED);
    // The backup sits beside the file that was rewritten.
    assert_eq!(fs::read(root.join("real/target.txt.bak")).unwrap(), BROKEN);
    assert_eq!(names_in(root), ["link.txt", "real"]);
    // It means nothing without -i.
    utf8fix()
        .args(["--follow-symlinks", "x"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--in-place"));
}

#[test]
fn root_follows_no_link_that_another_user_could_have_aimed() {
    if !is_root() {
        skip("not root");
        return;
    }
    let dir = open_tempdir();
    let root = dir.path();
    fs::write(root.join("secret"), BROKEN).unwrap();
    // A link that nobody owns, to a file of root's.
    symlink("secret", root.join("link")).unwrap();
    std::os::unix::fs::lchown(root.join("link"), Some(65534), Some(65534)).unwrap();
    utf8fix()
        .current_dir(root)
        .args(["-i", "--follow-symlinks", "link"])
        .assert()
        .code(2)
        .stderr(
            "utf8fix: link: not rewritten: the link belongs to user 65534 and its target to \
             user 0; run as root, --follow-symlinks follows only a link whose owner owns the \
             target\n",
        );
    // A link of root's, in a directory everyone can write.
    fs::create_dir(root.join("upload")).unwrap();
    fs::set_permissions(root.join("upload"), fs::Permissions::from_mode(0o1777)).unwrap();
    symlink("../secret", root.join("upload/link")).unwrap();
    utf8fix()
        .current_dir(root)
        .args(["-i", "--follow-symlinks", "upload/link"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "utf8fix: upload/link: not rewritten: the link is in a directory other users can write",
        ));
    assert_eq!(fs::read(root.join("secret")).unwrap(), BROKEN);
    // Without --follow-symlinks the link is replaced, and the secret stays the secret.
    utf8fix()
        .current_dir(root)
        .args(["-i", "upload/link"])
        .assert()
        .code(0);
    assert_eq!(fs::read(root.join("secret")).unwrap(), BROKEN);
    assert_eq!(fs::read(root.join("upload/link")).unwrap(), REPAIRED);
    // Nor is the link of another user replaced by a copy of root's file, which that user could
    // then read.
    utf8fix()
        .current_dir(root)
        .args(["-i", "link"])
        .assert()
        .code(2)
        .stderr(
            "utf8fix: link: not rewritten: the link belongs to user 65534 and its target to \
             user 0; run as root, -i replaces only a link whose owner owns the target\n",
        );
    assert!(
        fs::symlink_metadata(root.join("link"))
            .unwrap()
            .is_symlink()
    );
}

/// A file of the kernel's looks regular but is no text: /proc/kmsg, which root can open, waits
/// for ever when read. -i refuses it before opening it, through a link or not, and leaves the
/// link.
#[test]
fn a_file_of_the_kernel_is_not_read() {
    if !Path::new("/proc/kmsg").exists() {
        skip("no /proc/kmsg");
        return;
    }
    let dir = open_tempdir();
    let root = dir.path();
    symlink("/proc/kmsg", root.join("kmsg")).unwrap();
    for args in [&["-i", "kmsg"][..], &["-i", "--follow-symlinks", "kmsg"]] {
        utf8fix()
            .current_dir(root)
            .args(args)
            .timeout(Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(
                "utf8fix: kmsg: not rewritten: it is a file of the kernel's (/proc, /sys), not \
                 text to repair\n",
            );
    }
    assert!(
        fs::symlink_metadata(root.join("kmsg"))
            .unwrap()
            .is_symlink()
    );
}

#[test]
fn only_regular_files_are_rewritten_and_nothing_else_is_read() {
    let dir = open_tempdir();
    let root = dir.path();
    let fifo = std::ffi::CString::new(root.join("fifo").as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    fs::create_dir(root.join("dir")).unwrap();
    symlink("fifo", root.join("to-fifo")).unwrap();
    symlink("/dev/null", root.join("to-null")).unwrap();
    // Nobody writes to the FIFO: reading it would wait for ever (the timeout would fail the test).
    utf8fix()
        .current_dir(root)
        .args(["-i", "fifo", "dir", "/dev/null", "to-fifo", "to-null"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "utf8fix: fifo: not rewritten: it is a FIFO, and -i rewrites only regular files\n\
             utf8fix: dir: not rewritten: it is a directory, and -i rewrites only regular files\n\
             utf8fix: /dev/null: not rewritten: it is a character device, and -i rewrites only \
             regular files\n\
             utf8fix: to-fifo: not rewritten: its target is a FIFO, and -i rewrites only regular \
             files\n\
             utf8fix: to-null: not rewritten: its target is a character device, and -i rewrites \
             only regular files\n",
        );
    assert!(
        fs::symlink_metadata(root.join("fifo"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(
        fs::symlink_metadata(root.join("to-null"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(names_in(root), ["dir", "fifo", "to-fifo", "to-null"]);
}

#[test]
fn owner_group_and_set_id_bits_carry_over() {
    if !is_root() {
        skip("not root: only root can give a file to another user");
        return;
    }
    let dir = open_tempdir();
    let path = dir.path().join("tool.sh");
    fs::write(&path, BROKEN).unwrap();
    std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    // After chown, which clears them.
    fs::set_permissions(&path, fs::Permissions::from_mode(0o6750)).unwrap();
    let before = fs::metadata(&path).unwrap();
    utf8fix().arg("-i").arg(&path).assert().code(0).stderr("");
    let after = fs::metadata(&path).unwrap();
    assert_eq!(fs::read(&path).unwrap(), REPAIRED);
    assert_ne!(after.ino(), before.ino(), "replaced by rename");
    assert_eq!((after.uid(), after.gid()), (65534, 65534));
    assert_eq!(after.mode() & 0o7777, 0o6750);
}

#[test]
fn acls_and_extended_attributes_carry_over() {
    if !has_tool("setfacl") || !has_tool("setfattr") {
        skip("setfacl or setfattr missing (the acl and attr packages)");
        return;
    }
    let dir = open_tempdir();
    let root = dir.path();
    fs::write(root.join("shared.txt"), BROKEN).unwrap();
    fs::set_permissions(root.join("shared.txt"), fs::Permissions::from_mode(0o640)).unwrap();
    // A named user who may write, and a mask that still lets the owning group only read.
    run_tool(
        "setfacl",
        &["-m", "u:nobody:rw,g::r,m::rw", "shared.txt"],
        root,
    );
    run_tool(
        "setfattr",
        &["-n", "user.origin", "-v", "upload", "shared.txt"],
        root,
    );
    // A default ACL on the directory would give a new file an ACL of its own: the replacement
    // must end with the original's, not the directory's.
    run_tool("setfacl", &["-d", "-m", "u:daemon:rwx", "."], root);
    let acl_before = run_tool("getfacl", &["-c", "shared.txt"], root);
    let attrs_before = run_tool("getfattr", &["-d", "-m", "-", "shared.txt"], root);
    assert!(acl_before.contains("user:nobody:rw-"), "{acl_before}");
    assert!(
        attrs_before.contains("user.origin=\"upload\""),
        "{attrs_before}"
    );

    utf8fix()
        .current_dir(root)
        .args(["-i", "shared.txt"])
        .assert()
        .code(0)
        .stderr("");
    assert_eq!(fs::read(root.join("shared.txt")).unwrap(), REPAIRED);
    assert_eq!(run_tool("getfacl", &["-c", "shared.txt"], root), acl_before);
    assert_eq!(
        run_tool("getfattr", &["-d", "-m", "-", "shared.txt"], root),
        attrs_before
    );
    assert_eq!(
        fs::metadata(root.join("shared.txt")).unwrap().mode() & 0o777,
        0o660,
        "the group bits show the mask, as before"
    );

    // A file without an ACL gets none from the directory's default.
    fs::write(root.join("plain.txt"), BROKEN).unwrap();
    run_tool("setfacl", &["-b", "plain.txt"], root);
    fs::set_permissions(root.join("plain.txt"), fs::Permissions::from_mode(0o600)).unwrap();
    utf8fix()
        .current_dir(root)
        .args(["-i", "plain.txt"])
        .assert()
        .code(0);
    let acl = run_tool("getfacl", &["-c", "plain.txt"], root);
    assert!(!acl.contains("daemon"), "{acl}");
    assert_eq!(
        fs::metadata(root.join("plain.txt")).unwrap().mode() & 0o7777,
        0o600
    );
}

/// Runs utf8fix as the user nobody, through setpriv; `None` when setpriv cannot drop to it.
fn utf8fix_as_nobody(args: &[&str], dir: &Path) -> Option<std::process::Output> {
    if !is_root() {
        return None;
    }
    let output = StdCommand::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(assert_cmd::cargo::cargo_bin("utf8fix"))
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    Some(output)
}

#[test]
fn an_unprivileged_user_rewrites_their_file_and_is_refused_what_cannot_be_kept() {
    let dir = open_tempdir();
    let work = dir.path().join("work");
    fs::create_dir(&work).unwrap();
    fs::write(work.join("mine.txt"), BROKEN).unwrap();
    fs::write(work.join("theirs.txt"), BROKEN).unwrap();
    if is_root() {
        std::os::unix::fs::chown(&work, Some(65534), Some(65534)).unwrap();
        std::os::unix::fs::chown(work.join("mine.txt"), Some(65534), Some(65534)).unwrap();
    }
    fs::set_permissions(work.join("mine.txt"), fs::Permissions::from_mode(0o604)).unwrap();
    // root's file, which nobody may write through its mode bits.
    fs::set_permissions(work.join("theirs.txt"), fs::Permissions::from_mode(0o666)).unwrap();
    let Some(output) = utf8fix_as_nobody(&["-i", "mine.txt", "theirs.txt"], &work) else {
        skip("not root, or no setpriv: cannot run as nobody");
        return;
    };
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "utf8fix: theirs.txt: not rewritten: cannot give the repaired file the original's owner \
         and group (0:0): Operation not permitted\n"
    );
    assert_eq!(fs::read(work.join("mine.txt")).unwrap(), REPAIRED);
    let mine = fs::metadata(work.join("mine.txt")).unwrap();
    assert_eq!((mine.uid(), mine.mode() & 0o7777), (65534, 0o604));
    assert_eq!(fs::read(work.join("theirs.txt")).unwrap(), BROKEN);
    assert_eq!(fs::metadata(work.join("theirs.txt")).unwrap().uid(), 0);
    assert_eq!(names_in(&work), ["mine.txt", "theirs.txt"]);
}

#[test]
fn hard_links_are_split_as_sed_splits_them() {
    let dir = open_tempdir();
    let root = dir.path();
    fs::write(root.join("a.txt"), BROKEN).unwrap();
    fs::hard_link(root.join("a.txt"), root.join("b.txt")).unwrap();
    utf8fix()
        .current_dir(root)
        .args(["-i", "a.txt"])
        .assert()
        .code(0);
    assert_eq!(fs::read(root.join("a.txt")).unwrap(), REPAIRED);
    assert_eq!(fs::read(root.join("b.txt")).unwrap(), BROKEN);
    assert_eq!(fs::metadata(root.join("b.txt")).unwrap().nlink(), 1);
}

/// Waits until `ready` holds, failing after 60 seconds.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether process `pid` holds an unnamed (O_TMPFILE) file in `dir` open.
fn holds_unnamed_file_in(pid: u32, dir: &Path) -> bool {
    let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    let prefix = dir.to_string_lossy().into_owned();
    fds.filter_map(Result::ok)
        .filter_map(|fd| fs::read_link(fd.path()).ok())
        .map(|target| target.to_string_lossy().into_owned())
        .any(|target| target.starts_with(&prefix) && target.ends_with("(deleted)"))
}

/// A signal while the repaired copy is written leaves the original and nothing else, with the
/// copy unnamed (O_TMPFILE) and named. `-v` writes a line per repair to a standard error that
/// is never read: once its pipe is full, utf8fix waits in the middle of writing the copy, and
/// the signal is sent there, every time.
#[test]
fn a_signal_while_writing_leaves_the_original_and_nothing_else() {
    let original: Vec<u8> = b"caf\xed\xa0\x80 na\xc0\xafve\n".repeat(20_000);
    for (named, signal) in [
        (false, libc::SIGTERM),
        (true, libc::SIGTERM),
        (true, libc::SIGINT),
        (true, libc::SIGHUP),
    ] {
        let dir = open_tempdir();
        let file = dir.path().join("big.txt");
        fs::write(&file, &original).unwrap();
        let mut command = StdCommand::new(assert_cmd::cargo::cargo_bin("utf8fix"));
        command
            .args(["-v", "-i"])
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if named {
            command.env("UTF8KIT_NO_O_TMPFILE", "1");
        }
        let mut child = command.spawn().unwrap();
        let pid = child.id();
        if named {
            wait_for("the named copy", || names_in(dir.path()).len() == 2);
            let names = names_in(dir.path());
            let temporary = names.iter().find(|n| *n != "big.txt").unwrap();
            // Sixteen hex digits of chance, not the process id (which may stand inside them
            // by chance: only the whole is compared).
            let digits = temporary
                .strip_prefix(".utf8kit-")
                .and_then(|rest| rest.strip_suffix(".tmp"))
                .unwrap_or_default();
            let unpadded = digits.trim_start_matches('0');
            assert!(
                digits.len() == 16
                    && digits.bytes().all(|b| b.is_ascii_hexdigit())
                    && unpadded != pid.to_string()
                    && unpadded != format!("{pid:x}"),
                "a random name: {temporary}"
            );
        } else {
            wait_for("the unnamed copy", || {
                holds_unnamed_file_in(pid, dir.path())
            });
            assert_eq!(names_in(dir.path()), ["big.txt"]);
        }
        // SAFETY: kill sends a signal to our own child.
        assert_eq!(unsafe { libc::kill(pid as libc::pid_t, signal) }, 0);
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "dies of the signal");
        assert_eq!(names_in(dir.path()), ["big.txt"], "named: {named}");
        assert_eq!(fs::read(&file).unwrap(), original);
    }
}

#[test]
fn the_help_and_man_page_say_what_in_place_does() {
    let help = utf8fix().arg("--help").output().unwrap();
    // Wrapped at the terminal's width: compared as words.
    let help = String::from_utf8(help.stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for phrase in [
        "--follow-symlinks",
        "replaced by the repaired file",
        "Hard links are split",
        "extended attributes",
        "Only regular files are rewritten",
    ] {
        assert!(help.contains(phrase), "--help lacks {phrase:?}");
    }
    let man = fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("man/utf8fix.1"))
        .unwrap();
    assert!(
        man.contains("follow\\-symlinks"),
        "the man page lacks --follow-symlinks"
    );
}

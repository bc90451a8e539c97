use super::place::random_name;
use super::*;
use std::io::{Read, Write};
use std::path::Path;

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn random_names_differ_and_are_hidden() {
    let a = random_name();
    let b = random_name();
    assert_ne!(a, b);
    let text = a.to_str().unwrap();
    assert!(
        text.starts_with(".utf8kit-") && text.ends_with(".tmp"),
        "{text}"
    );
    assert_eq!(text.len(), ".utf8kit-".len() + 16 + ".tmp".len());
}

#[test]
fn a_pending_file_replaces_the_name_and_a_dropped_one_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, "old").unwrap();
    let place = Place::of(&path).unwrap();
    let pending = PendingFile::create(&place).unwrap();
    pending.as_file().write_all(b"new").unwrap();
    drop(pending);
    assert_eq!(entries(dir.path()), ["f"]);
    assert_eq!(std::fs::read(&path).unwrap(), b"old");

    let pending = PendingFile::create(&place).unwrap();
    pending.as_file().write_all(b"new").unwrap();
    pending.persist().unwrap();
    assert_eq!(entries(dir.path()), ["f"]);
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
}

#[test]
fn places_hold_the_last_component_and_stat_without_following() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("target"), "x").unwrap();
    std::os::unix::fs::symlink("target", dir.path().join("link")).unwrap();
    let link = Place::of(&dir.path().join("link")).unwrap();
    assert!(link.lstat().unwrap().is_symlink());
    assert_eq!(
        link.open_read(false).unwrap_err().raw_os_error(),
        Some(libc::ELOOP)
    );
    let mut text = String::new();
    link.open_read(true)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, "x");
    assert!(Place::of(Path::new("/")).is_err());
    assert_eq!(
        Place::of(dir.path()).unwrap().lstat().unwrap().kind(),
        "a directory"
    );
}

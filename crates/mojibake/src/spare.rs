//! The vectors of the judging, kept by each thread from one line to the next.

use crate::found::Found;
use crate::tables::COUNT;

/// A vector a thread's last judged line left behind (see [`spare`]).
pub(crate) type Spare<T> = std::thread::LocalKey<std::cell::RefCell<Vec<T>>>;

thread_local! {
    // The vectors of the judging, kept by each thread from one line to the next: allocating
    // them for every line was a twentieth of the time.
    pub(crate) static SPARE_CHARS: std::cell::RefCell<Vec<char>> = const { std::cell::RefCell::new(Vec::new()) };
    pub(crate) static SPARE_ROWS: std::cell::RefCell<Vec<&'static [u8; COUNT]>> =
        const { std::cell::RefCell::new(Vec::new()) };
    pub(crate) static SPARE_BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    pub(crate) static SPARE_LAYER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    pub(crate) static SPARE_FOUND: std::cell::RefCell<Vec<Found>> = const { std::cell::RefCell::new(Vec::new()) };
    pub(crate) static SPARE_COVERED: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The thread's spare vector of `key`, empty, with room for `len` items.
pub(crate) fn spare<T: 'static>(key: &'static Spare<T>, len: usize) -> Vec<T> {
    let mut vector = key.with_borrow_mut(std::mem::take);
    vector.clear();
    vector.reserve(len);
    vector
}

/// Keeps `vector` as the thread's spare of `key`, if it holds more room than the one kept.
pub(crate) fn give_back<T: 'static>(key: &'static Spare<T>, vector: Vec<T>) {
    key.with_borrow_mut(|kept| {
        if vector.capacity() > kept.capacity() {
            *kept = vector;
        }
    });
}

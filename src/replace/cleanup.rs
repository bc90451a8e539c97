//! Removing a named temporary file when a signal ends the program.
//!
//! One name at a time is registered (the programs replace one file at a time). The handler, for
//! SIGINT, SIGTERM, SIGHUP and SIGQUIT, removes it with `unlinkat`, restores the default action
//! and raises the signal again, so that the program dies of it as it would have. A signal the
//! program was started with ignored (`nohup`, a background job) stays ignored.

use std::ffi::{CStr, CString};
use std::os::fd::RawFd;
use std::sync::Once;
use std::sync::atomic::{AtomicPtr, Ordering};

struct Pending {
    directory: RawFd,
    name: CString,
}

static PENDING: AtomicPtr<Pending> = AtomicPtr::new(std::ptr::null_mut());
static INSTALL: Once = Once::new();
const SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// A registered name; dropping it unregisters the name (and removes nothing).
#[derive(Debug)]
pub struct Registration(());

/// Registers `name` in the open directory `directory` for removal on a signal.
pub fn register(directory: RawFd, name: &CStr) -> Registration {
    INSTALL.call_once(install);
    let pending = Box::into_raw(Box::new(Pending {
        directory,
        name: name.to_owned(),
    }));
    let old = PENDING.swap(pending, Ordering::AcqRel);
    if !old.is_null() {
        // SAFETY: every pointer stored comes from Box::into_raw, and the swap took it out,
        // so nothing else frees or reads it.
        drop(unsafe { Box::from_raw(old) });
    }
    Registration(())
}

impl Drop for Registration {
    fn drop(&mut self) {
        let pending = PENDING.swap(std::ptr::null_mut(), Ordering::AcqRel);
        if !pending.is_null() {
            // SAFETY: as in `register`.
            drop(unsafe { Box::from_raw(pending) });
        }
    }
}

fn install() {
    for signal in SIGNALS {
        // SAFETY: sigaction reads and writes plain structs; a zeroed one is a valid start.
        // The handler only calls async-signal-safe functions (unlinkat, signal, raise).
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                || old.sa_sigaction == libc::SIG_IGN
            {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as usize;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    // Taking the pointer out makes sure that nothing frees it while it is read here.
    let pending = PENDING.swap(std::ptr::null_mut(), Ordering::AcqRel);
    // SAFETY: a non-null pointer came from Box::into_raw and is now ours alone (it is
    // leaked: the program is about to die). unlinkat, signal and raise are
    // async-signal-safe.
    unsafe {
        if !pending.is_null() {
            libc::unlinkat((*pending).directory, (*pending).name.as_ptr(), 0);
        }
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

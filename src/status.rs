//! The exit status shared by the four programs (SPEC 2): like grep's.

use std::process::ExitCode;

/// How a run went, from best to worst; merging keeps the worst.
#[must_use]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Exit status 0: nothing to report.
    #[default]
    Clean,
    /// Exit status 1: problems found (invalid input, findings, changes needed).
    Problems,
    /// Exit status 2: trouble (bad usage, an unreadable file, a failed write).
    Trouble,
}

impl Status {
    /// The worse of two statuses: trouble wins over problems, problems over clean.
    pub fn merge(self, other: Status) -> Status {
        self.max(other)
    }

    /// The process exit code: 0, 1 or 2.
    pub fn code(self) -> u8 {
        match self {
            Status::Clean => 0,
            Status::Problems => 1,
            Status::Trouble => 2,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_keeps_the_worst() {
        use Status::*;
        let rows = [
            (Clean, Clean, Clean),
            (Clean, Problems, Problems),
            (Problems, Clean, Problems),
            (Problems, Trouble, Trouble),
            (Trouble, Problems, Trouble),
            (Trouble, Clean, Trouble),
        ];
        for (a, b, expected) in rows {
            assert_eq!(a.merge(b), expected, "{a:?} + {b:?}");
        }
        assert_eq!([Clean.code(), Problems.code(), Trouble.code()], [0, 1, 2]);
    }
}

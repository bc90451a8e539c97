//! Repairing one input into a stream: standard output, or (`--check`) only counting.

use super::*;

/// Why one input could not be done.
#[derive(Debug)]
pub(super) enum Failure {
    /// Trouble with this input (reading it, or writing its replacement in place): reported, and
    /// the other inputs are still done.
    Input(String),
    /// Standard output failed: the run ends.
    Output(io::Error),
}

/// What [`repair_input`] reads: an input to open, or a file already open.
pub(super) enum Reading<'a> {
    Source(&'a Source),
    File(&'a mut File),
}

/// Feeds every chunk of the input to `repairer` in pieces of at most [`crate::input::CHUNK_LEN`], writing
/// the repaired bytes to `out` (clean runs straight from the input, without a copy: on some
/// processors a large `memcpy` cost more than the repair) and calling `after` with the repairer
/// after each piece.
pub(super) fn repair_input(
    reader: &mut ChunkReader,
    input: Reading<'_>,
    repairer: &mut Repairer,
    mut out: Option<&mut dyn Write>,
    after: &mut dyn FnMut(&mut Repairer),
) -> Result<(), Failure> {
    let mut opened;
    let file = match input {
        Reading::Source(source) => {
            opened = reader
                .open(source)
                .map_err(|error| Failure::Input(io_reason(&error)))?;
            &mut opened
        }
        Reading::File(file) => file,
    };
    // A regular file is at hand: its lines may be judged ahead of the output. What comes
    // through a pipe or a terminal is repaired and written as it comes.
    repairer.set_read_ahead(file.metadata().is_ok_and(|m| m.is_file()));
    let mut write_error = None;
    let mut consume = |chunk: &[u8], is_last: bool| {
        // A chunk is at most 64 KiB (`CHUNK_LEN`): the output buffer stays as small.
        {
            let (piece, is_last_piece) = (chunk, is_last);
            match out.as_deref_mut() {
                Some(out) => {
                    let mut emit = |bytes: &[u8]| match out.write_all(bytes) {
                        Ok(()) => ControlFlow::Continue(()),
                        Err(error) => {
                            write_error = Some(error);
                            ControlFlow::Break(())
                        }
                    };
                    let _ = repairer.feed_to(piece, is_last_piece, &mut emit);
                }
                None => repairer.feed(piece, is_last_piece),
            }
            after(repairer);
            if write_error.is_some() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    };
    let read = reader.read_file(file, &mut consume);
    // An input that fails part-way still has what was read before the error written, as it is
    // without reading ahead.
    if read.is_err()
        && write_error.is_none()
        && let Some(out) = out
    {
        let _ = repairer.flush_read_ahead(&mut |bytes| match out.write_all(bytes) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                write_error = Some(error);
                ControlFlow::Break(())
            }
        });
        after(repairer);
    }
    if let Some(error) = write_error {
        return Err(Failure::Output(error));
    }
    read.map_err(|error| Failure::Input(io_reason(&error)))
}

/// Repairs one input to `out`.
pub(super) fn fix_stream(
    settings: &Settings,
    reader: &mut ChunkReader,
    source: &Source,
    out: &mut dyn Write,
    log: &mut RepairLog<'_>,
) -> Result<(), Failure> {
    let name = source.display_name();
    let mut repairer = log.repairer(Repairer::new(settings.repair.clone()));
    let input = Reading::Source(source);
    repair_input(reader, input, &mut repairer, Some(out), &mut |repairer| {
        log.print(&name, repairer);
    })?;
    log.summary(&name, repairer.repair_count(), None);
    Ok(())
}

/// Counts the repairs an input needs, without writing anything.
pub(super) fn count_repairs(
    settings: &Settings,
    reader: &mut ChunkReader,
    source: &Source,
    log: &mut RepairLog<'_>,
) -> Result<u64, Failure> {
    let name = source.display_name();
    let mut repairer = log.repairer(Repairer::counting(settings.repair.clone()));
    let input = Reading::Source(source);
    repair_input(reader, input, &mut repairer, None, &mut |repairer| {
        log.print(&name, repairer);
    })?;
    log.summary(&name, repairer.repair_count(), None);
    Ok(repairer.repair_count())
}

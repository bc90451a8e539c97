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
    /// Left as it was, with the hint that says how to decode it: in place, the default repair
    /// does not turn text that could be decoded into U+FFFD (status 1).
    Refused(String),
}

/// What [`repair_input`] reads: an input to open, or a file already open.
pub(super) enum Reading<'a> {
    Source(&'a Source),
    File(&'a mut File),
}

/// Feeds every chunk of the input to `repairer` in pieces of at most [`crate::input::CHUNK_LEN`], writing
/// the repaired bytes to `out` (clean runs straight from the input, without a copy: on some
/// processors a large `memcpy` cost more than the repair) and calling `after` with the repairer
/// after each piece. With `sample`, the first [`legacy::SAMPLE_LEN`] bytes are kept there.
pub(super) fn repair_input(
    reader: &mut ChunkReader,
    input: Reading<'_>,
    repairer: &mut Fixer,
    mut out: Option<&mut dyn Write>,
    mut sample: Option<&mut Vec<u8>>,
    after: &mut dyn FnMut(&mut Fixer),
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
        if let Some(sample) = sample.as_deref_mut() {
            let wanted = legacy::SAMPLE_LEN.saturating_sub(sample.len());
            sample.extend_from_slice(&chunk[..chunk.len().min(wanted)]);
        }
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

/// What repairing one input to a stream (or counting its repairs) found.
pub(super) struct Repaired {
    /// How many repairs it needed.
    pub(super) count: u64,
    /// The hint that says how the input could have been decoded instead, when the default
    /// repair replaced text that looks decodable: for standard error.
    pub(super) hint: Option<String>,
}

/// Repairs one input to `out`, or with no `out` only counts its repairs.
pub(super) fn fix_stream(
    settings: &Settings,
    reader: &mut ChunkReader,
    source: &Source,
    out: Option<&mut dyn Write>,
    log: &mut RepairLog<'_>,
) -> Result<Repaired, Failure> {
    let name = source.display_name();
    let mut repairer = log.repairer(Fixer::new(settings, out.is_none(), out.is_none()));
    let input = Reading::Source(source);
    let mut sample = Vec::new();
    let sample_to = settings.guards_decodable.then_some(&mut sample);
    repair_input(
        reader,
        input,
        &mut repairer,
        out,
        sample_to,
        &mut |repairer| {
            log.print(&name, repairer);
        },
    )?;
    let count = repairer.repair_count();
    log.summary(&name, count, None);
    let hint = (settings.guards_decodable && count > 0)
        .then(|| {
            let tally = legacy::tally_of(&sample);
            legacy::decodable_hint(reader, source, &sample, tally, false)
        })
        .flatten();
    Ok(Repaired { count, hint })
}

//! The codec against its oracles: a reference scanner written straight from the SPEC 1.2 table,
//! `std::str::from_utf8`, `String::from_utf8_lossy`, and itself under every way of splitting the
//! input into chunks.

use std::ops::ControlFlow;

use utf8kit_codec::{
    Config, Finding, Lint, LintSet, Policy, RepairOptions, Repairer, Scanner, Sink, UnitKind,
    bom::ForeignBom, repair::decode_lossy, scan,
};

/// A finding as plain values: offset, line, column, kind, bytes, code point.
pub(crate) type Row = (u64, u64, u64, &'static str, Vec<u8>, Option<u32>);

/// Everything a scan reports: the findings, and the input rebuilt from text runs and findings.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Report {
    pub(crate) findings: Vec<Row>,
    pub(crate) rebuilt: Vec<u8>,
    pub(crate) text_offsets_ok: bool,
}

impl Sink for Report {
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        assert!(!bytes.is_empty(), "empty text run");
        if byte_offset != self.rebuilt.len() as u64 {
            self.text_offsets_ok = false;
        }
        self.rebuilt.extend_from_slice(bytes);
        ControlFlow::Continue(())
    }

    fn finding(&mut self, f: &Finding<'_>) -> ControlFlow<()> {
        if f.position.byte_offset != self.rebuilt.len() as u64 {
            self.text_offsets_ok = false;
        }
        self.rebuilt.extend_from_slice(f.bytes);
        let p = f.position;
        self.findings.push((
            p.byte_offset,
            p.line,
            p.column,
            f.kind.as_str(),
            f.bytes.to_vec(),
            f.codepoint,
        ));
        ControlFlow::Continue(())
    }
}

/// Scans `input` split at the given cut points (which may repeat: empty chunks).
pub(crate) fn scan_split(input: &[u8], cuts: &[usize], config: Config) -> Report {
    let mut report = Report {
        text_offsets_ok: true,
        ..Report::default()
    };
    let mut scanner = Scanner::new(config);
    let mut from = 0;
    for &cut in cuts {
        let cut = cut.clamp(from, input.len());
        assert!(
            scanner
                .feed(&input[from..cut], false, &mut report)
                .is_continue()
        );
        from = cut;
    }
    let _ = scanner.feed(&input[from..], true, &mut report);
    assert_eq!(scanner.bytes_scanned(), input.len() as u64);
    report
}

pub(crate) fn scan_whole(input: &[u8], config: Config) -> Report {
    scan_split(input, &[], config)
}

// ---------------------------------------------------------------------------------------------
// The reference: SPEC 1.2 read aloud, one byte at a time, with std deciding well-formedness.

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RefUnit {
    kind: &'static str,
    len: usize,
    codepoint: Option<u32>,
}

pub(crate) fn reference_unit(input: &[u8]) -> RefUnit {
    for len in 1..=4.min(input.len()) {
        if let Ok(s) = std::str::from_utf8(&input[..len]) {
            let c = s.chars().next().unwrap();
            return RefUnit {
                kind: "char",
                len,
                codepoint: Some(c as u32),
            };
        }
    }
    let lead = input[0];
    let n = match lead {
        0x80..=0xBF => {
            return RefUnit {
                kind: "unexpected-continuation",
                len: 1,
                codepoint: None,
            };
        }
        0xFE | 0xFF => {
            return RefUnit {
                kind: "invalid-byte",
                len: 1,
                codepoint: None,
            };
        }
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        0xF8..=0xFB => 5,
        0xFC..=0xFD => 6,
        _ => unreachable!("ASCII is always well-formed"),
    };
    let found = input[1..]
        .iter()
        .take(n - 1)
        .take_while(|&&b| (0x80..=0xBF).contains(&b))
        .count();
    if found < n - 1 {
        return RefUnit {
            kind: "truncated",
            len: 1 + found,
            codepoint: None,
        };
    }
    let lead_bits = [0, 0, 5, 4, 3, 2, 1][n];
    let mut value = u64::from(lead) & ((1 << lead_bits) - 1);
    for &b in &input[1..n] {
        value = value << 6 | u64::from(b & 0x3F);
    }
    let minimum = [0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000][n];
    let value32 = Some(value as u32);
    if value < minimum {
        return RefUnit {
            kind: "overlong",
            len: n,
            codepoint: value32,
        };
    }
    if (0xD800..=0xDFFF).contains(&value) {
        if value <= 0xDBFF && input.len() > 3 {
            let next = reference_unit(&input[3..]);
            if next.kind == "surrogate"
                && next.len == 3
                && (0xDC00..=0xDFFF).contains(&next.codepoint.unwrap())
            {
                let low = u64::from(next.codepoint.unwrap());
                let pair = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00);
                return RefUnit {
                    kind: "surrogate-pair",
                    len: 6,
                    codepoint: Some(pair as u32),
                };
            }
        }
        return RefUnit {
            kind: "surrogate",
            len: 3,
            codepoint: value32,
        };
    }
    assert!(value > 0x10FFFF, "anything else was well-formed");
    RefUnit {
        kind: "out-of-range",
        len: n,
        codepoint: value32,
    }
}

/// The findings the reference predicts, with SPEC 1.4 positions.
pub(crate) fn reference_findings(input: &[u8], config: Config) -> Vec<Row> {
    let (mut at, mut line, mut column) = (0, 1, 1);
    let mut rows = Vec::new();
    if config.foreign_bom
        && let Some(bom) = ForeignBom::detect(&input[..input.len().min(4)])
    {
        let bytes = input[..bom.len_bytes()].to_vec();
        rows.push((0, 1, 1, bom.as_str(), bytes, Some(0xFEFF)));
        at = bom.len_bytes();
        column = 2;
    }
    // The whole input's units first, so that the context lints can look both ways.
    let mut units = Vec::new();
    let mut scan_at = at;
    while scan_at < input.len() {
        let unit = reference_unit(&input[scan_at..]);
        units.push((scan_at, unit.len, unit.kind, unit.codepoint));
        scan_at += unit.len;
    }
    let char_of = |i: usize| -> Option<char> {
        let (_, _, kind, codepoint) = *units.get(i)?;
        (kind == "char")
            .then(|| char::from_u32(codepoint.unwrap()))
            .flatten()
    };
    let exempt = reference_exemptions(&units, config, char_of);
    for (index, &(at, len, kind, codepoint)) in units.iter().enumerate() {
        let bytes = &input[at..at + len];
        let is_finding = match kind {
            "char" if exempt.contains(&index) => {
                config.lints.contains(Lint::NonAscii).then_some("non-ascii")
            }
            "char" => config
                .lints
                .check(codepoint.unwrap(), at as u64)
                .map(Lint::as_str),
            "surrogate-pair" if config.policy.surrogate_pairs => None,
            "surrogate" if config.policy.lone_surrogates => None,
            "overlong" if config.policy.c0_80 && bytes == b"\xC0\x80" => None,
            kind => Some(kind),
        };
        if let Some(kind) = is_finding {
            rows.push((at as u64, line, column, kind, bytes.to_vec(), codepoint));
        }
        if bytes == b"\n" {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    // Non-ASCII characters with only ASCII spaces, tabs and punctuation between them are one
    // finding that spans them all, up to MAX_NON_ASCII_RUN bytes; so are tag characters right
    // after each other (SPEC 1.6: one finding per run of them).
    let mut merged: Vec<Row> = Vec::new();
    for row in rows {
        if let Some(last) = merged.last_mut() {
            let end = (last.0 + last.4.len() as u64) as usize;
            let start = row.0 as usize;
            let between = input.get(end..start).unwrap_or(b"x");
            let joins = between
                .iter()
                .all(|b| *b == b' ' || *b == b'\t' || b.is_ascii_punctuation());
            let fits =
                start + row.4.len() - last.0 as usize <= utf8kit_codec::context::MAX_NON_ASCII_RUN;
            let is_run = match (last.3, row.3) {
                ("non-ascii", "non-ascii") => joins,
                ("tag", "tag") => between.is_empty(),
                _ => false,
            };
            if is_run && fits {
                last.4.extend_from_slice(between);
                last.4.extend_from_slice(&row.4);
                continue;
            }
        }
        merged.push(row);
    }
    merged
}

/// Whether a character is looked at by the context lints.
pub(crate) fn is_hidden(c: char) -> bool {
    matches!(
        Lint::classify(u32::from(c), 1),
        Some(Lint::Invisible | Lint::Tag)
    )
}

/// The indexes of the units that the context lints exempt, decided in one pass over the whole
/// input, written from SPEC 1.6 and the man page rather than from the streaming code: a
/// candidate's neighbours are the last character before it that is not a finding (an ill-formed
/// unit in between means none) and the unit right after it (none if that is hidden or not a
/// character); a flag is U+1F3F4 immediately followed by MIN_FLAG_TAGS to MAX_FLAG_TAGS tags of
/// lowercase letters and digits (E0061..E007A, E0030..E0039) and E007F.
pub(crate) fn reference_exemptions(
    units: &[(usize, usize, &str, Option<u32>)],
    config: Config,
    char_of: impl Fn(usize) -> Option<char>,
) -> std::collections::HashSet<usize> {
    let mut exempt = std::collections::HashSet::new();
    if config.lints.is_empty() {
        return exempt;
    }
    let lint_of = |i: usize| {
        let (offset, _, _, _) = units[i];
        char_of(i)
            .and_then(|c| Lint::classify(u32::from(c), offset as u64))
            .filter(|&l| config.lints.contains(l))
    };
    // The last character that was not a finding, as the pass goes.
    let mut prev: Option<char> = None;
    let mut i = 0;
    while i < units.len() {
        let lint = lint_of(i);
        if lint == Some(Lint::Tag) && i > 0 && char_of(i - 1) == Some('\u{1F3F4}') {
            let mut end = i;
            while end < units.len()
                && end - i < utf8kit_codec::context::MAX_FLAG_TAGS
                && lint_of(end) == Some(Lint::Tag)
                && matches!(u32::from(char_of(end).unwrap()), 0xE0030..=0xE0039 | 0xE0061..=0xE007A)
            {
                end += 1;
            }
            if end - i >= utf8kit_codec::context::MIN_FLAG_TAGS
                && end < units.len()
                && char_of(end) == Some('\u{E007F}')
            {
                exempt.extend(i..=end);
                prev = Some('\u{E007F}');
                i = end + 1;
                continue;
            }
        }
        let is_finding = match lint {
            Some(Lint::Invisible) => {
                let c = char_of(i).unwrap();
                let next = char_of(i + 1).filter(|&n| !is_hidden(n));
                if utf8kit_codec::context::invisible_has_job(u32::from(c), prev, next) {
                    exempt.insert(i);
                    false
                } else {
                    true
                }
            }
            Some(_) => true,
            None => false,
        };
        let (_, _, kind, _) = units[i];
        if kind != "char" {
            // Ill-formed, reported or accepted by the policy: not a character either way.
            prev = None;
        } else if !is_finding {
            prev = char_of(i);
        }
        i += 1;
    }
    exempt
}

// ---------------------------------------------------------------------------------------------
// Exhaustive: every input of one, two and three bytes.

/// Checks one short input against every oracle.
pub(crate) fn check_exhaustive(
    input: &[u8],
    lossy: &mut Vec<u8>,
    messages_seen: &mut Vec<(usize, Option<usize>)>,
) {
    let report = scan_whole(input, Config::default());
    assert_eq!(report.rebuilt, input, "partition of {input:02X?}");
    assert!(report.text_offsets_ok, "offsets of {input:02X?}");
    // `validate` is std's answer, error for error; its message depends on those two numbers
    // only, so it is compared once for each pair of them (not formatted 16 million times).
    let std = std::str::from_utf8(input);
    let ours = utf8kit_codec::validate(input);
    assert_eq!(
        ours.map_err(|e| (e.valid_up_to(), e.error_len())),
        std.map(|_| ())
            .map_err(|e| (e.valid_up_to(), e.error_len())),
        "validate {input:02X?}"
    );
    if let (Err(ours), Err(std)) = (ours, std) {
        let pair = (ours.valid_up_to(), ours.error_len());
        if !messages_seen.contains(&pair) {
            messages_seen.push(pair);
            assert_eq!(ours.to_string(), std.to_string(), "validate {input:02X?}");
        }
    }
    // Validity and the first error offset are std's.
    match std {
        Ok(_) => assert!(report.findings.is_empty(), "{input:02X?} is valid"),
        Err(e) => assert_eq!(
            report.findings.first().map(|r| r.0),
            Some(e.valid_up_to() as u64),
            "first error of {input:02X?}"
        ),
    }
    assert_eq!(
        report.findings,
        reference_findings(input, Config::default()),
        "units of {input:02X?}"
    );
    lossy.clear();
    decode_lossy(input, lossy);
    assert_eq!(
        lossy.as_slice(),
        String::from_utf8_lossy(input).as_bytes(),
        "repair of {input:02X?}"
    );
}

#[test]
pub(crate) fn every_one_and_two_byte_input() {
    let mut lossy = Vec::new();
    let mut seen = Vec::new();
    for a in 0..=255u8 {
        check_exhaustive(&[a], &mut lossy, &mut seen);
        for b in 0..=255u8 {
            check_exhaustive(&[a, b], &mut lossy, &mut seen);
        }
    }
}

/// Every input of three bytes whose first byte is in `leads`.
pub(crate) fn every_three_byte_input_from(leads: std::ops::RangeInclusive<u8>) {
    let mut lossy = Vec::new();
    let mut seen = Vec::new();
    for a in leads {
        for b in 0..=255u8 {
            for c in 0..=255u8 {
                check_exhaustive(&[a, b, c], &mut lossy, &mut seen);
            }
        }
    }
}

// The 16 million inputs in two halves, so that the test threads share them.
#[test]
pub(crate) fn every_three_byte_input_below_80() {
    every_three_byte_input_from(0x00..=0x7F);
}

#[test]
pub(crate) fn every_three_byte_input_from_80() {
    every_three_byte_input_from(0x80..=0xFF);
}

#[test]
pub(crate) fn every_scalar_value_scans_as_one_char() {
    let mut buf = [0u8; 4];
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        let unit = utf8kit_codec::scan_unit(bytes, true).unwrap();
        assert_eq!(
            (unit.kind, unit.len, unit.codepoint),
            (UnitKind::Char, bytes.len(), Some(c as u32)),
            "U+{:04X}",
            c as u32
        );
        let encoded =
            utf8kit_codec::encode::encode(c as u32, utf8kit_codec::encode::Form::Standard).unwrap();
        assert_eq!(encoded.as_bytes(), bytes);
    }
}

/// The example of the first issue, through the whole stack of the codec.
#[test]
pub(crate) fn issue_2_example() {
    let report = scan_whole(b"a\xc0\xafb\n\xed\xa0\x80", Config::default());
    assert_eq!(
        report.findings,
        [
            (1, 1, 2, "overlong", vec![0xC0, 0xAF], Some(47)),
            (5, 2, 1, "surrogate", vec![0xED, 0xA0, 0x80], Some(55296)),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Chunk-split invariance.

/// Inputs that put every kind of unit, and the look-ahead of a surrogate pair, near each other.
pub(crate) fn tricky_cases() -> Vec<Vec<u8>> {
    let cases: &[&[u8]] = &[
        b"a\xC0\xAFb\n\xED\xA0\x80",
        b"\xED\xA0\xBD\xED\xB8\x80\xED\xA0\x80\xED\xA0\x80\xED\xB0\x80",
        b"\xED\xA0\x80\xED\xB0",
        b"\xED\xA0\x80\xED",
        b"\xFC\x80\x80\x80\x80\xAF\xFC\x80\x80\x80\x80",
        b"\xF8\x88\x80\x80\x80\xF4\x90\x80\x80\xF0\x8D\xA0\x80",
        b"caf\xE9 cr\xE8me \xE2\x82\xAC\xE2\x82",
        b"\xEF\xBB\xBFbom\x00nul\x07\x7F\xC2\x85\xEF\xB7\x90\xE2\x80\xAE\xEE\x80\x80\xEF\xBF\xBD",
        "multi\n\nline 😀 €\r\n\u{202E}x".as_bytes(),
        b"\xC0\x80\xC0\x80\xC1\x80\xFE\xFF\x80\xBF\n\n\xE2",
        b"\xFF\xFEa\x00b\x00\n\x00",
        b"\xFE\xFF\x00a",
        b"\xFF\xFE\x00\x00a\x00\x00\x00",
        b"\x00\x00\xFE\xFF",
        b"\xFF\xFE\x00",
        b"\xFF",
        "a\u{200D}b 👨\u{200D}👩\u{200D}👧 क\u{200D}ष \u{200D}".as_bytes(),
        "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\u{200D}🔥 x".as_bytes(),
        "\u{E0069}\u{E0067}\u{E006E}\u{E007F}🏴\u{E0067}\u{E0062}ok\u{E007F}".as_bytes(),
        "a\u{FE0F}1\u{FE0F}\u{20E3}❤\u{FE0F}\u{200B}\u{2800}⠁\u{2800}\u{3164}\u{FEFF}".as_bytes(),
        "x\u{200D}\u{200D}\u{200C}\u{E0100}葛\u{E0100}\u{115F}\u{1160}\u{1100}\u{1160}".as_bytes(),
    ];
    cases.iter().map(|c| c.to_vec()).collect()
}

pub(crate) fn all_configs() -> Vec<Config> {
    let policies = [
        Policy::STRICT,
        Policy::CESU8,
        Policy::SURROGATES,
        Policy::MODIFIED,
    ];
    let lint_sets = [
        LintSet::NONE,
        LintSet::ALL,
        LintSet::parse("bom,bidi").unwrap(),
    ];
    let mut configs = Vec::new();
    for policy in policies {
        for lints in lint_sets {
            for foreign_bom in [false, true] {
                configs.push(Config {
                    policy,
                    lints,
                    foreign_bom,
                    words: None,
                });
            }
        }
    }
    configs
}

#[test]
pub(crate) fn one_byte_at_a_time_with_empty_chunks_and_padding() {
    for case in tricky_cases() {
        for pad in 0..64 {
            let mut input = vec![b'x'; pad];
            input.extend_from_slice(&case);
            input.extend_from_slice(&case);
            for config in all_configs() {
                let whole = scan_whole(&input, config);
                assert_eq!(
                    whole.findings,
                    reference_findings(&input, config),
                    "{input:02X?}"
                );
                let bytewise: Vec<usize> = (0..=input.len()).flat_map(|i| [i, i]).collect();
                assert_eq!(scan_split(&input, &bytewise, config), whole, "{input:02X?}");
                // Cuts at every boundary, two at a time.
                for cut in 0..=input.len() {
                    assert_eq!(
                        scan_split(&input, &[cut, cut], config),
                        whole,
                        "{input:02X?} cut at {cut}"
                    );
                }
            }
        }
    }
}

/// Errors on both sides of chunk borders of a realistic size (the 64 KiB reads of the programs).
#[test]
pub(crate) fn errors_across_large_chunk_borders() {
    let line = "Grüße, 世界 — ok 😀\n".as_bytes();
    let mut input = Vec::new();
    while input.len() < 200_000 {
        input.extend_from_slice(line);
    }
    for (i, error) in tricky_cases().iter().enumerate() {
        let at = 65536 - 3 + i;
        input.splice(at..at, error.iter().copied());
    }
    let config = Config {
        policy: Policy::STRICT,
        lints: LintSet::ALL,
        foreign_bom: true,
        words: None,
    };
    let whole = scan_whole(&input, config);
    assert_eq!(whole.findings, reference_findings(&input, config));
    assert!(!whole.findings.is_empty());
    for size in [1000, 4096, 65536, 65537, 131072] {
        let cuts: Vec<usize> = (1..=input.len() / size).map(|k| k * size).collect();
        assert_eq!(
            scan_split(&input, &cuts, config),
            whole,
            "chunk size {size}"
        );
    }
}

#[test]
pub(crate) fn a_sink_can_stop_the_scan() {
    let input = b"ok\xFF\xFEmore\x80";
    let mut seen = Vec::new();
    let scanner = scan(input, Config::default(), &mut |f: &Finding<'_>| {
        seen.push(f.position.byte_offset);
        if seen.len() == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(seen, [2, 3]);
    assert!(scanner.is_stopped());
    assert_eq!(
        scanner.bytes_scanned(),
        4,
        "the scan ended after the second finding"
    );
}

#[test]
pub(crate) fn repairer_streams_like_std() {
    for case in tricky_cases() {
        for cut in 0..=case.len() {
            let mut repairer = Repairer::new(RepairOptions::default());
            repairer.feed(&case[..cut], false);
            repairer.feed(&case[cut..], true);
            assert_eq!(
                *repairer.output(),
                String::from_utf8_lossy(&case).as_bytes(),
                "{case:02X?}"
            );
        }
    }
}

//! `utf8dump` as a user runs it.

use std::io::Write;

use predicates::prelude::*;
use serde_json::Value;
use utf8kit_codec::units;

use crate::common::{json_lines, program, stdout_of};

fn utf8dump() -> assert_cmd::Command {
    program("utf8dump")
}

/// Every kind of unit that needs care on a terminal, and ill-formed ones.
const SAMPLE: &[u8] = b"a\xc0\xaf\xe2\x82\xac\n\xed\xa0\x80 \xcc\x81\xe4\xb8\x96\xf0\x9f\x98\x80\x1b\xe2\x80\xae\xe2\x82";

/// `utf8dump -r` of a dump.
fn read_back(dump: impl Into<Vec<u8>>) -> std::process::Output {
    utf8dump().arg("-r").write_stdin(dump).output().unwrap()
}

fn dump(args: &[&str], input: &[u8]) -> String {
    let output = utf8dump().args(args).write_stdin(input).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{args:?}");
    stdout_of(&output)
}

#[test]
fn default_view() {
    assert_eq!(
        dump(&[], SAMPLE),
        "00000000  61           U+0061    a\n\
         00000001  c0 af        U+002F    overlong\n\
         00000003  e2 82 ac     U+20AC    €\n\
         00000006  0a           U+000A    ␊\n\
         00000007  ed a0 80     U+D800    surrogate\n\
         0000000a  20           U+0020     \n\
         0000000b  cc 81        U+0301    ◌\u{301}\n\
         0000000d  e4 b8 96     U+4E16    世\n\
         00000010  f0 9f 98 80  U+1F600   😀\n\
         00000014  1b           U+001B    ␛\n\
         00000015  e2 80 ae     U+202E    \\u{202e}\n\
         00000018  e2 82        -         truncated\n"
    );
}

#[test]
fn names_keep_the_columns_aligned_after_wide_characters() {
    let text = dump(&["--names"], "a€世😀\u{202E}".as_bytes());
    assert_eq!(
        text,
        "00000000  61           U+0061    a           LATIN SMALL LETTER A\n\
         00000001  e2 82 ac     U+20AC    €           EURO SIGN\n\
         00000004  e4 b8 96     U+4E16    世          CJK UNIFIED IDEOGRAPH-4E16\n\
         00000007  f0 9f 98 80  U+1F600   😀          GRINNING FACE\n\
         0000000b  e2 80 ae     U+202E    \\u{202e}    RIGHT-TO-LEFT OVERRIDE\n"
    );
    let text = dump(&["--names"], b"\xc0\xaf");
    assert!(
        text.ends_with("overlong    overlong encoding of U+002F in 2 bytes\n"),
        "{text}"
    );
}

#[test]
fn bits_and_octal() {
    assert_eq!(
        dump(&["--bits"], "a€".as_bytes()),
        "00000000  0_1100001                                U+0061    a\n\
         00000001  1110_0010 10_000010 10_101100            U+20AC    €\n"
    );
    assert_eq!(
        dump(&["--octal"], "€".as_bytes()),
        "00000000  342 202 254      U+20AC    €\n"
    );
    utf8dump().args(["--bits", "--octal"]).assert().code(2);
}

#[test]
fn hex_view_shows_each_character_at_its_lead_byte() {
    assert_eq!(
        dump(&["-x"], SAMPLE),
        "00000000  61 c0 af e2 82 ac 0a ed  a0 80 20 cc 81 e4 b8 96  |a\u{FFFD}\u{FFFD}€··.\
         \u{FFFD}\u{FFFD}\u{FFFD} ◌\u{301}·世·|\n\
         00000010  f0 9f 98 80 1b e2 80 ae  e2 82                    |😀··..··\u{FFFD}\u{FFFD}|\n"
    );
    // A wide character whose lead byte is the last of a row does not fit: a dot stands in.
    let mut input = vec![b'x'; 15];
    input.extend_from_slice("世".as_bytes());
    let text = dump(&["-x"], &input);
    assert!(text.contains("|xxxxxxxxxxxxxxx.|\n"), "{text}");
    assert!(text.contains("|··|\n"), "{text}");
}

#[test]
fn escape_view() {
    assert_eq!(
        dump(&["-e"], SAMPLE),
        "a\\xc0\\xaf€\n\\xed\\xa0\\x80 \u{301}世😀\\u{1b}\\u{202e}\\xe2\\x82"
    );
    assert_eq!(dump(&["--escape"], b"plain\ttext\n"), "plain\ttext\n");
}

#[test]
fn json_units_equal_the_codec_units_on_random_input() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut input = Vec::new();
    // A little more than one 64 KiB read, so that units cross its end.
    while input.len() < 70_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if state.is_multiple_of(3) {
            input.extend_from_slice("é世😀 ".as_bytes());
        } else {
            input.push((state >> 24) as u8);
        }
    }
    let text = dump(&["--format", "json"], &input);
    let values = json_lines(&text);
    let expected: Vec<Value> = units(&input)
        .map(|(offset, unit)| {
            let hex: String = input[offset..offset + unit.len]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            serde_json::json!({"offset": offset, "length": unit.len, "bytes": hex,
                               "kind": unit.kind.as_str(), "codepoint": unit.codepoint})
        })
        .collect();
    assert_eq!(values.len(), expected.len());
    assert!(
        values == expected,
        "json units differ from the codec's units"
    );
}

#[test]
fn a_file_and_the_same_bytes_on_stdin_give_the_same_dump() {
    let mut input = Vec::new();
    // About 150 KB: more than two of the 64 KiB reads, with broken sequences on either side of
    // their borders.
    for i in 0..12_000u32 {
        input.extend_from_slice(format!("line {i} é\n").as_bytes());
        if i % 1000 == 7 {
            input.extend_from_slice(b"\xe2\x82");
        }
    }
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(&input).unwrap();
    for args in [
        &[][..],
        &["-x"],
        &["--format", "json"],
        &["--stats"],
        &["-e"],
    ] {
        let from_file = utf8dump().args(args).arg(file.path()).output().unwrap();
        let from_stdin = utf8dump()
            .args(args)
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert!(from_file.stdout == from_stdin.stdout, "{args:?}");
    }
}

#[test]
fn a_window_that_starts_inside_a_sequence_says_so_and_resynchronises() {
    assert_eq!(
        dump(&["-s", "4", "-n", "6"], SAMPLE),
        "# offset 0x4 is inside the sequence that starts at offset 0x3 with lead byte e2: \
         resynchronised at offset 0x6\n\
         00000006  0a           U+000A    ␊\n\
         00000007  ed a0 80     U+D800    surrogate\n"
    );
    // A unit that starts inside the window is shown whole.
    assert_eq!(
        dump(&["--skip", "0x3", "--length", "1"], SAMPLE),
        "00000003  e2 82 ac     U+20AC    €\n"
    );
    assert_eq!(
        dump(&["-s", "100"], SAMPLE),
        "# the input ends at offset 0x1a, before the window at 0x64\n"
    );
    utf8dump().args(["-s", "lots"]).assert().code(2);
}

#[test]
fn errors_only_with_context() {
    assert_eq!(
        dump(
            &["--errors-only", "-C", "1"],
            b"aaaa\xffbbbbbbbb\xc0\xafcc\n"
        ),
        "00000003  61           U+0061    a\n\
         00000004  ff           -         invalid-byte\n\
         00000005  62           U+0062    b\n\
         --\n\
         0000000c  62           U+0062    b\n\
         0000000d  c0 af        U+002F    overlong\n\
         0000000f  63           U+0063    c\n"
    );
    assert_eq!(
        dump(&["--errors-only"], b"ok\xff\xfe"),
        "00000002  ff           -         invalid-byte\n\
         00000003  fe           -         invalid-byte\n"
    );
    utf8dump().args(["-C", "2"]).assert().code(2);
}

#[test]
fn stats() {
    assert_eq!(
        dump(
            &["--stats"],
            &["ab\n€".as_bytes(), b"\xff\nlonger line\n"].concat()
        ),
        "bytes                       20\n\
         units                       18\n\
         \u{20} characters                17\n\
         \u{20}   1-byte                  16\n\
         \u{20}   2-byte                   0\n\
         \u{20}   3-byte                   1\n\
         \u{20}   4-byte                   0\n\
         \u{20} ill-formed                 1\n\
         \u{20}   invalid-byte             1\n\
         lines                        3\n\
         longest line                11 units (11 bytes), line 3\n\
         ASCII share              80.0%\n"
    );
}

#[test]
fn reverse_turns_every_dump_back_into_the_original_bytes() {
    let mut state = 7u64;
    // A little more than one 64 KiB read.
    let input: Vec<u8> = (0..70_000)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 56) as u8
        })
        .collect();
    for args in [&[][..], &["-x"], &["--format", "json"]] {
        let dumped = utf8dump()
            .args(args)
            .write_stdin(input.clone())
            .output()
            .unwrap();
        let back = read_back(dumped.stdout);
        assert_eq!(back.status.code(), Some(0), "{args:?}");
        assert!(back.stdout == input, "{args:?}: not the original bytes");
    }
}

#[test]
fn an_edited_dump_writes_the_edited_byte() {
    let dumped = dump(&[], b"caf\xe9!");
    let edited = dumped.replace("e9           -         truncated", "c3 a9");
    utf8dump()
        .arg("-r")
        .write_stdin(edited)
        .assert()
        .code(0)
        .stdout("café!");
    utf8dump()
        .arg("-r")
        .write_stdin("00000000  zz\nnot a dump\n")
        .assert()
        .code(2)
        .stderr(
            "utf8dump: <stdin>: line 1: 'zz' is not a byte\n\
             utf8dump: <stdin>: line 2: 'not' is not an offset\n",
        );
}

#[test]
fn colour_marks_ill_formed_units_and_a_pipe_gets_none() {
    let coloured = utf8dump()
        .args(["--color", "always"])
        .write_stdin(&b"a\xff"[..])
        .output()
        .unwrap();
    let text = stdout_of(&coloured);
    assert!(text.contains("\x1b[1m\x1b[31minvalid-byte"), "{text:?}");
    assert!(text.contains("\x1b[34m00000000"), "{text:?}");
    for args in [&[][..], &["-x"], &["-e"]] {
        utf8dump()
            .args(args)
            .write_stdin(&b"a\xff"[..])
            .assert()
            .stdout(predicate::str::contains("\x1b[").not());
    }
}

/// Whole rows of ASCII take a faster path than a row that starts with another character: both
/// must give the same rows.
#[test]
fn hex_rows_are_the_same_on_every_path() {
    let mut input = "é".as_bytes().to_vec();
    input.extend_from_slice(b"0123456789abcdefghijklmnopqrstuvwxyz\tABCDEFGHIJ\n");
    assert_eq!(
        dump(&["-x"], &input),
        "00000000  c3 a9 30 31 32 33 34 35  36 37 38 39 61 62 63 64  |é·0123456789abcd|\n\
         00000010  65 66 67 68 69 6a 6b 6c  6d 6e 6f 70 71 72 73 74  |efghijklmnopqrst|\n\
         00000020  75 76 77 78 79 7a 09 41  42 43 44 45 46 47 48 49  |uvwxyz.ABCDEFGHI|\n\
         00000030  4a 0a                                             |J.|\n"
    );
    let ascii: Vec<u8> = (0u8..40).map(|i| b'a' + i % 26).collect();
    let text = dump(&["-x"], &ascii);
    assert_eq!(
        text.lines().next().unwrap(),
        "00000000  61 62 63 64 65 66 67 68  69 6a 6b 6c 6d 6e 6f 70  |abcdefghijklmnop|"
    );
    assert_eq!(
        text.lines().nth(2).unwrap(),
        "00000020  67 68 69 6a 6b 6c 6d 6e                           |ghijklmn|"
    );
}

/// Without colour, whole rows of text are written straight from their bytes (and ASCII unit
/// lines from a template, all held back and written 64 KiB at a time); with colour, every unit
/// goes through the general path and is written at once. Stripped of colour, both must give the
/// same lines, wherever the row boundaries fall: in the middle of characters, before wide ones
/// that do not fit, among ill-formed units, windows that cut runs and `--` separators.
#[test]
fn plain_views_equal_the_unit_by_unit_coloured_views() {
    let pieces: [&[u8]; 22] = [
        b"a",
        b" ",
        b"\n",
        b"\t",
        b"\x7f",
        "é".as_bytes(),
        "€".as_bytes(),
        "中".as_bytes(),
        "한".as_bytes(),
        "😀".as_bytes(),
        "👍🏽".as_bytes(),
        "e\u{301}".as_bytes(),
        "\u{200B}".as_bytes(),
        "\u{202E}".as_bytes(),
        "\u{FEFF}".as_bytes(),
        "\u{10FFFD}".as_bytes(),
        b"0123456789abcdefXYZ",
        b"\xc0\xaf",
        b"\xe2\x82",
        b"\xff",
        b"\xed\xa0\x80",
        b"\x80",
    ];
    let mut state = 7u32;
    let mut body = Vec::new();
    for _ in 0..3000 {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let index = (state >> 16) as usize % pieces.len();
        // Ill-formed pieces (the last five) one time in ten.
        if index < pieces.len() - 5 || state.is_multiple_of(10) {
            body.extend_from_slice(pieces[index]);
        }
    }
    let strip = |coloured: String| {
        let mut plain = String::new();
        let mut rest = coloured.as_str();
        while let Some(at) = rest.find('\x1b') {
            plain.push_str(&rest[..at]);
            rest = &rest[at + rest[at..].find('m').unwrap() + 1..];
        }
        plain + rest
    };
    for shift in 0..17 {
        let mut input = vec![b'q'; shift];
        input.extend_from_slice(&body);
        for window in [&[][..], &["-s", "9", "-n", "2000"][..]] {
            let args = [&["-x"][..], window].concat();
            plain_equals_coloured(&args, &input, &strip);
        }
    }
    // The unit view writes ASCII lines from a template: the same lines as unit by unit.
    plain_equals_coloured(&[], &body, &strip);
    plain_equals_coloured(&["--errors-only", "-C", "2"], &body, &strip);
}

fn plain_equals_coloured(args: &[&str], input: &[u8], strip: &dyn Fn(String) -> String) {
    let plain = dump(&[args, &["--color", "never"]].concat(), input);
    let coloured = dump(&[args, &["--color", "always"]].concat(), input);
    assert_ne!(plain, coloured, "colour was asked for");
    assert_eq!(plain, strip(coloured), "{args:?}");
}

#[test]
fn format_characters_are_escaped_in_every_view() {
    // Prepended concatenation marks (general category Cf) would join with what follows.
    let input = "\u{600}\u{6DD}\u{70F}\u{110BD}\u{2066}".as_bytes();
    assert_eq!(
        dump(&["-e"], input),
        "\\u{600}\\u{6dd}\\u{70f}\\u{110bd}\\u{2066}"
    );
    let units = dump(&[], input);
    for escaped in [
        "\\u{600}",
        "\\u{6dd}",
        "\\u{70f}",
        "\\u{110bd}",
        "\\u{2066}",
    ] {
        assert!(units.contains(escaped), "{units}");
    }
    assert!(
        !units.contains('\u{600}') && !units.contains('\u{110BD}'),
        "{units}"
    );
}

/// `utf8dump -r` reads what xxd writes, as `xxd -r` does: the default layout with any grouping
/// and width, and `xxd -p`.
#[test]
fn reverse_reads_xxd_output() {
    let bytes: Vec<u8> = (0..=255u8)
        .chain(b"caf\xc3\xa9 \xe2\x82\xac\n".iter().copied())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.bin");
    std::fs::write(&input, &bytes).unwrap();
    let xxd_runs = std::process::Command::new("xxd").arg("-v").output().is_ok();
    if !xxd_runs {
        crate::common::skip("no xxd to write its dumps");
        return;
    }
    for args in [
        &[][..],
        &["-p"],
        &["-g", "1"],
        &["-g", "8", "-c", "24"],
        &["-u"],
    ] {
        let dump = std::process::Command::new("xxd")
            .args(args)
            .arg(&input)
            .output()
            .unwrap()
            .stdout;
        let back = read_back(dump);
        assert_eq!(back.status.code(), Some(0), "xxd {args:?}");
        assert!(back.stdout == bytes, "xxd {args:?} read back");
    }
}

/// `-p` and `-i` write what `xxd -p` and `xxd -i` write, byte for byte, windows included; and
/// `-r` reads `-p` back.
#[test]
fn plain_and_include_views_are_xxds() {
    let bytes: Vec<u8> = b"ab\xe2\x82\xacdef\xf0\x9f\x98\x80gh\xff"
        .iter()
        .copied()
        .chain(0..=255u8)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.bin"), &bytes).unwrap();
    let ours = |args: &[&str]| {
        crate::common::program("utf8dump")
            .args(args)
            .arg("in.bin")
            .current_dir(dir.path())
            .output()
            .unwrap()
            .stdout
    };
    let back = read_back(ours(&["-p"]));
    assert!(back.stdout == bytes, "-p reads back");
    let back = read_back(ours(&["-i"]));
    assert!(
        back.stdout == bytes,
        "-i reads back, declaration and length included"
    );
    let include = String::from_utf8(ours(&["-i", "-n", "14"])).unwrap();
    assert_eq!(
        include,
        "unsigned char in_bin[] = {\n  0x61, 0x62, 0xe2, 0x82, 0xac, 0x64, 0x65, 0x66, 0xf0, 0x9f, \
         0x98, 0x80,\n  0x67, 0x68\n};\nunsigned int in_bin_len = 14;\n"
    );
    // A window ends at the byte asked for, inside a character or not.
    assert_eq!(ours(&["-p", "-s", "3", "-n", "2"]), b"82ac\n");
    if std::process::Command::new("xxd")
        .arg("-v")
        .output()
        .is_err()
    {
        crate::common::skip("no xxd to compare with");
        return;
    }
    for (ours_args, xxd_args) in [
        (&["-p"][..], &["-p"][..]),
        (&["-i"], &["-i"]),
        (&["-p", "-s", "3", "-n", "5"], &["-p", "-s", "3", "-l", "5"]),
        (
            &["-i", "-s", "9", "-n", "40"],
            &["-i", "-s", "9", "-l", "40"],
        ),
    ] {
        let theirs = std::process::Command::new("xxd")
            .args(xxd_args)
            .arg("in.bin")
            .current_dir(dir.path())
            .output()
            .unwrap()
            .stdout;
        assert!(
            ours(ours_args) == theirs,
            "{ours_args:?} against xxd {xxd_args:?}"
        );
    }
}

/// `-s -N` starts N bytes before the end of a file, as `xxd -s -N` does; a pipe has no end to
/// count from.
#[test]
fn a_negative_skip_counts_from_the_end_of_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("w.bin"),
        b"ab\xe2\x82\xacdef\xf0\x9f\x98\x80gh",
    )
    .unwrap();
    crate::common::program("utf8dump")
        .args(["-p", "-s", "-5", "w.bin"])
        .current_dir(dir.path())
        .assert()
        .code(0)
        .stdout("9f98806768\n");
    crate::common::program("utf8dump")
        .args(["-s", "-2", "w.bin"])
        .current_dir(dir.path())
        .assert()
        .code(0)
        .stdout("0000000c  67           U+0067    g\n0000000d  68           U+0068    h\n");
    crate::common::program("utf8dump")
        .args(["-s", "-2"])
        .write_stdin("piped")
        .assert()
        .code(2)
        .stderr("utf8dump: <stdin>: -s -N counts from the end, which only a regular file has\n");
}

/// A `-x` window shows exactly the bytes asked for, as xxd's does, wherever it cuts a
/// character: the bytes before a cut at the start are `·`, a character cut at the end is drawn
/// at its lead byte; and `-r` gives back exactly the window's bytes.
#[test]
fn hex_windows_show_exactly_the_bytes_asked_for() {
    let input = "hello €€ world\n".as_bytes();
    assert_eq!(
        dump(&["-x", "-s", "7", "-n", "4"], input),
        "# offset 0x7 is inside the sequence that starts at offset 0x6 with lead byte e2: its \
         bytes before the window are not shown\n\
         00000007  82 ac e2 82                                       |··€·|\n"
    );
    assert_eq!(
        dump(&["-x", "-s", "6", "-n", "4"], input),
        "00000006  e2 82 ac e2                                       |€··€|\n"
    );
    // The unit views still resynchronise and show whole units.
    assert_eq!(
        dump(&["-s", "7", "-n", "3"], input),
        "# offset 0x7 is inside the sequence that starts at offset 0x6 with lead byte e2: \
         resynchronised at offset 0x9\n\
         00000009  e2 82 ac     U+20AC    €\n"
    );
    let mut bytes = SAMPLE.to_vec();
    bytes.extend_from_slice("añ中😀\u{301}x\n".as_bytes());
    // Every start with every length, in xxd's layout or in rows of 5 in pairs by turns.
    for skip in 0..bytes.len() {
        for (i, length) in [1, 2, 3, 5, 17].into_iter().enumerate() {
            let (s, n) = (skip.to_string(), length.to_string());
            let extra = [&[][..], &["-c", "5", "-g", "2"]][(skip + i) % 2];
            let args = [&["-x", "-s", &s, "-n", &n][..], extra].concat();
            let back = read_back(dump(&args, &bytes));
            let want = &bytes[skip..(skip + length).min(bytes.len())];
            assert!(back.stdout == want, "{args:?}");
        }
    }
}

/// `-c`, `-g` and `-u` lay out the `-x` rows as xxd's options do, with the text panel; the
/// bytes columns equal xxd's.
#[test]
fn hex_rows_take_xxds_columns_groups_and_case() {
    let input = "hello €€ world\n".as_bytes();
    assert_eq!(
        dump(&["-x", "-c", "8", "-g", "2", "-u"], input),
        "00000000  6865 6C6C 6F20 E282  |hello €·|\n\
         00000008  ACE2 82AC 2077 6F72  |·€·· wor|\n\
         00000010  6C64 0A              |ld.|\n"
    );
    assert_eq!(
        dump(&["-x", "-c", "12"], input),
        "00000000  68 65 6c 6c 6f 20 e2 82  ac e2 82 ac  |hello €··€··|\n\
         0000000c  20 77 6f 72 6c 64 0a                  | world.|\n"
    );
    assert_eq!(
        dump(&["-x", "-g", "0", "-c", "4"], &input[..6]),
        "00000000  68656c6c  |hell|\n00000004  6f20      |o |\n"
    );
    // The default is still hexdump -C's row, and -c 0 means it, as in xxd.
    assert_eq!(dump(&["-x", "-c", "0"], input), dump(&["-x"], input));
    assert_eq!(
        dump(&["-u"], "€".as_bytes()),
        "00000000  E2 82 AC     U+20AC    €\n"
    );
    if std::process::Command::new("xxd")
        .arg("-v")
        .output()
        .is_err()
    {
        crate::common::skip("no xxd to compare with");
        return;
    }
    let mut bytes: Vec<u8> = (0..=255u8).collect();
    bytes.extend_from_slice(SAMPLE);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.bin"), &bytes).unwrap();
    let run = |program: &str, args: &[&str]| {
        let output = std::process::Command::new(program)
            .args(args)
            .arg("in.bin")
            .current_dir(dir.path())
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let ours = env!("CARGO_BIN_EXE_utf8dump");
    for args in [
        &["-g", "2"][..],
        &["-c", "8", "-g", "4", "-u"],
        &["-c", "20", "-g", "3"],
        &["-c", "7", "-g", "1", "-s", "9", "-n", "50"],
    ] {
        let xxd_args: Vec<&str> = args
            .iter()
            .map(|&a| if a == "-n" { "-l" } else { a })
            .collect();
        let theirs = run("xxd", &xxd_args);
        let ours = run(ours, &[&["-x"][..], args].concat());
        // xxd: "OFFSET: GROUPS  TEXT"; ours: "OFFSET  GROUPS  |TEXT|".
        let groups = |line: &str, from: usize, panel: &str| {
            line[from..line.find(panel).unwrap()].trim_end().to_owned()
        };
        let theirs: Vec<String> = theirs.lines().map(|l| groups(l, 10, "  ")).collect();
        let ours: Vec<String> = ours.lines().map(|l| groups(l, 10, "|")).collect();
        assert_eq!(ours, theirs, "{args:?}");
    }
    for (ours_args, xxd_args) in [
        (&["-p", "-c", "7", "-u"][..], &["-p", "-c", "7", "-u"][..]),
        (
            &["-p", "-c", "0", "-n", "40"],
            &["-p", "-c", "0", "-l", "40"],
        ),
        (
            &["-i", "-c", "5", "-u", "-n", "23"],
            &["-i", "-c", "5", "-u", "-l", "23"],
        ),
    ] {
        assert_eq!(
            run(ours, ours_args),
            run("xxd", xxd_args),
            "{ours_args:?} against xxd {xxd_args:?}"
        );
    }
}

/// The row options need a view with rows, and a row of `-x` or `-i` holds at most 256 bytes,
/// as in xxd.
#[test]
fn row_options_are_refused_where_they_mean_nothing() {
    utf8dump()
        .args(["-x", "-c", "300"])
        .write_stdin("a")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "-c 300: a row of -x or -i holds at most 256 bytes",
        ));
    utf8dump()
        .args(["-p", "-c", "300"])
        .write_stdin("a")
        .assert()
        .code(0)
        .stdout("61\n");
    for args in [&["-c", "8"][..], &["-g", "2"], &["-p", "-g", "2"]] {
        utf8dump()
            .args(args)
            .write_stdin("a")
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::is_match("^utf8dump: .*(--hex|--group).*\n$").unwrap());
    }
}

/// `-r` reads every view of its own that shows all bytes: the unit view in hex, uppercase hex,
/// octal and bits, the `-x` rows in any layout, `-p` in any width, and JSON.
#[test]
fn reverse_reads_every_view_that_shows_all_bytes() {
    let mut bytes: Vec<u8> = (0..=255u8).collect();
    bytes.extend_from_slice(SAMPLE);
    bytes.extend_from_slice("|x| U+0041 - 7c".as_bytes());
    for args in [
        &[][..],
        &["-u"],
        &["--octal"],
        &["--bits"],
        &["--names"],
        &["-x"],
        &["-x", "-u", "-c", "8", "-g", "2"],
        &["-x", "-c", "32", "-g", "0"],
        &["-x", "-c", "5"],
        &["-p", "-c", "7"],
        &["-i"],
        &["-i", "-u", "-c", "5"],
        &["--format", "json"],
    ] {
        let back = read_back(dump(args, &bytes));
        assert_eq!(back.status.code(), Some(0), "{args:?}");
        assert!(back.stdout == bytes, "{args:?} read back");
    }
}

/// One way to show a byte that is not UTF-8 (`render::push_byte_escape`): utf8dump -e and
/// utf8fix --escape write the same `\xhh`, in lowercase, for the same input.
#[test]
fn dump_e_and_fix_escape_write_the_same_escapes() {
    let input = b"caf\xC3\xA9 \xC0\xAF \xED\xA0\x80 \xFF\xFE \xE2\x82 ok\n";
    let dumped = program("utf8dump")
        .arg("-e")
        .write_stdin(&input[..])
        .output()
        .unwrap();
    let fixed = program("utf8fix")
        .arg("--escape")
        .write_stdin(&input[..])
        .output()
        .unwrap();
    let expected = "café \\xc0\\xaf \\xed\\xa0\\x80 \\xff\\xfe \\xe2\\x82 ok\n";
    assert_eq!(String::from_utf8(fixed.stdout).unwrap(), expected);
    assert_eq!(String::from_utf8(dumped.stdout).unwrap(), expected);
}

/// `-r -p` and `-r -i` read back what `-p` and `-i` (and xxd's) write, as `xxd -r -p` does; a
/// view that does not show every byte cannot be read back.
#[test]
fn reverse_takes_xxds_p_and_i() {
    let bytes: &[u8] = b"caf\xc3\xa9 \xc0\xaf\xff\n";
    for view in ["-p", "-i"] {
        let dump = utf8dump().arg(view).write_stdin(bytes).output().unwrap();
        assert_eq!(dump.status.code(), Some(0));
        utf8dump()
            .args(["-r", view])
            .write_stdin(dump.stdout)
            .assert()
            .code(0)
            .stdout(bytes);
    }
    utf8dump()
        .args(["-r", "-x"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "'--reverse' cannot be used with '--hex'",
        ));
}

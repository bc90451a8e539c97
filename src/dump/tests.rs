use super::*;

#[test]
fn bits_set_markers_apart() {
    let rows: &[(u8, &str)] = &[
        (b'a', "0_1100001"),
        (0x82, "10_000010"),
        (0xC3, "110_00011"),
        (0xE2, "1110_0010"),
        (0xF0, "11110_000"),
        (0xF8, "111110_00"),
        (0xFC, "1111110_0"),
        (0xFE, "11111110"),
        (0xFF, "11111111"),
    ];
    for &(byte, expected) in rows {
        let mut text = String::new();
        push_bits(&mut text, byte);
        assert_eq!(text, expected, "{byte:02x}");
    }
}

#[test]
fn windows_find_the_sequence_they_start_in() {
    assert_eq!(inside_sequence(b"ab\xE2"), Some((2, 1, 0xE2)));
    assert_eq!(inside_sequence(b"\xE2\x82"), Some((1, 2, 0xE2)));
    assert_eq!(
        inside_sequence(b"\xE2\x82\xAC"),
        None,
        "the sequence is complete"
    );
    assert_eq!(inside_sequence(b"abc"), None);
    assert_eq!(inside_sequence(b"\x80\x80"), None, "no lead byte");
}

#[test]
fn dump_lines_parse_back() {
    let rows: &[(&str, &[u8])] = &[
        ("00000000  e2 82 ac     U+20AC      €\n", b"\xE2\x82\xAC"),
        // xxd's layouts: the default, -g 1, -c 4 with a panel that looks like hex, and -p.
        (
            "00000000: 6162 63e2 82ac 0a                        abc....\n",
            b"abc\xE2\x82\xAC\n",
        ),
        (
            "00000000: 63 61 66 65                                      cafe\n",
            b"cafe",
        ),
        ("00000004: 6361 6665  cafe\n", b"cafe"),
        ("6162e282ac0a\n", b"ab\xE2\x82\xAC\n"),
        ("00000003  c0 af        U+002F      overlong\n", b"\xC0\xAF"),
        (
            "00000000  63 61 66 c3 a9 20 c0 af  0a                       |caf·é·�|\n",
            b"caf\xC3\xA9 \xC0\xAF\n",
        ),
        (
            "{\"offset\":0,\"length\":2,\"bytes\":\"c0af\",\"kind\":\"overlong\",\"codepoint\":47}",
            b"\xC0\xAF",
        ),
        ("# a note\n", b""),
        ("--\n", b""),
    ];
    for (line, expected) in rows {
        let mut bytes = Vec::new();
        parse_dump_line(line.as_bytes(), &mut bytes).unwrap();
        assert_eq!(&bytes, expected, "{line:?}");
    }
    let mut bytes = Vec::new();
    assert!(parse_dump_line(b"hello world\n", &mut bytes).is_err());
    assert!(parse_dump_line(b"00000000  zz |x|\n", &mut bytes).is_err());
    bytes.clear();
    parse_dump_line(b"00000005  7c           U+007C      |\n", &mut bytes).unwrap();
    assert_eq!(bytes, b"|", "a '|' character is not a text panel");
}

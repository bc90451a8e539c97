//! `utf8fix --mojibake` against ftfy's own test cases (issue 14), the chain `-v` names, and
//! idempotence with `--strip-bom`.
//!
//! The cases are read from `../shared/conformance/ftfy/` beside the repository; where it is
//! absent the suite test says so on stderr and checks nothing else.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common::program;

fn conformance(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance/ftfy")
        .join(name);
    if path.exists() {
        Some(path)
    } else {
        crate::common::skip(&format!(
            "ftfy conformance data absent: {} (the shared conformance folder is not beside the \
             repository)",
            path.display()
        ));
        None
    }
}

/// Runs every case's `in` through one `utf8fix --mojibake` and counts exact hits per category.
fn score(name: &str) -> Option<BTreeMap<String, (usize, usize, usize)>> {
    let text = std::fs::read_to_string(conformance(name)?).expect("readable conformance file");
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let field =
        |r: &serde_json::Value, k: &str| r[k].as_str().unwrap_or_default().replace('\n', " ");
    let input: String = rows.iter().map(|r| field(r, "in") + "\n").collect();
    let output = program("utf8fix")
        .arg("--mojibake")
        .write_stdin(input)
        .output()
        .expect("utf8fix runs");
    assert_eq!(output.status.code(), Some(0));
    let out = String::from_utf8(output.stdout).expect("UTF-8 output");
    let mut table = BTreeMap::new();
    for (row, got) in rows.iter().zip(out.lines()) {
        let want = field(row, "want");
        let entry = table.entry(field(row, "category")).or_insert((0, 0, 0));
        entry.0 += usize::from(got == want);
        entry.1 += usize::from(field(row, "ftfy_fix_encoding") == want);
        entry.2 += 1;
        if field(row, "in") == want {
            assert_eq!(got, want, "a case that must stay unchanged was changed");
        }
    }
    Some(table)
}

#[test]
fn issue_14_every_ftfy_category_at_or_above_ftfy() {
    for file in ["ftfy-cases.jsonl", "ftfy-extra-layer.jsonl"] {
        let Some(table) = score(file) else { return };
        assert!(table.len() >= 3, "{file}: categories {table:?}");
        for (category, (ours, ftfy, total)) in &table {
            assert!(
                ours >= ftfy,
                "{file}: {category}: utf8fix {ours} of {total}, ftfy {ftfy}"
            );
        }
    }
}

#[test]
fn issue_14_verbose_names_the_chain_undone() {
    let output = program("utf8fix")
        .args(["--mojibake", "-v"])
        .write_stdin("GrÃƒÂ¼ÃƒÅ¸e\nРґРѕСЂРѕРіРµ\nLe Vigne di Zam√≤\nclean\n")
        .output()
        .expect("utf8fix runs");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "Grüße\nдороге\nLe Vigne di Zamò\nclean\n"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line decoded back from windows-1252 x2 (6 sequences)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line decoded back from windows-1251 (6 sequences)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line decoded back from macintosh (1 sequence)"),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn issue_14_strip_bom_with_mojibake_is_idempotent() {
    let run = |input: &[u8]| {
        let output = program("utf8fix")
            .args(["--strip-bom", "--mojibake"])
            .write_stdin(input.to_vec())
            .output()
            .expect("utf8fix runs");
        output.stdout
    };
    // "ï»¿" is a byte order mark read as windows-1252.
    let once = run("ï»¿cafÃ©\nï»¿ stays inside\n".as_bytes());
    assert_eq!(once, "café\n\u{FEFF} stays inside\n".as_bytes());
    assert_eq!(run(&once), once);
}

/// `-j` shares the judging of many lines among threads: the output and `-v`'s report are the
/// same for every number, and `-j0` is a usage error that names the option.
#[test]
fn issue_14_threads_change_nothing_but_the_speed() {
    let mut input = Vec::new();
    for n in 0..400 {
        let line = match n % 4 {
            0 => "GrÃƒÂ¼ÃƒÅ¸e aus KÃ¶ln, РґРѕСЂРѕРіРµ",
            1 => "clean text, déjà vu",
            2 => "itâ€™s a cafÃ© â€“ ÐŸÑ€Ð¸Ð²ÐµÑ‚",
            _ => "Le Vigne di Zam√≤ ",
        };
        input.extend_from_slice(format!("{n} {line}").as_bytes());
        if n % 100 == 3 {
            // An ill-formed byte on a line of mojibake, rarely: it ends the run of text that
            // the repair shares out among threads, and each run must hold many lines to judge.
            input.push(0xFF);
        }
        input.push(b'\n');
    }
    let run = |threads: &str| {
        program("utf8fix")
            .args(["--mojibake", "-v", "-j", threads])
            .write_stdin(input.clone())
            .output()
            .expect("utf8fix runs")
    };
    let one = run("1");
    assert_eq!(one.status.code(), Some(0));
    let stdout = String::from_utf8(one.stdout.clone()).expect("UTF-8 output");
    assert!(stdout.starts_with("0 Grüße aus Köln, дороге\n1 clean text, déjà vu\n"));
    assert!(stdout.contains("\n2 it’s a café – Привет\n3 Le Vigne di Zamò \u{FFFD}\n"));
    for threads in ["2", "7"] {
        let many = run(threads);
        assert_eq!(many.status.code(), Some(0));
        assert!(many.stdout == one.stdout, "-j{threads}: output differs");
        assert_eq!(many.stderr, one.stderr, "-j{threads}: report differs");
    }
    let zero = program("utf8fix")
        .args(["--mojibake", "-j0"])
        .write_stdin("x\n")
        .output()
        .expect("utf8fix runs");
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--threads"));
}

/// UTF-8 shown as KOI8-R or KOI8-U (a Unix terminal set to KOI8): restored, with `-v` naming
/// the encoding; correct Russian, Ukrainian and Belarusian text whose letters are KOI8's leads
/// and continuations (`всё`, `ці`, `сі`, `Пі`) stays as it is, whatever the threads.
#[test]
fn koi8_mojibake_is_undone_and_cyrillic_text_left() {
    let mojibake = "п÷я─п╦п╡п╣я┌, п╪п╦я─!\nп\u{a0}п╦я≈п╡ Б─■ я│я┌п╬п╩п╦я├я▐ пЄп╣я─пІп╟п╡п╦\n";
    for threads in ["1", "3"] {
        let output = program("utf8fix")
            .args(["--mojibake", "-v", "-j", threads])
            .write_stdin(mojibake)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "Привет, мир!\nКиїв — столиця держави\n"
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("line decoded back from koi8-r (9 sequences)"),
            "{stderr}"
        );
        // Є (B4) is KOI8-U's: KOI8-R has a box there.
        assert!(
            stderr.contains("line decoded back from koi8-u (19 sequences)"),
            "{stderr}"
        );
    }
    let clean = "Привет, мир, всё ещё здесь.\nУкраїна: всі ці міста, Південна Пальміра.\n\
                 Беларусь: ці вы ведаеце?\nгра̀фа с подаванията, «Ёлка» № 5 — 100 €\n";
    for threads in ["1", "3"] {
        let output = program("utf8fix")
            .args(["--mojibake", "--check", "-j", threads])
            .write_stdin(clean)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "-j {threads}");
        let output = program("utf8fix")
            .args(["--mojibake", "-j", threads])
            .write_stdin(clean)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&output.stdout), clean);
    }
}

/// UTF-8 shown as GBK, Shift_JIS and EUC-KR (a Chinese, Japanese or Korean Windows console):
/// restored, `-v` naming the encoding, a character whose bytes the reading lost as one U+FFFD;
/// correct Chinese, Japanese and Korean text stays, whatever the threads.
#[test]
fn double_byte_mojibake_is_undone_and_cjk_text_left() {
    // "参数错误，请重试。文件不存在" and "ログアウトしました" as GBK and Shift_JIS show them;
    // "中文字" as GBK, whose last byte was lost; "参数错误" as GBK by a decoder that drops the
    // pair it cannot read.
    let mojibake = "鍙傛暟閿欒\u{E1E4}锛岃\u{E1EC}閲嶈瘯銆傛枃浠朵笉瀛樺湪\n\
                    繝ｭ繧ｰ繧｢繧ｦ繝医＠縺ｾ縺励◆\n涓\u{E15F}枃瀛\u{FFFD}\n鍙傛暟閿欒\n";
    let clean = "参数错误，请重试。文件不存在\n文字化けのテストです。\n안녕하세요, 세계\n\
                 寬度 邊框闊度 兵庫 停止 圜\n";
    for threads in ["1", "3"] {
        let output = program("utf8fix")
            .args(["--mojibake", "-v", "-j", threads])
            .write_stdin(format!("{mojibake}{clean}"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            format!(
                "参数错误，请重试。文件不存在\nログアウトしました\n中文\u{FFFD}\n参数错\u{FFFD}\n{clean}"
            )
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("line decoded back from gbk (14 sequences)"),
            "{stderr}"
        );
        assert!(
            stderr.contains("line decoded back from shift_jis (9 sequences)"),
            "{stderr}"
        );
        assert!(
            stderr.contains("line decoded back from gbk (2 sequences)"),
            "{stderr}"
        );
        assert!(stderr.contains("4 repairs"), "{stderr}");
        let output = program("utf8fix")
            .args(["--mojibake", "--check", "-j", threads])
            .write_stdin(clean)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "-j {threads}");
    }
}

/// CJK text saved in a double-byte encoding and read as windows-1252 or Latin-1 comes back;
/// a line two readings explain alike, Latin text and UTF-8's own mojibake stay as they are.
#[test]
fn cjk_text_read_as_windows_1252_is_undone() {
    // "你好，世界" in GBK read as windows-1252; "ファイルを開く" in Shift_JIS read as Latin-1
    // (its lead 83 is a C1 control); "无法打开文件" in GBK, which EUC-JP also reads as six
    // common kanji, but of characters Chinese text uses; "山川河流", the same but of
    // characters the manual pages seldom use: left.
    let mojibake = "ÄãºÃ£¬ÊÀ½ç\n\u{83}t\u{83}@\u{83}C\u{83}\u{8B}\u{82}ð\u{8A}J\u{82}\u{AD}\n\
                    ÎÞ·¨´ò¿ªÎÄ¼þ\nÉ½´¨ºÓÁ÷\n";
    let clean = "Crème brûlée, «Ça va», Lääne-Virumaa\ncafÃ© au lait\n";
    for threads in ["1", "3"] {
        let output = program("utf8fix")
            .args(["--mojibake", "-v", "-j", threads])
            .write_stdin(format!("{mojibake}{clean}"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "你好，世界\nファイルを開く\n无法打开文件\nÉ½´¨ºÓÁ÷\n\
             Crème brûlée, «Ça va», Lääne-Virumaa\ncafé au lait\n"
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        for said in [
            "offset 0: mojibake c3 84 c3 a3 c2 ba: line decoded back from gbk read as \
             windows-1252 (5 sequences)",
            "line decoded back from shift_jis read as iso-8859-1 (7 sequences)",
            "line decoded back from windows-1252 (1 sequence)",
            "4 repairs",
        ] {
            assert!(stderr.contains(said), "{said}: {stderr}");
        }
    }
}

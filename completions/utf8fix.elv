
use builtin;
use str;

set edit:completion:arg-completer[utf8fix] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'utf8fix'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'utf8fix'= {
            cand -i 'Rewrite each FILE in place; with SUFFIX (-iSUFFIX or --in-place=SUFFIX), keep the original as FILE+SUFFIX'
            cand --in-place 'Rewrite each FILE in place; with SUFFIX (-iSUFFIX or --in-place=SUFFIX), keep the original as FILE+SUFFIX'
            cand --files-from 'Read more paths from FILE (''-'' for standard input), one a line; listed files are treated as a walk treats the files it finds (one that looks binary is skipped)'
            cand --files0-from 'Like --files-from, with each path ended by NUL, as find -print0, git ls-files -z and utf8check -l -0 write them'
            cand --replacement 'Replace each maximal subpart with STR instead of U+FFFD'
            cand --fallback 'Decode each ill-formed byte in this single-byte encoding (windows-1252, iso-8859-1, ...)'
            cand --strip 'Remove what these lints find, and nothing else: invisible, tag, bidi, control, bom, nul, noncharacter, private-use, replacement, non-ascii, or all (comma-separated); with --check, mixed-script words too (kept: nothing to remove)'
            cand -j 'Judge the lines that may hold mojibake on this many threads (default: the number of CPUs). The output is the same for every number'
            cand --threads 'Judge the lines that may hold mojibake on this many threads (default: the number of CPUs). The output is the same for every number'
            cand --from 'With --names, decode each name that is not UTF-8 whole from this encoding (cp437 or cp850 for ZIP archives made on Windows, shift_jis, windows-1252, ...)'
            cand --undo-log 'With --names --apply, record each rename in FILE (which must not exist) before it is made, for --undo'
            cand --undo 'With --names, undo the renames an --undo-log FILE records, last first: shows NEW -> OLD, and renames only with --apply'
            cand --color 'When to colour the -v lines'
            cand --generate 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)'
            cand --follow-symlinks 'With -i, rewrite the file a symbolic link leads to, not the link itself'
            cand --check 'Write nothing: list each input that would change, and exit 1 if any would'
            cand --ignore-missing 'With --files-from or --files0-from, skip a listed file that does not exist, with a note (a list of changed files names deleted ones too)'
            cand -0 'With --check, write a NUL, not a newline, after each path, as its exact bytes (with --names: OLD NUL NEW NUL for each change)'
            cand --null 'With --check, write a NUL, not a newline, after each path, as its exact bytes (with --names: OLD NUL NEW NUL for each change)'
            cand -v 'Report each repair on standard error, with its offset and kind, and a summary per input'
            cand --verbose 'Report each repair on standard error, with its offset and kind, and a summary per input'
            cand --drop 'Delete ill-formed bytes'
            cand --escape 'Write each ill-formed byte as \xhh'
            cand --cesu 'Join CESU-8 surrogate pairs into 4-byte sequences'
            cand --modified 'Java''s Modified UTF-8: --cesu, and C0 80 becomes U+0000'
            cand --strip-bom 'Remove a byte order mark at the start'
            cand --mojibake 'Undo mojibake: UTF-8 that was decoded in a legacy encoding (windows-1250..1254, 1257, ISO-8859-1/-2, MacRoman, IBM437, KOI8-R/-U, IBM866, ISO-8859-5, x-mac-cyrillic; GBK, Shift_JIS, Big5, EUC-KR, EUC-JP) and encoded again, once or several times ("cafÃ©" for "café", "鍙傛暟" for "参数"); CJK text in those double-byte encodings read as windows-1252 ("ÄãºÃ£¬ÊÀ½ç" for "你好，世界"); and Cyrillic code pages read as one another ("рТЙЧЕФ" for "Привет")'
            cand --names 'Rename files whose names are not UTF-8 (with --fallback ENC or --from ENC), mojibake (--mojibake) or not in NFC (--nfc), instead of repairing content: shows OLD -> NEW, and renames only with --apply'
            cand --nfc 'With --names, bring names to Unicode Normalization Form C (macOS writes NFD)'
            cand --apply 'With --names, rename (without it, only show what would change)'
            cand -r 'With --names, walk each directory and rename what it holds too, deepest first'
            cand --recursive 'With --names, walk each directory and rename what it holds too, deepest first'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}

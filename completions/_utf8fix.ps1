
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'utf8fix' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'utf8fix'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'utf8fix' {
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Rewrite each FILE in place; with SUFFIX (-iSUFFIX or --in-place=SUFFIX), keep the original as FILE+SUFFIX')
            [CompletionResult]::new('--in-place', '--in-place', [CompletionResultType]::ParameterName, 'Rewrite each FILE in place; with SUFFIX (-iSUFFIX or --in-place=SUFFIX), keep the original as FILE+SUFFIX')
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read more paths from FILE (''-'' for standard input), one a line; listed files are treated as a walk treats the files it finds (one that looks binary is skipped)')
            [CompletionResult]::new('--files0-from', '--files0-from', [CompletionResultType]::ParameterName, 'Like --files-from, with each path ended by NUL, as find -print0, git ls-files -z and utf8check -l -0 write them')
            [CompletionResult]::new('--replacement', '--replacement', [CompletionResultType]::ParameterName, 'Replace each maximal subpart with STR instead of U+FFFD')
            [CompletionResult]::new('--fallback', '--fallback', [CompletionResultType]::ParameterName, 'Decode each ill-formed byte in this single-byte encoding (windows-1252, iso-8859-1, ...)')
            [CompletionResult]::new('--strip', '--strip', [CompletionResultType]::ParameterName, 'Remove what these lints find, and nothing else: invisible, tag, bidi, control, bom, nul, noncharacter, private-use, replacement, non-ascii, or all (comma-separated); with --check, mixed-script words too (kept: nothing to remove)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Judge the lines that may hold mojibake on this many threads (default: the number of CPUs). The output is the same for every number')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Judge the lines that may hold mojibake on this many threads (default: the number of CPUs). The output is the same for every number')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'With --names, decode each name that is not UTF-8 whole from this encoding (cp437 or cp850 for ZIP archives made on Windows, shift_jis, windows-1252, ...)')
            [CompletionResult]::new('--undo-log', '--undo-log', [CompletionResultType]::ParameterName, 'With --names --apply, record each rename in FILE (which must not exist) before it is made, for --undo')
            [CompletionResult]::new('--undo', '--undo', [CompletionResultType]::ParameterName, 'With --names, undo the renames an --undo-log FILE records, last first: shows NEW -> OLD, and renames only with --apply')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the -v lines')
            [CompletionResult]::new('--generate', '--generate', [CompletionResultType]::ParameterName, 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'With -i, rewrite the file a symbolic link leads to, not the link itself')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Write nothing: list each input that would change, and exit 1 if any would')
            [CompletionResult]::new('--ignore-missing', '--ignore-missing', [CompletionResultType]::ParameterName, 'With --files-from or --files0-from, skip a listed file that does not exist, with a note (a list of changed files names deleted ones too)')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'With --check, write a NUL, not a newline, after each path, as its exact bytes (with --names: OLD NUL NEW NUL for each change)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'With --check, write a NUL, not a newline, after each path, as its exact bytes (with --names: OLD NUL NEW NUL for each change)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Report each repair on standard error, with its offset and kind, and a summary per input')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Report each repair on standard error, with its offset and kind, and a summary per input')
            [CompletionResult]::new('--drop', '--drop', [CompletionResultType]::ParameterName, 'Delete ill-formed bytes')
            [CompletionResult]::new('--escape', '--escape', [CompletionResultType]::ParameterName, 'Write each ill-formed byte as \xhh')
            [CompletionResult]::new('--cesu', '--cesu', [CompletionResultType]::ParameterName, 'Join CESU-8 surrogate pairs into 4-byte sequences')
            [CompletionResult]::new('--modified', '--modified', [CompletionResultType]::ParameterName, 'Java''s Modified UTF-8: --cesu, and C0 80 becomes U+0000')
            [CompletionResult]::new('--strip-bom', '--strip-bom', [CompletionResultType]::ParameterName, 'Remove a byte order mark at the start')
            [CompletionResult]::new('--mojibake', '--mojibake', [CompletionResultType]::ParameterName, 'Undo mojibake: UTF-8 that was decoded in a legacy encoding (windows-1250..1254, 1257, ISO-8859-1/-2, MacRoman, IBM437, KOI8-R/-U, IBM866, ISO-8859-5, x-mac-cyrillic; GBK, Shift_JIS, Big5, EUC-KR, EUC-JP) and encoded again, once or several times ("cafÃ©" for "café", "鍙傛暟" for "参数"); CJK text in those double-byte encodings read as windows-1252 ("ÄãºÃ£¬ÊÀ½ç" for "你好，世界"); and Cyrillic code pages read as one another ("рТЙЧЕФ" for "Привет")')
            [CompletionResult]::new('--names', '--names', [CompletionResultType]::ParameterName, 'Rename files whose names are not UTF-8 (with --fallback ENC or --from ENC), mojibake (--mojibake) or not in NFC (--nfc), instead of repairing content: shows OLD -> NEW, and renames only with --apply')
            [CompletionResult]::new('--nfc', '--nfc', [CompletionResultType]::ParameterName, 'With --names, bring names to Unicode Normalization Form C (macOS writes NFD)')
            [CompletionResult]::new('--apply', '--apply', [CompletionResultType]::ParameterName, 'With --names, rename (without it, only show what would change)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'With --names, walk each directory and rename what it holds too, deepest first')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'With --names, walk each directory and rename what it holds too, deepest first')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

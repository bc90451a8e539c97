
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'utf8check' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'utf8check'
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
        'utf8check' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Stop reading an input after N findings, N at least 1 (its summary then says "complete": false)')
            [CompletionResult]::new('--max-errors', '--max-errors', [CompletionResultType]::ParameterName, 'Stop reading an input after N findings, N at least 1 (its summary then says "complete": false)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Accept ill-formed units other systems write on purpose: surrogates, cesu8 or modified (comma-separated)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also report these well-formed characters: bom, nul, control, noncharacter, bidi, private-use, replacement, invisible, tag, non-ascii, mixed-script, or all (comma-separated); and non-nfc-name for file names that are UTF-8 but not in NFC')
            [CompletionResult]::new('--warn', '--warn', [CompletionResultType]::ParameterName, 'Report these lints as warnings: shown in every format (::warning, SARIF level warning, CodeClimate severity minor) but not errors, so they never make the status 1')
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read more paths from FILE (''-'' for standard input), one a line; listed files are treated as a walk treats the files it finds (one that looks binary is skipped)')
            [CompletionResult]::new('--files0-from', '--files0-from', [CompletionResultType]::ParameterName, 'Like --files-from, with each path ended by NUL, as find -print0, git ls-files -z and utf8check -l -0 write them')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'The name standard input gets in every format (default: `<stdin>` for people, `-` in JSON)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable; matched like .gitignore lines)')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable; matched like .gitignore lines)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Check this many inputs at once (default: the number of CPUs); threads the system refuses (a process limit) are done without, with a note')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Check this many inputs at once (default: the number of CPUs); threads the system refuses (a process limit) are done without, with a note')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--generate', '--generate', [CompletionResultType]::ParameterName, 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing; exit with the status only, stopping at the first finding')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing; exit with the status only, stopping at the first finding')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'No messages on standard error about inputs that cannot be read (grep -s); the status is still 2')
            [CompletionResult]::new('--no-messages', '--no-messages', [CompletionResultType]::ParameterName, 'No messages on standard error about inputs that cannot be read (grep -s); the status is still 2')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Accepted for grep''s habit and ignored: human output always shows line numbers')
            [CompletionResult]::new('--line-number', '--line-number', [CompletionResultType]::ParameterName, 'Accepted for grep''s habit and ignored: human output always shows line numbers')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Accepted for grep''s habit and ignored: findings always name their file')
            [CompletionResult]::new('--with-filename', '--with-filename', [CompletionResultType]::ParameterName, 'Accepted for grep''s habit and ignored: findings always name their file')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Print only the names of inputs with at least one finding')
            [CompletionResult]::new('--files-with-errors', '--files-with-errors', [CompletionResultType]::ParameterName, 'Print only the names of inputs with at least one finding')
            [CompletionResult]::new('--files-without-errors', '--files-without-errors', [CompletionResultType]::ParameterName, 'Print only the names of inputs without any finding')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'grep''s -L and ripgrep''s -L at once: in a walk or a list (-r, --files-from, --files0-from) it is --follow; otherwise it is --files-without-errors')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print only the number of findings of each input')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print only the number of findings of each input')
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'After each input, a line with its size and its number of findings (human format), and a total at the end')
            [CompletionResult]::new('--ignore-missing', '--ignore-missing', [CompletionResultType]::ParameterName, 'With --files-from or --files0-from, skip a listed file that does not exist, with a note (a list of changed files names deleted ones too)')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'Write a NUL, not a newline, after each path that -l or -L prints (and between path and count with -c), as ripgrep and grep -Z do; the path is then written as its exact bytes')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'Write a NUL, not a newline, after each path that -l or -L prints (and between path and count with -c), as ripgrep and grep -Z do; the path is then written as its exact bytes')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Walk directories')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Walk directories')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'With -r, include hidden files and directories')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'With -r, do not skip what .gitignore, .ignore and git''s exclude files name')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Also check files found by a walk or a list that look binary')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links found by a walk or a list (never into /proc, /sys or /dev); -L with -r or a list')
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

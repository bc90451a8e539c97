
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'utf8dump' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'utf8dump'
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
        'utf8dump' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Bytes a row of -x (16), -p (30) or -i (12), as xxd -c; 0 is the default, or one line with -p')
            [CompletionResult]::new('--cols', '--cols', [CompletionResultType]::ParameterName, 'Bytes a row of -x (16), -p (30) or -i (12), as xxd -c; 0 is the default, or one line with -p')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Bytes a group in the -x rows, as xxd -g (0: one group a row); without it, single bytes with a gap every 8, as hexdump -C')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Bytes a group in the -x rows, as xxd -g (0: one group a row); without it, single bytes with a gap every 8, as hexdump -C')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Start at this byte offset (decimal, 0x hex, K/M/G suffixes); -N starts N bytes before the end of a file, as xxd -s -N does')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Start at this byte offset (decimal, 0x hex, K/M/G suffixes); -N starts N bytes before the end of a file, as xxd -s -N does')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most this many bytes (-l as xxd spells it)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Show at most this many bytes (-l as xxd spells it)')
            [CompletionResult]::new('--length', '--length', [CompletionResultType]::ParameterName, 'Show at most this many bytes (-l as xxd spells it)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'With --errors-only, N units before and after each ill-formed unit (at most 100000)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'With --errors-only, N units before and after each ill-formed unit (at most 100000)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--generate', '--generate', [CompletionResultType]::ParameterName, 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, '16 bytes a row with a text panel, as hexdump -C')
            [CompletionResult]::new('--hex', '--hex', [CompletionResultType]::ParameterName, '16 bytes a row with a text panel, as hexdump -C')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'The text itself, with ill-formed bytes as \xhh and invisible characters as \u{...}')
            [CompletionResult]::new('--escape', '--escape', [CompletionResultType]::ParameterName, 'The text itself, with ill-formed bytes as \xhh and invisible characters as \u{...}')
            [CompletionResult]::new('--stats', '--stats', [CompletionResultType]::ParameterName, 'Counts of units by length and kind, lines, the longest line, the share of ASCII')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Plain hex, 30 bytes a line and nothing else, as xxd -p writes it (-r reads it back)')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Plain hex, 30 bytes a line and nothing else, as xxd -p writes it (-r reads it back)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'The bytes as a C array, as xxd -i writes it (a file gets its declaration and length)')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'The bytes as a C array, as xxd -i writes it (a file gets its declaration and length)')
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'Uppercase hex digits for bytes (the unit view, -x, -p, -i), as xxd -u; offsets, JSON and the escapes of -e stay lowercase')
            [CompletionResult]::new('--upper', '--upper', [CompletionResultType]::ParameterName, 'Uppercase hex digits for bytes (the unit view, -x, -p, -i), as xxd -u; offsets, JSON and the escapes of -e stay lowercase')
            [CompletionResult]::new('--names', '--names', [CompletionResultType]::ParameterName, 'Add each character''s Unicode name')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Show each byte in binary, marker bits set apart (1110_0010 10_000010); -b as xxd spells its bits dump')
            [CompletionResult]::new('--bits', '--bits', [CompletionResultType]::ParameterName, 'Show each byte in binary, marker bits set apart (1110_0010 10_000010); -b as xxd spells its bits dump')
            [CompletionResult]::new('--octal', '--octal', [CompletionResultType]::ParameterName, 'Show bytes in octal')
            [CompletionResult]::new('--errors-only', '--errors-only', [CompletionResultType]::ParameterName, 'Show only ill-formed units (with -C, and the units around them)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Read a dump back and write the bytes it shows (any view of its own that shows every byte, xxd''s default, -p and -i; -r -p and -r -i are accepted as xxd spells them)')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Read a dump back and write the bytes it shows (any view of its own that shows every byte, xxd''s default, -p and -i; -r -p and -r -i are accepted as xxd spells them)')
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

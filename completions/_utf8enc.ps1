
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'utf8enc' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'utf8enc'
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
        'utf8enc' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format for code points')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format for code points')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Each character of STRING (which may start with ''-'': -t -x)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Each character of STRING (which may start with ''-'': -t -x)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'A character by its Unicode name ("EURO SIGN")')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Convert input in this encoding to UTF-8 (auto: detect it; auto:ENC: ENC when detection cannot decide)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Convert UTF-8 input to this encoding')
            [CompletionResult]::new('--errors', '--errors', [CompletionResultType]::ParameterName, 'What to do with malformed or unencodable input')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the output to FILE, which is replaced only once the whole output is written and nothing failed (FILE may be an input: `-o notes.txt notes.txt` converts in place)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the output to FILE, which is replaced only once the whole output is written and nothing failed (FILE may be an input: `-o notes.txt notes.txt` converts in place)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--generate', '--generate', [CompletionResultType]::ParameterName, 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Show the bit filling of RFC 3629 for each code point')
            [CompletionResult]::new('--allow-surrogates', '--allow-surrogates', [CompletionResultType]::ParameterName, 'Encode surrogates in their WTF-8 form')
            [CompletionResult]::new('--legacy', '--legacy', [CompletionResultType]::ParameterName, 'Encode surrogates and values up to 0x7FFFFFFF in the forms of RFC 2279')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Read bytes written in a notation and show their units')
            [CompletionResult]::new('--decode', '--decode', [CompletionResultType]::ParameterName, 'Read bytes written in a notation and show their units')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Leave out what the target cannot encode, as iconv -c does: --errors drop')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'List every encoding name: the encoding, the options that take it, its labels')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List every encoding name: the encoding, the options that take it, its labels')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'With --from auto: name the encoding detected, on standard error')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'With --from auto: name the encoding detected, on standard error')
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

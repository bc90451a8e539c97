complete -c utf8enc -s f -l format -d 'Output format for code points' -r -f -a "table\t'The character, code point, and bytes in hex, octal and binary'
hex\t'E2 82 AC'
c\t'\\xe2\\x82\\xac'
rust\t'\\u{20ac}'
python\t'\\u20ac, \\U0001f600'
js\t'\\u20AC, \\uD83D\\uDE00'
java\t'\\u20AC, \\uD83D\\uDE00'
json\t'{"codepoint":8364,"char":"€","utf8":"e282ac"}'
url\t'%E2%82%AC'
html\t'&#x20AC;'
qp\t'=E2=82=AC'
shell\t'ANSI-C quoting for bash and zsh: a dollar sign, then \\xe2\\x82\\xac in single quotes'
octal\t'\\342\\202\\254'
binary\t'11100010 10000010 10101100'
utf16\t'UTF-16 code units: 20AC, D83D DE00'
utf32\t'The UTF-32 code unit: 000020AC'
name\t'The Unicode name'
raw\t'The bytes themselves'"
complete -c utf8enc -s t -l text -d 'Each character of STRING (which may start with \'-\': -t -x)' -r
complete -c utf8enc -l name -d 'A character by its Unicode name ("EURO SIGN")' -r
complete -c utf8enc -l from -d 'Convert input in this encoding to UTF-8' -r
complete -c utf8enc -l to -d 'Convert UTF-8 input to this encoding' -r
complete -c utf8enc -l errors -d 'What to do with malformed or unencodable input' -r -f -a "strict\t'Stop at the first one, name its byte offset, status 1'
replace\t'U+FFFD when decoding, ? when encoding'
html\t'With --to: &#NNNN; for what the target cannot encode'
drop\t'With --to: leave out what the target cannot encode (iconv -c; also -c)'"
complete -c utf8enc -s o -l output -d 'Write the output to FILE, which is replaced only once the whole output is written and nothing failed (FILE may be an input: `-o notes.txt notes.txt` converts in place)' -r -F
complete -c utf8enc -l color -d 'When to colour the output' -r -f -a "auto\t'Colour only when standard output is a terminal, unless `NO_COLOR` is set or `TERM=dumb`'
always\t'Always colour, even into a pipe or a file'
never\t'Never colour'"
complete -c utf8enc -l generate -d 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)' -r -f -a "man\t'The man page, in roff (`man -l -`)'
complete-bash\t'The bash completion script'
complete-zsh\t'The zsh completion script (a file named `_PROGRAM` on `fpath`)'
complete-fish\t'The fish completion script'
complete-elvish\t'The elvish completion script'
complete-powershell\t'The PowerShell completion script'"
complete -c utf8enc -l explain -d 'Show the bit filling of RFC 3629 for each code point'
complete -c utf8enc -l allow-surrogates -d 'Encode surrogates in their WTF-8 form'
complete -c utf8enc -l legacy -d 'Encode surrogates and values up to 0x7FFFFFFF in the forms of RFC 2279'
complete -c utf8enc -s d -l decode -d 'Read bytes written in a notation and show their units'
complete -c utf8enc -s c -d 'Leave out what the target cannot encode, as iconv -c does: --errors drop'
complete -c utf8enc -s l -l list -d 'List every encoding name: the encoding, the options that take it, its labels'
complete -c utf8enc -s v -l verbose -d 'With --from auto: name the encoding detected, on standard error'
complete -c utf8enc -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8enc -s V -l version -d 'Print version'

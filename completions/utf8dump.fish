complete -c utf8dump -s c -l cols -d 'Bytes a row of -x (16), -p (30) or -i (12), as xxd -c; 0 is the default, or one line with -p' -r
complete -c utf8dump -s g -l group -d 'Bytes a group in the -x rows, as xxd -g (0: one group a row); without it, single bytes with a gap every 8, as hexdump -C' -r
complete -c utf8dump -s s -l skip -d 'Start at this byte offset (decimal, 0x hex, K/M/G suffixes); -N starts N bytes before the end of a file, as xxd -s -N does' -r
complete -c utf8dump -s n -s l -l length -d 'Show at most this many bytes (-l as xxd spells it)' -r
complete -c utf8dump -s C -l context -d 'With --errors-only, N units before and after each ill-formed unit (at most 100000)' -r
complete -c utf8dump -l format -d 'Output format' -r -f -a "text\t'Text views'
json\t'One JSON object per unit'"
complete -c utf8dump -l color -d 'When to colour the output' -r -f -a "auto\t'Colour only when standard output is a terminal, unless `NO_COLOR` is set or `TERM=dumb`'
always\t'Always colour, even into a pipe or a file'
never\t'Never colour'"
complete -c utf8dump -l generate -d 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)' -r -f -a "man\t'The man page, in roff (`man -l -`)'
complete-bash\t'The bash completion script'
complete-zsh\t'The zsh completion script (a file named `_PROGRAM` on `fpath`)'
complete-fish\t'The fish completion script'
complete-elvish\t'The elvish completion script'
complete-powershell\t'The PowerShell completion script'"
complete -c utf8dump -s x -l hex -d '16 bytes a row with a text panel, as hexdump -C'
complete -c utf8dump -s e -l escape -d 'The text itself, with ill-formed bytes as \\xhh and invisible characters as \\u{...}'
complete -c utf8dump -l stats -d 'Counts of units by length and kind, lines, the longest line, the share of ASCII'
complete -c utf8dump -s p -l plain -d 'Plain hex, 30 bytes a line and nothing else, as xxd -p writes it (-r reads it back)'
complete -c utf8dump -s i -l include -d 'The bytes as a C array, as xxd -i writes it (a file gets its declaration and length)'
complete -c utf8dump -s u -l upper -d 'Uppercase hex digits for bytes (the unit view, -x, -p, -i), as xxd -u; offsets, JSON and the escapes of -e stay lowercase'
complete -c utf8dump -l names -d 'Add each character\'s Unicode name'
complete -c utf8dump -s b -l bits -d 'Show each byte in binary, marker bits set apart (1110_0010 10_000010); -b as xxd spells its bits dump'
complete -c utf8dump -l octal -d 'Show bytes in octal'
complete -c utf8dump -l errors-only -d 'Show only ill-formed units (with -C, and the units around them)'
complete -c utf8dump -s r -l reverse -d 'Read a dump back and write the bytes it shows (any view of its own that shows every byte, xxd\'s default, -p and -i; -r -p and -r -i are accepted as xxd spells them)'
complete -c utf8dump -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8dump -s V -l version -d 'Print version'

complete -c utf8check -l format -d 'Output format' -r -f -a "human\t'`PATH:LINE:COLUMN: message`, one line per finding'
json\t'JSON Lines: one object per finding, then a summary object per input'
github\t'GitHub Actions workflow commands: `::error file=PATH,line=N,col=N,title=KIND::message`'
sarif\t'One SARIF 2.1.0 log with a rule per kind and a result per finding, written at the end'
codeclimate\t'GitLab\'s Code Quality report (CodeClimate JSON): one array of issues, written at the end'"
complete -c utf8check -s m -l max-errors -d 'Stop reading an input after N findings, N at least 1 (its summary then says "complete": false)' -r
complete -c utf8check -l allow -d 'Accept ill-formed units other systems write on purpose: surrogates, cesu8 or modified (comma-separated)' -r -f -a "(__fish_complete_list , 'printf \"%s\\n\" surrogates cesu8 modified')"
complete -c utf8check -l deny -d 'Also report these well-formed characters: bom, nul, control, noncharacter, bidi, private-use, replacement, invisible, tag, non-ascii, mixed-script, or all (comma-separated); and non-nfc-name for file names that are UTF-8 but not in NFC' -r -f -a "(__fish_complete_list , 'printf \"%s\\n\" bom nul control noncharacter bidi private-use replacement invisible tag non-ascii mixed-script all non-nfc-name')"
complete -c utf8check -l warn -d 'Report these lints as warnings: shown in every format (::warning, SARIF level warning, CodeClimate severity minor) but not errors, so they never make the status 1' -r -f -a "(__fish_complete_list , 'printf \"%s\\n\" bom nul control noncharacter bidi private-use replacement invisible tag non-ascii mixed-script all non-nfc-name')"
complete -c utf8check -l files-from -d 'Read more paths from FILE (\'-\' for standard input), one a line; listed files are treated as a walk treats the files it finds (one that looks binary is skipped)' -r
complete -c utf8check -l files0-from -d 'Like --files-from, with each path ended by NUL, as find -print0, git ls-files -z and utf8check -l -0 write them' -r
complete -c utf8check -l label -d 'The name standard input gets in every format (default: `<stdin>` for people, `-` in JSON)' -r
complete -c utf8check -s g -l glob -d 'With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable; matched like .gitignore lines)' -r
complete -c utf8check -s j -l threads -d 'Check this many inputs at once (default: the number of CPUs); threads the system refuses (a process limit) are done without, with a note' -r
complete -c utf8check -l color -d 'When to colour the output' -r -f -a "auto\t'Colour only when standard output is a terminal, unless `NO_COLOR` is set or `TERM=dumb`'
always\t'Always colour, even into a pipe or a file'
never\t'Never colour'"
complete -c utf8check -l generate -d 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)' -r -f -a "man\t'The man page, in roff (`man -l -`)'
complete-bash\t'The bash completion script'
complete-zsh\t'The zsh completion script (a file named `_PROGRAM` on `fpath`)'
complete-fish\t'The fish completion script'
complete-elvish\t'The elvish completion script'
complete-powershell\t'The PowerShell completion script'"
complete -c utf8check -s q -l quiet -d 'Print nothing; exit with the status only, stopping at the first finding'
complete -c utf8check -s s -l no-messages -d 'No messages on standard error about inputs that cannot be read (grep -s); the status is still 2'
complete -c utf8check -s n -l line-number -d 'Accepted for grep\'s habit and ignored: human output always shows line numbers'
complete -c utf8check -s H -l with-filename -d 'Accepted for grep\'s habit and ignored: findings always name their file'
complete -c utf8check -s l -l files-with-errors -d 'Print only the names of inputs with at least one finding'
complete -c utf8check -l files-without-errors -d 'Print only the names of inputs without any finding'
complete -c utf8check -s L -d 'grep\'s -L and ripgrep\'s -L at once: in a walk or a list (-r, --files-from, --files0-from) it is --follow; otherwise it is --files-without-errors'
complete -c utf8check -s c -l count -d 'Print only the number of findings of each input'
complete -c utf8check -l summary -d 'After each input, a line with its size and its number of findings (human format), and a total at the end'
complete -c utf8check -l ignore-missing -d 'With --files-from or --files0-from, skip a listed file that does not exist, with a note (a list of changed files names deleted ones too)'
complete -c utf8check -s 0 -l null -d 'Write a NUL, not a newline, after each path that -l or -L prints (and between path and count with -c), as ripgrep and grep -Z do; the path is then written as its exact bytes'
complete -c utf8check -s r -l recursive -d 'Walk directories'
complete -c utf8check -l hidden -d 'With -r, include hidden files and directories'
complete -c utf8check -l no-ignore -d 'With -r, do not skip what .gitignore, .ignore and git\'s exclude files name'
complete -c utf8check -l binary -d 'Also check files found by a walk or a list that look binary'
complete -c utf8check -l follow -d 'Follow symbolic links found by a walk or a list (never into /proc, /sys or /dev); -L with -r or a list'
complete -c utf8check -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8check -s V -l version -d 'Print version'

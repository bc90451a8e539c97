complete -c utf8fix -s i -l in-place -d 'Rewrite each FILE in place; with SUFFIX (-iSUFFIX or --in-place=SUFFIX), keep the original as FILE+SUFFIX' -r
complete -c utf8fix -l files-from -d 'Read more paths from FILE (\'-\' for standard input), one a line; listed files are treated as a walk treats the files it finds (one that looks binary is skipped)' -r
complete -c utf8fix -l files0-from -d 'Like --files-from, with each path ended by NUL, as find -print0, git ls-files -z and utf8check -l -0 write them' -r
complete -c utf8fix -l replacement -d 'Replace each maximal subpart with STR instead of U+FFFD' -r
complete -c utf8fix -l fallback -d 'Decode each ill-formed byte in this single-byte encoding (windows-1252, iso-8859-1, ...)' -r
complete -c utf8fix -l strip -d 'Remove what these lints find, and nothing else: invisible, tag, bidi, control, bom, nul, noncharacter, private-use, replacement, non-ascii, or all (comma-separated)' -r -f -a "bom\t''
nul\t''
control\t''
noncharacter\t''
bidi\t''
private-use\t''
replacement\t''
invisible\t''
tag\t''
non-ascii\t''
all\t''"
complete -c utf8fix -l color -d 'When to colour the -v lines' -r -f -a "auto\t'Colour only when standard output is a terminal, unless `NO_COLOR` is set or `TERM=dumb`'
always\t'Always colour, even into a pipe or a file'
never\t'Never colour'"
complete -c utf8fix -l generate -d 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)' -r -f -a "man\t'The man page, in roff (`man -l -`)'
complete-bash\t'The bash completion script'
complete-zsh\t'The zsh completion script (a file named `_PROGRAM` on `fpath`)'
complete-fish\t'The fish completion script'
complete-elvish\t'The elvish completion script'
complete-powershell\t'The PowerShell completion script'"
complete -c utf8fix -l follow-symlinks -d 'With -i, rewrite the file a symbolic link leads to, not the link itself'
complete -c utf8fix -l check -d 'Write nothing: list each input that would change, and exit 1 if any would'
complete -c utf8fix -l ignore-missing -d 'With --files-from or --files0-from, skip a listed file that does not exist, with a note (a list of changed files names deleted ones too)'
complete -c utf8fix -s 0 -l null -d 'With --check, write a NUL, not a newline, after each path, as its exact bytes'
complete -c utf8fix -s v -l verbose -d 'Report each repair on standard error, with its offset and kind, and a summary per input'
complete -c utf8fix -l drop -d 'Delete ill-formed bytes'
complete -c utf8fix -l escape -d 'Write each ill-formed byte as \\xhh'
complete -c utf8fix -l cesu -d 'Join CESU-8 surrogate pairs into 4-byte sequences'
complete -c utf8fix -l modified -d 'Java\'s Modified UTF-8: --cesu, and C0 80 becomes U+0000'
complete -c utf8fix -l strip-bom -d 'Remove a byte order mark at the start'
complete -c utf8fix -l mojibake -d 'Undo mojibake: UTF-8 that was decoded in a legacy encoding (windows-1250..1254, 1257, ISO-8859-1/-2, MacRoman, IBM437) and encoded again, once or several times ("cafÃ©" for "café")'
complete -c utf8fix -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8fix -s V -l version -d 'Print version'

complete -c utf8check -l format -d 'Output format' -r -f -a "human\t'`PATH:LINE:COLUMN: message`, one line per finding'
json\t'JSON Lines: one object per finding, then a summary object per input'
github\t'GitHub Actions workflow commands: `::error file=PATH,line=N,col=N,title=KIND::message`'
sarif\t'One SARIF 2.1.0 log with a rule per kind and a result per finding, written at the end'"
complete -c utf8check -s m -l max-errors -d 'Stop reading an input after N findings (its summary then says "complete": false)' -r
complete -c utf8check -l allow -d 'Accept ill-formed units other systems write on purpose: surrogates, cesu8 or modified (comma-separated)' -r
complete -c utf8check -l deny -d 'Also report these well-formed characters: bom, nul, control, noncharacter, bidi, private-use, replacement, or all (comma-separated)' -r
complete -c utf8check -l files-from -d 'Read the paths to check from FILE (\'-\' for standard input), one a line' -r
complete -c utf8check -s g -l glob -d 'With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable; matched like .gitignore lines)' -r
complete -c utf8check -s j -l threads -d 'Check this many inputs at once (default: the number of CPUs)' -r
complete -c utf8check -l color -d 'When to colour the output' -r -f -a "auto\t'Colour only when standard output is a terminal, unless `NO_COLOR` is set or `TERM=dumb`'
always\t'Always colour, even into a pipe or a file'
never\t'Never colour'"
complete -c utf8check -s q -l quiet -d 'Print nothing; exit with the status only, stopping at the first finding'
complete -c utf8check -s l -l files-with-errors -d 'Print only the names of inputs with at least one finding'
complete -c utf8check -s L -l files-without-errors -d 'Print only the names of inputs without any finding'
complete -c utf8check -s c -l count -d 'Print only the number of findings of each input'
complete -c utf8check -l summary -d 'After each input, a line with its size and its number of findings (human format), and a total at the end'
complete -c utf8check -s 0 -l null -d 'Paths in --files-from end with NUL, as find -print0 and git ls-files -z write them'
complete -c utf8check -s r -l recursive -d 'Walk directories'
complete -c utf8check -l hidden -d 'With -r, include hidden files and directories'
complete -c utf8check -l no-ignore -d 'With -r, do not skip what .gitignore, .ignore and git\'s exclude files name'
complete -c utf8check -l binary -d 'With -r, also check files that look binary'
complete -c utf8check -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8check -s V -l version -d 'Print version'

complete -c utf8check -l format -d 'Output format: one line per finding, or JSON Lines' -r -f -a "human\t'`PATH:LINE:COLUMN: message`, one line per finding'
json\t'JSON Lines: one object per finding, then a summary object per input'"
complete -c utf8check -l color -d 'When to colour the output' -r -f -a "auto\t'Colour only when standard output is a terminal, unless `NO_COLOR` is set or `TERM=dumb`'
always\t'Always colour, even into a pipe or a file'
never\t'Never colour'"
complete -c utf8check -s q -l quiet -d 'Print nothing; exit with the status only, at the first finding'
complete -c utf8check -s h -l help -d 'Print help (see more with \'--help\')'
complete -c utf8check -s V -l version -d 'Print version'

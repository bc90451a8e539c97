
use builtin;
use str;

set edit:completion:arg-completer[utf8check] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'utf8check'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'utf8check'= {
            cand --format 'Output format'
            cand -m 'Stop reading an input after N findings (its summary then says "complete": false)'
            cand --max-errors 'Stop reading an input after N findings (its summary then says "complete": false)'
            cand --allow 'Accept ill-formed units other systems write on purpose: surrogates, cesu8 or modified (comma-separated)'
            cand --deny 'Also report these well-formed characters: bom, nul, control, noncharacter, bidi, private-use, replacement, or all (comma-separated)'
            cand --files-from 'Read the paths to check from FILE (''-'' for standard input), one a line'
            cand -g 'With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable; matched like .gitignore lines)'
            cand --glob 'With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable; matched like .gitignore lines)'
            cand -j 'Check this many inputs at once (default: the number of CPUs)'
            cand --threads 'Check this many inputs at once (default: the number of CPUs)'
            cand --color 'When to colour the output'
            cand -q 'Print nothing; exit with the status only, stopping at the first finding'
            cand --quiet 'Print nothing; exit with the status only, stopping at the first finding'
            cand -l 'Print only the names of inputs with at least one finding'
            cand --files-with-errors 'Print only the names of inputs with at least one finding'
            cand -L 'Print only the names of inputs without any finding'
            cand --files-without-errors 'Print only the names of inputs without any finding'
            cand -c 'Print only the number of findings of each input'
            cand --count 'Print only the number of findings of each input'
            cand --summary 'After each input, a line with its size and its number of findings (human format), and a total at the end'
            cand -0 'Paths in --files-from end with NUL, as find -print0 and git ls-files -z write them'
            cand --null 'Paths in --files-from end with NUL, as find -print0 and git ls-files -z write them'
            cand -r 'Walk directories'
            cand --recursive 'Walk directories'
            cand --hidden 'With -r, include hidden files and directories'
            cand --no-ignore 'With -r, do not skip what .gitignore, .ignore and git''s exclude files name'
            cand --binary 'With -r, also check files that look binary'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}

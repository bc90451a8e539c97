
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
            cand -m 'Stop reading an input after N findings, N at least 1 (its summary then says "complete": false)'
            cand --max-errors 'Stop reading an input after N findings, N at least 1 (its summary then says "complete": false)'
            cand --allow 'Accept ill-formed units other systems write on purpose: surrogates, cesu8 or modified (comma-separated)'
            cand --deny 'Also report these well-formed characters: bom, nul, control, noncharacter, bidi, private-use, replacement, invisible, tag, non-ascii, mixed-script, or all (comma-separated); and non-nfc-name for file names that are UTF-8 but not in NFC'
            cand --warn 'Report these lints as warnings: shown in every format (::warning, SARIF level warning, CodeClimate severity minor) but not errors, so they never make the status 1'
            cand --files-from 'Read more paths from FILE (''-'' for standard input), one a line; listed files are treated as a walk treats the files it finds (one that looks binary is skipped)'
            cand --files0-from 'Like --files-from, with each path ended by NUL, as find -print0, git ls-files -z and utf8check -l -0 write them'
            cand --label 'The name standard input gets in every format (default: `<stdin>` for people, `-` in JSON)'
            cand -g 'With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable; matched like .gitignore lines)'
            cand --glob 'With -r, check only files matching GLOB, or skip those matching !GLOB (repeatable; matched like .gitignore lines)'
            cand -j 'Check this many inputs at once (default: the number of CPUs); threads the system refuses (a process limit) are done without, with a note'
            cand --threads 'Check this many inputs at once (default: the number of CPUs); threads the system refuses (a process limit) are done without, with a note'
            cand --color 'When to colour the output'
            cand --generate 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)'
            cand -q 'Print nothing; exit with the status only, stopping at the first finding'
            cand --quiet 'Print nothing; exit with the status only, stopping at the first finding'
            cand -s 'No messages on standard error about inputs that cannot be read (grep -s); the status is still 2'
            cand --no-messages 'No messages on standard error about inputs that cannot be read (grep -s); the status is still 2'
            cand -n 'Accepted for grep''s habit and ignored: human output always shows line numbers'
            cand --line-number 'Accepted for grep''s habit and ignored: human output always shows line numbers'
            cand -H 'Accepted for grep''s habit and ignored: findings always name their file'
            cand --with-filename 'Accepted for grep''s habit and ignored: findings always name their file'
            cand -l 'Print only the names of inputs with at least one finding'
            cand --files-with-errors 'Print only the names of inputs with at least one finding'
            cand --files-without-errors 'Print only the names of inputs without any finding'
            cand -L 'grep''s -L and ripgrep''s -L at once: in a walk or a list (-r, --files-from, --files0-from) it is --follow; otherwise it is --files-without-errors'
            cand -c 'Print only the number of findings of each input'
            cand --count 'Print only the number of findings of each input'
            cand --summary 'After each input, a line with its size and its number of findings (human format), and a total at the end'
            cand --ignore-missing 'With --files-from or --files0-from, skip a listed file that does not exist, with a note (a list of changed files names deleted ones too)'
            cand -0 'Write a NUL, not a newline, after each path that -l or -L prints (and between path and count with -c), as ripgrep and grep -Z do; the path is then written as its exact bytes'
            cand --null 'Write a NUL, not a newline, after each path that -l or -L prints (and between path and count with -c), as ripgrep and grep -Z do; the path is then written as its exact bytes'
            cand -r 'Walk directories'
            cand --recursive 'Walk directories'
            cand --hidden 'With -r, include hidden files and directories'
            cand --no-ignore 'With -r, do not skip what .gitignore, .ignore and git''s exclude files name'
            cand --binary 'Also check files found by a walk or a list that look binary'
            cand --follow 'Follow symbolic links found by a walk or a list (never into /proc, /sys or /dev); -L with -r or a list'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}

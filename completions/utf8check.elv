
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
            cand --format 'Output format: one line per finding, or JSON Lines'
            cand --color 'When to colour the output'
            cand -q 'Print nothing; exit with the status only, at the first finding'
            cand --quiet 'Print nothing; exit with the status only, at the first finding'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}

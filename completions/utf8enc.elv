
use builtin;
use str;

set edit:completion:arg-completer[utf8enc] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'utf8enc'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'utf8enc'= {
            cand -f 'Output format for code points'
            cand --format 'Output format for code points'
            cand -t 'Each character of STRING (which may start with ''-'': -t -x)'
            cand --text 'Each character of STRING (which may start with ''-'': -t -x)'
            cand --name 'A character by its Unicode name ("EURO SIGN")'
            cand --from 'Convert input in this encoding to UTF-8 (auto: detect it; auto:ENC: ENC when detection cannot decide)'
            cand --to 'Convert UTF-8 input to this encoding'
            cand --errors 'What to do with malformed or unencodable input'
            cand -o 'Write the output to FILE, which is replaced only once the whole output is written and nothing failed (FILE may be an input: `-o notes.txt notes.txt` converts in place)'
            cand --output 'Write the output to FILE, which is replaced only once the whole output is written and nothing failed (FILE may be an input: `-o notes.txt notes.txt` converts in place)'
            cand --color 'When to colour the output'
            cand --generate 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)'
            cand --explain 'Show the bit filling of RFC 3629 for each code point'
            cand --allow-surrogates 'Encode surrogates in their WTF-8 form'
            cand --legacy 'Encode surrogates and values up to 0x7FFFFFFF in the forms of RFC 2279'
            cand -d 'Read bytes written in a notation and show their units'
            cand --decode 'Read bytes written in a notation and show their units'
            cand -c 'Leave out what the target cannot encode, as iconv -c does: --errors drop'
            cand -l 'List every encoding name: the encoding, the options that take it, its labels'
            cand --list 'List every encoding name: the encoding, the options that take it, its labels'
            cand -v 'With --from auto: name the encoding detected, on standard error'
            cand --verbose 'With --from auto: name the encoding detected, on standard error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}

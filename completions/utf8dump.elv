
use builtin;
use str;

set edit:completion:arg-completer[utf8dump] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'utf8dump'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'utf8dump'= {
            cand -c 'Bytes a row of -x (16), -p (30) or -i (12), as xxd -c; 0 is the default, or one line with -p'
            cand --cols 'Bytes a row of -x (16), -p (30) or -i (12), as xxd -c; 0 is the default, or one line with -p'
            cand -g 'Bytes a group in the -x rows, as xxd -g (0: one group a row); without it, single bytes with a gap every 8, as hexdump -C'
            cand --group 'Bytes a group in the -x rows, as xxd -g (0: one group a row); without it, single bytes with a gap every 8, as hexdump -C'
            cand -s 'Start at this byte offset (decimal, 0x hex, K/M/G suffixes); -N starts N bytes before the end of a file, as xxd -s -N does'
            cand --skip 'Start at this byte offset (decimal, 0x hex, K/M/G suffixes); -N starts N bytes before the end of a file, as xxd -s -N does'
            cand -n 'Show at most this many bytes (-l as xxd spells it)'
            cand -l 'Show at most this many bytes (-l as xxd spells it)'
            cand --length 'Show at most this many bytes (-l as xxd spells it)'
            cand -C 'With --errors-only, N units before and after each ill-formed unit (at most 100000)'
            cand --context 'With --errors-only, N units before and after each ill-formed unit (at most 100000)'
            cand --format 'Output format'
            cand --color 'When to colour the output'
            cand --generate 'Print a man page or a shell completion script, and exit (KIND: man, complete-bash, complete-zsh, complete-fish, complete-elvish, complete-powershell)'
            cand -x '16 bytes a row with a text panel, as hexdump -C'
            cand --hex '16 bytes a row with a text panel, as hexdump -C'
            cand -e 'The text itself, with ill-formed bytes as \xhh and invisible characters as \u{...}'
            cand --escape 'The text itself, with ill-formed bytes as \xhh and invisible characters as \u{...}'
            cand --stats 'Counts of units by length and kind, lines, the longest line, the share of ASCII'
            cand -p 'Plain hex, 30 bytes a line and nothing else, as xxd -p writes it (-r reads it back)'
            cand --plain 'Plain hex, 30 bytes a line and nothing else, as xxd -p writes it (-r reads it back)'
            cand -i 'The bytes as a C array, as xxd -i writes it (a file gets its declaration and length)'
            cand --include 'The bytes as a C array, as xxd -i writes it (a file gets its declaration and length)'
            cand -u 'Uppercase hex digits for bytes (the unit view, -x, -p, -i), as xxd -u; offsets, JSON and the escapes of -e stay lowercase'
            cand --upper 'Uppercase hex digits for bytes (the unit view, -x, -p, -i), as xxd -u; offsets, JSON and the escapes of -e stay lowercase'
            cand --names 'Add each character''s Unicode name'
            cand -b 'Show each byte in binary, marker bits set apart (1110_0010 10_000010); -b as xxd spells its bits dump'
            cand --bits 'Show each byte in binary, marker bits set apart (1110_0010 10_000010); -b as xxd spells its bits dump'
            cand --octal 'Show bytes in octal'
            cand --errors-only 'Show only ill-formed units (with -C, and the units around them)'
            cand -r 'Read a dump back and write the bytes it shows (any view of its own that shows every byte, xxd''s default, -p and -i; -r -p and -r -i are accepted as xxd spells them)'
            cand --reverse 'Read a dump back and write the bytes it shows (any view of its own that shows every byte, xxd''s default, -p and -i; -r -p and -r -i are accepted as xxd spells them)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}

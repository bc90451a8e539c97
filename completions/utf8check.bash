_utf8check() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="utf8check"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        utf8check)
            opts="-q -s -n -H -l -L -c -m -0 -r -g -j -h -V --format --quiet --no-messages --line-number --with-filename --files-with-errors --files-without-errors --count --max-errors --summary --allow --deny --warn --files-from --files0-from --ignore-missing --null --label --recursive --glob --hidden --no-ignore --binary --follow --threads --color --generate --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "human json github sarif codeclimate" -- "${cur}"))
                    return 0
                    ;;
                --max-errors)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -m)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow)
                    local prefix=""
                    [[ "${cur}" == *,* ]] && prefix="${cur%,*},"
                    COMPREPLY=($(compgen -P "${prefix}" -W "surrogates cesu8 modified" -- "${cur##*,}"))
                    return 0
                    ;;
                --deny)
                    local prefix=""
                    [[ "${cur}" == *,* ]] && prefix="${cur%,*},"
                    COMPREPLY=($(compgen -P "${prefix}" -W "bom nul control noncharacter bidi private-use replacement invisible tag non-ascii mixed-script all non-nfc-name" -- "${cur##*,}"))
                    return 0
                    ;;
                --warn)
                    local prefix=""
                    [[ "${cur}" == *,* ]] && prefix="${cur%,*},"
                    COMPREPLY=($(compgen -P "${prefix}" -W "bom nul control noncharacter bidi private-use replacement invisible tag non-ascii mixed-script all non-nfc-name" -- "${cur##*,}"))
                    return 0
                    ;;
                --files-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --files0-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --generate)
                    COMPREPLY=($(compgen -W "man complete-bash complete-zsh complete-fish complete-elvish complete-powershell" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _utf8check -o nosort -o bashdefault -o default utf8check
else
    complete -F _utf8check -o bashdefault -o default utf8check
fi

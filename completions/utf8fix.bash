_utf8fix() {
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
                cmd="utf8fix"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        utf8fix)
            opts="-i -0 -v -j -r -h -V --in-place --follow-symlinks --check --files-from --files0-from --ignore-missing --null --verbose --replacement --drop --escape --fallback --cesu --modified --strip-bom --strip --mojibake --threads --names --from --nfc --apply --recursive --undo-log --undo --color --generate --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --in-place)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
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
                --replacement)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fallback)
                    COMPREPLY=($(compgen -W "ibm437 cp437 437 cspc8codepage437 ibm850 cp850 850 cspc850multilingual ibm855 cp855 855 csibm855 iso-8859-1 latin1 latin-1 iso_8859-1 iso8859-1 l1 iso88591 cp819 ibm819 csisolatin1 iso-ir-100 iso_8859-1:1987 windows-1252 cp1252 x-cp1252 windows-1250 cp1250 x-cp1250 windows-1251 cp1251 x-cp1251 windows-1253 cp1253 x-cp1253 windows-1254 cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 x-cp1254 windows-1255 cp1255 x-cp1255 windows-1256 cp1256 x-cp1256 windows-1257 cp1257 x-cp1257 windows-1258 cp1258 x-cp1258 windows-874 dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 iso-8859-2 csisolatin2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2 iso-8859-3 csisolatin3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3 iso-8859-4 csisolatin4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4 iso-8859-5 csisolatincyrillic cyrillic iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988 iso-8859-6 arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987 iso-8859-7 csisolatingreek ecma-118 elot_928 greek greek8 iso-ir-126 iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek iso-8859-8 csiso88598e csisolatinhebrew hebrew iso-8859-8-e iso-ir-138 iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual iso-8859-8-i csiso88598i logical iso-8859-10 csisolatin6 iso-ir-157 iso8859-10 iso885910 l6 latin6 iso-8859-13 iso8859-13 iso885913 iso-8859-14 iso8859-14 iso885914 iso-8859-15 csisolatin9 iso8859-15 iso885915 iso_8859-15 l9 iso-8859-16 koi8-r cskoi8r koi koi8 koi8_r koi8-u koi8-ru ibm866 866 cp866 csibm866 macintosh csmacintosh mac x-mac-roman x-mac-cyrillic x-mac-ukrainian x-user-defined" -- "${cur}"))
                    return 0
                    ;;
                --strip)
                    local prefix=""
                    [[ "${cur}" == *,* ]] && prefix="${cur%,*},"
                    COMPREPLY=($(compgen -P "${prefix}" -W "bom nul control noncharacter bidi private-use replacement invisible tag non-ascii mixed-script all" -- "${cur##*,}"))
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
                --from)
                    COMPREPLY=($(compgen -W "ibm437 cp437 437 cspc8codepage437 ibm850 cp850 850 cspc850multilingual ibm855 cp855 855 csibm855 iso-8859-1 latin1 latin-1 iso_8859-1 iso8859-1 l1 iso88591 cp819 ibm819 csisolatin1 iso-ir-100 iso_8859-1:1987 windows-1252 cp1252 x-cp1252 windows-1250 cp1250 x-cp1250 windows-1251 cp1251 x-cp1251 windows-1253 cp1253 x-cp1253 windows-1254 cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 x-cp1254 windows-1255 cp1255 x-cp1255 windows-1256 cp1256 x-cp1256 windows-1257 cp1257 x-cp1257 windows-1258 cp1258 x-cp1258 windows-874 dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 iso-8859-2 csisolatin2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2 iso-8859-3 csisolatin3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3 iso-8859-4 csisolatin4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4 iso-8859-5 csisolatincyrillic cyrillic iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988 iso-8859-6 arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987 iso-8859-7 csisolatingreek ecma-118 elot_928 greek greek8 iso-ir-126 iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek iso-8859-8 csiso88598e csisolatinhebrew hebrew iso-8859-8-e iso-ir-138 iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual iso-8859-8-i csiso88598i logical iso-8859-10 csisolatin6 iso-ir-157 iso8859-10 iso885910 l6 latin6 iso-8859-13 iso8859-13 iso885913 iso-8859-14 iso8859-14 iso885914 iso-8859-15 csisolatin9 iso8859-15 iso885915 iso_8859-15 l9 iso-8859-16 koi8-r cskoi8r koi koi8 koi8_r koi8-u koi8-ru ibm866 866 cp866 csibm866 macintosh csmacintosh mac x-mac-roman x-mac-cyrillic x-mac-ukrainian x-user-defined gbk chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 iso-ir-58 x-gbk cp936 gb18030 big5 big5-hkscs cn-big5 csbig5 x-x-big5 cp950 euc-jp cseucpkdfmtjapanese x-euc-jp eucjp shift_jis csshiftjis ms932 ms_kanji shift-jis sjis windows-31j x-sjis cp932 euc-kr cseuckr csksc56011987 iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 windows-949 euckr cp949" -- "${cur}"))
                    return 0
                    ;;
                --undo-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --undo)
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
    complete -F _utf8fix -o nosort -o bashdefault -o default utf8fix
else
    complete -F _utf8fix -o bashdefault -o default utf8fix
fi

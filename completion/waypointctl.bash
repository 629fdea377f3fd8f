# bash completion for waypointctl(1): commands, their options and words, pattern names, and
# the names of places and recent destinations when the daemon answers. The commands, their
# options and their words come from waypointctl itself (--completions reads its own tables), so
# they cannot fall behind it; what is here is only how each kind of argument completes.

_waypointctl_names() {
    # $1: "places", or "all" for places and then recent destinations, each name once; the rest
    # are --socket PATH. "Bakery, 48°51'21.6"N …" and "1: Eiffel Tower, 48°…": the name is
    # before the last ", <digit>"; lines of a bare position have none.
    local kind=$1 line name
    shift
    local -A seen=()
    while IFS= read -r line; do
        line=${line#[0-9]: }
        line=${line#[0-9][0-9]: }
        name=${line%, [0-9]*}
        [[ $name != "$line" && -n $name && -z ${seen[$name]} ]] || continue
        seen[$name]=1
        printf '%s\n' "$name"
    done < <(waypointctl "$@" place list 2>/dev/null; [[ $kind == all ]] && waypointctl "$@" recent 2>/dev/null)
}

_waypointctl() {
    local cur prev command i line socket=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --socket) socket=(--socket "${COMP_WORDS[i+1]}"); ((i++)) ;;
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [[ -z $command ]]; then
        if [[ $prev == --socket ]]; then COMPREPLY=($(compgen -f -- "$cur")); return; fi
        COMPREPLY=($(compgen -W "$(waypointctl --completions 2>/dev/null) --socket --help --version" -- "$cur"))
        return
    fi
    local words=${COMP_WORDS[*]:i+1:COMP_CWORD-i-1}
    # The command's first words, then its options; "--name VALUE" takes a value.
    local -a firsts=() options=() valued=()
    while IFS= read -r line; do
        case $line in
            *" VALUE") options+=("${line% VALUE}"); valued+=("${line% VALUE}") ;;
            -*) options+=("$line") ;;
            *) firsts+=("$line") ;;
        esac
    done < <(waypointctl --completions "$command" 2>/dev/null)
    if [[ " ${valued[*]} " == *" $prev "* ]]; then
        case $prev in
            --socket|--batch) COMPREPLY=($(compgen -f -- "$cur")) ;;
            --place)
                local IFS=$'\n'
                COMPREPLY=($(compgen -W "$(_waypointctl_names all "${socket[@]}")" -- "$cur")) ;;
        esac
        return
    fi
    if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "${options[*]}" -- "$cur")); return; fi
    case $command in
        go)
            # A place's name, or the start of the forms a place's text takes (see PLACES in
            # waypointctl(1): coordinates, geo:, a map link, a plus code).
            local IFS=$'\n'
            COMPREPLY=($(compgen -W "$(_waypointctl_names all "${socket[@]}")"$'\ngeo:\nhttps://' -- "$cur")) ;;
        locate) COMPREPLY=($(compgen -W "geo: https://" -- "$cur")) ;;
        route)
            if [[ $words == load* ]]; then COMPREPLY=($(compgen -f -X '!*.[gG][pP][xX]' -- "$cur") $(compgen -d -- "$cur"))
            elif [[ -z $words ]]; then COMPREPLY=($(compgen -W "${firsts[*]}" -- "$cur")); fi ;;
        place)
            case $words in
                "") COMPREPLY=($(compgen -W "${firsts[*]}" -- "$cur")) ;;
                rename*|remove*)
                    local IFS=$'\n'
                    COMPREPLY=($(compgen -W "$(_waypointctl_names places "${socket[@]}")" -- "$cur")) ;;
            esac ;;
        help) COMPREPLY=($(compgen -W "$(waypointctl --completions 2>/dev/null)" -- "$cur")) ;;
        *) [[ -z $words ]] && COMPREPLY=($(compgen -W "${firsts[*]} ${options[*]}" -- "$cur")) ;;
    esac
}
complete -F _waypointctl waypointctl

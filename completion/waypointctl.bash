# bash completion for waypointctl(1): commands, their options and words, pattern names, and
# the names of places and recent destinations when the daemon answers.

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
    local cur prev command i socket=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --socket) socket=(--socket "${COMP_WORDS[i+1]}"); ((i++)) ;;
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    local commands="go clear status watch recent place route back track mute buzz calibrate search where locate bearing declination help"
    if [[ -z $command ]]; then
        if [[ $prev == --socket ]]; then COMPREPLY=($(compgen -f -- "$cur")); return; fi
        COMPREPLY=($(compgen -W "$commands --socket --help --version" -- "$cur"))
        return
    fi
    local words=${COMP_WORDS[*]:i+1:COMP_CWORD-i-1}
    case $prev in
        --socket|--batch) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --place)
            local IFS=$'\n'
            COMPREPLY=($(compgen -W "$(_waypointctl_names all "${socket[@]}")" -- "$cur"))
            return ;;
        --name|--recent|--radius|--seconds|--minutes|--since|--until|--hz|--date|--year|--height-km|--near|--limit|--at) return ;;
    esac
    case $command in
        go)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--name --recent --place --near --force --socket --help" -- "$cur"))
            else
                # A place's name, or the start of the forms a place's text takes (see PLACES in
                # waypointctl(1): coordinates, geo:, a map link, a plus code).
                local IFS=$'\n'
                COMPREPLY=($(compgen -W "$(_waypointctl_names all "${socket[@]}")"$'\ngeo:\nhttps://' -- "$cur"))
            fi ;;
        search) [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--near --limit --json --socket --help" -- "$cur")) ;;
        where) COMPREPLY=($(compgen -W "--at --json --socket --help" -- "$cur")) ;;
        locate)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--near --json --socket --help" -- "$cur"))
            else COMPREPLY=($(compgen -W "geo: https://" -- "$cur")); fi ;;
        status) COMPREPLY=($(compgen -W "--json --socket --help" -- "$cur")) ;;
        watch) COMPREPLY=($(compgen -W "--hz --plain --socket --help" -- "$cur")) ;;
        mute) COMPREPLY=($(compgen -W "on off --socket --help" -- "$cur")) ;;
        buzz)
            COMPREPLY=($(compgen -W "accepted arrived waypoint-reached gps-lost heading-unreliable calibrated test --socket --help" -- "$cur")) ;;
        calibrate) COMPREPLY=($(compgen -W "start finish cancel status reset --socket --help" -- "$cur")) ;;
        route)
            if [[ $words == load* ]]; then
                if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--name --socket" -- "$cur"))
                else COMPREPLY=($(compgen -f -X '!*.[gG][pP][xX]' -- "$cur") $(compgen -d -- "$cur")); fi
            else
                COMPREPLY=($(compgen -W "show load next previous reverse clear --socket --help" -- "$cur"))
            fi ;;
        place)
            case $words in
                "") COMPREPLY=($(compgen -W "list add mark rename remove --socket --help" -- "$cur")) ;;
                rename*|remove*)
                    local IFS=$'\n'
                    COMPREPLY=($(compgen -W "$(_waypointctl_names places "${socket[@]}")" -- "$cur")) ;;
                add*) COMPREPLY=($(compgen -W "--near --radius --replace --socket" -- "$cur")) ;;
                *) COMPREPLY=($(compgen -W "--radius --seconds --replace --socket" -- "$cur")) ;;
            esac ;;
        track)
            if [[ -z $words ]]; then COMPREPLY=($(compgen -W "export clear --socket --help" -- "$cur"))
            else COMPREPLY=($(compgen -W "--since --until --socket" -- "$cur")); fi ;;
        back) COMPREPLY=($(compgen -W "--minutes --socket --help" -- "$cur")) ;;
        recent)
            if [[ -z $words ]]; then COMPREPLY=($(compgen -W "remove --socket --help" -- "$cur")); fi ;;
        clear) COMPREPLY=($(compgen -W "--socket --help" -- "$cur")) ;;
        bearing) COMPREPLY=($(compgen -W "--near --batch --help" -- "$cur")) ;;
        declination) COMPREPLY=($(compgen -W "--date --year --height-km --near --batch --help" -- "$cur")) ;;
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
    esac
}
complete -F _waypointctl waypointctl

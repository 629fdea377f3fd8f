# bash completion for waypoint-web(8): its commands and their options, and for `revoke` the ids
# of the sessions, when the state directory can be read (as the service's user or root).

_waypoint_web_ids() {
    # $@: --state-dir DIR or nothing. `sessions --json` is an array of objects, each with an
    # "id" string; ids are letters, digits, '-' and '_', so a match on the text is enough.
    waypoint-web sessions "$@" --json 2>/dev/null |
        grep -o '"id" *: *"[A-Za-z0-9_-]*"' | sed 's/.*"\([A-Za-z0-9_-]*\)"$/\1/'
}

_waypoint_web() {
    local cur prev command i state=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --state-dir) state=(--state-dir "${COMP_WORDS[i+1]}"); ((i++)) ;;
            --config|--listen|--socket|--page-dir|--name) ((i++)) ;;
            pair|token|sessions|revoke) [[ -z $command ]] && command=${COMP_WORDS[i]} ;;
        esac
    done
    case $prev in
        --config|--socket) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --state-dir|--page-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        # HOST:PORT and a name of the user's choosing: nothing to offer.
        --listen|--name) return ;;
    esac
    case $command in
        "") COMPREPLY=($(compgen -W "pair token sessions revoke --config --listen --socket --state-dir --page-dir --version --help" -- "$cur")) ;;
        pair) COMPREPLY=($(compgen -W "--listen --state-dir --config --json --help" -- "$cur")) ;;
        token) COMPREPLY=($(compgen -W "--name --state-dir --json --help" -- "$cur")) ;;
        sessions) COMPREPLY=($(compgen -W "--state-dir --json --help" -- "$cur")) ;;
        revoke)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--state-dir --help" -- "$cur"))
            else COMPREPLY=($(compgen -W "$(_waypoint_web_ids "${state[@]}")" -- "$cur")); fi ;;
    esac
}
complete -F _waypoint_web waypoint-web

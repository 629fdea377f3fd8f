# bash completion for waypointd(8): its commands and their options.

_waypointd() {
    local cur prev command i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            check|gps|replay|map|motor-test|motor-off) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    case $prev in
        --config|--record|--simulate-events|--socket|--state-dir|--sysfs-root|--dev-dir) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --log-level) COMPREPLY=($(compgen -W "trace debug info notice warning error critical" -- "$cur")); return ;;
        --pattern) COMPREPLY=($(compgen -W "accepted arrived waypoint-reached gps-lost heading-unreliable calibrated test" -- "$cur")); return ;;
    esac
    local motor="--config --pwm-chip --pwm-channel --sysfs-root --help"
    case $command in
        "") COMPREPLY=($(compgen -W "check gps replay map motor-test motor-off --config --simulate --simulate-events --simulate-speed --socket --state-dir --sysfs-root --record --log-level --print-config --version --help" -- "$cur")) ;;
        check) COMPREPLY=($(compgen -W "--config --state-dir --sysfs-root --dev-dir --gps-timeout --help" -- "$cur")) ;;
        gps) COMPREPLY=($(compgen -W "--server --count --help" -- "$cur")) ;;
        replay) COMPREPLY=($(compgen -W "--config --help" -- "$cur") $(compgen -f -- "$cur")) ;;
        map)
            # import FILE.osm.pbf (the extract), info; then --state-dir.
            if [[ ${COMP_WORDS[COMP_CWORD-1]} == map ]]; then COMPREPLY=($(compgen -W "import info --help" -- "$cur"))
            elif [[ ${COMP_WORDS[COMP_CWORD-1]} == import ]]; then COMPREPLY=($(compgen -f -X '!*.osm.pbf' -- "$cur") $(compgen -d -- "$cur"))
            else COMPREPLY=($(compgen -W "--state-dir" -- "$cur")); fi ;;
        motor-test) COMPREPLY=($(compgen -W "--pattern --repeat $motor" -- "$cur")) ;;
        motor-off) COMPREPLY=($(compgen -W "--force --socket $motor" -- "$cur")) ;;
    esac
}
complete -F _waypointd waypointd

# shellcheck shell=bash
# Progress for the long scripts (scripts/test, scripts/bench), sourced by them: one line at the
# bottom of the terminal saying what runs and for how long, redrawn every second while the
# work's own output scrolls above it (the bottom row is kept out of the scrolling region, as
# apt does). Only when standard error is a terminal: with it redirected (CI, a pipe, a file)
# every function here does nothing, so no log ever holds a progress line.
#
#   progress_begin TITLE   take the bottom row, e.g. progress_begin "scripts/test"
#   progress TEXT          what runs now, e.g. progress "step 5 of 19: powercut"; the line says
#                          "scripts/test  step 5 of 19: powercut  1m12s  (total 23m10s)"
#   progress_end           give the row back (from the script's EXIT trap; should the script
#                          end without it, the line's loop gives the row back within a second)
#
# Nothing forks per update: the line is drawn by builtins (printf, read -t as the sleep) in one
# background subshell that reads the text from a file the script writes with printf. A script
# started by another that already shows progress (scripts/bench check under scripts/test)
# does not take a row of its own: its `progress` text is shown on its parent's line, after the
# parent's.

PROGRESS_PID=""
PROGRESS_DIR=""

# progress_draw TEXT: the bottom row, TEXT cut to the width (it is ASCII), cursor left in place.
progress_draw() {
    local width=$((${COLUMNS:-80} - 1))
    printf '\0337\033[%d;1H\033[2K%s\0338' "${LINES:-24}" "${1:0:width}" >&2
}

# progress_time VARIABLE SECONDS: sets VARIABLE to e.g. 1m23s for 83 (printf -v: no subshell).
progress_time() {
    if (($2 >= 60)); then printf -v "$1" '%dm%02ds' $(($2 / 60)) $(($2 % 60)); else printf -v "$1" '%ds' "$2"; fi
}

progress_begin() {
    [[ -t 2 && -z $PROGRESS_PID && ${TERM:-dumb} != dumb ]] || return 0
    if [[ -n ${TRACKD_PROGRESS_DETAIL:-} && -f $TRACKD_PROGRESS_DETAIL ]]; then
        return 0
    fi
    # Bash learns the terminal's size from standard error after an external command.
    shopt -s checkwinsize
    /bin/true
    ((${LINES:-0} >= 3)) || return 0
    PROGRESS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/trackd-progress.XXXXXX")
    local title=$1 begun=$EPOCHSECONDS
    printf '%s\t%s\n' "$begun" "" >"$PROGRESS_DIR/text"
    : >"$PROGRESS_DIR/detail"
    mkfifo "$PROGRESS_DIR/tick"
    export TRACKD_PROGRESS_DETAIL=$PROGRESS_DIR/detail
    # A new line first, so the cursor is not on the row about to leave the scrolling region.
    printf '\n\0337\033[1;%dr\0338\033[1A' $((LINES - 1)) >&2
    local parent=$$
    (
        trap 'exit 0' TERM
        # Ctrl-C stops the script; this loop outlives it just long enough to give the row back.
        trap '' INT
        # A resize resets the scrolling region: learn the new size (one fork per resize) and
        # set it again.
        trap '/bin/true; printf "\0337\033[1;%dr\0338" $((LINES - 1)) >&2' WINCH
        exec {tick}<>"$PROGRESS_DIR/tick"
        local since text detail now step total
        while kill -0 "$parent" 2>/dev/null; do
            IFS=$'\t' read -r since text <"$PROGRESS_DIR/text" || true
            IFS= read -r detail <"$PROGRESS_DIR/detail" || detail=""
            now=$EPOCHSECONDS
            progress_time step $((now - since))
            progress_time total $((now - begun))
            progress_draw "$title  $text${detail:+  $detail}  $step  (total $total)"
            # The sleep: a read that times out on a pipe nobody writes to (the subshell's own
            # descriptor, so no program the script starts inherits it).
            read -r -t 1 -u "$tick" _ || true
        done
        # The script ended without progress_end (an EXIT trap of its own, a signal).
        progress_reset
        rm -rf "$PROGRESS_DIR"
    ) &
    PROGRESS_PID=$!
}

# progress_reset: the whole screen scrolls again; the progress row is cleared.
progress_reset() {
    printf '\0337\033[r\0338\0337\033[%d;1H\033[2K\0338' "${LINES:-24}" >&2
}

progress() {
    if [[ -n $PROGRESS_PID ]]; then
        printf '%s\t%s\n' "$EPOCHSECONDS" "$1" >"$PROGRESS_DIR/text"
        : >"$PROGRESS_DIR/detail"
    elif [[ -n ${TRACKD_PROGRESS_DETAIL:-} && -f $TRACKD_PROGRESS_DETAIL ]]; then
        printf '%s\n' "$1" >"$TRACKD_PROGRESS_DETAIL"
    fi
}

progress_end() {
    [[ -n $PROGRESS_PID ]] || return 0
    kill "$PROGRESS_PID" 2>/dev/null || true
    wait "$PROGRESS_PID" 2>/dev/null || true
    PROGRESS_PID=""
    progress_reset
    rm -rf "$PROGRESS_DIR"
    unset TRACKD_PROGRESS_DETAIL
}

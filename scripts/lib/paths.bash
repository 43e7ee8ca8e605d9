# shellcheck shell=bash
# Paths in the scripts' messages as the person who ran them can use them: relative to the
# directory they ran the script from, not the machine's absolute paths. The scripts change to
# the repository first, so each notes where it was started before it does, and passes that on
# to the scripts it runs (scripts/test's steps speak from where scripts/test was started):
#
#   export TRACKD_CALLER_DIR=${TRACKD_CALLER_DIR:-$PWD}    # before the script's `cd`
#   source scripts/lib/paths.bash                          # after it
#   say "skipped: $(shown_paths "$CAPTURE") is absent"     # e.g. "../shared/data/…/x.log"
#
# Paths under the repository's parent (the repository itself, ../shared beside it) become
# relative; others (a work directory in /tmp) stay as they are, which is how one would type them.

paths_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
paths_caller=${TRACKD_CALLER_DIR:-$PWD}
# How the person reaches the repository and its parent from where they stand, e.g. "" and
# "../" in the repository itself, "../" and "../../" from its scripts/ folder.
paths_root_prefix=$(realpath -ms --relative-to="$paths_caller" "$paths_root")/
paths_parent_prefix=$(realpath -ms --relative-to="$paths_caller" "${paths_root%/*}")/
[[ $paths_root_prefix != ./ ]] || paths_root_prefix=""
[[ $paths_parent_prefix != ./ ]] || paths_parent_prefix=""

# shown_paths TEXT: TEXT with the repository's absolute path and its parent's made relative
# to where the script was started, e.g. "/home/ana/trackd/../shared/data/x.log is absent" →
# "../shared/data/x.log is absent" when started in /home/ana/trackd.
shown_paths() {
    local text=$1 root_word=${paths_root_prefix%/} parent=${paths_root%/*}
    # A path that climbs out of the repository and back in, e.g. ROOT/../shared, first.
    text=${text//"$paths_root/../"/"$paths_parent_prefix"}
    text=${text//"$paths_root/"/"$paths_root_prefix"}
    # The repository itself, as a word ("in ROOT", "ROOT:"), not the start of a longer name.
    local end
    for end in " " "," ";" ":" ")" "'" '"'; do text=${text//"$paths_root$end"/"${root_word:-.}$end"}; done
    [[ $text != *"$paths_root" ]] || text=${text%"$paths_root"}${root_word:-.}
    # The parent's other folders; never "/" itself (a repository at the top of the tree).
    [[ -z $parent ]] || text=${text//"$parent/"/"$paths_parent_prefix"}
    printf '%s\n' "$text"
}

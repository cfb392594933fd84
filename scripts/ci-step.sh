# Sourced by .ci/run: `ci_step NAME COMMAND...` runs one step of CI, prints its name before and
# its wall time and CPU time (user + sys of every process it ran) after, and appends them to
# $SCANLAB_CI_TIMES (tab-separated: name, wall s, CPU s, exit status) for scripts/ci-times.py,
# which prints the table at the end. A step that grows shows up there, and a CPU time much above
# the wall time says that the step keeps both cores busy.
: "${SCANLAB_CI_TIMES:=/tmp/scanlab-ci-times.tsv}"
export SCANLAB_CI_TIMES

# Sets _ci_cpu to the user + sys seconds of this shell's finished children (bash's `times`, its
# second line). Called as is, never in $(...) or a pipe: there `times` would run in a fresh
# subshell, which has no finished children yet; so its output goes through a file.
_ci_children_cpu() {
    local file
    file=$(mktemp)
    times >"$file"
    read -r _ci_cpu < <(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
                                       printf "%.1f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' \
        "$file")
    rm -f "$file"
}

ci_step() {
    local name=$1
    shift
    echo "=== $name"
    local wall0=$SECONDS cpu0 cpu1 status=0
    _ci_children_cpu
    cpu0=$_ci_cpu
    "$@" || status=$?
    _ci_children_cpu
    cpu1=$_ci_cpu
    local wall=$((SECONDS - wall0))
    local cpu
    cpu=$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.0f\n", b - a }')
    printf '%s\t%s\t%s\t%s\n' "$name" "$wall" "$cpu" "$status" >>"$SCANLAB_CI_TIMES"
    echo "=== $name: ${wall} s wall, ${cpu} s CPU, exit status $status"
    return "$status"
}

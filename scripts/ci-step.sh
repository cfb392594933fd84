# Sourced by .ci/run: `ci_step NAME COMMAND...` runs one step of CI, prints its name before and
# its wall time and CPU time (user + sys of every process it ran) after, and appends them to
# $SCANLAB_CI_TIMES (tab-separated: name, wall s, CPU s, exit status) for scripts/ci-times.py,
# which prints the table at the end. A step that grows shows up there, and a CPU time much above
# the wall time says that the step keeps both cores busy.
: "${SCANLAB_CI_TIMES:=/tmp/scanlab-ci-times.tsv}"
export SCANLAB_CI_TIMES

ci_step() {
    local name=$1
    shift
    echo "=== $name"
    local wall0=$SECONDS status=0 times_file cpu
    times_file=$(mktemp)
    # The step runs in a subshell of its own, whose `times` counts exactly its processes (in
    # CI's own shell it would also count a job in the background that ended meanwhile).
    (
        set +e
        "$@"
        code=$?
        times >"$times_file"
        exit "$code"
    ) || status=$?
    cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
                         printf "%.0f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
    rm -f "$times_file"
    local wall=$((SECONDS - wall0))
    printf '%s\t%s\t%s\t%s\n' "$name" "$wall" "${cpu:-0}" "$status" >>"$SCANLAB_CI_TIMES"
    echo "=== $name: ${wall} s wall, ${cpu:-0} s CPU, exit status $status"
    return "$status"
}

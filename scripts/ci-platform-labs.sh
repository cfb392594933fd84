# Sourced by scripts/ci-clang.sh and scripts/ci-arm64.sh: sets `platform_labs` (an array of lab
# numbers), the labs whose solution tests a platform job builds and runs, and
# `platform_lab_tests`, their ctest names as a regular expression.
#
# What a platform difference can break is the emulator (its fiber switch, signals, guard pages,
# the rewriter's output through another compiler), not a lab's scan logic, which the g++ job
# tests on every lab. So by default the platform jobs take two labs: 01, the first a student runs
# (shared memory, __syncthreads, the graded tests' main), and 07, whose solution uses every
# device feature the later labs' solutions use (warp shuffles up, down and indexed, __ballot_sync,
# __syncwarp, __threadfence, atomicAdd, volatile polling between blocks, __ldcs, many blocks).
# SCANLAB_PLATFORM_LABS overrides: lab numbers separated by spaces, or `all` for every lab of
# the list (labs/CMakeLists.txt, through scripts/lab-numbers.sh).
platform_labs=()
case "${SCANLAB_PLATFORM_LABS:-01 07}" in
all) mapfile -t platform_labs < <("$(dirname "${BASH_SOURCE[0]}")/lab-numbers.sh") ;;
*)
    known=" $("$(dirname "${BASH_SOURCE[0]}")/lab-numbers.sh" | paste -sd ' ') "
    for lab in ${SCANLAB_PLATFORM_LABS:-01 07}; do
        if [[ ! $lab =~ ^[0-9][0-9]$ || $known != *" $lab "* ]]; then
            echo "SCANLAB_PLATFORM_LABS: '$lab' is not a lab of the list (labs:$known; or 'all')" >&2
            exit 2
        fi
        platform_labs+=("$lab")
    done
    ;;
esac
# Their solution tests' ctest names, as one regular expression for `ctest -R`.
platform_lab_tests="lab($(IFS='|'; echo "${platform_labs[*]}"))\\.solution\\.simt"

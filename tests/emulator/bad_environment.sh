#!/bin/sh
# A bad SIMT_* value ends an emulated program before it runs anything, with exit status 2 and a
# message that names the variable, as a bad --simt- flag does (common/simt/src/options.cpp).
# usage: bad_environment.sh COMMAND...   (the program to run, after any runner such as qemu)
fail=0
for case in "SIMT_MODE=x|simt: SIMT_MODE: unknown mode 'x' (its, lockstep, pre-volta)" \
            "SIMT_SEED=abc|simt: SIMT_SEED: 'abc' is not a number" \
            "SIMT_SMS=0|simt: SIMT_SMS: '0' is not a number between 1 and 1024" \
            "SIMT_QUIET=maybe|simt: SIMT_QUIET: 'maybe' is not 1 or 0"; do
    assignment=${case%%|*}
    expected=${case#*|}
    out=$(env "$assignment" "$@" 2>&1)
    code=$?
    if [ "$code" -ne 2 ] || ! printf '%s\n' "$out" | grep -qF "$expected"; then
        echo "FAIL: $assignment: exit $code, expected 2 and \"$expected\"; printed: $out"
        fail=1
    fi
done
[ "$fail" -eq 0 ] && echo OK

#!/bin/sh
# Runs a test program under a private X server (Xvfb) with Mesa's software OpenGL (llvmpipe).
# Exits with 77, which CTest reports as skipped, where Xvfb is not installed.
#
# Xvfb is started here rather than through xvfb-run: xvfb-run waits for a signal from the server
# and, rarely, waits forever (a CI run timed out that way); -displayfd tells us the display
# number once the server is ready, and we give up after 30 s with a message.
if ! command -v Xvfb >/dev/null 2>&1; then
    echo "visualizer tests skipped: Xvfb is not installed" \
         "(Debian: apt-get install xvfb xauth libgl1-mesa-dri)"
    exit 77
fi
LIBGL_ALWAYS_SOFTWARE=1
export LIBGL_ALWAYS_SOFTWARE
display_file=$(mktemp)
# -noreset: the server stays up between the windows the tests open and close.
Xvfb -displayfd 3 -screen 0 1920x1080x24 -noreset -nolisten tcp 3>"$display_file" \
    2>"$display_file.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$display_file" "$display_file.log"' EXIT
tries=0
while [ ! -s "$display_file" ]; do
    if ! kill -0 $server 2>/dev/null || [ $tries -ge 300 ]; then
        echo "run_under_xvfb: Xvfb did not start:" >&2
        cat "$display_file.log" >&2
        exit 1
    fi
    sleep 0.1
    tries=$((tries + 1))
done
DISPLAY=":$(cat "$display_file")"
export DISPLAY
"$@"

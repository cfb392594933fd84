#!/bin/sh
# Runs a test program under a private X server (Xvfb) with Mesa's software OpenGL (llvmpipe).
# Exits with 77, which CTest reports as skipped, where Xvfb is not installed.
if ! command -v xvfb-run >/dev/null 2>&1 || ! command -v Xvfb >/dev/null 2>&1; then
    echo "visualizer tests skipped: Xvfb is not installed" \
         "(Debian: apt-get install xvfb xauth libgl1-mesa-dri)"
    exit 77
fi
LIBGL_ALWAYS_SOFTWARE=1
export LIBGL_ALWAYS_SOFTWARE
# -noreset: the server stays up between the windows the tests open and close.
exec xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" "$@"

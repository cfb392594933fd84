# Cross-compiling for arm64 Linux with Debian's g++-aarch64-linux-gnu; tests run under qemu-user.
#
#   cmake -S . -B build-arm64 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#
# Target libraries come from Debian's multiarch packages (dpkg --add-architecture arm64, then
# libboost-context-dev:arm64), found under /usr/lib/aarch64-linux-gnu. The build-time tool
# simt-rewrite is built for this machine, not the target (common/simt/rewrite/CMakeLists.txt).
# scripts/ci-arm64.sh is the whole recipe. docs/platforms.md says what is verified where.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# ctest (and add_test with a target as its command) runs the test programs through qemu-user;
# -L: the cross toolchain's C library, so that no arm64 libc6 package is needed to run them.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)

# Target packages live in this machine's own /usr (multiarch), so no sysroot; only programs are
# searched for on the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# The test programs link Boost.Context statically: then they need nothing under qemu beyond the
# C and C++ runtime of the cross toolchain (the -L folder above).
set(Boost_USE_STATIC_LIBS ON)

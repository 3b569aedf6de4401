# cmake/aarch64-linux-gnu.cmake - CMake toolchain file: cross-compiles Tourney
# for 64-bit ARM Linux (Raspberry Pi OS / Debian arm64) on a Debian amd64 host.
#
# It uses Debian's cross compiler (crossbuild-essential-arm64) and the arm64
# libraries installed through multiarch (libfoo-dev:arm64, headers in
# /usr/include, libraries and .pc files in /usr/lib/aarch64-linux-gnu).
# Build-time tools (protoc-c) stay native: only libraries and headers are
# searched for the target.  deploy/install-deps.sh --cross installs all of it;
# deploy/cross/build-arm64.sh is the usual way in.
#
# It does not set a sysroot: Debian multiarch shares / between the
# architectures, and pkg-config is pointed at the arm64 .pc files only.
# Binaries link against the cross libc (libc6-dev-arm64-cross) and run
# with any glibc >= it: on the Pi its own, under qemu multiarch
# libc6:arm64 (see CMAKE_CROSSCOMPILING_EMULATOR below).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(TNY_CROSS_TRIPLE aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${TNY_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${TNY_CROSS_TRIPLE}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${TNY_CROSS_TRIPLE})

# Programs (protoc-c, bash) from the host; libraries, headers and CMake
# packages for the target only.
set(CMAKE_FIND_ROOT_PATH /usr/${TNY_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# Only the arm64 directories for libraries (never the amd64 ones).
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)

# pkg-config: the arm64 .pc files, none of the host's.
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/${TNY_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Packages built from here are for arm64.
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)

# How ctest runs target binaries (tests that execute them need qemu).
# -L / : the arm64 loader AND libc from multiarch libc6:arm64 (the package
# the :arm64 libraries depend on).  Never -L /usr/aarch64-linux-gnu: there
# ld.so is libc6-arm64-cross's (an older Debian revision of glibc) while
# libc.so.6 is still found in /lib/aarch64-linux-gnu through ld.so.cache;
# that loader/libc mix hangs in the first pthread_create (100% CPU).
find_program(TNY_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(TNY_QEMU_AARCH64)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${TNY_QEMU_AARCH64} -L /)
endif()

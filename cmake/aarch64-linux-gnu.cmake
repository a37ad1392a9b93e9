# Cross build for arm64 on a Debian or Ubuntu machine (make cross-arm64): the
# aarch64-linux-gnu compilers of crossbuild-essential-arm64 and the :arm64 libraries of
# dpkg multiarch, from scripts/install-deps --cross arm64. GSL's -dev package is not
# Multi-Arch: same; install-deps unpacks it under PCBENCH_CROSS_ROOT/arm64 (default
# /usr/local/lib/pcbench-cross) with its .pc there.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The Debian architecture: which libpfm4 package's version context.json records.
set(PCBENCH_DEB_ARCH arm64)

if(DEFINED ENV{PCBENCH_CROSS_ROOT})
  set(_pcbench_cross_root $ENV{PCBENCH_CROSS_ROOT}/arm64)
else()
  set(_pcbench_cross_root /usr/local/lib/pcbench-cross/arm64)
endif()
# pkg-config sees the target's .pc files only, never the host's.
set(ENV{PKG_CONFIG_LIBDIR}
  "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig:${_pcbench_cross_root}/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Libraries and headers from the target's multiarch directories; programs from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

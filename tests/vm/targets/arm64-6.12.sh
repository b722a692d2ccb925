# arm64-6.12 target: Debian 12's 6.12 arm64 kernel (bookworm-security, the
# newest linux-image-6.12.*+deb12-arm64-unsigned) on QEMU's virt machine
# (arm64.inc), with the arm64 tests.
. "$here/targets/arm64.inc"
fetched_kernel arm64-6.12 arm64 'linux-image-6.12.*+deb12-arm64-unsigned'

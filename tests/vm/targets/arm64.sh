# arm64 target: Debian 12's arm64 kernel (linux-image-arm64, 6.1) on
# QEMU's virt machine (arm64.inc).
. "$here/targets/arm64.inc"
fetched_kernel arm64 arm64 linux-image-arm64

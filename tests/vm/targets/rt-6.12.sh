# rt-6.12 target: Debian 12's 6.12 PREEMPT_RT kernel (the newest
# linux-image-6.12.*+deb12-rt-amd64-unsigned), for what preemptible
# spinlocks and threaded interrupts can change: the module's tests, the
# command's, and the churn, leak and lockdown ones.
. "$here/targets/fetched.inc"
qemu=qemu-system-x86_64
qemu_mem=1024
userspace=1
guest_tests='00-* 01-* kmod-* cli-* zz-lockdown'
guest_tests_exclude=
# This kernel's spurious-interrupt detector disables the second serial
# port's IRQ (the results channel: "irq 3: nobody cared") under TCG.
kernel_args=noirqdebug
fetched_kernel rt-6.12 amd64 'linux-image-6.12.*+deb12-rt-amd64-unsigned'

# ftguard.ko is built by Kbuild through kmod/Makefile (usable alone, as DKMS
# does). A VPATH build copies the sources next to the objects, because
# Kbuild on 6.1 builds an external module only in its own directory.
EXTRA_DIST += kmod/Kbuild kmod/Makefile kmod/dkms.conf kmod/conftest.sh \
	$(filter-out %/ftg_conftest.h,$(wildcard $(srcdir)/kmod/*.[ch]))

if HAVE_KERNEL_BUILD
all-local: kmod-build
kmod-build:
	@if test "$(srcdir)" != "."; then \
		mkdir -p kmod && cp -f $(srcdir)/kmod/Kbuild $(srcdir)/kmod/Makefile $(srcdir)/kmod/conftest.sh $(srcdir)/kmod/*.[ch] kmod/ && chmod u+w kmod/*; \
	fi
	$(MAKE) -C kmod KDIR=$(KERNEL_BUILD) FAULT_INJECTION=$(KMOD_FAULT)
else
all-local:
	@echo "ftguard: no kernel build tree; ftguard.ko not built (see ./configure --with-kernel-build)"
endif
clean-local: kmod-clean
kmod-clean:
	-test -z "$(KERNEL_BUILD)" || test ! -f kmod/Makefile || $(MAKE) -C kmod KDIR=$(KERNEL_BUILD) clean
	-test "$(srcdir)" = "." || rm -rf kmod
.PHONY: kmod-build kmod-clean

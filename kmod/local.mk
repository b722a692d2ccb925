# ftguard.ko is built by Kbuild through kmod/Makefile (usable alone, as DKMS
# does). A VPATH build copies the sources next to the objects, because
# Kbuild on 6.1 builds an external module only in its own directory.
# The module's sources: what Kbuild generates in an in-tree build is not one.
kmod_sources = $(filter-out %/ftg_conftest.h %.mod.c,$(wildcard $(srcdir)/kmod/*.[ch]))
EXTRA_DIST += kmod/Kbuild kmod/Makefile kmod/dkms.conf kmod/conftest.sh $(kmod_sources)

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

# make install puts the module's source where DKMS takes it,
# $(dkmssrcdir)/ftguard-VERSION (/usr/src whatever the prefix), with its
# dkms.conf. Into the running system (no DESTDIR) DKMS then registers it and
# builds and installs it for the kernel the module was configured for (and
# for each kernel installed later), so `modprobe ftguard` loads it; without
# DKMS (or with DKMS=no) the module just built goes to
# /lib/modules/RELEASE/extra. A DESTDIR install (a package, the test VM's
# initramfs) stops at the source. make uninstall undoes each.
dkmssrcdir = /usr/src
DKMS = dkms
kmod_dkms_src = $(DESTDIR)$(dkmssrcdir)/$(PACKAGE)-$(VERSION)
# The kernel the built module is for (its vermagic: the headers' own
# include/config/kernel.release can differ), else the running one.
kmod_release = `modinfo -F vermagic kmod/ftguard.ko 2>/dev/null | cut -d' ' -f1 | grep . || uname -r`
kmod_use_dkms = test "$(DKMS)" != no && command -v $(DKMS) >/dev/null

install-data-local: kmod-install
kmod-install:
	$(MKDIR_P) $(kmod_dkms_src)
	$(INSTALL_DATA) $(srcdir)/kmod/Kbuild $(srcdir)/kmod/Makefile $(kmod_sources) $(kmod_dkms_src)/
	$(INSTALL_SCRIPT) $(srcdir)/kmod/conftest.sh $(kmod_dkms_src)/
	sed 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="$(VERSION)"/' $(srcdir)/kmod/dkms.conf >$(kmod_dkms_src)/dkms.conf
	@set -e; rel=$(kmod_release); \
	if test -n "$(DESTDIR)"; then \
		echo "ftguard: module source in $(kmod_dkms_src) (on the target: dkms install $(PACKAGE)/$(VERSION))"; \
	elif $(kmod_use_dkms); then \
		$(DKMS) status $(PACKAGE)/$(VERSION) | grep -q . || $(DKMS) add $(PACKAGE)/$(VERSION); \
		ksrc=/lib/modules/$$rel/build; \
		test -f kmod/ftguard.ko && ksrc=$(KERNEL_BUILD); \
		if test -f "$$ksrc/Makefile"; then \
			$(DKMS) build $(PACKAGE)/$(VERSION) -k $$rel --kernelsourcedir $$ksrc --force; \
			$(DKMS) install $(PACKAGE)/$(VERSION) -k $$rel --kernelsourcedir $$ksrc --force; \
			echo "ftguard: installed by DKMS for $$rel: modprobe ftguard"; \
		else \
			echo "ftguard: added to DKMS; no headers for $$rel: install them, then dkms install $(PACKAGE)/$(VERSION)"; \
		fi; \
	elif test -f kmod/ftguard.ko; then \
		$(MKDIR_P) /lib/modules/$$rel/extra; \
		$(INSTALL_DATA) kmod/ftguard.ko /lib/modules/$$rel/extra/; \
		depmod -a $$rel; \
		echo "ftguard: installed /lib/modules/$$rel/extra/ftguard.ko: modprobe ftguard"; \
	else \
		echo "ftguard: no DKMS and no ftguard.ko built: module source only, in $(kmod_dkms_src)"; \
	fi

uninstall-local: kmod-uninstall
kmod-uninstall:
	@set -e; rel=$(kmod_release); \
	if test -z "$(DESTDIR)"; then \
		if $(kmod_use_dkms) && $(DKMS) status $(PACKAGE)/$(VERSION) | grep -q .; then \
			$(DKMS) remove $(PACKAGE)/$(VERSION) --all; \
		fi; \
		if test -f /lib/modules/$$rel/extra/ftguard.ko; then \
			rm -f /lib/modules/$$rel/extra/ftguard.ko; \
			rmdir /lib/modules/$$rel/extra 2>/dev/null || :; \
			depmod -a $$rel; \
		fi; \
	fi
	rm -rf $(kmod_dkms_src)
.PHONY: kmod-install kmod-uninstall

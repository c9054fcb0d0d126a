# perfinst — top-level build.  Each component has its own fragment
# (<dir>/build.mk); this file holds what they share.
#
#   make            build everything into build/
#   make demo       install missing Debian packages, build, run the loop on examples/
#   make check      run every test (ends with "N skipped", "N passed, N failed")
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make bench      run the benchmarks (bench/, slow; results in bench/RESULTS.md)

PREFIX  ?= /usr/local
DESTDIR ?=
MANDIR  ?= $(PREFIX)/share/man
# where a setuid/setgid instrumented program reads perfinst.conf (docs/runtime.md)
SYSCONFDIR ?= /etc
BUILD   := build
VERSION := 0.1.0

CC      ?= gcc
CXX     ?= g++
# The plugin is tied to the exact gcc that loads it: build it with that gcc.
PLUGIN_CC  ?= $(CC)
PLUGIN_CXX ?= $(CXX)
PLUGIN_INC := $(shell $(PLUGIN_CC) -print-file-name=plugin)/include

WARN     := -Wall -Wextra -Wno-unused-parameter
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 $(WARN) -Iinclude -Icommon -DPERFINST_VERSION='"$(VERSION)"'
LDFLAGS  ?=

.PHONY: all demo check install uninstall clean bench deps
all:

include common/build.mk
include gcc-plugin/build.mk
include runtime/build.mk
include linker/build.mk
include optimizer/build.mk
include tests/build.mk
include examples/build.mk
include bench/build.mk

$(BUILD):
	mkdir -p $@

# `make print-VAR`: a variable's value, for scripts that must link as the
# build does (tests/unit/t-unit.sh reads PMOPT_LDLIBS and PMOPT_DIRS).
print-%:
	@echo '$($*)'

deps:
	@scripts/deps.sh

demo: deps
	$(MAKE) all
	$(MAKE) run-demo

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/perfinst \
	  $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(BUILD)/perfinst-ld $(BUILD)/pmopt $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(BUILD)/perfinst.so $(DESTDIR)$(PREFIX)/lib/perfinst/
	install -m 644 $(BUILD)/libperfinst.a $(BUILD)/libperfinst-line.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libperfinst.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/perfinst.h include/perfinst-format.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@BINDIR@|$(PREFIX)/bin|g' linker/perfinst.specs.in \
	  > $(DESTDIR)$(PREFIX)/lib/perfinst/perfinst.specs
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$${exec_prefix}/lib|g' \
	  -e 's|@INCLUDEDIR@|$${prefix}/include|g' -e 's|@PLUGINDIR@|$${libdir}/perfinst|g' \
	  -e 's|@BINDIR@|$${exec_prefix}/bin|g' -e 's|@VERSION@|$(VERSION)|g' perfinst.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/perfinst.pc
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 644 docs/man/pmopt.1 docs/man/perfinst-ld.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 docs/man/perfinst.7 $(DESTDIR)$(MANDIR)/man7/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/perfinst-ld $(DESTDIR)$(PREFIX)/bin/pmopt \
	  $(DESTDIR)$(PREFIX)/lib/perfinst/perfinst.so $(DESTDIR)$(PREFIX)/lib/perfinst/perfinst.specs \
	  $(DESTDIR)$(PREFIX)/lib/libperfinst.a $(DESTDIR)$(PREFIX)/lib/libperfinst-line.a \
	  $(DESTDIR)$(PREFIX)/lib/libperfinst.so $(DESTDIR)$(PREFIX)/include/perfinst.h \
	  $(DESTDIR)$(PREFIX)/include/perfinst-format.h $(DESTDIR)$(PREFIX)/lib/pkgconfig/perfinst.pc
	rm -f $(DESTDIR)$(MANDIR)/man1/pmopt.1 $(DESTDIR)$(MANDIR)/man1/perfinst-ld.1 \
	  $(DESTDIR)$(MANDIR)/man7/perfinst.7
	-rmdir $(DESTDIR)$(PREFIX)/lib/perfinst

clean:
	rm -rf $(BUILD)

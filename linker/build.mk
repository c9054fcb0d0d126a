# The link stage and link driver: $(BUILD)/perfinst-ld (docs/perfinst-ld.md),
# and what names it for gcc's driver: $(BUILD)/perfinst.specs and the
# uninstalled pkg-config file $(BUILD)/perfinst-uninstalled.pc, which
# pkg-config prefers when PKG_CONFIG_PATH has $(BUILD) (docs/adopting.md).
# `make install` writes the installed ones (Makefile).
PILD_SRCS := $(wildcard linker/*.c)
PILD_OBJS := $(PILD_SRCS:linker/%.c=$(BUILD)/linker/%.o)

all: $(BUILD)/perfinst-ld $(BUILD)/perfinst.specs $(BUILD)/perfinst-uninstalled.pc

$(BUILD)/linker/%.o: linker/%.c linker/pild.h include/perfinst-format.h common/pimeta.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<
$(BUILD)/linker/xlat.o: common/xlat-blocks.h

$(BUILD)/perfinst-ld: $(PILD_OBJS) $(BUILD)/libpicommon.a
	$(CC) $(LDFLAGS) -o $@ $(PILD_OBJS) $(BUILD)/libpicommon.a -lelf -lz

$(BUILD)/perfinst.specs: linker/perfinst.specs.in | $(BUILD)
	sed -e 's|@BINDIR@|$(abspath $(BUILD))|g' $< > $@

$(BUILD)/perfinst-uninstalled.pc: perfinst.pc.in Makefile | $(BUILD)
	sed -e 's|@PREFIX@|$(CURDIR)|g' -e 's|@LIBDIR@|$(abspath $(BUILD))|g' \
	  -e 's|@INCLUDEDIR@|$${prefix}/include|g' -e 's|@PLUGINDIR@|$(abspath $(BUILD))|g' \
	  -e 's|@BINDIR@|$(abspath $(BUILD))|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

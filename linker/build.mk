# The link driver: $(BUILD)/perfinst-ld (docs/perfinst-ld.md).
PILD_SRCS := $(wildcard linker/*.c)
PILD_OBJS := $(PILD_SRCS:linker/%.c=$(BUILD)/linker/%.o)

all: $(BUILD)/perfinst-ld

$(BUILD)/linker/%.o: linker/%.c linker/pild.h include/perfinst-format.h common/pimeta.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<
$(BUILD)/linker/xlat.o: common/xlat-blocks.h

$(BUILD)/perfinst-ld: $(PILD_OBJS) $(BUILD)/libpicommon.a
	$(CC) $(LDFLAGS) -o $@ $(PILD_OBJS) $(BUILD)/libpicommon.a -lelf -lz

# runtime/ — libperfinst, the run-time library (docs/runtime.md).
# Built with plain gcc and never with the plugin: the runtime must not
# instrument itself.  Only the public API, the plugin ABI and the interposed
# libc functions are exported (-fvisibility=hidden, PI_EXPORT in the sources).

# From common/, compiled in with the runtime's flags: xlat-blocks.c (the
# translation-table builder, shared with perfinst-ld), piformat.c (the
# one decoder of the chunks and the overlay's lines, shared with the tools),
# piflow.c (counts solved from the arcs' counters) and pifd.c (a file
# descriptor read to its end, shared with pmopt relink).
RUNTIME_COMMON := xlat-blocks piformat piflow pifd
RUNTIME_SRCS   := $(wildcard runtime/*.c)
RUNTIME_OBJS   := $(patsubst runtime/%.c,$(BUILD)/runtime/%.o,$(RUNTIME_SRCS)) \
                  $(RUNTIME_COMMON:%=$(BUILD)/runtime/%.o)
RUNTIME_CFLAGS := $(filter-out -fplugin% -finstrument-functions% -pg -fprofile%,$(CFLAGS)) \
                  -fPIC -pthread -fvisibility=hidden

all: $(BUILD)/libperfinst.a $(BUILD)/libperfinst.so $(BUILD)/libperfinst-line.a

$(BUILD)/runtime/%.o: runtime/%.c runtime/runtime.h include/perfinst.h include/perfinst-format.h
	@mkdir -p $(@D)
	$(CC) $(RUNTIME_CFLAGS) -c $< -o $@

$(RUNTIME_COMMON:%=$(BUILD)/runtime/%.o): $(BUILD)/runtime/%.o: common/%.c common/%.h include/perfinst-format.h
	@mkdir -p $(@D)
	$(CC) $(RUNTIME_CFLAGS) -c $< -o $@
$(BUILD)/runtime/loader.o: common/xlat-blocks.h common/piformat.h common/piflow.h
# where a process in secure execution reads its configuration (docs/runtime.md)
$(BUILD)/runtime/core.o: RUNTIME_CFLAGS += -DPI_SECURE_CONF='"$(SYSCONFDIR)/perfinst.conf"'
$(BUILD)/runtime/fnmeta.o $(BUILD)/runtime/overlay.o: common/piformat.h
$(BUILD)/runtime/core.o: common/pifd.h

# idle-wrap.c interposes libc's blocking calls, heap-wrap.c its allocator,
# exit-wrap.c its _exit: shared runtime only (docs/sampling-stacks.md,
# docs/sharing.md, docs/runtime.md); the
# sampling files share sample.h.
$(RUNTIME_OBJS): runtime/sample.h runtime/sharing-model.h

# The list of objects is a prerequisite too (rewritten only when it
# changes): a source added or deleted relinks the libraries, where make
# would see no object newer than them.
$(BUILD)/runtime/objects.list: FORCE
	@mkdir -p $(@D)
	@echo '$(RUNTIME_OBJS)' | cmp -s - $@ || echo '$(RUNTIME_OBJS)' > $@
.PHONY: FORCE
FORCE:

$(BUILD)/libperfinst.a: $(filter-out $(BUILD)/runtime/idle-wrap.o $(BUILD)/runtime/heap-wrap.o $(BUILD)/runtime/exit-wrap.o,$(RUNTIME_OBJS)) $(BUILD)/runtime/objects.list
	rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

# The repaired program's allocators alone (line-alloc.c): what the link
# stage links when a program refers to nothing else of perfinst.
$(BUILD)/libperfinst-line.a: $(BUILD)/runtime/line-alloc.o
	rm -f $@
	$(AR) rcs $@ $^

# -z nodelete: threads started by our pthread_create run our code until they
# end, so the library must never be unmapped (dlclose of a dlopen'ed runtime).
$(BUILD)/libperfinst.so: $(RUNTIME_OBJS) $(BUILD)/runtime/objects.list
	$(CC) -shared -pthread -Wl,-soname,libperfinst.so -Wl,-z,defs -Wl,-z,nodelete $(LDFLAGS) -o $@ $(filter %.o,$^)

# `make $(pwd)/build/libperfinst.so` names the same files by absolute path.
$(abspath $(BUILD))/libperfinst.a: $(BUILD)/libperfinst.a
$(abspath $(BUILD))/libperfinst.so: $(BUILD)/libperfinst.so
$(RUNTIME_OBJS): runtime/env.h

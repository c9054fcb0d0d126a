# The GCC plugin: $(BUILD)/perfinst.so, compiled as C++ (GCC's headers are)
# with the gcc that will load it.
PLUGIN_SRCS := $(wildcard gcc-plugin/*.cc)
PLUGIN_OBJS := $(PLUGIN_SRCS:gcc-plugin/%.cc=$(BUILD)/gcc-plugin/%.o)
PLUGIN_CXXFLAGS := -O2 -g -fPIC -fno-rtti -fno-exceptions -Wall -Wno-unused-parameter \
  -I$(PLUGIN_INC) -Iinclude -Icommon -DPERFINST_VERSION='"$(VERSION)"'

all: $(BUILD)/perfinst.so

$(BUILD)/gcc-plugin/%.o: gcc-plugin/%.cc gcc-plugin/*.h common/*.h include/perfinst-format.h
	@mkdir -p $(@D)
	$(PLUGIN_CXX) $(PLUGIN_CXXFLAGS) -c -o $@ $<

# The feedback-file reader is common/'s (one reader per format; its writer
# uses piout), compiled -fPIC into the plugin.
PLUGIN_COMMON := $(BUILD)/gcc-plugin/pifeedback.o $(BUILD)/gcc-plugin/piutil.o \
                 $(BUILD)/gcc-plugin/piout.o

$(BUILD)/gcc-plugin/%.o: common/%.c common/*.h include/perfinst-format.h
	@mkdir -p $(@D)
	$(PLUGIN_CC) $(CFLAGS) -fPIC -c -o $@ $<

$(BUILD)/perfinst.so: $(PLUGIN_OBJS) $(PLUGIN_COMMON)
	$(PLUGIN_CXX) -shared -o $@ $^

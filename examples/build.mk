# The demo: the whole loop on examples/demo.c with the tools just built.
DEMO := $(BUILD)/demo
.PHONY: run-demo
run-demo: all
	@mkdir -p $(DEMO)
	@echo "== compile with the plugin"
	gcc -O2 -g -fplugin=$(BUILD)/perfinst.so -Iinclude -c examples/demo.c -o $(DEMO)/demo.o
	@echo "== link with perfinst-ld"
	$(BUILD)/perfinst-ld -O2 -o $(DEMO)/demo $(DEMO)/demo.o -pthread
	@echo "== what the plugin recorded"
	$(BUILD)/pmopt dump-meta $(DEMO)/demo | head -25
	@echo "== run"
	rm -f $(DEMO)/demo.pit
	cd $(DEMO) && PERFINST_OUT=demo.pit ./demo
	@echo "== report"
	$(BUILD)/pmopt report $(DEMO)/demo $(DEMO)/demo.pit --top=12

# p2l-ebiten: make run (viewer on the default character), make test (everything).
GO ?= go
# Tests that open a window need a display; use Xvfb when there is none.
XRUN := $(if $(DISPLAY),,xvfb-run -a -s "-screen 0 1280x1024x24")
DEB_PKGS := libgl1-mesa-dev libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev \
            libxxf86vm-dev libasound2-dev pkg-config xvfb xauth
FUZZTIME ?= 10s
FUZZMINIMIZE ?= 5s
FUZZPARALLEL ?= 1
FUZZ ?= .
# make web writes the browser viewer here; make serve-web serves it there.
WEB_DIR ?= build/web
# staticcheck, pinned; make test fails on its findings.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
# The lowest Go release the library supports (go.mod's go line): CI also
# runs the library's tests with it (make test-min-go).
GO_MIN ?= go1.24.13
WEB_ADDR ?= 127.0.0.1:8080

.PHONY: all deps run web serve-web test test-min-go test-ports bench fuzz generate mobile-check

all: test

# Installs Ebitengine's X11/GL/ALSA headers and Xvfb on Debian/Ubuntu, only
# when some are missing. Idempotent.
deps:
	@if command -v dpkg-query >/dev/null 2>&1; then \
	  missing=""; for p in $(DEB_PKGS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "installing:$$missing"; \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	  fi; \
	fi

# The desktop viewer on the embedded default character (pass FILE=x.p2lrt,
# FILE=NAME.model3.json, or a Cubism model's folder or zip to open another;
# ARGS=... for flags: ARGS=--mascot puts the character on the desktop).
run: deps
	$(GO) run ./viewer $(ARGS) $(FILE)

# The viewer for browsers, in a folder any static web server can host:
# viewer.wasm (+ .gz), wasm_exec.js, index.html (docs/WEB.md).
# viewer/web is a module of its own (its browser tests' chromedp stays out
# of the library's go.mod).
web:
	cd viewer/web && $(GO) run . build -o $(abspath $(WEB_DIR))

# Builds it and serves it on http://$(WEB_ADDR)/ until interrupted.
serve-web: web
	cd viewer/web && $(GO) run . serve -o $(abspath $(WEB_DIR)) -addr $(WEB_ADDR)

# The browser tests in viewer/web run when Chromium is installed (CI
# installs it); they build the viewer and ebitenp2l's tests for js/wasm.
test: deps
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt -l lists:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd viewer/web && $(GO) vet ./...
	$(GO) mod tidy -diff # go.mod and go.sum are tidy (direct dependencies not "// indirect")
	cd viewer/web && $(GO) mod tidy -diff
	$(GO) run $(STATICCHECK) ./...
	cd viewer/web && $(GO) run $(STATICCHECK) ./...
	$(XRUN) $(GO) test -count=1 ./...
	cd viewer/web && $(GO) test -count=1 ./...
	$(GO) test -count=1 -race ./p2l/... ./internal/...
	$(MAKE) --no-print-directory test-ports
	@if command -v javac >/dev/null 2>&1; then $(MAKE) --no-print-directory mobile-check; \
	 else echo "mobile-check skipped: no javac (install a JDK to check the Java binding)"; fi

# The library's tests with the lowest Go release it supports (CI runs it
# after make test; the go command fetches that toolchain).
test-min-go: deps
	GOTOOLCHAIN=$(GO_MIN) $(XRUN) $(GO) test -count=1 ./...

# The runtime (everything under p2l/, no Ebitengine) on other ports: its
# tests under WebAssembly in Node, and a 32-bit build; the browser-only
# code (viewer, ebitenp2l) vetted for js/wasm.
test-ports:
	GOARCH=386 $(GO) vet ./p2l/... ./internal/...
	GOOS=js GOARCH=wasm $(GO) vet ./viewer ./ebitenp2l
	@if command -v node >/dev/null 2>&1; then \
	  PATH="$$PATH:$$($(GO) env GOROOT)/lib/wasm" GOOS=js GOARCH=wasm $(GO) test -count=1 ./p2l/... ./internal/...; \
	 else echo "wasm tests skipped: no node"; fi

# gobind generates the Java/Objective-C bindings of ./mobile and javac
# compiles the Java side (no Android SDK needed; docs/MOBILE.md).
mobile-check:
	sh mobile/internal/bindcheck/check.sh

bench: deps
	$(XRUN) $(GO) test -run='^$$' -bench=. -benchmem ./...

# Every fuzz target of the module, FUZZTIME each, one worker (FUZZPARALLEL),
# short minimization; keeps going after a failure and prints a summary
# (FUZZ=regexp picks targets). internal/fuzzrun/fuzz.sh says more. Under
# Xvfb without a display: the mascot package's tests start Ebitengine.
fuzz:
	@GO="$(GO)" FUZZTIME="$(FUZZTIME)" FUZZMINIMIZE="$(FUZZMINIMIZE)" FUZZPARALLEL="$(FUZZPARALLEL)" \
	  FUZZ="$(FUZZ)" $(XRUN) sh internal/fuzzrun/fuzz.sh

generate:
	$(GO) generate ./...

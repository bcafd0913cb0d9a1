# Maestro — `make run` to build and open the app, `make test` to run every test.
# Both install what is missing first (Debian/Ubuntu; see .ci/deps.sh).

SHELL        := bash
.SHELLFLAGS  := -eu -o pipefail -c
.DEFAULT_GOAL := run

TAGS     := webkit2_41
GOPATH   := $(shell go env GOPATH)
WAILS    := $(GOPATH)/bin/wails
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BIN      := build/bin
APP      := $(BIN)/maestro
APP_DEV  := $(BIN)/maestro-dev
OUT      := test-results
PKG_DIR  := $(BIN)/package
# A Debian version must start with a digit: a tag like v1.2.0 gives 1.2.0;
# an untagged build gives 0.0.0+git<hash>.
DEB_VERSION := $(shell echo '$(VERSION)' | sed -E 's/^v([0-9]+\.[0-9])/\1/; /^[0-9]+\.[0-9]/!s/^/0.0.0+git/; s/-/~/g')
ICON_SIZES  := 16 24 32 48 64 128 256 512

# Tests get a throwaway HOME and runtime dir, so the keyring they unlock is
# never the user's own; Go keeps its real caches.
TEST_HOME := $(CURDIR)/$(OUT)/home
KEYRING   := env HOME=$(TEST_HOME) XDG_RUNTIME_DIR=$(TEST_HOME)/run \
	GOCACHE=$(shell go env GOCACHE) GOMODCACHE=$(shell go env GOMODCACHE) GOPATH=$(GOPATH) \
	npm_config_cache=$(HOME)/.npm .ci/keyring-session.sh

.PHONY: run build install uninstall refresh-desktop package test-package test deps deps-test frontend bindings check-bindings screenshots \
	build-dev test-go test-frontend test-e2e perf perf-session clean

## run: install what is missing, build, and open Maestro
run: build
	@if [ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
		echo "make run: no display (DISPLAY/WAYLAND_DISPLAY unset); the app is built at $(APP)"; exit 1; fi
	./$(APP)

## build: a stripped release binary in build/bin (plus build/linux/maestro.desktop and build/appicon.png)
build: deps frontend
	go build -tags desktop,production,$(TAGS) -trimpath \
		-ldflags "-w -s -X main.version=$(VERSION)" -o $(APP) .
	@! grep -aq "will not build without the correct build tags" $(APP) || \
		{ echo "build: $(APP) was built without the desktop tags"; exit 1; }
	@echo "built $(APP) ($$(du -h $(APP) | cut -f1))"

## install: copy the binary, the .desktop file and the icons under ~/.local
install: build
	install -Dm755 $(APP) $(HOME)/.local/bin/maestro
	@mkdir -p $(PKG_DIR)
	sed 's|^Exec=.*|Exec=$(HOME)/.local/bin/maestro|' build/linux/maestro.desktop > $(PKG_DIR)/maestro-user.desktop
	install -Dm644 $(PKG_DIR)/maestro-user.desktop $(HOME)/.local/share/applications/maestro.desktop
	for s in $(ICON_SIZES); do install -Dm644 build/linux/icons/$${s}x$${s}/maestro.png \
		$(HOME)/.local/share/icons/hicolor/$${s}x$${s}/apps/maestro.png; done
	@$(MAKE) -s refresh-desktop

## uninstall: remove what make install put under ~/.local
uninstall:
	rm -f $(HOME)/.local/bin/maestro $(HOME)/.local/share/applications/maestro.desktop
	for s in $(ICON_SIZES); do rm -f $(HOME)/.local/share/icons/hicolor/$${s}x$${s}/apps/maestro.png; done
	@$(MAKE) -s refresh-desktop

# Menus and icon themes pick up the change; both tools are optional.
refresh-desktop:
	-@command -v update-desktop-database >/dev/null && update-desktop-database -q $(HOME)/.local/share/applications
	-@command -v gtk-update-icon-cache >/dev/null && [ -d $(HOME)/.local/share/icons/hicolor ] && \
		gtk-update-icon-cache -q -t -f $(HOME)/.local/share/icons/hicolor
	@true

## package: a .deb in build/bin (nfpm): /usr/bin/maestro, its desktop entry and icons
package: build
	@mkdir -p $(PKG_DIR)
	sed 's|^Exec=.*|Exec=/usr/bin/maestro|' build/linux/maestro.desktop > $(PKG_DIR)/maestro.desktop
	DEB_VERSION='$(DEB_VERSION)' go tool nfpm package --config build/linux/nfpm.yaml \
		--packager deb --target $(BIN)/maestro_$(DEB_VERSION)_amd64.deb
	@echo "packaged $(BIN)/maestro_$(DEB_VERSION)_amd64.deb"

## test-package: build the .deb, validate it, install it, start it, remove it (needs root or sudo)
test-package: package
	.ci/package-test.sh $(BIN)/maestro_$(DEB_VERSION)_amd64.deb

deps:
	@.ci/deps.sh run

deps-test:
	@.ci/deps.sh test

frontend:
	cd frontend && npm run build --silent

## bindings: regenerate the Go↔TS contract, frontend/src/api/contract.gen.ts (the DTOs, the bound
## services, the events), and frontend/wailsjs/runtime (committed; make test checks they are current)
# Wails's own typed bindings (wailsjs/go) are dropped: the contract types and
# calls the same services, with the events and unions Wails does not know.
bindings:
	@$(WAILS) generate module -tags $(TAGS) >/dev/null
	@rm -rf frontend/wailsjs/go
	@go run ./app/cmd/maestro-contract -o frontend/src/api/contract.gen.ts

check-bindings:
	@rm -rf $(OUT)/bindings && mkdir -p $(OUT)/bindings && cp -r frontend/wailsjs $(OUT)/bindings/wailsjs && \
		cp frontend/src/api/contract.gen.ts $(OUT)/bindings/contract.gen.ts
	@$(MAKE) -s bindings
	@diff -r $(OUT)/bindings/wailsjs frontend/wailsjs >/dev/null && \
		diff $(OUT)/bindings/contract.gen.ts frontend/src/api/contract.gen.ts >/dev/null || \
		{ echo "frontend/wailsjs or frontend/src/api/contract.gen.ts was stale and has been regenerated: review and commit it"; exit 1; }

build-dev: frontend
	go build -tags dev,$(TAGS) -o $(APP_DEV) .
	go build -o $(BIN)/maestro-fakes ./backend/providers/fakes/cmd/maestro-fakes
	go build -o $(BIN)/maestro-mcp-test ./backend/mcp/cmd/maestro-mcp-test
	go build -o $(BIN)/maestro-mcp-hostile ./backend/mcp/cmd/maestro-mcp-hostile
	go build -o $(BIN)/maestro-seed ./backend/store/cmd/maestro-seed

## test: install what is missing, then run the Go, Vitest and end-to-end tests
test: deps-test
	@rm -rf $(TEST_HOME) && mkdir -p $(TEST_HOME)/run && chmod 700 $(TEST_HOME)/run
	$(MAKE) check-bindings
	$(MAKE) test-go
	$(MAKE) test-frontend
	$(MAKE) build build-dev
	$(MAKE) test-e2e
	$(MAKE) test-package
	@echo "make test: all suites passed"

# The MCP tests use the real npm servers installed in .ci/mcp (deps-test).
# backend/architecture_test.go checks the import rules and file lengths;
# gocyclo (a tool in go.mod) fails on any function over complexity 25.
test-go:
	go vet ./...
	go tool gocyclo -over 25 -ignore '_test\.go$$|/testdata/' app backend main.go
	$(KEYRING) bash -c 'CGO_ENABLED=0 MAESTRO_MCP_NODE_MODULES=$(CURDIR)/.ci/mcp/node_modules MAESTRO_REQUIRE_MCP=1 go test -count=1 ./backend/... && go test -count=1 -race -tags $(TAGS) ./app/... .'
	.ci/mcp/conformance.sh $(CURDIR)/$(OUT)/conformance

test-frontend:
	cd frontend && npm run typecheck --silent && npm test --silent

test-e2e:
	$(KEYRING) bash -c 'cd frontend && npm run e2e --silent'

## screenshots: rerun the chat end-to-end tests, writing docs/screenshots/*.png
screenshots: deps-test build build-dev
	$(KEYRING) bash -c 'cd frontend && MAESTRO_DOC_SHOTS=1 npx vitest run --config vitest.e2e.config.ts e2e/chat.e2e.ts e2e/matrix.e2e.ts e2e/firstrun.e2e.ts e2e/settings.e2e.ts e2e/trust.e2e.ts e2e/context.e2e.ts e2e/compose.e2e.ts e2e/attach.e2e.ts'

## perf: measure build time, binary size, launch time and memory into docs/PERFORMANCE.md figures
perf: deps-test
	.ci/perf.sh

## perf-session: time from a click on a 10,000-message session until its last message is drawn (docs/PERFORMANCE.md)
perf-session: deps-test build-dev
	@mkdir -p $(TEST_HOME)/run && chmod 700 $(TEST_HOME)/run
	$(KEYRING) bash -c 'cd frontend && npx vitest run --config vitest.perf.config.ts'

clean:
	rm -rf $(BIN) $(OUT) frontend/dist/assets frontend/dist/index.html

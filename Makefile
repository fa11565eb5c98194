# Wayfinder's two commands are `make run` and `make test`; both install what
# they need (Debian packages, npm packages, Go modules) and are quick when it
# is already there. See README.md.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

# The version, commit and build date `wayfinder --version` prints and the
# packages carry (scripts/version.sh: from `git describe`). The build date is
# the commit's (or SOURCE_DATE_EPOCH's), so that building one commit twice
# gives the same binary and Go's cache is not defeated by a clock.
$(foreach v,$(shell scripts/version.sh),$(eval $(v)))
BIN := build/bin/wayfinder
GO_TAGS := desktop,production,webkit2_41
VERSION_PKG := github.com/wayfinder-app/wayfinder/backend/version
LDFLAGS_VERSION := -X $(VERSION_PKG).version=$(VERSION) -X $(VERSION_PKG).commit=$(COMMIT) -X $(VERSION_PKG).date=$(BUILD_DATE)
LDFLAGS := -s -w $(LDFLAGS_VERSION)
export VERSION DEB_VERSION WIN_VERSION COMMIT BUILD_DATE LDFLAGS_VERSION BIN

DEB_BUILD := libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config build-essential
# What the Go tests run: zim-tools makes and checks the ZIM files of backend/zim's tests;
# chromium (with fonts-noto-cjk) prints the PDFs of pdftext's Chromium tier and
# libreoffice-writer-nogui those of its LibreOffice tier (libreoffice-calc-nogui and -impress-nogui
# write the importer's spreadsheets and presentations); texlive-xetex with texlive-lang-korean sets the
# Korean paper of its LaTeX tier; weasyprint (with fonts-unfonts-core) and wkhtmltopdf print its
# HTML producers' tier; poppler-utils' pdftotext is their reference.
DEB_GO_TEST := zim-tools chromium libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui texlive-xetex texlive-lang-korean weasyprint wkhtmltopdf fonts-unfonts-core fonts-noto-cjk poppler-utils
DEB_TEST := xvfb xauth dbus-daemon imagemagick xdotool x11-utils fonts-noto-color-emoji $(DEB_GO_TEST)
DEB_PACKAGE := nsis dpkg-dev help2man lintian desktop-file-utils appstream librsvg2-bin icoutils 7zip rofi

# The real-Ollama tier runs when the shared tools are beside the project.
OLLAMA_REAL := $(wildcard ../shared/tools/ollama-real)

NODE_STAMP := frontend/node_modules/.package-lock.json
FRONTEND_SRC := $(shell find frontend/src frontend/public -type f 2>/dev/null) \
	frontend/index.html frontend/package.json frontend/vite.config.ts frontend/tsconfig.json
DIST := frontend/dist/index.html

.PHONY: run build package icons test bench generate deps deps-test deps-mcp deps-hwp test-go test-frontend test-e2e test-desktop test-package test-ollama clean

## run: build everything and open the desktop window (the browser UI when there is no display)
run: build
	@if [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
		exec ./$(BIN); \
	else \
		echo "No display found (DISPLAY and WAYLAND_DISPLAY are empty): starting the browser UI instead."; \
		exec ./$(BIN) serve; \
	fi

## build: the production binary at build/bin/wayfinder (TypeScript bindings regenerated first)
build: deps generate $(DIST)
	go build -tags $(GO_TAGS) -trimpath -buildmode=pie -ldflags "$(LDFLAGS)" -o $(BIN) .

## package: the downloads in build/package/: a .deb, the Windows installer and .exe, a .tar.gz, SHA256SUMS
package: build
	@scripts/apt-ensure.sh $(DEB_PACKAGE)
	scripts/package.sh

## icons: every icon under build/ rendered again from build/appicon.svg
icons:
	scripts/icons.sh

deps:
	@scripts/apt-ensure.sh $(DEB_BUILD)
	@go mod download

deps-test: deps
	@scripts/apt-ensure.sh $(DEB_TEST)

## deps-mcp: the MCP reference servers the Go tests run (npm registry, into tests/mcpservers/node_modules)
MCP_STAMP := tests/mcpservers/node_modules/.package-lock.json
MCP_SERVERS := $(CURDIR)/tests/mcpservers/node_modules/.bin
deps-mcp: $(MCP_STAMP)
$(MCP_STAMP): tests/mcpservers/package-lock.json
	cd tests/mcpservers && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

## deps-hwp: real HWP 5.0 files, several with Hancom's HWPML export of the same text, for the importer's tests (npm registry: node-hwp, into tests/hwpsamples/node_modules)
HWP_STAMP := tests/hwpsamples/node_modules/.package-lock.json
HWP_SAMPLES := $(CURDIR)/tests/hwpsamples/node_modules/node-hwp/test/files
deps-hwp: $(HWP_STAMP)
$(HWP_STAMP): tests/hwpsamples/package-lock.json
	cd tests/hwpsamples && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

$(NODE_STAMP): frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(DIST): $(NODE_STAMP) $(FRONTEND_SRC)
	cd frontend && npm run build

## generate: the frontend's TypeScript bindings from backend/api (a Go test checks they are current)
generate:
	@go run ./backend/api/tsgen

# NO_RACE_TESTS skip themselves under -race (its shadow memory is in every
# memory figure; SciFact through the importer takes minutes with it), so
# they run once more without it.
NO_RACE_TESTS := TestLargeTextMemory|TestLongRecordMemory|TestOfficeBombMemory|TestWordNotesBombMemory|TestHWPBombMemory|TestAgainstReferenceBM25|TestLayoutMemoryGivenBack

# Where the Go tests find the real third-party parts they run against.
GO_TEST_ENV := WAYFINDER_MCP_SERVERS=$(MCP_SERVERS) WAYFINDER_HWP_SAMPLES=$(HWP_SAMPLES) WAYFINDER_CHROMIUM=chromium WAYFINDER_SOFFICE=soffice WAYFINDER_XELATEX=xelatex WAYFINDER_WEASYPRINT=weasyprint WAYFINDER_WKHTMLTOPDF=wkhtmltopdf WAYFINDER_QWEN_TOKENIZER=$$(scripts/qwen-tokenizer.sh)
# go test's default of 10 minutes a package is too short for the importer's
# tests under -race on a two-core machine that is busy with other packages
# (seen: 600 s in TestOfficeLimits, no test hung); a hang still ends the run.
GO_TEST_TIMEOUT := 30m

## test: every test: Go (vet, race), frontend unit tests and type checks, browser end-to-end, desktop smoke, packages
test: deps-test deps-mcp deps-hwp build
	go vet -tags $(GO_TAGS) ./...
	$(GO_TEST_ENV) go test -race -count=1 -timeout $(GO_TEST_TIMEOUT) ./...
	go test -count=1 -timeout $(GO_TEST_TIMEOUT) -run '$(NO_RACE_TESTS)' ./backend/knowledge/ ./backend/knowledge/pdftext/
	$(MAKE) --no-print-directory test-frontend test-e2e test-desktop test-package
	$(if $(OLLAMA_REAL),$(MAKE) --no-print-directory test-ollama,@echo "real-Ollama tier skipped: ../shared/tools/ollama-real not found")

test-go: deps deps-mcp deps-hwp $(DIST)
	@scripts/apt-ensure.sh $(DEB_GO_TEST)
	$(GO_TEST_ENV) go test -race -count=1 -timeout $(GO_TEST_TIMEOUT) ./...
	go test -count=1 -timeout $(GO_TEST_TIMEOUT) -run '$(NO_RACE_TESTS)' ./backend/knowledge/ ./backend/knowledge/pdftext/

test-frontend: $(NODE_STAMP)
	cd frontend && npm run check && npm test

test-e2e: build deps-mcp deps-hwp
	cd frontend && WAYFINDER_MCP_SERVERS=$(MCP_SERVERS) WAYFINDER_HWP_SAMPLES=$(HWP_SAMPLES) WAYFINDER_BIN=$(CURDIR)/$(BIN) npm run e2e

test-desktop: build
	scripts/desktop-smoke.sh $(BIN)

## test-package: make the packages, then check them: the .deb installed into a throwaway root, started and removed; the .exe's resources; the installer's contents
test-package: deps-test package
	WAYFINDER_PACKAGES=$(CURDIR)/build/package go test -tags packaging -count=1 -v ./tests/packaging/

## test-ollama: the tier against a real `ollama serve` with a tiny deterministic model
test-ollama: deps $(DIST)
	scripts/real-ollama-test.sh

## bench: the performance report, measured in one run: artifacts/bench/REPORT.md (also printed) and report.json beside it
bench: deps-test build
	@scripts/apt-ensure.sh $(DEB_PACKAGE)
	go run ./tests/bench -app $(BIN) -tokenizer $$(scripts/qwen-tokenizer.sh) -out artifacts/bench/REPORT.md

clean:
	rm -rf build/bin build/package frontend/dist artifacts

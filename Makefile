# SimpleX Chat for Linux — `make run` and `make test` are all a new developer needs.
# Every target first installs the Debian packages it needs when they are missing
# (apt-get update once, then apt-get install -y; sudo when not root).

SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= $(HOME)/.local
CONFIG ?= debug

# Build: C libraries behind the Swift modules. Tests: a private session bus, the notification
# server mock, a real Secret Service, gdbus for inspecting the bus, tmux for the terminal UI.
BUILD_PACKAGES := pkg-config libsqlite3-dev libsodium-dev libdbus-1-dev libnotify-dev
TEST_PACKAGES := dbus-daemon python3-dbusmock gnome-keyring libglib2.0-bin tmux
# The relay benchmark compares against Redis PUBLISH/SUBSCRIBE.
BENCH_PACKAGES := redis-server
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build run test bench install deps test-deps clean

all: build

deps:
	@$(call install_missing,$(BUILD_PACKAGES))

test-deps:
	@$(call install_missing,$(BUILD_PACKAGES) $(TEST_PACKAGES))

# Installs the packages in $(1) that dpkg does not report as installed.
define install_missing
	missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing"; \
	  if [ ! -f /tmp/.simplex-apt-updated ]; then $(SUDO) apt-get update -q && touch /tmp/.simplex-apt-updated; fi; \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi
endef

build: deps
	$(SWIFT) build -c $(CONFIG) --product simplex-chat

# Starts the client on the embedded default (it grows with the relay, agent and service issues).
# The chat in line mode with a local relay (used when you have configured no relays of your
# own); the first run asks for your display name. ARGS go to simplex-chat --cli.
run: deps
	@$(SWIFT) build -c $(CONFIG) --product simplex-chat 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	@$(SWIFT) build -c $(CONFIG) --product smp-server 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	@Services/Relay/run-local.sh "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)" $(ARGS)

# Every test, on a private session bus (tests that need their own bus start one themselves), after
# the check of DESIGN §2.1's module graph (the relay never links the chat core).
test: test-deps
	@python3 Tests/check-module-graph.py --self-test >/dev/null || python3 Tests/check-module-graph.py --self-test
	python3 Tests/check-module-graph.py
	$(SWIFT) build --build-tests 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	python3 Tests/ProtocolConformance/smp_conformance.py "$$($(SWIFT) build --show-bin-path)/smp-server"
	dbus-run-session -- $(SWIFT) test --skip-build

bench:
	@$(call install_missing,$(BUILD_PACKAGES) $(TEST_PACKAGES) $(BENCH_PACKAGES))
	$(SWIFT) build -c release --product smp-server 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	$(SWIFT) build -c release --product simplex-bench 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	dbus-run-session -- stdbuf -oL $$($(SWIFT) build -c release --show-bin-path)/simplex-bench

install: deps
	$(SWIFT) build -c release --product simplex-chat
	$(SWIFT) build -c release --product smp-server
	install -d -m 0755 $(PREFIX)/bin
	install -m 0755 $$($(SWIFT) build -c release --show-bin-path)/simplex-chat $(PREFIX)/bin/simplex-chat
	install -m 0755 $$($(SWIFT) build -c release --show-bin-path)/smp-server $(PREFIX)/bin/smp-server
	install -d -m 0700 $(HOME)/.config/systemd/user
	install -m 0644 Services/Relay/smp-server.service $(HOME)/.config/systemd/user/smp-server.service
	@echo "installed simplex-chat and smp-server to $(PREFIX)/bin, the relay's unit to ~/.config/systemd/user"

clean:
	$(SWIFT) package clean

# SimpleX Chat for Linux — `make run` and `make test` are all a new developer needs.
# Every target first installs the Debian packages it needs when they are missing
# (apt-get update once, then apt-get install -y; sudo when not root).

SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= $(HOME)/.local
CONFIG ?= debug

# Build: C libraries behind the Swift modules. Tests: a private session bus, the notification
# server mock, a real Secret Service, gdbus for inspecting the bus, tmux for the terminal UI,
# systemd-analyze and desktop-file-validate for checking the units and the desktop file, zbarimg
# for reading back the QR codes the TUI draws, python3-gi with gdk-pixbuf for writing test images.
BUILD_PACKAGES := pkg-config libsqlite3-dev libsodium-dev libdbus-1-dev libnotify-dev libgdk-pixbuf-2.0-dev \
  webp-pixbuf-loader libcurl4-openssl-dev libutf8proc-dev libchafa-dev libqrencode-dev
TEST_PACKAGES := dbus-daemon python3-dbusmock gnome-keyring libglib2.0-bin tmux systemd desktop-file-utils zbar-tools \
  python3-gi gir1.2-gdkpixbuf-2.0
# The relay benchmark compares against Redis PUBLISH/SUBSCRIBE.
BENCH_PACKAGES := redis-server
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build run stop test bench install uninstall deps test-deps clean

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

# Starts the client on the embedded default: the chat in line mode with a local relay (used when
# you have configured no relays of your own) and the notification service, which go on receiving
# after the client quits (make stop ends them); the first run asks for your display name. ARGS go
# to simplex-chat --cli.
run: deps
	@$(SWIFT) build -c $(CONFIG) --product simplex-chat 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	@$(SWIFT) build -c $(CONFIG) --product smp-server 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	@$(SWIFT) build -c $(CONFIG) --product simplex-nse 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	@Services/Relay/run-local.sh "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)" $(ARGS)

# Ends the local relay and the notification service that make run left receiving.
stop:
	@Services/Relay/run-local.sh "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)" --stop

# Every test, on a private session bus (tests that need their own bus start one themselves), after
# the check of DESIGN §2.1's module graph (the relay never links the chat core).
test: test-deps
	@python3 Tests/check-module-graph.py --self-test >/dev/null || python3 Tests/check-module-graph.py --self-test
	python3 Tests/check-module-graph.py
	$(SWIFT) build --build-tests 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	python3 Tests/ProtocolConformance/smp_conformance.py "$$($(SWIFT) build --show-bin-path)/smp-server"
	dbus-run-session -- $(SWIFT) test --skip-build --skip '$(TIMED_SUITES)' $(TEST_WIDTH)
	dbus-run-session -- $(SWIFT) test --skip-build --filter '$(TIMED_SUITES)' $(TEST_WIDTH)

# Suites whose calls have deadlines of a few seconds (D-Bus, the relay's PING and reconnects): run on their own
# after the rest, because 1,100 tests sharing two cores' cooperative threads starved them past
# their deadlines (60 s limits hit by D-Bus calls waiting for a thread, in a clean clone's CI run).
TIMED_SUITES := SimpleXDesktopTests|SMPClientSessionTests|SMPClientRelayTests
# At most 12 tests at a time: with all 1,100 started at once each end-to-end test took as long as
# the whole run (140 s for one that takes 9 s alone), so the deadlines inside them (a pass's linger,
# a delivery's 10 s) ran out under starvation; 12 at a time also finishes sooner (111 s against
# 162 s, same machine, same build).
TEST_WIDTH := --experimental-maximum-parallelization-width 12
# A crash of the test process prints every frame of every thread (the default hides the system
# libraries' frames, which left one CI abort with no frame to read).
export SWIFT_BACKTRACE := preset=full

bench:
	@$(call install_missing,$(BUILD_PACKAGES) $(TEST_PACKAGES) $(BENCH_PACKAGES))
	$(SWIFT) build -c release --product smp-server 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	$(SWIFT) build -c release --product simplex-nse 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	$(SWIFT) build -c release --product simplex-chat 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	$(SWIFT) build -c release --product simplex-share 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	$(SWIFT) build -c release --product simplex-bench 2>&1 | grep -v "prohibited flag"; exit $${PIPESTATUS[0]}
	dbus-run-session -- stdbuf -oL $$($(SWIFT) build -c release --show-bin-path)/simplex-bench

# The binaries, the systemd user units, the D-Bus activation file and the desktop file (@BINDIR@
# filled in), and the icon.
SYSTEMD_USER_DIR ?= $(HOME)/.config/systemd/user
DBUS_SERVICES_DIR ?= $(HOME)/.local/share/dbus-1/services
APPLICATIONS_DIR ?= $(HOME)/.local/share/applications
ICON_DIR ?= $(HOME)/.local/share/icons/hicolor/scalable/apps
# The share helper's file-manager entries (Nautilus, Dolphin, Nemo; Thunar's go into its uca.xml).
XDG_DATA ?= $(HOME)/.local/share
THUNAR_UCA ?= $(HOME)/.config/Thunar/uca.xml
SHARE := Services/ShareService
BIN_ABS = $(abspath $(PREFIX))/bin
NSE_UNITS := simplex-nse.service simplex-nse-periodic.service simplex-nse-periodic.timer
NSE_ACTIVATION := chat.simplex.NotificationService.service

install: deps
	$(SWIFT) build -c release --product simplex-chat
	$(SWIFT) build -c release --product smp-server
	$(SWIFT) build -c release --product simplex-nse
	$(SWIFT) build -c release --product simplex-share
	install -d -m 0755 $(PREFIX)/bin
	for exe in simplex-chat smp-server simplex-nse simplex-share; do \
	  install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/$$exe" "$(PREFIX)/bin/$$exe" || exit 1; \
	done
	install -d -m 0700 $(SYSTEMD_USER_DIR) $(DBUS_SERVICES_DIR)
	install -m 0644 Services/Relay/smp-server.service $(SYSTEMD_USER_DIR)/smp-server.service
	for unit in $(NSE_UNITS); do \
	  sed 's|@BINDIR@|$(abspath $(PREFIX))/bin|g' Services/NotificationService/$$unit > $(SYSTEMD_USER_DIR)/$$unit || exit 1; \
	done
	sed 's|@BINDIR@|$(abspath $(PREFIX))/bin|g' Services/NotificationService/$(NSE_ACTIVATION) \
	  > $(DBUS_SERVICES_DIR)/$(NSE_ACTIVATION)
	install -d -m 0755 $(APPLICATIONS_DIR) $(ICON_DIR)
	sed 's|@BINDIR@|$(abspath $(PREFIX))/bin|g' Services/NotificationService/simplex-chat.desktop \
	  > $(APPLICATIONS_DIR)/simplex-chat.desktop
	install -m 0644 Services/NotificationService/simplex-chat.svg $(ICON_DIR)/simplex-chat.svg
	sed 's|@BINDIR@|$(BIN_ABS)|g' $(SHARE)/simplex-share.desktop > $(APPLICATIONS_DIR)/simplex-share.desktop
	install -d -m 0755 "$(XDG_DATA)/nautilus/scripts" "$(XDG_DATA)/kio/servicemenus" "$(XDG_DATA)/nemo/actions"
	sed 's|@BINDIR@|$(BIN_ABS)|g' $(SHARE)/file-managers/nautilus-script > "$(XDG_DATA)/nautilus/scripts/Send with SimpleX Chat"
	chmod 0755 "$(XDG_DATA)/nautilus/scripts/Send with SimpleX Chat"
	sed 's|@BINDIR@|$(BIN_ABS)|g' $(SHARE)/file-managers/dolphin-servicemenu.desktop > "$(XDG_DATA)/kio/servicemenus/simplex-share.desktop"
	chmod 0755 "$(XDG_DATA)/kio/servicemenus/simplex-share.desktop"
	sed 's|@BINDIR@|$(BIN_ABS)|g' $(SHARE)/file-managers/simplex-share.nemo_action > "$(XDG_DATA)/nemo/actions/simplex-share.nemo_action"
	python3 $(SHARE)/file-managers/thunar-uca.py install "$(THUNAR_UCA)" "$(BIN_ABS)"
	-@command -v update-desktop-database >/dev/null && update-desktop-database -q $(APPLICATIONS_DIR)
	-@systemctl --user daemon-reload 2>/dev/null
	@echo "installed simplex-chat, smp-server, simplex-nse and simplex-share to $(PREFIX)/bin, the systemd user units to"
	@echo "$(SYSTEMD_USER_DIR), the notification service's D-Bus activation file to $(DBUS_SERVICES_DIR),"
	@echo "simplex-chat.desktop (simplex: links) and simplex-share.desktop to $(APPLICATIONS_DIR), and the file"
	@echo "managers' Send with SimpleX Chat (Nautilus script, Dolphin service menu, Nemo action, Thunar action)"
	@echo "background receiving: simplex-chat notifications instant (or periodic, or off)"

uninstall:
	-@systemctl --user disable --now simplex-nse.service simplex-nse-periodic.timer 2>/dev/null
	rm -f $(PREFIX)/bin/simplex-chat $(PREFIX)/bin/smp-server $(PREFIX)/bin/simplex-nse $(PREFIX)/bin/simplex-share
	rm -f $(SYSTEMD_USER_DIR)/smp-server.service $(addprefix $(SYSTEMD_USER_DIR)/,$(NSE_UNITS))
	rm -f $(DBUS_SERVICES_DIR)/$(NSE_ACTIVATION)
	rm -f $(APPLICATIONS_DIR)/simplex-chat.desktop $(ICON_DIR)/simplex-chat.svg $(APPLICATIONS_DIR)/simplex-share.desktop
	rm -f "$(XDG_DATA)/nautilus/scripts/Send with SimpleX Chat" "$(XDG_DATA)/kio/servicemenus/simplex-share.desktop"
	rm -f "$(XDG_DATA)/nemo/actions/simplex-share.nemo_action"
	python3 $(SHARE)/file-managers/thunar-uca.py remove "$(THUNAR_UCA)"
	-@command -v update-desktop-database >/dev/null && update-desktop-database -q $(APPLICATIONS_DIR)
	-@systemctl --user daemon-reload 2>/dev/null
	@echo "removed the binaries, units, activation and desktop files; your chats stay in the group directory"

clean:
	$(SWIFT) package clean

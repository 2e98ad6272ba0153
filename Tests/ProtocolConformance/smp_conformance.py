#!/usr/bin/env python3
"""Conformance test: does `smp-server` speak the protocol of docs/smp-protocol.md?

    python3 Tests/ProtocolConformance/smp_conformance.py [/path/to/smp-server]

Everything here is computed from that page alone (section numbers in the comments): the hellos,
the SPKI prefixes, the fingerprint, the HKDF chains, secretbox blocks, padding, batches,
transmissions, authorization, MSG encryption and the error replies. Nothing is taken from the
Swift code.

The script makes a temporary config directory (mode 0700), runs `smp-server init --config DIR
--port 0`, sets `queue_quota` in the generated smp-server.ini to a small value (§11.3, §13), runs
`smp-server start --config DIR`, reads the port and address from its standard output, runs the
checks and always stops the relay (SIGTERM, then SIGKILL) and removes the directory. Every socket
has a 5 s timeout and the whole run is bounded by a 20 s alarm (plus at most 5 s to stop).

Output: one line per check, `ok: NAME` or `FAILED: NAME: REASON` (or `skipped: NAME: REASON`
when a check cannot apply), then `N passed, M failed` alone on the last line. The exit status
is 0 only if every check that ran passed.

Standard library and ctypes (libsodium.so.23, see sodium.py) only; Python 3.11.
"""

import base64
import dataclasses
import hashlib
import hmac
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sodium as na  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
PAGE = os.path.join(REPO, "docs", "smp-protocol.md")
DEFAULT_BINARY = os.path.join(REPO, ".build", "debug", "smp-server")

SOCKET_TIMEOUT = 5.0   # every socket operation
RUN_BUDGET_S = 20      # the checks, relay start included; stopping adds at most 5 s
START_TIMEOUT = 10.0   # init, and start until both lines are printed
TEST_QUOTA = 3         # written to queue_quota in smp-server.ini (§13: 1–65,535)

# --- sizes and constants of the page -------------------------------------------------------------

BLOCK = 16384              # §4: every block, both directions
BLOCK_PLAIN = 16368        # §6, §7.1: the padded plaintext of an encrypted block
HELLO_CONTENT = 192        # §5.1
CLIENT_HELLO_CONTENT = 80  # §5.2
MSG_PADDED = 16066         # §11.1, §2 Padding
ENC_BODY = 16082           # §9.2, §11.1, §13
MAX_BODY = 16048           # §8.11, §13
MAX_TRANSMISSIONS = 255    # §7.1
ID_LEN = 24                # §13: RID, SID, message id
SESSION_ID_LEN = 32        # §5.1
TRANSPORT_VERSION = 1      # §5.4

ED25519_PREFIX = bytes.fromhex("302a300506032b6570032100")  # §2 Public keys
X25519_PREFIX = bytes.fromhex("302a300506032b656e032100")   # §2 Public keys
X448_PREFIX = bytes.fromhex("3042300506032b656f033900")     # §2: "30 42 30 05 06 03 2b 65 6f ..."

INFO_CHAIN_INIT = b"SimpleXSbChainInit"  # §6
INFO_CHAIN = b"SimpleXSbChain"           # §6
QUOTA_PREFIX = b"QUOTA "                 # §11.2

LISTEN_RE = re.compile(r"^listening on (?P<host>[^\s:]+):(?P<port>\d+)$", re.M)
ADDRESS_LINE_RE = re.compile(r"^address: (?P<address>\S+)$", re.M)
# §3 serverAddress, for one IPv4 host and an explicit port (the relay does not run on 5223 here).
ADDRESS_RE = re.compile(r"^smp://(?P<key_hash>[A-Za-z0-9_-]{43}=)@(?P<host>[^,:/@\s]+):(?P<port>\d+)$")


# --- failures --------------------------------------------------------------------------------------

class CheckFailed(Exception):
    """An expectation of the page that the relay did not meet."""


class Skipped(Exception):
    """The check cannot apply in this setup (the reason is printed)."""


class Deadline(BaseException):
    """The run exceeded RUN_BUDGET_S (raised by SIGALRM; not an Exception, so checks don't catch it)."""


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def show(data, limit=40):
    data = bytes(data)
    text = repr(data[:limit])
    return text + (f"…({len(data)} bytes)" if len(data) > limit else "")


# --- §2 encodings ----------------------------------------------------------------------------------

def w16(n):
    return struct.pack(">H", n)


def int64(n):
    return struct.pack(">q", n)


def short(data):
    """shortString: 1-byte length ‖ bytes."""
    if len(data) > 255:
        raise ValueError("shortString longer than 255 bytes")
    return bytes([len(data)]) + bytes(data)


def large(data):
    """Large: Word16 length ‖ bytes."""
    return w16(len(data)) + bytes(data)


def pad(message, size, filler=b"#"):
    """Padding.pad: Word16(len) ‖ message ‖ filler; filler=None means random filler bytes."""
    if len(message) + 2 > size:
        raise ValueError("message too long to pad")
    n = size - 2 - len(message)
    fill = os.urandom(n) if filler is None else (filler * n)[:n]
    return w16(len(message)) + bytes(message) + fill


class ProtocolError(CheckFailed):
    """Bytes from the relay that do not decode as the page says."""


def unpad(padded, what):
    if len(padded) < 2:
        raise ProtocolError(f"{what}: shorter than the padding length")
    n = struct.unpack(">H", padded[:2])[0]
    if n > len(padded) - 2:
        raise ProtocolError(f"{what}: padding length {n} runs past the {len(padded)} bytes")
    return padded[2:2 + n]


class Reader:
    def __init__(self, data, what):
        self.data, self.pos, self.what = bytes(data), 0, what

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ProtocolError(f"{self.what}: truncated (wanted {n} bytes at offset {self.pos}"
                                f" of {len(self.data)})")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def byte(self):
        return self.take(1)[0]

    def w16(self):
        return struct.unpack(">H", self.take(2))[0]

    def short(self):
        return self.take(self.byte())

    def tail(self):
        out = self.data[self.pos:]
        self.pos = len(self.data)
        return out

    def remaining(self):
        return len(self.data) - self.pos

    def end(self):
        if self.pos != len(self.data):
            raise ProtocolError(f"{self.what}: {len(self.data) - self.pos} unexpected bytes after"
                                f" the last field: {show(self.data[self.pos:])}")


def b64url(data):
    return base64.urlsafe_b64encode(data).decode()


# --- §6 block encryption ---------------------------------------------------------------------------

def hkdf_sha512(salt, ikm, info, length):
    """RFC 5869 with SHA-512; an empty salt is 64 zero bytes (§2.2)."""
    prk = hmac.new(salt if salt else bytes(64), ikm, hashlib.sha512).digest()
    okm, t, i = b"", b"", 1
    while len(okm) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha512).digest()
        okm += t
        i += 1
    return okm[:length]


def chain_keys(dh, session_id):
    """(ck_s2c, ck_c2s) from the X25519 secret and the session id."""
    okm = hkdf_sha512(session_id, dh, INFO_CHAIN_INIT, 64)
    return okm[:32], okm[32:64]


class Chain:
    def __init__(self, ck):
        self.ck = ck

    def next(self):
        """(key, nonce) for the next block of this direction; the chain key advances."""
        out = hkdf_sha512(b"", self.ck, INFO_CHAIN, 88)
        self.ck = out[:32]
        return out[32:64], out[64:88]


# --- keys and authorization (§2, §7.3) -------------------------------------------------------------

class EdKey:
    """An Ed25519 queue key: authorization is a 64-byte signature."""

    def __init__(self, seed=None):
        self.seed = seed if seed is not None else os.urandom(32)
        self.pub, self.secret = na.ed25519_seed_keypair(self.seed)
        self.spki = ED25519_PREFIX + self.pub

    def authorize(self, signed, corr, server_session_pub):
        return na.ed25519_sign(signed, self.secret)


class XKey:
    """An X25519 queue key: authorization is an 80-byte crypto_box authenticator (§7.3)."""

    def __init__(self, priv=None):
        self.priv = priv if priv is not None else os.urandom(32)
        self.pub = na.x25519_public(self.priv)
        self.spki = X25519_PREFIX + self.pub

    def authorize(self, signed, corr, server_session_pub):
        k = na.box_beforenm(server_session_pub, self.priv)
        # The nonce is the correlation id, which must be 24 bytes; for the negative tests with
        # another length, a 24-byte nonce is made from it (the relay must refuse either way).
        nonce = corr if len(corr) == 24 else (corr + bytes(24))[:24]
        return na.box_easy_afternm(hashlib.sha512(signed).digest(), nonce, k)


def signed_bytes(session_id, corr, entity, command):
    """§7.3: shortString(sessionId) ‖ shortString(corrId) ‖ shortString(entityId) ‖ command."""
    return short(session_id) + short(corr) + short(entity) + command


def transmission(auth, corr, entity, command, service=b"0"):
    """§7.2: authorization serviceSig corrId entityId command."""
    return short(auth) + service + short(corr) + short(entity) + command


def batch_plaintext(transmissions, trailing=b"", count=None, filler=b"#"):
    """§7.1: pad(count ‖ Large(tx)…, 16368)."""
    n = len(transmissions) if count is None else count
    content = bytes([n]) + b"".join(large(t) for t in transmissions) + trailing
    return pad(content, BLOCK_PLAIN, filler)


# --- §5 hellos -------------------------------------------------------------------------------------

@dataclasses.dataclass
class ServerHello:
    block: bytes
    content: bytes
    version_min: int
    version_max: int
    session_id: bytes
    identity_spki: bytes
    session_spki: bytes
    signature: bytes
    extension: bytes

    @property
    def identity_pub(self):
        return self.identity_spki[12:]

    @property
    def session_pub(self):
        return self.session_spki[12:]

    @property
    def signed(self):
        """§5.1: shortString(sessionId) ‖ SPKI(sessionKey), the SPKI without its length byte."""
        return short(self.session_id) + self.session_spki


def parse_server_hello(block):
    """§5.1 and §5.3, as a client decodes it."""
    if len(block) != BLOCK:
        raise ProtocolError(f"server hello: {len(block)} bytes, not {BLOCK}")
    content = unpad(block, "server hello")
    r = Reader(content, "server hello")
    vmin, vmax = r.w16(), r.w16()
    sid, ident, sess, sig = r.short(), r.short(), r.short(), r.short()
    hello = ServerHello(block, content, vmin, vmax, sid, ident, sess, sig, r.tail())
    if vmin > vmax:
        raise ProtocolError(f"server hello: versionMin {vmin} > versionMax {vmax}")
    if len(sid) != SESSION_ID_LEN:
        raise ProtocolError(f"server hello: session id of {len(sid)} bytes, not 32")
    if len(ident) != 44 or ident[:12] != ED25519_PREFIX:
        raise ProtocolError(f"server hello: identity key is not an Ed25519 SPKI: {ident.hex()}")
    if len(sess) != 44 or sess[:12] != X25519_PREFIX:
        raise ProtocolError(f"server hello: session key is not an X25519 SPKI: {sess.hex()}")
    if len(sig) != 64:
        raise ProtocolError(f"server hello: signature of {len(sig)} bytes, not 64")
    return hello


def client_hello_block(version, key_hash, client_spki, extra=b"", declared_len=None, filler=b"#"):
    """§5.2 (+ §5.3 extra fields): pad(version ‖ shortString(keyHash) ‖ shortString(SPKI), 16384)."""
    content = w16(version) + short(key_hash) + short(client_spki) + extra
    block = pad(content, BLOCK, filler)
    if declared_len is not None:
        block = w16(declared_len) + block[2:]
    return block


# --- a client connection ---------------------------------------------------------------------------

@dataclasses.dataclass
class Tx:
    corr: bytes
    entity: bytes
    command: bytes


def parse_server_transmission(data):
    """§7.2; server transmissions always have an empty authorization and '0': `00 30 …`."""
    r = Reader(data, "server transmission")
    auth = r.short()
    if auth:
        raise ProtocolError(f"server transmission with a {len(auth)}-byte authorization"
                            " (the page: always empty)")
    service = r.take(1)
    if service != b"0":
        raise ProtocolError(f"server transmission with service signature byte {service!r}, not '0'")
    corr, entity = r.short(), r.short()
    return Tx(corr, entity, r.tail())


def parse_batch(plain):
    """§7.1: count (1–255) ‖ Large(transmission) × count, nothing after them."""
    if len(plain) != BLOCK_PLAIN:
        raise ProtocolError(f"block plaintext of {len(plain)} bytes, not {BLOCK_PLAIN}")
    r = Reader(unpad(plain, "block plaintext"), "block content")
    count = r.byte()
    if count == 0:
        raise ProtocolError("a block from the relay with 0 transmissions")
    txs = [parse_server_transmission(r.take(r.w16())) for _ in range(count)]
    r.end()
    return txs


class Conn:
    """One TCP connection to the relay: hellos, block chains, transmissions, replies, events."""

    def __init__(self, relay):
        self.relay = relay
        self.sock = socket.create_connection((relay.host, relay.port), timeout=SOCKET_TIMEOUT)
        self.sock.settimeout(SOCKET_TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # §4
        self.inbox = []
        self.send_chain = self.recv_chain = None
        self.raw_received = []  # encrypted blocks from the relay, as received
        self.hello = parse_server_hello(self.read_block("the server hello"))
        relay.connections.append(self)

    @property
    def session_id(self):
        return self.hello.session_id

    @property
    def server_session_pub(self):
        return self.hello.session_pub

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    # -- raw blocks

    def read_block(self, what):
        data = b""
        while len(data) < BLOCK:
            try:
                chunk = self.sock.recv(BLOCK - len(data))
            except socket.timeout:
                raise CheckFailed(f"timed out ({SOCKET_TIMEOUT:.0f} s) waiting for {what}") from None
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                raise CheckFailed(f"the relay closed the connection while we waited for {what}"
                                  + (f" ({len(data)} bytes of a block received)" if data else ""))
            data += chunk
        return data

    def send_raw(self, data):
        self.sock.sendall(data)

    def expect_closed(self, what):
        """§5.5, §13: the relay closes the connection and sends nothing."""
        received = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise CheckFailed(f"{what}: the connection was still open after"
                                  f" {SOCKET_TIMEOUT:.0f} s (the page: the relay closes it)"
                                  + (f"; {len(received)} bytes received" if received else "")) from None
            except (ConnectionResetError, BrokenPipeError):
                break
            if not chunk:
                break
            received += chunk
        expect(not received, f"{what}: the relay sent {len(received)} bytes before closing"
                             " (the page: close, nothing sent)")

    # -- handshake

    def verify_server(self):
        """§5.5, the client's checks, in order."""
        h = self.hello
        expect(hashlib.sha256(h.identity_spki).digest() == self.relay.key_hash,
               "identityMismatch: SHA-256(SPKI(identityKey)) is not the address's keyHash")
        expect(na.ed25519_verify(h.signature, h.signed, h.identity_pub),
               "badSignature: the hello's signature does not verify over"
               " shortString(sessionId) ‖ SPKI(sessionKey)")
        expect(h.version_min <= TRANSPORT_VERSION <= h.version_max,
               f"incompatibleVersion: server range {h.version_min}–{h.version_max}")

    def client_hello(self, version=TRANSPORT_VERSION, key_hash=None, client_key=None,
                     client_spki=None, extra=b"", declared_len=None, filler=b"#", send=True):
        """Send (or return) the client hello; with a usable X25519 key, set up both chains."""
        key = client_key if client_key is not None else XKey()
        spki = client_spki if client_spki is not None else key.spki
        block = client_hello_block(version, self.relay.key_hash if key_hash is None else key_hash,
                                   spki, extra, declared_len, filler)
        dh = na.x25519(key.priv, self.server_session_pub)
        if dh is not None:
            s2c, c2s = chain_keys(dh, self.session_id)
            self.recv_chain, self.send_chain = Chain(s2c), Chain(c2s)
        if send:
            self.send_raw(block)
        return block

    # -- encrypted blocks

    def seal(self, plaintext):
        key, nonce = self.send_chain.next()
        return na.secretbox_easy(plaintext, nonce, key)

    def send_txs(self, txs, **kw):
        self.send_raw(self.seal(batch_plaintext(txs, **kw)))

    def recv_block(self, what):
        block = self.read_block(what)
        self.raw_received.append(block)
        key, nonce = self.recv_chain.next()
        plain = na.secretbox_open_easy(block, nonce, key)
        if plain is None:
            raise ProtocolError(f"a block from the relay (while waiting for {what}) does not open"
                                " under the next key and nonce of the s2c chain")
        return parse_batch(plain)

    # -- transmissions

    def tx(self, command, entity=b"", key=None, corr=None, auth=None, session_id=None,
           server_key=None, signed_command=None, service=b"0"):
        """(corr, transmission bytes); authorized by `key` unless `auth` is given."""
        corr = os.urandom(ID_LEN) if corr is None else corr
        if auth is None:
            auth = b""
            if key is not None:
                signed = signed_bytes(self.session_id if session_id is None else session_id,
                                      corr, entity,
                                      command if signed_command is None else signed_command)
                auth = key.authorize(signed, corr,
                                     self.server_session_pub if server_key is None else server_key)
        return corr, transmission(auth, corr, entity, command, service)

    def reply(self, corr, what):
        """The transmission with this correlation id; others stay in the inbox."""
        for i, t in enumerate(self.inbox):
            if t.corr == corr:
                return self.inbox.pop(i)
        while True:
            txs = self.recv_block(f"the reply to {what}")
            found = None
            for t in txs:
                if found is None and t.corr == corr:
                    found = t
                else:
                    self.inbox.append(t)
            if found is not None:
                return found

    def until(self, corr, what):
        """Everything received before and including the reply with `corr`, in order."""
        out = []
        while True:
            if self.inbox:
                t = self.inbox.pop(0)
            else:
                self.inbox.extend(self.recv_block(f"the reply to {what}"))
                continue
            out.append(t)
            if t.corr == corr:
                return out

    def event(self, what):
        """The next transmission with an empty correlation id (§9: events)."""
        for i, t in enumerate(self.inbox):
            if t.corr == b"":
                return self.inbox.pop(i)
        while True:
            txs = self.recv_block(what)
            found = None
            for t in txs:
                if found is None and t.corr == b"":
                    found = t
                else:
                    self.inbox.append(t)
            if found is not None:
                return found

    def sync(self, what="PING"):
        """PING round trip; returns whatever arrived before the PONG (and empties the inbox)."""
        corr, t = self.tx(b"PING")
        self.send_txs([t])
        got = self.until(corr, what)
        expect(got[-1].command == b"PONG", f"{what}: PING answered with {show(got[-1].command)}")
        return got[:-1]

    def request(self, command, entity=b"", key=None, **kw):
        corr, t = self.tx(command, entity, key, **kw)
        self.send_txs([t])
        return corr, self.reply(corr, show(command, 12))

    def call(self, what, command, expected, entity=b"", key=None, **kw):
        """Send one command; the reply must be `expected` and echo the correlation and entity ids."""
        corr, rep = self.request(command, entity, key, **kw)
        expect_reply(rep, expected, what, corr, entity)
        return rep


def session(relay, **hello_kw):
    c = Conn(relay)
    c.verify_server()
    c.client_hello(**hello_kw)
    return c


def expect_reply(rep, expected, what, corr=None, entity=None):
    """§8.2: "Replies carry the command's correlation id and entity id"."""
    expect(rep.command == expected, f"{what}: expected {show(expected)}, got {show(rep.command)}")
    if corr is not None:
        expect(rep.corr == corr, f"{what}: the reply's correlation id {rep.corr.hex()} is not the"
                                 f" command's {corr.hex()}")
    if entity is not None:
        expect(rep.entity == entity, f"{what}: the reply's entity id {rep.entity.hex()} is not the"
                                     f" command's {entity.hex()}")


# --- queues and messages ---------------------------------------------------------------------------

@dataclasses.dataclass
class Queue:
    rid: bytes
    sid: bytes
    server_dh: bytes
    dh_priv: bytes
    rkey: object
    mode: bytes
    msg_key: bytes


def new_command(rkey, dh_pub, basic_auth=b"0", sub=b"S", mode=b"M"):
    """§8.3: "NEW " ‖ authKey ‖ dhKey ‖ basicAuth ‖ subMode ‖ queueMode."""
    return b"NEW " + short(rkey.spki) + short(X25519_PREFIX + dh_pub) + basic_auth + sub + mode


def parse_ids(command, what):
    """§9.1: "IDS " ‖ 18 ‖ RID ‖ 18 ‖ SID ‖ 2c ‖ X25519 prefix ‖ serverDhKey ‖ mode, 100 bytes."""
    expect(command.startswith(b"IDS "), f"{what}: expected IDS, got {show(command)}")
    expect(len(command) == 100, f"{what}: IDS is {len(command)} bytes, not 100")
    r = Reader(command[4:], "IDS")
    rid, sid, dh = r.short(), r.short(), r.short()
    mode = r.take(1)
    r.end()
    expect(len(rid) == ID_LEN and len(sid) == ID_LEN, f"{what}: RID/SID not 24 bytes")
    expect(rid != sid, f"{what}: RID == SID")
    expect(len(dh) == 44 and dh[:12] == X25519_PREFIX, f"{what}: server DH key is not an X25519 SPKI")
    return rid, sid, dh[12:], mode


def new_queue(conn, rkey=None, sub=b"S", mode=b"M", what="NEW"):
    rkey = rkey if rkey is not None else EdKey()
    dh_priv = os.urandom(32)
    corr, rep = conn.request(new_command(rkey, na.x25519_public(dh_priv), sub=sub, mode=mode),
                             key=rkey)
    expect(rep.corr == corr, f"{what}: IDS does not carry NEW's correlation id")
    expect(rep.entity == b"", f"{what}: IDS with a non-empty entity id (§8.3: empty)")
    rid, sid, server_dh, got_mode = parse_ids(rep.command, what)
    expect(got_mode == mode, f"{what}: IDS mode {got_mode!r}, NEW asked {mode!r}")
    key = na.box_beforenm(server_dh, dh_priv)
    expect(key is not None, f"{what}: the relay's per-queue DH key is low-order")
    return Queue(rid, sid, server_dh, dh_priv, rkey, mode, key)


@dataclasses.dataclass
class Msg:
    msg_id: bytes
    timestamp: int
    flag: bytes
    body: bytes
    quota: bool


def open_msg(tx, queue, what):
    """§9.2, §11: MSG msgId encBody; crypto_box with the queue's key and nonce = msgId."""
    cmd = tx.command
    expect(cmd.startswith(b"MSG "), f"{what}: expected MSG, got {show(cmd)}")
    expect(tx.entity == queue.rid, f"{what}: MSG entity id is not the queue's RID")
    r = Reader(cmd[4:], "MSG")
    msg_id = r.short()
    enc = r.tail()
    expect(len(msg_id) == ID_LEN, f"{what}: message id of {len(msg_id)} bytes, not 24")
    expect(len(enc) == ENC_BODY, f"{what}: encBody of {len(enc)} bytes, not {ENC_BODY}")
    padded = na.box_open_easy_afternm(enc, msg_id, queue.msg_key)
    expect(padded is not None, f"{what}: encBody does not open with crypto_box_open_easy_afternm"
                               "(nonce = msgId, k = beforenm(serverDhKey, recipientDhPriv))")
    expect(len(padded) == MSG_PADDED, f"{what}: padded plaintext of {len(padded)} bytes,"
                                      f" not {MSG_PADDED}")
    plain = unpad(padded, f"{what}: message plaintext")
    if plain.startswith(QUOTA_PREFIX):
        expect(len(plain) == 14, f"{what}: quota marker of {len(plain)} bytes, not 14"
                                 " ('QUOTA ' ‖ Int64)")
        return Msg(msg_id, struct.unpack(">q", plain[6:])[0], b"", b"", True)
    expect(len(plain) >= 10, f"{what}: message plaintext of {len(plain)} bytes is too short")
    flag = plain[8:9]
    expect(flag in (b"T", b"F"), f"{what}: notify flag {flag!r} is not 'T' or 'F'")
    expect(plain[9:10] == b" ", f"{what}: byte after the flag is {plain[9:10]!r}, not ' '"
                                " (§11.2: the relay writes exactly one flag byte)")
    return Msg(msg_id, struct.unpack(">q", plain[:8])[0], flag, plain[10:], False)


def expect_msg(tx, queue, body, what, flag=b"F", corr=None):
    m = open_msg(tx, queue, what)
    expect(not m.quota, f"{what}: got the quota marker, expected a message")
    expect(m.body == body, f"{what}: body {show(m.body)}, sent {show(body)}")
    expect(m.flag == flag, f"{what}: flag {m.flag!r}, sent {flag!r}")
    now = time.time()
    expect(abs(m.timestamp - now) <= 5, f"{what}: timestamp {m.timestamp} is not the current time"
                                        f" in seconds ({int(now)})")
    if corr is not None:
        expect(tx.corr == corr, f"{what}: MSG does not carry the command's correlation id")
    return m


def ack(conn, queue, msg_id, expected=b"OK", what="ACK"):
    return conn.call(what, b"ACK " + short(msg_id), expected, queue.rid, queue.rkey)


def no_events(conn, what):
    """Nothing but the PONG arrives for a PING sent now (events are sent before later replies)."""
    extra = conn.sync(what)
    expect(not extra, f"{what}: unexpected {', '.join(show(t.command, 8) for t in extra)}")


# --- the relay process -----------------------------------------------------------------------------

class Relay:
    def __init__(self, binary):
        self.binary = binary
        self.root = self.config = self.proc = None
        self.out = self.err = None
        self.host = self.port = self.address = self.key_hash = None
        self.quota = None
        self.quota_note = ""
        self.connections = []
        self.early = None

    def start(self):
        expect(os.access(self.binary, os.X_OK), f"{self.binary} is not an executable file")
        self.root = tempfile.mkdtemp(prefix="smp-conformance-")
        os.chmod(self.root, 0o700)
        self.config = os.path.join(self.root, "config")
        os.mkdir(self.config, 0o700)
        init = subprocess.run([self.binary, "init", "--config", self.config, "--port", "0"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=START_TIMEOUT)
        expect(init.returncode == 0, f"smp-server init exited with {init.returncode}:"
                                     f" {init.stderr.decode(errors='replace').strip()}")
        ini = os.path.join(self.config, "smp-server.ini")
        with open(ini) as f:
            text = f.read()
        text, n = re.subn(r"(?m)^(\s*queue_quota\s*=\s*)\d+\s*$", rf"\g<1>{TEST_QUOTA}", text)
        if n == 1:
            with open(ini, "w") as f:
                f.write(text)
            self.quota = TEST_QUOTA
        else:
            self.quota_note = f"smp-server.ini from init has {n} 'queue_quota = N' lines, not 1"
        self.launch()

    def launch(self):
        """`smp-server start`; read the port and address it prints."""
        self.launches = getattr(self, "launches", 0) + 1
        for f in (self.out, self.err):
            if f is not None:
                f.close()
        self.out = open(os.path.join(self.root, f"stdout.{self.launches}"), "w+b")
        self.err = open(os.path.join(self.root, f"stderr.{self.launches}"), "w+b")
        self.proc = subprocess.Popen([self.binary, "start", "--config", self.config],
                                     stdin=subprocess.DEVNULL, stdout=self.out, stderr=self.err,
                                     start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            text = self.stdout()
            listen, addr = LISTEN_RE.search(text), ADDRESS_LINE_RE.search(text)
            if listen and addr:
                break
            expect(self.proc.poll() is None, f"smp-server start exited with {self.proc.returncode}:"
                                             f" {self.stderr_tail()}")
            expect(time.monotonic() < deadline, f"no 'listening on' and 'address:' lines within"
                                                f" {START_TIMEOUT:.0f} s; stdout: {text!r}")
            time.sleep(0.02)
        self.host, self.port = listen["host"], int(listen["port"])
        self.address = addr["address"]
        m = ADDRESS_RE.match(self.address)
        expect(m is not None, f"address {self.address!r} does not match §3's serverAddress"
                              " (smp://<44-char base64url keyHash>@host:port)")
        self.key_hash = base64.urlsafe_b64decode(m["key_hash"])
        self.address_host, self.address_port = m["host"], int(m["port"])

    def kill(self):
        """SIGKILL, for the restart check: nothing can be flushed on the way out."""
        for c in self.connections:
            c.close()
        self.connections = []
        self.proc.kill()
        self.proc.wait(timeout=5)

    def stdout(self):
        with open(self.out.name, "rb") as f:
            return f.read().decode(errors="replace")

    def stderr_tail(self, n=600):
        if self.err is None:
            return ""
        with open(self.err.name, "rb") as f:
            return f.read().decode(errors="replace")[-n:].strip()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        for c in self.connections:
            c.close()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=2)
        for f in (self.out, self.err):
            if f is not None:
                f.close()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)


# --- checks ----------------------------------------------------------------------------------------

CHECKS = []


def check(name, relay=True):
    def register(fn):
        CHECKS.append((name, fn, relay))
        return fn
    return register


@check("1. server hello: padded layout, versions 1–1, fingerprint = address, signature (§3, §5.1)")
def check_server_hello(relay):
    c = Conn(relay)
    h = c.hello
    b = h.block
    expect(b[:7] == bytes.fromhex("00c00001000120"),
           f"the hello block begins {b[:7].hex()}, not 00c0 0001 0001 20")
    expect(len(h.content) == HELLO_CONTENT, f"hello content of {len(h.content)} bytes, not 192")
    expect(b[2 + HELLO_CONTENT:] == b"#" * (BLOCK - 2 - HELLO_CONTENT),
           "the hello is not followed by 16,190 '#'")
    expect((h.version_min, h.version_max) == (1, 1),
           f"version range {h.version_min}–{h.version_max}, not 1–1")
    expect(h.extension == b"", f"{len(h.extension)} bytes after the signature")
    # §3: address and fingerprint.
    expect(relay.address_host == relay.host and relay.address_port == relay.port,
           f"the address names {relay.address_host}:{relay.address_port}, the relay listens on"
           f" {relay.host}:{relay.port}")
    expect(hashlib.sha256(ED25519_PREFIX + h.identity_pub).digest() == relay.key_hash,
           "SHA-256 of the identity key's SPKI DER is not the address's keyHash")
    canonical = f"smp://{b64url(hashlib.sha256(h.identity_spki).digest())}@{relay.host}:{relay.port}"
    expect(relay.address == canonical, f"address {relay.address!r}, expected {canonical!r}")
    with open(os.path.join(relay.config, "identity.key"), "rb") as f:
        seed = f.read()
    expect(len(seed) == 32, f"identity.key is {len(seed)} bytes, not a 32-byte seed")
    expect(na.ed25519_seed_keypair(seed)[0] == h.identity_pub,
           "the Ed25519 key of identity.key's seed is not the hello's identity key")
    # §5.1: the signature covers exactly 20 ‖ sessionId ‖ X25519 SPKI (77 bytes).
    signed = bytes([0x20]) + h.session_id + X25519_PREFIX + h.session_pub
    expect(len(signed) == 77 and signed == h.signed, "signed bytes are not 77")
    expect(na.ed25519_verify(h.signature, signed, h.identity_pub),
           "the signature does not verify over 20 ‖ sessionId ‖ SPKI(sessionKey)")
    expect(not na.ed25519_verify(h.signature, short(h.session_id) + short(h.session_spki),
                                 h.identity_pub),
           "the signature also verifies with the SPKI's length byte (it should not)")
    # A new session id and session key for every connection, one identity.
    c2 = Conn(relay)
    expect(c2.hello.session_id != h.session_id, "two connections got the same session id")
    expect(c2.hello.session_pub != h.session_pub, "two connections got the same session key")
    expect(c2.hello.identity_pub == h.identity_pub, "two connections got different identity keys")


@check("2. session: PING -> PONG, first relay block holds only the reply (§5.5, §6, §7, §8.12)")
def check_ping(relay):
    c = session(relay)
    corr, t = c.tx(b"PING")
    c.send_txs([t])
    txs = c.recv_block("PONG")  # the relay sends nothing to confirm the hello (§5.5)
    expect(len(txs) == 1, f"the first block from the relay has {len(txs)} transmissions")
    expect_reply(txs[0], b"PONG", "PING", corr, b"")


@check("3. forward compatibility: 12 bytes after clientKey in the client hello (§5.3)")
def check_hello_extension(relay):
    c = session(relay, extra=b"future-field")
    c.call("PING after an extended hello", b"PING", b"PONG")
    new_queue(c, what="NEW after an extended hello")


@check("3b. padding filler is not checked; hello and first block in one write (§2, §5.5)")
def check_filler_pipelining(relay):
    c = session(relay, filler=None)  # random filler after the client hello
    corr, t = c.tx(b"PING")
    c.send_raw(c.seal(batch_plaintext([t], filler=None)))
    expect_reply(c.reply(corr, "PING in a block with random filler"), b"PONG",
                 "PING in a block with random filler", corr, b"")
    p = Conn(relay)
    p.verify_server()
    hello = p.client_hello(send=False)
    corr, t = p.tx(b"PING")
    p.send_raw(hello + p.seal(batch_plaintext([t])))
    expect_reply(p.reply(corr, "pipelined PING"), b"PONG", "PING pipelined with the hello",
                 corr, b"")


@check("4. queue lifecycle: NEW -> IDS, unsecured SEND, MSG decrypts, ACK, ACK again -> NO_MSG"
       " (§8.3, §8.6, §8.11, §9, §11)")
def check_lifecycle(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r)
    expect(q.rkey.spki[:12] == ED25519_PREFIX, "test bug: not an Ed25519 key")
    s.call("unsecured SEND", b"SEND F hello", b"OK", q.sid)
    ev = r.event("MSG to the subscriber (NEW with 'S')")
    expect(ev.corr == b"", "a delivered MSG event has a correlation id")
    m = expect_msg(ev, q, b"hello", "MSG event")
    ack(r, q, m.msg_id, b"OK", "ACK of the message")
    ack(r, q, m.msg_id, b"ERR NO_MSG", "second ACK of the same message")
    r.call("GET after the ACK", b"GET", b"OK", q.rid, q.rkey)


@check("4b. SEND flags and body: T/F, reserved flag bytes, empty, 16,048 OK, 16,049 LARGE_MSG;"
       " NEW 'C' does not subscribe (§8.3, §8.11, §11.2)")
def check_send_body(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r, sub=b"C")
    cases = [(b"SEND T notify", b"notify", b"T", "flag T"),
             (b"SEND Fxyz reserved", b"reserved", b"F", "reserved flag bytes"),
             (b"SEND F ", b"", b"F", "empty body"),
             (b"SEND F with  spaces ", b"with  spaces ", b"F", "body with spaces")]
    big = os.urandom(MAX_BODY)
    cases.append((b"SEND F " + big, big, b"F", "16,048-byte body"))
    for command, body, flag, what in cases:
        s.call(f"SEND, {what}", command, b"OK", q.sid)
        no_events(r, f"after a SEND to a queue made with subMode 'C' ({what})")
        corr, rep = r.request(b"GET", q.rid, q.rkey)
        m = expect_msg(rep, q, body, f"GET after SEND ({what})", flag, corr)
        ack(r, q, m.msg_id, b"OK", f"ACK ({what})")
    s.call("SEND of 16,049 bytes", b"SEND F " + os.urandom(MAX_BODY + 1), b"ERR LARGE_MSG", q.sid)
    r.call("GET after the refused SEND", b"GET", b"OK", q.rid, q.rkey)


@check("5a. KEY with an Ed25519 sender key; signed and unsigned SEND (§8.5, §8.10, §8.11, §7.3)")
def check_key_ed25519(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r)
    sk, other = EdKey(), EdKey()
    r.call("KEY", b"KEY " + short(sk.spki), b"OK", q.rid, q.rkey)
    r.call("KEY again with the same key", b"KEY " + short(sk.spki), b"OK", q.rid, q.rkey)
    r.call("KEY with another key", b"KEY " + short(other.spki), b"ERR AUTH", q.rid, q.rkey)
    s.call("SKEY with the key already set", b"SKEY " + short(sk.spki), b"OK", q.sid, sk)
    s.call("SKEY with another key", b"SKEY " + short(other.spki), b"ERR AUTH", q.sid, other)
    s.call("unauthorized SEND to a secured queue", b"SEND F x", b"ERR AUTH", q.sid)
    s.call("SEND signed by another key", b"SEND F x", b"ERR AUTH", q.sid, other)
    s.call("SEND with an 80-byte authenticator against an Ed25519 key", b"SEND F x", b"ERR AUTH",
           q.sid, XKey())
    s.call("SEND signed by the sender key", b"SEND F signed", b"OK", q.sid, sk)
    m = expect_msg(r.event("MSG"), q, b"signed", "MSG of the signed SEND")
    ack(r, q, m.msg_id)


@check("5b. SKEY with an X25519 sender key; authenticated SEND (§8.10, §8.11, §7.3)")
def check_skey_x25519(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r)
    sk = XKey()
    s.call("SEND authorized on an unsecured queue", b"SEND F x", b"ERR AUTH", q.sid, sk)
    s.call("SKEY authorized by another key", b"SKEY " + short(sk.spki), b"ERR AUTH", q.sid, XKey())
    s.call("SKEY (X25519)", b"SKEY " + short(sk.spki), b"OK", q.sid, sk)
    s.call("SKEY again with the same key", b"SKEY " + short(sk.spki), b"OK", q.sid, sk)
    other = XKey()
    s.call("SKEY with another key", b"SKEY " + short(other.spki), b"ERR AUTH", q.sid, other)
    r.call("KEY with another key after SKEY", b"KEY " + short(other.spki), b"ERR AUTH", q.rid, q.rkey)
    s.call("unauthorized SEND", b"SEND F x", b"ERR AUTH", q.sid)
    s.call("SEND with a 64-byte signature against an X25519 key", b"SEND F x", b"ERR AUTH", q.sid,
           EdKey())
    s.call("SEND with an authenticator and a 23-byte correlation id", b"SEND F x", b"ERR AUTH",
           q.sid, sk, corr=os.urandom(23))
    s.call("SEND with an authenticator by another X25519 key", b"SEND F x", b"ERR AUTH", q.sid,
           other)
    s.call("SEND with the X25519 authenticator", b"SEND T boxed", b"OK", q.sid, sk)
    m = expect_msg(r.event("MSG"), q, b"boxed", "MSG of the authenticated SEND", flag=b"T")
    ack(r, q, m.msg_id)


@check("5c. X25519 recipient key: NEW, SUB, GET, ACK with authenticators (§7.3, §8.3)")
def check_x25519_recipient(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r, rkey=XKey(), what="NEW with an X25519 recipient key")
    r.call("SUB (authenticator) on an empty queue", b"SUB", b"OK", q.rid, q.rkey)
    r.call("SUB with a 64-byte signature against an X25519 key", b"SUB", b"ERR AUTH", q.rid, EdKey())
    s.call("SEND", b"SEND F to-x", b"OK", q.sid)
    m = expect_msg(r.event("MSG"), q, b"to-x", "MSG")
    corr, rep = r.request(b"GET", q.rid, q.rkey)
    expect_msg(rep, q, b"to-x", "GET (authenticator)", corr=corr)
    ack(r, q, m.msg_id, b"OK", "ACK (authenticator)")
    r.call("GET (authenticator) on the empty queue", b"GET", b"OK", q.rid, q.rkey)


@check("5d. authorization is bound to the session (§7.3)")
def check_session_binding(relay):
    r, r2 = session(relay), session(relay)
    q = new_queue(r)
    r2.call("GET signed over the other connection's session id", b"GET", b"ERR AUTH", q.rid,
            q.rkey, session_id=r.session_id)
    qx = new_queue(r, rkey=XKey())
    r2.call("GET with an authenticator for the other connection's session key", b"GET",
            b"ERR AUTH", qx.rid, qx.rkey, server_key=r.server_session_pub)
    r2.call("GET signed for this session", b"GET", b"OK", q.rid, q.rkey)
    r2.call("GET with an authenticator for this session", b"GET", b"OK", qx.rid, qx.rkey)


@check("5e. contact queues: mode 'C', never secured, anyone may send (§1, §8.3, §8.5, §8.10)")
def check_contact_queue(relay):
    r, s1, s2 = session(relay), session(relay), session(relay)
    q = new_queue(r, mode=b"C")
    k = EdKey()
    r.call("KEY on a contact queue", b"KEY " + short(k.spki), b"ERR AUTH", q.rid, q.rkey)
    s1.call("SKEY on a contact queue", b"SKEY " + short(k.spki), b"ERR AUTH", q.sid, k)
    s1.call("SEND from a first sender", b"SEND F one", b"OK", q.sid)
    m = expect_msg(r.event("MSG"), q, b"one", "first MSG")
    s2.call("SEND from a second sender", b"SEND F two", b"OK", q.sid)
    corr, rep = r.request(b"ACK " + short(m.msg_id), q.rid, q.rkey)
    m2 = expect_msg(rep, q, b"two", "ACK reply with the next message", corr=corr)
    ack(r, q, m2.msg_id)


@check("6a. errors: unknown commands -> ERR CMD UNKNOWN (§1, §8.2, §10)")
def check_unknown(relay):
    r = session(relay)
    q = new_queue(r)
    cases = [(b"FROB", False), (b"NKEY " + short(EdKey().spki), True), (b"NSUB", True),
             (b"PONG", False), (b"IDS", False), (b"MSG", False), (b"OK", False), (b"END", True),
             (b"DELD", True), (b"ERR AUTH", False), (b"ping", False), (b"sub", True),
             (b"ABCDEFGHI", False), (b"SUBSCRIBE", True), (b"", False), (b" PING", False)]
    sent = []
    for command, on_queue in cases:
        entity, key = (q.rid, q.rkey) if on_queue else (b"", None)
        corr, t = r.tx(command, entity, key)
        sent.append((corr, t, command, entity))
    r.send_txs([t for _, t, _, _ in sent])  # one block: also checks a batch of commands
    for corr, _, command, entity in sent:
        expect_reply(r.reply(corr, show(command)), b"ERR CMD UNKNOWN", f"command {show(command)}",
                     corr, entity)
    r.call("PING after the errors", b"PING", b"PONG")


@check("6b. errors: arguments that do not parse -> ERR CMD SYNTAX (§8.2, §8.3, §8.11, §10)")
def check_syntax(relay):
    r = session(relay)
    q = new_queue(r)
    k = q.rkey
    dh = na.x25519_public(os.urandom(32))
    x448 = X448_PREFIX + os.urandom(56)
    new = new_command(k, dh)
    cases = [
        ("PING with an argument", b"PING x", b"", None),
        ("SUB with an argument", b"SUB x", q.rid, k),
        ("GET with an argument", b"GET x", q.rid, k),
        ("OFF with an argument", b"OFF x", q.rid, k),
        ("DEL with an argument", b"DEL x", q.rid, k),
        ("ACK without a message id", b"ACK", q.rid, k),
        ("ACK whose shortString runs past the end", b"ACK \x18abc", q.rid, k),
        ("ACK with a byte after the id", b"ACK " + short(os.urandom(24)) + b"x", q.rid, k),
        ("KEY without a key", b"KEY", q.rid, k),
        ("KEY with an X448 key", b"KEY " + short(x448), q.rid, k),
        ("KEY with a 44-byte non-SPKI", b"KEY " + short(os.urandom(44)), q.rid, k),
        ("KEY with a trailing byte", b"KEY " + short(EdKey().spki) + b"x", q.rid, k),
        ("SKEY with an X448 key", b"SKEY " + short(x448), q.sid, k),
        ("SEND with flag 'X'", b"SEND X hello", q.sid, None),
        ("SEND without the space before the body", b"SEND F", q.sid, None),
        ("SEND with reserved bytes and no space", b"SEND Fhello", q.sid, None),
        ("SEND without arguments", b"SEND", q.sid, None),
        ("NEW truncated", b"NEW " + short(k.spki), b"", k),
        ("NEW with an X448 auth key", b"NEW " + short(x448) + new[4 + 45:], b"", k),
        ("NEW with an Ed25519 DH key", new[:4 + 45] + short(ED25519_PREFIX + dh) + b"0SM", b"", k),
        ("NEW with an X448 DH key", new[:4 + 45] + short(x448) + b"0SM", b"", k),
        ("NEW with a low-order DH key", new[:4 + 45] + short(X25519_PREFIX + bytes(32)) + b"0SM",
         b"", k),
        ("NEW with basicAuth 'X'", new[:-3] + b"XSM", b"", k),
        ("NEW with subMode 'Z'", new[:-3] + b"0ZM", b"", k),
        ("NEW with queueMode 'Z'", new[:-3] + b"0SZ", b"", k),
        ("NEW with a trailing byte", new + b"x", b"", k),
    ]
    for what, command, entity, key in cases:
        r.call(what, command, b"ERR CMD SYNTAX", entity, key)
    # basicAuth "1" ‖ shortString is parsed and ignored (§1, §8.3).
    corr, rep = r.request(new_command(k, dh, basic_auth=b"1" + short(b"password")), key=k)
    parse_ids(rep.command, "NEW with basic auth '1' ‖ shortString")
    r.call("GET on the queue after the refused DEL x", b"GET", b"OK", q.rid, k)


@check("6c. credentials: NO_AUTH, HAS_AUTH, NO_ENTITY (§8.1)")
def check_credentials(relay):
    r = session(relay)
    q = new_queue(r)
    k = q.rkey
    dh = na.x25519_public(os.urandom(32))
    r.call("NEW without authorization", new_command(k, dh), b"ERR CMD NO_AUTH")
    r.call("NEW with an entity id", new_command(k, dh), b"ERR CMD HAS_AUTH", q.rid, k)
    r.call("PING with an entity id", b"PING", b"ERR CMD HAS_AUTH", q.rid)
    r.call("PING with an authorization", b"PING", b"ERR CMD HAS_AUTH", b"", k)
    r.call("SEND without an entity id", b"SEND F x", b"ERR CMD NO_ENTITY")
    r.call("SEND without an entity id, signed", b"SEND F x", b"ERR CMD NO_ENTITY", b"", k)
    sk = short(EdKey().spki)
    for command in (b"SUB", b"KEY " + sk, b"ACK " + short(os.urandom(24)), b"GET", b"OFF", b"DEL",
                    b"SKEY " + sk):
        tag = command.split(b" ")[0].decode()
        ent = q.sid if tag == "SKEY" else q.rid
        r.call(f"{tag} without authorization", command, b"ERR CMD NO_AUTH", ent)
        r.call(f"{tag} without an entity id", command, b"ERR CMD NO_AUTH", b"", k)
    r.call("GET on the queue afterwards", b"GET", b"OK", q.rid, k)


@check("6d. ERR AUTH: wrong signature, unknown or wrong-kind ids, NEW not signed by its key"
       " (§8.2, §8.3, §8.11, §10)")
def check_auth_errors(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r)
    k = q.rkey
    r.call("SUB signed by another key", b"SUB", b"ERR AUTH", q.rid, EdKey())
    corr = os.urandom(24)
    sig = bytearray(k.authorize(signed_bytes(r.session_id, corr, q.rid, b"SUB"), corr, None))
    sig[10] ^= 1
    r.call("SUB with a corrupted signature", b"SUB", b"ERR AUTH", q.rid, corr=corr, auth=bytes(sig))
    r.call("GET signed over another command", b"GET", b"ERR AUTH", q.rid, k, signed_command=b"SUB")
    r.call("SUB on an unknown RID", b"SUB", b"ERR AUTH", os.urandom(24), k)
    r.call("SUB with the SID as entity id", b"SUB", b"ERR AUTH", q.sid, k)
    r.call("SUB with a 5-byte entity id", b"SUB", b"ERR AUTH", q.rid[:5], k)
    s.call("SEND to an unknown SID", b"SEND F x", b"ERR AUTH", os.urandom(24))
    s.call("SEND with the RID as entity id", b"SEND F x", b"ERR AUTH", q.rid)
    dh = na.x25519_public(os.urandom(32))
    r.call("NEW authorized by another key", new_command(EdKey(), dh), b"ERR AUTH", b"", EdKey())
    r.call("GET signed by the right key still works", b"GET", b"OK", q.rid, k)


@check("6e. ERR BLOCK: unreadable framing (empty ids), authorization length not 0/64/80 (echoed ids)"
       " (§7.2, §7.3, §10)")
def check_block_errors(relay):
    r = session(relay)
    q = new_queue(r)
    k = q.rkey
    for n in (10, 63, 65, 79, 81):
        r.call(f"SUB with a {n}-byte authorization", b"SUB", b"ERR BLOCK", q.rid, auth=os.urandom(n))
    # Order of §10: unknown tag and syntax come before the authorization length.
    r.call("unknown command with a 10-byte authorization", b"FROB", b"ERR CMD UNKNOWN", q.rid,
           auth=os.urandom(10))
    r.call("syntax error with a 10-byte authorization", b"SUB x", b"ERR CMD SYNTAX", q.rid,
           auth=os.urandom(10))
    c1 = os.urandom(24)
    unreadable = [
        ("service signature '1'", transmission(b"", c1, b"", b"PING", service=b"1")),
        ("service signature byte 'X'", transmission(b"", c1, b"", b"PING", service=b"X")),
        ("empty transmission", b""),
        ("authorization running past the transmission", b"\x40abc"),
        ("correlation id running past the transmission", b"\x000\x18abc"),
        ("no entity id", b"\x000" + short(c1)),
    ]
    for what, bad in unreadable:
        corr, ping = r.tx(b"PING")
        r.send_txs([bad, ping])
        got = r.until(corr, f"PING after a transmission with {what}")
        expect(len(got) == 2, f"{what}: expected ERR BLOCK then PONG, got"
                              f" {[show(t.command, 12) for t in got]}")
        expect_reply(got[0], b"ERR BLOCK", f"transmission with {what}", b"", b"")
        expect_reply(got[1], b"PONG", f"PING after a transmission with {what}", corr, b"")
    r.call("GET afterwards", b"GET", b"OK", q.rid, k)


@check("6f. invalid batches: one ERR BLOCK with empty ids, none of the transmissions run (§7.1)")
def check_batch_errors(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r, sub=b"C")
    _, send = s.tx(b"SEND F must-not-be-stored", q.sid)
    body = large(send)
    bad = [
        ("count 0", pad(b"\x00", BLOCK_PLAIN)),
        ("count 0 followed by a transmission", pad(b"\x00" + body, BLOCK_PLAIN)),
        ("bytes after the last transmission", batch_plaintext([send], trailing=b"zz")),
        ("count 2 with one transmission", batch_plaintext([send], count=2)),
        ("a transmission running past the content", pad(b"\x01" + w16(len(send) + 5) + send,
                                                         BLOCK_PLAIN)),
        ("padding length running past the block", b"\xff\xff" + os.urandom(BLOCK_PLAIN - 2)),
    ]
    for what, plaintext in bad:
        s.send_raw(s.seal(plaintext))
        got = s.sync(f"PING after a block with {what}")
        expect(len(got) == 1, f"block with {what}: expected exactly one ERR BLOCK, got"
                              f" {[show(t.command, 12) for t in got]}")
        expect_reply(got[0], b"ERR BLOCK", f"block with {what}", b"", b"")
    r.call("GET: none of the SENDs in the invalid blocks was stored", b"GET", b"OK", q.rid, q.rkey)


@check("6g. GET on an empty queue -> OK; ACK with nothing delivered or a wrong id -> ERR NO_MSG"
       " (§8.6, §8.7, §9.3)")
def check_get_ack_empty(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r, sub=b"C")
    r.call("GET on an empty queue", b"GET", b"OK", q.rid, q.rkey)
    ack(r, q, os.urandom(24), b"ERR NO_MSG", "ACK on an empty queue")
    s.call("SEND", b"SEND F one", b"OK", q.sid)
    corr, rep = r.request(b"GET", q.rid, q.rkey)
    m = expect_msg(rep, q, b"one", "GET", corr=corr)
    ack(r, q, os.urandom(24), b"ERR NO_MSG", "ACK of another id")
    ack(r, q, m.msg_id[:5], b"ERR NO_MSG", "ACK with a 5-byte id")
    ack(r, q, m.msg_id, b"OK", "ACK of the GET message")
    ack(r, q, m.msg_id, b"ERR NO_MSG", "ACK of it again")


@check("6h. OFF and DEL: SEND refused, queued messages kept, DELD to another subscriber"
       " (§8.8, §8.9, §9.5)")
def check_off_del(relay):
    r, s, r2 = session(relay), session(relay), session(relay)
    q = new_queue(r)
    s.call("SEND one", b"SEND F one", b"OK", q.sid)
    s.call("SEND two", b"SEND F two", b"OK", q.sid)
    m1 = expect_msg(r.event("MSG one"), q, b"one", "MSG one")
    r.call("OFF", b"OFF", b"OK", q.rid, q.rkey)
    s.call("SEND after OFF", b"SEND F three", b"ERR AUTH", q.sid)
    r.call("OFF again", b"OFF", b"OK", q.rid, q.rkey)
    corr, rep = r.request(b"ACK " + short(m1.msg_id), q.rid, q.rkey)
    m2 = expect_msg(rep, q, b"two", "ACK after OFF delivers the queued message", corr=corr)
    ack(r, q, m2.msg_id)
    # DEL with another connection subscribed: it gets DELD.
    q2 = new_queue(r, sub=b"C")
    r2.call("SUB from a second connection", b"SUB", b"OK", q2.rid, q2.rkey)
    r.call("DEL", b"DEL", b"OK", q2.rid, q2.rkey)
    ev = r2.event("DELD")
    expect_reply(ev, b"DELD", "event to the subscriber of a deleted queue", b"", q2.rid)
    r.call("SUB after DEL", b"SUB", b"ERR AUTH", q2.rid, q2.rkey)
    r.call("GET after DEL", b"GET", b"ERR AUTH", q2.rid, q2.rkey)
    r.call("DEL after DEL", b"DEL", b"ERR AUTH", q2.rid, q2.rkey)
    s.call("SEND after DEL", b"SEND F x", b"ERR AUTH", q2.sid)
    # DEL of the queue this connection is subscribed to: only OK.
    q3 = new_queue(r2)
    r2.call("DEL of its own subscribed queue", b"DEL", b"OK", q3.rid, q3.rkey)
    no_events(r2, "after deleting its own subscribed queue (no DELD)")


@check("6i. batching and correlation ids: 255 commands in one block answered in order;"
       " corrId lengths 0, 1, 255 (§7.1, §13)")
def check_batching(relay):
    r = session(relay)
    pings = [r.tx(b"PING") for _ in range(MAX_TRANSMISSIONS)]
    r.send_txs([t for _, t in pings])
    replies = r.recv_block("255 PONGs")
    expect([t.corr for t in replies] == [c for c, _ in pings] and
           all(t.command == b"PONG" for t in replies),
           f"the first reply block has {len(replies)} transmissions, not the 255 PONGs in order"
           " (they fit one block: 'as few blocks as fit')")
    r.call("PING with a 255-byte correlation id", b"PING", b"PONG", corr=os.urandom(255))
    q = new_queue(r)
    r.call("SUB signed with a 1-byte correlation id", b"SUB", b"OK", q.rid, q.rkey, corr=b"c")
    corr, t = r.tx(b"PING", corr=b"")
    r.send_txs([t])
    got = r.recv_block("PONG to a PING with an empty correlation id")
    expect(len(got) == 1, f"{len(got)} transmissions")
    expect_reply(got[0], b"PONG", "PING with an empty correlation id", b"", b"")


@check("6j. a trailing space after an argument-less command is accepted (§16 note 6)")
def check_trailing_space(relay):
    r = session(relay)
    q = new_queue(r)
    r.call("'PING '", b"PING ", b"PONG")
    r.call("'SUB '", b"SUB ", b"OK", q.rid, q.rkey)
    r.call("'GET '", b"GET ", b"OK", q.rid, q.rkey)


@check("6k. SEND checks in the page's order: queue, authorization, size, active, quota (§8.11)")
def check_send_order(relay):
    r, s = session(relay), session(relay)
    big = b"SEND F " + os.urandom(MAX_BODY + 1)
    s.call("oversized SEND to an unknown SID", big, b"ERR AUTH", os.urandom(24))
    sk = EdKey()
    q = new_queue(r, sub=b"C")
    r.call("KEY", b"KEY " + short(sk.spki), b"OK", q.rid, q.rkey)
    s.call("oversized unauthorized SEND to a secured queue", big, b"ERR AUTH", q.sid)
    if relay.quota is not None:
        for i in range(relay.quota):
            s.call(f"SEND {i + 1}", b"SEND F fill", b"OK", q.sid, sk)
        s.call("oversized SEND to a full queue", big, b"ERR LARGE_MSG", q.sid, sk)
    r.call("OFF", b"OFF", b"OK", q.rid, q.rkey)
    s.call("oversized SEND to a suspended queue", big, b"ERR LARGE_MSG", q.sid, sk)
    s.call("SEND to a suspended" + (" full" if relay.quota else "") + " queue", b"SEND F x",
           b"ERR AUTH", q.sid, sk)


@check("6l. the order of §10: framing, tag, arguments, credentials, authorization length (§10)")
def check_error_order(relay):
    r = session(relay)
    q = new_queue(r)
    junk = os.urandom(10)
    cases = [
        ("unknown tag with an entity id and no authorization", b"FROB", q.rid, None, None,
         b"ERR CMD UNKNOWN"),
        ("unknown tag with a 10-byte authorization", b"FROB", b"", None, junk, b"ERR CMD UNKNOWN"),
        ("bad PING arguments with an entity id", b"PING x", q.rid, None, None, b"ERR CMD SYNTAX"),
        ("bad SUB arguments without authorization", b"SUB x", q.rid, None, None, b"ERR CMD SYNTAX"),
        ("bad NEW arguments with an entity id", b"NEW x", q.rid, None, None, b"ERR CMD SYNTAX"),
        ("bad SEND arguments without an entity id", b"SEND X y", b"", None, None,
         b"ERR CMD SYNTAX"),
        ("bad arguments with a 10-byte authorization", b"GET x", q.rid, None, junk,
         b"ERR CMD SYNTAX"),
        ("PING with a 10-byte authorization", b"PING", b"", None, junk, b"ERR CMD HAS_AUTH"),
        ("SUB with a 10-byte authorization and no entity id", b"SUB", b"", None, junk,
         b"ERR CMD NO_AUTH"),
        ("SEND with a 10-byte authorization and no entity id", b"SEND F x", b"", None, junk,
         b"ERR CMD NO_ENTITY"),
        ("SUB with a 10-byte authorization on an unknown RID", b"SUB", os.urandom(24), None, junk,
         b"ERR BLOCK"),
    ]
    for what, command, entity, key, auth, expected in cases:
        r.call(what, command, expected, entity, key, auth=auth)
    _, bad = r.tx(b"FROB x", service=b"1")
    ping_corr, ping = r.tx(b"PING")
    r.send_txs([bad, ping])
    got = r.until(ping_corr, "PING after an unreadable transmission with an unknown tag")
    expect(len(got) == 2, f"expected ERR BLOCK then PONG, got {[show(t.command, 12) for t in got]}")
    expect_reply(got[0], b"ERR BLOCK", "unknown tag in an unreadable transmission (framing first)",
                 b"", b"")


@check("7a. subscriptions: a second SUB elsewhere ends the first with END; SUB redelivers the head"
       " (§8.4, §9.4, §12)")
def check_subscriptions(relay):
    r1, r2, s = session(relay), session(relay), session(relay)
    q = new_queue(r1)
    s.call("SEND one", b"SEND F one", b"OK", q.sid)
    m1 = expect_msg(r1.event("MSG one"), q, b"one", "MSG one to the first subscriber")
    corr, rep = r2.request(b"SUB", q.rid, q.rkey)
    m1b = expect_msg(rep, q, b"one", "SUB reply on the second connection", corr=corr)
    expect(m1b.msg_id == m1.msg_id, "SUB did not redeliver the unACKed head (another message id)")
    ev = r1.event("END")
    expect_reply(ev, b"END", "event to the first subscriber", b"", q.rid)
    ack(r2, q, m1.msg_id, b"OK", "ACK on the second connection")
    s.call("SEND two", b"SEND F two", b"OK", q.sid)
    m2 = expect_msg(r2.event("MSG two"), q, b"two", "MSG two to the new subscriber")
    no_events(r1, "the ended subscriber after SEND two")
    corr, rep = r2.request(b"SUB", q.rid, q.rkey)
    m2b = expect_msg(rep, q, b"two", "SUB again on the subscribed connection", corr=corr)
    expect(m2b.msg_id == m2.msg_id, "a repeated SUB did not redeliver the head")
    no_events(r2, "SUB again on the subscribed connection (no END)")
    ack(r2, q, m2.msg_id)
    r2.call("SUB on an empty queue", b"SUB", b"OK", q.rid, q.rkey)
    no_events(r2, "SUB again, empty queue")


@check("7b. delivery: one message outstanding, the next one after ACK, whoever ACKs (§8.6, §12)")
def check_outstanding(relay):
    r, r2, s = session(relay), session(relay), session(relay)
    q = new_queue(r)
    s.call("SEND a", b"SEND F a", b"OK", q.sid)
    s.call("SEND b", b"SEND F b", b"OK", q.sid)
    ma = expect_msg(r.event("MSG a"), q, b"a", "MSG a")
    no_events(r, "a second message while the first is outstanding")
    corr, rep = r.request(b"ACK " + short(ma.msg_id), q.rid, q.rkey)
    mb = expect_msg(rep, q, b"b", "the subscriber's ACK reply is the next MSG", corr=corr)
    ack(r, q, mb.msg_id, b"OK", "ACK of the last message")
    s.call("SEND c", b"SEND F c", b"OK", q.sid)
    s.call("SEND d", b"SEND F d", b"OK", q.sid)
    mc = expect_msg(r.event("MSG c"), q, b"c", "MSG c")
    ack(r2, q, mc.msg_id, b"OK", "ACK by a connection that is not the subscriber")
    expect_msg(r.event("MSG d after another connection's ACK"), q, b"d", "MSG d event")
    no_events(r2, "the ACKing connection gets no MSG")


@check("7c. GET: the head until ACKed, allowed while subscribed, leaves subscriptions alone"
       " (§8.7, §12)")
def check_get(relay):
    r1, r2, s = session(relay), session(relay), session(relay)
    q = new_queue(r1)
    s.call("SEND one", b"SEND F one", b"OK", q.sid)
    m1 = expect_msg(r1.event("MSG one"), q, b"one", "MSG one")
    ids = []
    for what in ("GET", "GET again"):
        corr, rep = r2.request(b"GET", q.rid, q.rkey)
        ids.append(expect_msg(rep, q, b"one", f"{what} from another connection", corr=corr).msg_id)
    expect(ids == [m1.msg_id] * 2, "GET did not return the head message until it was ACKed")
    corr, rep = r1.request(b"GET", q.rid, q.rkey)
    expect_msg(rep, q, b"one", "GET on the subscribed connection (not PROHIBITED)", corr=corr)
    no_events(r1, "the subscriber after GETs elsewhere (no END)")
    s.call("SEND two", b"SEND F two", b"OK", q.sid)
    no_events(r1, "SEND two while one is outstanding")
    ack(r2, q, m1.msg_id, b"OK", "ACK by the GET connection")
    expect_msg(r1.event("MSG two"), q, b"two", "MSG two to the undisturbed subscriber")


@check("8. quota: queue_quota messages, then the QUOTA marker, SEND refused until it is ACKed"
       " (§11.2, §11.3)")
def check_quota(relay):
    if relay.quota is None:
        raise Skipped(relay.quota_note)
    r, s = session(relay), session(relay)
    q = new_queue(r, sub=b"C")
    for i in range(relay.quota):
        s.call(f"SEND {i + 1} of {relay.quota}", b"SEND F m%d" % i, b"OK", q.sid)
    s.call("SEND over the quota", b"SEND F over", b"ERR QUOTA", q.sid)
    s.call("SEND over the quota again", b"SEND F over2", b"ERR QUOTA", q.sid)
    corr, rep = r.request(b"SUB", q.rid, q.rkey)
    for i in range(relay.quota):
        m = expect_msg(rep, q, b"m%d" % i, f"message {i + 1}", corr=corr)
        corr, rep = r.request(b"ACK " + short(m.msg_id), q.rid, q.rkey)
    marker = open_msg(rep, q, "after the last message")
    expect(marker.quota, "after the stored messages came a message, not the quota marker")
    expect(abs(marker.timestamp - time.time()) <= 5, "quota marker timestamp is not now")
    s.call("SEND while only the marker is left", b"SEND F early", b"ERR QUOTA", q.sid)
    ack(r, q, marker.msg_id, b"OK", "ACK of the quota marker")
    s.call("SEND after the marker is ACKed", b"SEND F again", b"OK", q.sid)
    m = expect_msg(r.event("MSG after the quota"), q, b"again", "MSG after the quota")
    ack(r, q, m.msg_id)


def bad_hello_cases(relay):
    kh = relay.key_hash
    good = XKey()
    return [
        ("a wrong key hash", dict(key_hash=os.urandom(32))),
        ("version 2", dict(version=2)),
        ("version 0", dict(version=0)),
        ("a 31-byte key hash", dict(key_hash=kh[:31])),
        ("an Ed25519 client key", dict(client_spki=ED25519_PREFIX + good.pub)),
        ("a low-order (all-zero) client key", dict(client_key=XKey(bytes(32)),
                                                    client_spki=X25519_PREFIX + bytes(32))),
        ("a padding length past the block", dict(declared_len=0xFFFF)),
        ("a key field running past the content", dict(declared_len=50)),
    ]


def garbage_hello(conn):
    conn.send_raw(os.urandom(BLOCK))


@check("9a. closing: malformed client hellos close the connection, nothing sent (§5.5, §13)")
def check_bad_hellos(relay):
    for what, kw in bad_hello_cases(relay):
        c = Conn(relay)
        c.verify_server()
        c.client_hello(**kw)
        if c.send_chain is not None:  # also ask something, to see that nothing answers
            _, t = c.tx(b"PING")
            try:
                c.send_txs([t])
            except OSError:
                pass
        c.expect_closed(f"client hello with {what}")
    c = Conn(relay)
    garbage_hello(c)
    c.expect_closed("a random 16,384-byte client hello")


@check("9b. closing: undecryptable blocks after the handshake close the connection (§6, §13)")
def check_bad_blocks(relay):
    c = session(relay)
    c.send_raw(os.urandom(BLOCK))
    c.expect_closed("a garbage block")

    c = session(relay)
    _, t = c.tx(b"PING")
    c.send_raw(pad(b"\x01" + large(t), BLOCK))
    c.expect_closed("a plaintext block")

    c = session(relay)
    corr, t = c.tx(b"PING")
    block = c.seal(batch_plaintext([t]))
    c.send_raw(block)
    expect_reply(c.reply(corr, "PING"), b"PONG", "PING before the replay", corr, b"")
    c.send_raw(block)
    c.expect_closed("a replayed block")

    c = session(relay)
    first = c.seal(batch_plaintext([c.tx(b"PING")[1]]))
    second = c.seal(batch_plaintext([c.tx(b"PING")[1]]))
    c.send_raw(second + first)
    c.expect_closed("blocks out of order")

    c = session(relay)
    tampered = bytearray(c.seal(batch_plaintext([c.tx(b"PING")[1]])))
    tampered[100] ^= 1
    c.send_raw(bytes(tampered))
    c.expect_closed("a tampered block")

    c = session(relay)
    corr, t = c.tx(b"PING")
    c.send_txs([t])
    c.reply(corr, "PING")
    c.send_raw(c.raw_received[0])
    c.expect_closed("a reflected block (the relay's own)")


@check("9c. a partial block at close is discarded (§4)")
def check_partial_block(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r, sub=b"C")
    _, t = s.tx(b"SEND F partial", q.sid)
    s.send_raw(s.seal(batch_plaintext([t]))[:BLOCK // 2])
    s.sock.shutdown(socket.SHUT_WR)
    s.expect_closed("after a partial block and our close")
    r.call("GET: the SEND in the partial block was not stored", b"GET", b"OK", q.rid, q.rkey)


@check("9d. the relay keeps serving after the closed connections (§13)")
def check_still_serving(relay):
    expect(relay.alive(), f"the relay exited: {relay.stderr_tail()}")
    expect(relay.early is not None, "no connection was opened at the start")
    relay.early.call("PING on a connection opened before the checks", b"PING", b"PONG")
    c = session(relay)
    c.call("PING on a new connection", b"PING", b"PONG")
    q = new_queue(c)
    c.call("GET on a new queue", b"GET", b"OK", q.rid, q.rkey)


# --- §6 and §15 vectors, copied from docs/smp-protocol.md -----------------------------------------

# §6 "Test vectors": dh = 01 02 … 20, sessionId = 40 41 … 5f.
CHAIN_VECTORS = {
    ("s2c", 0): ("60ce8ff51c3640edffd0d4f2b024450cdf1d5750b394ce0790a093dda855e64a",
                 "795b78a0ec54c83fdc17cf98a73158710207e24cfad446f7"),
    ("s2c", 1): ("915d7db5a9e81845e805f58cfefcf5afa7df0843377c705ad0964d6d5eab0daf",
                 "25643f31e3b73fea894715fcc3e80ef5fd077b1d843ddea9"),
    ("c2s", 0): ("add6e4bcf19479da82e697b1cdfe9513c1e5e9593730c353dbfd30b1b6dd091b",
                 "c78644520e9057ab1b1a40da149ee0dbe1df48b3306aaf04"),
    ("c2s", 1): ("6ef201ff719890b67bfb795ce8bcc562a61ec569d14b06c3712c3b8429edb3fc",
                 "df3f063d13b13f59f38ae5652325507750c524bfb8cedde5"),
}

# §15 "Worked example": outputs for the fixed inputs 11×32 … cc×32 of its Inputs table.
EXAMPLE = {
    "identity_pub": "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737",
    "key_hash": "503d8ee46d581c649966569ae095e27041de83322e8e0480e5539e00d2d5d874",
    "address": "smp://UD2O5G1YHGSZZlaa4JXicEHegzIujgSA5VOeANLV2HQ=@localhost",
    "session_pub": "0faa684ed28867b97f4a6a2dee5df8ce974e76b7018e3f22a1c4cf2678570f20",
    "hello_signature": "70b8260feb1051047ff427074cdda9b54257651d7396496a60adb6f876cf8545"
                       "f6b14920bddfdf5c1bf73a82898fafa1a58f974bdfb48bdc8bd7019bde69d00e",
    "server_hello_sha256": "663129688d64d3dd5897539ee4ea3c8187bb04f54ef26e1d073ad5cae42cc7f6",
    "client_pub": "ff2ee45601ec1b67310c7790404585ae697331eee1c1f8cf2419731c1fff3e6b",
    "client_hello_sha256": "cb6881ea3779fa2dde7766bf407c9d1ca819b210e2607daf32ba2423d86119f6",
    "dh": "d31a1338a14cf92083e61f66bf842151cf156318bcddc07e42443937c05dd640",
    "ck_s2c": "a2bb6baba97bd1108664abcdcc118fa6422180e7730e4e3b73b6edee9e0cf8c7",
    "ck_c2s": "2fc8b3542c8ee679824ea853f766a7cd63b6a518097a626ddbbd6eae441eb014",
    "c2s0_key": "6c4c934f24c57ec2eded61d43d825e2142228d03bd55ad45a81d0e741f31c6c8",
    "c2s0_nonce": "97f7a444d5a993674ecc919f11a2f2984c2940221b5e85b3",
    "c2s0_next": "577ca7ec6be4fa5f8337dd7d05e2d3670a98a85bfaa814f5f31493e2c7fdc604",
    "s2c0_key": "a2a96fe9f2d8c867582c904a766d23fa04c98b13232f4c39b91a6f16a99ccdbc",
    "s2c0_nonce": "8299fe362caf0e70892212677dfb1a03f7643731b1da9a0c",
    "s2c0_next": "9a51d81fb860f8889bcec2747496800ee817655745e5d9b5102deac611ee2166",
    "recipient_auth_pub": "c6822637c7d310ec57627be00ba259d253749f4aaf644470cffbe53a35f73242",
    "recipient_dh_pub": "219e4d800da968d2a5fcb009c784f4746c7138edb9ee4844b739e830b05cf424",
    "new_signature": "49deb53d7a64e93b61aacb88507ce96c29a5ccccca1c69e0a07e076fc789c874"
                     "e9ddb681b9b327df9c55441488383b692ba99c2478cd44818b8ba62544aee106",
    "new_block_begins": ("45de329a956a390ac37fa6ba9c41f80b", "38e2b135fbdded4e9e34fd272dce33a6"),
    "new_block_sha256": "6d0bd0a8c66433fa69771a621d8273c494cb19608813a59c849916eb83e31021",
    "queue_pub": "14ca9e4d387bccf35746e0407daaacc6b28a4f8445ef5a5158894db983e24070",
    "ids_block_begins": ("1c720e6e5d838ee1ba34ce4919053392", "bd89caf5e37ea019476f7c7e6d800332"),
    "ids_block_sha256": "e6a21b007c32bd5c2f4352dc8fbe796c880e82d49835ed586dca45327b83a3cb",
    "msg_key": "470de0a6b1b498d61690c76cf9a6d1f3c0bfed4f94ece617cb20bb755755c58c",
    "msg_plaintext": "000000006553f100462068656c6c6f",
    "enc_body_begins": ("991fa9f2ff5e4802f6839ee26a20b121", "48f88ee695818be56a194cc2b17597fd"),
    "enc_body_sha256": "8429f2b5e24892503f0a1b603e0c6d42456d699fa21b8a754e94b0babbf7e2ef",
    "x_auth_pub": "e8980c4ea5ebf8fb6c281098b75cdd32862922a638778251979b6d322ed7e02e",
    "x_auth_k": "05ceb1ce52ae7fe7e8f596a2fa31a327643d9578cfe1ddfe91307da54449ecab",
    "authenticator": "e94c856cbfe914dda281812d43c0cd8a82d237837b7f3e3e585920d812b2d387"
                     "f6b535b7e3a5ce7a20164d812a1ba0df93219cfcfb72d36a9adef3b58bf2eeb5"
                     "089992d44a08a7770a62c4c6077aa125",
}


def expect_hex(actual, name, expected=None):
    expected = EXAMPLE[name] if expected is None else expected
    expect(actual.hex() == expected, f"{name}: computed {actual.hex()}, the page says {expected}")


@check("10a. §6 chain test vectors (dh = 01…20, sessionId = 40…5f)", relay=False)
def check_chain_vectors(relay):
    expect(INFO_CHAIN_INIT.hex(" ") == "53 69 6d 70 6c 65 58 53 62 43 68 61 69 6e 49 6e 69 74",
           "info SimpleXSbChainInit bytes")
    expect(INFO_CHAIN.hex(" ") == "53 69 6d 70 6c 65 58 53 62 43 68 61 69 6e", "info bytes")
    s2c, c2s = chain_keys(bytes(range(1, 33)), bytes(range(0x40, 0x60)))
    for direction, ck in (("s2c", s2c), ("c2s", c2s)):
        chain = Chain(ck)
        for i in range(2):
            key, nonce = chain.next()
            want_key, want_nonce = CHAIN_VECTORS[(direction, i)]
            expect_hex(key, f"{direction} block {i} key", want_key)
            expect_hex(nonce, f"{direction} block {i} nonce", want_nonce)


@check("10b. §15 worked example recomputed from its inputs", relay=False)
def check_worked_example(relay):
    X = bytes.fromhex
    # Step 1: identity and address.
    id_pub, id_secret = na.ed25519_seed_keypair(b"\x11" * 32)
    expect_hex(id_pub, "identity_pub")
    key_hash = hashlib.sha256(ED25519_PREFIX + id_pub).digest()
    expect_hex(key_hash, "key_hash")
    address = "smp://" + b64url(key_hash) + "@localhost"
    expect(address == EXAMPLE["address"], f"address {address}")
    # Step 2: server hello.
    sess_priv, sid = b"\x22" * 32, b"\x33" * 32
    sess_pub = na.x25519_public(sess_priv)
    expect_hex(sess_pub, "session_pub")
    signed = short(sid) + X25519_PREFIX + sess_pub
    expect(len(signed) == 77, "signed bytes are not 77")
    sig = na.ed25519_sign(signed, id_secret)
    expect_hex(sig, "hello_signature")
    content = w16(1) + w16(1) + short(sid) + short(ED25519_PREFIX + id_pub) \
        + short(X25519_PREFIX + sess_pub) + short(sig)
    hello = pad(content, BLOCK)
    expect(len(content) == 192 and hello.count(b"#", 194) == 16190, "server hello layout")
    expect(hello[:7] == X("00c00001000120"), "server hello begins 00c0 0001 0001 20")
    expect_hex(hashlib.sha256(hello).digest(), "server_hello_sha256")
    parsed = parse_server_hello(hello)
    expect(na.ed25519_verify(parsed.signature, parsed.signed, parsed.identity_pub),
           "this script's decoder does not verify the example hello")
    # Step 3: client hello.
    cli_priv = b"\x44" * 32
    cli_pub = na.x25519_public(cli_priv)
    expect_hex(cli_pub, "client_pub")
    chello = client_hello_block(1, key_hash, X25519_PREFIX + cli_pub)
    expect(chello[:5] == X("0050000120") and chello.count(b"#", 82) == 16302, "client hello layout")
    expect_hex(hashlib.sha256(chello).digest(), "client_hello_sha256")
    # Step 4: chains.
    dh = na.x25519(cli_priv, sess_pub)
    expect(dh == na.x25519(sess_priv, cli_pub), "the two X25519 sides differ")
    expect_hex(dh, "dh")
    ck_s2c, ck_c2s = chain_keys(dh, sid)
    expect_hex(ck_s2c, "ck_s2c")
    expect_hex(ck_c2s, "ck_c2s")
    c2s, s2c = Chain(ck_c2s), Chain(ck_s2c)
    c2s_key, c2s_nonce = c2s.next()
    s2c_key, s2c_nonce = s2c.next()
    for name, value in (("c2s0_key", c2s_key), ("c2s0_nonce", c2s_nonce), ("c2s0_next", c2s.ck),
                        ("s2c0_key", s2c_key), ("s2c0_nonce", s2c_nonce), ("s2c0_next", s2c.ck)):
        expect_hex(value, name)
    # Step 5: NEW.
    rkey = EdKey(b"\x55" * 32)
    rdh_priv = b"\x66" * 32
    rdh_pub = na.x25519_public(rdh_priv)
    expect_hex(rkey.pub, "recipient_auth_pub")
    expect_hex(rdh_pub, "recipient_dh_pub")
    corr = b"\x77" * 24
    command = new_command(rkey, rdh_pub)
    expect(len(command) == 97 and command.endswith(X("30534d")), "NEW command layout (97 bytes)")
    signed_new = signed_bytes(sid, corr, b"", command)
    expect(len(signed_new) == 156 and signed_new[:1] == b"\x20"
           and signed_new[33:59] == b"\x18" + corr + b"\x00", "NEW signed bytes layout (156)")
    new_sig = rkey.authorize(signed_new, corr, sess_pub)
    expect_hex(new_sig, "new_signature")
    tx = transmission(new_sig, corr, b"", command)
    expect(len(tx) == 189 and tx[:1] == b"\x40" and tx[65:66] == b"0", "NEW transmission (189)")
    block_content = b"\x01" + large(tx)
    expect(len(block_content) == 192 and block_content[:3] == X("0100bd"), "NEW block content")
    padded = batch_plaintext([tx])
    expect(padded[:2] == X("00c0") and padded.count(b"#", 194) == 16174, "NEW padded block")
    block = na.secretbox_easy(padded, c2s_nonce, c2s_key)
    expect(len(block) == BLOCK, "NEW block size")
    expect_hex(block[:32], "new_block_begins", "".join(EXAMPLE["new_block_begins"]))
    expect_hex(hashlib.sha256(block).digest(), "new_block_sha256")
    # Step 6: IDS.
    rid, snd = b"\x88" * 24, b"\x99" * 24
    q_priv = b"\xaa" * 32
    q_pub = na.x25519_public(q_priv)
    expect_hex(q_pub, "queue_pub")
    ids = b"IDS " + short(rid) + short(snd) + short(X25519_PREFIX + q_pub) + b"M"
    parse_ids(ids, "example IDS")
    ids_tx = transmission(b"", corr, b"", ids)
    expect(len(ids_tx) == 128 and ids_tx[:2] == X("0030"), "IDS transmission (128)")
    expect(len(b"\x01" + large(ids_tx)) == 131, "IDS block content (131)")
    ids_block = na.secretbox_easy(batch_plaintext([ids_tx]), s2c_nonce, s2c_key)
    expect_hex(ids_block[:32], "ids_block_begins", "".join(EXAMPLE["ids_block_begins"]))
    expect_hex(hashlib.sha256(ids_block).digest(), "ids_block_sha256")
    txs = parse_batch(na.secretbox_open_easy(ids_block, s2c_nonce, s2c_key))
    expect(len(txs) == 1 and txs[0].command == ids, "this script's decoder on the example IDS")
    # Step 7: a delivered message.
    k = na.box_beforenm(q_pub, rdh_priv)
    expect(k == na.box_beforenm(rdh_pub, q_priv), "the two beforenm sides differ")
    expect_hex(k, "msg_key")
    plain = int64(1_700_000_000) + b"F" + b" " + b"hello"
    expect_hex(plain, "msg_plaintext")
    msg_padded = pad(plain, MSG_PADDED)
    expect(msg_padded[:2] == X("000f") and msg_padded.count(b"#", 17) == 16049, "message padding")
    msg_id = b"\xbb" * 24
    enc = na.box_easy_afternm(msg_padded, msg_id, k)
    expect(len(enc) == ENC_BODY, "encBody size")
    expect_hex(enc[:32], "enc_body_begins", "".join(EXAMPLE["enc_body_begins"]))
    expect_hex(hashlib.sha256(enc).digest(), "enc_body_sha256")
    event = transmission(b"", b"", rid, b"MSG " + short(msg_id) + enc)
    expect(len(event) == 16139 and event[:4] == X("00300018"), "MSG event (16,139 bytes)")
    q = Queue(rid, snd, q_pub, rdh_priv, rkey, b"M", k)
    m = open_msg(parse_server_transmission(event), q, "example MSG")
    expect((m.timestamp, m.flag, m.body) == (1_700_000_000, b"F", b"hello"), "example MSG opens")
    # Step 8: an X25519 authenticator.
    xkey = XKey(b"\xcc" * 32)
    expect_hex(xkey.pub, "x_auth_pub")
    signed_sub = signed_bytes(sid, corr, rid, b"SUB")
    k2 = na.box_beforenm(sess_pub, xkey.priv)
    expect(k2 == na.box_beforenm(xkey.pub, sess_priv), "the two authenticator keys differ")
    expect_hex(k2, "x_auth_k")
    auth = xkey.authorize(signed_sub, corr, sess_pub)
    expect(len(auth) == 80, "authenticator is not 80 bytes")
    expect_hex(auth, "authenticator")


@check("10c. the vectors copied into this script are the page's (§6, §15)", relay=False)
def check_vectors_in_page(relay):
    if not os.path.exists(PAGE):
        raise Skipped(f"{PAGE} not found")
    with open(PAGE, encoding="utf-8") as f:
        page = re.sub(r"\s+", "", f.read())
    values = [v for pair in CHAIN_VECTORS.values() for v in pair]
    for v in EXAMPLE.values():
        values.extend(v if isinstance(v, tuple) else [v])
    missing = [v for v in values if v not in page]
    expect(not missing, f"not in {os.path.relpath(PAGE, REPO)}: {missing}")


@check("11. restart after kill -9: identity, queues, sender keys and messages persist; the unACKed"
       " head is delivered again (§3, §8.11, §12)")
def check_restart(relay):
    r, s = session(relay), session(relay)
    q = new_queue(r)
    sk = XKey()
    s.call("SKEY", b"SKEY " + short(sk.spki), b"OK", q.sid, sk)
    s.call("SEND one", b"SEND F one", b"OK", q.sid, sk)
    s.call("SEND two", b"SEND T two", b"OK", q.sid, sk)
    m1 = expect_msg(r.event("MSG one"), q, b"one", "MSG one before the restart")
    key_hash, old = relay.key_hash, relay.address
    relay.kill()
    relay.launch()
    expect(relay.key_hash == key_hash, f"the identity changed: {old} -> {relay.address}")
    r, s = session(relay), session(relay)
    corr, rep = r.request(b"SUB", q.rid, q.rkey)
    again = expect_msg(rep, q, b"one", "SUB after the restart", corr=corr)
    expect(again.msg_id == m1.msg_id, "the head has another message id after the restart")
    s.call("unauthorized SEND after the restart (the sender key persisted)", b"SEND F x",
           b"ERR AUTH", q.sid)
    corr, rep = r.request(b"ACK " + short(m1.msg_id), q.rid, q.rkey)
    m2 = expect_msg(rep, q, b"two", "ACK reply after the restart", flag=b"T", corr=corr)
    ack(r, q, m2.msg_id)
    s.call("authorized SEND after the restart", b"SEND F three", b"OK", q.sid, sk)
    expect_msg(r.event("MSG three"), q, b"three", "MSG after the restart")


# --- runner ----------------------------------------------------------------------------------------

def main(argv):
    binary = os.path.abspath(argv[1]) if len(argv) > 1 else DEFAULT_BINARY
    started = time.monotonic()
    passed = failed = 0

    def report(name, error=None, skipped=False):
        nonlocal passed, failed
        if skipped:
            print(f"skipped: {name}: {error}", flush=True)
        elif error is None:
            passed += 1
            print(f"ok: {name}", flush=True)
        else:
            failed += 1
            print(f"FAILED: {name}: {error}", flush=True)

    def on_alarm(signum, frame):
        raise Deadline()

    def on_term(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_term)
    signal.alarm(RUN_BUDGET_S)
    relay = Relay(binary)
    pending = list(CHECKS)
    name = start_name = "0. relay: init --port 0, start, 'listening on' and 'address:' lines (§3, §4)"
    try:
        try:
            relay.start()
            relay.early = session(relay)
            report(start_name)
        except Exception as e:  # noqa: BLE001 - any failure is a FAILED line
            report(start_name, f"{e}" if isinstance(e, CheckFailed) else f"{type(e).__name__}: {e}")
        started_ok = relay.alive() and relay.early is not None
        while pending:
            name, fn, needs_relay = pending.pop(0)
            if needs_relay and not started_ok:
                report(name, "not run: the relay did not start")
                continue
            if needs_relay and not relay.alive():
                report(name, f"not run: the relay exited ({relay.proc.returncode}):"
                             f" {relay.stderr_tail()}")
                continue
            try:
                fn(relay)
                if needs_relay and not relay.alive():
                    raise CheckFailed(f"the relay exited ({relay.proc.returncode}):"
                                      f" {relay.stderr_tail()}")
                report(name)
            except Skipped as e:
                report(name, str(e), skipped=True)
            except CheckFailed as e:
                report(name, str(e))
            except Exception as e:  # noqa: BLE001
                report(name, f"{type(e).__name__}: {e}")
    except Deadline:
        report(name, f"the run exceeded its {RUN_BUDGET_S} s budget")
        for name, _, _ in pending:
            report(name, f"not run: the run exceeded its {RUN_BUDGET_S} s budget")
    finally:
        signal.alarm(0)
        relay.stop()
    print(f"run time {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

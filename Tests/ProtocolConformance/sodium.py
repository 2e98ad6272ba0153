"""The few libsodium primitives the SMP conformance test needs, through ctypes.

libsodium.so.23 is installed with the build dependencies (libsodium-dev), so no Python package
is needed. Every function takes and returns `bytes`. Functions that can fail on bad input
(open, verify, a low-order X25519 key) return None or False instead of raising, so a test can
assert on the result; a wrong argument size is a bug in the caller and raises ValueError.
"""

import ctypes
import ctypes.util

_NAMES = ("libsodium.so.23", ctypes.util.find_library("sodium") or "libsodium.so")


def _load():
    errors = []
    for name in _NAMES:
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(f"{name}: {e}")
    raise OSError("libsodium not found (" + "; ".join(errors) + ")")


_L = _load()
if _L.sodium_init() < 0:
    raise OSError("sodium_init failed")

_p = ctypes.c_char_p
_u64 = ctypes.c_ulonglong
_int = ctypes.c_int


def _sig(name, *args):
    f = getattr(_L, name)
    f.argtypes = list(args)
    f.restype = _int
    return f


_ed_seed_keypair = _sig("crypto_sign_ed25519_seed_keypair", _p, _p, _p)
_ed_sign = _sig("crypto_sign_ed25519_detached", _p, ctypes.POINTER(_u64), _p, _u64, _p)
_ed_verify = _sig("crypto_sign_ed25519_verify_detached", _p, _p, _u64, _p)
_x_base = _sig("crypto_scalarmult_curve25519_base", _p, _p)
_x_mult = _sig("crypto_scalarmult_curve25519", _p, _p, _p)
_box_beforenm = _sig("crypto_box_curve25519xsalsa20poly1305_beforenm", _p, _p, _p)
_box_afternm = _sig("crypto_box_easy_afternm", _p, _p, _u64, _p, _p)
_box_open_afternm = _sig("crypto_box_open_easy_afternm", _p, _p, _u64, _p, _p)
_secretbox = _sig("crypto_secretbox_easy", _p, _p, _u64, _p, _p)
_secretbox_open = _sig("crypto_secretbox_open_easy", _p, _p, _u64, _p, _p)

MAC_BYTES = 16


def _need(value, size, what):
    if not isinstance(value, (bytes, bytearray)) or len(value) != size:
        raise ValueError(f"{what} must be {size} bytes")


def ed25519_seed_keypair(seed):
    """(public key 32 bytes, secret key 64 bytes) from a 32-byte seed."""
    _need(seed, 32, "seed")
    pk, sk = ctypes.create_string_buffer(32), ctypes.create_string_buffer(64)
    if _ed_seed_keypair(pk, sk, bytes(seed)) != 0:
        raise OSError("crypto_sign_ed25519_seed_keypair failed")
    return pk.raw, sk.raw


def ed25519_sign(message, secret_key):
    """Detached 64-byte Ed25519 signature (RFC 8032)."""
    _need(secret_key, 64, "secret key")
    sig = ctypes.create_string_buffer(64)
    if _ed_sign(sig, None, bytes(message), len(message), bytes(secret_key)) != 0:
        raise OSError("crypto_sign_ed25519_detached failed")
    return sig.raw


def ed25519_verify(signature, message, public_key):
    if len(signature) != 64 or len(public_key) != 32:
        return False
    return _ed_verify(bytes(signature), bytes(message), len(message), bytes(public_key)) == 0


def x25519_public(private_key):
    _need(private_key, 32, "private key")
    out = ctypes.create_string_buffer(32)
    if _x_base(out, bytes(private_key)) != 0:
        raise OSError("crypto_scalarmult_curve25519_base failed")
    return out.raw


def x25519(private_key, public_key):
    """The raw X25519 shared secret, or None if it is all zeros (low-order public key)."""
    _need(private_key, 32, "private key")
    _need(public_key, 32, "public key")
    out = ctypes.create_string_buffer(32)
    if _x_mult(out, bytes(private_key), bytes(public_key)) != 0:
        return None
    return out.raw


def box_beforenm(public_key, private_key):
    """crypto_box_beforenm: the 32-byte XSalsa20-Poly1305 key, or None for a low-order key."""
    _need(public_key, 32, "public key")
    _need(private_key, 32, "private key")
    out = ctypes.create_string_buffer(32)
    if _box_beforenm(out, bytes(public_key), bytes(private_key)) != 0:
        return None
    return out.raw


def box_easy_afternm(message, nonce, key):
    """crypto_box_easy_afternm: tag(16) ‖ ciphertext."""
    _need(nonce, 24, "nonce")
    _need(key, 32, "key")
    out = ctypes.create_string_buffer(len(message) + MAC_BYTES)
    if _box_afternm(out, bytes(message), len(message), bytes(nonce), bytes(key)) != 0:
        raise OSError("crypto_box_easy_afternm failed")
    return out.raw


def box_open_easy_afternm(box, nonce, key):
    """The plaintext, or None if the box does not authenticate."""
    _need(nonce, 24, "nonce")
    _need(key, 32, "key")
    if len(box) < MAC_BYTES:
        return None
    out = ctypes.create_string_buffer(len(box) - MAC_BYTES)
    if _box_open_afternm(out, bytes(box), len(box), bytes(nonce), bytes(key)) != 0:
        return None
    return out.raw


def secretbox_easy(message, nonce, key):
    """crypto_secretbox_easy (XSalsa20-Poly1305): tag(16) ‖ ciphertext."""
    _need(nonce, 24, "nonce")
    _need(key, 32, "key")
    out = ctypes.create_string_buffer(len(message) + MAC_BYTES)
    if _secretbox(out, bytes(message), len(message), bytes(nonce), bytes(key)) != 0:
        raise OSError("crypto_secretbox_easy failed")
    return out.raw


def secretbox_open_easy(box, nonce, key):
    """The plaintext, or None if the box does not authenticate."""
    _need(nonce, 24, "nonce")
    _need(key, 32, "key")
    if len(box) < MAC_BYTES:
        return None
    out = ctypes.create_string_buffer(len(box) - MAC_BYTES)
    if _secretbox_open(out, bytes(box), len(box), bytes(nonce), bytes(key)) != 0:
        return None
    return out.raw

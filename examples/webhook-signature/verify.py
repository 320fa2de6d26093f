#!/usr/bin/env python3
"""Verifies a `recommend --notify-url` delivery signed with `--notify-secret`.

    verify.py SECRET 'MENURANK-SIGNATURE HEADER' < body

Exits 0 when the signature is valid and fresh, 1 otherwise. A receiver does the same with the raw
request body, before it parses the JSON.
"""
import hashlib, hmac, sys, time

TOLERANCE = 300  # seconds: refuse deliveries signed longer ago than this (replays)


def verify(secret: bytes, header: str, body: bytes, now: float) -> bool:
    parts = dict(item.split("=", 1) for item in header.split(",") if "=" in item)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > TOLERANCE:
        return False
    expected = hmac.new(secret, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts.get("v1", ""))


if __name__ == "__main__":
    ok = verify(sys.argv[1].encode(), sys.argv[2], sys.stdin.buffer.read(), time.time())
    print("valid" if ok else "invalid")
    sys.exit(0 if ok else 1)

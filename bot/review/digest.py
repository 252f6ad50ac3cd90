"""The opt-in morning digest of due reviews."""

from __future__ import annotations

DIGEST_HOUR = 8  # local hour the digest goes out, in the member's time zone

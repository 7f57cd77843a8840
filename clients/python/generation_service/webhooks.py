"""Verifying the signature of a webhook delivery (docs/api.md, "Webhooks"; domain/webhook-signature.ts).

The ``X-Service-Signature`` header is ``t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<raw body>">``,
with one ``v1=`` per live secret while a secret is being rotated. A delivery is genuine when any
``v1=`` matches any of the receiver's secrets and ``t`` is within the tolerance of the receiver's
clock (so a captured delivery cannot be replayed later). Comparisons are constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Sequence
from typing import Any

from .errors import WebhookVerificationError

SIGNATURE_HEADER = "X-Service-Signature"
DEFAULT_TOLERANCE_SECONDS = 300


def _parse(header: str) -> tuple[int, list[str]]:
    timestamp: int | None = None
    signatures: list[str] = []
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if key == "t":
            try:
                timestamp = int(value)
            except ValueError as err:
                raise WebhookVerificationError(f"the signature header's t= is not a unix time: {value!r}") from err
        elif key == "v1":
            signatures.append(value)
    if timestamp is None:
        raise WebhookVerificationError("the signature header has no t= timestamp")
    if not signatures:
        raise WebhookVerificationError("the signature header has no v1= signature")
    return timestamp, signatures


def verify_webhook(
    raw_body: bytes | str,
    header: str | None,
    secret_or_secrets: str | Sequence[str],
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    *,
    now: float | None = None,
) -> Any:
    """Checks a delivery and returns its parsed JSON event; raises WebhookVerificationError if it is not genuine.

    ``raw_body`` must be the bytes as received (not re-serialized JSON). Pass every secret you
    accept (the new and the previous one during a rotation) as a list.
    """
    if not header:
        raise WebhookVerificationError(f"no {SIGNATURE_HEADER} header")
    secrets = [secret_or_secrets] if isinstance(secret_or_secrets, str) else list(secret_or_secrets)
    if not secrets:
        raise WebhookVerificationError("no secret to verify with")
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)
    timestamp, signatures = _parse(header)
    clock = time.time() if now is None else now
    if abs(clock - timestamp) > tolerance_seconds:
        raise WebhookVerificationError(f"the signature's timestamp is {abs(clock - timestamp):.0f} s from now, beyond the {tolerance_seconds} s tolerance")
    signed = str(timestamp).encode("ascii") + b"." + body
    matched = False
    for secret in secrets:
        expected = hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()
        for signature in signatures:
            # No early exit: every pair is compared, in constant time each.
            matched |= hmac.compare_digest(expected, signature)
    if not matched:
        raise WebhookVerificationError("no v1= signature matches the secret(s): the body was changed, or the secret is wrong")
    try:
        return json.loads(body)
    except ValueError as err:
        raise WebhookVerificationError("the signed body is not JSON") from err

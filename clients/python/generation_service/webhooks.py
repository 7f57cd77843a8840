"""Verifying the signature of a webhook delivery (docs/api.md, "Webhooks"; domain/webhook-signature.ts).

The ``X-Service-Signature`` header is ``t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<raw body>">``,
with one ``v1=`` per live secret while a secret is being rotated. A delivery is genuine when any
``v1=`` matches any of the receiver's secrets and ``t`` is within the tolerance of the receiver's
clock (so a captured delivery cannot be replayed later). Comparisons are constant-time.

Each delivery also carries the Standard Webhooks headers (https://www.standardwebhooks.com):
``webhook-id`` (the event's id), ``webhook-timestamp`` (unix seconds) and ``webhook-signature``,
space-separated ``v1,<base64 HMAC-SHA-256 of "<id>.<timestamp>.<raw body>">``, one per live secret,
keyed with the bytes the secret's base64 part (after ``whsec_``) decodes to. ``verify_standard_webhook``
checks those with the same rules.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import WebhookVerificationError

SIGNATURE_HEADER = "X-Service-Signature"
STANDARD_HEADERS = ("webhook-id", "webhook-timestamp", "webhook-signature")
DEFAULT_TOLERANCE_SECONDS = 300
_SECRET_PREFIX = "whsec_"


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
    secrets = _secrets(secret_or_secrets)
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)
    timestamp, signatures = _parse(header)
    _check_timestamp(timestamp, tolerance_seconds, now)
    signed = str(timestamp).encode("ascii") + b"." + body
    matched = False
    for secret in secrets:
        expected = hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()
        for signature in signatures:
            # No early exit: every pair is compared, in constant time each.
            matched |= hmac.compare_digest(expected, signature)
    if not matched:
        raise WebhookVerificationError("no v1= signature matches the secret(s): the body was changed, or the secret is wrong")
    return _parse_event(body)


def _secrets(secret_or_secrets: str | Sequence[str]) -> list[str]:
    secrets = [secret_or_secrets] if isinstance(secret_or_secrets, str) else list(secret_or_secrets)
    if not secrets:
        raise WebhookVerificationError("no secret to verify with")
    return secrets


def _check_timestamp(timestamp: int, tolerance_seconds: float, now: float | None) -> None:
    clock = time.time() if now is None else now
    if abs(clock - timestamp) > tolerance_seconds:
        raise WebhookVerificationError(f"the signature's timestamp is {abs(clock - timestamp):.0f} s from now, beyond the {tolerance_seconds} s tolerance")


def _parse_event(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError as err:
        raise WebhookVerificationError("the signed body is not JSON") from err


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is not None:
        return value
    # A plain dict may hold the names in any case; HTTP header names are case-insensitive.
    return next((v for k, v in headers.items() if k.lower() == name), None)


def _standard_key(secret: str) -> bytes | None:
    """The HMAC key of a secret: its base64 part, decoded; None for one that does not decode (it matches nothing)."""
    encoded = secret[len(_SECRET_PREFIX) :] if secret.startswith(_SECRET_PREFIX) else secret
    try:
        return base64.b64decode(encoded, validate=True) or None
    except (binascii.Error, ValueError):
        return None


def verify_standard_webhook(
    raw_body: bytes | str,
    headers: Mapping[str, str],
    secret_or_secrets: str | Sequence[str],
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    *,
    now: float | None = None,
) -> Any:
    """Checks a delivery's Standard Webhooks headers and returns its parsed JSON event; raises WebhookVerificationError if it is not genuine.

    ``headers`` is the request's headers (any mapping; names are matched case-insensitively).
    ``raw_body`` must be the bytes as received. Pass the ``whsec_...`` secret as shown, or every
    secret you accept during a rotation as a list.
    """
    webhook_id, timestamp_text, signature_header = (_header(headers, name) for name in STANDARD_HEADERS)
    if not webhook_id or not timestamp_text or not signature_header:
        raise WebhookVerificationError("no webhook-id, webhook-timestamp and webhook-signature headers")
    if not timestamp_text.isascii() or not timestamp_text.isdigit():
        raise WebhookVerificationError(f"the webhook-timestamp header is not unix seconds: {timestamp_text!r}")
    keys = [key for key in map(_standard_key, _secrets(secret_or_secrets)) if key is not None]
    if not keys:
        raise WebhookVerificationError("no secret is whsec_<base64>: no Standard Webhooks key derives from it")
    timestamp = int(timestamp_text)
    _check_timestamp(timestamp, tolerance_seconds, now)
    signatures = [value for version, sep, value in (part.partition(",") for part in signature_header.split(" ")) if sep and version == "v1" and value]
    if not signatures:
        raise WebhookVerificationError("the webhook-signature header has no v1,<signature>")
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)
    signed = f"{webhook_id}.{timestamp}.".encode() + body
    matched = False
    for key in keys:
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode("ascii")
        for signature in signatures:
            # No early exit: every pair is compared, in constant time each.
            matched |= hmac.compare_digest(expected, signature)
    if not matched:
        raise WebhookVerificationError("no v1, signature matches the secret(s): the id, timestamp or body was changed, or the secret is wrong")
    return _parse_event(body)

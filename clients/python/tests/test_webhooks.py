"""A webhook delivered by the service to a local HTTPS receiver, verified with ``verify_webhook`` and
``verify_standard_webhook``; tampering refused. The Standard Webhooks checks are also held to the
specification's published example (what its stock libraries sign)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.server
import json
import ssl
import threading
import time
from collections.abc import Iterator

import pytest

from generation_service import SIGNATURE_HEADER, STANDARD_HEADERS, Client, WebhookVerificationError, verify_standard_webhook, verify_webhook


class Receiver:
    """An HTTPS server on 127.0.0.1 that keeps every POST's raw body, signature header and Standard Webhooks headers."""

    def __init__(self, cert_file: str, key_file: str) -> None:
        self.received: list[tuple[bytes, str | None]] = []
        self.standard_headers: list[dict[str, str]] = []
        self.arrived = threading.Event()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.received.append((body, self.headers.get(SIGNATURE_HEADER)))
                outer.standard_headers.append({name: self.headers.get(name, "") for name in STANDARD_HEADERS})
                outer.arrived.set()
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert_file, key_file)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def receiver(receiver_tls: tuple[str, str]) -> Iterator[Receiver]:
    r = Receiver(*receiver_tls)
    yield r
    r.close()


def test_a_delivered_webhook_verifies_and_a_tampered_body_is_refused(client: Client, receiver: Receiver) -> None:
    webhook = client.webhooks.create(url=receiver.url, events=["generation.completed"])
    try:
        generation = client.images.create(model="flux-schnell", prompt="hooked from python")
        assert receiver.arrived.wait(30), "no delivery reached the receiver"
        raw, header = receiver.received[0]
        event = verify_webhook(raw, header, webhook.secret)
        assert event["type"] == "generation.completed"
        assert event["data"]["generation_id"] == generation.id

        tampered = raw.replace(generation.id.encode(), b"gen_forged")
        with pytest.raises(WebhookVerificationError):
            verify_webhook(tampered, header, webhook.secret)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(raw, header, "whsec_not_the_secret")
        # During a rotation the receiver passes both secrets; any match is enough.
        assert verify_webhook(raw, header, ["whsec_the_old_one", webhook.secret])["id"] == event["id"]

        # The same delivery's Standard Webhooks headers, with the secret as shown.
        standard = receiver.standard_headers[0]
        assert standard["webhook-id"] == event["id"]
        assert verify_standard_webhook(raw, standard, webhook.secret)["id"] == event["id"]
        assert verify_standard_webhook(raw, standard, [OTHER_SECRET, webhook.secret])["id"] == event["id"]
        for changed_body, changed_headers in [
            (tampered, standard),
            (raw, {**standard, "webhook-id": "evt_forged"}),
            (raw, {**standard, "webhook-timestamp": str(int(standard["webhook-timestamp"]) - 1)}),
        ]:
            with pytest.raises(WebhookVerificationError):
                verify_standard_webhook(changed_body, changed_headers, webhook.secret)
        with pytest.raises(WebhookVerificationError):
            verify_standard_webhook(raw, standard, OTHER_SECRET)
    finally:
        client.webhooks.delete(webhook.id)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def test_a_header_with_one_v1_per_live_secret_verifies_with_either_secret() -> None:
    body = json.dumps({"id": "evt_1", "type": "generation.completed"}).encode()
    now = int(time.time())
    header = f"t={now},v1={sign('whsec_old', now, body)},v1={sign('whsec_new', now, body)}"
    assert verify_webhook(body, header, "whsec_old")["id"] == "evt_1"
    assert verify_webhook(body.decode(), header, "whsec_new")["id"] == "evt_1"
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, header, "whsec_other")


def test_a_timestamp_outside_the_tolerance_or_a_malformed_header_is_refused() -> None:
    body = b'{"id":"evt_2"}'
    old = int(time.time()) - 301
    with pytest.raises(WebhookVerificationError, match="tolerance"):
        verify_webhook(body, f"t={old},v1={sign('whsec_s', old, body)}", "whsec_s")
    assert verify_webhook(body, f"t={old},v1={sign('whsec_s', old, body)}", "whsec_s", tolerance_seconds=600)["id"] == "evt_2"
    for header in ["", "v1=abc", "t=abc,v1=abc", f"t={int(time.time())}"]:
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body, header, "whsec_s")


OTHER_SECRET = "whsec_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd"


def standard_sign(secret: str, webhook_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    return "v1," + base64.b64encode(hmac.new(key, f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()


def test_the_standard_webhooks_specifications_example_verifies_and_any_change_is_refused() -> None:
    # https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md (its worked example).
    secret, body, timestamp = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", b'{"test": 2432232314}', 1614265330
    headers = {"webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "webhook-timestamp": str(timestamp), "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="}
    assert standard_sign(secret, headers["webhook-id"], timestamp, body) == headers["webhook-signature"]
    assert verify_standard_webhook(body, headers, secret, now=timestamp + 300) == {"test": 2432232314}
    # Header names in any case (a plain dict of what a framework handed over).
    assert verify_standard_webhook(body, {k.title(): v for k, v in headers.items()}, secret, now=timestamp) == {"test": 2432232314}
    for changed_body, changed_headers in [
        (b'{"test": 2432232315}', headers),
        (body, {**headers, "webhook-id": "msg_other"}),
        (body, {**headers, "webhook-timestamp": str(timestamp + 1)}),
    ]:
        with pytest.raises(WebhookVerificationError, match="no v1, signature matches"):
            verify_standard_webhook(changed_body, changed_headers, secret, now=timestamp)
    with pytest.raises(WebhookVerificationError, match="no v1, signature matches"):
        verify_standard_webhook(body, headers, OTHER_SECRET, now=timestamp)
    for late in (timestamp + 301, timestamp - 301):
        with pytest.raises(WebhookVerificationError, match="tolerance"):
            verify_standard_webhook(body, headers, secret, now=late)
    assert verify_standard_webhook(body, headers, secret, tolerance_seconds=600, now=timestamp + 301)["test"] == 2432232314


def test_both_standard_signatures_of_a_rotation_verify_each_with_its_own_secret() -> None:
    previous, following = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", OTHER_SECRET
    body, now = b'{"id":"evt_3"}', int(time.time())
    first, second = standard_sign(previous, "evt_3", now, body), standard_sign(following, "evt_3", now, body)
    headers = {"webhook-id": "evt_3", "webhook-timestamp": str(now), "webhook-signature": f"{first} {second}"}
    assert verify_standard_webhook(body, headers, previous)["id"] == "evt_3"
    assert verify_standard_webhook(body.decode(), headers, following)["id"] == "evt_3"
    assert verify_standard_webhook(body, {**headers, "webhook-signature": second}, following)["id"] == "evt_3"
    with pytest.raises(WebhookVerificationError):
        verify_standard_webhook(body, {**headers, "webhook-signature": first}, following)


def test_missing_or_malformed_standard_headers_are_refused() -> None:
    body, now = b'{"id":"evt_4"}', int(time.time())
    good = {"webhook-id": "evt_4", "webhook-timestamp": str(now), "webhook-signature": standard_sign(OTHER_SECRET, "evt_4", now, body)}
    for headers, message in [
        ({}, "no webhook-id"),
        ({**good, "webhook-signature": ""}, "no webhook-id"),
        ({**good, "webhook-timestamp": "soon"}, "not unix seconds"),
        ({**good, "webhook-signature": "v2,abc"}, "no v1,"),
    ]:
        with pytest.raises(WebhookVerificationError, match=message):
            verify_standard_webhook(body, headers, OTHER_SECRET)
    with pytest.raises(WebhookVerificationError, match="no secret"):
        verify_standard_webhook(body, good, [])
    with pytest.raises(WebhookVerificationError, match="no secret is whsec_<base64>"):
        verify_standard_webhook(body, good, "whsec_not-base64!")
    # A secret that is not base64 matches nothing, and does not stop the next one from matching.
    assert verify_standard_webhook(body, good, ["whsec_not-base64!", OTHER_SECRET])["id"] == "evt_4"

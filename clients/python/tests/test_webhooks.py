"""A webhook delivered by the service to a local HTTPS receiver, verified with ``verify_webhook``; tampering refused."""

from __future__ import annotations

import hashlib
import hmac
import http.server
import json
import ssl
import threading
import time
from collections.abc import Iterator

import pytest

from generation_service import SIGNATURE_HEADER, Client, WebhookVerificationError, verify_webhook


class Receiver:
    """An HTTPS server on 127.0.0.1 that keeps every POST's raw body and signature header."""

    def __init__(self, cert_file: str, key_file: str) -> None:
        self.received: list[tuple[bytes, str | None]] = []
        self.arrived = threading.Event()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.received.append((body, self.headers.get(SIGNATURE_HEADER)))
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

"""Idempotency (an automatic key on every POST, a retry charged once), typed 402 and 429, and retries honouring Retry-After."""

from __future__ import annotations

import uuid

import httpx
import pytest

from generation_service import BillingError, Client, InvalidRequestError, RateLimitError
from generation_service.models import Generation


def recording_http_client(log: list[tuple[httpx.Request, httpx.Response]]) -> httpx.Client:
    def on_response(response: httpx.Response) -> None:
        log.append((response.request, response))

    return httpx.Client(timeout=60, event_hooks={"response": [on_response]})


def test_every_post_carries_a_fresh_uuid4_idempotency_key_unless_one_is_given(base_url: str, api_key: str) -> None:
    log: list[tuple[httpx.Request, httpx.Response]] = []
    with Client(api_key, base_url, http_client=recording_http_client(log)) as client:
        made = [
            client.images.create(model="flux-schnell", prompt="key one"),
            client.images.create(model="flux-schnell", prompt="key two"),
            client.images.create(model="flux-schnell", prompt="key three", idempotency_key="my-own-key-" + uuid.uuid4().hex),
        ]
        client.balance.get()
        # Finished before the next test reads the balance.
        for generation in made:
            client.generations.wait(generation.id, timeout=60)
    keys = [request.headers.get("idempotency-key") for request, _ in log[:4]]
    assert uuid.UUID(keys[0]).version == 4 and uuid.UUID(keys[1]).version == 4
    assert keys[0] != keys[1]
    assert keys[2].startswith("my-own-key-")
    assert keys[3] is None, "a GET carries no Idempotency-Key"


def test_an_idempotent_retry_answers_the_same_generation_and_is_charged_once(client: Client) -> None:
    before = client.balance.get().available_credits
    key = str(uuid.uuid4())
    first = client.images.create(model="flux-schnell", prompt="charged once", idempotency_key=key)
    again = client.images.create(model="flux-schnell", prompt="charged once", idempotency_key=key)
    assert isinstance(first, Generation) and isinstance(again, Generation)
    assert again.id == first.id
    done = client.generations.wait(first.id, timeout=60)
    assert done.charged_credits > 0
    assert before - client.balance.get().available_credits == done.charged_credits


def test_the_same_key_with_another_body_is_a_typed_invalid_request(client: Client) -> None:
    key = str(uuid.uuid4())
    first = client.images.create(model="flux-schnell", prompt="first body", idempotency_key=key)
    client.generations.wait(first.id, timeout=60)
    with pytest.raises(InvalidRequestError) as raised:
        client.images.create(model="flux-schnell", prompt="another body", idempotency_key=key)
    assert (raised.value.status, raised.value.code) == (422, "idempotency_key_reused")


def test_an_empty_wallet_raises_billing_error_with_type_code_and_request_id(base_url: str, empty_wallet_key: str) -> None:
    with Client(empty_wallet_key, base_url) as client:
        with pytest.raises(BillingError) as raised:
            client.images.create(model="flux-schnell", prompt="no credits")
        error = raised.value
        assert (error.status, error.type, error.code) == (402, "billing_error", "insufficient_credits")
        assert error.request_id and error.message
        assert client.balance.get().available_credits == 0


def test_a_validation_failure_names_its_param(client: Client) -> None:
    with pytest.raises(InvalidRequestError) as raised:
        client.images.create(model="flux-schnell", prompt="bad size", num_outputs=1000)
    assert (raised.value.status, raised.value.code, raised.value.param) == (400, "validation_failed", "num_outputs")


def drain(base_url: str, key: str) -> RateLimitError:
    """Spends the key's bucket until the service refuses; the refusal, as the client raised it without retrying."""
    with Client(key, base_url, max_retries=0) as impatient:
        with pytest.raises(RateLimitError) as raised:
            for _ in range(200):
                impatient.balance.get()
    return raised.value


def test_429_is_raised_as_rate_limit_error_then_retried_after_retry_after_with_the_same_key(base_url: str, rate_limited_key: str) -> None:
    # The organization allows 60 requests a minute: a burst of 60, then one token a second.
    error = drain(base_url, rate_limited_key)
    assert (error.status, error.type, error.code) == (429, "rate_limit_error", "rate_limited")
    assert error.request_id
    assert error.retry_after is not None and 0 < error.retry_after <= 2

    # A token may come back between the drain's refusal and the next request (one a second): then
    # the POST is not refused and proves nothing about retries, so drain and try again.
    for _ in range(3):
        log: list[tuple[httpx.Request, httpx.Response]] = []
        with Client(rate_limited_key, base_url, max_retries=5, http_client=recording_http_client(log)) as patient:
            created = patient.images.create(model="flux-schnell", prompt="after the wait")
        if log[0][1].status_code == 429:
            break
        drain(base_url, rate_limited_key)
    else:
        pytest.fail("the POST right after draining the bucket was never refused")
    statuses = [response.status_code for _, response in log]
    assert statuses[0] == 429 and statuses[-1] in (200, 202), statuses
    keys = {request.headers["idempotency-key"] for request, _ in log}
    assert len(keys) == 1, "every retry resends the same Idempotency-Key"
    assert created.id

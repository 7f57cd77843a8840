"""Every modality through ``client.<modality>.create`` and ``generations.wait``, sync and async, and pagination."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from generation_service import AsyncClient, Client
from generation_service.models import ChatCompletion, Generation

# (client attribute, the generation's modality, the request) for each modality; upscale is below (it needs an image).
REQUESTS: list[tuple[str, str, dict[str, Any]]] = [
    ("images", "image", {"model": "flux-schnell", "prompt": "a kite over a beach"}),
    ("videos", "video", {"model": "hailuo-02", "prompt": "a paper boat on a canal"}),
    ("voice", "voice", {"model": "openai-tts-1", "text": "Hello from the Python client."}),
    ("music", "music", {"model": "minimax-music-v2", "prompt": "a calm piano loop", "duration_s": 15}),
    ("avatars", "avatar", {"model": "veed-avatars", "text": "Welcome to the demo."}),
    ("three_d", "3d", {"model": "tripo-v2.5-text", "prompt": "a wooden chair", "mesh_complexity": "low"}),
]


def finished(client: Client, created: Generation | ChatCompletion) -> Generation | ChatCompletion:
    return created if str(created.status) in ("succeeded", "failed", "canceled") else client.generations.wait(created.id, timeout=120)


@pytest.mark.parametrize(("attribute", "modality", "request_body"), REQUESTS, ids=[r[0] for r in REQUESTS])
def test_each_modality_creates_and_waits_to_a_charged_success(client: Client, attribute: str, modality: str, request_body: dict[str, Any]) -> None:
    created = getattr(client, attribute).create(**request_body)
    assert isinstance(created, Generation)
    assert str(created.modality) == modality
    done = finished(client, created)
    assert isinstance(done, Generation)
    assert str(done.status) == "succeeded", done.to_dict()
    assert done.charged_credits > 0
    assert done.reserved_credits == done.charged_credits + done.refunded_credits
    assert done.outputs and done.outputs[0].url.startswith("http")


def test_upscale_takes_an_image_the_service_made(client: Client) -> None:
    image = finished(client, client.images.create(model="flux-schnell", prompt="a small lighthouse"))
    assert isinstance(image, Generation) and image.outputs
    done = finished(client, client.upscale.create(model="real-esrgan", image_url=image.outputs[0].url, scale_factor="2"))
    assert isinstance(done, Generation)
    assert (str(done.modality), str(done.status)) == ("upscale", "succeeded")


def test_chat_answers_a_chat_completion_with_the_assistant_message(client: Client) -> None:
    done = client.chat.create(model="gpt-5-mini", messages=[{"role": "user", "content": "Say hello."}])
    if isinstance(done, Generation):
        done = client.generations.wait(done.id, timeout=60)
    assert isinstance(done, ChatCompletion), done
    assert str(done.status) == "succeeded"
    assert done.message.content
    assert done.charged_credits > 0


def test_pagination_walks_every_page_of_a_modality(client: Client) -> None:
    made = [finished(client, client.images.create(model="flux-schnell", prompt=f"page test {i}")).id for i in range(3)]
    seen = [g.id for g in client.generations.list(modality="image", page_size=2)]
    assert set(made) <= set(seen)
    assert len(seen) == len(set(seen)), "a page repeated an item"
    assert all(str(g.modality) == "image" for g in client.generations.list(modality="image", page_size=2))
    assert not any(g.id in made for g in client.generations.list(modality="video", page_size=2))


def test_async_client_creates_waits_and_paginates(base_url: str, api_key: str) -> None:
    async def scenario() -> None:
        async with AsyncClient(api_key, base_url) as client:
            created = await client.videos.create(model="hailuo-02", prompt="waves, async")
            done = await client.generations.wait(created.id, timeout=120)
            assert isinstance(done, Generation)
            assert str(done.status) == "succeeded"
            ids = [g.id async for g in client.generations.list(modality="video", page_size=1)]
            assert done.id in ids
            comparison = await client.comparisons.create(prompt="a red kite", models=["flux-schnell", "flux-dev"])
            verdict = await client.comparisons.wait(comparison.id, timeout=120)
            assert str(verdict.status) == "succeeded"

    asyncio.run(scenario())

"""A comparison from ``comparisons.create`` to its verdict with ``comparisons.wait``."""

from __future__ import annotations

from generation_service import Client


def test_a_comparison_reaches_its_verdict_with_one_generation_per_model(client: Client) -> None:
    created = client.comparisons.create(prompt="a lighthouse at dusk", models=["flux-schnell", "flux-dev"])
    assert created.models == ["flux-schnell", "flux-dev"]
    verdict = client.comparisons.wait(created.id, timeout=120)
    assert str(verdict.status) == "succeeded", verdict.to_dict()
    assert sorted(g.model for g in verdict.generations) == ["flux-dev", "flux-schnell"]
    assert verdict.reserved_credits == verdict.charged_credits + verdict.refunded_credits
    assert created.id in [c.id for c in client.comparisons.list(page_size=1)]

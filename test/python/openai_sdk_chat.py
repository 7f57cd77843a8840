"""Drives our OpenAI-compatible chat with the official `openai` Python package.

Run by test/api/openai-chat-python.test.ts with OPENAI_BASE_URL (…/v1/openai) and OPENAI_API_KEY
(one of our keys) set: completes a chat with a system message, max_tokens and temperature, then asks
for a model that does not exist and expects the SDK's own NotFoundError. Prints one JSON object for
the test to check; exits non-zero with the reason when something is not as expected.
"""

import json
import os
import sys

import openai


def main() -> int:
    client = openai.OpenAI(base_url=os.environ["OPENAI_BASE_URL"], api_key=os.environ["OPENAI_API_KEY"], max_retries=0)
    completion = client.chat.completions.create(
        model="gpt-5-mini",
        messages=[
            {"role": "system", "content": "Answer briefly."},
            {"role": "user", "content": "Hello from Python #tokens:9"},
        ],
        max_tokens=64,
        temperature=0.5,
    )
    try:
        client.chat.completions.create(model="no-such-model", messages=[{"role": "user", "content": "hi"}])
    except openai.NotFoundError as err:
        not_found = {"status": err.status_code, "code": err.code, "param": err.param, "type": err.type}
    else:
        print("a chat with an unknown model did not raise openai.NotFoundError", file=sys.stderr)
        return 1
    try:
        client.chat.completions.create(model="gpt-5-mini", messages=[{"role": "user", "content": "hi"}], n=2)
    except openai.BadRequestError as err:
        refused_n = {"status": err.status_code, "param": err.param}
    else:
        print("n=2 did not raise openai.BadRequestError", file=sys.stderr)
        return 1
    print(
        json.dumps(
            {
                "sdk_version": openai.__version__,
                "id": completion.id,
                "object": completion.object,
                "content": completion.choices[0].message.content,
                "finish_reason": completion.choices[0].finish_reason,
                "usage": completion.usage.model_dump() if completion.usage else None,
                "not_found": not_found,
                "refused_n": refused_n,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

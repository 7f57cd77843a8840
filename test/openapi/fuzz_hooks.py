# Schemathesis hooks for the fuzz runs (test/helpers/schemathesis.ts loads this file through
# SCHEMATHESIS_HOOKS). Schemathesis reuses the ids it reads in responses as path parameters, so it
# finds the id of the very key it calls with (GET /v1/api-keys lists it) and revokes it: the first
# runs did, and everything after answered 401. A run that has taken away its own credentials, or
# paused, throttled or drained its own organization, tests nothing after that point.
#
# So every change (any method but GET) whose path names the run's own key, its owner user or its
# organization is dropped before it is sent. Nothing else is: every operation is still fuzzed, on
# every other id, including the keys, users and organizations the run creates itself; reading
# the protected objects is fuzzed too. test/openapi/fuzz.test.ts checks after the run that the
# organization and key are as they were (fuzzOrganizationState).
import os

import schemathesis

PROTECTED_IDS = {
    os.environ["FUZZ_PROTECTED_KEY_ID"],
    os.environ["FUZZ_PROTECTED_USER_ID"],
    os.environ["FUZZ_PROTECTED_ORGANIZATION_ID"],
}


@schemathesis.hook
def filter_case(context, case):
    if case.method.upper() == "GET":
        return True
    return not any(str(value) in PROTECTED_IDS for value in (case.path_parameters or {}).values())

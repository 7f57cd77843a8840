#!/usr/bin/env bash
# Registers the service's Temporal namespace: the one-shot `temporal-create-namespace` service of
# docker-compose.yml runs this once the server is healthy, and the API and the workers start only
# after it succeeded. A namespace is data, not configuration: only a running server can create one,
# so this cannot happen in setup-databases.sh. Safe to run again: an existing namespace is kept.
#
# The `temporal` CLI reads the server's address from TEMPORAL_ADDRESS.
set -euo pipefail

: "${TEMPORAL_ADDRESS:?the Temporal frontend, host:port}"
namespace="${TEMPORAL_NAMESPACE:-default}"
# How long Temporal keeps a closed workflow's history (npm run stack:prod registers the same); the
# service's own records live in Postgres.
retention="${TEMPORAL_NAMESPACE_RETENTION:-72h}"

# A server that has just turned healthy may still refuse writes for a moment: retried for 30 s.
registered=false
for _ in $(seq 1 15); do
  if temporal operator namespace describe --namespace "$namespace" > /dev/null 2>&1; then
    echo "namespace ${namespace} exists"
    registered=true
    break
  fi
  if temporal operator namespace create --namespace "$namespace" --retention "$retention"; then
    registered=true
    break
  fi
  sleep 2
done
if [ "$registered" != true ]; then
  echo "could not register the namespace ${namespace} at ${TEMPORAL_ADDRESS}: see the temporal service's log" >&2
  exit 1
fi

# DescribeNamespace reads the database, while workflow calls resolve the namespace through the
# frontend's namespace cache. Wait until a workflow call in it is served, so that the API and the
# workers never start against a namespace they cannot use yet.
for _ in $(seq 1 60); do
  if temporal workflow list --namespace "$namespace" --limit 1 > /dev/null 2>&1; then
    echo "namespace ${namespace} is served"
    exit 0
  fi
  sleep 1
done
echo "namespace ${namespace} is registered but still not served after 60 s: see the temporal service's log" >&2
exit 1

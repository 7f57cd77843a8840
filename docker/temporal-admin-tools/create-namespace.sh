#!/usr/bin/env bash
# Registers the service's Temporal namespace and its search attributes: the one-shot
# `temporal-create-namespace` service of docker-compose.yml runs this once the server is healthy,
# and the API and the workers start only after it succeeded. A namespace is data, not
# configuration: only a running server can create one, so this cannot happen in
# setup-databases.sh. Safe to run again: an existing namespace, or search attribute, is kept.
#
# TEMPORAL_SEARCH_ATTRIBUTES: `Name=Type` pairs separated by spaces (domain/search-attributes.ts's
# list, as docker-compose.yml gives it).
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

# A workflow started with an attribute the namespace lacks is refused: each is created unless the
# namespace has it (another run may have created it meanwhile: then the next look finds it).
query=""
for spec in ${TEMPORAL_SEARCH_ATTRIBUTES:-}; do
  name="${spec%%=*}"
  type="${spec#*=}"
  query="${query:+$query AND }${name} = ''"
  created=false
  for _ in $(seq 1 15); do
    if temporal operator search-attribute list --namespace "$namespace" | grep -Eq "^[[:space:]]*${name}[[:space:]]"; then
      echo "search attribute ${name} exists"
      created=true
      break
    fi
    if temporal operator search-attribute create --namespace "$namespace" --name "$name" --type "$type"; then
      echo "search attribute ${name} created"
      created=true
      break
    fi
    sleep 2
  done
  if [ "$created" != true ]; then
    echo "could not register the search attribute ${name} in ${namespace}: see the temporal service's log" >&2
    exit 1
  fi
done

# DescribeNamespace reads the database, while workflow calls resolve the namespace (and its search
# attributes) through the frontend's caches. Wait until a workflow query in it naming every
# attribute is served, so that the API and the workers never start against a namespace they cannot
# use yet.
for _ in $(seq 1 60); do
  if temporal workflow list --namespace "$namespace" --limit 1 ${query:+--query "$query"} > /dev/null 2>&1; then
    echo "namespace ${namespace} is served"
    exit 0
  fi
  sleep 1
done
echo "namespace ${namespace} is registered but still not served after 60 s: see the temporal service's log" >&2
exit 1

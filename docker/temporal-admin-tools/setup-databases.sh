#!/usr/bin/env bash
# Temporal's two databases, created and migrated before the Temporal server starts: the one-shot
# `temporal-admin-tools` service of docker-compose.yml runs this on every `docker compose up`
# (temporalio/admin-tools image: bash, psql, temporal-sql-tool, the schema in /etc/temporal/schema).
#
# It reads the variables config/temporal/production.yaml reads (TEMPORAL_DB_*), so the schema lands
# where the server looks for it, plus the Postgres superuser's password, used here only to create
# the role and the databases: the server itself connects as that role, which owns nothing else.
#
# Every step is idempotent, so a restart or a later `up` is harmless:
#   - the role is created if absent, and its password set from TEMPORAL_DB_PASSWORD every time, so
#     changing it in .env is the whole of a rotation;
#   - a database is created if absent, owned by the role (it creates the trusted btree_gin extension
#     the visibility schema needs, which only a database owner may do);
#   - `setup-schema -v 0.0` only creates the version tables and records 0.0 when nothing is recorded
#     yet, so it does its work on the first run only;
#   - `update-schema` applies the versioned steps the database has not had, none when up to date,
#     which is also how a newer admin-tools image upgrades the schema before a newer server starts.
set -euo pipefail

: "${TEMPORAL_DB_HOST:?the Postgres host}"
: "${TEMPORAL_DB_USER:?the role the Temporal server connects as}"
: "${TEMPORAL_DB_PASSWORD:?that role password}"
: "${POSTGRES_PASSWORD:?the Postgres superuser password, to create the role and the databases}"
db_port="${TEMPORAL_DB_PORT:-5432}"
db_name="${TEMPORAL_DB_NAME:-temporal}"
visibility_db_name="${TEMPORAL_VISIBILITY_DB_NAME:-temporal_visibility}"
# Where the admin-tools image keeps the server's SQL schema, one directory per database.
schema_dir="${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}"

# As the superuser, through psql variables (:'x' quotes a literal, :"x" an identifier), so no value
# is ever spliced into SQL text.
superuser_psql() {
  PGHOST="$TEMPORAL_DB_HOST" PGPORT="$db_port" PGUSER="${POSTGRES_USER:-postgres}" PGPASSWORD="$POSTGRES_PASSWORD" \
    psql --no-psqlrc --quiet -v ON_ERROR_STOP=1 -v role="$TEMPORAL_DB_USER" "$@"
}

echo "role ${TEMPORAL_DB_USER}"
superuser_psql --dbname postgres -v password="$TEMPORAL_DB_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', :'role')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'role') \gexec
ALTER ROLE :"role" WITH LOGIN PASSWORD :'password';
SQL

for db in "$db_name" "$visibility_db_name"; do
  echo "database ${db}"
  superuser_psql --dbname postgres -v db="$db" <<'SQL'
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'role')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'db') \gexec
ALTER DATABASE :"db" OWNER TO :"role";
SQL
  # A database an earlier stack created as the superuser (temporalio/auto-setup did) holds tables the
  # role could not migrate or even read: hand them over. Objects of extensions stay with their owner.
  superuser_psql --dbname "$db" <<'SQL'
SELECT format('ALTER TABLE %I.%I OWNER TO %I', n.nspname, c.relname, :'role')
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')
  AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = :'role')
  AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e') \gexec
SELECT format('ALTER FUNCTION %s OWNER TO %I', p.oid::regprocedure, :'role')
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'public'
  AND p.proowner <> (SELECT oid FROM pg_roles WHERE rolname = :'role')
  AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e') \gexec
SQL
done

# temporal-sql-tool reads its connection from SQL_* variables: the password stays off the command line.
export SQL_PLUGIN=postgres12 SQL_HOST="$TEMPORAL_DB_HOST" SQL_PORT="$db_port" SQL_USER="$TEMPORAL_DB_USER" SQL_PASSWORD="$TEMPORAL_DB_PASSWORD"
echo "schema of ${db_name}"
temporal-sql-tool --db "$db_name" setup-schema -v 0.0
temporal-sql-tool --db "$db_name" update-schema -d "${schema_dir}/temporal/versioned"
echo "schema of ${visibility_db_name}"
temporal-sql-tool --db "$visibility_db_name" setup-schema -v 0.0
temporal-sql-tool --db "$visibility_db_name" update-schema -d "${schema_dir}/visibility/versioned"
echo "Temporal's databases are ready"

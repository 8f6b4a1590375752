# syntax=docker/dockerfile:1
#
# Ninefold's image (decision 0061, docs/deploy.md): the `ninefold` command with the built web app,
# production dependencies only, run by an unprivileged user. Three stages from one base, so that the
# native addons (better-sqlite3 compiled or fetched here, sharp's and argon2's prebuilt glibc
# binaries) match the runtime they load in:
#   build    all dependencies, then `npm run build` (tsc -b and the client's Vite builds)
#   deps     production dependencies only (the client's bundled libraries left out)
#   runtime  deps + what the build produced; nothing else
#
#   docker build -t ninefold .
#   docker run -p 3000:3000 -v "$PWD/spec.md:/spec/product.md:ro" -v ninefold-data:/data ninefold

# ---------------------------------------------------------------------------------------------
FROM node:22.21.1-bookworm-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary fits
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# the manifests first: the dependencies' layer is rebuilt only when one of them changes
COPY package.json package-lock.json ./
COPY packages/cli/package.json packages/cli/
COPY packages/client/package.json packages/client/
COPY packages/demo/package.json packages/demo/
COPY packages/engine/package.json packages/engine/
COPY packages/language/package.json packages/language/
COPY packages/model/package.json packages/model/
COPY packages/server/package.json packages/server/
COPY packages/testkit/package.json packages/testkit/
COPY packages/web/package.json packages/web/
# no install scripts but better-sqlite3's (as the root package.json's allowScripts): `prepare`
# would build before the sources are here
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3
COPY . .
RUN npm run build \
  && mkdir -p /out/packages \
  && for dir in packages/*/; do \
       if [ -d "${dir}dist" ]; then mkdir -p "/out/${dir}" && cp -r "${dir}dist" "/out/${dir}"; fi; \
     done \
  && cp -r packages/client/dist-ssr /out/packages/client/ \
  && cp -r packages/cli/bin packages/cli/templates /out/packages/cli/ \
  && cp -r examples /out/

# ---------------------------------------------------------------------------------------------
FROM node:22.21.1-bookworm-slim AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/cli/package.json packages/cli/
COPY packages/client/package.json packages/client/
COPY packages/demo/package.json packages/demo/
COPY packages/engine/package.json packages/engine/
COPY packages/language/package.json packages/language/
COPY packages/model/package.json packages/model/
COPY packages/server/package.json packages/server/
COPY packages/testkit/package.json packages/testkit/
COPY packages/web/package.json packages/web/
# The client's libraries (React, Mantine, the icons…) are bundled into its dist/ and dist-ssr/ by its
# build, so the runtime needs none of them: listed here as what they are, build-time dependencies,
# they leave the install (315 → 103 MiB of node_modules). The versions are still the lock's.
RUN node -e " \
  const fs = require('fs'); const file = 'packages/client/package.json'; \
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')); \
  const ours = ([name]) => name.startsWith('@ninefold/'); \
  const all = Object.entries(pkg.dependencies); \
  pkg.devDependencies = { ...pkg.devDependencies, ...Object.fromEntries(all.filter((e) => !ours(e))) }; \
  pkg.dependencies = Object.fromEntries(all.filter(ours)); \
  fs.writeFileSync(file, JSON.stringify(pkg));" \
  && npm install --omit=dev --ignore-scripts --no-save --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force

# ---------------------------------------------------------------------------------------------
FROM node:22.21.1-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /out ./
# the SQLite database and the uploaded files (with DATABASE_URL and STORAGE_URL, nothing is kept here)
RUN mkdir -p /data /spec && chown node:node /data
VOLUME ["/data"]
# the image's own unprivileged user (uid 1000): it owns /data and nothing of the application
USER node
EXPOSE 3000
# the process is alive; /ready (the database and its schema) is for the load balancer
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains the requests in flight, then exits (`ninefold start`)
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/packages/cli/bin/ninefold.js"]
CMD ["start", "/spec/product.md", "--host", "0.0.0.0", "--port", "3000", "--data", "/data"]

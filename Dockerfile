# The images of the hosted shape (docker-compose.yml), one stage each:
#   deps   npm ci, cached as long as package.json and the lockfile do not change
#   build  the sources and the built web client (nx run web:build)
#   api    the api and the worker: one image, two commands (apps/api/src/main.ts, apps/api/src/worker.ts)
#   web    nginx serving the built client and proxying /api and /socket.io to the apis
# The api runs from its TypeScript sources through @swc-node/register, as `npm start` does, so what
# runs in the container is what the tests ran. That needs the dev dependencies (swc), so they stay.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN NX_DAEMON=false NX_NO_CLOUD=true npx nx run web:build

FROM node:20-bookworm-slim AS api
WORKDIR /app
ENV NODE_ENV=production \
    SWC_NODE_PROJECT=/app/apps/api/tsconfig.json \
    PORT=3000 \
    DATA_DIR=/app/data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.base.json ./
COPY libs ./libs
COPY migrations ./migrations
COPY apps/api ./apps/api
# The api also serves the client at / when run alone (docker run -p 3000:3000 <image>).
COPY --from=build /app/dist/apps/web/browser ./dist/apps/web/browser
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "-r", "@swc-node/register", "apps/api/src/main.ts"]

FROM nginx:1.27-alpine AS web
COPY deploy/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/dist/apps/web/browser /usr/share/nginx/html
EXPOSE 80
HEALTHCHECK --interval=10s --timeout=5s --retries=5 CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1/"]

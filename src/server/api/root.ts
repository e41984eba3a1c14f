import { createRouter } from "./trpc";

/** Every /api/v1 operation. Each domain router wires one procedure per file. */
export const appRouter = createRouter({});

export type AppRouter = typeof appRouter;

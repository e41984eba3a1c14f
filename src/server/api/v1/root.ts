import { dataSourceRowsRouter } from "./data-source-rows/router";
import { organizationsRouter } from "./organizations/router";
import { recordsRouter } from "./records/router";
import { createRouter } from "./trpc";

/** Every /api/v1 operation. Each domain router wires one procedure per file. */
export const appRouter = createRouter({
  organizations: organizationsRouter,
  records: recordsRouter,
  dataSourceRows: dataSourceRowsRouter,
});

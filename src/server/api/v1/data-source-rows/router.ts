import { createRouter } from "@/server/api/v1/trpc";
import { listRowsProcedure } from "./list-rows";

export const dataSourceRowsRouter = createRouter({
  list: listRowsProcedure,
});

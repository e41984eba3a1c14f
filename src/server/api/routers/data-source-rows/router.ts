import { createRouter } from "@/server/api/trpc";
import { listRowsProcedure } from "./list-rows";

export const dataSourceRowsRouter = createRouter({
  list: listRowsProcedure,
});

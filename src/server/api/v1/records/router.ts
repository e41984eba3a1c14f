import { createRouter } from "@/server/api/v1/trpc";
import { createRecordProcedure } from "./create-record";
import { listRecordsProcedure } from "./list-records";

export const recordsRouter = createRouter({
  list: listRecordsProcedure,
  create: createRecordProcedure,
});

import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireInstanceRead } from "@/server/modules/access/viewer";
import { listUsers } from "@/server/modules/users/list-users";
import { iso } from "../iso";
import { listUsersOutput } from "./list-users.types";

export const listUsersProcedure = sessionProcedure.output(listUsersOutput).query(async ({ ctx }) => {
  requireInstanceRead(ctx.viewer);
  return (await listUsers(ctx.db)).map((user) => ({ ...user, createdAt: iso(user.createdAt) }));
});

import { createRouter } from "@/server/api/v1/trpc";
import { createOrganizationProcedure } from "./create-organization";
import { deleteOrganizationProcedure } from "./delete-organization";
import { listOrganizationsProcedure } from "./list-organizations";

export const organizationsRouter = createRouter({
  list: listOrganizationsProcedure,
  create: createOrganizationProcedure,
  delete: deleteOrganizationProcedure,
});

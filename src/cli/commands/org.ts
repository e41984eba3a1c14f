import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { listAllOrganizations } from "@/server/modules/organizations/list-organizations";
import { deleteOrganizationConfirmed } from "@/server/modules/organizations/delete-organization";
import { orgHealthCommand } from "./org-health";
import { requireOption, requirePositional, type CommandGroup } from "../command";

export const orgCommands: CommandGroup = {
  create: {
    usage: "org create --name N",
    summary: "Create an organization",
    options: { name: { type: "string" } },
    async run(ctx, args) {
      const org = await createOrganization(ctx.db, CLI_OPERATOR, requireOption(args, "name"));
      ctx.print({ id: org.id, name: org.name, created_at: org.createdAt.toISOString() }, org.id);
    },
  },
  delete: {
    usage: "org delete ORG_ID --confirm NAME",
    summary: "Delete an organization and everything it owns (its keys are revoked); NAME must be its exact name",
    options: { confirm: { type: "string" } },
    async run(ctx, args) {
      const organizationId = requirePositional(args, 0, "ORG_ID");
      await deleteOrganizationConfirmed(ctx.db, CLI_OPERATOR, organizationId, requireOption(args, "confirm"));
      ctx.print({ id: organizationId, deleted: true }, `Deleted organization ${organizationId}`);
    },
  },
  health: orgHealthCommand,
  list: {
    usage: "org list",
    summary: "List organizations",
    async run(ctx) {
      const orgs = await listAllOrganizations(ctx.db);
      ctx.print(
        orgs.map((org) => ({ id: org.id, name: org.name, created_at: org.createdAt.toISOString() })),
        orgs.map((org) => `${org.id}  ${org.name}`).join("\n") || "(no organizations)",
      );
    },
  },
};

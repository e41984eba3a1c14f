import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { listAllOrganizations } from "@/server/modules/organizations/list-organizations";
import { requireOption, type CommandGroup } from "../command";

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

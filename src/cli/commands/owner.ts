import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createInstanceOwner } from "@/server/modules/users/create-owner";
import { requireOption, requireSecretOption, type CommandGroup } from "../command";

export const ownerCommands: CommandGroup = {
  create: {
    usage: "owner create --email E --password P|- [--name N]",
    summary: "Create an instance owner (signs in to the dashboard)",
    options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
    async run(ctx, args) {
      const owner = await createInstanceOwner(ctx.db, CLI_OPERATOR, {
        email: requireOption(args, "email"),
        password: await requireSecretOption(args, "password", ctx.io.stdin),
        name: typeof args.values.name === "string" ? args.values.name : undefined,
      });
      ctx.print({ id: owner.id, email: owner.email, created_at: owner.createdAt.toISOString() }, `Created instance owner ${owner.email} (${owner.id})`);
    },
  },
};

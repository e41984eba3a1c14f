import { createForm } from "@/server/modules/forms/create-form";
import { requireOption, type CommandGroup } from "../command";

export const formCommands: CommandGroup = {
  create: {
    usage: "form create --org ORG_ID --name N",
    summary: "Create a form (forms have no REST path in v1)",
    options: { org: { type: "string" }, name: { type: "string" } },
    async run(ctx, args) {
      const form = await createForm(ctx.db, requireOption(args, "org"), requireOption(args, "name"));
      ctx.print({ id: form.id, name: form.name }, form.id);
    },
  },
};

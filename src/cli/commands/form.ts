import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { deleteForm, renameForm } from "@/server/modules/forms/change-form";
import { createForm } from "@/server/modules/forms/create-form";
import { listForms } from "@/server/modules/forms/list-forms";
import { everyPage, requireOption, requirePositional, type CommandGroup } from "../command";

export const formCommands: CommandGroup = {
  create: {
    usage: "form create --org ORG_ID --name N",
    summary: "Create a form (forms have no REST path in v1)",
    options: { org: { type: "string" }, name: { type: "string" } },
    async run(ctx, args) {
      const form = await createForm(ctx.db, CLI_OPERATOR, requireOption(args, "org"), requireOption(args, "name"));
      ctx.print({ id: form.id, name: form.name }, form.id);
    },
  },
  list: {
    usage: "form list --org ORG_ID",
    summary: "An organization's forms with record counts and latest record",
    options: { org: { type: "string" } },
    async run(ctx, args) {
      const organizationId = requireOption(args, "org");
      const forms = await everyPage((cursor) => listForms(ctx.db, CLI_OPERATOR, { organizationId, limit: 100, cursor }));
      const rows = forms.map((f) => ({
        id: f.id,
        name: f.name,
        records: f.records,
        latest_record_at: f.latestRecordAt?.toISOString() ?? null,
        created_at: f.createdAt.toISOString(),
      }));
      const human =
        rows.length === 0
          ? "No forms."
          : rows.map((f) => `${f.id}  ${f.name}  ${f.records} records${f.latest_record_at ? `, latest ${f.latest_record_at}` : ""}`).join("\n");
      ctx.print(rows, human);
    },
  },
  rename: {
    usage: "form rename FORM_ID --name N",
    summary: "Rename a form",
    options: { name: { type: "string" } },
    async run(ctx, args) {
      const form = await renameForm(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "FORM_ID"), requireOption(args, "name"));
      ctx.print({ id: form.id, name: form.name, organization_id: form.organizationId }, `Renamed ${form.id} to ${form.name}`);
    },
  },
  delete: {
    usage: "form delete FORM_ID",
    summary: "Delete a form that has no records",
    async run(ctx, args) {
      const form = await deleteForm(ctx.db, CLI_OPERATOR, requirePositional(args, 0, "FORM_ID"));
      ctx.print({ id: form.id, name: form.name, deleted: true }, `Deleted ${form.name} (${form.id})`);
    },
  },
};

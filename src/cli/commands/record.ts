import { z } from "zod";
import { timestampParam } from "@/server/api/timestamp-param";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { requireForm } from "@/server/modules/forms/change-form";
import { listRecords } from "@/server/modules/records/list-records";
import { requireOption, wholeNumberOption, type CommandGroup } from "../command";

const filters = z.object({
  created_after: timestampParam("--created-after", "after").optional(),
  created_before: timestampParam("--created-before", "before").optional(),
  submitted_by: z.string().min(1).max(500).optional(),
});

export const recordCommands: CommandGroup = {
  list: {
    usage: "record list --form FORM_ID [--created-after ISO] [--created-before ISO] [--submitted-by S] [--limit N]",
    summary: "A form's records, newest first (the filters of GET …/records)",
    options: {
      form: { type: "string" },
      "created-after": { type: "string" },
      "created-before": { type: "string" },
      "submitted-by": { type: "string" },
      limit: { type: "string" },
    },
    async run(ctx, args) {
      // A refused filter is the ZodError main.ts reports for every command: each field named, exit 2.
      const chosen = filters.parse({
        created_after: args.values["created-after"],
        created_before: args.values["created-before"],
        submitted_by: args.values["submitted-by"],
      });
      const max = wholeNumberOption(args, "limit", { min: 1 }) ?? Infinity;
      const form = await requireForm(ctx.db, CLI_OPERATOR, requireOption(args, "form"));
      const records = [];
      let cursor: string | undefined;
      do {
        // The same domain function as GET …/records, newest first, walked page by page.
        const page = await listRecords(ctx.db, {
          organizationId: form.organizationId,
          formId: form.id,
          limit: 100,
          cursor,
          sort: "-created_at",
          createdAfter: chosen.created_after,
          createdBefore: chosen.created_before,
          submittedBy: chosen.submitted_by,
        });
        records.push(...page.items);
        cursor = page.meta.next_cursor ?? undefined;
      } while (cursor && records.length < max);
      const rows = records.slice(0, max === Infinity ? undefined : max).map((r) => ({
        id: r.id,
        form_id: r.formId,
        created_by: r.createdBy,
        field_values: r.fieldValues,
        created_at: r.createdAt.toISOString(),
      }));
      const human =
        rows.length === 0 ? "No records." : rows.map((r) => `${r.created_at}  ${r.id}  ${r.created_by}  ${JSON.stringify(r.field_values)}`).join("\n");
      ctx.print(rows, human);
    },
  },
};

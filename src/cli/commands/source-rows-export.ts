import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { openRowsExport } from "@/server/modules/data-source-rows/export-rows";
import { CliUsageError, optionalOption, requirePositional, type CliCommand } from "../command";

/**
 * `source rows-export`: the dashboard's "Export CSV" of a source's rows, through the same domain
 * function (openRowsExport). The CSV goes to --out or to stdout; under --json the summary goes to
 * stdout, so the CSV needs --out (D454).
 */
export const sourceRowsExportCommand: CliCommand = {
  usage: "source rows-export SOURCE_ID [--out FILE] [--tombstones]",
  summary: "A source's live rows (with --tombstones, its tombstones too) as CSV, in display order",
  options: { out: { type: "string" }, tombstones: { type: "boolean" } },
  async run(ctx, args) {
    const sourceId = requirePositional(args, 0, "SOURCE_ID");
    const out = optionalOption(args, "out");
    if (ctx.json && !out) throw new CliUsageError("--json prints a summary on stdout: give the CSV a file with --out FILE");
    const includeDeleted = args.values.tombstones === true;
    const opened = await openRowsExport(ctx.db, CLI_OPERATOR, sourceId, { includeDeleted });
    const target: Writable = out ? createWriteStream(out) : ctx.io.stdout;
    let bytes = 0;
    try {
      for await (const chunk of opened.chunks) {
        bytes += Buffer.byteLength(chunk);
        if (!target.write(chunk)) await once(target, "drain");
      }
    } finally {
      if (out) {
        target.end();
        await once(target, "finish");
      }
    }
    if (out) {
      const summary = { source_id: opened.source.id, rows: opened.rowsWritten(), columns: opened.header, include_deleted: includeDeleted, file: out, bytes };
      const human = `Wrote ${summary.rows} row${summary.rows === 1 ? "" : "s"} (${opened.header.length} columns) to ${out}.`;
      ctx.print(summary, human);
    }
  },
};

/**
 * The curl commands of the Connect page. NOTE: the token is always the shell variable
 * $GROUNDWORK_API_KEY, never a real one, even right after a key was minted: a page that printed
 * tokens would put them in screenshots, screen shares and browser history.
 */
export const TOKEN_VARIABLE = "GROUNDWORK_API_KEY";

export interface CommandSpec {
  id: string;
  title: string;
  scope: string;
  explain: string;
  command: string;
}

const auth = `-H "Authorization: Bearer $${TOKEN_VARIABLE}"`;

export function buildCommands(base: string, organizationId: string, formId: string | null, sourceId: string | null, idempotencyKey: string): CommandSpec[] {
  const api = `${base}/api/v1/organizations/${organizationId}`;
  const commands: CommandSpec[] = [];
  if (formId) {
    const records = `${api}/forms/${formId}/records`;
    commands.push(
      {
        id: "list-records",
        title: "List the form's records",
        scope: "records:read",
        explain:
          "Newest first. Add created_after, created_before (ISO 8601, exclusive) or submitted_by; pass meta.next_cursor back as cursor until it is null.",
        command: `curl -sS "${records}?sort=-created_at&limit=25" \\\n  ${auth}`,
      },
      {
        id: "create-record",
        title: "Create a record (safe to retry)",
        scope: "records:write",
        explain:
          "Use one Idempotency-Key per submission: a retry with the same key and body returns the first answer (X-Idempotent-Replay: true) instead of a second record. The key below is new on every view of this page: a fixed one would give everyone who ran this sample after the first person that first answer back (a replay) and no record of their own. Run it twice and the second answer is the replay.",
        command: `curl -sS -X POST "${records}" \\\n  ${auth} \\\n  -H "Content-Type: application/json" \\\n  -H "Idempotency-Key: ${idempotencyKey}" \\\n  -d '{"created_by":"device-42","field_values":{"site":"NB-001","ok":true}}'`,
      },
    );
  }
  if (sourceId) {
    const rows = `${api}/data-sources/${sourceId}/rows`;
    commands.push(
      {
        id: "walk-rows",
        title: "Walk a data source's rows",
        scope: "data_sources:read",
        explain:
          "100 live rows a page in display order; pass meta.next_cursor back as cursor until it is null. Keep the largest updated_at you saw as your mark.",
        command: `curl -sS "${rows}?limit=100" \\\n  ${auth}`,
      },
      {
        id: "delta-rows",
        title: "The delta call (device sync)",
        scope: "data_sources:read",
        explain:
          "What changed since your mark, tombstones included (deleted_at set); walk it to the end the same way. Replace the date with your mark (updated_after is exclusive).",
        command: `curl -sS "${rows}?updated_after=2026-01-01T00:00:00.000Z&include_deleted=true&limit=100" \\\n  ${auth}`,
      },
    );
  }
  return commands;
}

/**
 * What to do about a source in trouble, by the class of its sync_error (issue 43): one wording
 * for the alert mail, the source page's banner and the CLI. Pure: no database, no framework, so
 * the dashboard's client components import it too.
 */
export type TroubleClass = "credentials" | "permission" | "missing_table" | "network" | "guardrail" | "stale" | "other";

/** The button on the source page that does the step. */
type NextAction = "edit_connection" | "sync_now" | "review_deletions" | "none";

export interface NextStep {
  class: TroubleClass;
  /** One sentence, imperative. */
  text: string;
  action: NextAction;
}

const PERMISSION = /permission denied|insufficient[_ ]privilege|\b403\b|INSUFFICIENT_ACCESS|not allowed to read/i;
const CREDENTIALS =
  /password authentication failed|authentication failed|invalid_grant|invalid_client|unauthori[sz]ed|\b401\b|credentials|no pg_hba\.conf entry|expired.*token|token.*expired|asks for a password|names no user/i;
const MISSING_TABLE = /does not exist|no such (table|object|column)|INVALID_TYPE|sObject type .* is not supported|NOT_FOUND|\b404\b|relation .* not found/i;
const NETWORK =
  /ECONNREFUSED|refused the connection|could not be resolved|ENOTFOUND|EAI_AGAIN|timed out|ETIMEDOUT|ECONNRESET|was reset|closed unexpectedly|shutting down or starting up|unreachable|\b50[234]\b|network|socket hang up|TLS|certificate/i;

/** The class of a sync_error (the connectors' sentences, describe-pg-error.ts, crm-http.ts). */
export function classifySyncError(syncError: string | null): Exclude<TroubleClass, "guardrail" | "stale"> {
  if (!syncError) return "other";
  // Order matters: "the table … does not exist or the user cannot read it" is a missing table;
  // "permission denied" is a grant, not a password; a 401 is a credential.
  if (CREDENTIALS.test(syncError) && !PERMISSION.test(syncError)) return "credentials";
  if (PERMISSION.test(syncError)) return "permission";
  if (MISSING_TABLE.test(syncError)) return "missing_table";
  if (NETWORK.test(syncError)) return "network";
  return "other";
}

/**
 * The step for a source's alert state: needs_attention, error (by class), stale, ok. The reader
 * may not be able to approve held-back deletions (a member, support): they are told who can (D527).
 */
export function nextStepFor(
  facts: { state: string; syncError: string | null; kind: string },
  reader: { canApprove: boolean } = { canApprove: true },
): NextStep {
  const crm = facts.kind === "crm_object";
  const where = crm ? "the customer's CRM" : "the customer's database";
  if (facts.state === "needs_attention") {
    return {
      class: "guardrail",
      action: "review_deletions",
      text: reader.canApprove
        ? "Review the held-back deletions on the source page and approve them if those rows really were removed."
        : "Review the held-back deletions on the source page; an admin of this organization or an instance owner approves them if those rows really were removed.",
    };
  }
  if (facts.state === "stale") {
    return { class: "stale", action: "sync_now", text: `Check ${where} and that a sync worker is running (npm start or npm run worker).` };
  }
  if (facts.state === "ok") return { class: "other", action: "none", text: "Nothing: it is syncing again." };
  const kind = classifySyncError(facts.syncError);
  switch (kind) {
    case "credentials":
      return { class: kind, action: "edit_connection", text: "Fix the credentials: update the source's connection secret on its page, then sync again." };
    case "permission":
      return {
        class: kind,
        action: "edit_connection",
        text: crm
          ? "Give the integration user read access to the object in the CRM (or connect as a user who has it), then sync again."
          : "Grant the connection's user SELECT on the table (GRANT SELECT ON <table> TO <user>), or connect as a user who has it, then sync again.",
      };
    case "missing_table":
      return {
        class: kind,
        action: "edit_connection",
        text: crm
          ? "Check the object's name in the source's connection (it may have been renamed), then sync again."
          : "Check the table's name in the source's connection (schema.table; it may have been renamed or dropped), then sync again.",
      };
    case "network":
    case "other":
      return { class: kind, action: "sync_now", text: `Check ${where}: is it up, and can Groundwork reach it? Then sync again.` };
  }
}

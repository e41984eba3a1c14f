import { redactSecrets } from "../data-sources/redact";
import { ALERT_STATE_LABELS, type AlertState } from "./alert-state";

/** What a message says about one source (D216). */
export interface SourceFacts {
  sourceId: string;
  sourceName: string;
  kind: string;
  organizationId: string;
  organizationName: string;
  state: AlertState;
  /** The state it leaves (for a recovery). */
  previousState?: AlertState;
  syncError: string | null;
  declinedDeletions: number;
  lastOkAt: Date | null;
  syncIntervalSeconds: number | null;
}

export type MessageKind = "alert" | "reminder" | "recovery";

export interface AlertMessage {
  subject: string;
  body: string;
}

/** The dashboard page of a source, from the base-URL setting. */
export function sourceLink(baseUrl: string, facts: Pick<SourceFacts, "organizationId" | "sourceId">): string {
  return `${baseUrl.replace(/\/+$/, "")}/dashboard/organizations/${encodeURIComponent(facts.organizationId)}/sources/${encodeURIComponent(facts.sourceId)}`;
}

const CREDENTIAL_FAILURE =
  /password authentication failed|authentication failed|invalid_grant|invalid_client|unauthori[sz]ed|\b401\b|\b403\b|permission denied|credentials|no pg_hba\.conf entry|expired.*token|token.*expired/i;

/** The one line on what to do (issue 24: review and approve, fix the credentials, check the database). */
export function actionFor(facts: Pick<SourceFacts, "state" | "syncError" | "kind">): string {
  const where = facts.kind === "crm_object" ? "the customer's CRM" : "the customer's database";
  switch (facts.state) {
    case "needs_attention":
      return "Review the held-back deletions on the source page and approve them if those rows really were removed.";
    case "error":
      return facts.syncError && CREDENTIAL_FAILURE.test(facts.syncError)
        ? "Fix the credentials: update the source's connection secret on its page, then sync again."
        : `Check ${where}: is it up, and can Groundwork reach it? Then sync again.`;
    case "stale":
      return `Check ${where} and that a sync worker is running (npm start or npm run worker).`;
    case "ok":
      return "Nothing: it is syncing again.";
  }
}

function describeState(facts: SourceFacts): string {
  switch (facts.state) {
    case "needs_attention":
      return `needs attention: the delete guardrail held back ${facts.declinedDeletions} deletion${facts.declinedDeletions === 1 ? "" : "s"}.`;
    case "error":
      return `is in error: ${redactSecrets(facts.syncError ?? "the last pass failed")}`;
    case "stale":
      return `is stale: no pass has completed for more than 3 of its ${facts.syncIntervalSeconds ? Math.round(facts.syncIntervalSeconds / 60) : "?"}-minute intervals.`;
    case "ok":
      return `has recovered${facts.previousState ? ` from ${ALERT_STATE_LABELS[facts.previousState]}` : ""}: it is ok again.`;
  }
}

export function buildAlertMessage(kind: MessageKind, facts: SourceFacts, baseUrl: string): AlertMessage {
  const label = kind === "recovery" ? "Recovered" : kind === "reminder" ? `Still ${ALERT_STATE_LABELS[facts.state].toLowerCase()}` : ALERT_STATE_LABELS[facts.state];
  const subject = `[Groundwork] ${label}: ${facts.sourceName} (${facts.organizationName})`;
  const body = [
    `${facts.sourceName} (${facts.organizationName}) ${describeState(facts)}`,
    `Last ok: ${facts.lastOkAt ? facts.lastOkAt.toISOString() : "never"}`,
    `What to do: ${actionFor(facts)}`,
    `Source page: ${sourceLink(baseUrl, facts)}`,
  ].join("\n");
  return { subject, body };
}

/** One message for many changes (D217): a line per source, each with its link. */
export function buildDigestMessage(items: { subject: string; sourceLine: string }[], windowMinutes: number): AlertMessage {
  return {
    subject: `[Groundwork] ${items.length} source alert${items.length === 1 ? "" : "s"} in the last ${windowMinutes} minutes`,
    body: [
      `${items.length} alerts were collected into this digest instead of one message each:`,
      "",
      ...items.map((item) => `- ${item.sourceLine}`),
    ].join("\n"),
  };
}

/** NOTE: the channel's name is the tenant's text: in the body, never in the Subject (D375). */
export function buildTestMessage(channelName: string, baseUrl: string): AlertMessage {
  return {
    subject: "[Groundwork] Test message",
    body: [`This is a test of the alert channel "${channelName}". If you read this, alerts will reach you here.`, `Dashboard: ${baseUrl.replace(/\/+$/, "")}/dashboard`].join("\n"),
  };
}

import { redactSecrets } from "@/server/modules/outbound/redact";
import { ALERT_STATE_LABELS, type AlertState } from "./alert-state";
import { nextStepFor } from "@/lib/next-step";

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

/**
 * Where a stored message's links start (D462): the base is put in when the message is sent, by
 * the process that sends it, so a message queued by the CLI (whose environment may lack
 * PUBLIC_URL) still links through the instance's PUBLIC_URL.
 */
export const LINK_BASE = "{{groundwork:base}}";

/** A stored body with its link base filled in; bodies stored before D462 carry none and stay. */
export function resolveLinks(text: string, baseUrl: string): string {
  return text.split(LINK_BASE).join(baseUrl.replace(/\/+$/, ""));
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2 Dec 2026, 14:05 UTC": what a person reads in a mail (D463), not an ISO stamp. */
export function utcWords(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;
}

/** The one line on what to do (issue 24; by sync_error class since issue 43, next-step.ts). */
export function actionFor(facts: Pick<SourceFacts, "state" | "syncError" | "kind">): string {
  return nextStepFor(facts).text;
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
  const label =
    kind === "recovery" ? "Recovered" : kind === "reminder" ? `Still ${ALERT_STATE_LABELS[facts.state].toLowerCase()}` : ALERT_STATE_LABELS[facts.state];
  const subject = `[Groundwork] ${label}: ${facts.sourceName} (${facts.organizationName})`;
  const body = [
    `${facts.sourceName} (${facts.organizationName}) ${describeState(facts)}`,
    `Last ok: ${facts.lastOkAt ? utcWords(facts.lastOkAt) : "never"}`,
    `What to do: ${actionFor(facts)}`,
    `Source page: ${sourceLink(baseUrl, facts)}`,
  ].join("\n");
  return { subject, body };
}

/** One message for many changes (D217): a line per source, each with its link. */
export function buildDigestMessage(items: { subject: string; sourceLine: string }[], windowMinutes: number): AlertMessage {
  return {
    subject: `[Groundwork] ${items.length} source alert${items.length === 1 ? "" : "s"} in the last ${windowMinutes} minutes`,
    body: [`${items.length} alerts were collected into this digest instead of one message each:`, "", ...items.map((item) => `- ${item.sourceLine}`)].join(
      "\n",
    ),
  };
}

/** NOTE: the channel's name is the tenant's text: in the body, never in the Subject (D375). */
export function buildTestMessage(channelName: string, baseUrl: string): AlertMessage {
  return {
    subject: "[Groundwork] Test message",
    body: [
      `This is a test of the alert channel "${channelName}". If you read this, alerts will reach you here.`,
      `Dashboard: ${baseUrl.replace(/\/+$/, "")}/dashboard`,
    ].join("\n"),
  };
}

import type { PrismaClient } from "@/server/db/types";
import { redactSecrets } from "@/server/modules/outbound/redact";
import type { SecretBox } from "../data-sources/credentials/secret-box";
import { resolveLinks } from "./alert-message";
import { alertBaseUrl } from "./alert-queue";
import { chatUrlContext } from "./channels";
import { DeliveryError, type AlertSenders } from "./senders";

export interface DeliverDeps {
  db: PrismaClient;
  secrets: SecretBox;
  senders: AlertSenders;
  /** Secrets to keep out of recorded reasons (the SMTP URL's password...). */
  redact?: readonly (string | undefined)[];
  /** The base of the message's links (default: this process's PUBLIC_URL chain, D462). */
  baseUrl?: string;
}

export type DeliverOutcome = "sent" | "retry" | "failed" | "skipped";

/**
 * One try of one delivery (the alert_deliver job). A failure before the last attempt is
 * recorded (attempts, reason) and answered with "retry": the job throws and graphile-worker
 * backs off. At the last attempt the delivery is marked failed with its reason (D215).
 */
export async function deliverAlert(deps: DeliverDeps, deliveryId: string, attempt: { number: number; max: number }): Promise<DeliverOutcome> {
  const { db } = deps;
  const delivery = await db.alertDelivery.findUnique({ where: { id: deliveryId }, include: { channel: true } });
  if (!delivery || delivery.status !== "pending") return "skipped";
  const { channel } = delivery;
  const base = deps.baseUrl ?? alertBaseUrl();
  const subject = resolveLinks(delivery.subject, base);
  const body = resolveLinks(delivery.body, base);
  let reason: string | null = null;
  let detail: string | null = null;
  try {
    if (channel.deletedAt !== null) reason = "the channel was deleted before the message went out";
    else if (channel.kind === "email") await deps.senders.email(channel.emailTo, subject, body);
    else if (!channel.urlEncrypted) reason = "the channel has no chat URL";
    else await deps.senders.chat(deps.secrets.open(channel.urlEncrypted, chatUrlContext(channel.id)), `*${subject}*\n${body}`);
  } catch (error) {
    // A DeliveryError's message is its class (what a tenant sees); anything else is ours.
    reason = error instanceof DeliveryError ? error.message : "the message could not be sent";
    detail = error instanceof DeliveryError ? error.detail : error instanceof Error ? error.message : String(error);
  }
  if (reason === null) {
    await db.alertDelivery.update({
      where: { id: deliveryId },
      data: { status: "sent", sentAt: new Date(), attempts: attempt.number, lastError: null, lastErrorDetail: null },
    });
    return "sent";
  }
  const recorded = redactSecrets(reason, deps.redact ?? []).slice(0, 1000);
  const recordedDetail = redactSecrets(detail ?? reason, deps.redact ?? []).slice(0, 1000);
  const final = attempt.number >= attempt.max || channel.deletedAt !== null;
  await db.alertDelivery.update({
    where: { id: deliveryId },
    data: { status: final ? "failed" : "pending", attempts: attempt.number, lastError: recorded, lastErrorDetail: recordedDetail },
  });
  return final ? "failed" : "retry";
}

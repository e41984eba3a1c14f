import { env } from "@/env";
import { mailRelayConfigured, sendersFromEnv } from "@/server/modules/alerts/senders-from-env";
import type { InvitationDeliveryOptions } from "./invitation-mail";

/** PUBLIC_URL, else NEXTAUTH_URL, else this host's port: the base of invitation links (as of alert links). */
function invitationBaseUrl(): string {
  const e = env();
  return e.PUBLIC_URL ?? e.NEXTAUTH_URL ?? `http://localhost:${e.PORT}`;
}

/** The dashboard's and the CLI's delivery: the operator's relay (the alert mail's, D474) and PUBLIC_URL. */
export function invitationDeliveryFromEnv(): InvitationDeliveryOptions {
  const senders = sendersFromEnv();
  return {
    publicUrl: invitationBaseUrl(),
    mailer: { configured: mailRelayConfigured(), send: (to, subject, text) => senders.email([to], subject, text) },
  };
}

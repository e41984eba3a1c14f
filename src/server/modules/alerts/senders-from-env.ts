import { env } from "@/env";
import { operatorTargetPolicy } from "@/server/modules/outbound/target-policy";
import { createAlertSenders, type AlertSenders } from "./senders";

/**
 * The operator's relay and From address, from the environment (README: "Alerts"). Alert mail and
 * invitation mail (D474) leave through the same transport and the same From address.
 */
export function sendersFromEnv(): AlertSenders {
  const e = env();
  const host = e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : "localhost";
  return createAlertSenders({
    smtpUrl: e.GROUNDWORK_SMTP_URL,
    from: e.GROUNDWORK_SMTP_FROM ?? `Groundwork <groundwork@${host}>`,
    policy: operatorTargetPolicy(),
  });
}

/** True when GROUNDWORK_SMTP_URL is set. */
export function mailRelayConfigured(): boolean {
  return env().GROUNDWORK_SMTP_URL !== undefined;
}

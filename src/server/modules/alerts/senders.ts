import nodemailer from "nodemailer";
import { guardedFetch } from "../data-sources/connectors/crm-object/guarded-fetch";
import type { TargetPolicy } from "../data-sources/connectors/targets/target-policy";
import { checkChatUrl } from "./chat-url";

/** The effects of a delivery: an email through the operator's relay, or a POST to a chat URL. */
export interface AlertSenders {
  email(to: string[], subject: string, text: string): Promise<void>;
  chat(url: string, text: string): Promise<void>;
}

export interface SenderConfig {
  /** GROUNDWORK_SMTP_URL: smtp://user:pass@relay:587 or smtps://… (nodemailer's URL form). */
  smtpUrl: string | undefined;
  /** The From address. */
  from: string;
  policy: TargetPolicy;
  /** Per network step (connect, greeting, response), default 10 s. */
  timeoutMs?: number;
}

export class DeliveryError extends Error {
  override name = "DeliveryError";
}

/**
 * NOTE: one transport per delivery, not a pool: deliveries are rare, and a relay that went away
 * must not leave a dead pooled connection behind.
 */
export function createAlertSenders(config: SenderConfig): AlertSenders {
  const timeout = config.timeoutMs ?? 10_000;
  const fetchGuarded = guardedFetch(config.policy);
  return {
    async email(to, subject, text) {
      if (!config.smtpUrl) throw new DeliveryError("no SMTP relay is configured (set GROUNDWORK_SMTP_URL)");
      const transport = nodemailer.createTransport(config.smtpUrl, {
        from: config.from,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
      });
      try {
        await transport.sendMail({ to, subject, text });
      } catch (error) {
        throw new DeliveryError(`the SMTP relay refused or could not be reached: ${describeError(error)}`, { cause: error });
      } finally {
        transport.close();
      }
    },
    async chat(url, text) {
      // The policy may have changed since the channel was saved: checked again at every send.
      const checked = await checkChatUrl(url, config.policy);
      if (!checked.ok) throw new DeliveryError(checked.reason);
      let response: Response;
      try {
        response = await fetchGuarded(checked.value.toString(), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ text }),
          signal: AbortSignal.timeout(timeout),
        });
      } catch (error) {
        throw new DeliveryError(`the chat URL could not be reached: ${describeError(error)}`, { cause: error });
      }
      await response.body?.cancel().catch(() => undefined);
      if (response.status < 200 || response.status > 299) throw new DeliveryError(`the chat URL answered HTTP ${response.status}`);
    },
  };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: string }).code;
  const base = cause instanceof Error ? cause.message : error.message;
  return code && !base.includes(code) ? `${base} (${code})` : base;
}

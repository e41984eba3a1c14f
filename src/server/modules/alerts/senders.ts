import nodemailer from "nodemailer";
import { guardedFetch } from "@/server/modules/outbound/guarded-fetch";
import type { TargetPolicy } from "@/server/modules/outbound/target-policy";
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

/**
 * A failed send: `message` is the failure's class, which tenants see ("the mail relay refused the
 * connection"); `detail` is what happened, relay address and answer included, for owners (D376).
 */
export class DeliveryError extends Error {
  override name = "DeliveryError";
  readonly detail: string;
  constructor(message: string, options: { detail?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.detail = options.detail ?? message;
  }
}

/** The class of an SMTP failure (nodemailer's error code, the relay's reply code). */
function smtpFailureClass(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code;
  // NOTE: nodemailer wraps a socket failure as ESOCKET with the system's code in the message.
  const any = [code, cause, error instanceof Error ? error.message : ""].filter(Boolean).join(" ");
  if (/ECONNREFUSED/.test(any)) return "the mail relay refused the connection";
  if (/ENOTFOUND|EAI_AGAIN|EDNS/.test(any)) return "the mail relay's name could not be resolved";
  if (/ETIMEDOUT|ETIMEOUT|ECONNRESET|EPIPE|EHOSTUNREACH|ENETUNREACH/.test(any)) return "the mail relay could not be reached or stopped answering";
  if (/EAUTH|ENOAUTH/.test(any)) return "the mail relay refused the service's credentials";
  if (/ETLS|CERT|SSL/.test(any)) return "the secure connection to the mail relay failed";
  if (/EENVELOPE/.test(any) || (responseCode !== undefined && responseCode >= 550 && responseCode < 560)) return "the mail relay refused a recipient";
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 500) return "the mail relay deferred the message";
  return "the mail relay could not take the message";
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
      if (!config.smtpUrl) throw new DeliveryError("no mail relay is configured", { detail: "no SMTP relay is configured (set GROUNDWORK_SMTP_URL)" });
      const transport = nodemailer.createTransport(config.smtpUrl, {
        from: config.from,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
      });
      try {
        await transport.sendMail({ to, subject, text });
      } catch (error) {
        throw new DeliveryError(smtpFailureClass(error), { detail: `the SMTP relay refused or could not be reached: ${describeError(error)}`, cause: error });
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
        throw new DeliveryError("the chat URL could not be reached", { detail: `the chat URL could not be reached: ${describeError(error)}`, cause: error });
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

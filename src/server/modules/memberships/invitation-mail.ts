import { DeliveryError } from "@/server/modules/alerts/senders";
import { invitationLink } from "./invitation-tokens";

/** The operator's relay as the invitation code needs it (the alert mail's transport, D474). */
interface InvitationMailer {
  /** False when no relay is configured (GROUNDWORK_SMTP_URL unset): the link is shown instead. */
  configured: boolean;
  send(to: string, subject: string, text: string): Promise<void>;
}

/** Where links point and how mail leaves. */
export interface InvitationDeliveryOptions {
  publicUrl: string;
  mailer: InvitationMailer | null;
}

/**
 * How the invitee gets the link. `mailed`: the relay took the message. `link`: the link, to be
 * shown once to whoever invited (no relay, or the relay refused); it is never stored.
 */
export type InvitationDelivery = { kind: "mailed" } | { kind: "link"; link: string; reason: "no_relay" | "mail_failed"; failure: string | null };

/** The same words for every address: nothing in the mail depends on whether an account exists (D475). */
function invitationMail(input: { organizationName: string; role: string; link: string; expiresAt: Date }): { subject: string; text: string } {
  return {
    subject: `You are invited to ${input.organizationName} on Groundwork`,
    text: [
      `You are invited to join ${input.organizationName} on Groundwork as ${input.role}.`,
      "",
      "Open this link to accept. If you are new, you set a password there; if you already have an account",
      "with this email address, you sign in with it and accept.",
      "",
      input.link,
      "",
      `The link works once and expires on ${input.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC.`,
      "If you did not expect this invitation, ignore this message.",
    ].join("\n"),
  };
}

export async function deliverInvitation(
  options: InvitationDeliveryOptions,
  to: string,
  content: { organizationName: string; role: string; token: string; expiresAt: Date },
): Promise<InvitationDelivery> {
  const link = invitationLink(options.publicUrl, content.token);
  if (!options.mailer?.configured) return { kind: "link", link, reason: "no_relay", failure: null };
  const mail = invitationMail({ ...content, link });
  try {
    await options.mailer.send(to, mail.subject, mail.text);
    return { kind: "mailed" };
  } catch (error) {
    // The failure's class only (DeliveryError.message): never the relay's answer, which could echo the body.
    const failure = error instanceof DeliveryError ? error.message : "the mail relay could not take the message";
    return { kind: "link", link, reason: "mail_failed", failure };
  }
}

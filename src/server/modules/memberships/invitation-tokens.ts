import { createHash, randomBytes } from "node:crypto";

/** How long an invitation's link works (D471); a resend issues a fresh link for as long again. */
export const INVITATION_LINK_DAYS = 7;

/** `gwi_` + 32 random bytes (base64url): guessing is hopeless, and a scanner can recognise it. */
export function newInvitationToken(): string {
  return `gwi_${randomBytes(32).toString("base64url")}`;
}

/**
 * What is stored: the token's SHA-256 (D470). A fast hash is enough for 256 random bits (unlike a
 * password), and it lets the link be found by an indexed equality lookup.
 */
export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The link in the mail. The token rides in the fragment, which browsers never send to a server (D472). */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/invitation#${token}`;
}

/** A token as a link carries it; anything else is refused before a lookup. */
export const INVITATION_TOKEN_PATTERN = /^gwi_[A-Za-z0-9_-]{43}$/;

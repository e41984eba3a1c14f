/**
 * Removes secrets from a message before it is stored as sync_error or logged. Connectors pass
 * the secrets they hold; connection URLs anywhere in the text also lose their password.
 */
export function redactSecrets(message: string, secrets: readonly (string | null | undefined)[] = []): string {
  let text = message.replace(URL_WITH_CREDENTIALS, (_match, scheme: string, user: string) => `${scheme}${user}:***@`);
  for (const secret of secrets) {
    // NOTE: very short "secrets" would shred ordinary words; real secrets are long.
    if (!secret || secret.length < 4) continue;
    for (const variant of new Set([secret, encodeURIComponent(secret)])) text = text.split(variant).join("***");
  }
  return text;
}

/** `scheme://user:password@` → captured scheme and user; the password is dropped. */
const URL_WITH_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)([^:@/\s]*):[^@\s]*@/gi;

/** A connection URL as it may be shown: the password replaced, nothing else changed. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return redactSecrets(url);
  }
}

/**
 * Removes secrets from a message before it is stored as sync_error or logged. Connectors pass
 * the secrets they hold; connection URLs anywhere in the text also lose their password.
 */
export function redactSecrets(message: string, secrets: readonly (string | null | undefined)[] = []): string {
  let text = redactUrlPasswords(message);
  for (const secret of secrets) {
    // NOTE: very short "secrets" would shred ordinary words; real secrets are long.
    if (!secret || secret.length < 4) continue;
    for (const variant of new Set([secret, encodeURIComponent(secret)])) text = text.split(variant).join("***");
  }
  return text;
}

const SCHEME_CHAR = /[a-z0-9+.-]/i;
const LETTER = /[a-z]/i;
const SPACE = /\s/;

/**
 * `scheme://user:password@` → `scheme://user:***@`, anywhere in the text.
 * NOTE: a hand-written scan, not a regex: the former pattern
 * `([a-z][a-z0-9+.-]*:\/\/)([^:@/\s]*):[^@\s]*@` backtracks over every start position of a long
 * word (~0.9 s on a 96 KB Postgres error, D43). Here each character is looked at a bounded number
 * of times: one backward pass precomputes, for every position, where the user part and the
 * password part would end; the scheme before each `://` is walked back at most to the previous
 * `://` or to the end of the previous match. So the cost is linear in the text.
 */
export function redactUrlPasswords(text: string): string {
  let separator = text.indexOf("://");
  if (separator === -1) return text;
  const n = text.length;
  // userEnd[i]: first index ≥ i holding ':', '@', '/' or whitespace; passwordEnd[i]: '@' or whitespace.
  const userEnd = new Int32Array(n + 1).fill(n);
  const passwordEnd = new Int32Array(n + 1).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    const c = text[i]!;
    const space = SPACE.test(c);
    userEnd[i] = c === ":" || c === "@" || c === "/" || space ? i : userEnd[i + 1]!;
    passwordEnd[i] = c === "@" || space ? i : passwordEnd[i + 1]!;
  }
  const out: string[] = [];
  let copied = 0;
  while (separator !== -1) {
    let hasLetter = false;
    for (let s = separator; s > copied && SCHEME_CHAR.test(text[s - 1]!); s--) if (LETTER.test(text[s - 1]!)) hasLetter = true;
    const colon = userEnd[separator + 3]!;
    const at = colon < n && text[colon] === ":" ? passwordEnd[colon + 1]! : n;
    if (hasLetter && at < n && text[at] === "@") {
      out.push(text.slice(copied, colon), ":***@");
      copied = at + 1;
      separator = text.indexOf("://", copied);
    } else {
      separator = text.indexOf("://", separator + 1);
    }
  }
  out.push(text.slice(copied));
  return out.join("");
}

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

/** sync_error is shown in the dashboard and the CLI: this many characters at most (D43). */
export const MAX_SYNC_ERROR_LENGTH = 2000;

/** Cuts a failure reason to a readable length, never inside a surrogate pair, saying what was cut. */
export function capSyncError(reason: string): string {
  if (reason.length <= MAX_SYNC_ERROR_LENGTH) return reason;
  // Room for the note: " … (99999999 characters cut)" is at most 30 characters.
  let end = MAX_SYNC_ERROR_LENGTH - 30;
  const last = reason.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${reason.slice(0, end)} … (${reason.length - end} characters cut)`;
}

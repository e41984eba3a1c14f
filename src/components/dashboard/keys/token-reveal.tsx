"use client";

import { OneTimeSecret, type OneTimeSecretGuard } from "@/components/ui/one-time-secret";

/** The plaintext, once: it lives only in this component's memory and is gone on close or reload. */
export function TokenReveal({ token, guard }: { token: string; guard: OneTimeSecretGuard }) {
  return (
    <OneTimeSecret guard={guard} value={token} noun="key" testId="minted-token" warningTitle="Copy this token now">
      It is shown only this once. Groundwork keeps only its hash: after you close this dialog, reload or leave the page, nobody can show it again.
    </OneTimeSecret>
  );
}

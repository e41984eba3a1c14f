"use client";

import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";

/** The plaintext, once: it lives only in this component's memory and is gone on close or reload. */
export function TokenReveal({ token }: { token: string }) {
  return (
    <div className="space-y-3">
      <Alert tone="warning" title="Copy this token now">
        It is shown only this once. Groundwork keeps only its hash: after you close this dialog, reload or leave the page, nobody can
        show it again.
      </Alert>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code data-testid="minted-token" className="block min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm break-all select-all">
          {token}
        </code>
        <CopyButton value={token} label="Copy token" />
      </div>
    </div>
  );
}

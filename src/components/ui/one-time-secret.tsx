"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Alert } from "./alert";
import { Button } from "./button";
import { CopyButton } from "./copy-button";

/**
 * A secret shown once (a key's token, an invitation link, a generated password) and what guards
 * its dialog (D520): until it was copied or ticked "I have saved it", Esc, the corner's Close and
 * a click outside ask first instead of closing, since nobody can show it again.
 */
export function useOneTimeSecret(secret: string | null, onClose: () => void) {
  // Keyed by the secret itself: the next key minted in the same dialog starts unsaved again.
  const [savedFor, setSavedFor] = useState<string | null>(null);
  const [askingFor, setAskingFor] = useState<string | null>(null);
  const saved = secret !== null && savedFor === secret;
  const asking = secret !== null && askingFor === secret && !saved;
  return {
    saved,
    asking,
    markSaved: () => setSavedFor(secret),
    setSaved: (value: boolean) => setSavedFor(value ? secret : null),
    /** For the dialog's onOpenChange(false): closes, or asks while a secret may be unsaved. */
    requestClose: () => (secret === null || saved ? onClose() : setAskingFor(secret)),
    keepOpen: () => setAskingFor(null),
    /** For the dialog's onEscapeKeyDown: while asking, Esc answers "keep it open". */
    onEscapeKeyDown: (event: KeyboardEvent) => {
      if (!asking) return;
      event.preventDefault();
      setAskingFor(null);
    },
    closeAnyway: () => {
      setAskingFor(null);
      onClose();
    },
  };
}

export type OneTimeSecretGuard = ReturnType<typeof useOneTimeSecret>;

export function OneTimeSecret({
  guard,
  value,
  noun,
  testId,
  warningTitle,
  children,
}: {
  guard: OneTimeSecretGuard;
  value: string;
  /** "key", "link", "password": the question names it. */
  noun: string;
  testId: string;
  warningTitle: string;
  /** The warning's text. */
  children: React.ReactNode;
}) {
  const questionId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  // The question takes the focus on its safe answer, so a stray Enter keeps the secret on screen.
  useEffect(() => {
    if (guard.asking) keepRef.current?.focus();
  }, [guard.asking]);
  return (
    <div className="space-y-3">
      <Alert tone="warning" title={warningTitle}>
        {children}
      </Alert>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid={testId}
          className="block min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm break-all select-all"
        >
          {value}
        </code>
        <CopyButton value={value} label={`Copy ${noun === "key" ? "token" : noun}`} onCopied={guard.markSaved} />
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" className="size-4 accent-slate-900" checked={guard.saved} onChange={(e) => guard.setSaved(e.target.checked)} />I have saved it
      </label>
      {guard.asking ? (
        <div role="alertdialog" aria-labelledby={questionId} className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950">
          <p id={questionId} className="font-medium">
            You will not see this {noun} again. Close?
          </p>
          <div className="mt-2 flex flex-wrap justify-end gap-2">
            <Button ref={keepRef} type="button" variant="outline" size="sm" onClick={guard.keepOpen}>
              Keep it open
            </Button>
            <Button type="button" variant="destructive" size="sm" onClick={guard.closeAnyway}>
              Close without saving
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

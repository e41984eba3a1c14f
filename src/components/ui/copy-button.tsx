"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "./button";

/** Copies a value; says "Copied" only when the clipboard took it, and "Copy failed" when it did not. */
export function CopyButton({ value, label = "Copy", ariaLabel, onCopied }: { value: string; label?: string; ariaLabel?: string; onCopied?: () => void }) {
  const [outcome, setOutcome] = useState<"copied" | "failed" | null>(null);
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      aria-label={ariaLabel}
      onClick={async () => {
        // A refused clipboard is no copy: a one-time secret's dialog keeps asking (D520).
        const copied = await navigator.clipboard.writeText(value).then(
          () => true,
          () => false,
        );
        if (copied) onCopied?.();
        setOutcome(copied ? "copied" : "failed");
        setTimeout(() => setOutcome(null), 2000);
      }}
    >
      {outcome === "copied" ? <Check aria-hidden /> : <Copy aria-hidden />}
      <span aria-live="polite">{outcome === "copied" ? "Copied" : outcome === "failed" ? "Copy failed" : label}</span>
    </Button>
  );
}

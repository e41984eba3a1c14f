"use client";

import { useState } from "react";
import { Dialog, DialogContent, DialogFormFooter } from "@/components/ui/dialog";
import { Input, Label } from "@/components/ui/input";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import type { RuleRow } from "./types";

const PRESETS = [
  { value: "1h", label: "1 hour", ms: 3_600_000 },
  { value: "24h", label: "24 hours", ms: 24 * 3_600_000 },
  { value: "7d", label: "7 days", ms: 7 * 24 * 3_600_000 },
] as const;

/** Mutes a rule for a preset time or until a chosen time (read in the viewer's own time zone). */
export function MuteDialog({ rule, onClose, onMuted }: { rule: RuleRow; onClose: () => void; onMuted: (rule: RuleRow) => void }) {
  const [choice, setChoice] = useState<string>("24h");
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const preset = PRESETS.find((p) => p.value === choice);
    const custom = String(new FormData(event.currentTarget).get("until") ?? "");
    const until = preset ? new Date(Date.now() + preset.ms) : new Date(custom);
    if (Number.isNaN(until.getTime())) {
      setError({ message: "Choose when the mute ends.", requestId: null });
      return;
    }
    setPending(true);
    setError(null);
    try {
      onMuted(await trpc.alerts.muteRule.mutate({ ruleId: rule.id, until: until.toISOString() }));
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title="Mute alert rule"
        description={`${rule.sourceName ?? "Every source"} → “${rule.channelName}” sends nothing while muted. Trouble meanwhile still shows on the source and in the alerts pill; it is not sent later.`}
      >
        <form onSubmit={onSubmit} className="space-y-4">
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-900">Mute for</legend>
            {[...PRESETS, { value: "custom", label: "Until a time" }].map((option) => (
              <label key={option.value} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="radio" name="duration" value={option.value} checked={choice === option.value} onChange={() => setChoice(option.value)} />
                {option.label}
              </label>
            ))}
          </fieldset>
          {choice === "custom" ? (
            <div className="space-y-1.5">
              <Label htmlFor="mute-until">Muted until (your local time)</Label>
              <Input id="mute-until" name="until" type="datetime-local" required />
            </div>
          ) : null}
          <DialogFormFooter
            error={error}
            errorTitle="The rule was not muted"
            submitLabel={pending ? "Muting…" : "Mute rule"}
            pending={pending}
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

"use client";

import { useState } from "react";
import { Dialog, DialogContent, DialogFormFooter } from "@/components/ui/dialog";
import { Input, Label, Select } from "@/components/ui/input";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import type { ChannelRow, RuleRow, SourceOption } from "./types";

/**
 * A new rule, or an existing one edited (`rule`): which sources (one, or every source of the
 * organization) alert which channel, and how often to remind.
 */
export function RuleDialog({
  organizationId,
  channels,
  sources,
  rule,
  onClose,
  onCreated,
}: {
  organizationId: string;
  channels: ChannelRow[];
  sources: SourceOption[];
  rule?: RuleRow;
  onClose: () => void;
  onCreated: (rule: RuleRow) => void;
}) {
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const source = String(form.get("source") ?? "");
    const remind = String(form.get("remind") ?? "").trim();
    setPending(true);
    setError(null);
    try {
      const fields = {
        sourceId: source === "" ? null : source,
        channelId: String(form.get("channel") ?? ""),
        remindAfterMinutes: remind === "" ? null : Number(remind),
      };
      onCreated(
        rule ? await trpc.alerts.updateRule.mutate({ ruleId: rule.id, ...fields }) : await trpc.alerts.createRule.mutate({ organizationId, ...fields }),
      );
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={rule ? "Edit alert rule" : "New alert rule"}
        description="A message when a source needs attention, fails, goes stale, and when it recovers: one per change, never one per pass."
      >
        <form onSubmit={onSubmit} className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor="rule-source">Sources</Label>
            <Select id="rule-source" name="source" defaultValue={rule?.sourceId ?? ""}>
              <option value="">Every source of this organization</option>
              {sources.map((source) => (
                <option key={source.id} value={source.id}>
                  {source.name}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="rule-channel">Channel</Label>
            <Select id="rule-channel" name="channel" required defaultValue={rule?.channelId}>
              {channels.map((channel) => (
                <option key={channel.id} value={channel.id}>
                  {channel.name} ({channel.kind === "email" ? "email" : "chat"}
                  {channel.organizationId === null ? ", instance" : ""})
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="rule-remind">Remind every (minutes, optional)</Label>
            <Input
              id="rule-remind"
              name="remind"
              type="number"
              min={5}
              max={10080}
              placeholder="e.g. 240"
              aria-describedby="rule-remind-help"
              defaultValue={rule?.remindAfterMinutes ?? ""}
            />
            <p id="rule-remind-help" className="text-xs text-slate-500">
              While the trouble lasts, repeat the message this often. Leave empty for no reminders.
            </p>
          </div>
          <DialogFormFooter
            error={error}
            errorTitle={rule ? "The rule was not changed" : "The rule was not created"}
            submitLabel={pending ? (rule ? "Saving…" : "Creating…") : rule ? "Save rule" : "Create rule"}
            pending={pending}
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

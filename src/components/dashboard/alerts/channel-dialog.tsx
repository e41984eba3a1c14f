"use client";

import { useState } from "react";
import { Dialog, DialogContent, DialogFormFooter } from "@/components/ui/dialog";
import { Input, Label, Select } from "@/components/ui/input";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import type { ChannelRow } from "./types";

/** New channel: email recipients (through the operator's SMTP relay) or a chat URL (write-only). */
export function ChannelDialog({
  organizationId,
  onClose,
  onCreated,
}: {
  organizationId: string | null;
  onClose: () => void;
  onCreated: (channel: ChannelRow) => void;
}) {
  const [kind, setKind] = useState<"email" | "chat_url">("email");
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "");
    setPending(true);
    setError(null);
    try {
      const created =
        kind === "email"
          ? await trpc.alerts.createChannel.mutate({
              kind,
              organizationId,
              name,
              to: String(form.get("to") ?? "")
                .split(/[,\s]+/)
                .filter(Boolean),
            })
          : await trpc.alerts.createChannel.mutate({ kind, organizationId, name, url: String(form.get("url") ?? "") });
      onCreated(created);
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="New alert channel" description="Where alerts about sources go: people by email, or a chat tool's incoming-webhook URL.">
        <form onSubmit={onSubmit} className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor="channel-name">Name</Label>
            <Input id="channel-name" name="name" required maxLength={200} placeholder="On-call team" />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="channel-kind">Kind</Label>
            <Select id="channel-kind" value={kind} onChange={(event) => setKind(event.target.value as "email" | "chat_url")}>
              <option value="email">Email</option>
              <option value="chat_url">Chat URL (Slack, Mattermost… incoming webhook)</option>
            </Select>
          </div>
          {kind === "email" ? (
            <div className="space-y-1.5">
              <Label htmlFor="channel-to">Recipients</Label>
              <Input id="channel-to" name="to" required placeholder="ops@example.com, oncall@example.com" aria-describedby="channel-to-help" />
              <p id="channel-to-help" className="text-xs text-slate-500">
                Separate addresses with commas. Mail goes through the SMTP relay the operator set (GROUNDWORK_SMTP_URL).
              </p>
            </div>
          ) : (
            <div className="space-y-1.5">
              <Label htmlFor="channel-url">Chat URL</Label>
              <Input
                id="channel-url"
                name="url"
                type="url"
                required
                autoComplete="off"
                placeholder="https://hooks.slack.com/services/…"
                aria-describedby="channel-url-help"
              />
              <p id="channel-url-help" className="text-xs text-slate-500">
                Receives <code>{'{"text": "…"}'}</code> as JSON. The URL is a secret: it is stored encrypted and only its host is shown again.
              </p>
            </div>
          )}
          <DialogFormFooter
            error={error}
            errorTitle="The channel was not created"
            submitLabel={pending ? "Creating…" : "Create channel"}
            pending={pending}
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

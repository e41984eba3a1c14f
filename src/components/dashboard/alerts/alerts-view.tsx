"use client";

import { Mail, MessageSquare, Plus, Send, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState } from "@/components/ui/card";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { ChannelDialog } from "./channel-dialog";
import { ConfirmDialog } from "./confirm-dialog";
import { DeliveriesTable } from "./deliveries-table";
import { RulesCard } from "./rules-card";
import type { ChannelRow, DeliveriesPage, RuleRow, SourceOption } from "./types";

interface Props {
  /** null: the instance's channels (no rules: rules belong to organizations). */
  organizationId: string | null;
  channels: ChannelRow[];
  /** Channels a new rule may use: this organization's, plus the instance's for owners. */
  ruleChannels: ChannelRow[];
  rules: RuleRow[] | null;
  sources: SourceOption[];
  deliveries: DeliveriesPage;
  canManage: boolean;
  smtpConfigured: boolean;
}

type Confirm = { kind: "channel"; channel: ChannelRow };

export function AlertsView({ organizationId, channels, ruleChannels, rules, sources, deliveries, canManage, smtpConfigured }: Props) {
  const router = useRouter();
  const [dialog, setDialog] = useState<"channel" | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string; requestId?: string | null } | null>(null);
  const refresh = () => router.refresh();

  async function sendTest(channel: ChannelRow) {
    setTesting(channel.id);
    setNotice(null);
    try {
      const sent = await trpc.alerts.testChannel.mutate({ channelId: channel.id });
      setNotice({
        tone: "success",
        text: sent.queued
          ? `Test message to “${channel.name}” queued: its delivery is listed below.`
          : `Test message to “${channel.name}” recorded; it goes out once a sync worker runs.`,
      });
      refresh();
    } catch (caught) {
      const shown: ShownError = describeError(caught);
      setNotice({ tone: "error", text: shown.message, requestId: shown.requestId });
    } finally {
      setTesting(null);
    }
  }

  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Alerts tell people when a source needs attention (the guardrail held back deletions), fails, or goes stale, and when it recovers, with what to do. These
        are notifications to your team, not API webhooks.
      </p>
      {notice ? (
        <Alert tone={notice.tone} requestId={notice.requestId}>
          {notice.text}
        </Alert>
      ) : null}

      <Card aria-labelledby="channels-heading">
        <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="channels-heading" className="text-base font-semibold text-slate-900">
            Channels
          </h2>
          {canManage ? (
            <Button onClick={() => setDialog("channel")}>
              <Plus aria-hidden /> New channel
            </Button>
          ) : null}
        </div>
        {!smtpConfigured && channels.some((c) => c.kind === "email") ? (
          <Alert tone="warning" className="mb-3" title="No SMTP relay is configured">
            Email channels fail until the operator sets GROUNDWORK_SMTP_URL.
          </Alert>
        ) : null}
        {channels.length === 0 ? (
          <EmptyState title="No channels yet">
            {canManage ? "Add an email list or a chat URL, then a rule saying which sources alert it." : "An admin can add an email list or a chat URL here."}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Channels">
            {channels.map((channel) => (
              <li key={channel.id} data-testid="channel-row" className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="flex min-w-0 items-start gap-2">
                  {channel.kind === "email" ? (
                    <Mail className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
                  ) : (
                    <MessageSquare className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
                  )}
                  <div className="min-w-0">
                    <p className="font-medium break-words text-slate-900">
                      {channel.name} <Badge>{channel.kind === "email" ? "email" : "chat URL"}</Badge>
                    </p>
                    <p className="text-xs break-words text-slate-600">
                      {channel.kind === "email" ? (
                        channel.emailTo.join(", ")
                      ) : (
                        <>
                          {channel.urlHint} <span className="text-slate-500">(the rest of the URL is kept secret)</span>
                        </>
                      )}
                    </p>
                  </div>
                </div>
                {canManage ? (
                  <div className="flex shrink-0 gap-2">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => void sendTest(channel)}
                      disabled={testing !== null}
                      aria-label={`Send test to ${channel.name}`}
                    >
                      <Send aria-hidden /> {testing === channel.id ? "Sending…" : "Send test"}
                    </Button>
                    <Button variant="ghost" size="sm" onClick={() => setConfirm({ kind: "channel", channel })} aria-label={`Delete channel ${channel.name}`}>
                      <Trash2 aria-hidden /> Delete
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {rules && organizationId ? (
        <RulesCard organizationId={organizationId} rules={rules} ruleChannels={ruleChannels} sources={sources} canManage={canManage} onNotice={setNotice} />
      ) : null}

      <Card aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading" className="mb-3 text-base font-semibold text-slate-900">
          Deliveries
        </h2>
        <DeliveriesTable key={`${deliveries.items[0]?.id ?? "none"}:${deliveries.items.length}`} organizationId={organizationId} initial={deliveries} />
      </Card>

      {dialog === "channel" ? (
        <ChannelDialog
          organizationId={organizationId}
          onClose={() => setDialog(null)}
          onCreated={() => {
            setDialog(null);
            refresh();
          }}
        />
      ) : null}
      {confirm?.kind === "channel" ? (
        <ConfirmDialog
          title={`Delete channel “${confirm.channel.name}”?`}
          description="Its rules are removed with it. Its deliveries stay listed."
          action="Delete channel"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await trpc.alerts.deleteChannel.mutate({ channelId: confirm.channel.id });
            setConfirm(null);
            refresh();
          }}
        />
      ) : null}
    </div>
  );
}

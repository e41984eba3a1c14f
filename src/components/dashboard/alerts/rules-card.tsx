"use client";

import { Bell, BellOff, Pencil, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState } from "@/components/ui/card";
import { exactTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc } from "@/lib/trpc-client";
import { ConfirmDialog } from "./confirm-dialog";
import { MuteDialog } from "./mute-dialog";
import { RuleDialog } from "./rule-dialog";
import type { ChannelRow, RuleRow, SourceOption } from "./types";

export type Notice = { tone: "success" | "error"; text: string; requestId?: string | null };

/** An organization's alert rules: create, edit, mute for a time or unmute, delete (D500). */
export function RulesCard({
  organizationId,
  rules,
  ruleChannels,
  sources,
  canManage,
  onNotice,
}: {
  organizationId: string;
  rules: RuleRow[];
  ruleChannels: ChannelRow[];
  sources: SourceOption[];
  canManage: boolean;
  onNotice: (notice: Notice | null) => void;
}) {
  const router = useRouter();
  const refresh = () => router.refresh();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<RuleRow | null>(null);
  const [muting, setMuting] = useState<RuleRow | null>(null);
  const [deleting, setDeleting] = useState<RuleRow | null>(null);

  async function unmute(rule: RuleRow) {
    onNotice(null);
    try {
      await trpc.alerts.muteRule.mutate({ ruleId: rule.id, until: null });
      onNotice({ tone: "success", text: `The rule for ${rule.sourceName ?? "every source"} sends to “${rule.channelName}” again.` });
      refresh();
    } catch (caught) {
      const shown = describeError(caught);
      onNotice({ tone: "error", text: shown.message, requestId: shown.requestId });
    }
  }

  return (
    <>
      <Card aria-labelledby="rules-heading">
        <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="rules-heading" className="text-base font-semibold text-slate-900">
            Rules
          </h2>
          {canManage ? (
            <Button
              onClick={() => setCreating(true)}
              disabled={ruleChannels.length === 0}
              title={ruleChannels.length === 0 ? "Add a channel first" : undefined}
            >
              <Bell aria-hidden /> New rule
            </Button>
          ) : null}
        </div>
        {rules.length === 0 ? (
          <EmptyState title="No rules yet">
            {!canManage
              ? "An admin of this organization can add one."
              : ruleChannels.length === 0
                ? "Add a channel first; then a rule sends it this organization's alerts."
                : "Add a rule to send alerts about one source, or all of them, to a channel."}
          </EmptyState>
        ) : (
          <Table aria-label="Rules">
            <THead>
              <TR>
                <TH>Sources</TH>
                <TH>Channel</TH>
                <TH>Reminder</TH>
                <TH>Status</TH>
                {canManage ? <TH className="text-right">Actions</TH> : null}
              </TR>
            </THead>
            <TBody>
              {rules.map((rule) => (
                <TR key={rule.id}>
                  <TD>{rule.sourceName ?? "Every source"}</TD>
                  <TD>{rule.channelName}</TD>
                  <TD className="whitespace-nowrap">{rule.remindAfterMinutes ? `every ${rule.remindAfterMinutes} min` : "none"}</TD>
                  <TD data-testid="rule-status">
                    {rule.mutedUntil ? (
                      <Badge tone="amber">
                        <BellOff aria-hidden className="mr-1 inline size-3" /> Muted until {exactTime(rule.mutedUntil)}
                      </Badge>
                    ) : (
                      <Badge tone="green">Sending</Badge>
                    )}
                  </TD>
                  {canManage ? (
                    <TD className="text-right whitespace-nowrap">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setEditing(rule)}
                        aria-label={`Edit rule for ${rule.sourceName ?? "every source"} to ${rule.channelName}`}
                      >
                        <Pencil aria-hidden /> Edit
                      </Button>
                      {rule.mutedUntil ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => void unmute(rule)}
                          aria-label={`Unmute rule for ${rule.sourceName ?? "every source"} to ${rule.channelName}`}
                        >
                          <Bell aria-hidden /> Unmute
                        </Button>
                      ) : (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setMuting(rule)}
                          aria-label={`Mute rule for ${rule.sourceName ?? "every source"} to ${rule.channelName}`}
                        >
                          <BellOff aria-hidden /> Mute
                        </Button>
                      )}
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setDeleting(rule)}
                        aria-label={`Delete rule for ${rule.sourceName ?? "every source"} to ${rule.channelName}`}
                      >
                        <Trash2 aria-hidden /> Delete
                      </Button>
                    </TD>
                  ) : null}
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      {creating ? (
        <RuleDialog
          organizationId={organizationId}
          channels={ruleChannels}
          sources={sources}
          onClose={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            refresh();
          }}
        />
      ) : null}
      {editing ? (
        <RuleDialog
          organizationId={organizationId}
          channels={ruleChannels}
          sources={sources}
          rule={editing}
          onClose={() => setEditing(null)}
          onCreated={() => {
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
      {muting ? (
        <MuteDialog
          rule={muting}
          onClose={() => setMuting(null)}
          onMuted={(rule) => {
            setMuting(null);
            onNotice({ tone: "success", text: `Muted until ${rule.mutedUntil ? exactTime(rule.mutedUntil) : "—"}.` });
            refresh();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this rule?"
          description={`${deleting.sourceName ?? "Every source"} will no longer alert “${deleting.channelName}”.`}
          action="Delete rule"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await trpc.alerts.deleteRule.mutate({ ruleId: deleting.id });
            setDeleting(null);
            refresh();
          }}
        />
      ) : null}
    </>
  );
}

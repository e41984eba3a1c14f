"use client";

import { Ban, CalendarClock, RefreshCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { exactTime, RelativeTime } from "@/components/ui/relative-time";
import type { ShownError } from "@/lib/trpc-client";
import { MintKeyDialog } from "./mint-key-dialog";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { CancelRevocationButton, ScheduleRevocationDialog } from "./schedule-revocation-dialog";
import { rotationDefaults } from "./rotation-defaults";
import type { KeyRow } from "./types";

function windowText(seconds: number): string {
  return seconds === 60 ? "minute" : seconds % 3600 === 0 ? `${seconds / 3600} h` : `${seconds} s`;
}

/**
 * What a key is (D484): its settings, fixed at mint (keys stay uneditable, spec 3.1), who made
 * it and when it was last used, and what can still be done to it: rotate, revoke now or at a
 * time, cancel a scheduled revocation.
 */
export function KeyOverview({
  apiKey,
  organizationId,
  organizationName,
  canManage,
  canMintInstance,
  keysHref,
}: {
  apiKey: KeyRow;
  organizationId: string | null;
  organizationName: string | null;
  canManage: boolean;
  canMintInstance: boolean;
  keysHref: string;
}) {
  const router = useRouter();
  const [dialog, setDialog] = useState<"rotate" | "revoke" | "schedule" | null>(null);
  const [minted, setMinted] = useState<KeyRow | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const refresh = () => {
    setError(null);
    router.refresh();
  };
  const active = apiKey.state === "active";
  const binding = apiKey.organizationId
    ? (organizationName ?? "Organization")
    : apiKey.formerOrganization
      ? `Deleted organization ${apiKey.formerOrganization.name ?? apiKey.formerOrganization.id}`
      : "Instance (every organization)";

  return (
    <Card aria-labelledby="key-details-heading">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
        <h2 id="key-details-heading" className="font-semibold text-slate-900">
          Key
        </h2>
        {canManage && active ? (
          <div className="flex flex-wrap gap-2" role="group" aria-label="Key actions">
            <Button variant="outline" size="sm" onClick={() => setDialog("rotate")}>
              <RefreshCw aria-hidden /> Rotate
            </Button>
            {apiKey.revokeAt ? <CancelRevocationButton apiKey={apiKey} organizationId={organizationId} onCancelled={refresh} onError={setError} /> : null}
            <Button variant="outline" size="sm" onClick={() => setDialog("schedule")}>
              <CalendarClock aria-hidden /> {apiKey.revokeAt ? "Reschedule revocation" : "Schedule revocation"}
            </Button>
            <Button variant="outline" size="sm" className="text-red-700" onClick={() => setDialog("revoke")}>
              <Ban aria-hidden /> Revoke now
            </Button>
          </div>
        ) : null}
      </div>
      {apiKey.revokeAt ? (
        <p className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="key-scheduled-revocation">
          Revocation scheduled <RelativeTime iso={apiKey.revokeAt} /> ({exactTime(apiKey.revokeAt)}). Requests are refused from then on.
        </p>
      ) : null}
      {error ? (
        <Alert className="mt-3" title="That did not work" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3" data-testid="key-details">
        <Item label="Environment">
          <Badge tone={apiKey.environment === "live" ? "neutral" : "amber"}>{apiKey.environment}</Badge>
        </Item>
        <Item label="Binding">{binding}</Item>
        <Item label="Rate limit" testId="key-rate-limit">
          {apiKey.rateLimit.toLocaleString("en")} requests per {windowText(apiKey.rateLimitWindowSeconds)}
        </Item>
        <Item label="Scopes" testId="key-scopes">
          <span className="flex flex-wrap gap-1">
            {apiKey.scopes.map((scope) => (
              <Badge key={scope} tone="blue">
                {scope}
              </Badge>
            ))}
          </span>
        </Item>
        <Item label="Expires" testId="key-expires">
          {apiKey.expiresAt ? (
            <>
              <RelativeTime iso={apiKey.expiresAt} /> <span className="text-slate-600">({exactTime(apiKey.expiresAt)})</span>
            </>
          ) : (
            "Never"
          )}
        </Item>
        <Item label="Created" testId="key-created">
          <RelativeTime iso={apiKey.createdAt} /> by {apiKey.createdBy ? (apiKey.createdBy.name ?? apiKey.createdBy.email) : "the command line"}
        </Item>
        <Item label="Last used" testId="key-last-used">
          <RelativeTime iso={apiKey.lastUsedAt} empty="never" />
        </Item>
        {apiKey.revokedAt ? (
          <Item label="Revoked">
            <RelativeTime iso={apiKey.revokedAt} /> <span className="text-slate-600">({exactTime(apiKey.revokedAt)})</span>
          </Item>
        ) : null}
      </dl>
      <p className="mt-3 text-xs text-slate-600">A key&apos;s settings are fixed when it is minted: to change them, rotate it.</p>

      {dialog === "rotate" ? (
        <MintKeyDialog
          open
          onOpenChange={(open) => {
            if (open) return;
            setDialog(null);
            // The rotation continues on the keys list: the old key's last use, live (spec 5.9).
            if (minted) router.push(`${keysHref}?rotate=${apiKey.id}&with=${minted.id}`);
            else router.refresh();
          }}
          organizationId={organizationId}
          organizationName={organizationName}
          canMintInstance={canMintInstance}
          defaults={rotationDefaults(apiKey)}
          onMinted={setMinted}
        />
      ) : null}
      {dialog === "revoke" ? (
        <RevokeKeyDialog apiKey={apiKey} organizationId={organizationId} open onOpenChange={(open) => !open && setDialog(null)} onRevoked={refresh} />
      ) : null}
      {dialog === "schedule" ? (
        <ScheduleRevocationDialog apiKey={apiKey} organizationId={organizationId} onOpenChange={(open) => !open && setDialog(null)} onScheduled={refresh} />
      ) : null}
    </Card>
  );
}

function Item({ label, testId, children }: { label: string; testId?: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

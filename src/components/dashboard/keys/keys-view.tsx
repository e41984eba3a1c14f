"use client";

import { KeyRound, Plus, RefreshCw } from "lucide-react";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { MintKeyDialog } from "./mint-key-dialog";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { RotationPanel } from "./rotation-panel";
import type { KeyRow, MintDefaults } from "./types";

const FRESH: MintDefaults = { name: "", environment: "live", scopes: [], rateLimit: 600 };
const stateTone = { active: "green", expired: "amber", revoked: "red" } as const;

interface Props {
  organizationId: string | null;
  organizationName: string | null;
  keys: KeyRow[];
  canManage: boolean;
  canMintInstance: boolean;
  rotatingKeyId: string | null;
}

export function KeysView({ organizationId, organizationName, keys, canManage, canMintInstance, rotatingKeyId }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const [mintOpen, setMintOpen] = useState(false);
  const [defaults, setDefaults] = useState<MintDefaults>(FRESH);
  const [revoking, setRevoking] = useState<KeyRow | null>(null);
  const [minted, setMinted] = useState(false);
  const rotating = rotatingKeyId ? keys.find((key) => key.id === rotatingKeyId) ?? null : null;

  const openMint = (next: MintDefaults) => {
    setDefaults(next);
    setMinted(false);
    setMintOpen(true);
  };
  const binding = (key: KeyRow) =>
    key.organizationId
      ? (organizationName ?? "Organization")
      : key.formerOrganization
        ? `Deleted organization ${key.formerOrganization.name ?? key.formerOrganization.id}`
        : "Instance";

  return (
    <div>
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          Only a key&apos;s prefix is shown after it is minted. Revoked keys stay listed for audit.
        </p>
        {canManage ? (
          <Button onClick={() => openMint(FRESH)}>
            <Plus aria-hidden /> Mint key
          </Button>
        ) : null}
      </div>

      {rotating ? (
        <RotationPanel
          key={rotating.id}
          oldKey={rotating}
          organizationId={organizationId}
          onRevoke={setRevoking}
          onDone={() => router.replace(pathname)}
        />
      ) : null}

      {keys.length === 0 ? (
        <EmptyState title="No API keys yet">
          {canManage
            ? "Mint a key to let an integration call the Customer API. Give it only the scopes it needs."
            : "An owner or an admin of this organization can mint one."}
        </EmptyState>
      ) : (
        <Table aria-label="API keys">
          <THead>
            <TR>
              <TH>Name</TH>
              <TH>Prefix</TH>
              <TH>Scopes</TH>
              <TH>Binding</TH>
              <TH>Env</TH>
              <TH>Created</TH>
              <TH>Expires</TH>
              <TH>Last used</TH>
              <TH>State</TH>
              {canManage ? <TH className="text-right">Actions</TH> : null}
            </TR>
          </THead>
          <TBody>
            {keys.map((key) => (
              <TR key={key.id} data-key-id={key.id} data-testid="key-row" className={key.state === "active" ? undefined : "text-slate-500"}>
                <TD className="font-medium text-slate-900">{key.name}</TD>
                <TD>
                  <code className="whitespace-nowrap">{key.prefix}…</code>
                </TD>
                <TD className="max-w-56">
                  <div className="flex flex-wrap gap-1">
                    {key.scopes.map((scope) => (
                      <Badge key={scope} tone="blue">
                        {scope}
                      </Badge>
                    ))}
                  </div>
                </TD>
                <TD className="whitespace-nowrap">{binding(key)}</TD>
                <TD>{key.environment}</TD>
                <TD className="whitespace-nowrap">
                  <RelativeTime iso={key.createdAt} />
                </TD>
                <TD className="whitespace-nowrap">
                  <RelativeTime iso={key.expiresAt} empty="never" />
                </TD>
                <TD className="whitespace-nowrap" data-testid="key-last-used">
                  <RelativeTime iso={key.lastUsedAt} empty="never" />
                </TD>
                <TD>
                  <Badge tone={stateTone[key.state]} data-testid="key-state">
                    {key.state}
                  </Badge>
                </TD>
                {canManage ? (
                  <TD className="text-right whitespace-nowrap">
                    {key.state === "active" ? (
                      <div className="flex justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={`Rotate ${key.name}`}
                          onClick={() =>
                            openMint({ name: `${key.name} (rotated)`, environment: key.environment, scopes: key.scopes, rateLimit: key.rateLimit, rotatingKeyId: key.id })
                          }
                        >
                          <RefreshCw aria-hidden /> Rotate
                        </Button>
                        <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>
                          Revoke
                        </Button>
                      </div>
                    ) : (
                      <span className="text-xs text-slate-400">{key.state === "revoked" ? "permanent" : "—"}</span>
                    )}
                  </TD>
                ) : null}
              </TR>
            ))}
          </TBody>
        </Table>
      )}

      {mintOpen ? (
        <MintKeyDialog
          key={defaults.rotatingKeyId ?? "fresh"}
          open={mintOpen}
          onOpenChange={(open) => {
            setMintOpen(open);
            // After a rotation's mint, the page watches the old key (?rotate= survives a reload).
            if (!open && minted && defaults.rotatingKeyId) router.replace(`${pathname}?rotate=${defaults.rotatingKeyId}`);
            if (!open) router.refresh();
          }}
          organizationId={organizationId}
          organizationName={organizationName}
          canMintInstance={canMintInstance}
          defaults={defaults}
          onMinted={() => setMinted(true)}
        />
      ) : null}
      {revoking ? (
        <RevokeKeyDialog
          apiKey={revoking}
          organizationId={organizationId}
          open
          onOpenChange={(open) => {
            if (!open) setRevoking(null);
          }}
          onRevoked={() => router.refresh()}
        />
      ) : null}
      <p className="mt-3 flex items-center gap-1 text-xs text-slate-500">
        <KeyRound className="size-3" aria-hidden /> Send a key as <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
    </div>
  );
}

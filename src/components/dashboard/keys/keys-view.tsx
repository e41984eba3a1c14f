"use client";

import Link from "next/link";
import { Ban, KeyRound, Plus, RefreshCw } from "lucide-react";
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
import { rotationDefaults } from "./rotation-defaults";
import type { KeyRow, MintDefaults } from "./types";

const FRESH: MintDefaults = { name: "", environment: "live", scopes: [], rateLimit: 600 };
const stateTone = { active: "green", expired: "amber", revoked: "red" } as const;

/** A key's own page: its traffic and recent requests (D199). */
function keyPage(organizationId: string | null, keyId: string): string {
  return organizationId ? `/dashboard/organizations/${organizationId}/keys/${keyId}` : `/dashboard/instance/keys/${keyId}`;
}

interface Props {
  organizationId: string | null;
  organizationName: string | null;
  keys: KeyRow[];
  canManage: boolean;
  canMintInstance: boolean;
  /** The key being rotated (?rotate=), loaded on its own: it need not be on this page of the list. */
  rotating: KeyRow | null;
  /** The rotation's replacement key (?with=), for the side-by-side traffic. */
  newKeyId?: string | null;
  /** `?mint=a:read,b:write` (the Connect page's link): the mint form opens with these scopes ticked. */
  mintScopes?: string[] | null;
}

export function KeysView({ organizationId, organizationName, keys, canManage, canMintInstance, rotating, newKeyId = null, mintScopes = null }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const [mintOpen, setMintOpen] = useState(canManage && mintScopes !== null);
  const [defaults, setDefaults] = useState<MintDefaults>(mintScopes ? { ...FRESH, name: "integration", scopes: mintScopes } : FRESH);
  const [revoking, setRevoking] = useState<KeyRow | null>(null);
  const [minted, setMinted] = useState<KeyRow | null>(null);

  const openMint = (next: MintDefaults) => {
    setDefaults(next);
    setMinted(null);
    setMintOpen(true);
  };
  const binding = (key: KeyRow) =>
    key.organizationId
      ? "Organization"
      : key.formerOrganization
        ? `Deleted organization ${key.formerOrganization.name ?? key.formerOrganization.id}`
        : "Instance";

  return (
    <div>
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">Only a key&apos;s prefix is shown after it is minted. Revoked keys stay listed for audit.</p>
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
          newKeyId={newKeyId}
          organizationId={organizationId}
          onRevoke={setRevoking}
          onDone={() => router.replace(pathname)}
          onChange={() => router.refresh()}
        />
      ) : null}

      {keys.length === 0 ? (
        <EmptyState title="No API keys yet">
          {canManage
            ? "Mint a key to let an integration call the Customer API. Give it only the scopes it needs."
            : "An owner or an admin of this organization can mint one."}
        </EmptyState>
      ) : (
        <>
          <ul className="space-y-3 md:hidden" aria-label="API keys (compact)">
            {keys.map((key) => (
              <li key={key.id} data-testid="key-card" className="rounded-lg border border-slate-200 bg-white p-3">
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-medium break-words text-slate-900">
                      <Link
                        href={keyPage(organizationId, key.id)}
                        className="hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
                        data-testid="key-page-link"
                      >
                        {key.name}
                      </Link>
                    </p>
                    <p className="mt-0.5 flex items-center gap-1.5">
                      <code className="text-xs text-slate-600">{key.prefix}…</code>
                      <Badge tone={key.environment === "live" ? "neutral" : "amber"}>{key.environment}</Badge>
                    </p>
                  </div>
                  <Badge tone={stateTone[key.state]}>{key.state}</Badge>
                </div>
                <ScheduledNote iso={key.revokeAt} />
                <div className="mt-2 flex flex-wrap gap-1">
                  {key.scopes.map((scope) => (
                    <Badge key={scope} tone="blue">
                      {scope}
                    </Badge>
                  ))}
                </div>
                <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
                  <dt className="text-slate-500">Binding</dt>
                  <dd>{binding(key)}</dd>
                  <dt className="text-slate-500">Last used</dt>
                  <dd>
                    <RelativeTime iso={key.lastUsedAt} empty="never" />
                  </dd>
                  <dt className="text-slate-500">Created</dt>
                  <dd>
                    <RelativeTime iso={key.createdAt} />
                  </dd>
                  <dt className="text-slate-500">Expires</dt>
                  <dd>
                    <RelativeTime iso={key.expiresAt} empty="never" />
                  </dd>
                </dl>
                {canManage && key.state === "active" ? (
                  <div className="mt-3 flex gap-2">
                    <Button variant="outline" size="sm" onClick={() => openMint(rotationDefaults(key))}>
                      <RefreshCw aria-hidden /> Rotate
                    </Button>
                    <Button variant="outline" size="sm" className="text-red-700" onClick={() => setRevoking(key)}>
                      <Ban aria-hidden /> Revoke
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <Table aria-label="API keys" wrapperClassName="hidden md:block">
            <THead>
              <TR>
                <TH>Name · prefix · env</TH>
                <TH>Scopes</TH>
                <TH>Binding</TH>
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
                  <TD>
                    <p className="font-medium break-words text-slate-900">
                      <Link
                        href={keyPage(organizationId, key.id)}
                        className="hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
                        data-testid="key-page-link"
                      >
                        {key.name}
                      </Link>
                    </p>
                    <p className="mt-0.5 flex items-center gap-1.5">
                      <code className="text-xs whitespace-nowrap text-slate-600">{key.prefix}…</code>
                      <Badge tone={key.environment === "live" ? "neutral" : "amber"}>{key.environment}</Badge>
                    </p>
                  </TD>
                  <TD className="min-w-32">
                    <div className="flex flex-wrap gap-1">
                      {key.scopes.map((scope) => (
                        <Badge key={scope} tone="blue">
                          {scope}
                        </Badge>
                      ))}
                    </div>
                  </TD>
                  <TD>{binding(key)}</TD>
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
                    <ScheduledNote iso={key.revokeAt} />
                  </TD>
                  {canManage ? (
                    <TD className="text-right whitespace-nowrap">
                      {key.state === "active" ? (
                        <div className="flex justify-end gap-1">
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Rotate ${key.name}`}
                            title="Rotate: mint a replacement with the same scopes"
                            onClick={() => openMint(rotationDefaults(key))}
                          >
                            <RefreshCw aria-hidden />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            className="text-red-700 hover:bg-red-50"
                            aria-label={`Revoke ${key.name}`}
                            title="Revoke (permanent)"
                            onClick={() => setRevoking(key)}
                          >
                            <Ban aria-hidden />
                          </Button>
                        </div>
                      ) : (
                        <span className="text-xs text-slate-600">{key.state === "revoked" ? "permanent" : "—"}</span>
                      )}
                    </TD>
                  ) : null}
                </TR>
              ))}
            </TBody>
          </Table>
        </>
      )}

      {mintOpen ? (
        <MintKeyDialog
          key={defaults.rotatingKeyId ?? "fresh"}
          open={mintOpen}
          onOpenChange={(open) => {
            setMintOpen(open);
            // After a rotation's mint, the page watches the old key (?rotate= survives a reload).
            if (!open && minted && defaults.rotatingKeyId) router.replace(`${pathname}?rotate=${defaults.rotatingKeyId}&with=${minted.id}`);
            if (!open) router.refresh();
          }}
          organizationId={organizationId}
          organizationName={organizationName}
          canMintInstance={canMintInstance}
          defaults={defaults}
          onMinted={setMinted}
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

/** A pending scheduled revocation (D480), on the keys list. */
function ScheduledNote({ iso }: { iso: string | null }) {
  if (!iso) return null;
  return (
    <span className="mt-1 block text-xs whitespace-nowrap text-amber-800" data-testid="key-revoke-at">
      revokes <RelativeTime iso={iso} />
    </span>
  );
}
